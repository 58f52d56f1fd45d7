"""Slow, obviously-correct oracles for the evaluator tests.

Written from the rules in ``shared/definitions.md`` only; nothing here reads pokerlab's tables or
kernels. Cards are integer codes ``4 * rank + suit`` (rank 0 = deuce .. 12 = ace), the encoding
that ``pokerlab.cards`` documents.

* :func:`rank5` turns exactly five cards into a comparable tuple
  ``(category, tie-break ranks...)``: larger is better, equal means a tie.
* :func:`best_rank` is the best :func:`rank5` over every 5-card subset (6 or 7 cards).
* :func:`encode` packs such a tuple into one integer (category, then the ranks as base-13
  digits, most significant first); within a category every tuple has the same length, so the
  integer order is the tuple order.
* :func:`rank5_code` / :func:`best_code_rows` / :func:`all_hands_codes` are the same naive logic
  compiled by numba (so a million 7-card hands take seconds); they return :func:`encode`'s
  integers and the tests cross-check them against the pure-Python functions.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES = (
    "High Card",
    "Pair",
    "Two Pair",
    "Three of a Kind",
    "Straight",
    "Flush",
    "Full House",
    "Four of a Kind",
    "Straight Flush",
)
WHEEL = (12, 3, 2, 1, 0)  # A-5-4-3-2: the ace plays low, the straight's top card is the five
DIGITS = 5  # tie-break ranks per tuple, at most
BASE = 13


def rank5(cards: Sequence[int]) -> tuple[int, ...]:
    """``(category, tie-break ranks...)`` of exactly five distinct cards; larger is better.

    Tie-break ranks: groups of equal rank ordered by (size, rank) descending, each group's rank
    once (so two pair is ``(high pair, low pair, kicker)``); a straight is its top card only, the
    wheel's top card being the five.

    >>> rank5([51, 47, 43, 39, 35])  # As Ks Qs Js Ts
    (8, 12)
    >>> rank5([48, 0, 4, 8, 13])  # Ac 2c 3c 4c 5d: the wheel, five high
    (4, 3)
    """
    assert len(cards) == 5 and len(set(cards)) == 5
    ranks = sorted((c // 4 for c in cards), reverse=True)
    suits = {c % 4 for c in cards}
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    shape = [size for _, size in groups]
    group_ranks = tuple(rank for rank, _ in groups)

    is_flush = len(suits) == 1
    straight_top = -1
    if shape == [1, 1, 1, 1, 1]:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif tuple(ranks) == WHEEL:
            straight_top = 3

    if is_flush and straight_top >= 0:
        return (STRAIGHT_FLUSH, straight_top)
    if shape == [4, 1]:
        return (QUADS, *group_ranks)
    if shape == [3, 2]:
        return (FULL_HOUSE, *group_ranks)
    if is_flush:
        return (FLUSH, *ranks)
    if straight_top >= 0:
        return (STRAIGHT, straight_top)
    if shape == [3, 1, 1]:
        return (TRIPS, *group_ranks)
    if shape == [2, 2, 1]:
        return (TWO_PAIR, *group_ranks)
    if shape == [2, 1, 1, 1]:
        return (PAIR, *group_ranks)
    return (HIGH_CARD, *ranks)


def best_rank(cards: Sequence[int]) -> tuple[int, ...]:
    """Best :func:`rank5` among all 5-card subsets of five or more cards."""
    return max(rank5(five) for five in itertools.combinations(cards, 5))


def encode(value: tuple[int, ...]) -> int:
    """One integer with the order of the tuples: category, then ``DIGITS`` base-13 digits."""
    category, *ranks = value
    code = category
    for i in range(DIGITS):
        code = code * BASE + (ranks[i] if i < len(ranks) else 0)
    return code


def category_of_code(codes: NDArray[np.int64]) -> NDArray[np.int64]:
    """The categories of :func:`encode`'d values."""
    return np.asarray(codes, dtype=np.int64) // np.int64(BASE**DIGITS)


