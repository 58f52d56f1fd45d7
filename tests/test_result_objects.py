"""Result objects as a programmer uses them: equal when the answers are, JSON, pickle."""

from __future__ import annotations

import pokerlab
from pokerlab.analysis.draw import advise


def test_the_same_answer_compares_equal_whatever_it_took() -> None:
    """DrawAdvice and QueryResult compared their wall time: two identical answers were unequal,
    where EquityResult, Tournament and the flop and matrix reports leave ``seconds`` out."""
    one = advise("JhJd7c4s2h", vs=["random"], method="mc", trials=100, seed=3, threads=1)
    two = advise("JhJd7c4s2h", vs=["random"], method="mc", trials=100, seed=3, threads=1)
    assert one == two
    text = "select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc'"
    first = pokerlab.query(text, method="mc", trials=1000, seed=2, threads=1)
    again = pokerlab.query(text, method="mc", trials=1000, seed=2, threads=1)
    assert first == again
