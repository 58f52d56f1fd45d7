"""numba kernels of the lowball and Omaha evaluators. Private: no validation (see ``low.py`` and
``omaha.py``).

They read the combined table of :mod:`~pokerlab.evaluation._game_tables` (``values``: the high
evaluator's table followed by the low and Omaha parts at fixed offsets) and the high hash's
``multiplier``/``displace``, so a kernel that evaluates both halves of a split pot passes one
table around. Indices are unsigned (no negative-index checks).

Omaha high without 60 full evaluations: the board's rank multiset gets an id (one hash), then
each of the hole's rank pairs is one read of a table of "best non-flush hand of these two hole
ranks and three of this board" (6,175 boards x 91 pairs, 1.1 MB). A flush needs a suit with
at least three board cards (at most one such suit on five cards) and two hole cards of it: only
then are that suit's hole pairs read from the "best flush of this suited pair and three of this
suited board" table.

Helpers that take only scalars (the sorting networks' comparators, table offsets) are plain
compiled functions, not ``inline="always"``: numba inlines those at its own level and types
every copy again, so ``omaha_high`` (26 comparators) took 2.8 s to compile where it takes 1.4 s
now; LLVM inlines the plain ones anyway (the same Omaha speeds, ``benchmarks/RESULTS.md``).
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.evaluation import _game_tables as G
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation._kernels import (
    BUCKET_SHIFT,
    EMPTY_KEY,
    FLUSH_BITS,
    FLUSH_SUIT_SHIFT,
    RANK_FIELD,
    RANK_SET,
    SLOT_MASK,
    SLOT_SHIFT,
)

A5_OFFSET = np.uint64(G.A5_OFFSET)
BOARD_ID_OFFSET = np.uint64(G.BOARD_ID_OFFSET)
PAIR_BOARD_OFFSET = np.uint64(G.PAIR_BOARD_OFFSET)
FLUSH_PAIR_OFFSET = np.uint64(G.FLUSH_PAIR_OFFSET)
OMAHA8_OFFSET = np.uint64(G.OMAHA8_OFFSET)
PAIRS = np.uint64(G.PAIRS)
SUITED_PAIRS = np.uint64(G.SUITED_PAIRS)
EIGHT_MIN = G.EIGHT_MIN
# Added to a key whose suit counters start at 3: a counter reaches 8 (the flush bit) when its
# suit has three cards, the least a board needs for an Omaha flush.
THREE_OF_A_SUIT = np.uint64(sum(2 << (T.SUIT_SHIFT + T.SUIT_BITS * s) for s in range(4)))
_U1 = np.uint64(1)
_U2 = np.uint64(2)
_U3 = np.uint64(3)
_U16 = np.uint64(16)
_U256 = np.uint64(256)
_U12 = np.uint64(12)
_U7 = np.uint64(7)
NO_SUIT = np.uint64(4)
MAX_PAIRS = 15  # C(6, 2): pairs of the largest Omaha holding


@njit(cache=True, inline="always")
def rank_slot(key, multiplier, displace):
    """Perfect-hash slot of a key's rank counts (5..7 cards)."""
    p = (key & RANK_FIELD) * multiplier
    return ((p >> SLOT_SHIFT) & SLOT_MASK) ^ uint64(displace[p >> BUCKET_SHIFT])


@njit(cache=True, inline="always")
def low_bit(code):
    """A-5 low-rank bit of a card for 8-or-better (ace bit 0 .. eight bit 7; 0 above eight)."""
    r = uint64(code) >> _U2
    if r == _U12:
        return _U1
    if r < _U7:
        return _U2 << r
    return uint64(0)


@njit(cache=True, _nrt=False, inline="always")
def a5_low_of_key(key, multiplier, displace, values):
    """A-5 low strength (1..6175, larger better) of the best five of a hand of 5..7 cards given
    by its additive key."""
    return values[A5_OFFSET + rank_slot(key, multiplier, displace)]


@njit(cache=True, _nrt=False, inline="always")
def a5_low(cards, count, card_key, multiplier, displace, values):
    """A-5 low strength (1..6175, larger better) of the best five of ``cards[:count]`` (5..7)."""
    key = EMPTY_KEY
    for i in range(count):
        key += card_key[cards[i]]
    return a5_low_of_key(key, multiplier, displace, values)


