"""numba kernel of :func:`pokerlab.hits`: the made category and the draw mask of every combo.

Private: no validation (``hits.py`` prepares the arrays). The categories are defined in
:mod:`pokerlab.analysis.board_categories`; this module only computes them. Hand categories
(straight and better) come from the shared high evaluator (additive key + table lookup); the
rest is rank and suit arithmetic on 13-bit rank sets.
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from pokerlab.analysis import board_categories as B
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index

_CATEGORY_SHIFT = np.uint64(T.CATEGORY_SHIFT)
_STRAIGHT_CATEGORY = T.STRAIGHT
_TRIPS_CATEGORY = T.TRIPS
_SF_CATEGORY = T.STRAIGHT_FLUSH
_ACE = 12


def straight_table() -> np.ndarray:
    """Top rank of the best straight of each 13-bit rank set, -1 for none (8,192 entries)."""
    return np.array([T.straight_top(m) for m in range(1 << 13)], dtype=np.int8)


STRAIGHT_TOP = straight_table()
WINDOWS = np.array(T.STRAIGHT_MASKS, dtype=np.int64)


@njit(cache=True, inline="always")
def _made_code(category, ra, rb, board_count, board_top, board_low, kick0, kick1, kick2):
    """Made category (``board_categories.MADE`` code) of two hole ranks ``ra``, ``rb`` whose
    best hand with the board has evaluator ``category``."""
    if category >= _STRAIGHT_CATEGORY:
        return B.STRAIGHT_FLUSH + (_SF_CATEGORY - category)
    pocket = ra == rb
    if category == _TRIPS_CATEGORY:
        if pocket and board_count[ra] >= 1:
            return B.SET
        if not pocket and (board_count[ra] >= 2 or board_count[rb] >= 2):
            return B.TRIPS
    if not pocket and board_count[ra] >= 1 and board_count[rb] >= 1:
        return B.TWO_PAIR
    if pocket:
        if ra > board_top:
            return B.OVERPAIR
        if ra < board_low:
            return B.UNDERPAIR
        return B.POCKET_BELOW_TOP
    if board_count[ra] >= 1 or board_count[rb] >= 1:
        paired, kicker = (ra, rb) if board_count[ra] >= 1 else (rb, ra)
        if paired == board_top:
            if kicker == kick0:
                return B.TOP_PAIR_TOP_KICKER
            if kicker in (kick1, kick2):
                return B.TOP_PAIR_GOOD_KICKER
            return B.TOP_PAIR_WEAK_KICKER
        if paired == board_low:
            return B.BOTTOM_PAIR
        return B.MIDDLE_PAIR
    if ra == _ACE or rb == _ACE:
        return B.ACE_HIGH
    return B.NO_MADE_HAND


@njit(cache=True)
def classify(
    holes,
    omaha,
    board,
    board_keys,
    board_masks,
    card_key,
    card_mask,
    multiplier,
    displace,
    values,
    straight_top,
    windows,
    made,
    draws,
):
    """``made[i]``: the made code of combo ``holes[i]``; ``draws[i]``: its draw bits.

    ``board_keys``/``board_masks``: additive key (from ``EMPTY_KEY``) and mask of the board
    (hold'em: one entry, the whole board) or of each three-card part of it (Omaha).
    """
    n_board = board.shape[0]
    k = holes.shape[1]
    board_count = np.zeros(13, dtype=np.int64)
    suit_count = np.zeros(4, dtype=np.int64)
    suit_ranks = np.zeros(4, dtype=np.int64)
    hole_suit_count = np.zeros(4, dtype=np.int64)
    hole_suit_ranks = np.zeros(4, dtype=np.int64)
    bm = 0
    for j in range(n_board):
        c = int(board[j])
        r = c >> 2
        board_count[r] += 1
        suit_count[c & 3] += 1
        suit_ranks[c & 3] |= 1 << r
        bm |= 1 << r
    board_top = 0
    board_low = 12
    for r in range(13):
        if board_count[r] > 0:
            board_top = max(board_top, r)
            board_low = min(board_low, r)
    kick = np.full(3, -1, dtype=np.int64)
    found = 0
    for r in range(12, -1, -1):
        if board_count[r] == 0 and found < 3:
            kick[found] = r
            found += 1
    free_top = np.full(4, -1, dtype=np.int64)  # highest rank of each suit not on the board
    for s in range(4):
        for r in range(12, -1, -1):
            if not (suit_ranks[s] >> r) & 1:
                free_top[s] = r
                break
    flop = n_board == 3
    need_flush = 3 if omaha else 4  # hold'em: cards of the suit (hole + board) for a draw
    for i in range(holes.shape[0]):
        h = holes[i]
        best = B.NO_MADE_HAND
        outs = 0
        backdoor_straight = False
        over = 0
        hm = 0
        for s in range(4):
            hole_suit_count[s] = 0
            hole_suit_ranks[s] = 0
        for a in range(k):
            ra = int(h[a]) >> 2
            sa = int(h[a]) & 3
            hm |= 1 << ra
            hole_suit_count[sa] += 1
            hole_suit_ranks[sa] |= 1 << ra
            if ra > board_top:
                over += 1
        for a in range(k - 1):
            for b in range(a + 1, k):
                ca = uint64(h[a])
                cb = uint64(h[b])
                cat = 0
                for j in range(board_keys.shape[0]):
                    key = board_keys[j] + card_key[ca] + card_key[cb]
                    mask = board_masks[j] | card_mask[ca] | card_mask[cb]
                    v = values[table_index(key, mask, multiplier, displace)] >> _CATEGORY_SHIFT
                    cat = max(cat, int(v))
                ra = int(ca >> uint64(2))
                rb = int(cb >> uint64(2))
                code = _made_code(
                    cat, ra, rb, board_count, board_top, board_low, kick[0], kick[1], kick[2]
                )
                best = min(best, code)
                if omaha and ra != rb and n_board < 5:
                    pair = (1 << ra) | (1 << rb)
                    for w in windows:
                        if w & pair == pair:
                            missing = w & ~pair & ~bm
                            if missing != 0 and missing & (missing - 1) == 0:
                                outs |= missing
                            elif flop and missing != 0:
                                rest = missing & (missing - 1)
                                if rest & (rest - 1) == 0:
                                    backdoor_straight = True
        made[i] = best
        if n_board == 5:
            draws[i] = 0
            continue
        if not omaha:
            for r in range(13):
                b2 = bm | (1 << r)
                if straight_top[hm | b2] > straight_top[b2]:
                    outs |= 1 << r
            if flop:
                for r1 in range(12):
                    for r2 in range(r1 + 1, 13):
                        b2 = bm | (1 << r1) | (1 << r2)
                        if straight_top[hm | b2] > straight_top[b2]:
                            backdoor_straight = True
        bits = 0
        if best > B.STRAIGHT:
            n_outs = 0
            x = outs
            while x:
                x &= x - 1
                n_outs += 1
            if n_outs == 1:
                bits |= 1 << B.GUTSHOT
            elif n_outs == 2 or (n_outs > 2 and not omaha):
                bits |= 1 << B.OPEN_ENDED
            elif n_outs > 2:
                bits |= 1 << B.WRAP
            if flop and n_outs == 0 and backdoor_straight:
                bits |= 1 << B.BACKDOOR_STRAIGHT
        if best > B.FLUSH:
            flush_draw = False
            backdoor_flush = False
            nut = False
            for s in range(4):
                hs = hole_suit_count[s]
                if omaha:
                    is_draw = hs >= 2 and suit_count[s] == 2
                    is_backdoor = hs >= 2 and suit_count[s] == 1
                else:
                    is_draw = hs >= 1 and hs + suit_count[s] == need_flush
                    is_backdoor = hs >= 1 and hs + suit_count[s] == need_flush - 1
                if is_draw:
                    flush_draw = True
                    if (hole_suit_ranks[s] >> free_top[s]) & 1:
                        nut = True
                if is_backdoor:
                    backdoor_flush = True
            if flush_draw:
                bits |= 1 << B.FLUSH_DRAW
                if nut:
                    bits |= 1 << B.NUT_FLUSH_DRAW
                if bits & ((1 << B.GUTSHOT) | (1 << B.OPEN_ENDED) | (1 << B.WRAP)):
                    bits |= 1 << B.COMBO_DRAW
            elif flop and backdoor_flush:
                bits |= 1 << B.BACKDOOR_FLUSH
        if (best == B.ACE_HIGH or best == B.NO_MADE_HAND) and over >= 2:
            bits |= 1 << B.OVERCARDS
        draws[i] = bits


def board_parts(board: np.ndarray, omaha: bool) -> tuple[np.ndarray, np.ndarray]:
    """Additive keys and masks for :func:`classify`: of the whole board (hold'em) or of each
    three-card part of it (Omaha)."""
    from itertools import combinations

    from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK

    parts = list(combinations(board.tolist(), 3)) if omaha else [tuple(board.tolist())]
    keys = np.array(
        [int(EMPTY_KEY) + sum(int(CARD_KEY[c]) for c in p) for p in parts], dtype=np.uint64
    )
    masks = np.zeros(len(parts), dtype=np.uint64)
    for j, p in enumerate(parts):
        for c in p:
            masks[j] |= CARD_MASK[c]
    return keys, masks
