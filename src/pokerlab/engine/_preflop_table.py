"""The precomputed exact results of every heads-up preflop matchup (no board, no dead cards).

Two hands preflop are, up to a relabelling of suits, one of a few tens of thousands of canonical
matchups (see ``_exact._canonical_id``). This module enumerates every one of them exactly with the
engine itself (:func:`_exact.preflop_counts`) and ships, per canonical id, player 1's wins, the
ties and the number of boards. With it a heads-up preflop range-vs-range equity is a table lookup
per matchup (``_exact.table_matchups``, a kernel small enough that the first
``pokerlab equity AhAs KdKc`` after an install compiles in well under a second). The generator
is committed and deterministic; a test recomputes a sample of entries.

    python -m pokerlab.engine._preflop_table          # regenerate _data/preflop_headsup.npz
"""

from __future__ import annotations

import time
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["DATA_FILE", "build", "load", "write"]

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


if __name__ == "__main__":
    started = time.perf_counter()
    write()
    ids, _ = load()
    print(f"{len(ids):,} canonical heads-up matchups in {time.perf_counter() - started:.1f} s")