@njit(cache=True, _nrt=False, inline="always")
def eight_low_of_key(key, multiplier, displace, values):
    """8-or-better low strength (the A-5 scale) of a hand given by its additive key, or 0."""
    v = a5_low_of_key(key, multiplier, displace, values)
    return v if v > EIGHT_MIN else 0


@njit(cache=True, _nrt=False)
def eight_low(cards, count, card_key, multiplier, displace, values):
    """8-or-better low strength (the A-5 scale) of the best five of ``cards[:count]``, or 0."""
    key = EMPTY_KEY
    for i in range(count):
        key += card_key[cards[i]]
    return eight_low_of_key(key, multiplier, displace, values)


@njit(cache=True, _nrt=False)
def _pair_base(values, base, hi):
    """Start of the pair-table row of hole pairs whose higher rank is ``hi``."""
    return base + ((hi * (hi + _U1)) >> _U1)


@njit(cache=True, _nrt=False, inline="always")
def board_row(bkey, multiplier, displace, values):
    """The five-card board's row of the pair table (from its additive key): what every Omaha
    high hand on that board shares; a hole pair's best non-flush hand is
    ``values[row + pair_column(...)]``."""
    board_id = uint64(values[BOARD_ID_OFFSET + rank_slot(bkey, multiplier, displace)])
    return PAIR_BOARD_OFFSET + board_id * PAIRS


@njit(cache=True, _nrt=False)
def flush_suit(bkey):
    """The one suit with three or more of the five board cards (from the board's additive
    key), the least an Omaha flush needs; ``NO_SUIT`` when none."""
    three = (bkey + THREE_OF_A_SUIT) & FLUSH_BITS
    if not three:
        return NO_SUIT
    f = three >> FLUSH_SUIT_SHIFT  # one of 1, 0x10, 0x100, 0x1000
    return uint64(f > _U1) + uint64(f > _U16) + uint64(f > _U256)


@njit(cache=True, _nrt=False)
def flush_base(bmask, suit):
    """The board's row of the flush-pair table for ``suit`` (``bmask``: the board's card mask)."""
    return FLUSH_PAIR_OFFSET + ((bmask >> (suit * _U16)) & RANK_SET) * SUITED_PAIRS


@njit(cache=True, _nrt=False)
def two_of_suit(hmask, suit):
    """Whether the hole cards (card mask ``hmask``) hold two or more of ``suit``."""
    suited = (hmask >> (suit * _U16)) & RANK_SET
    return (suited & (suited - _U1)) != uint64(0)


@njit(cache=True, _nrt=False)
def pair_column(ri, rj):
    """Column of the hole ranks ``ri``, ``rj`` (uint64) in a board's row of the pair table."""
    hi = max(ri, rj)
    return ((hi * (hi + _U1)) >> _U1) + min(ri, rj)


@njit(cache=True, inline="always")
def pair_columns(hole, n_hole, out):
    """``out[:k]`` = the columns of the ``k = C(n_hole, 2)`` rank pairs of ``hole[:n_hole]``
    (2..6 cards) in a board's row of the pair table; returns ``k``. Computed once per holding,
    so each board costs one read per pair (``base + out[i]``, ``base`` from
    :func:`board_row`)."""
    k = 0
    for i in range(n_hole - 1):
        ri = uint64(hole[i]) >> _U2
        for j in range(i + 1, n_hole):
            out[k] = pair_column(ri, uint64(hole[j]) >> _U2)
            k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def omaha_flush(hole, n_hole, suit, fbase, best, values):
    """``best`` raised to the best flush of two of ``hole[:n_hole]`` of ``suit`` and the
    board's row ``fbase`` of the flush-pair table (:func:`flush_base`)."""
    for i in range(n_hole - 1):
        ci = uint64(hole[i])
        if ci & _U3 != suit:
            continue
        ri = ci >> _U2
        for j in range(i + 1, n_hole):
            cj = uint64(hole[j])
            if cj & _U3 != suit:
                continue
            rj = cj >> _U2
            hi = max(ri, rj)
            v = values[fbase + ((hi * (hi - _U1)) >> _U1) + min(ri, rj)]
            if v > best:
                best = v
    return best


