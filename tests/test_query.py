"""The query language against a brute-force walk over every deal in plain Python.

The oracle deals the flop as a set and the turn and river in order (so turn functions see every
turn card), evaluates hands with tests/bruteforce.py (no pokerlab code), and weights a deal by
the product of its combos' weights, as shared/definitions.md says.
"""

from __future__ import annotations

import itertools
import math
import re
import threading
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from bruteforce import best_high, best_omaha_high, rank5, showdown_values
from pokerlab import QueryError, TooLargeError, hits, query
from pokerlab.analysis.query.syntax import describe, parse
from pokerlab.cards import cards_to_mask, parse_cards
from pokerlab.errors import PokerlabError
from pokerlab.ranges import Range
from pokerlab.ranges.pattern import PatternRange
from reference import weighted_aggregate

Hand = tuple[int, ...]
Deal = tuple[float, tuple[Hand, ...], Hand]


@cache
def high(cards: frozenset[int]) -> tuple[int, ...]:
    return best_high(sorted(cards))


def pot_shares(hands: Sequence[Hand], board: Sequence[int]) -> list[float]:
    values = [high(frozenset((*h, *board))) for h in hands]
    best = max(values)
    k = values.count(best)
    return [1 / k if v == best else 0.0 for v in values]


def deck_without(*groups: Sequence[int]) -> list[int]:
    used = {c for g in groups for c in g}
    return [c for c in range(52) if c not in used]


@cache
def street_equity(hands: tuple[Hand, ...], prefix: frozenset[int], dead: Hand) -> list[float]:
    deck = deck_without(*hands, tuple(prefix), dead)
    total = [0.0] * len(hands)
    runs = list(itertools.combinations(deck, 5 - len(prefix)))
    for rest in runs:
        for i, s in enumerate(pot_shares(hands, (*prefix, *rest))):
            total[i] += s
    return [t / len(runs) for t in total]


def sole_best(hands: Sequence[Hand], board: Sequence[int], p: int) -> bool:
    return pot_shares(hands, board)[p] == 1.0


@cache
def outs(hands: tuple[Hand, ...], p: int, prefix: Hand, dead: Hand) -> int:
    if sole_best(hands, prefix, p):
        return 0
    return sum(sole_best(hands, (*prefix, c), p) for c in deck_without(*hands, prefix, dead))


@cache
def nut_hi(hand: Hand, prefix: frozenset[int], dead: Hand) -> bool:
    mine = high(frozenset((*hand, *prefix)))
    deck = sorted(deck_without(hand, tuple(prefix), dead), reverse=True)
    return all(high(frozenset((a, b, *prefix))) <= mine
               for a, b in itertools.combinations(deck, 2))  # fmt: skip


def deals(players: Sequence[str], board: str, dead: str = "") -> Iterator[Deal]:
    """Every deal: joint holdings (no shared card) x flop set x ordered turn x ordered river."""
    b = tuple(int(c) for c in parse_cards(board))
    d = tuple(int(c) for c in parse_cards(dead))
    ranges = [[(tuple(int(c) for c in combo), w) for combo, w in Range(t).items()]
              for t in players]  # fmt: skip
    for joint in itertools.product(*ranges):
        cards = [c for combo, _ in joint for c in combo]
        if len(set(cards)) != len(cards) or set(cards) & set(b + d):
            continue
        weight = math.prod(w for _, w in joint)
        hands = tuple(combo for combo, _ in joint)
        deck = deck_without(cards, b, d)
        flops = itertools.combinations(deck, 3 - len(b)) if len(b) < 3 else [()]
        for flop in flops:
            after_flop = [c for c in deck if c not in flop]
            turns = after_flop if len(b) < 4 else [None]
            for turn in turns:
                after_turn = [c for c in after_flop if c != turn]
                rivers = after_turn if len(b) < 5 else [None]
                for river in rivers:
                    full = (*b, *flop, *((turn,) if turn is not None else ()),
                            *((river,) if river is not None else ()))  # fmt: skip
                    yield weight, hands, full


def exact_aggregate(
    spot: Sequence[Deal], fn: Callable[[tuple[Hand, ...], Hand], float], kind: str,
    where: Callable[[tuple[Hand, ...], Hand], bool] | None = None,
) -> Any:  # fmt: skip
    rows = [(w, fn(h, b)) for w, h, b in spot if where is None or where(h, b)]
    return weighted_aggregate(rows, kind)


CATEGORIES = ["high card", "pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush"]  # fmt: skip
RANKS = "23456789TJQKA"


def rank_at(board: Hand, i: int) -> int:
    if i <= 3:
        return sorted((c >> 2 for c in board[:3]), reverse=True)[i - 1] + 2
    return (board[i - 1] >> 2) + 2


def suit_count(board: Hand) -> int:
    return max(sum(1 for c in board if c & 3 == s) for s in range(4))


def paired(board: Hand) -> bool:
    ranks = [c >> 2 for c in board]
    return len(set(ranks)) < len(ranks)


def mask(cards: Sequence[int]) -> int:
    return sum(1 << c for c in cards)


FLOP_PLAYERS = ("AhKh", "QcQd,JhTh:0.5")
FLOP_BOARD = "Ts9h2h"
RIVER_PATTERN = "hhhh*"
RIVER_SET = {int(m) for m in PatternRange(RIVER_PATTERN, 5).masks}
Q_RANGE = {tuple(sorted(int(c) for c in combo)) for combo, _ in Range("QQ").items()}

# name -> (select expression, aggregate, oracle of a deal, how the query reports it)
FUNCTIONS: dict[str, tuple[str, Callable[[tuple[Hand, ...], Hand], float]]] = {
    "fe": ("avg(flopEquity(hero))", lambda h, b: street_equity(h, frozenset(b[:3]), ())[0]),
    "te": ("avg(turnEquity(villain))", lambda h, b: street_equity(h, frozenset(b[:4]), ())[1]),
    "re": ("avg(riverEquity(hero))", lambda h, b: pot_shares(h, b)[0]),
    "wins": ("count(winsHi(hero))", lambda h, b: float(pot_shares(h, b)[0] == 1.0)),
    "ties": ("count(tiesHi(villain))", lambda h, b: float(0 < pot_shares(h, b)[1] < 1)),
    "scoops": ("count(scoops(villain))", lambda h, b: float(pot_shares(h, b)[1] == 1.0)),
    "ht": ("histogram(handType(hero, turn))", lambda h, b: high(frozenset((*h[0], *b[:4])))[0]),
    "minht": (
        "count(minHandType(hero, river, 'flush'))",
        lambda h, b: float(high(frozenset((*h[0], *b)))[0] >= 5),
    ),
    "outs_f": ("avg(outs(hero, flop))", lambda h, b: outs(h, 0, b[:3], ())),
    "outs_t": ("max(outs(villain, turn))", lambda h, b: outs(h, 1, b[:4], ())),
    "outs_t2": ("avg(outs(villain, turn))", lambda h, b: outs(h, 1, b[:4], ())),
    "nut_f": (
        "count(nutHi(villain, flop))",
        lambda h, b: float(nut_hi(h[1], frozenset(b[:3]), ())),
    ),
    "nut_t": (
        "count(nutHi(hero, turn))",
        lambda h, b: float(nut_hi(h[0], frozenset(b[:4]), ())),
    ),
    "r4": ("histogram(rankAt(board, 4))", lambda h, b: rank_at(b, 4)),
    "r1": ("min(rankAt(board, 1))", lambda h, b: rank_at(b, 1)),
    "r3": ("max(rankAt(board, 3))", lambda h, b: rank_at(b, 3)),
    "r5": ("avg(rankAt(board, 5) - 1)", lambda h, b: rank_at(b, 5) - 1),
    "suits": ("histogram(suitCount(river))", lambda h, b: suit_count(b)),
    "paired": ("count(pairedBoard(turn))", lambda h, b: float(paired(b[:4]))),
    "inrange": (
        "count(inRange(villain, 'QQ'))",
        lambda h, b: float(tuple(sorted(h[1])) in Q_RANGE),
    ),
    "boardin": (
        f"count(boardInRange('{RIVER_PATTERN}'))",
        lambda h, b: float(mask(b) in RIVER_SET),
    ),
}


def has_draw(hand: Hand, prefix: Hand, target: int) -> bool:
    """Below ``target`` (4 straight, 5 flush) now, and some card the player cannot see makes
    ``target`` or a straight flush."""
    if high(frozenset((*hand, *prefix)))[0] >= target:
        return False
    return any(high(frozenset((*hand, *prefix, c)))[0] in (target, 8)
               for c in deck_without(hand, prefix))  # fmt: skip


FUNCTIONS["fd"] = ("count(handType(hero, flop) = 'flush draw')",
                   lambda h, b: float(has_draw(h[0], b[:3], 5)))  # fmt: skip
FUNCTIONS["sd"] = ("count(handType(villain, turn) != 'straight draw')",
                   lambda h, b: float(not has_draw(h[1], b[:4], 4)))  # fmt: skip
FUNCTIONS["sd2"] = ("count(handType(hero, turn) = 'straight draw')",
                    lambda h, b: float(has_draw(h[0], b[:4], 4)))  # fmt: skip


def _where(h: tuple[Hand, ...], b: Hand) -> bool:
    return not paired(b[:4]) and high(frozenset((*h[1], *b)))[0] <= 2


