"""Generator of the lowball and Omaha lookup tables (deterministic, numpy, about 0.6 s; the
package ships the result, ``_data/games.npz``, so a process loads it in milliseconds, and a test
checks the shipped copy equals what this code builds).

All of them live in one ``uint16`` array, :func:`game_values`, that *starts with* the high
evaluator's ``values`` table, so every kernel that reads high strengths reads this array
unchanged and the low/Omaha kernels find their parts at fixed offsets:

``A5_OFFSET + slot``
    A-5 low strength of the best five of 5..7 cards, ``slot`` being the high evaluator's perfect
    hash slot of the cards' rank counts (suits never matter to a low). Strengths run ``1..6175``,
    one per class of tying hands, larger is better: ``5-4-3-2-A`` is 6,175.
``BOARD_ID_OFFSET + slot``
    For a 5-card rank multiset: its index ``0..6174`` (the Omaha board id).
``PAIR_BOARD_OFFSET + board_id * 91 + pair_id``
    Best *non-flush* high strength (the high scale) of exactly the two hole ranks of
    ``pair_id`` (``r2 * (r2 + 1) / 2 + r1`` for ranks ``r1 <= r2``) and three of the board's five
    ranks; 0 when the two cannot join that board (more than four of a rank).
``FLUSH_PAIR_OFFSET + suited_board * 78 + suited_pair``
    Best flush or straight flush of two suited hole ranks (``b * (b - 1) / 2 + a`` for ``a < b``)
    and three of the board's rank set ``suited_board`` of that suit (13 bits); 0 when the board
    set has fewer than three cards or shares a rank with the pair.
``OMAHA8_OFFSET + hole_low * 256 + board_low``
    Omaha 8-or-better low: the best A-5 strength of two hole and three board cards with five
    distinct ranks, all 8 or lower, from the low-rank sets (bit 0 = ace .. bit 7 = eight) of the
    hole and of the board; 0 when no low qualifies.

8-or-better lows are the 56 best A-5 classes (five distinct ranks from A..8), so a low of any
kind qualifies exactly when its A-5 strength is above :data:`EIGHT_MIN`.
"""

from __future__ import annotations

import itertools
from collections import Counter
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerlab.evaluation import _tables as T

N_RANKS = T.N_RANKS
HIGH_LEN = T.FLUSH_OFFSET + (1 << N_RANKS)
SLOTS = 1 << T.SLOT_BITS
A5_OFFSET = HIGH_LEN
BOARD_ID_OFFSET = A5_OFFSET + SLOTS
PAIR_BOARD_OFFSET = BOARD_ID_OFFSET + SLOTS
BOARDS = 6175  # 5-card rank multisets (asserted in build_game_values)
PAIRS = 91  # rank pairs r1 <= r2
SUITED_PAIRS = 78  # rank pairs r1 < r2
FLUSH_PAIR_OFFSET = PAIR_BOARD_OFFSET + BOARDS * PAIRS
OMAHA8_OFFSET = FLUSH_PAIR_OFFSET + (1 << N_RANKS) * SUITED_PAIRS
GAME_VALUES_LEN = OMAHA8_OFFSET + 256 * 256

A5_CLASSES = 6175
EIGHT_CLASSES = 56
EIGHT_MIN = A5_CLASSES - EIGHT_CLASSES
"""An A-5 strength above this is an 8-or-better low."""

_MASK64 = (1 << 64) - 1


def low_rank(rank: int) -> int:
    """A-5 rank order of a card rank (``0`` = deuce .. ``12`` = ace): ace 0, deuce 1 .. king 12."""
    return 0 if rank == 12 else rank + 1


def _badness(low_ranks: tuple[int, ...]) -> tuple[int, ...]:
    """Sort key of five A-5 ranks, *worst low first* when sorted descending: like a high hand
    with the ace at the bottom and no straights or flushes (pairs and worse are bad)."""
    counts = Counter(low_ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    category = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)].index(shape)
    return (category, *(r for r, _ in groups))


@cache
def a5_classes() -> dict[tuple[int, ...], int]:
    """Every multiset of five A-5 ranks (sorted tuple) mapped to its strength ``1..6175``."""
    hands = [
        c
        for c in itertools.combinations_with_replacement(range(N_RANKS), 5)
        if max(Counter(c).values()) <= 4
    ]
    hands.sort(key=_badness, reverse=True)
    return {h: i + 1 for i, h in enumerate(hands)}


def a5_strength_of_counts(counts: tuple[int, ...]) -> int:
    """Best A-5 strength of 5..7 cards given as 13 rank counts (high-rank order, ace last)."""
    classes = a5_classes()
    ranks = sorted(low_rank(r) for r in range(N_RANKS) for _ in range(counts[r]))
    return max(classes[five] for five in set(itertools.combinations(ranks, 5)))


def _hash_slots(keys: NDArray[np.uint64], tables: T.HighTables) -> NDArray[np.int64]:
    buckets, slots = T._hash_parts(keys, tables.multiplier)
    return slots ^ tables.displace[buckets].astype(np.int64)


def _rank_key(ranks: NDArray[np.int64]) -> NDArray[np.uint64]:
    """Additive rank-count keys (the high evaluator's layout) of rows of ranks."""
    bits = np.uint64(1) << (np.uint64(T.RANK_BITS) * ranks.astype(np.uint64))
    keys: NDArray[np.uint64] = bits.sum(axis=-1, dtype=np.uint64)
    return keys


