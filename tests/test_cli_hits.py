"""``pokerlab hits`` through click's CliRunner: the JSON contract, the tables, bad input."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cli import app


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def test_json_contract_matches_the_library() -> None:
    result = run("hits", "QQ+,AKs,JTs", "--board", "Ks9s2d", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["board"] == "Ks9s2d"
    assert data["range"] == "QQ+,AKs,JTs"
    assert data["combos"] == 22 and data["weight"] == 22
    made = {c["name"]: c for c in data["categories"]}
    assert made["set"]["combos"] == 3 and made["set"]["percent"] == pytest.approx(300 / 22)
    assert sum(c["combos"] for c in data["categories"]) == 22
    draws = {d["name"]: d for d in data["draws"]}
    assert draws["gutshot"]["combos"] == 4
    assert data == pokerlab.hits("QQ+,AKs,JTs", board="Ks9s2d").to_dict()


def test_json_list_and_omaha() -> None:
    result = run("hits", "JT8*", "-b", "9h7c2d", "-g", "omaha", "--json", "--list")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert len(data["list"]) == data["combos"]
    assert all("wrap" in row["draws"] for row in data["list"])


def test_tables() -> None:
    result = run("hits", "QQ+,AKs:0.5", "--board", "Ks9s2d")
    assert result.exit_code == 0, result.output
    assert "top pair, top kicker" in result.output
    assert "backdoor flush draw" in result.output
    river = run("hits", "QQ+", "--board", "Ks9s2d3c4h")
    assert river.exit_code == 0 and "gutshot" not in river.output


def test_the_title_counts_one_combo_in_the_singular() -> None:
    """A range left with one combo was titled 'AcKc on AsKdQs: 1 combos, weight 1'."""
    one = run("hits", "AcKc", "--board", "AsKdQs")
    assert one.exit_code == 0, one.output
    assert "AcKc on AsKdQs: 1 combo, weight 1" in one.output
    assert "QQ on AsKdQs: 3 combos, weight 3" in run("hits", "QQ", "--board", "AsKdQs").output


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("hits", "QQ+", "--board", "Ks9s"), "3 to 5 cards"),
        (("hits", "QQ+", "--board", "Ks9sXd"), "invalid card 'Xd'"),
        (("hits", "QZ+", "--board", "Ks9s2d"), "QZ+"),
        (("hits", "KK", "--board", "KsKh2d", "--dead", "KdKc"), "no combo left"),
        (("hits", "AA**", "--board", "Ks9s2d", "-g", "razz"), "no board"),
        (("hits", "AA", "--board", "Ks9s2d", "--list"), "add --json"),  # it was ignored
        # said "a random range stays unexpanded" while refusing to expand it
        (
            ("hits", "random", "--board", "Qc8s7h", "-g", "omaha6"),
            "13,983,816 holdings of 6 cards: at most 5,000,000 can be listed; narrow the range "
            "with card patterns (e.g. AA****)",
        ),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run(*args), fragment)


def test_large_weights_are_whole_numbers_not_exponents() -> None:
    """1,906,884 was shown as 1.90688e+06, its last digits lost."""
    result = run("hits", "random", "--game", "omaha5", "--board", "2c3d4h")
    assert result.exit_code == 0, result.output
    assert "weight 1,906,884" in result.stdout and "e+0" not in result.stdout
