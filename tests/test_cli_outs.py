"""``pokerlab outs`` text output on a flop: each turn card labelled by its rivers (win / tie / lose
only when every river agrees, "depends" otherwise), the win / chop / lose river counts of every
turn, and ``--turn CARD`` listing that turn's rivers."""

from __future__ import annotations

import json
import re

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.analysis.outs import turn_outcomes
from pokerlab.cli import app

SPOT = ("outs", "6c7c", "AhAd", "--board", "4c8c9s")


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "200"})


def turn_row(output: str, card: str) -> str:
    return next(line for line in output.splitlines()
                if re.match(rf"\W*{card}\W", line) and "chop" in line)  # fmt: skip


def test_flop_labels_turns_by_their_rivers_and_counts_them() -> None:
    result = run(*SPOT)
    assert result.exit_code == 0, result.output
    out = result.stdout
    player = next(line for line in out.splitlines() if "6c7c" in line and "13:" in line)
    cells = [c.strip() for c in player.split("│") if c.strip()]
    # 13 turns win on every river, none tie or lose on every river, 32 depend on it
    assert [c.split(":")[0] for c in cells[2:]] == ["13", "0", "0", "32"]
    assert "2h" in cells[5] and "5h" in cells[2]
    assert "win 15  chop  0  lose 29  depends" in turn_row(out, "2h")
    assert "win 44  chop  0  lose  0  win" in turn_row(out, "2c")
    data = json.loads(run(*SPOT, "--json").stdout)
    assert len(data["by_turn"]) == 45
    for card, turn in data["by_turn"].items():  # every row agrees with the JSON lists
        counts = [len(turn["players"][0][k]) for k in ("win", "tie", "lose")]
        assert f"win {counts[0]:2d}  chop {counts[1]:2d}  lose {counts[2]:2d}" in turn_row(
            out, card
        )


def test_a_turn_is_a_tie_only_when_every_river_ties() -> None:
    report = pokerlab.outs(["AhKs", "AdKc"], board="QcJsTd")  # both hold the nut straight
    assert set(turn_outcomes(report, 0).values()) == {"tie"}
    result = run("outs", "AhKs", "AdKc", "--board", "QcJsTd")
    assert result.exit_code == 0, result.output
    assert "win  0  chop 44  lose  0  tie" in turn_row(result.stdout, "2h")
    player = next(line for line in result.stdout.splitlines() if "AhKs" in line and "45:" in line)
    assert [c.strip().split(":")[0] for c in player.split("│") if c.strip()][2:] == [
        "0", "45", "0", "0"]  # fmt: skip


def test_each_river_kind_matches_a_brute_force_over_the_range() -> None:
    """win / tie / lose only when every holding of the range gives that; ``depends`` otherwise
    (such cards were listed as ties, though no deal on them splits the pot)."""
    from bruteforce import best_high
    from pokerlab.cards import parse_cards

    board = parse_cards("Th9h2cKs")
    hero = parse_cards("AhKh")
    villains = [parse_cards(h) for h in ("QcQd", "QcQh", "QcQs", "QdQh", "QdQs", "QhQs",
                                         "2d2h", "2d2s", "2h2s")]  # fmt: skip
    report = pokerlab.outs(["AhKh", "QQ,22"], board="Th9h2cKs")
    street = report.next_cards
    kinds = dict(zip(street.cards, street.kinds(0), strict=True))
    for river, kind in kinds.items():
        results = set()
        for villain in villains:
            if river in villain:
                continue
            mine = best_high([*hero, *board, river])
            theirs = best_high([*villain, *board, river])
            results.add("win" if mine > theirs else "lose" if mine < theirs else "tie")
        assert kind == (results.pop() if len(results) == 1 else "depends"), river
    assert street.counts(0) == (8, 0, 6, 32)
    player = report.to_dict()["players"][0]
    assert (len(player["tie"]), len(player["depends"])) == (0, 32)


