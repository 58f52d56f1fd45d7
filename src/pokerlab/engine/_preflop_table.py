"""The precomputed exact results of every heads-up preflop matchup (no board, no dead cards).

Two hands preflop are, up to a relabelling of suits, one of a few tens of thousands of canonical
matchups (see ``_exact._canonical_id``). This module enumerates every one of them exactly with the
engine itself (:func:`_exact.preflop_counts`) and ships, per canonical id, player 1's wins, the
ties and the number of boards. With it a heads-up preflop range-vs-range equity is a table lookup
per matchup (:func:`lookup`), in numpy: no kernel to compile or load, so the README's first
``pokerlab equity AhAs KdKc`` never imports numba. The generator is committed and deterministic;
a test recomputes a sample of entries, and another checks :func:`lookup`'s ids against the
kernel's.

    python -m pokerlab.engine._preflop_table          # regenerate _data/preflop_headsup.npz
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerlab.ranges._combos import COMBO_INDEX, COMBOS

__all__ = ["DATA_FILE", "build", "load", "lookup", "write"]

DATA_FILE = Path(__file__).with_name("_data") / "preflop_headsup.npz"
_CAPACITY = 1 << 18
ID_RADIX = 1327
"""The canonical id's base (``_exact._canonical_id``): one player's part is 1..1326."""


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
        all_combos, offsets, weights, np.uint64(0), 0, len(combos) ** 2, True,
        np.zeros((0, 4), dtype=np.int64), cache_keys, cache_rows, store, stored, acc, totals,
        _scratch.corr, _scratch.touched, RANK_KEY, _exact.CHOOSE, kernel_tables(),
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


def _player_part(
    high_ranks: NDArray[np.int64],
    low_ranks: NDArray[np.int64],
    high_labels: NDArray[np.int64] | int,
    low_labels: NDArray[np.int64] | int,
) -> NDArray[np.int64]:
    """One player's part of the canonical id (as ``_exact._canonical_id``): the index of the
    relabelled card pair among the 1,326, plus 1."""
    a = 4 * high_ranks + high_labels
    b = 4 * low_ranks + low_labels
    part: NDArray[np.int64] = np.where(a > b, a * (a - 1) // 2 + b, b * (b - 1) // 2 + a) + 1
    return part


_Ints = NDArray[np.int64]


@cache
def _id_parts() -> tuple[_Ints, _Ints, _Ints, _Ints]:
    """Per two-card combo (in the canonical combo order, ``ranges.COMBOS``): its class as player
    0 times the radix (classes 0..168: player 0's part of the canonical id takes 169 values,
    ``part0[class]``), the suit pattern of its two cards (``4 * suit(hi) + suit(lo)``), and per
    suit pattern of player 0 and combo of player 1, player 1's part. Suits are relabelled in
    order of first appearance, player 0's high card first, so player 0's cards take labels 0 and
    0 or 1, and player 1's depend only on them. Returns ``(first, part0, pattern, second)``."""
    hi = COMBOS[:, 0].astype(np.int64)  # the higher card code first
    lo = COMBOS[:, 1].astype(np.int64)
    s2, s3 = hi & 3, lo & 3  # player 1's suits, as a combo of player 1
    l1 = (s3 != s2).astype(np.int64)  # the same combo as player 0's: labels 0 and l1
    part0, klass = np.unique(_player_part(hi >> 2, lo >> 2, 0, l1), return_inverse=True)
    pattern = 4 * s2 + s3
    s0 = (np.arange(16) >> 2)[:, None]  # player 0's suits, per pattern
    s1 = (np.arange(16) & 3)[:, None]
    m1 = (s1 != s0).astype(np.int64)
    seen = 1 + m1
    l2 = np.where(s2 == s0, 0, np.where(s2 == s1, m1, seen))
    seen = seen + ((s2 != s0) & (s2 != s1))
    l3 = np.where(s3 == s0, 0, np.where(s3 == s1, m1, np.where(s3 == s2, l2, seen)))
    second = _player_part(hi >> 2, lo >> 2, l2, l3)
    return klass.astype(np.int64) * ID_RADIX, part0, pattern, second


