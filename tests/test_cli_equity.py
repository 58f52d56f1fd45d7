"""``pokerlab equity`` and ``pokerlab outs`` through click's CliRunner: the JSON contract of the
issue, the table, and one-line errors for the bad inputs the issue lists."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cli import app


def run(*args: str, columns: int = 80) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": str(columns)})


def as_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_equity_json_contract_and_values() -> None:
    data = as_json("equity", "AhAs", "KdKc")
    assert data["method"] == "exact" and data["samples"] == 1_712_304
    first, second = data["players"]
    assert {"input", "equity", "win", "tie", "stderr"} <= set(first)
    assert first["input"] == "AhAs" and round(first["equity"], 6) == 0.812555
    assert first["stderr"] == 0.0
    assert first["equity"] + second["equity"] == pytest.approx(1.0)


def test_equity_monte_carlo_options_reach_the_engine() -> None:
    args = ("equity", "AsKs", "QQ+,AKs", "--board", "Qh7c2d", "--dead", "3s", "--mc")
    data = as_json(*args, "--trials", "20000", "--seed", "7")
    again = as_json(*args, "--trials", "20000", "--seed", "7")
    assert data == {**again, "seconds": data["seconds"]}  # same seed, same deals
    assert data["method"] == "monte-carlo" and data["samples"] == 20_000
    exact = pokerlab.equity(["AsKs", "QQ+,AKs"], board="Qh7c2d", dead="3s")
    for got, want in zip(data["players"], exact.players, strict=True):
        assert got["stderr"] > 0
        assert abs(got["equity"] - want.equity) < 4 * got["stderr"]


def test_equity_table_names_every_column_in_80_columns() -> None:
    result = run("equity", "--game", "omaha-hilo", "AsAhKsKh", "2c3d4h5s", "--mc", "--trials",
                 "5000", "--seed", "1")  # fmt: skip
    assert result.exit_code == 0, result.output
    header = next(line for line in result.stdout.splitlines() if "equity" in line)
    for name in ("hand / range", "equity", "win", "tie", "hi", "lo", "tie eq", "stderr", "combos"):
        assert name in header
    assert max(len(line) for line in result.stdout.splitlines()) <= 80
    assert "…" not in result.stdout


def test_split_table_shows_tie_equity_not_a_repeat_of_win() -> None:
    """definitions.md asks for tie equity beside win and tie; in split games the table's scoop
    column repeated win (a split game's win is the scoop), and tie equity was only in --json."""
    args = ("equity", "--game", "omaha-hilo", "AsAh2c3d", "KdKcQhJh")
    table = run(*args)
    assert table.exit_code == 0, table.output
    lines = table.stdout.splitlines()
    assert lines[1].split()[-5:] == ["hi", "lo", "tie", "eq", "combos"]
    assert "scoop" not in table.stdout
    for got, line in zip(as_json(*args)["players"], lines[2:4], strict=True):
        cells = line.split()
        assert cells[-2] == f"{got['tie_equity'] * 100:.2f}%" == "6.72%"
        assert cells[4] == f"{got['tie'] * 100:.2f}%"  # #, hand, equity, win, tie, ..


def test_a_narrow_terminal_keeps_every_number() -> None:
    """At 60 columns rich cut the last column to "c" and dropped its values; now the table keeps
    its numbers (a line may be wider than the terminal) and only the range text folds."""
    result = run("equity", "22+,A2s+,K9s+,QTs+,JTs,ATo+", "AA", "--mc", "--trials", "2000",
                 "--seed", "1", columns=50)  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    header = next(line for line in lines if "equity" in line and "stderr" in line)
    assert header.split()[-4:] == ["tie", "equity", "stderr", "combos"]
    assert next(line for line in lines if line.startswith("2  AA")).split()[-1] == "6"
    assert max(len(line.rstrip()) for line in lines) <= 70


def test_outs_json_on_a_turn_and_a_flop() -> None:
    turn = as_json("outs", "9h8h", "AsKd", "--board", "Th7c2hKs")
    assert turn["board"] == "Th7c2hKs"
    hero = turn["players"][0]
    assert hero["input"] == "9h8h" and len(hero["win"]) == 15 and hero["tie"] == []
    assert len(hero["win"]) + len(hero["lose"]) == 52 - 4 - 4  # every unseen river card
    flop = as_json("outs", "9h8h", "AsKd", "--board", "Th7c2h")
    runouts = math.comb(52 - 4 - 3, 2)  # turn and river from the 45 unseen cards
    assert flop["runouts"]["total"] == runouts
    assert set(flop["by_turn"]) == {str(c) for c in pokerlab.deck()} - {
        "9h", "8h", "As", "Kd", "Th", "7c", "2h"
    }  # fmt: skip
    ks = flop["by_turn"]["Ks"]
    assert ks["players"][0]["win"] == hero["win"]
    counts = flop["runouts"]["players"][0]
    assert counts["win"] + counts["tie"] + counts["lose"] == runouts


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (("equity", "AsAh", "AA", "--board", "Ad2c3d"), ("player 2 ('AA')", "no hand")),
        (("equity", "AsKs", "QQ", "--board", "Qh7c"), ("board", "2")),
        (("equity", "AsKs", "AsQd"), ("'As' is used twice",)),
        (("equity", *["random"] * 24), ("24 players", "the deck has 52")),
        (("equity", "random", "random", "random", "random", "--exact"), ("too large", "--mc")),
        (("equity", "AhAs"), ("at least 2 players",)),
        (("equity", "AhAs", "QQ+,AKx"), ("player 2", "character 5")),
        (("equity", "AhAs", "KK", "--exact", "--trials", "10"), ("--trials",)),
        (("equity", "AhAs", "KK", "--game", "pineapple"), ("unknown game 'pineapple'",)),
        (("outs", "9h8h", "AsKd", "--board", "Th7c2hKs3d"), ("board",)),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], fragments: tuple[str, ...]) -> None:
    assert_one_line_error(run(*args), *fragments)


_SPOT = ("equity", "AhAs", "KdKc", "--mc")


@pytest.mark.parametrize(
    ("args", "option", "text"),
    [
        (_SPOT, "--trials", "\uff11\uff10\uff10\uff10"),  # fullwidth 1000
        (_SPOT, "--seed", "\u0663"),  # Arabic-Indic 3
        (_SPOT, "--threads", "\u0968"),  # Devanagari 2
        (_SPOT, "--time", "\uff11.5"),
        (_SPOT, "--stderr", "\uff10.1%"),
        (("outs", "AhAs", "KdKc", "--board", "Qh7c2d"), "--time", "\uff11"),
        (("draw", "match", "optimal", "random"), "--hands", "\uff11\uff10"),
    ],
)
def test_number_options_take_ascii_digits_only(
    args: tuple[str, ...], option: str, text: str
) -> None:
    """As cards, ranges and weights do: click's own int and float read any script's digits
    (``--trials`` in fullwidth digits ran 1000 deals)."""
    assert_one_line_error(run(*args, option, text), option, repr(text), "digits 0-9")


def test_ranges_are_printed_as_typed_not_read_as_markup_or_emoji() -> None:
    """rich read '[a][k]**' as two style tags (printing '**') and ':a:' as an emoji."""
    result = run("equity", "--game", "omaha", "[a][k]**", "A:a:K**", "--mc", "--trials", "200")
    assert result.exit_code == 0, result.output
    assert "[a][k]**" in result.stdout and "A:a:K**" in result.stdout