@njit(cache=True, _nrt=False)
def _desc(a, b):
    """``(max, min)``: one comparator of a sorting network."""
    return (a, b) if a >= b else (b, a)


@njit(cache=True, _nrt=False)
def sort4(r0, r1, r2, r3):
    """Four values high to low (a 5-comparator sorting network)."""
    r0, r1 = _desc(r0, r1)
    r2, r3 = _desc(r2, r3)
    r0, r2 = _desc(r0, r2)
    r1, r3 = _desc(r1, r3)
    r1, r2 = _desc(r1, r2)
    return r0, r1, r2, r3


@njit(cache=True, _nrt=False)
def sort5(r0, r1, r2, r3, r4):
    """Five values high to low (a 9-comparator sorting network)."""
    r0, r3 = _desc(r0, r3)
    r1, r4 = _desc(r1, r4)
    r0, r2 = _desc(r0, r2)
    r1, r3 = _desc(r1, r3)
    r0, r1 = _desc(r0, r1)
    r2, r4 = _desc(r2, r4)
    r1, r2 = _desc(r1, r2)
    r3, r4 = _desc(r3, r4)
    r2, r3 = _desc(r2, r3)
    return r0, r1, r2, r3, r4


@njit(cache=True, _nrt=False)
def sort6(r0, r1, r2, r3, r4, r5):
    """Six values high to low (a 12-comparator sorting network)."""
    r0, r5 = _desc(r0, r5)
    r1, r3 = _desc(r1, r3)
    r2, r4 = _desc(r2, r4)
    r1, r2 = _desc(r1, r2)
    r3, r4 = _desc(r3, r4)
    r0, r3 = _desc(r0, r3)
    r2, r5 = _desc(r2, r5)
    r0, r1 = _desc(r0, r1)
    r2, r3 = _desc(r2, r3)
    r4, r5 = _desc(r4, r5)
    r1, r2 = _desc(r1, r2)
    r3, r4 = _desc(r3, r4)
    return r0, r1, r2, r3, r4, r5


@njit(cache=True, _nrt=False, inline="always")
def _rank(hole, i):
    return uint64(hole[i]) >> _U2


@njit(cache=True, _nrt=False, inline="always")
def _mask4(hole, card_mask):
    return card_mask[hole[0]] | card_mask[hole[1]] | card_mask[hole[2]] | card_mask[hole[3]]