WHERE_TEXT = "not pairedBoard(turn) and handType(villain, river) <= 'two pair'"


@pytest.fixture(scope="module")
def flop_spot() -> list[Deal]:
    return list(deals(FLOP_PLAYERS, FLOP_BOARD))


def _query_text(where: str | None) -> str:
    items = ", ".join(f"{expr} as {name}" for name, (expr, _) in FUNCTIONS.items())
    text = (f"select {items} from game='holdem', hero='{FLOP_PLAYERS[0]}', "
            f"villain='{FLOP_PLAYERS[1]}', board='{FLOP_BOARD}'")  # fmt: skip
    return text + (f" where {WHERE_TEXT}" if where else "")


def _compare(result: Any, spot: list[Deal], where: Callable[..., bool] | None) -> None:
    for name, (expr, fn) in FUNCTIONS.items():
        kind = expr.split("(")[0]
        want = exact_aggregate(spot, fn, kind, where)
        got = result[name]
        if kind == "histogram":
            labels = {b.bucket: b.value for b in got.value}
            for key, share in want.items():
                label = str(int(key))
                if "handType" in expr:
                    label = CATEGORIES[int(key)]
                elif "rankAt" in expr:
                    label = RANKS[int(key) - 2]
                assert labels[label] == pytest.approx(share, abs=1e-12), (name, label)
            assert sum(labels.values()) == pytest.approx(1.0)
        else:
            assert got.value == pytest.approx(want, abs=1e-12), name
            assert got.stderr == 0.0


def test_every_function_and_aggregate_matches_brute_force(flop_spot: list[Deal]) -> None:
    r = query(_query_text(None))
    assert r.method == "exact"
    assert r.matched == r.deals
    _compare(r, flop_spot, None)
    assert r.deals == len(flop_spot)  # turn functions: the turn and river come in order
    want = sum(w for w, h, b in flop_spot if pot_shares(h, b)[0] == 1.0)
    assert r["wins"].count == pytest.approx(want)  # weighted by the combos' weights


@pytest.mark.parametrize("name", ["r4", "r5", "r1"])
def test_a_board_position_alone_matches_brute_force(flop_spot: list[Deal], name: str) -> None:
    """``rankAt`` of the turn or the river in a query that looks at nothing else: the
    enumeration must still deal the turn and the river apart (as one unordered pair, "the
    river" read whichever card sorted last: 8.80 for 6.67 on this spot)."""
    expr, fn = FUNCTIONS[name]
    r = query(f"select {expr} as {name} from game='holdem', hero='{FLOP_PLAYERS[0]}', "
              f"villain='{FLOP_PLAYERS[1]}', board='{FLOP_BOARD}'")  # fmt: skip
    assert r.method == "exact"
    want = exact_aggregate(flop_spot, fn, expr.split("(")[0], None)
    if name == "r4":
        labels = {b.bucket: b.value for b in r[name].value}
        assert {RANKS.index(k) + 2: v for k, v in labels.items() if v} == pytest.approx(want)
    else:
        assert r[name].value == pytest.approx(want, abs=1e-12)


def test_where_conditions_every_aggregate(flop_spot: list[Deal]) -> None:
    r = query(_query_text(WHERE_TEXT))
    assert r.method == "exact"
    passing = sum(1 for _, h, b in flop_spot if _where(h, b))
    assert r.matched == passing  # both walk the turn and river in order here
    _compare(r, flop_spot, _where)


def test_turn_spot_nut_checks_and_river_only_enumeration() -> None:
    players, board = ("AhKh", "QQ,JJ"), "Ts9h2hQd"
    spot = list(deals(players, board))
    r = query(f"select count(nutHi(hero, turn)) as nt, count(nutHi(villain, river)) as nr, "
              f"avg(riverEquity(villain)) as eq from hero='AhKh', villain='QQ,JJ', "
              f"board='{board}'")  # fmt: skip
    assert r.deals == len(spot)
    nt = exact_aggregate(spot, lambda h, b: float(nut_hi(h[0], frozenset(b[:4]), ())), "avg")
    nr = exact_aggregate(spot, lambda h, b: float(nut_hi(h[1], frozenset(b), ())), "avg")
    eq = exact_aggregate(spot, lambda h, b: pot_shares(h, b)[1], "avg")
    assert r["nt"].value == pytest.approx(nt, abs=1e-12)
    assert r["nr"].value == pytest.approx(nr, abs=1e-12)
    assert r["eq"].value == pytest.approx(eq, abs=1e-12)


def test_contract_example_is_exact() -> None:
    r = query("select avg(riverEquity(hero)) from game='holdem', hero='AhAs', villain='KdKc'")
    d = r.to_dict()
    assert d["method"] == "exact"
    assert d["deals"] == math.comb(48, 5) == d["matched"]
    assert d["results"][0]["value"] == pytest.approx(0.8125549, abs=5e-8)
    assert d["results"][0]["stderr"] == 0


def test_histogram_of_equity_uses_ten_bins() -> None:
    r = query("select histogram(turnEquity(hero)) as h from hero='AhKh', villain='QcQd', "
              "board='Ts9h2h'")  # fmt: skip
    buckets = r["h"].value
    assert [b.bucket for b in buckets][:2] == ["0.0-0.1", "0.1-0.2"] and len(buckets) == 10
    spot = list(deals(("AhKh", "QcQd"), "Ts9h2h"))
    eqs = [street_equity(h, frozenset(b[:4]), ())[0] for _, h, b in spot]
    want = [sum(1 for e in eqs if min(int(e * 10), 9) == k) / len(eqs) for k in range(10)]
    assert [b.value for b in buckets] == pytest.approx(want)


# --- Monte Carlo ----------------------------------------------------------------------------

MC_TEXT = ("select avg(riverEquity(hero)) as eq, count(winsHi(villain)) as vw, "
           "avg(turnEquity(hero)) as te, histogram(handType(hero, river)) as ht "
           "from hero='AhKh', villain='QQ,JTs', board='Ts9h2h' "
           "where handType(villain, turn) >= 'pair' and not pairedBoard(river)")  # fmt: skip


def test_monte_carlo_conditional_query_is_unbiased() -> None:
    exact = query(MC_TEXT)
    mc = query(MC_TEXT, method="monte-carlo", trials=200_000, seed=11)
    assert exact.method == "exact" and mc.method == "monte-carlo"
    assert mc.deals == 200_000 and 0 < mc.matched < mc.deals
    assert mc.matched / mc.deals == pytest.approx(exact.matched / exact.deals, abs=0.01)
    for name in ("eq", "vw", "te"):
        e, m = exact[name], mc[name]
        assert m.stderr is not None and 0 < m.stderr < 0.01
        assert abs(m.value - e.value) < 4 * m.stderr, name  # type: ignore[operator]
    for eb, mb in zip(exact["ht"].value, mc["ht"].value, strict=True):  # type: ignore[arg-type]
        assert eb.bucket == mb.bucket
        assert abs(eb.value - mb.value) <= 4 * mb.stderr + 1e-4


def test_monte_carlo_overlapping_ranges_rejects_whole_joint_draws() -> None:
    text = ("select avg(riverEquity(hero)) as eq, count(inRange(villain, 'AA')) as aa, "
            "count(inRange(hero, 'KK')) as kk from hero='AA,KK', villain='AK,KK,AA', "
            "board='Ts9h2c'")  # fmt: skip
    exact = query(text)
    mc = query(text, method="monte-carlo", trials=150_000, seed=5)
    for name in ("eq", "aa", "kk"):
        e, m = exact[name], mc[name]
        assert m.stderr is not None
        assert abs(m.value - e.value) < 4 * m.stderr, name  # type: ignore[operator]


def test_seed_reproduces_and_stopping_rules() -> None:
    text = "select avg(riverEquity(hero)) as eq from hero='AhKh', villain='QQ', board='Ts9h2h', mc"
    a = query(text + ", trials=5000, seed=3")
    b = query(text, trials=5000, seed=3)
    assert a.method == "monte-carlo" and a.deals == 5000
    assert a.results == b.results
    c = query(text + ", stderr=0.004, seed=1")
    assert c.results[0].stderr is not None and c.results[0].stderr <= 0.004
    assert c.seed == 1
    # why each stopped, as pokerlab.equity says it (and the JSON with it)
    assert (a.stopped, c.stopped) == ("trials", "stderr")
    assert a.to_dict()["stopped"] == "trials"
    exact = query("select avg(riverEquity(hero)) as eq from hero='AhKh', villain='QQ', "
                  "board='Ts9h2h'")  # fmt: skip
    assert exact.method == "exact" and exact.stopped == "complete"


def test_unreachable_stderr_target_stops_at_the_time_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pokerlab.analysis.query import runner

    monkeypatch.setattr(runner, "DEFAULT_TIME_LIMIT", 0.3)
    r = query("select avg(riverEquity(hero)) as eq from hero='AhKh', villain='QcQd', "
              "board='Ts9h2h', mc, stderr=0.001, seed=1 "
              "where handType(hero, flop) = 'quads'")  # fmt: skip
    assert r.method == "monte-carlo" and r.matched == 0 and r["eq"].value is None
    assert r.stopped == "time"


