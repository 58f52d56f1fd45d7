"""The ``>>>`` examples of the documentation run as doctests: a wrong number in README.md or
docs/*.md fails here (docs/query.md's table of values is checked against a brute force in
``test_query.py``)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("name", ["README.md", "docs/query.md"])
def test_documented_examples_run(name: str) -> None:
    results = doctest.testfile(str(ROOT / name), module_relative=False, verbose=False)
    assert results.attempted > 0
    assert results.failed == 0, f"{name}: {results.failed} of {results.attempted} examples failed"


def test_serve_help_names_every_task_its_workers_run() -> None:
    """``pokerlab serve --help`` says what ``--workers`` computes, as the README does: every
    request that runs in the worker pool (flop reports and matrices too)."""
    from click.testing import CliRunner

    from pokerlab.cli import app

    result = CliRunner().invoke(app, ["serve", "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    workers = next(line for line in result.output.splitlines() if "--workers" in line)
    for task in ("equity", "outs", "draw", "query", "hits", "distribution", "flop", "matri"):
        assert task in workers, (task, workers)


@pytest.mark.parametrize(
    ("args", "shown"),
    [
        (["equity", "AhAs", "KdKc"], ["81.255%", "18.745%", "exact: 1,712,304 deals"]),
        (["eval", "Kh", "Kd", "Ks", "4c", "4d", "2s", "7h"], ["Full House, Kings full of Fours"]),
        (["range", "1%"], ["3 classes, 18 combos = 1.36%"]),
        (["range", "--game", "shortdeck", "22+"], ["66+", "54 of 630 (8.57%)"]),
        (["range", "--game", "shortdeck", "10%"], ["99+,AJs+,KQs,AKo"]),
        (["range", "--game", "shortdeck-straights", "10%"], ["JJ+,AJs+,KJs+,QJs-JTs,AKo"]),
        (["range", "convert", "--to", "gtoplus", "QQ+,AKs:0.5"], ["QQ+,[50]AKs[/50]"]),
    ],
)
def test_readme_cli_examples(args: list[str], shown: list[str]) -> None:
    """The README's cheap command-line examples print what the README says they print."""
    from click.testing import CliRunner

    from pokerlab.cli import app

    result = CliRunner().invoke(app, args, terminal_width=200)
    assert result.exit_code == 0, result.output
    for text in shown:
        assert text in result.output, (text, result.output)


def test_readme_error_example() -> None:
    """The README's example of bad input: one line on stderr, exit status 2."""
    from click.testing import CliRunner

    from pokerlab.cli import app

    result = CliRunner().invoke(app, ["equity", "AsKs", "AsQd"])
    assert result.exit_code == 2
    assert result.stderr == (
        "error: card 'As' is used twice: in player 1's hand and in player 2's hand\n"
    )
