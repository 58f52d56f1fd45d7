"""``pokerlab draw play``: five-card draw against a bot in the terminal, driven through click's
CliRunner with typed input, checked against :class:`DrawSession` replaying the same seed."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.analysis.draw import advise
from pokerlab.analysis.draw_play import DrawSession, discard_for_keep, parse_discard
from pokerlab.cards import format_cards, parse_cards
from pokerlab.cli import app
from pokerlab.errors import PokerlabError


def play(*args: str, keys: str) -> Result:
    return CliRunner().invoke(app, ["draw", "play", *args], input=keys)


def hands_shown(output: str) -> list[str]:
    return re.findall(r"deal \d+: your hand ((?:\S\S ){4}\S\S)", output)


def test_a_session_keeps_score_and_matches_the_library() -> None:
    result = play("--bot", "rules", "--seed", "7", "--hands", "3", keys="-\n3 4 5\n1\n")
    assert result.exit_code == 0, result.output
    session = DrawSession("rules", seed=7)
    outcomes = []
    for answer in ("-", "3 4 5", "1"):
        deal = session.deal()
        assert f"your hand {format_cards(deal.hand, ' ')}" in result.output
        outcomes.append(session.draw(parse_discard(answer, deal.hand)))
    for s in outcomes:
        assert f"had {format_cards(s.bot_hand, ' ')}, drew {len(s.bot_discard)}" in result.output
        assert f"{format_cards(s.player_final, ' ')}  ({s.player_category})" in result.output
    score = session.score
    assert score.hands == 3
    assert (f"final score after 3 deals: {score.wins} won, {score.ties} tied, "
            f"{score.losses} lost") in result.output  # fmt: skip
    assert len(hands_shown(result.output)) == 3


def test_advice_is_hidden_unless_asked() -> None:
    quiet = play("--seed", "2", "--hands", "1", keys="-\n")
    assert "advice: keep" not in quiet.output
    asked = play("--seed", "2", "--hands", "1", keys="?\n-\n")
    hand = parse_cards(hands_shown(asked.output)[0])
    best = advise(hand).best
    keep = format_cards(best.keep, " ") or "nothing"
    assert f"advice: keep {keep}, draw {len(best.discard)}" in asked.output


def test_enter_alone_asks_again() -> None:
    """An Enter pressed by mistake stood pat ('you drew 0'); now the prompt comes back."""
    result = play("--seed", "4", "--hands", "1", keys="\n-\n")
    assert result.exit_code == 0, result.output
    assert result.output.count("discard:") == 2
    blank = play("--seed", "4", "--hands", "1", keys="  \n\t\n-\n")  # spaces stood pat
    assert blank.exit_code == 0, blank.output
    assert blank.output.count("discard:") == 3
    assert "final score after 1 deal: " in result.output  # not "1 deals"


def test_bad_input_asks_again_and_q_quits() -> None:
    result = play("--seed", "4", keys="zz\n9\nq\n")
    assert result.exit_code == 0, result.output
    assert "invalid card 'zz'" in result.output
    assert "positions must be distinct numbers from 1 to 5" in result.output
    assert result.output.rstrip().endswith("final score after 0 deals: 0 won, 0 tied, 0 lost")
    ended = play("--seed", "4", keys="-\n")  # the input runs out: the session ends cleanly
    assert ended.exit_code == 0 and "final score after 1 deal:" in ended.output


def test_cards_not_in_the_hand_are_named_with_the_right_verb() -> None:
    # two strangers read "As Ks is not in your hand ..."
    hand = parse_cards("Th Qd 9s Jd 7s")
    for text, fragment in (("As Ks", "As Ks are not in your hand"), ("As Th", "As is not in")):
        try:
            parse_discard(text, hand)
        except PokerlabError as exc:
            assert fragment in str(exc)
        else:
            raise AssertionError(text)
    with pytest.raises(PokerlabError, match=r"\(As Ks are not\)"):
        discard_for_keep("As Ks Th", hand)


def test_max_draw_limits_the_player_and_the_bot() -> None:
    result = play("--seed", "5", "--max-draw", "3", "--bot", "random", "--hands", "6",
                  keys="1 2 3 4\n1 2 3\n" + "-\n" * 5)  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "you may draw at most 3 cards, not 4" in result.output
    drawn = [int(n) for n in re.findall(r"drew (\d)", result.output)]
    assert len(drawn) == 12 and max(drawn) <= 3
    assert_one_line_error(play("--bot", "nobody", keys=""), "unknown bot 'nobody'")


def test_a_negative_seed_is_refused_as_everywhere_else() -> None:
    assert_one_line_error(play("--seed", "-1", "--hands", "1", keys="-\n"),
                          "seed must be a whole number, 0 or more")  # fmt: skip


def test_ctrl_c_at_the_prompt_shows_the_score_and_exits_130() -> None:
    """It quit with status 0, as the end of the input does."""
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "pokerlab", "draw", "play", "--seed", "1"]
    process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    process.stdout.readline()  # the greeting: the prompt is next
    time.sleep(1)
    process.send_signal(signal.SIGINT)
    try:
        out, _ = process.communicate(timeout=30)
    finally:
        process.kill()
    assert process.returncode == 130, out
    assert "final score after 0 deals: 0 won, 0 tied, 0 lost" in out, out