def test_no_deal_matches_gives_no_value() -> None:
    r = query("select avg(riverEquity(hero)) as eq, max(outs(hero, turn)) as o from "
              "hero='AhKh', villain='QcQd', board='Ts9h2h' where handType(hero, flop) = "
              "'quads'")  # fmt: skip
    assert r.matched == 0 and r["eq"].value is None and r["o"].value is None


# --- grammar and errors ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("select avg(riverEquity(hero) from hero='AhAs'", ["column 30", "expected ')'"]),
        ("select avg(x) fro", ["column 15", "'from'"]),
        (
            "select avg(riverEquity(hero)) from hero='AhAs' where",
            ["column 53:", "end of the query"],
        ),  # just after the text, not column 1
        (
            "select",
            ["column 7: expected an aggregate (avg, count, histogram, min, max), got the end"],
        ),
        (
            "select avg(riverEquity(hero)) from hero='AhAs' where ?",
            ["column 54", "unexpected character"],
        ),
        (
            "select avg(riverEquity(h)) from h='AhAs', v='KdKc', stderr=0.1%",
            ["column 63: unexpected character '%'", "(0.1% is 0.001)"],
        ),
        (  # numbers are ASCII digits, as cards and ranges read them
            "select count(outs(h, turn) >= \u0668) from h='AhKh', v='QQ', board='Ts9h2h'",
            ["column 31: unexpected character '\u0668'"],
        ),
        ("", ["empty query"]),
    ],
)
def test_syntax_errors_name_the_column(text: str, fragments: list[str]) -> None:
    with pytest.raises(QueryError) as info:
        parse(text)
    message = str(info.value)
    assert "\n" not in message
    for f in fragments:
        assert f in message


SPOT = " from hero='AhKh', villain='QcQd', board='Ts9h2h'"


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        (
            "select avg(riverEquty(hero))" + SPOT,
            ["column 12", "unknown function 'riverEquty'", "did you mean 'riverEquity'"],
        ),
        ("select avrg(riverEquity(hero))" + SPOT, ["unknown aggregate", "did you mean 'avg'"]),
        ("select avg(riverEquity(her))" + SPOT, ["'her' is not a player", "'hero'"]),
        (
            "select count(handType(hero, flop) = 'flsh')" + SPOT,
            ["unknown hand type 'flsh'", "did you mean 'flush'"],
        ),
        ("select count(handType(hero, flop))" + SPOT, ["count expects a condition"]),
        ("select avg(outs(hero, river))" + SPOT, ["expected a street (flop, turn)"]),
        ("select avg(riverEquity(hero, flop))" + SPOT, ["takes 1 argument"]),
        (
            "select avg(riverEquity(hero))" + SPOT + ", trails=100",
            ["unknown setting 'trails'", "did you mean 'trials'"],
        ),
        (
            "select avg(riverEquity(hero))" + SPOT + " where riverEquity(hero)",
            ["where expects a condition"],
        ),
        ("select count(winsLo(hero))" + SPOT, ["no low half"]),
        ("select avg(riverEquity(hero))" + SPOT + ", seed=-1", ["seed expects a whole number"]),
        ("select avg(riverEquity(hero))" + SPOT + ", trials=1.5", ["trials expects a whole"]),
        # it said "from 1 to 4,611,686,018,427,387,904", a bound far past the CLI's cap
        (
            "select avg(riverEquity(hero))" + SPOT + ", trials=0",
            ["trials expects a whole number, 1 or more"],
        ),
        (
            "select avg(riverEquity(hero))" + SPOT + ", seed=9007199254740993",
            ["seed expects a whole number from 0 to 9,007,199,254,740,991"],
        ),
        ("select avg(riverEquity(hero)) from hero='AhKh', villain=3", ["(villain='...')"]),
        # it said "stderr: must be between 0 and 1, got 5.0", with no column
        (
            "select avg(riverEquity(hero))" + SPOT + ", stderr=5",
            ["column ", ": stderr must be below 1 (0.001 is 0.1%), got 5"],
        ),
        ("select avg(riverEquity(hero))" + SPOT + ", method='fast'", ["unknown method 'fast'"]),
        (
            "select avg(riverEquity(hero)) from game='omaha6', hero='AsAhKsKh2c3c', "
            "villain='random', board='Qs7d4h'",
            [
                f"'random' 6-card Omaha hand has {math.comb(52 - 9, 6):,} holdings here",
                "narrow it with card patterns (e.g. AA****)",
            ],
        ),
        (
            "select min(rankAt(board, 1)) from game='stud', hero='AsAhKs', villain='QdQcJh'",
            ["rankAt: Seven-card stud has no community board"],
        ),
        (
            "select avg(outs(hero, river)) from game='omaha-hilo', hero='AsAhKsKh', "
            "villain='QdQcJhTh', board='2c3c4d'",
            ["outs: expected a street (flop, turn), got 'river'"],
        ),
        ("select avg(riverEquity(hero)) from hero='AhAh', villain='KK'", ["AhAh"]),
        (
            "select avg(riverEquity(h)) from h='AhAs', v='KdKc', board='2c3c4c', exact, mc",
            ["column 76: 'mc' and 'exact' (column 69) exclude each other"],
        ),
        (
            "select avg(riverEquity(h)) from h='AhAs', v='KdKc', exact, seed=3",
            ["seed sets Monte Carlo; an exact query would ignore it"],
        ),
        ("select avg(riverEquity(h)) from h='AhAs', v='KdKc', h='QQ'", ["'h' names two players"]),
        ("select avg(riverEquity(h)) from h='AhAs', v='KdKc', exact=1", ["'exact' takes no value"]),
        (  # it never holds there: it counted 0 without a word
            "select count(handType(h, river) = 'flush draw') from h='AhKh', v='QQ'",
            ["column 14: 'flush draw' is a draw", "no draws at the river"],
        ),
        (
            "select count(hits(h, river) = 'gutshot') from h='AhKh', v='QQ'",
            ["'gutshot' is a draw", "no draws at the river"],
        ),
        # a bare name suggested riverEquity(name) whatever it was: riverEquity(flop) for a
        # street, riverEquity(board), riverEquity(foo) for a typo
        ("select avg(hero)" + SPOT, ["'hero' alone is not a value", "riverEquity(hero)"]),
        ("select avg(flop)" + SPOT, ["'flop' alone is not a value", "suitCount(flop)"]),
        ("select avg(board)" + SPOT, ["'board' alone is not a value", "rankAt(board, 1)"]),
        (
            "select avg(heroo)" + SPOT,
            [
                "'heroo' alone is not a value: it names no player",
                "did you mean 'hero'",
                "no street (flop, turn, river)",
                "text goes in quotes ('heroo')",
            ],
        ),
        (
            "select avg(fifth) from game='stud', hero='AsAhKs', villain='QdQcJh'",
            ["'fifth' alone is not a value", "handType(hero, fifth)"],
        ),
        (
            "select avg(board) from game='razz', hero='As2h3s', villain='QdQcJh'",
            ["'board' alone is not a value: Razz has no community board"],
        ),
    ],
)
def test_semantic_errors_are_one_line(text: str, fragments: list[str]) -> None:
    # a bad hand or a random hand too large to list: the engine's errors (ValueErrors)
    engine_error = "AhAh" in text or "omaha6" in text
    with pytest.raises(ValueError if engine_error else QueryError) as info:
        query(text)
    message = str(info.value)
    assert "\n" not in message
    for f in fragments:
        assert f in message, message


@pytest.mark.parametrize(
    ("text", "kwargs", "fragment"),
    [
        ("from h='AhAs', v='KdKc', exact", {"seed": 3}, "seed sets Monte Carlo"),
        ("from h='AhAs', v='KdKc'", {"method": "exact", "trials": 500}, "trials sets Monte"),
        ("from h='AhAs', v='KdKc', trials=500", {"method": "exact"}, "trials sets Monte"),
    ],
)
def test_an_exact_query_refuses_monte_carlo_keywords(
    text: str, kwargs: dict[str, object], fragment: str
) -> None:
    """The keywords override the query's settings; the check sees the result of both."""
    with pytest.raises(QueryError, match=fragment):
        query("select avg(riverEquity(h)) " + text, **kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"trials": "1000"}, "trials: must be a whole number, got '1000'"),
        ({"stderr": "x"}, "stderr: must be between 0 and 1 (0% and 100%), got 'x'"),
        ({"stderr": -1}, "stderr: must be between 0 and 1 (0% and 100%), got -1 (-100%)"),
    ],
)
def test_keyword_stopping_rules_of_the_wrong_type_are_query_errors(
    kwargs: dict[str, object], fragment: str
) -> None:
    """Checked by the engine's rule (``check_sampling``): a string raised a TypeError, and a
    negative standard error ran."""
    with pytest.raises(QueryError, match=re.escape(fragment)):
        query("select avg(riverEquity(h)) from h='AhAs', v='KdKc'", method="mc", **kwargs)  # type: ignore[arg-type]