@njit(cache=True, _nrt=False, inline="always")
def omaha_high(hole, n_hole, board, card_key, card_mask, multiplier, displace, values):
    """High strength of exactly two of ``hole[:n_hole]`` (2..6) and three of the five ``board``
    cards. Four to six hole cards are unrolled: their ranks sorted high to low by a sorting
    network, each pair is one read at its higher rank's row start plus its lower rank, and the
    reads meet in a tree of ``max`` (5 and 6 cards: 1.8-1.9x the rate of the loop below in
    ``benchmarks/bench_games.py``'s raw-kernel rows on the AMD EPYC development machine)."""
    bkey = EMPTY_KEY + card_key[board[0]] + card_key[board[1]] + card_key[board[2]]
    bkey += card_key[board[3]] + card_key[board[4]]
    base = board_row(bkey, multiplier, displace, values)
    if n_hole == 4:
        hmask = _mask4(hole, card_mask)
        r0, r1, r2, r3 = sort4(_rank(hole, 0), _rank(hole, 1), _rank(hole, 2), _rank(hole, 3))
        t0 = _pair_base(values, base, r0)
        t1 = _pair_base(values, base, r1)
        t2 = _pair_base(values, base, r2)
        best = max(max(values[t0 + r1], values[t0 + r2]), max(values[t0 + r3], values[t1 + r2]))
        best = max(best, max(values[t1 + r3], values[t2 + r3]))
    elif n_hole == 5:
        hmask = _mask4(hole, card_mask) | card_mask[hole[4]]
        r0, r1, r2, r3, r4 = sort5(
            _rank(hole, 0), _rank(hole, 1), _rank(hole, 2), _rank(hole, 3), _rank(hole, 4)
        )
        t0 = _pair_base(values, base, r0)
        t1 = _pair_base(values, base, r1)
        t2 = _pair_base(values, base, r2)
        t3 = _pair_base(values, base, r3)
        best = max(max(values[t0 + r1], values[t0 + r2]), max(values[t0 + r3], values[t0 + r4]))
        best = max(best, max(max(values[t1 + r2], values[t1 + r3]), values[t1 + r4]))
        best = max(best, max(max(values[t2 + r3], values[t2 + r4]), values[t3 + r4]))
    elif n_hole == 6:
        hmask = _mask4(hole, card_mask) | card_mask[hole[4]] | card_mask[hole[5]]
        r0, r1, r2, r3, r4, r5 = sort6(
            _rank(hole, 0), _rank(hole, 1), _rank(hole, 2),
            _rank(hole, 3), _rank(hole, 4), _rank(hole, 5),
        )  # fmt: skip
        t0 = _pair_base(values, base, r0)
        t1 = _pair_base(values, base, r1)
        t2 = _pair_base(values, base, r2)
        t3 = _pair_base(values, base, r3)
        t4 = _pair_base(values, base, r4)
        a = max(max(values[t0 + r1], values[t0 + r2]), max(values[t0 + r3], values[t0 + r4]))
        b = max(max(values[t0 + r5], values[t1 + r2]), max(values[t1 + r3], values[t1 + r4]))
        c = max(max(values[t1 + r5], values[t2 + r3]), max(values[t2 + r4], values[t2 + r5]))
        d = max(max(values[t3 + r4], values[t3 + r5]), values[t4 + r5])
        best = max(max(a, b), max(c, d))
    else:
        hmask = uint64(0)
        best = np.uint16(0)
        for i in range(n_hole - 1):
            ri = _rank(hole, i)
            hmask |= card_mask[hole[i]]
            for j in range(i + 1, n_hole):
                v = values[base + pair_column(ri, _rank(hole, j))]
                if v > best:
                    best = v
        hmask |= card_mask[hole[n_hole - 1]]
    suit = flush_suit(bkey)
    if suit == NO_SUIT or not two_of_suit(hmask, suit):
        return best
    bmask = card_mask[board[0]] | card_mask[board[1]] | card_mask[board[2]]
    bmask |= card_mask[board[3]] | card_mask[board[4]]
    return omaha_flush(hole, n_hole, suit, flush_base(bmask, suit), best, values)


@njit(cache=True, _nrt=False, inline="always")
def omaha_eight(hole, n_hole, board, values):
    """Omaha 8-or-better low strength (the A-5 scale) of two of ``hole[:n_hole]`` and three of
    the five ``board`` cards, or 0 when no low qualifies."""
    h = uint64(0)
    for i in range(n_hole):
        h |= low_bit(hole[i])
    b = low_bit(board[0]) | low_bit(board[1]) | low_bit(board[2])
    b |= low_bit(board[3]) | low_bit(board[4])
    return values[OMAHA8_OFFSET + (h << np.uint64(8)) + b]


@njit(cache=True, _nrt=False)
def omaha_high_rows(hole, n_hole, board, card_key, card_mask, multiplier, displace, values, out):
    """``out[i]`` = Omaha high strength of ``hole[i, :n_hole]`` with ``board[i]``."""
    for i in range(hole.shape[0]):
        out[i] = omaha_high(
            hole[i], n_hole, board[i], card_key, card_mask, multiplier, displace, values
        )


@njit(cache=True, _nrt=False)
def omaha_eight_rows(hole, n_hole, board, values, out):
    """``out[i]`` = Omaha 8-or-better low of ``hole[i, :n_hole]`` with ``board[i]`` (or 0)."""
    for i in range(hole.shape[0]):
        out[i] = omaha_eight(hole[i], n_hole, board[i], values)


@njit(cache=True, _nrt=False)
def low_rows(codes, count, eight, card_key, multiplier, displace, values, out):
    """``out[i]`` = A-5 low (``eight``: 8-or-better, else 0) of ``codes[i, :count]``."""
    for i in range(codes.shape[0]):
        if eight:
            out[i] = eight_low(codes[i], count, card_key, multiplier, displace, values)
        else:
            out[i] = a5_low(codes[i], count, card_key, multiplier, displace, values)
