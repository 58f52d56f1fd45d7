"""numba kernel of the query engine for stud games (stud, stud hi/lo, razz): no board, each
player's own seven cards. Private: no validation here (see ``runner.py``).

A stud *deal* is one holding per player (``hold[d, p]``, rows of ``combos``: the player's known
cards, ``held[p]`` of them) and the cards dealt to complete every hand (``dealt[d]``); player
``p``'s ``j``-th dealt card (in street order, ``j < 7 - held[p]``) is ``dealt[d, pos[p, j]]``.
A player's hand on street ``s`` (3..7) is its first ``s`` cards: the known cards, then the
dealt ones. Feature rows are those of ``_kernels`` (``street`` = cards seen, 3..7).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from pokerlab.analysis.query._kernels import _alone_best, _share, _shares_best
from pokerlab.analysis.query._kinds import (
    EQUITY,
    HAND_CAT,
    IN_RANGE,
    SCOOPS,
    TIES_HI,
    WINS_HI,
    WINS_LO,
)
from pokerlab.engine._generic import best5_high, hand_values

CATEGORY_SHIFT = 12
HAND = 7  # cards in a finished stud hand


@njit(cache=True, _nrt=False)
def _short_high_category(cards, n):
    """High category (0..8 scale) of fewer than five cards: only pairs, two pair, trips and
    quads can be made."""
    counts = 0  # three bits per rank
    most = 0
    pairs = 0
    for i in range(n):
        shift = 3 * (int(cards[i]) >> 2)
        counts += 1 << shift
        k = (counts >> shift) & 7
        most = max(most, k)
        if k == 2:
            pairs += 1
    if most >= 4:
        return 7
    if most == 3:
        return 3
    if pairs >= 2:
        return 2
    return 1 if pairs == 1 else 0


@njit(cache=True, _nrt=False)
def razz_category(cards, n):
    """Razz hand type of ``cards[:n]`` (``compiler.RAZZ_TYPES``): 0 when its best low of
    ``min(5, n)`` cards holds a pair (fewer distinct ranks than that), else ``14 - X`` for X the
    highest rank of that low (ace 1 .. king 13)."""
    ranks = 0
    for i in range(n):
        r = (int(cards[i]) >> 2) + 2  # 2..14
        if r == 14:
            r = 1
        ranks |= 1 << r
    need = min(5, n)
    seen = 0
    for r in range(1, 14):
        if ranks >> r & 1:
            seen += 1
            if seen == need:
                return 14 - r
    return 0


@njit(cache=True, _nrt=False)
def _values(cards, players, hi_code, lo_code, low_only, scratch, pair, hi, lo, tables):
    """Every player's showdown strengths with its seven cards ``cards[p]``: ``hi`` decides the
    pot (razz: the A-5 low), ``lo`` the 8-or-better half (0: none). Razz also gets its low in
    ``lo`` (so ``winsLo`` reads one array)."""
    card_key, card_mask, mult, displace, values = tables
    no_board = cards[0, :0]
    for p in range(players):
        hand_values(hi_code, lo_code, cards[p], HAND, no_board, 0, scratch, pair, card_key,
                    card_mask, mult, displace, values)  # fmt: skip
        hi[p] = pair[0]
        lo[p] = pair[0] if low_only else pair[1]


@njit(cache=True, nogil=True)
def stud_features(hold, dealt, spec, combos, held, pos, in_range, dead_mask, hi_code,
                  lo_code, split, low_only, card_key, card_mask, multiplier, displace, values,
                  out):  # fmt: skip
    """``out[f, d]`` = feature ``spec[f]`` of deal ``d`` (kinds: equity on sixth or seventh
    street, winsHi, tiesHi, scoops, winsLo, handType, inRange; the compiler refuses the rest).

    ``sixthEquity`` averages the pot share over every way to give each player with a card to
    come its seventh card from the cards no player shows by sixth street (not dead), one card
    each, in order; it is reused while consecutive deals share every player's first six cards
    (as the exact enumeration orders them). ``split``: the pot is halved with an 8-or-better
    low; ``low_only``: a low decides the whole pot (razz: hand types are lows)."""
    tables = (card_key, card_mask, multiplier, displace, values)
    n_deals = hold.shape[0]
    players = hold.shape[1]
    n_feat = spec.shape[0]
    cards = np.zeros((players, HAND), dtype=np.uint8)
    prev6 = np.zeros((players, 6), dtype=np.uint8)
    hi = np.zeros(players, dtype=np.int64)
    lo = np.zeros(players, dtype=np.int64)
    hi6 = np.zeros(players, dtype=np.int64)
    lo6 = np.zeros(players, dtype=np.int64)
    eq6 = np.zeros(players, dtype=np.float64)
    eq6_valid = False
    scratch = np.zeros(16, dtype=np.uint8)
    pair = np.zeros(2, dtype=np.int64)
    free = np.zeros(52, dtype=np.uint8)
    to_come = np.zeros(players, dtype=np.int64)
    idx = np.zeros(players, dtype=np.int64)
    hi_with = np.zeros((players, 52), dtype=np.int64)  # value with each free card as 7th
    lo_with = np.zeros((players, 52), dtype=np.int64)
    need7 = False
    need6 = False
    for f in range(n_feat):
        kind = spec[f, 0]
        if kind in (WINS_HI, TIES_HI, SCOOPS, WINS_LO) or (kind == EQUITY and spec[f, 2] == 7):
            need7 = True
        if kind == EQUITY and spec[f, 2] == 6:
            need6 = True
    for d in range(n_deals):
        for p in range(players):
            c = hold[d, p]
            h = held[p]
            for j in range(h):
                cards[p, j] = combos[c, j]
            for j in range(HAND - h):
                cards[p, h + j] = dealt[d, pos[p, j]]
        if need7:
            _values(cards, players, hi_code, lo_code, low_only, scratch, pair, hi, lo, tables)
        if need6:
            same = eq6_valid
            for p in range(players):
                for j in range(6):
                    if cards[p, j] != prev6[p, j]:
                        same = False
                    prev6[p, j] = cards[p, j]
            if not same:
                taken = uint64(dead_mask)
                k = 0
                for p in range(players):
                    for j in range(HAND):
                        if j < 6 or held[p] == HAND:
                            taken |= uint64(1) << uint64(cards[p, j])
                    if held[p] < HAND:
                        to_come[k] = p
                        k += 1
                n_free = 0
                for c in range(52):
                    if not (taken >> uint64(c)) & uint64(1):
                        free[n_free] = c
                        n_free += 1
                for p in range(players):
                    eq6[p] = 0.0
                    idx[p] = 0
                # every player's showdown values with each free card as its seventh, once;
                # players with no card to come keep their own
                _values(cards, players, hi_code, lo_code, low_only, scratch, pair, hi6, lo6,
                        tables)  # fmt: skip
                for a in range(k):
                    q = to_come[a]
                    for i in range(n_free):
                        cards[q, 6] = free[i]
                        hand_values(hi_code, lo_code, cards[q], HAND, cards[q, :0], 0, scratch,
                                    pair, card_key, card_mask, multiplier, displace,
                                    values)  # fmt: skip
                        hi_with[a, i] = pair[0]
                        lo_with[a, i] = pair[0] if low_only else pair[1]
                runs = 0
                while True:  # every k-tuple of distinct free cards, an odometer over idx[:k]
                    distinct = True
                    for a in range(k):
                        for b in range(a):
                            if idx[a] == idx[b]:
                                distinct = False
                    if distinct:
                        for a in range(k):
                            hi6[to_come[a]] = hi_with[a, idx[a]]
                            lo6[to_come[a]] = lo_with[a, idx[a]]
                        for p in range(players):
                            eq6[p] += _share(hi6, lo6, players, p, split)
                        runs += 1
                    a = k - 1
                    while a >= 0 and idx[a] == n_free - 1:
                        idx[a] = 0
                        a -= 1
                    if a < 0:
                        break
                    idx[a] += 1
                for p in range(players):
                    eq6[p] /= runs
                    if held[p] < HAND:  # put the deal's seventh card back
                        cards[p, 6] = dealt[d, pos[p, HAND - 1 - held[p]]]
                eq6_valid = True
        for f in range(n_feat):
            kind = spec[f, 0]
            p = spec[f, 1]
            s = spec[f, 2]
            arg = spec[f, 3]
            v = 0.0
            if kind == EQUITY:
                v = eq6[p] if s == 6 else _share(hi, lo, players, p, split)
            elif kind == WINS_HI:
                v = _alone_best(hi, players, p)
            elif kind == TIES_HI:
                v = _shares_best(hi, players, p)
            elif kind == SCOOPS:
                v = 1.0 if _share(hi, lo, players, p, split) == 1.0 else 0.0
            elif kind == WINS_LO:
                v = _alone_best(lo, players, p)
            elif kind == HAND_CAT:
                if low_only:
                    v = float(razz_category(cards[p], s))
                elif s >= 5:
                    strength = best5_high(cards[p], s, card_key, card_mask, multiplier, displace,
                                          values)  # fmt: skip
                    v = float(strength >> CATEGORY_SHIFT)
                else:
                    v = float(_short_high_category(cards[p], s))
            elif kind == IN_RANGE:
                v = float(in_range[arg, hold[d, p]])
            out[f, d] = v