def test_division_by_zero_is_undefined_on_its_deals() -> None:
    """It printed inf or nan (and JSON that parsers refuse); now a select item meeting one is an
    error, and a comparison with one never holds, so where can leave those deals out."""
    spot = "from hero='AhAs', villain='KdKc', board='2c3c4c'"
    ratio = "riverEquity(hero) / riverEquity(villain)"
    for item in ("avg(1/0)", "max(0/0)", f"avg({ratio})"):
        with pytest.raises(QueryError, match=re.escape(f"{item} divides by zero")):
            query(f"select {item} {spot}")
    huge = "9" * 400  # no division: the number overflows a float
    with pytest.raises(QueryError, match="too large for a float"):
        query(f"select avg({huge}) {spot}")
    guarded = query(f"select avg({ratio}) as r, count(riverEquity(villain) > 0) as n {spot} "
                    "where riverEquity(villain) > 0").results  # fmt: skip
    plain = query(f"select count({ratio} >= 0) as defined, count(riverEquity(villain) > 0) as n "
                  f"{spot}").results  # fmt: skip
    assert guarded[1].value == 1.0 and math.isfinite(guarded[0].value)
    assert plain[0].value == plain[1].value < 1  # NaN >= 0 does not hold


def test_keywords_are_case_insensitive_and_names_default_to_text() -> None:
    r = query("SELECT Avg(riverEquity(hero)) FROM hero='AhKh', villain='QcQd', "
              "board='Ts9h2hQs', EXACT WHERE NOT pairedBoard(river)")  # fmt: skip
    assert r.results[0].name == "Avg(riverEquity(hero))"
    assert r.results[0].aggregate == "avg"


# --- settings given twice, messages, lines, a missing aggregate -------------------------------

FLOP_SPOT = "select avg(riverEquity(hero)) from hero='AhKh', villain='QQ', board='Ts9h2h'"


def _column_of(text: str, fragment: str, nth: int = 1) -> int:
    """The column (from 1) of the ``nth`` occurrence of ``fragment`` in a one-line ``text``."""
    at = -1
    for _ in range(nth):
        at = text.index(fragment, at + 1)
    return at + 1


@pytest.mark.parametrize(
    ("settings", "this", "first"),
    [
        ("method='exact', mc", "'mc'", "method='exact'"),
        ("exact, method='mc'", "method='mc'", "'exact'"),
        ("method='mc', exact", "'exact'", "method='mc'"),
        ("method='exact', method='monte-carlo'", "method='monte-carlo'", "method='exact'"),
        ("montecarlo, method='auto'", "method='auto'", "'montecarlo'"),
    ],
)
def test_every_spelling_of_the_method_excludes_another_method(
    settings: str, this: str, first: str
) -> None:
    """``method='exact', mc`` ran Monte Carlo (the last one won); ``exact, mc`` was refused."""
    text = f"{FLOP_SPOT}, {settings}"
    second = text.rindex(this.strip("'").split("=")[0]) + 1
    with pytest.raises(QueryError) as info:
        query(text)
    message = str(info.value)
    first_column = _column_of(text, first.strip("'"))
    assert message == (f"column {second}: {this} and {first} (column {first_column}) exclude "
                       "each other")  # fmt: skip


@pytest.mark.parametrize(
    ("settings", "key"),
    [
        ("game='holdem', game='omaha'", "game"),
        ("board='AsKsQs'", "board"),  # the spot has a board already
        ("dead='2c', dead='3c'", "dead"),
        ("trials=500, seed=1, seed=2", "seed"),
        ("trials=500, trials=600", "trials"),
        ("stderr=0.01, stderr=0.02", "stderr"),
        ("time=1, TIME=2", "TIME"),
    ],
)
def test_a_setting_given_twice_is_refused(settings: str, key: str) -> None:
    """They silently overrode one another (``game='holdem', game='omaha'`` ran Omaha)."""
    text = f"{FLOP_SPOT}, {settings}"
    first = _column_of(text.lower(), f"{key.lower()}=")
    second = _column_of(text.lower(), f"{key.lower()}=", 2)
    with pytest.raises(QueryError) as info:
        query(text)
    assert str(info.value) == (f"column {second}: '{key}' is set twice (first at column {first}); "
                               "give each setting once")  # fmt: skip


@pytest.mark.parametrize(
    "settings", ["exact, exact", "method='exact', exact", "mc, montecarlo", "method='mc', mc"]
)
def test_the_same_method_twice_is_refused(settings: str) -> None:
    with pytest.raises(QueryError, match=r"sets the method again \(.+, column \d+\); give it once"):
        query(f"{FLOP_SPOT}, {settings}")


def test_a_method_given_once_in_the_text_still_runs() -> None:
    assert query(f"{FLOP_SPOT}, method='exact'").method == "exact"
    assert query(f"{FLOP_SPOT}, method='mc', trials=100, seed=1").method == "monte-carlo"
    assert query(f"{FLOP_SPOT}, montecarlo, trials=100, seed=1").method == "monte-carlo"


def test_min_and_max_of_a_hand_type_are_its_name() -> None:
    """They were the internal codes (5 for a flush); now the name, as histogram gives it."""
    r = query("select max(handType(hero, river)) as best, min(handType(hero, river)) as worst, "
              "max(outs(hero, flop)) as outs, histogram(handType(hero, river)) as made from "
              "hero='AhKh', villain='QQ', board='Ts9h2h'")  # fmt: skip
    bars = [b.bucket for b in r["made"].value]  # type: ignore[union-attr]
    best, worst = r["best"].value, r["worst"].value
    assert (best, worst) == (bars[-1], bars[0]) == ("flush", "high card")
    values = {d["name"]: d["value"] for d in r.to_dict()["results"]}
    assert values["best"] == "flush" and values["worst"] == "high card"
    assert values["outs"] == r["outs"].value and isinstance(r["outs"].value, float)


@pytest.mark.parametrize(
    ("item", "at", "message"),
    [
        (
            "count(inRange('villain', 'QQ'))",
            "'villain'",
            "inRange: expected a player (hero, villain), got the quoted text "
            "'villain'; a player is written without quotes",
        ),
        (
            "count(inRange('vilain', 'QQ'))",
            "'vilain'",
            "inRange: expected a player (hero, villain), got the quoted text "
            "'vilain' (did you mean 'villain'?); a player is written without quotes",
        ),
        (
            "avg(riverEquity(2))",
            "2)",
            "riverEquity: expected a player (hero, villain), got the number 2",
        ),
        (
            "count(handType(hero, 'river') >= 'pair')",
            "'river'",
            "handType: expected a street (flop, turn, river), got the quoted text "
            "'river'; a street is written without quotes",
        ),
        (
            "count(winsHi(hero) = 'pair')",
            "winsHi",
            "'pair' can only be compared with a hand type or a rank, not with a "
            "condition (winsHi(hero))",
        ),
        (
            "count('a' = 'a')",
            "'a'",
            "'a' can only be compared with a hand type or a rank, not with the quoted text 'a'",
        ),
        (
            "count(riverEquity(hero) * 2 = 'pair')",
            "riverEquity",
            "'pair' can only be compared with a hand type or a rank, not with a "
            "number (riverEquity(hero) * 2)",
        ),
        (
            "count(handType(hero, river) >= rankAt(board, 1))",
            "handType",
            "cannot compare a hand type (handType(hero, river)) with a rank "
            "(rankAt(board, 1)): a hand type compares with a hand type or a quoted name such "
            "as 'flush'",
        ),
        (
            "count(rankAt(board, 1) >= 10)",
            "rankAt",
            "cannot compare a rank (rankAt(board, 1)) with the number 10: a rank "
            "compares with a rank or a quoted rank letter such as 'Q'",
        ),
        (
            "count(inRange(hero, QQ))",
            "QQ)",
            "inRange: expected a range in quotes, got the name QQ",
        ),
        (
            "count(handType(hero, river))",
            "count",
            "count expects a condition, got a hand type (handType(hero, river))",
        ),
        (
            "count(not (riverEquity(hero) + 1))",
            "riverEquity",
            "'not' expects a condition, got a number (riverEquity(hero) + 1)",
        ),
    ],
)
def test_errors_quote_what_was_written(item: str, at: str, message: str) -> None:
    """They said 'this argument' or 'not with this', or named internal types (cat, num).
    ``at``: the text where the error is placed."""
    text = f"select {item} from hero='AhKh', villain='QQ', board='Ts9h2h'"
    with pytest.raises(QueryError) as info:
        query(text)
    assert str(info.value) == f"column {_column_of(text, at)}: {message}"


@pytest.mark.parametrize(
    "text",
    ["(1 + 2) * 3", "1 + 2 * 3", "1 - (2 - 3)", "-(1 + 2) / 4", "not (winsHi(h) or tiesHi(h))",
     "not winsHi(h) and rankAt(board, 1) >= 'Q'", "(1 < 2) = (3 < 4)", "inRange(h, \"A'\")"],
)  # fmt: skip
def test_describe_writes_an_expression_back_as_it_parses(text: str) -> None:
    where = parse(f"select count(x) from h='AhKh' where {text}").where
    assert where is not None and describe(where) == text