def pair_id(r1: int, r2: int) -> int:
    lo, hi = min(r1, r2), max(r1, r2)
    return hi * (hi + 1) // 2 + lo


def suited_pair_id(r1: int, r2: int) -> int:
    lo, hi = min(r1, r2), max(r1, r2)
    return hi * (hi - 1) // 2 + lo


def _pair_board(tables: T.HighTables, boards: list[tuple[int, ...]]) -> NDArray[np.uint16]:
    triples = list(itertools.combinations(range(5), 3))
    board_arr = np.array(boards, dtype=np.int64)  # (B, 5) ranks
    trip_keys = _rank_key(board_arr[:, triples])  # (B, 10)
    board_counts = np.stack([(board_arr == r).sum(axis=1) for r in range(N_RANKS)], axis=1)
    out = np.zeros((len(boards), PAIRS), dtype=np.uint16)
    for r2 in range(N_RANKS):
        for r1 in range(r2 + 1):
            keys = trip_keys + _rank_key(np.array([r1, r2]))
            vals = tables.values[_hash_slots(keys.ravel(), tables)].reshape(keys.shape)
            # the pair fits the board only if no rank then has more than four cards (which also
            # rules out a five-of-a-kind "hand" among the 5-card subsets)
            fits = (board_counts[:, r1] + 1 + (r1 == r2) <= 4) & (board_counts[:, r2] + 1 <= 4)
            out[:, pair_id(r1, r2)] = np.where(fits, vals.max(axis=1), 0)
    return out


def _flush_pair() -> NDArray[np.uint16]:
    tables = T.load_high_tables()
    flush = tables.values[T.FLUSH_OFFSET :].astype(np.int64)
    out = np.zeros(((1 << N_RANKS), SUITED_PAIRS), dtype=np.uint16)
    pairs = np.zeros(SUITED_PAIRS, dtype=np.int64)
    for b in range(N_RANKS):
        for a in range(b):
            pairs[suited_pair_id(a, b)] = 1 << a | 1 << b
    for size in (3, 4, 5):  # a five-card board holds at most five cards of a suit
        sets = [c for c in itertools.combinations(range(N_RANKS), size)]
        set_masks = np.array([sum(1 << r for r in c) for c in sets], dtype=np.int64)
        trip_masks = np.array(
            [[sum(1 << r for r in t) for t in itertools.combinations(c, 3)] for c in sets],
            dtype=np.int64,
        )  # (S, C(size, 3))
        five = trip_masks[:, :, None] | pairs[None, None, :]
        best = flush[five].max(axis=1)  # (S, 78)
        clash = (set_masks[:, None] & pairs[None, :]) != 0
        out[set_masks] = np.where(clash, 0, best)
    return out


def _omaha_eight() -> NDArray[np.uint16]:
    classes = a5_classes()
    hole = np.arange(256)[:, None]
    board = np.arange(256)[None, :]
    out = np.zeros((256, 256), dtype=np.uint16)
    # the 56 qualifying five-rank sets, worst first: better ones overwrite
    lows = sorted(itertools.combinations(range(8), 5), key=lambda u: classes[u])
    for five in lows:
        hit = np.zeros((256, 256), dtype=bool)
        for pair in itertools.combinations(five, 2):
            pm = sum(1 << r for r in pair)
            tm = sum(1 << r for r in five if r not in pair)
            hit |= (hole & pm == pm) & (board & tm == tm)
        out[hit] = classes[five]
    return out


@cache
def build_game_values() -> NDArray[np.uint16]:
    """The combined table (layout in the module docstring); built once per process."""
    tables = T.load_high_tables()
    multisets = T.rank_multisets()
    keys = np.array([T.counts_key(c) for c in multisets], dtype=np.uint64)
    slots = _hash_slots(keys, tables)
    out = np.zeros(GAME_VALUES_LEN, dtype=np.uint16)
    out[:HIGH_LEN] = tables.values
    a5 = np.array([a5_strength_of_counts(c) for c in multisets], dtype=np.uint16)
    out[A5_OFFSET + slots] = a5
    boards = [c for c in multisets if sum(c) == 5]
    assert len(boards) == BOARDS == A5_CLASSES
    board_slots = slots[[i for i, c in enumerate(multisets) if sum(c) == 5]]
    out[BOARD_ID_OFFSET + board_slots] = np.arange(BOARDS, dtype=np.uint16)
    board_ranks = [tuple(r for r in range(N_RANKS) for _ in range(c[r])) for c in boards]
    out[PAIR_BOARD_OFFSET:FLUSH_PAIR_OFFSET] = _pair_board(tables, board_ranks).ravel()
    out[FLUSH_PAIR_OFFSET:OMAHA8_OFFSET] = _flush_pair().ravel()
    out[OMAHA8_OFFSET:] = _omaha_eight().ravel()
    return out


DATA_FILE = Path(__file__).with_name("_data") / "games.npz"


def write_game_tables(path: Path = DATA_FILE) -> None:
    """Regenerate the shipped copy: ``python -m pokerlab.evaluation._game_tables`` (the part
    after the high table; the high table has its own file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, values=build_game_values()[HIGH_LEN:])


@cache
def load_game_values() -> NDArray[np.uint16]:
    """The combined table from the shipped files (equal to :func:`build_game_values`)."""
    with np.load(DATA_FILE) as data:
        rest = data["values"]
    out = np.concatenate([T.load_high_tables().values, rest]).astype(np.uint16)
    assert out.shape == (GAME_VALUES_LEN,)
    return out


if __name__ == "__main__":
    write_game_tables()
