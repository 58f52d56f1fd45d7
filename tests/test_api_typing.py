"""The annotations a type checker reads (py.typed is shipped) say what the functions take."""

from __future__ import annotations

import typing

import pokerlab
from pokerlab.analysis.draw import advise
from pokerlab.engine.methods import Method


def test_every_method_argument_is_typed_with_the_method_names() -> None:
    """query's method was a plain str: mypy --strict passed query(..., method="fast"), which
    equity, equity_distribution and advise catch by their Literal."""
    for function in (pokerlab.equity, pokerlab.equity_distribution, advise, pokerlab.query):
        assert typing.get_type_hints(function)["method"] in (Method, Method | None), function