# the multi-line example of docs/query.md, with a player misspelt on its third line
MULTI = """select avg(riverEquity(hero)) as eq,
                       count(minHandType(hero, flop, 'pair')) as paired,
                       histogram(handType(villian, river)) as villain_made
                from game='holdem', hero='AhKh', villain='QQ+,AKo', board='Ts9h2h'"""


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (MULTI, "line 3, column 43: handType: 'villian' is not a player"),
        (MULTI.replace("as eq,", "as eq"), "line 2, column 24: expected "),  # parse error
        (MULTI.replace("villian", "villain") + ",\n exact, mc",
         "line 5, column 9: 'mc' and 'exact' (line 5, column 2) exclude each other"),
        (MULTI.replace("villian", "villain") + ",\n seed=1,\n seed=2",
         "line 6, column 2: 'seed' is set twice (first at line 5, column 2)"),
        (MULTI.replace("villian", "villain") + "\n where",
         "line 5, column 7: expected "),  # the end of the query, after its last character
        (MULTI.replace("paired,", "paired, ?"), "line 2, column 74: unexpected character '?'"),
        ("\nselect avg(riverEquity(h)) from h='AhAs', v='KK' where riverEquity(h)\n",
         "column 56: where expects a condition"),  # one line of text: no line number
    ],
)  # fmt: skip
def test_errors_in_a_query_of_several_lines_name_the_line(text: str, where: str) -> None:
    """They named only the column, counted from the start of the error's line."""
    with pytest.raises(QueryError) as info:
        query(text)
    assert str(info.value).startswith(where), str(info.value)


@pytest.mark.parametrize(
    ("text", "column"),
    [
        ("select from hero='AhKh', villain='QQ'", 8),
        ("select avg(riverEquity(hero)),  from hero='AhKh', villain='QQ'", 33),
        ("select avg(riverEquity(hero)), WHERE hero='AhKh', villain='QQ'", 32),
    ],
)
def test_a_missing_aggregate_is_reported_where_it_is_missing(text: str, column: int) -> None:
    """``from`` was read as an aggregate's name: "column 13: expected '(', got 'hero'"."""
    keyword = text.split()[2] if column > 8 else "from"
    with pytest.raises(QueryError) as info:
        parse(text)
    assert str(info.value) == (f"column {column}: expected an aggregate (avg, count, histogram, "
                               f"min, max), got '{keyword}'")  # fmt: skip


def test_names_that_begin_with_a_keyword_are_still_aggregates() -> None:
    """Only a whole keyword is refused as an aggregate: ``fromage`` is an unknown aggregate."""
    assert parse("select Avg(riverEquity(h)) from h='AhKh'").select[0].aggregate == "Avg"
    with pytest.raises(QueryError, match="column 8: unknown aggregate 'fromage'"):
        query("select fromage(riverEquity(hero)) from hero='AhKh', villain='QQ'")


DOCS = Path(__file__).resolve().parents[1] / "docs" / "query.md"