def test_turn_option_lists_the_rivers() -> None:
    result = run(*SPOT, "--turn", "2h")
    assert result.exit_code == 0, result.output
    assert "board 4c8c9s turn 2h: every river card" in result.stdout
    first = next(line for line in result.stdout.splitlines() if "6c7c" in line)
    assert "15: 2c 3c 5c 5d 5h 5s 9c Tc Td Th Ts Jc Qc Kc Ac" in first
    assert "29: 2d 2s 3d" in first


def test_turn_option_errors_are_one_line() -> None:
    assert_one_line_error(run(*SPOT, "--turn", "4c"), "--turn 4c cannot come: it is on the board")
    # it listed every reason a card could be missing, not which one held
    held = run("outs", "--game", "omaha-hilo", "As2sKd3d", "7h8h9cTc", "--board", "Qs4d5c",
               "--turn", "As")  # fmt: skip
    assert_one_line_error(held, "--turn As cannot come: player 1 holds it (As2sKd3d)")
    assert_one_line_error(run(*SPOT, "--turn", "Xx"), "Xx")
    assert_one_line_error(
        run("outs", "9h8h", "AsKd", "--board", "Th7c2hKs", "--turn", "2c"), "needs a flop"
    )
    assert_one_line_error(run(*SPOT, "--turn", "2h", "--json"), "--turn")


def test_a_turn_card_dead_or_outside_the_deck_is_named_so() -> None:
    """A dead turn card, or one short deck's deck lacks, was refused as 'it is dead, or every
    holding of the ranges that leaves it unseen collides with another player's': a 5c in short
    deck is neither."""
    short = run("outs", "AhKh", "QQ", "--board", "KsTs9d", "-g", "shortdeck", "--turn", "5c")
    assert_one_line_error(
        short, "--turn 5c cannot come: it is not in the short deck (Sixes to Aces)"
    )
    assert "collides" not in short.output
    dead = run(*SPOT, "--dead", "2h", "--turn", "2h")
    assert_one_line_error(dead, "--turn 2h cannot come: it is a dead card")
    assert "collides" not in dead.output


def test_cards_the_ranges_rule_out_are_no_outs() -> None:
    """A card no deal leaves unseen (each villain holding without it needs the other villain's
    ace) is not listed: it was a 'lose' card for every player at once, and on a flop those
    impossible rivers turned the quads' turns 7c and 6c from 'win' into 'depends'."""
    turn = pokerlab.outs(["7h7s", "AcKc,AdKd", "AdQd,AcQc"], board="Th9h2c4s").next_cards
    listed = {str(c) for c in turn.cards}
    assert len(listed) == 44 and not {"Ac", "Ad"} & listed
    flop = pokerlab.outs(["7h7s", "AcKc,AdKd", "AdQd,AcQc"], board="Th9h2c")
    assert flop.by_turn is not None and not {"Ac", "Ad"} & {str(c) for c in flop.by_turn}
    assert all(0.99 < float(row.sum()) < 1.01 for row in turn.shares)  # shares of a real deal
    quads = pokerlab.outs(["8h8s", "7c6c,QcQd"], board="8d8c2h")
    labels = {str(card): kind for card, kind in turn_outcomes(quads, 0).items()}
    assert labels["7c"] == labels["6c"] == labels["Qc"] == "win"
    assert quads.next_cards.counts(0) == (41, 0, 0, 6)
    assert quads.by_turn is not None
    assert "Qc" not in {str(c) for c in quads.by_turn[pokerlab.cards.parse_card("7c")].cards}
    result = run("outs", "7h7s", "AcKc,AdKd", "AdQd,AcQc", "--board", "Th9h2c", "--turn", "Ac")
    assert_one_line_error(result, "--turn Ac cannot come", "collides")


