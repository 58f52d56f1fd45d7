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


def test_batch_evaluators_are_typed_to_take_lists_of_rows() -> None:
    """They read their rows with np.asarray, so a list of lists works, but they were typed
    NDArray[np.integer] and mypy refused evaluate_batch([[51, 47, 43, 39, 35]])."""
    from collections.abc import Sequence

    import numpy as np

    from pokerlab.evaluation import a5_batch, eight_batch, omaha_batch
    from pokerlab.evaluation.batch import CardRows
    from pokerlab.evaluation.deuce7 import deuce7_batch
    from pokerlab.evaluation.short_deck import short_deck_batch

    assert Sequence[Sequence[int]] in typing.get_args(CardRows)
    for function in (pokerlab.evaluate_batch, a5_batch, eight_batch, deuce7_batch,
                     short_deck_batch):  # fmt: skip
        assert typing.get_type_hints(function)["codes"] == CardRows, function
    hints = typing.get_type_hints(omaha_batch)
    assert hints["hole"] == hints["board"] == CardRows
    rows = [[51, 47, 43, 39, 35], [0, 4, 8, 12, 49]]
    assert pokerlab.evaluate_batch(rows).tolist() == [32778, 16385]
    assert np.array_equal(deuce7_batch(rows), deuce7_batch(np.array(rows)))