def _documented_examples() -> list[tuple[str, str]]:
    text = DOCS.read_text().split("## Examples checked by the tests", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| `(.+)` \| (.+) \|$", text, flags=re.M)
    assert len(rows) >= 15
    return rows


def test_documented_examples(flop_spot: list[Deal]) -> None:
    """Every example in docs/query.md: its documented value is the brute-force value."""
    by_expr = dict(FUNCTIONS.values())
    for expr, shown in _documented_examples():
        fn = by_expr[expr]
        kind = expr.split("(")[0]
        want = exact_aggregate(flop_spot, fn, kind)
        if kind == "histogram":
            bars = dict(part.split(": ") for part in shown.split("; "))
            assert len(bars) == len(want), expr
            for key, share in want.items():
                label = CATEGORIES[int(key)] if "handType" in expr else str(int(key))
                assert float(bars[label]) == pytest.approx(share, abs=5e-7), expr
        else:
            assert float(shown) == pytest.approx(want, abs=5e-7), expr


def test_three_players_with_dead_cards() -> None:
    players, board, dead = ("AhKh", "QQ,99", "8c7c"), "Ts9h2hJd", "6c"
    d = (int(parse_cards(dead)[0]),)
    spot = list(deals(players, board, dead))
    r = query(
        "select avg(riverEquity(c)) as eq, count(tiesHi(a)) as tie, avg(outs(c, turn)) as o, "
        "avg(turnEquity(b)) as te, count(nutHi(c, turn)) as nut from a='AhKh', b='QQ,99', "
        "c='8c7c', board='Ts9h2hJd', dead='6c' where not winsHi(b)"
    )
    assert r.method == "exact" and r.deals == len(spot)

    def where(h: tuple[Hand, ...], b: Hand) -> bool:
        return pot_shares(h, b)[1] != 1.0

    checks = {
        "eq": lambda h, b: pot_shares(h, b)[2],
        "tie": lambda h, b: float(0 < pot_shares(h, b)[0] < 1),
        "o": lambda h, b: outs(h, 2, b[:4], d),
        "te": lambda h, b: street_equity(h, frozenset(b[:4]), d)[1],
        "nut": lambda h, b: float(nut_hi(h[2], frozenset(b[:4]), d)),
    }
    assert r.matched == sum(1 for _, h, b in spot if where(h, b))
    for name, fn in checks.items():
        assert r[name].value == pytest.approx(exact_aggregate(spot, fn, "avg", where)), name


def test_preflop_street_query_is_sampled_by_default() -> None:
    r = query("select avg(flopEquity(hero)) as fe from hero='AhAs', villain='KdKc', trials=300, "
              "seed=2")  # fmt: skip
    assert r.method == "monte-carlo" and r.deals == 300
    assert r["fe"].value == pytest.approx(0.8125549, abs=5 * r["fe"].stderr)  # type: ignore[operator]
    with pytest.raises(ValueError, match="too large"):
        query("select avg(flopEquity(hero)) from hero='random', villain='random', exact")


# --- Omaha -----------------------------------------------------------------------------------


def omaha_deals(players: Sequence[str], board: str) -> list[Deal]:
    """Every deal of an Omaha spot on the turn: joint holdings x river."""
    b = tuple(int(c) for c in parse_cards(board))
    ranges = [[(tuple(int(c) for c in h), w) for h, w in PatternRange(t, 4)] for t in players]
    out = []
    for joint in itertools.product(*ranges):
        cards = [c for hand, _ in joint for c in hand]
        if len(set(cards)) != len(cards) or set(cards) & set(b):
            continue
        hands = tuple(hand for hand, _ in joint)
        for river in deck_without(cards, b):
            out.append((math.prod(w for _, w in joint), hands, (*b, river)))
    return out


@cache
def omaha_values(game: str, hand: Hand, board: Hand) -> tuple[Any, Any]:
    return showdown_values(game, hand, board)


def omaha_shares(game: str, hands: tuple[Hand, ...], board: Hand) -> list[float]:
    values = [omaha_values(game, h, board) for h in hands]
    his = [v[0] for v in values]
    best = max(his)
    hi = [1 / his.count(best) if v == best else 0.0 for v in his]
    los = [v[1] for v in values if v[1] is not None]
    if not los:
        return hi
    low = min(los)
    k = sum(1 for v in values if v[1] == low)
    return [0.5 * h + (0.5 / k if v[1] == low else 0.0) for h, v in zip(hi, values, strict=True)]


def omaha_street_equity(game: str, hands: tuple[Hand, ...], prefix: Hand) -> list[float]:
    deck = deck_without(*hands, prefix)
    runs = list(itertools.combinations(deck, 5 - len(prefix)))
    total = [0.0] * len(hands)
    for rest in runs:
        for i, s in enumerate(omaha_shares(game, hands, (*prefix, *rest))):
            total[i] += s
    return [t / len(runs) for t in total]


@pytest.mark.parametrize(
    ("game", "players", "board"),
    [
        ("omaha", ("AsKsQhJh", "9c8c7d6d,TcTd5h5s"), "Qs9h2c5d"),
        ("omaha-hilo", ("As2sKd3d", "Ah4h5c9c,AcKh3h4s"), "Qs7d2c8h"),
    ],
)
def test_omaha_functions_match_brute_force(game: str, players: tuple[str, str],
                                           board: str) -> None:  # fmt: skip
    spot = omaha_deals(players, board)
    turn_eq = {}
    for _, h, b in spot:
        turn_eq.setdefault(h, omaha_street_equity(game, h, b[:4]))
    checks: dict[str, tuple[str, Callable[[tuple[Hand, ...], Hand], float]]] = {
        "re": ("avg(riverEquity(hero))", lambda h, b: omaha_shares(game, h, b)[0]),
        "te": ("avg(turnEquity(villain))", lambda h, b: turn_eq[h][1]),
        "sc": ("count(scoops(hero))", lambda h, b: float(omaha_shares(game, h, b)[0] == 1)),
        "wh": ("count(winsHi(villain))",
               lambda h, b: float(omaha_values(game, h[1], b)[0]
                                  > omaha_values(game, h[0], b)[0])),
        "ht": ("max(handType(hero, turn))",
               lambda h, b: float(best_omaha_high(h[0], b[:4])[0])),
        "hr": ("avg(handType(villain, river) >= 'two pair')",
               lambda h, b: float(omaha_values(game, h[1], b)[0][0] >= 2)),
        "ir": ("count(inRange(villain, '" + players[1].split(",")[0] + "'))",
               lambda h, b: float(h[1] == spot_first(players[1]))),
    }  # fmt: skip
    if game == "omaha-hilo":
        checks["wl"] = ("count(winsLo(hero))", lambda h, b: float(
            omaha_values(game, h[0], b)[1] is not None
            and (omaha_values(game, h[1], b)[1] is None
                 or omaha_values(game, h[0], b)[1] < omaha_values(game, h[1], b)[1])))  # fmt: skip
    items = ", ".join(f"{expr} as {name}" for name, (expr, _) in checks.items())
    r = query(f"select {items} from game='{game}', hero='{players[0]}', "
              f"villain='{players[1]}', board='{board}'")  # fmt: skip
    assert r.method == "exact" and r.deals == len(spot)
    for name, (expr, fn) in checks.items():
        kind = expr.split("(")[0]
        want = exact_aggregate(spot, fn, kind)
        if isinstance(r[name].value, str):  # a min or max of a hand type: its name
            assert r[name].value == CATEGORIES[int(want)], name
        else:
            assert r[name].value == pytest.approx(want, abs=1e-12), name


def spot_first(text: str) -> Hand:
    return tuple(int(c) for c in next(iter(PatternRange(text.split(",")[0], 4)))[0])


def test_omaha_hilo_range_matches_the_equity_engine_exact_and_sampled() -> None:
    from pokerlab import equity

    players, board = ["As2sKd3d", "AA**$ds"], "Qs7d2c"
    text = (f"select avg(riverEquity(hero)) as eq from game='omaha-hilo', hero='{players[0]}', "
            f"villain='{players[1]}', board='{board}'")  # fmt: skip
    want = equity(players, board=board, game="omaha-hilo", method="exact").players[0].equity
    exact = query(text)
    assert exact.method == "exact" and exact["eq"].value == pytest.approx(want, abs=1e-12)
    mc = query(text, method="monte-carlo", trials=60_000, seed=9)
    se = mc["eq"].stderr
    assert se is not None and abs(mc["eq"].value - want) < 4 * se  # type: ignore[operator]


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_tiny_weights_are_a_scale_not_an_underflow(method: str) -> None:
    """A joint holding's weight is a product of one weight per player: 1e-200 x 5e-201
    underflows to 0. Values depend only on the weights' ratios; an exact count is the weighted
    number of deals, so it scales with the weights."""
    text = ("select avg(riverEquity(hero)) as eq, count(inRange(hero, 'AA')) as aces "
            "from hero='{}', villain='{}', board='2c3d4h'")  # fmt: skip
    sampling: dict[str, int] = {} if method == "exact" else {"trials": 20_000, "seed": 5}
    runs = [
        query(text.format(h, v), method=method, **sampling)
        for h, v in (
            ("AA:1e-200,KK:5e-201", "QQ:1e-200"),
            ("AA,KK:0.5", "QQ"),
            ("AA:0.5,KK:0.25", "QQ:0.5"),
        )
    ]
    for r in runs[1:]:
        assert r["eq"].value == pytest.approx(runs[0]["eq"].value, abs=1e-12)
        assert r["aces"].value == pytest.approx(runs[0]["aces"].value, abs=1e-12)
    assert runs[1]["aces"].value == pytest.approx(2 / 3, abs=1e-12 if method == "exact" else 0.02)
    if method == "exact":
        assert runs[2]["aces"].count == pytest.approx(runs[1]["aces"].count / 4)
        assert runs[0]["aces"].count == 0.0  # 1e-200 x 1e-200 x deals: below the smallest double
    else:
        assert runs[0]["aces"].count == runs[1]["aces"].count  # sampled deals, unweighted


def test_seeds_past_2_to_the_32_are_taken() -> None:
    """The keyword took seeds below 2**32 only, where pokerlab.equity takes any; the text takes
    every whole number a float holds exactly."""
    text = "select avg(riverEquity(hero)) from hero='AhKh', villain='QQ+', board='Ts9h2h'"
    big = query(text, method="mc", trials=2000, seed=2**40)
    again = query(text, method="mc", trials=2000, seed=2**40)
    assert big.seed == 2**40 and big.results == again.results
    assert query(text, method="mc", trials=2000, seed=2**70).seed == 2**70
    assert query(text + f", seed={2**53 - 1}", method="mc", trials=2000).seed == 2**53 - 1
    with pytest.raises(ValueError, match="seed must be a whole number, 0 or more"):
        query(text, method="mc", trials=10, seed=-1)  # as pokerlab.equity says it


def test_results_do_not_depend_on_the_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerlab.analysis.query import runner

    text = ("select avg(turnEquity(hero)) as te, histogram(handType(villain, river)) as h, "
            "max(outs(hero, flop)) as o from hero='AhKh', villain='QQ+,JTs', "
            "board='Ts9h2h'")  # fmt: skip
    monkeypatch.setattr(runner, "THREADS", 3)  # the cap: not below the threads asked for
    monkeypatch.setattr(runner, "MIN_SLICE", 100)
    runs = []
    for threads in (1, 3):
        exact = query(text, threads=threads)
        sampled = query(text, method="monte-carlo", trials=20_000, seed=4, threads=threads)
        runs.append((exact.results, sampled.results))
    assert runs[0] == runs[1]


def test_importing_pokerlab_loads_neither_lark_nor_numba() -> None:
    import subprocess
    import sys

    code = ("import sys, pokerlab; "
            "print(sorted(m for m in ('lark', 'numba') if m in sys.modules))")  # fmt: skip
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


# --- board-hit categories: hits(p, street) against pokerlab.hits ---------------------------

HIT_RANGE = "QQ+,AKs,KQo,JTs,T9s,98s,A5s,76s,33"


def _hit_shares(range_: str, board: str, dead: str, game: str = "holdem") -> dict[str, float]:
    """Weight of every made category, group and draw of ``pokerlab.hits`` on one board."""
    report = hits(range_, board=board, dead=dead, game=game)
    shares: dict[str, float] = {}
    for c in report.categories:
        shares[c.name] = c.weight
        for part in c.detail or ():
            shares[part.name] = part.weight
    for d in report.draws:
        shares[d.name] = d.weight
    return shares


def _hit_query(names: list[str], street: str, spot: str) -> dict[str, float]:
    items = ", ".join(f"count(hits(hero, {street}) = '{n}') as c{i}" for i, n in enumerate(names))
    r = query(f"select {items} from {spot}")
    assert r.method == "exact"
    return {n: float(r[f"c{i}"].value) for i, n in enumerate(names)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("game", "hero", "villain", "flop"),
    [("holdem", HIT_RANGE, "2c2h", "Ks9s2d"), ("holdem", HIT_RANGE, "AhAd", "Th9h8c"),
     ("omaha", "JT8*", "2c2h3c3h", "9h7c2d")],
)  # fmt: skip
def test_hits_on_the_flop_are_the_hits_report(game: str, hero: str, villain: str,
                                              flop: str) -> None:  # fmt: skip
    """A fixed flop: the query's deals weight every hero combo alike (the villain's cards are
    dead to the report), so each category's share is the report's weight share."""
    want = _hit_shares(hero, flop, villain, game)
    total = sum(c.weight for c in hits(hero, board=flop, dead=villain, game=game).categories)
    got = _hit_query(list(want), "flop", f"game='{game}', hero='{hero}', villain='{villain}', "
                     f"board='{flop}'")  # fmt: skip
    for name, weight in want.items():
        assert got[name] == pytest.approx(weight / total, abs=1e-12), name
    assert any(0 < got[n] < 1 for n in ("top pair", "flush draw", "gutshot", "wrap") if n in got)


def test_hits_on_the_turn_average_the_report_over_every_turn() -> None:
    """hits(hero, turn) from a flop: over the turns, the weight of each category summed turn by
    turn (the report on flop + turn, without the combos that touch the turn card)."""
    flop, villain = "Ks9s2d", "2c2h"
    seen = set(parse_cards(flop + villain))
    names = list(_hit_shares(HIT_RANGE, flop + "Ah", villain))
    sums = dict.fromkeys(names, 0.0)
    total = 0.0
    for turn in parse_cards("".join(r + s for r in RANKS for s in "cdhs")):
        if turn in seen:
            continue
        shares = _hit_shares(HIT_RANGE, flop + str(turn), villain)
        for n in names:
            sums[n] += shares.get(n, 0.0)
        total += sum(c.weight for c in hits(HIT_RANGE, board=flop + str(turn),
                                            dead=villain).categories)  # fmt: skip
    got = _hit_query(names, "turn", f"hero='{HIT_RANGE}', villain='{villain}', board='{flop}'")
    for n in names:
        assert got[n] == pytest.approx(sums[n] / total, abs=1e-12), n


def test_hits_order_groups_and_histogram() -> None:
    spot = f"from hero='{HIT_RANGE}', villain='2c2h', board='Ks9s2d'"
    shares = _hit_shares(HIT_RANGE, "Ks9s2d", "2c2h")
    made = ("straight flush", "four of a kind", "full house", "flush", "straight", "set", "trips",
            "two pair", "overpair", "top pair", "pocket pair below top pair", "middle pair",
            "bottom pair", "underpair", "ace high", "no made hand")  # fmt: skip
    total = sum(shares[n] for n in made)
    r = query("select count(hits(hero, flop) >= 'top pair') as tp_plus, "
              "count('overpair' > hits(hero, flop)) as below_overpair, "
              "count(hits(hero, flop) != 'flush draw') as no_fd, "
              f"histogram(hits(hero, flop)) as made {spot}")  # fmt: skip
    better = ("set", "two pair", "trips", "overpair", "top pair")
    assert r["tp_plus"].value == pytest.approx(sum(shares[n] for n in better) / total)
    worse = ("pocket pair below top pair", "middle pair", "bottom pair", "underpair", "ace high",
             "no made hand", "top pair")  # fmt: skip
    assert r["below_overpair"].value == pytest.approx(sum(shares[n] for n in worse) / total)
    assert r["no_fd"].value == pytest.approx(1 - shares["flush draw"] / total)
    bars = {b.bucket: b.value for b in r["made"].value}  # type: ignore[union-attr]
    assert bars["top pair, top kicker"] == pytest.approx(shares["top pair, top kicker"] / total)
    assert sum(bars.values()) == pytest.approx(1.0)


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("select count(hits(hero, flop) = 'top pear')" + SPOT, ["top pear", "top pair"]),
        ("select count(hits(hero, flop) >= 'gutshot')" + SPOT, ["gutshot", "= or !="]),
        ("select count(hits(hero, flop) = 3)" + SPOT, ["quoted category"]),
        ("select avg(hits(hero, flop))" + SPOT, ["avg", "board hit"]),
        ("select count(hits(hero, preflop) = 'set')" + SPOT, ["street"]),
    ],
)
def test_hits_errors(text: str, fragments: list[str]) -> None:
    with pytest.raises(QueryError) as info:
        query(text)
    message = str(info.value)
    assert "\n" not in message and "column" in message
    for fragment in fragments:
        assert fragment in message, message


