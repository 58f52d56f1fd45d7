"""numba kernels of the high-hand evaluator. Private: no validation here (see ``high.py``).

Kernels take the tables as arguments (``multiplier``, ``displace``, ``values`` of
:class:`~pokerlab.evaluation._tables.HighTables`) and work on integer arrays. The per-hand step is
split so the hot loops stay free of reference counting (a numba trap measured here: a helper that
indexes two different table arrays in its two branches ran 3.6x slower than the same code inline):
:func:`table_index` computes where to look from scalars only, and :func:`strength` does the single
read of ``values``. Card codes used as indices must be unsigned (``uint8``) so numba adds no
negative-index check per lookup.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from pokerlab.evaluation import _tables as T

EMPTY_KEY = np.uint64(T.EMPTY_KEY)
FLUSH_BITS = np.uint64(T.FLUSH_BITS)
RANK_FIELD = np.uint64(T.RANK_FIELD)
BUCKET_SHIFT = np.uint64(64 - T.BUCKET_BITS)
SLOT_SHIFT = np.uint64(T.SLOT_SHIFT)
SLOT_MASK = np.uint64(T.SLOT_MASK)
FLUSH_OFFSET = np.uint64(T.FLUSH_OFFSET)
FLUSH_SUIT_SHIFT = np.uint64(T.SUIT_SHIFT + 3)
RANK_SET = np.uint64(0x1FFF)
_U1 = np.uint64(1)
_U16 = np.uint64(16)
_U256 = np.uint64(256)


NULL_CARD = 52  # pads short rows: adds nothing to a key or a mask


def card_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per card code: its additive ``key`` and its ``mask`` bit (layouts in ``_tables``); one
    more entry, :data:`NULL_CARD`, of zeros."""
    key = np.zeros(53, dtype=np.uint64)
    mask = np.zeros(53, dtype=np.uint64)
    for code in range(52):
        r, s = code >> 2, code & 3
        key[code] = (1 << (T.RANK_BITS * r)) + (1 << (T.SUIT_SHIFT + T.SUIT_BITS * s))
        mask[code] = 1 << (16 * s + r)
    return key, mask


CARD_KEY, CARD_MASK = card_tables()


@njit(cache=True)
def table_index(key, mask, multiplier, displace):
    """Index into ``values`` of the hand with this additive key/mask (5..7 cards)."""
    flush_bits = key & FLUSH_BITS
    if flush_bits:
        f = flush_bits >> FLUSH_SUIT_SHIFT  # one of 1, 0x10, 0x100, 0x1000
        shift = (uint64(f > _U1) + uint64(f > _U16) + uint64(f > _U256)) * _U16
        return FLUSH_OFFSET + ((mask >> shift) & RANK_SET)
    p = (key & RANK_FIELD) * multiplier
    return ((p >> SLOT_SHIFT) & SLOT_MASK) ^ uint64(displace[p >> BUCKET_SHIFT])


@njit(cache=True)
def strength(key, mask, multiplier, displace, values):
    """Strength of the hand with this additive key/mask (5..7 cards)."""
    return values[table_index(key, mask, multiplier, displace)]


@njit(cache=True)
def evaluate_rows(codes, card_key, card_mask, multiplier, displace, values, out):
    """``out[i]`` = strength of row ``i`` of ``codes`` (uint8, exactly 7 columns in any order;
    shorter hands are padded with :data:`NULL_CARD`). Unrolled on purpose: a loop over the
    columns measured 1.7x slower."""
    for i in range(codes.shape[0]):
        r = codes[i]
        key = EMPTY_KEY + card_key[r[0]] + card_key[r[1]] + card_key[r[2]] + card_key[r[3]]
        key += card_key[r[4]] + card_key[r[5]] + card_key[r[6]]
        mask = card_mask[r[0]] | card_mask[r[1]] | card_mask[r[2]] | card_mask[r[3]]
        mask |= card_mask[r[4]] | card_mask[r[5]] | card_mask[r[6]]
        out[i] = strength(key, mask, multiplier, displace, values)


@njit(cache=True)
def first_invalid_row(codes):
    """Index of the first row with a code outside 0..51 or a repeated card, else -1."""
    for i in range(codes.shape[0]):
        seen = uint64(0)
        for j in range(codes.shape[1]):
            c = codes[i, j]
            if c < 0 or c > 51:
                return i
            bit = uint64(1) << uint64(c)
            if seen & bit:
                return i
            seen |= bit
    return -1


@njit(cache=True)
def strength_histogram(
    fixed_key, fixed_mask, free, k, card_key, card_mask, multiplier, displace, values, hist
):
    """Add 1 to ``hist[strength]`` for every ``k``-subset (``k`` >= 1) of the codes ``free``
    (uint8) joined to a fixed partial hand; return the number of subsets.

    The outer ``k - 1`` levels are walked iteratively, each adding its card to the key of the
    level above, so the innermost loop costs one addition, one OR and one lookup per subset."""
    n = free.shape[0]
    keys = np.empty(k, dtype=np.uint64)
    masks = np.empty(k, dtype=np.uint64)
    idx = np.empty(k, dtype=np.int64)
    keys[0] = fixed_key
    masks[0] = fixed_mask
    count = 0
    depth = 0
    idx[0] = -1
    inner = k - 1
    while depth >= 0:
        if depth == inner:
            base_key = keys[depth]
            base_mask = masks[depth]
            for j in range(idx[depth] + 1, n):
                c = free[j]
                hist[
                    strength(
                        base_key + card_key[c],
                        base_mask | card_mask[c],
                        multiplier,
                        displace,
                        values,
                    )
                ] += 1
            count += max(n - idx[depth] - 1, 0)
            depth -= 1
            continue
        idx[depth] += 1
        if idx[depth] > n - (k - depth):
            depth -= 1
            continue
        c = free[idx[depth]]
        keys[depth + 1] = keys[depth] + card_key[c]
        masks[depth + 1] = masks[depth] | card_mask[c]
        idx[depth + 1] = idx[depth]
        depth += 1
    return count
