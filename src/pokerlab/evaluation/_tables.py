"""Generator of the high-hand lookup tables (deterministic, pure Python + numpy, well under 1 s).

Strength scale
--------------
Every 5-card high hand falls in one of 7,462 classes (hands that tie). A class's *strength* is
``category << 12 | index`` where ``category`` is 0 (high card) .. 8 (straight flush) and ``index``
is its 1-based rank inside the category, so larger is better, equal means a tie, and
``strength >> 12`` is the category. Best-of-6 and best-of-7 use the same scale.

Hand key
--------
A hand is summarised by two additive 64-bit words, so a partial hand (a board) is computed once and
each further card is one addition and one OR:

* ``key``: bits ``3*r .. 3*r+2`` count the cards of rank ``r`` (at most 4, never carries); bits
  ``40 + 4*s ..`` count the cards of suit ``s`` starting from 3, so a fifth card of a suit sets bit
  ``40 + 4*s + 3`` (the flush bit). The empty hand's key is :data:`EMPTY_KEY`.
* ``mask``: bit ``16*s + r`` per card, so ``(mask >> 16*s) & 0x1fff`` is suit ``s``'s rank set.

Both lookups share one ``VALUES`` array (``2**SLOT_BITS`` hashed slots, then 8,192 flush entries),
so a kernel reads one table. If a flush bit is set the index is ``FLUSH_OFFSET + rank set of that
suit``; else the rank-count field (39 bits) goes through a perfect hash:
``p = counts * MULTIPLIER``; ``bucket = p >> (64 - BUCKET_BITS)``;
``slot = (p >> SLOT_SHIFT) & SLOT_MASK``; index ``slot ^ DISPLACE[bucket]``. The multiplier and
the displacements are found here by a seeded search (hash-and-displace); the tables are checked
against an independent brute force in the tests.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

CATEGORY_SHIFT = 12
N_RANKS = 13
RANK_BITS = 3
SUIT_SHIFT = 40
SUIT_BITS = 4
EMPTY_KEY = sum(3 << (SUIT_SHIFT + SUIT_BITS * s) for s in range(4))
FLUSH_BITS = sum(8 << (SUIT_SHIFT + SUIT_BITS * s) for s in range(4))
RANK_FIELD = (1 << (RANK_BITS * N_RANKS)) - 1
BUCKET_BITS = 14
SLOT_BITS = 17
SLOT_SHIFT = 64 - BUCKET_BITS - SLOT_BITS
SLOT_MASK = (1 << SLOT_BITS) - 1
FLUSH_OFFSET = 1 << SLOT_BITS
_MASK64 = (1 << 64) - 1

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)

# The ten straights as rank sets, highest first; the wheel (A2345) is last with top card 5 (rank 3).
STRAIGHT_TOPS = (*range(12, 3, -1), 3)
STRAIGHT_MASKS = tuple(
    0b1000000001111 if top == 3 else 0b11111 << (top - 4) for top in STRAIGHT_TOPS
)


def straight_top(rank_set: int) -> int:
    """Top rank of the best straight in a 13-bit rank set, or -1."""
    for mask, top in zip(STRAIGHT_MASKS, STRAIGHT_TOPS, strict=True):
        if rank_set & mask == mask:
            return int(top)
    return -1


def _desc(ranks: list[int]) -> tuple[int, ...]:
    return tuple(sorted(ranks, reverse=True))


@cache
def class_orders() -> dict[int, dict[tuple[int, ...], int]]:
    """For each category, its hand classes (as rank tuples) mapped to their 1-based index."""
    singles = [
        _desc(list(c))
        for c in itertools.combinations(range(N_RANKS), 5)
        if straight_top(sum(1 << r for r in c)) < 0
    ]
    tops = [(t,) for t in sorted(STRAIGHT_TOPS)]
    r13 = range(N_RANKS)
    pairs = [(p, *_desc(list(k))) for p in r13 for k in itertools.combinations(set(r13) - {p}, 3)]
    two_pairs = [(hi, lo, k) for hi in r13 for lo in range(hi) for k in r13 if k not in (hi, lo)]
    trips = [(t, *_desc(list(k))) for t in r13 for k in itertools.combinations(set(r13) - {t}, 2)]
    pair_kicker = [(a, b) for a in r13 for b in r13 if a != b]
    by_category: dict[int, Sequence[tuple[int, ...]]] = {
        HIGH_CARD: singles,
        PAIR: pairs,
        TWO_PAIR: two_pairs,
        TRIPS: trips,
        STRAIGHT: tops,
        FLUSH: singles,
        FULL_HOUSE: pair_kicker,
        QUADS: pair_kicker,
        STRAIGHT_FLUSH: tops,
    }
    return {
        cat: {cls: i + 1 for i, cls in enumerate(sorted(classes))}
        for cat, classes in by_category.items()
    }


def strength_of(category: int, cls: tuple[int, ...]) -> int:
    return category << CATEGORY_SHIFT | class_orders()[category][cls]


def rank_counts_strength(counts: tuple[int, ...]) -> int:
    """Best non-flush strength of 5..7 cards given as 13 rank counts (straights included)."""
    present = [r for r in range(N_RANKS - 1, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        return strength_of(QUADS, (quads[0], next(r for r in present if r != quads[0])))
    if trips and (len(trips) > 1 or pairs):
        return strength_of(FULL_HOUSE, (trips[0], max(trips[1:] + pairs)))
    top = straight_top(sum(1 << r for r in present))
    if top >= 0:
        return strength_of(STRAIGHT, (top,))
    if trips:
        return strength_of(TRIPS, (trips[0], *[r for r in present if r != trips[0]][:2]))
    if len(pairs) >= 2:
        hi, lo = pairs[:2]
        return strength_of(TWO_PAIR, (hi, lo, next(r for r in present if r not in (hi, lo))))
    if pairs:
        return strength_of(PAIR, (pairs[0], *[r for r in present if r != pairs[0]][:3]))
    return strength_of(HIGH_CARD, tuple(present[:5]))


def flush_strength(rank_set: int) -> int:
    """Strength of the best flush or straight flush in a rank set of 5+ suited cards."""
    top = straight_top(rank_set)
    if top >= 0:
        return strength_of(STRAIGHT_FLUSH, (top,))
    ranks = [r for r in range(N_RANKS - 1, -1, -1) if rank_set >> r & 1]
    return strength_of(FLUSH, tuple(ranks[:5]))


def rank_multisets(min_cards: int = 5, max_cards: int = 7) -> list[tuple[int, ...]]:
    """All 13-rank count vectors with ``min_cards..max_cards`` cards and at most 4 per rank."""
    out: list[tuple[int, ...]] = []
    for n in range(min_cards, max_cards + 1):
        for combo in itertools.combinations_with_replacement(range(N_RANKS), n):
            counts = [0] * N_RANKS
            for r in combo:
                counts[r] += 1
            if max(counts) <= 4:
                out.append(tuple(counts))
    return out


def counts_key(counts: tuple[int, ...]) -> int:
    return sum(c << (RANK_BITS * r) for r, c in enumerate(counts))


@dataclass(frozen=True)
class HighTables:
    """The arrays the high-hand kernels read; see the module docstring for their meaning."""

    multiplier: int
    displace: NDArray[np.uint32]
    values: NDArray[np.uint16]

    @property
    def nbytes(self) -> int:
        return int(self.displace.nbytes + self.values.nbytes)


def _hash_parts(
    keys: NDArray[np.uint64], multiplier: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    with np.errstate(over="ignore"):
        p = keys * np.uint64(multiplier)
    buckets = (p >> np.uint64(64 - BUCKET_BITS)).astype(np.int64)
    slots = ((p >> np.uint64(SLOT_SHIFT)) & np.uint64(SLOT_MASK)).astype(np.int64)
    return buckets, slots


def _place(buckets: NDArray[np.int64], slots: NDArray[np.int64]) -> NDArray[np.uint32] | None:
    """Hash-and-displace: a displacement per bucket so every key lands in its own slot."""
    n_buckets = 1 << BUCKET_BITS
    order = np.argsort(buckets, kind="stable")
    starts = np.searchsorted(buckets[order], np.arange(n_buckets + 1))
    sizes = np.diff(starts)
    taken = np.zeros(1 << SLOT_BITS, dtype=bool)
    displace = np.zeros(n_buckets, dtype=np.uint32)
    candidates = np.arange(1 << SLOT_BITS, dtype=np.int64)
    for b in np.argsort(-sizes, kind="stable"):
        if sizes[b] == 0:
            break
        mine = slots[order[starts[b] : starts[b + 1]]]
        if len(np.unique(mine)) != len(mine):
            return None  # two keys of one bucket share a slot: no displacement separates them
        # The first displacement d with every slot ^ d free, searched 64 candidates at a time.
        d = -1
        for first in range(0, len(candidates), 64):
            chunk = candidates[first : first + 64]
            ok = np.flatnonzero(~taken[mine[:, None] ^ chunk[None, :]].any(axis=0))
            if len(ok):
                d = int(chunk[ok[0]])
                break
        if d < 0:
            return None
        taken[mine ^ d] = True
        displace[b] = d
    return displace


@cache
def build_high_tables() -> HighTables:
    """Build (once per process) the high-hand tables; deterministic."""
    multisets = rank_multisets()
    keys = np.array([counts_key(c) for c in multisets], dtype=np.uint64)
    values = np.array([rank_counts_strength(c) for c in multisets], dtype=np.uint16)
    multiplier = 0x9E3779B97F4A7C15  # odd; the search below walks from it deterministically
    while True:
        buckets, slots = _hash_parts(keys, multiplier)
        displace = _place(buckets, slots)
        if displace is not None:
            break
        multiplier = (multiplier + 0x2545F4914F6CDD1D * 2) & _MASK64 | 1
    table = np.zeros(FLUSH_OFFSET + (1 << N_RANKS), dtype=np.uint16)
    table[slots ^ displace[buckets].astype(np.int64)] = values
    for rank_set in range(1 << N_RANKS):
        if rank_set.bit_count() >= 5:
            table[FLUSH_OFFSET + rank_set] = flush_strength(rank_set)
    return HighTables(multiplier, displace, table)


DATA_FILE = Path(__file__).with_name("_data") / "high.npz"


def write_high_tables(path: Path = DATA_FILE) -> None:
    """Regenerate the shipped copy: ``python -m pokerlab.evaluation._tables``."""
    tables = build_high_tables()
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        multiplier=np.uint64(tables.multiplier),
        displace=tables.displace,
        values=tables.values,
    )


@cache
def load_high_tables() -> HighTables:
    """The shipped tables (a test checks they equal :func:`build_high_tables`' output)."""
    with np.load(DATA_FILE) as data:
        return HighTables(int(data["multiplier"]), data["displace"], data["values"])


if __name__ == "__main__":
    write_high_tables()
