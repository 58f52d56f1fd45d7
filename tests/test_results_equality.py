"""Results compare by their answer: arrays element by element, timings left out; a result that
holds arrays is not hashable (a clear TypeError, not numpy's)."""

from __future__ import annotations

import pickle

import pytest

import pokerlab


def test_results_with_arrays_compare_by_value() -> None:
    outs = pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h")
    assert outs == pickle.loads(pickle.dumps(outs))  # raised "truth value ... ambiguous"
    assert outs != pokerlab.outs(["9h8h", "AsKd"], board="Th7c2d")
    hits = pokerlab.hits("QQ+", board="Ks9s2d")
    assert hits == pokerlab.hits("QQ+", board="Ks9s2d") != pokerlab.hits("JJ+", board="Ks9s2d")
    dist = pokerlab.equity_distribution("AA,KK", "QQ", board="Ks7d2c")
    assert dist == pokerlab.equity_distribution("AA,KK", "QQ", board="Ks7d2c")
    assert dist != pokerlab.equity_distribution("AA,KK", "JJ", board="Ks7d2c")
    for result in (outs, hits, dist):
        with pytest.raises(TypeError, match="unhashable type"):
            hash(result)


def test_an_exact_answer_equals_itself_whatever_it_took() -> None:
    """``seconds`` took part in ``==``: two identical exact runs were unequal."""
    assert pokerlab.equity(["AK", "QQ"]) == pokerlab.equity(["AK", "QQ"])
    assert pokerlab.equity(["AK", "QQ"]) != pokerlab.equity(["AK", "JJ"])
