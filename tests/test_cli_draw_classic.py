"""``pokerlab draw advise``: ``--max-draw`` (the 26 choices that draw at most three) and ``--vs``
opponents printed as written, not expanded; bots under ``--max-draw``."""

from __future__ import annotations

import json

import numpy as np
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.analysis.bots import MaxDraw, get_strategy
from pokerlab.analysis.draw import advise
from pokerlab.cards import parse_cards
from pokerlab.cli.draw_cmd import draw_group


def run(*args: str) -> Result:
    return CliRunner().invoke(draw_group, list(args), env={"COLUMNS": "160"})


def test_max_draw_3_leaves_the_26_choices_that_draw_at_most_three() -> None:
    result = run("advise", "Ah 9d 7c 4s 2h", "--max-draw", "3", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["max_draw"] == 3
    choices = payload["choices"]
    assert len(choices) == 26 and max(len(c["discard"]) for c in choices) == 3
    full = advise("Ah 9d 7c 4s 2h")
    assert len(full.best.discard) == 4  # unrestricted: keep the ace, draw four
    allowed = [c for c in full.choices if len(c.discard) <= 3]  # same ranking, filtered
    assert [c["keep"] for c in choices] == [[str(x) for x in c.keep] for c in allowed]
    text = run("advise", "Ah 9d 7c 4s 2h", "--max-draw", "3")
    assert "draw at most 3" in text.stdout
    assert f"best: keep {' '.join(choices[0]['keep'])}, draw 3" in text.stdout


def test_max_draw_is_checked() -> None:
    assert_one_line_error(run("advise", "Ah 9d 7c 4s 2h", "--max-draw", "6"), "--max-draw")


def test_vs_range_is_printed_as_written() -> None:
    result = run("advise", "Jh Jd 7c 4s 2h", "--vs", "JJ***:rules", "--trials", "2000",
                 "--seed", "3")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "vs JJ***:rules" in result.stdout
    assert len(result.stdout) < 4000  # the expansion was 159 KB
    payload = json.loads(run("advise", "Jh Jd 7c 4s 2h", "--vs", " JJ***:rules", "--trials",
                             "2000", "--seed", "3", "--json").stdout)  # fmt: skip
    assert payload["opponents"] == ["JJ***:rules"]


def test_bots_under_max_draw_3() -> None:
    hands = np.array(
        [[int(c) for c in parse_cards(h)] for h in ("Ah 9d 7c 4s 2h", "Kc 8d 6h 4s 2c")] * 200,
        dtype=np.uint8,
    )
    noise = np.arange(len(hands), dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)
    for name in ("rules", "random", "optimal"):
        bot = MaxDraw(get_strategy(name), 3)
        keeps = bot.keep_masks(hands[: 2 if name == "optimal" else None], "high",
                               noise[: 2 if name == "optimal" else None])  # fmt: skip
        assert min(int(k).bit_count() for k in keeps) >= 2, name
    random_keeps = MaxDraw(get_strategy("random"), 3).keep_masks(hands, "high", noise)
    assert len(set(random_keeps.tolist())) == 26  # every allowed choice, none other
    assert get_strategy("rules").keep_masks(hands[:1], "high", noise[:1])[0] == 1  # keeps Ah
    result = run("match", "--bots", "rules,random", "--hands", "400", "--max-draw", "3",
                 "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"][0]["hands"] == 400
