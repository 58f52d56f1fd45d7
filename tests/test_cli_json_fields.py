"""Every command's ``--json`` names the spot the same way: dead cards as one canonical text
(each card once, highest first, as the equity result always wrote them), and ``outs`` names its
game and dead cards as ``equity`` does. They were written four ways ("4c3c", "3c4c", "3c 4c")
and ``outs`` had neither field."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from pokerlab.cli import app

DEAD = ["--dead", "3c 4c"]  # given low first

COMMANDS = [
    ["equity", "AhAs", "KdKc", "--board", "Qh7c2d", *DEAD],
    ["outs", "9h8h", "AsKd", "--board", "Th7c2hKs", *DEAD],
    ["hits", "QQ+,AK", "--board", "Th7c2h", *DEAD],
    ["range", "QQ+,AK", *DEAD],
    ["draw", "advise", "Jh Jd 7c 4s 2h", *DEAD],
    ["distribution", "AhAs", "KK", "--board", "Qh7c2d", *DEAD],
]


@pytest.mark.parametrize("args", COMMANDS, ids=lambda a: " ".join(a[:2]))
def test_dead_cards_are_echoed_one_way(args: list[str]) -> None:
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["dead"] == "4c3c"


def test_outs_names_its_game_and_dead_cards() -> None:
    args = ["outs", "AsAhKsKh", "JdTd9c8c", "--board", "Qs7h2d3c", "-g", "omaha", "--dead", "4c"]
    result = CliRunner().invoke(app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert (payload["game"], payload["board"], payload["dead"]) == ("omaha", "Qs7h2d3c", "4c")