@cache
def _rows_by_id() -> tuple[NDArray[np.int32], NDArray[np.float64]]:
    """The table's row of every canonical id at ``ID_RADIX * class of player 0 + part of player
    1`` (-1 where none: a matchup sharing a card; 169 x 1,327 entries, 0.9 MB where the ids
    themselves would take 7 MB), and its ``(wins, ties, boards)`` as floats, for weighting."""
    ids, counts = load()
    _, part0, _, _ = _id_parts()
    first = ids // ID_RADIX
    klass = np.searchsorted(part0, first)
    if not np.array_equal(part0[np.minimum(klass, len(part0) - 1)], first):
        raise RuntimeError("the shipped table has an id this lookup cannot place")
    rows = np.full(len(part0) * ID_RADIX, -1, dtype=np.int32)
    rows[klass * ID_RADIX + ids % ID_RADIX] = np.arange(len(ids), dtype=np.int32)
    return rows, counts.astype(np.float64)


def combo_indices(cards: NDArray[np.uint8]) -> NDArray[np.int64]:
    """Canonical combo index (``ranges.COMBO_INDEX``) of each two-card row of ``cards``."""
    found: NDArray[np.int64] = COMBO_INDEX[cards[:, 0], cards[:, 1]]
    return found


def matchup_ids(first: NDArray[np.int64], second: NDArray[np.int64]) -> NDArray[np.int64]:
    """Canonical ids of the matchups of combo indices ``first[i]`` vs ``second[i]`` (the ids of
    ``_exact._canonical_id`` for two players, no board, no dead cards), from the same parts as
    :func:`lookup` reads its rows by."""
    offset, part0, pattern, part1 = _id_parts()
    return part0[offset[first] // ID_RADIX] * ID_RADIX + part1[pattern[first], second]


_MISSING = "a heads-up preflop matchup is missing from the shipped table"


FEW_MATCHUPS = 8
"""Heads-up matchups up to which :func:`lookup` goes one by one (a hand against a hand: 7 us
instead of 46 for the array calls, Zen 3)."""


def lookup(
    combos: NDArray[np.uint8],
    offsets: NDArray[np.int64],
    weights: NDArray[np.float64],
    masks: NDArray[np.uint64],
    start: int,
    stop: int,
) -> tuple[NDArray[np.float64], int]:
    """Weighted winner counts ``(3, 2)`` (as ``_exact.enumerate_matchups``: row ``i`` player
    ``i``'s wins, the last row the boards) of heads-up matchups ``start..stop-1`` (mixed-radix
    index, player 0 fastest) and their number of deals. Matchups sharing a card are skipped
    (weights are all > 0); one missing from the table is an error. Up to
    :data:`FEW_MATCHUPS` matchups one by one with Python numbers (about 4 us each), more with a
    few dozen array calls whatever their number (about 30-45 us on the Zen 3 machine)."""
    first, second, _ = offsets.tolist()  # Python ints: numpy scalars cost microseconds here
    width = second - first
    rows_by_id, counts = _rows_by_id()
    if stop - start <= FEW_MATCHUPS:
        offset, _, pattern, part1 = _id_parts()
        wins = ties = total = 0.0
        deals = 0
        for index in range(start, stop):
            row0 = index % width + first
            row1 = index // width + second
            if int(masks[row0]) & int(masks[row1]):
                continue
            combo0 = int(COMBO_INDEX[combos[row0, 0], combos[row0, 1]])
            combo1 = int(COMBO_INDEX[combos[row1, 0], combos[row1, 1]])
            row = int(rows_by_id[int(offset[combo0]) + int(part1[pattern[combo0], combo1])])
            if row < 0:
                raise RuntimeError(_MISSING)
            won, tied, boards = counts[row].tolist()
            weight = float(weights[row0]) * float(weights[row1])
            wins += weight * won
            ties += weight * tied
            total += weight * boards
            deals += int(boards)
    else:
        indices = np.arange(start, stop, dtype=np.int64)
        pair0 = indices % width + first  # player 0 fastest
        pair1 = indices // width + second
        weight = weights[pair0] * weights[pair1]
        valid = (masks[pair0] & masks[pair1]) == 0
        combo = combo_indices(combos)
        offset, _, pattern, part1 = _id_parts()
        first_combo = combo[pair0]
        rows = rows_by_id[offset[first_combo] + part1[pattern[first_combo], combo[pair1]]][valid]
        if rows.size and rows.min() < 0:
            raise RuntimeError(_MISSING)
        got = counts[rows]
        wins, ties, total = np.einsum("i,ij->j", weight[valid], got).tolist()  # no BLAS
        deals = int(got[:, 2].sum())
    acc = np.array([[wins, ties], [total - wins - ties, ties], [total, 0.0]])
    return acc, deals


if __name__ == "__main__":
    started = time.perf_counter()
    write()
    ids, _ = load()
    print(f"{len(ids):,} canonical heads-up matchups in {time.perf_counter() - started:.1f} s")