# --- the same logic compiled by numba -------------------------------------------------------


@njit(cache=True)
def _pack(category: int, r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    return ((((category * 13 + r0) * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4


@njit(cache=True)
def rank5_code(c0, c1, c2, c3, c4, counts, order, ranks):  # type: ignore[no-untyped-def]
    """:func:`encode` (:func:`rank5` (five cards)), written the naive way for numba.

    ``counts`` (13), ``order`` (5) and ``ranks`` (5) are scratch int64 arrays from the caller
    (allocating them per call would dominate the run time)."""
    counts[:] = 0
    for c in (c0, c1, c2, c3, c4):
        counts[c // 4] += 1
    s = c0 % 4
    is_flush = c1 % 4 == s and c2 % 4 == s and c3 % 4 == s and c4 % 4 == s

    # Ranks grouped by multiplicity, biggest group first, higher rank first within a size.
    n = 0
    largest = 0
    groups = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                order[n] = r
                n += 1
                groups += 1
                if size > largest:
                    largest = size
    # `order` now holds one entry per distinct rank; `ranks` lists all five, high to low.
    k = 0
    for r in range(12, -1, -1):
        for _ in range(counts[r]):
            ranks[k] = r
            k += 1

    straight_top = -1
    if groups == 5:
        if ranks[0] - ranks[4] == 4:
            straight_top = ranks[0]
        elif ranks[0] == 12 and ranks[1] == 3 and ranks[2] == 2 and ranks[3] == 1:
            straight_top = 3

    if is_flush and straight_top >= 0:
        return _pack(STRAIGHT_FLUSH, straight_top, 0, 0, 0, 0)
    if largest == 4:
        return _pack(QUADS, order[0], order[1], 0, 0, 0)
    if largest == 3 and groups == 2:
        return _pack(FULL_HOUSE, order[0], order[1], 0, 0, 0)
    if is_flush:
        return _pack(FLUSH, ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])
    if straight_top >= 0:
        return _pack(STRAIGHT, straight_top, 0, 0, 0, 0)
    if largest == 3:
        return _pack(TRIPS, order[0], order[1], order[2], 0, 0)
    if largest == 2 and groups == 3:
        return _pack(TWO_PAIR, order[0], order[1], order[2], 0, 0)
    if largest == 2:
        return _pack(PAIR, order[0], order[1], order[2], order[3], 0)
    return _pack(HIGH_CARD, ranks[0], ranks[1], ranks[2], ranks[3], ranks[4])


@njit(cache=True)
def _best_code(row, counts, order, ranks):  # type: ignore[no-untyped-def]
    """Best :func:`rank5_code` over every 5-subset of one row of 5..7 cards."""
    n = row.shape[0]
    best = -1
    for a in range(n):
        for b in range(a + 1, n):
            for c in range(b + 1, n):
                for d in range(c + 1, n):
                    for e in range(d + 1, n):
                        v = rank5_code(row[a], row[b], row[c], row[d], row[e], counts, order, ranks)
                        if v > best:
                            best = v
    return best


@njit(cache=True)
def _best_code_rows(codes, out) -> None:  # type: ignore[no-untyped-def]
    counts = np.zeros(13, dtype=np.int64)
    order = np.zeros(5, dtype=np.int64)
    ranks = np.zeros(5, dtype=np.int64)
    row = np.zeros(codes.shape[1], dtype=np.int64)
    for i in range(codes.shape[0]):
        row[:] = codes[i]
        out[i] = _best_code(row, counts, order, ranks)


def best_code_rows(codes: NDArray[np.integer]) -> NDArray[np.int64]:
    """:func:`encode` (:func:`best_rank` (row)) for every row of an ``(n, 5..7)`` code array."""
    arr = np.ascontiguousarray(codes)
    out = np.empty(arr.shape[0], dtype=np.int64)
    _best_code_rows(arr, out)
    return out


def all_hands(k: int) -> NDArray[np.uint8]:
    """Every ``k``-card hand (``k`` <= 5) as rows of increasing codes, in lexicographic order."""
    flat = itertools.chain.from_iterable(itertools.combinations(range(52), k))
    return np.fromiter(flat, dtype=np.uint8).reshape(-1, k)


def random_hands(n: int, k: int, seed: int) -> NDArray[np.uint8]:
    """``n`` uniformly random ``k``-card hands (distinct cards, random order within a row).

    Rows of ``k`` independent uniform codes are drawn and those with a repeated card rejected,
    which leaves every ordered draw of distinct cards, hence every hand, equally likely.
    """
    rng = np.random.default_rng(seed)
    kept: list[NDArray[np.uint8]] = []
    have = 0
    while have < n:
        draw = rng.integers(0, 52, size=(2 * (n - have) + 64, k), dtype=np.uint8)
        ordered = np.sort(draw, axis=1)
        ok = (np.diff(ordered, axis=1) != 0).all(axis=1)
        kept.append(draw[ok])
        have += int(ok.sum())
    return np.concatenate(kept)[:n]


def assert_same_order(ref: NDArray[np.integer], got: NDArray[np.integer]) -> None:
    """Assert ``got`` is a strictly monotone function of ``ref``: sorted by ``ref``, ``got`` never
    decreases, and two neighbours have equal ``got`` exactly when they have equal ``ref``. (So
    every pair of hands compares the same way under both, ties included.)"""
    ref = np.asarray(ref).astype(np.int64)
    got = np.asarray(got).astype(np.int64)
    assert ref.shape == got.shape
    order = np.lexsort((got, ref))
    r = ref[order]
    g = got[order]
    dr = np.diff(r)
    dg = np.diff(g)
    decreasing = np.flatnonzero(dg < 0)
    assert len(decreasing) == 0, f"order differs at sorted position {decreasing[:5]}"
    mismatch = np.flatnonzero((dr > 0) != (dg > 0))
    if len(mismatch):
        i = int(order[mismatch[0]])
        j = int(order[mismatch[0] + 1])
        raise AssertionError(
            f"{len(mismatch)} tie mismatches; e.g. items {i} and {j}: "
            f"ref {ref[i]} vs {ref[j]}, got {got[i]} vs {got[j]}"
        )


@njit(cache=True)
def _six_card_histogram(hist):  # type: ignore[no-untyped-def]
    counts = np.zeros(13, dtype=np.int64)
    order = np.zeros(5, dtype=np.int64)
    ranks = np.zeros(5, dtype=np.int64)
    row = np.zeros(6, dtype=np.int64)
    for a in range(52):
        row[0] = a
        for b in range(a + 1, 52):
            row[1] = b
            for c in range(b + 1, 52):
                row[2] = c
                for d in range(c + 1, 52):
                    row[3] = d
                    for e in range(d + 1, 52):
                        row[4] = e
                        for f in range(e + 1, 52):
                            row[5] = f
                            hist[_best_code(row, counts, order, ranks)] += 1


def six_card_histogram() -> NDArray[np.int64]:
    """How many of the C(52, 6) six-card hands have each :func:`encode`'d best value."""
    hist = np.zeros(9 * BASE**DIGITS, dtype=np.int64)
    _six_card_histogram(hist)
    return hist


def weighted_aggregate(rows: Sequence[tuple[float, Any]], kind: str) -> Any:
    """A query aggregate over ``(weight, value)`` rows computed the plain way: ``avg`` and
    ``count`` the weighted mean, ``min``/``max``, else the histogram ``{value: share}``."""
    total = sum(w for w, _ in rows)
    if kind in ("avg", "count"):
        return sum(w * x for w, x in rows) / total
    if kind == "min":
        return min(x for _, x in rows)
    if kind == "max":
        return max(x for _, x in rows)
    hist: dict[Any, float] = {}
    for w, x in rows:
        hist[x] = hist.get(x, 0.0) + w / total
    return hist
