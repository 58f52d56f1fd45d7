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


def test_an_outs_report_repr_is_a_summary() -> None:
    """A flop's report printed every turn's arrays: a repr of ~146 KB."""
    import math

    report = pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h")
    text = repr(report)
    assert len(text) < 1000
    turns = 52 - 2 * 2 - 3  # the cards no hand and no board card holds
    counts = report.next_cards.counts(0)
    assert f"StreetOuts({turns} cards; win/tie/lose/depends: player 1 {counts}" in text
    assert f"by_turn=<{turns} turn cards>" in text and f"total={math.comb(turns, 2)}" in text


def test_an_exact_answer_equals_itself_whatever_it_took() -> None:
    """``seconds`` took part in ``==``: two identical exact runs were unequal."""
    assert pokerlab.equity(["AK", "QQ"]) == pokerlab.equity(["AK", "QQ"])
    assert pokerlab.equity(["AK", "QQ"]) != pokerlab.equity(["AK", "JJ"])


def test_an_unknown_error_equals_itself_after_pickling() -> None:
    """One sampled deal has a NaN standard error; the result was unequal to its own pickled copy
    (NaN != NaN), equity's and draw advice's alike. Two unknowns are the same answer (JSON writes
    both as null), and the hash agrees; a known error still tells results apart."""
    from pokerlab.analysis import draw

    one = pokerlab.equity(["AhAs", "KdKc"], method="mc", trials=1, seed=1)
    copy = pickle.loads(pickle.dumps(one))
    assert copy.players[0].stderr != copy.players[0].stderr  # NaN
    assert copy == one and copy.players[0] is not one.players[0]
    assert hash(copy.players[0]) == hash(one.players[0])
    assert one != pokerlab.equity(["AhAs", "KdKc"], method="mc", trials=2, seed=1)
    advice = draw.advise("JhJd7c4s2h", vs="random", method="mc", trials=1, seed=1)
    assert pickle.loads(pickle.dumps(advice)) == advice


# --- wrong types are one clear error, not a TypeError from inside ----------------------------


def test_wrong_types_get_the_usual_errors() -> None:
    import threading

    from pokerlab import Range
    from pokerlab.errors import CardError, GameError, RangeError

    spot = ["AhKh", "QQ"]
    for players in (None, 5):
        with pytest.raises(GameError, match="players must be a list of hands or ranges"):
            pokerlab.equity(players)  # type: ignore[arg-type]
    for kwargs, field in (
        ({"progress": 5}, "progress"),
        ({"partial": 3}, "partial"),
        ({"cancel": 5}, "cancel"),
        ({"cancel": "yes"}, "cancel"),
    ):
        with pytest.raises(GameError, match=f"{field} must be") as info:
            pokerlab.equity(spot, **kwargs)  # type: ignore[arg-type]
        assert info.value.field == field
    with pytest.raises(GameError, match="cancel must be an event"):
        pokerlab.outs(spot, board="Ts9h2h", cancel=5)  # type: ignore[arg-type]
    text = "select avg(riverEquity(hero)) as eq from hero='AhKh', villain='QQ+', board='Ts9h2h'"
    with pytest.raises(GameError, match="seed must be a whole number"):
        pokerlab.query(text, seed=1.5, method="monte-carlo")  # type: ignore[arg-type]
    with pytest.raises(GameError, match="progress must be a function"):
        pokerlab.query(text, progress=threading.Event())  # type: ignore[arg-type]
    with pytest.raises(CardError, match="cards must be text such as 'AsKd'"):
        pokerlab.equity(spot, board=b"Qh7c2d")  # type: ignore[arg-type]
    for spec in (None, 5, b"QQ+"):
        with pytest.raises(RangeError, match="a range is text such as 'QQ\\+,AKs'"):
            Range(spec)  # type: ignore[arg-type]
    with pytest.raises(RangeError, match="invalid combo 51 at index 0"):
        Range([51, 47])  # type: ignore[list-item]
    with pytest.raises(RangeError, match="weights must be numbers"):
        Range(["AsKs"], ["x"])  # type: ignore[list-item]


def test_flags_are_true_or_false() -> None:
    """A flag took any value by its truth: ``straight_beats_trips="no"`` ranked by that rule and
    ``allow_duplicates=0`` refused duplicates. numpy's bools pass."""
    import numpy as np

    from pokerlab.errors import GameError
    from pokerlab.evaluation import evaluate_short_deck, short_deck_batch

    rows = np.array([[51, 47, 43, 39, 35]])
    for call, name in (
        (lambda: pokerlab.evaluate_batch(rows, check="no"), "check"),  # type: ignore[arg-type]
        (lambda: evaluate_short_deck("6h6c6d8s9h", straight_beats_trips="no"),  # type: ignore[arg-type]
         "straight_beats_trips"),
        (lambda: short_deck_batch(rows, straight_beats_trips=0), "straight_beats_trips"),  # type: ignore[arg-type]
        (lambda: pokerlab.parse_cards("AsAs", allow_duplicates=1), "allow_duplicates"),  # type: ignore[arg-type]
        (lambda: pokerlab.query("select count(*) from h='AhAs'", capped=None), "capped"),  # type: ignore[arg-type]
    ):  # fmt: skip
        with pytest.raises(GameError, match=f"^{name} must be True or False, got ") as info:
            call()
        assert info.value.field == name
    assert (
        pokerlab.evaluate_batch(rows, check=np.bool_(False)) == pokerlab.evaluate_batch(rows)
    ).all()


def test_one_sampled_deal_has_an_unknown_error_not_zero() -> None:
    """With one deal, ``stderr`` was 0.0 in Python (which reads as exact) and null in JSON."""
    import json
    import math

    one = pokerlab.equity(["AK", "QQ"], method="monte-carlo", trials=1, seed=1)
    assert all(math.isnan(p.stderr) for p in one.players)
    assert [p["stderr"] for p in json.loads(json.dumps(one.to_dict(), allow_nan=False))[
        "players"]] == [None, None]  # fmt: skip
    assert pokerlab.equity(["AK", "QQ"], method="monte-carlo", trials=2, seed=1).players[
        0].stderr >= 0  # fmt: skip
    dist = pokerlab.equity_distribution("QQ+", "JJ", method="monte-carlo", trials=1, seed=1)
    combos = json.loads(json.dumps(dist.to_dict(), allow_nan=False))["players"][0]["combos"]
    assert {c["stderr"] for c in combos} == {None}