# --- outs in split pots, nutHi in Omaha ----------------------------------------------------


def omaha_outs(game: str, hands: tuple[Hand, ...], p: int, prefix: Hand) -> int:
    """Next cards after which p would scoop (whole pot alone) were the hand to end on the next
    street (the low from the board so far); 0 when p scoops already."""
    if omaha_shares(game, hands, prefix)[p] == 1.0:
        return 0
    deck = deck_without(*hands, prefix)
    return sum(omaha_shares(game, hands, (*prefix, c))[p] == 1.0 for c in deck)


@cache
def omaha_nut(hand: Hand, prefix: Hand) -> bool:
    """No two cards p cannot see, with exactly three board cards, beat p's Omaha high."""
    mine = best_omaha_high(hand, prefix)
    deck = deck_without(hand, prefix)
    return all(max(rank5((a, b, *three)) for three in itertools.combinations(prefix, 3)) <= mine
               for a, b in itertools.combinations(deck, 2))  # fmt: skip


@pytest.mark.parametrize(
    ("game", "players", "board"),
    [
        ("omaha-hilo", ("AsKs3d4d", "2h3h9s9d,2d3c9h9c"), "Qs7s2c5h"),
        ("omaha-hilo", ("AdKc4c5s", "2h3h9s9d"), "Ac6h7d9h"),
        ("omaha", ("AsKsQhJh", "9c8c7d6d,TcTd5h5s"), "Qs9h2c5d"),
    ],
)
def test_split_outs_and_omaha_nut_hi_on_the_turn(game: str, players: tuple[str, str],
                                                  board: str) -> None:  # fmt: skip
    spot = omaha_deals(players, board)
    checks: dict[str, tuple[str, Callable[[tuple[Hand, ...], Hand], float]]] = {
        "oh": ("avg(outs(hero, turn))", lambda h, b: omaha_outs(game, h, 0, b[:4])),
        "ov": ("max(outs(villain, turn))", lambda h, b: omaha_outs(game, h, 1, b[:4])),
        "nt": ("count(nutHi(hero, turn))", lambda h, b: float(omaha_nut(h[0], b[:4]))),
        "nr": ("count(nutHi(villain, river))", lambda h, b: float(omaha_nut(h[1], b))),
        "nhr": ("count(nutHi(hero, river))", lambda h, b: float(omaha_nut(h[0], b))),
    }
    items = ", ".join(f"{expr} as {name}" for name, (expr, _) in checks.items())
    r = query(f"select {items} from game='{game}', hero='{players[0]}', "
              f"villain='{players[1]}', board='{board}'")  # fmt: skip
    assert r.method == "exact" and r.deals == len(spot)
    for name, (expr, fn) in checks.items():
        want = exact_aggregate(spot, fn, expr.split("(")[0])
        assert r[name].value == pytest.approx(want, abs=1e-12), name
    assert r["oh"].value > 0 and r["nhr"].value + r["nr"].value > 0  # not all zero


def test_split_outs_on_the_flop_exact_and_sampled() -> None:
    """outs(p, flop) depends on the holdings and the flop alone: the exact query's average is
    the weighted average over joint holdings; Monte Carlo (seeded) within 4 standard errors."""
    game, board = "omaha-hilo", "Qs7d2c"
    players = ("As2sKd3d", "Ah4h5c9c,AcKh3h4s,4d5d6c6s,QdQh6c6s")
    flop = tuple(int(c) for c in parse_cards(board))
    ranges = [[(tuple(int(c) for c in h), w) for h, w in PatternRange(t, 4)] for t in players]
    totals = [0.0, 0.0, 0.0]
    weight = 0.0
    for (hero, wh), (villain, wv) in itertools.product(*ranges):
        if set(hero) & set(villain):
            continue
        hands = (hero, villain)
        totals[0] += wh * wv * omaha_outs(game, hands, 0, flop)
        totals[1] += wh * wv * omaha_outs(game, hands, 1, flop)
        totals[2] += wh * wv * omaha_nut(villain, flop)
        weight += wh * wv
    text = (f"select avg(outs(hero, flop)) as oh, avg(outs(villain, flop)) as ov, "
            f"count(nutHi(villain, flop)) as nv from game='{game}', hero='{players[0]}', "
            f"villain='{players[1]}', board='{board}'")  # fmt: skip
    exact = query(text)
    assert exact.method == "exact"
    for name, total in zip(("oh", "ov", "nv"), totals, strict=True):
        assert exact[name].value == pytest.approx(total / weight, abs=1e-12), name
        assert exact[name].value > 0, name
    mc = query(text, method="monte-carlo", trials=20_000, seed=3)
    for name in ("oh", "ov", "nv"):
        se = mc[name].stderr
        assert se is not None and se > 0
        assert abs(mc[name].value - exact[name].value) < 4 * se, name  # type: ignore[operator]


def test_cancel_ends_a_sampled_run_with_its_deals_and_stops_an_exact_one() -> None:
    from pokerlab.analysis.query import runner
    from pokerlab.errors import CancelledError

    text = "select avg(riverEquity(hero)) as eq from hero='AhAs', villain='KdKc'"
    calls: list[int] = []

    def after_two_checks() -> bool:  # the run's checks between chunks, not its watcher's polls
        if threading.current_thread() is threading.main_thread():  # (every 20 ms: a chunk
            calls.append(1)  # slower than that under load was cut by the second poll)
        return len(calls) >= 2

    cut = query(text, method="monte-carlo", trials=10 * runner.CHUNK, seed=3,
                cancel=after_two_checks)  # fmt: skip
    assert cut.method == "monte-carlo" and cut.deals == 2 * runner.CHUNK
    assert cut.stopped == "cancelled"
    # the same deals as a run asked for that many: a cancelled estimate is the one of its chunks
    same = query(text, method="monte-carlo", trials=2 * runner.CHUNK, seed=3)
    assert cut.results == same.results
    at_once = query(text, method="monte-carlo", trials=10 * runner.CHUNK, cancel=lambda: True)
    assert at_once.deals == runner.CHUNK  # one chunk at least, as pokerlab.equity samples
    with pytest.raises(CancelledError):
        query(text, method="exact", cancel=lambda: True)
    stop = threading.Event()  # an event, as pokerlab.equity and outs take
    stop.set()
    with pytest.raises(CancelledError):
        query(text, method="exact", cancel=stop)
    assert query(text, method="monte-carlo", trials=10 * runner.CHUNK, cancel=stop).deals == (
        runner.CHUNK
    )


def _within(a: float, a_err: float, b: float, b_err: float) -> bool:
    """Two estimates of one value agree within four combined standard errors."""
    return abs(a - b) <= 4 * math.hypot(a_err, b_err)


def test_random_omaha_hands_are_listed_and_match_the_engine_dealing_them() -> None:
    from pokerlab import equity

    # exact: every holding of the 44 unseen cards, every river (135,751 x 40 deals)
    text = ("select avg(riverEquity(hero)) as eq from game='omaha', hero='AsAhKsKh', "
            "villain='random', board='Qs7d2c3h'")  # fmt: skip
    exact = query(text, method="exact")
    assert exact.deals == math.comb(44, 4) * 40
    dealt = equity(["AsAhKsKh", "random"], board="Qs7d2c3h", game="omaha", method="mc",
                   trials=2_000_000, seed=11).players[0]  # fmt: skip
    assert _within(exact["eq"].value, 0.0, dealt.equity, dealt.stderr)  # type: ignore[arg-type]
    # sampled, hi/lo, two random hands beside a known one
    text = ("select avg(riverEquity(hero)) as eq from game='omaha-hilo', hero='As2sKd3d', "
            "v1='random', v2='random', board='Qs7d4h'")  # fmt: skip
    sampled = query(text, method="monte-carlo", trials=200_000, seed=5)["eq"]
    dealt = equity(["As2sKd3d", "random", "random"], board="Qs7d4h", game="omaha-hilo",
                   method="mc", trials=1_000_000, seed=5).players[0]  # fmt: skip
    assert sampled.stderr is not None
    assert _within(sampled.value, sampled.stderr, dealt.equity, dealt.stderr)  # type: ignore[arg-type]


