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
