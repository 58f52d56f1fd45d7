"""``pokerlab draw advise``: ``--max-draw`` (the 26 choices that draw at most three) and ``--vs``
opponents printed as written, not expanded."""

from __future__ import annotations

import json

from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.analysis.draw import advise
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