def test_listed_random_hands_avoid_every_known_card() -> None:
    from pokerlab.engine.problem import prepare

    problem = prepare(["AsAhKsKh", "random", "Qd**"], "Qs7d2c", "3h", "omaha")
    listed = problem.listing_random_hands()
    assert listed.sizes[0] == 1 and listed.sizes[2] == problem.sizes[2]
    # 52 - 3 board - 1 dead - 4 in hero's hand - the Qd every holding of player 3 holds
    assert listed.sizes[1] == math.comb(43, 4) and int(listed.held[1]) == 4
    rows = listed.combo_masks[listed.offsets[1] : listed.offsets[2]]
    known = cards_to_mask(parse_cards("As Ah Ks Kh Qd Qs 7d 2c 3h"))
    assert not (rows & np.uint64(known)).any()
    assert listed.dealing_random_hands().sizes == problem.sizes  # and back


def test_a_run_stopped_by_time_reports_progress_by_time() -> None:
    ticks: list[float] = []
    text = "select avg(riverEquity(h)) from h='AhKh', v='QQ+,AKo'"
    query(text, method="monte-carlo", trials=1000)  # kernels loaded: chunks take milliseconds
    query(text, method="monte-carlo", time_limit=1.0, progress=ticks.append)
    assert ticks and ticks == sorted(ticks) and ticks[0] > 0 and ticks[-1] < 1


def test_one_passing_deal_has_no_standard_error() -> None:
    """A sampled average over one deal that passes where has no spread to estimate: its
    standard error is unknown (None), not 0 (which looked exact, and met any --stderr target)."""
    text = ("select avg(riverEquity(hero)) as e from hero='AhAs', villain='KdKc', "
            "board='2c3c4c' where handType(hero, river) = 'four of a kind'")  # fmt: skip
    result = query(text, method="mc", trials=120, seed=0)
    assert result.matched == 1 and result["e"].value == 1.0 and result["e"].stderr is None
    more = query(text, method="mc", trials=20_000, seed=0)
    assert more.matched > 1 and more["e"].stderr is not None


@pytest.mark.parametrize("players", [2, 3])
def test_omaha_with_every_hand_random(players: int) -> None:
    """Every hand ``random`` (no listed holding to size the table by) raised a ValueError from
    the padding of the listed holdings: a 500 on the web. By symmetry each player's equity
    is 1/players."""
    names = ", ".join(f"p{k}='random'" for k in range(1, players))
    result = query(
        f"select avg(riverEquity(hero)) as eq from game='omaha', hero='random', {names}",
        trials=20_000,
        seed=5,
    )
    eq, se = result.results[0].value, result.results[0].stderr
    assert se is not None and 0 < se < 0.01 and abs(eq - 1 / players) < 4 * se


@pytest.mark.parametrize(
    "expression",
    [
        "avg(" + "+".join(["1"] * 600) + ")",  # 1,200 characters: the web takes 5,000
        "count(" + "not " * 1100 + "winsHi(h))",
        "avg(" + "-" * 1000 + "1)",
        "count(" + " and ".join(["winsHi(h)"] * 300) + ")",
    ],
)
def test_expressions_nested_too_deep_are_refused_not_a_stack_overflow(expression: str) -> None:
    """They raised RecursionError (HTTP 500 on the web); 5,000 parentheses already worked."""
    with pytest.raises(QueryError, match="nests more than 200 levels"):
        query(f"select {expression} from h='AhAs', v='KdKc'")


def test_an_expression_just_under_the_nesting_limit_runs() -> None:
    total = "+".join(["1"] * 190)
    assert query(f"select avg({total}) from h='AhAs', v='KdKc'").results[0].value == 190


def test_joint_holdings_listed_in_blocks_are_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    """Holdings are paired a block at a time (the pairs of an Omaha hand against 'random' on
    the river took 7.8 GB before the refusal); the blocks change nothing."""
    from pokerlab.analysis.query import runner

    text = ("select avg(riverEquity(h)), count(winsHi(v)) "
            "from h='AK,QQ', v='JJ+,AQs', w='T9s,88', board='Ah7c2d5s'")  # fmt: skip
    whole = query(text)
    monkeypatch.setattr(runner, "_PAIR_BLOCK", 7)
    blocked = query(text)
    assert whole.method == blocked.method == "exact"
    assert [r.value for r in blocked.results] == [r.value for r in whole.results]
    assert blocked.deals == whole.deals


def test_an_exact_query_far_too_large_is_refused_before_listing_it() -> None:
    text = ("select avg(riverEquity(h)) "
            "from game='omaha', h='KsKh**', v='random', board='2c3d4h5s7c', exact")  # fmt: skip
    with pytest.raises(TooLargeError, match="more than 60,000,000 deals"):
        query(text)


@pytest.mark.parametrize("bad", [-1, 0, math.nan, True, "1", [1]])
def test_a_bad_max_seconds_is_refused(bad: object) -> None:
    """It was never checked: -1, 0 or NaN sampled one chunk and answered with it, "1" or [1]
    raised a TypeError from the sampling loop."""
    from pokerlab.errors import GameError

    text = "select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc'"
    with pytest.raises(GameError, match=r"^max_seconds: must be a positive number of seconds"):
        query(text, method="mc", trials=10**6, max_seconds=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("keywords", "field"),
    [
        ({"trials": 0}, "trials"),
        ({"stderr": 2}, "stderr"),
        ({"time_limit": -1}, "time_limit"),
        ({"method": "x"}, "method"),
        ({"method": "exact", "seed": 1}, "seed"),
    ],
)
def test_a_bad_keyword_names_its_field(keywords: dict[str, Any], field: str) -> None:
    """These errors had field None, where pokerlab.equity names the argument."""
    with pytest.raises(QueryError) as caught:
        query("select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc'", **keywords)
    assert caught.value.field == field


def test_numpy_counts_give_json_results() -> None:
    """trials=np.int64(100) came back as a numpy integer in deals and seed: json.dumps of
    to_dict() failed (pokerlab.equity's samples too)."""
    import json

    import pokerlab

    text = "select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc'"
    sampled = query(text, method="mc", trials=np.int64(100), seed=np.int64(2))
    assert type(sampled.deals) is int and type(sampled.seed) is int
    json.dumps(sampled.to_dict())
    result = pokerlab.equity(["AhAs", "KdKc"], method="mc", trials=np.int64(100), seed=1)
    assert type(result.samples) is int
    json.dumps(result.to_dict())


@pytest.mark.parametrize(
    ("spot", "item", "message"),
    [
        ("hero='AhKh', villain='QQ'", "inRange(villain, 'QX')",
         "inRange: invalid range 'QX' at character 1: expected a second rank or a suit after "
         "Q, found 'X'"),
        ("hero='AhKh', villain='QQ'", "inRange(villain, 'QQ:0')",
         "inRange: range 'QQ:0' holds no combo"),
        ("game='omaha', hero='AhKh2c3d', villain='QQ**'", "inRange(villain, 'AA$foo')",
         "inRange: invalid range 'AA$foo' at character 3: unknown macro '$foo': expected one "
         "of $ds, $ss, $ts, $np, $r"),
    ],
)  # fmt: skip
def test_in_range_errors_name_the_column(spot: str, item: str, message: str) -> None:
    """A range inRange cannot read is checked when the spot is known, after compiling: its
    error had no column, where every other argument's error names one (QA)."""
    text = f"select count({item}) from {spot}"
    with pytest.raises(QueryError) as info:
        query(text)
    quoted = item[item.index("'") :]
    assert str(info.value) == f"column {_column_of(text, quoted)}: {message}"


@pytest.mark.parametrize(
    ("setting", "said"),
    [
        ("board='2'", "board: invalid card '2' at character 1"),
        ("dead='2c2c'", "dead: duplicate card '2c'"),
        ("game='bridge'", "game: unknown game 'bridge'"),
        ("board='AsAdAc'", "v ('AA'): no hand of the range is left"),
    ],
)
def test_a_spot_input_that_does_not_read_names_its_column(setting: str, said: str) -> None:
    """A malformed board (dead cards, game) was refused with the card error alone, no column
    and no setting named, where every other error of a query names its place (QA)."""
    text = f"select count(1) from h='AhKh', v='AA', {setting}"
    with pytest.raises(PokerlabError) as info:
        query(text)
    where = text.index("v=") if said.startswith("v ") else text.index(setting)
    assert str(info.value).startswith(f"column {where + 1}: {said}")


def test_monte_carlo_settings_of_an_exact_query_name_their_column() -> None:
    """'exact, seed=2' was refused with no column, where every other error in the text names
    one; a keyword's setting (not in the text) has none to name."""
    text = "select count(1) from h='AhKh', v='QQ', exact, seed=2"
    with pytest.raises(QueryError) as info:
        query(text)
    assert str(info.value) == (
        f"column {text.index('seed') + 1}: seed sets Monte Carlo; an exact query would ignore it"
    )
    with pytest.raises(QueryError) as info:
        query("select count(1) from h='AhKh', v='QQ', exact", seed=2)
    assert str(info.value) == "seed sets Monte Carlo; an exact query would ignore it"


def test_a_query_of_one_player_names_where_the_players_begin() -> None:
    text = "select count(1) from h='AhKh'"
    with pytest.raises(PokerlabError) as info:
        query(text)
    assert str(info.value) == "column 22: a showdown needs at least 2 players, got 1"
