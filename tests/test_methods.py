"""Every entry point reads ``method`` one way (``pokerlab.engine.methods.read_method``): any letter
case, ``mc``/``montecarlo``/``monte-carlo`` for Monte Carlo, and one message for an unknown one.
Before, ``equity``, ``draw.advise``, ``equity_distribution``, queries and batch spots each checked
it on their own: ``"MC"`` was refused everywhere while a game's name was read in any case, and
``draw.advise`` refused ``"monte-carlo"``, which ``equity`` takes."""

from __future__ import annotations

import re

import pytest

import pokerlab
from pokerlab.analysis.distribution import equity_distribution
from pokerlab.analysis.draw import advise
from pokerlab.analysis.query.runner import query
from pokerlab.engine.methods import read_method
from pokerlab.errors import GameError, QueryError
from pokerlab.scale.jobs import run_spot

UNKNOWN = re.escape("unknown method 'fast': use auto, exact or monte-carlo (mc)")


@pytest.mark.parametrize(
    ("given", "read"),
    [
        ("auto", "auto"),
        ("Exact", "exact"),
        (" exact ", "exact"),
        ("MC", "monte-carlo"),
        ("mc", "monte-carlo"),
        ("MonteCarlo", "monte-carlo"),
        ("Monte-Carlo", "monte-carlo"),
    ],
)
def test_spellings(given: str, read: str) -> None:
    assert read_method(given) == read


@pytest.mark.parametrize("bad", ["fast", "", "monte carlo", None, 1, ["mc"]])
def test_unknown_methods_name_the_field_and_the_choices(bad: object) -> None:
    with pytest.raises(GameError, match=r"unknown method .*: use auto, exact or monte-carlo") as e:
        read_method(bad)
    assert e.value.field == "method"


def test_equity_reads_any_case() -> None:
    r = pokerlab.equity(["AhAs", "KdKc"], board="2c7d9h", method="MC", trials=2000, seed=3)
    assert r.method == "monte-carlo"
    assert pokerlab.equity(["AhAs", "KdKc"], board="2c7d9h", method="EXACT").method == "exact"
    with pytest.raises(GameError, match=UNKNOWN):
        pokerlab.equity(["AhAs", "KdKc"], method="fast")


def test_draw_takes_monte_carlo_as_equity_does() -> None:
    a = advise("Jh Jd 7c 4s 2h", vs=["random"], method="Monte-Carlo", trials=300, seed=1)
    b = advise("Jh Jd 7c 4s 2h", vs=["random"], method="mc", trials=300, seed=1)
    assert a.method == b.method == "monte-carlo"
    assert a.best.equity == b.best.equity
    with pytest.raises(GameError, match=UNKNOWN):
        advise("Jh Jd 7c 4s 2h", vs=["random"], method="fast")


def test_distribution_reads_any_case() -> None:
    d = equity_distribution("AhAs", "KK", board="2c7d9h", method="Exact")
    assert d.method == "exact"
    with pytest.raises(GameError, match=UNKNOWN):
        equity_distribution("AhAs", "KK", board="2c7d9h", method="fast")


def test_query_reads_any_case_in_its_text_and_keyword() -> None:
    text = "select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc', board='2c7d9h'"
    exact = query(f"{text}, method='Exact'")
    assert exact.method == "exact"
    assert query(text, method="EXACT").method == "exact"
    with pytest.raises(QueryError, match=r"column \d+: unknown method 'fast': use auto, exact"):
        query(f"{text}, method='fast'")
    with pytest.raises(QueryError, match=UNKNOWN) as e:
        query(text, method="fast")
    assert e.value.field == "method"


def test_batch_spots_read_any_case() -> None:
    spot = {"players": ["AhAs", "KdKc"], "board": "2c7d9h", "method": "MC", "trials": 1000}
    result, error = run_spot({**spot, "seed": 5})
    assert error is None and result is not None and result["method"] == "monte-carlo"
    result, error = run_spot({**spot, "method": "Exact"})  # an exact spot with trials: refused
    assert result is None and error == "field 'trials' applies to Monte Carlo, not method 'exact'"
    result, error = run_spot({**spot, "method": "fast"})
    assert result is None and error is not None and re.search(UNKNOWN, error)
