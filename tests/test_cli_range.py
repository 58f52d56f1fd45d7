"""Tests of ``pokerlab range``: the command alone and inside a pokerlab-style click group."""

from __future__ import annotations

import json

import click
import pytest
from click.testing import CliRunner

from cli_helpers import assert_one_line_error
from pokerlab.cli.group import ErrorGroup
from pokerlab.cli.range_cmd import range_command
from pokerlab.errors import EmptyRangeError, RangeError


def run(*args: str) -> click.testing.Result:
    return CliRunner().invoke(range_command, list(args))


def test_text_output() -> None:
    result = run("QQ+,AKs,A5s:0.5")
    assert result.exit_code == 0, result.output
    out = result.output
    assert "QQ+,AKs,A5s:0.5" in out
    assert "26 of 1326 (1.96%)" in out
    assert "weighted" in out and "24" in out
    lines = [line for line in out.splitlines() if "AA" in line and "A2s" in line]
    assert len(lines) == 1  # the first grid row: AA AKs ... A2s
    assert lines[0].split() == ["AA*", "AKs*", *[f"A{r}s" for r in "QJT9876"], "A5s*", "A4s",
                                "A3s", "A2s"]  # fmt: skip
    assert out.splitlines()[-1].split()[-1] == "22"


def test_grid_marks_cells_without_colour() -> None:
    """In-range cells carry a symbol (``*`` whole class, ``~`` part of it), so the grid reads
    through a pipe, where CliRunner's output has no colour at all."""
    result = run("QQ+,AcQd")
    assert result.exit_code == 0, result.output
    assert "\x1b[" not in result.output
    assert "* all combos of the class in range, ~ some of them" in result.output
    cells = [c for line in result.output.splitlines()[-13:] for c in line.split()]
    assert len(cells) == 169
    assert sorted(c for c in cells if c.endswith("*")) == ["AA*", "KK*", "QQ*"]
    assert [c for c in cells if c.endswith("~")] == ["AQo~"]
    weighted = run("AK:0.5,AKs,QQ")  # AKo:0.5 is marked as all of AKo: the legend says so
    assert "* all combos of the class in range (weights: --list), ~" in weighted.output


def test_list_option() -> None:
    result = run("AKs:0.5", "--list")
    assert result.exit_code == 0
    for combo in ("AsKs", "AhKh", "AdKd", "AcKc"):
        assert combo in result.output
    assert "0.5" in result.output


def test_json_output() -> None:
    result = run("QQ+,AKs", "--json")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert set(data) == {"input", "canonical", "combos", "percent", "weighted_combos", "grid"}
    assert data["input"] == "QQ+,AKs" and data["canonical"] == "QQ+,AKs"
    assert data["combos"] == 22 and data["weighted_combos"] == 22.0
    assert data["percent"] == pytest.approx(100 * 22 / 1326)
    grid = data["grid"]
    assert len(grid) == 13 and all(len(row) == 13 for row in grid)
    assert grid[0][0] == {"class": "AA", "fraction": 1.0}
    assert grid[0][1] == {"class": "AKs", "fraction": 1.0}
    assert grid[1][0] == {"class": "AKo", "fraction": 0.0}
    assert grid[12][12] == {"class": "22", "fraction": 0.0}


def test_json_list_and_dead() -> None:
    result = run("AKs", "--json", "--list", "--dead", "As")
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["combos"] == 3 and data["dead"] == "As"
    assert data["canonical"] == "AhKh,AdKd,AcKc"
    assert data["list"] == [
        {"combo": "AhKh", "weight": 1.0},
        {"combo": "AdKd", "weight": 1.0},
        {"combo": "AcKc", "weight": 1.0},
    ]
    assert data["grid"][0][1] == {"class": "AKs", "fraction": 0.75}


def test_percent_range() -> None:
    data = json.loads(run("100%", "--json").output)
    assert data["combos"] == 1326 and data["canonical"] == "random"


def test_bad_input_raises_pokerlab_errors() -> None:
    result = run("AKx")
    assert isinstance(result.exception, RangeError)
    assert "character 1" in str(result.exception)
    result = run("AKs", "--dead", "As Ks Kh Kd Kc")
    assert isinstance(result.exception, EmptyRangeError)
    assert "As Ks Kh Kd Kc" in str(result.exception)


def test_bad_input_inside_pokerlab_group_is_one_line_exit_2() -> None:
    @click.group(cls=ErrorGroup)
    def group() -> None:
        pass

    group.add_command(range_command)
    result = CliRunner().invoke(group, ["range", "QQ,,AK"])
    assert result.exit_code == 2
    assert result.output.strip().splitlines() == [
        "error: invalid range 'QQ,,AK' at character 4: empty item between two commas"
    ]
    assert CliRunner().invoke(group, ["range", "AA", "--dead", "Xs"]).exit_code == 2
    ok = CliRunner().invoke(group, ["range", "AA", "--json"])
    assert ok.exit_code == 0 and json.loads(ok.output)["combos"] == 6


def test_without_a_game_a_range_is_read_as_holdem_refusing_the_short_decks_ordering() -> None:
    """``pokerlab range "15%@short"`` counted the short deck's cut (100 combos) against 1,326,
    where ``--game holdem``, ``pokerlab equity`` and the README refuse it; /api/range too."""
    from pokerlab.cli import app
    from pokerlab.web.tasks import run_range

    result = CliRunner().invoke(app, ["range", "15%@short"])
    assert_one_line_error(result, "'15%@short'", "ranks short-deck hands")
    with pytest.raises(RangeError, match="ranks short-deck hands"):
        run_range(range="15%@short", dead=None, list=False)
    assert run_range(range="15%", dead=None, list=False)["combos"] == 200


def test_the_short_decks_grid_holds_its_own_classes() -> None:
    """Short deck drew the full deck's 13 x 13 grid, A2s to 22 included, classes it cannot
    deal: now the 9 x 9 of sixes to aces."""
    result = CliRunner().invoke(range_command, ["10%", "--game", "shortdeck"])
    assert result.exit_code == 0, result.output
    rows = result.output.split("some of them\n", 1)[1].splitlines()
    assert len(rows) == 9
    assert rows[0].split()[0].startswith("AA") and rows[-1].split()[-1].startswith("66")
    assert "A5s" not in result.output and "22" not in result.output
    full = CliRunner().invoke(range_command, ["10%"])
    assert len(full.output.split("some of them\n", 1)[1].splitlines()) == 13
