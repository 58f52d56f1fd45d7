"""The precomputed exact results of every heads-up preflop matchup (no board, no dead cards).

Two hands preflop are, up to a relabelling of suits, one of a few tens of thousands of canonical
matchups (see ``_exact._canonical_id``). This module enumerates every one of them exactly with the
engine itself (:func:`_exact.preflop_counts`) and ships, per canonical id, player 1's wins, the
ties and the number of boards. With it a heads-up preflop range-vs-range equity is a table lookup
per matchup (:func:`matchup_counts`, numpy: it compiles no kernel, so the first
``pokerlab equity AhAs KdKc`` after an install answers at once). The generator is committed and
deterministic; a test recomputes a sample of entries.

    python -m pokerlab.engine._preflop_table          # regenerate _data/preflop_headsup.npz
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["DATA_FILE", "build", "canonical_ids", "load", "matchup_counts", "write"]

DATA_FILE = Path(__file__).with_name("_data") / "preflop_headsup.npz"
_CAPACITY = 1 << 18


def build() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Enumerate every canonical heads-up preflop matchup: sorted ids, and per id
    ``(wins of player 1, ties, boards)``."""
    from pokerlab.engine import _exact
    from pokerlab.engine._showdown import RANK_KEY
    from pokerlab.engine._tables import kernel_tables
    from pokerlab.engine.exact import _scratch
    from pokerlab.ranges import Range

    combos = Range("random").combos
    all_combos = np.ascontiguousarray(np.concatenate([combos, combos]))
    offsets = np.array([0, len(combos), 2 * len(combos)], dtype=np.int64)
    weights = np.ones(len(all_combos))
    cache_keys = np.full(2 * _CAPACITY, -1, dtype=np.int64)
    cache_rows = np.zeros(2 * _CAPACITY, dtype=np.int64)
    store = np.zeros((_CAPACITY, 3, 2), dtype=np.int64)
    stored = np.zeros(1, dtype=np.int64)
    acc = np.zeros((3, 2))
    totals = np.zeros(3, dtype=np.int64)
    _exact.enumerate_matchups(
        all_combos, offsets, weights, np.uint64(0), 0, len(combos) ** 2, True, cache_keys,
        cache_rows, store, stored, acc, totals, _scratch.corr, _scratch.touched, RANK_KEY,
        _exact.CHOOSE, kernel_tables(),
    )  # fmt: skip
    if stored[0] >= _CAPACITY:
        raise RuntimeError("the matchup cache filled up; raise _CAPACITY")
    used = cache_keys >= 0
    ids = cache_keys[used]
    rows = store[cache_rows[used]]
    table = np.stack([rows[:, 0, 0], rows[:, 0, 1], rows[:, 2, 0]], axis=1)
    order = np.argsort(ids)
    return ids[order], np.ascontiguousarray(table[order])


def write(path: Path = DATA_FILE) -> None:
    ids, table = build()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, ids=ids, counts=table.astype(np.uint32))


@cache
def load() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """The shipped table: sorted canonical ids and ``(wins, ties, boards)`` per id."""
    with np.load(DATA_FILE) as data:
        return data["ids"].astype(np.int64), data["counts"].astype(np.int64)


_BLOCK = 1 << 16  # matchups per numpy pass (bounds the scratch memory of a large chunk)


def canonical_ids(cards: NDArray[np.int64]) -> NDArray[np.int64]:
    """The canonical id of each heads-up matchup ``cards[i] = (a0, b0, a1, b1)`` (two hands of
    two cards, no board, no dead cards): ``_exact._canonical_id`` in numpy (a test compares
    them). Suits are relabelled in order of first appearance, each hand's higher card first."""
    hi0 = np.maximum(cards[:, 0], cards[:, 1])
    lo0 = np.minimum(cards[:, 0], cards[:, 1])
    hi1 = np.maximum(cards[:, 2], cards[:, 3])
    lo1 = np.minimum(cards[:, 2], cards[:, 3])
    s0, s1, s2, s3 = hi0 & 3, lo0 & 3, hi1 & 3, lo1 & 3
    # label of each card's suit: that of the first earlier card of its suit, else the next one
    l1 = (s1 != s0).astype(np.int64)
    next2 = 1 + l1
    l2 = np.where(s2 == s0, 0, np.where(s2 == s1, l1, next2))
    next3 = next2 + ((s2 != s0) & (s2 != s1))
    l3 = np.where(s3 == s0, 0, np.where(s3 == s1, l1, np.where(s3 == s2, l2, next3)))
    cid = np.zeros(len(cards), dtype=np.int64)
    for hi, lo, lab_hi, lab_lo in ((hi0, lo0, 0, l1), (hi1, lo1, l2, l3)):
        x = 4 * (hi >> 2) + lab_hi
        y = 4 * (lo >> 2) + lab_lo
        a = np.maximum(x, y)
        b = np.minimum(x, y)
        cid = cid * 1327 + (a * (a - 1) // 2 + b + 1)
    return cid


def matchup_counts(
    combos: NDArray[np.uint8],
    offsets: NDArray[np.int64],
    weights: NDArray[np.float64],
    start: int,
    stop: int,
) -> tuple[NDArray[np.float64], int]:
    """Weighted winner counts (``(3, 2)``, the layout of ``_exact.enumerate_matchups``) and
    deals of the heads-up preflop matchups ``start..stop-1`` (mixed-radix index, player 0
    fastest), from the shipped table; matchups that share a card or weigh 0 are skipped."""
    ids, table = load()
    size0 = int(offsets[1] - offsets[0])
    acc = np.zeros((3, 2), dtype=np.float64)
    deals = 0
    for lo in range(start, stop, _BLOCK):
        index = np.arange(lo, min(stop, lo + _BLOCK), dtype=np.int64)
        rows0 = offsets[0] + index % size0
        rows1 = offsets[1] + index // size0
        cards = np.concatenate([combos[rows0, :2], combos[rows1, :2]], axis=1).astype(np.int64)
        weight = weights[rows0] * weights[rows1]
        masks = np.left_shift(1, cards)
        overlap = (masks[:, 0] | masks[:, 1]) & (masks[:, 2] | masks[:, 3])
        keep = (overlap == 0) & (weight != 0.0)
        cid = canonical_ids(cards[keep])
        at = np.minimum(np.searchsorted(ids, cid), len(ids) - 1)
        if not np.array_equal(ids[at], cid):
            raise RuntimeError("a heads-up preflop matchup is missing from the shipped table")
        wins, ties, boards = table[at, 0], table[at, 1], table[at, 2]
        w = weight[keep]
        # pairwise sums (np.sum): one fixed order, whatever BLAS or the thread count
        acc[0, 0] += np.sum(w * wins)
        acc[0, 1] += np.sum(w * ties)
        acc[1, 1] = acc[0, 1]
        acc[1, 0] += np.sum(w * (boards - wins - ties))
        acc[2, 0] += np.sum(w * boards)
        deals += int(boards.sum())
    return acc, deals


if __name__ == "__main__":
    started = time.perf_counter()
    write()
    ids, _ = load()
    print(f"{len(ids):,} canonical heads-up matchups in {time.perf_counter() - started:.1f} s")