def test_estimates_below_a_second_are_shown_over_the_limit() -> None:
    result = run("outs", "AhKh", "QQ+,AK,JTs", "random", "--board", "Th9h2c", "--time", "0.02")
    assert_one_line_error(result, "too large")
    shown = float(re.search(r"about ([0-9.]+) s of work", result.stderr).group(1))  # type: ignore[union-attr]
    assert shown > 0.02


def test_a_card_twice_within_the_board_or_the_dead_cards_names_which() -> None:
    assert_one_line_error(run("outs", "AhKh", "QQ", "--board", "Th 7c Th"),
                          "the board: duplicate card 'Th'")  # fmt: skip
    assert_one_line_error(run("equity", "AhKh", "QQ", "--dead", "3c 3c"),
                          "the dead cards: duplicate card '3c'")  # fmt: skip


def test_a_stud_game_is_refused_for_having_no_board_whatever_board_is_given() -> None:
    """Without --board click said "Missing option '--board'", with one "Razz has no board; got
    3 board cards"; only an empty board gave the reason."""
    for board in ([], ["--board", "4c5c6c"], ["--board", ""]):
        result = run("outs", "--game", "razz", "As2d3h", "KdKc7s", *board)
        assert_one_line_error(result, "outs need a board game; Razz has no board",
                              "outs(player, fifth)")  # fmt: skip
    no_board = run("outs", "AhKh", "QQ")  # hold'em
    assert_one_line_error(no_board, "outs need a flop (3 cards) or a turn (4 cards), got a board")


def test_outs_take_no_time_limit_as_equity_does() -> None:
    """time_limit=None raised "'>' not supported between 'float' and 'NoneType'"."""
    free = pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h", time_limit=None)
    bounded = pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h")
    assert free.next_cards.counts(0) == bounded.next_cards.counts(0) == (12, 0, 0, 33)


def test_a_card_wins_only_against_every_holding_whatever_its_weight() -> None:
    """A card was labelled by its weighted share within 1e-12: a 22 of weight 1e-13 (dealt:
    the 2d river's equity was 0.99999999999998) moved no share past that, so the rivers on
    which AhKh loses to it read as wins (40 win, 0 depends where the README says 8 and 32)."""
    tiny = "QQ,22:0.0000000000001"
    turn = pokerlab.outs(["AhKh", tiny], board="Th9h2cKs")
    assert turn.next_cards.counts(0) == pokerlab.outs(
        ["AhKh", "QQ,22"], board="Th9h2cKs"
    ).next_cards.counts(0)
    assert turn.next_cards.counts(0) == (8, 0, 6, 32)
    d2 = turn.next_cards.cards.index(pokerlab.cards.parse_card("2d"))
    assert 1 - 1e-12 < turn.next_cards.shares[d2, 0] < 1  # the shares keep the weights
    flop = pokerlab.outs(["AhKh", tiny], board="Th9h2c")
    assert flop.runouts is not None and (flop.runouts.win, flop.runouts.depends) == (
        (252, 531), (298, 298))  # fmt: skip
    seen: list[float] = []
    pokerlab.outs(["AhKh", tiny], board="Th9h2c", progress=seen.append)  # two passes, one bar
    assert seen == sorted(seen) and seen[-1] == 1.0 and 0.5 in seen  # the first pass: half


def test_weights_no_rounding_hides_are_enumerated_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The second pass (each holding of weight 1) only where a holding is light enough that the
    shares could hide it: not for ``QQ+:0.5,AK``."""
    from pokerlab.engine import exact

    passes: list[bool] = []
    real = exact.runout_stats
    monkeypatch.setattr(exact, "runout_stats", lambda *a: passes.append(True) or real(*a))
    pokerlab.outs(["AhKh", "QQ+:0.5,AK"], board="Th9h2cKs")
    assert len(passes) == 1
    pokerlab.outs(["AhKh", "QQ,22:0.0000000000001"], board="Th9h2cKs")
    assert len(passes) == 3
