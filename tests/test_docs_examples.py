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
