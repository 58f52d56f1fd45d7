"""numba kernel of :func:`pokerlab.hits`: the made category and the draw mask of every combo.

Private: no validation (``hits.py`` prepares the arrays). The categories are defined in
:mod:`pokerlab.analysis.board_categories`; this module only computes them. Hand categories
(straight and better) come from the game's strength table (additive key + table lookup, the
high evaluator's or short deck's: :func:`hit_tables` says how its levels read as hand
categories); the rest is rank and suit arithmetic on 13-bit rank sets, over the game's
straights (:func:`hit_tables` again: A-2-3-4-5 in the full deck, A-6-7-8-9 in short deck).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numba import int64, prange, uint64
from numpy.typing import NDArray

from pokerlab._jit import njit
from pokerlab.analysis import board_categories as B
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index
from pokerlab.evaluation.high import HandCategory

if TYPE_CHECKING:
    from pokerlab.games import Game

_LEVEL_SHIFT = T.CATEGORY_SHIFT
_STRAIGHT_CATEGORY = T.STRAIGHT
_FLUSH_CATEGORY = T.FLUSH
_TRIPS_CATEGORY = T.TRIPS
_SF_CATEGORY = T.STRAIGHT_FLUSH
_ACE = 12


def straight_table(top_of: Callable[[int], int] = T.straight_top) -> NDArray[np.int8]:
    """Top rank of the best straight of each 13-bit rank set, -1 for none (8,192 entries);
    ``top_of`` gives it for one rank set (the full deck's straights by default)."""
    return np.array([top_of(m) for m in range(1 << 13)], dtype=np.int8)


def straight_windows(table: NDArray[np.int8]) -> NDArray[np.int64]:
    """The five-rank sets that are straights by ``table`` (:func:`straight_table`), best first."""
    fives = [m for m in range(1 << 13) if m.bit_count() == 5 and table[m] >= 0]
    return np.array(sorted(fives, key=lambda m: -int(table[m])), dtype=np.int64)


STRAIGHT_TOP = straight_table()
WINDOWS = straight_windows(STRAIGHT_TOP)
FULL_DECK_CATEGORIES = np.arange(len(HandCategory), dtype=np.int64)


class HitTables(NamedTuple):
    """What :func:`classify_combo` reads about a game's hands beside its strength table:
    ``categories[level]``, the evaluator category (``HandCategory``) of a strength whose
    ``>> 12`` is ``level``; ``straight_top`` (:func:`straight_table`) and ``windows``
    (:func:`straight_windows`) of its straights."""

    categories: NDArray[np.int64]
    straight_top: NDArray[np.int8]
    windows: NDArray[np.int64]


@cache
def hit_tables(game: Game) -> HitTables:
    """The :class:`HitTables` of a board game: the full deck's, or short deck's (its order of
    categories, :func:`~pokerlab.evaluation.short_deck.category_order`: a flush above a full
    house, trips above a straight or, by the other rule, below it; A-6-7-8-9 the lowest
    straight and no A-2-3-4-5)."""
    if not game.lowest_rank:
        return HitTables(FULL_DECK_CATEGORIES, STRAIGHT_TOP, WINDOWS)
    from pokerlab.evaluation.short_deck import category_order, short_straight_top

    table = straight_table(short_straight_top)
    categories = np.array([int(c) for c in category_order(game.high)], dtype=np.int64)
    return HitTables(categories, table, straight_windows(table))


@njit(cache=True, inline="always")
def _level_of(categories, category):
    """The level (index into ``categories``) of an evaluator category."""
    for level in range(categories.shape[0]):
        if categories[level] == category:
            return level
    return -1


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


# Layout of a board summary (``summarize_board``'s ``info``): int64 slots.
_COUNT = 0  # 13: cards of each rank on the board
_SUITS = 13  # 4: cards of each suit
_SUIT_RANKS = 17  # 4: rank set of each suit
_KICK = 21  # 3: the three highest ranks not on the board (-1 when fewer)
_FREE_TOP = 24  # 4: highest rank of each suit not on the board
_RANKS = 28  # rank set of the board
_TOP = 29
_LOW = 30
_PARTS = 31  # how many entries of keys/masks are used
INFO_SIZE = 32
MAX_PARTS = 10  # three-card parts of a five-card board (Omaha)


@njit(cache=True, nogil=True)
def summarize_board(board, n_board, omaha, card_key, card_mask, info, keys, masks):
    """Fill ``info`` (the slots above), ``keys``/``masks`` (additive key from ``EMPTY_KEY``
    and mask of the whole board in hold'em, of each three-card part of it in Omaha) for the
    board ``board[:n_board]``: what :func:`classify_combo` needs, computed once per board."""
    for j in range(INFO_SIZE):
        info[j] = 0
    bm = 0
    for j in range(n_board):
        c = int(board[j])
        r = c >> 2
        info[_COUNT + r] += 1
        info[_SUITS + (c & 3)] += 1
        info[_SUIT_RANKS + (c & 3)] |= 1 << r
        bm |= 1 << r
    info[_RANKS] = bm
    top = 0
    low = 12
    for r in range(13):
        if info[_COUNT + r] > 0:
            top = max(top, r)
            low = min(low, r)
    info[_TOP] = top
    info[_LOW] = low
    found = 0
    for j in range(3):
        info[_KICK + j] = -1
    for r in range(12, -1, -1):
        if info[_COUNT + r] == 0 and found < 3:
            info[_KICK + found] = r
            found += 1
    for su in range(4):
        info[_FREE_TOP + su] = -1
        for r in range(12, -1, -1):
            if not (info[_SUIT_RANKS + su] >> r) & 1:
                info[_FREE_TOP + su] = r
                break
    n = 0
    if not omaha:
        key = EMPTY_KEY
        mask = uint64(0)
        for j in range(n_board):
            key += card_key[board[j]]
            mask |= card_mask[board[j]]
        keys[0] = key
        masks[0] = mask
        n = 1
    else:
        for x in range(n_board - 2):
            for y in range(x + 1, n_board - 1):
                for z in range(y + 1, n_board):
                    keys[n] = (
                        EMPTY_KEY + card_key[board[x]] + card_key[board[y]] + card_key[board[z]]
                    )
                    masks[n] = card_mask[board[x]] | card_mask[board[y]] | card_mask[board[z]]
                    n += 1
    info[_PARTS] = n


@njit(cache=True, nogil=True)
def classify_combo(
    h, k, omaha, n_board, info, keys, masks, card_key, card_mask, multiplier, displace, values,
    categories, straight_top, windows,
):  # fmt: skip
    """The made code and the draw bits of the hole cards ``h[:k]`` on the board summarized in
    ``info``/``keys``/``masks`` (:func:`summarize_board`; ``n_board`` its size). ``values``:
    the game's strength table (the high evaluator's, a table that starts with it, or short
    deck's); ``categories``, ``straight_top``, ``windows``: its :class:`HitTables`. Draws to a
    straight (a flush) count below a straight (a flush) in the game's order of hands. No
    allocation."""
    board_top = info[_TOP]
    board_low = info[_LOW]
    bm = info[_RANKS]
    board_count = info[_COUNT : _COUNT + 13]
    flop = n_board == 3
    need_flush = 3 if omaha else 4  # hold'em: cards of the suit (hole + board) for a draw
    best = B.NO_MADE_HAND
    top_level = 0  # the best hand's level on the game's scale
    outs = 0
    backdoor_straight = False
    over = 0
    hm = 0
    hs0 = hs1 = hs2 = hs3 = 0  # hole cards of each suit
    hr0 = hr1 = hr2 = hr3 = 0  # hole rank set of each suit
    for a in range(k):
        ra = int(h[a]) >> 2
        sa = int(h[a]) & 3
        hm |= 1 << ra
        if sa == 0:
            hs0 += 1
            hr0 |= 1 << ra
        elif sa == 1:
            hs1 += 1
            hr1 |= 1 << ra
        elif sa == 2:
            hs2 += 1
            hr2 |= 1 << ra
        else:
            hs3 += 1
            hr3 |= 1 << ra
        if ra > board_top:
            over += 1
    for a in range(k - 1):
        for b in range(a + 1, k):
            ca = uint64(h[a])
            cb = uint64(h[b])
            level = 0
            for j in range(info[_PARTS]):
                key = keys[j] + card_key[ca] + card_key[cb]
                mask = masks[j] | card_mask[ca] | card_mask[cb]
                v = int64(values[table_index(key, mask, multiplier, displace)]) >> _LEVEL_SHIFT
                level = max(level, v)
            top_level = max(top_level, level)
            cat = categories[level]
            ra = int(ca >> uint64(2))
            rb = int(cb >> uint64(2))
            code = _made_code(cat, ra, rb, board_count, board_top, board_low, info[_KICK],
                              info[_KICK + 1], info[_KICK + 2])  # fmt: skip
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
    if n_board == 5:
        return best, 0
    below_straight = top_level < _level_of(categories, _STRAIGHT_CATEGORY)
    below_flush = top_level < _level_of(categories, _FLUSH_CATEGORY)
    if not omaha:
        for r in range(13):
            b2 = bm | (1 << r)
            if straight_top[hm | b2] > straight_top[b2]:
                outs |= 1 << r
        if flop and outs == 0 and below_straight:  # the only case a backdoor counts
            for r1 in range(12):
                for r2 in range(r1 + 1, 13):
                    b2 = bm | (1 << r1) | (1 << r2)
                    if straight_top[hm | b2] > straight_top[b2]:
                        backdoor_straight = True
                        break
                if backdoor_straight:
                    break
    bits = 0
    if below_straight:
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
    if below_flush:
        flush_draw = False
        backdoor_flush = False
        nut = False
        for su in range(4):
            hs = hs0 if su == 0 else hs1 if su == 1 else hs2 if su == 2 else hs3
            hr = hr0 if su == 0 else hr1 if su == 1 else hr2 if su == 2 else hr3
            on_board = info[_SUITS + su]
            if omaha:
                is_draw = hs >= 2 and on_board == 2
                is_backdoor = hs >= 2 and on_board == 1
            else:
                is_draw = hs >= 1 and hs + on_board == need_flush
                is_backdoor = hs >= 1 and hs + on_board == need_flush - 1
            if is_draw:
                flush_draw = True
                if (hr >> info[_FREE_TOP + su]) & 1:
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
    return best, bits


HOLDINGS_PER_TASK = 1 << 14
"""Holdings per task of :func:`classify` (a fixed size: the answer is per holding, the same for
any thread count)."""


@njit(cache=True, parallel=True)
def classify(
    holes, omaha, board, card_key, card_mask, multiplier, displace, values, categories,
    straight_top, windows, made, draws,
):  # fmt: skip
    """``made[i]``: the made code of combo ``holes[i]`` on ``board``; ``draws[i]``: its draw
    bits (the arguments as :func:`classify_combo`'s). Tasks of :data:`HOLDINGS_PER_TASK`
    holdings on numba's threads (their count set by the caller); the board's summary is
    shared, read only. Parallel even for one thread: the same loop compiled without ``prange``
    ran 1.7x slower (567 against 330 ms for 1.9 M 5-card Omaha holdings on one Zen 5 core)."""
    info, keys, masks = _board_summary(board, omaha, card_key, card_mask)
    n = holes.shape[0]
    for task in prange((n + HOLDINGS_PER_TASK - 1) // HOLDINGS_PER_TASK):
        lo = task * HOLDINGS_PER_TASK
        _classify_rows(holes, lo, min(n, lo + HOLDINGS_PER_TASK), omaha, board.shape[0], info,
                       keys, masks, card_key, card_mask, multiplier, displace, values,
                       categories, straight_top, windows, made, draws)  # fmt: skip


@njit(cache=True, inline="always")
def _board_summary(board, omaha, card_key, card_mask):
    """:func:`summarize_board`'s arrays for ``board``."""
    info = np.zeros(INFO_SIZE, dtype=np.int64)
    keys = np.zeros(MAX_PARTS, dtype=np.uint64)
    masks = np.zeros(MAX_PARTS, dtype=np.uint64)
    summarize_board(board, board.shape[0], omaha, card_key, card_mask, info, keys, masks)
    return info, keys, masks


@njit(cache=True, inline="always")
def _classify_rows(
    holes, lo, hi, omaha, n_board, info, keys, masks, card_key, card_mask, multiplier, displace,
    values, categories, straight_top, windows, made, draws,
):  # fmt: skip
    """Rows ``lo .. hi - 1`` of :func:`classify` (its own function: written inline in the
    ``prange`` loop, the loop ran 1.15x slower)."""
    for i in range(lo, hi):
        m, b = classify_combo(holes[i], holes.shape[1], omaha, n_board, info, keys, masks,
                              card_key, card_mask, multiplier, displace, values, categories,
                              straight_top, windows)  # fmt: skip
        made[i] = m
        draws[i] = b
