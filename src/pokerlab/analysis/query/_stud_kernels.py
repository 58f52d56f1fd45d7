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
from numba import uint64

from pokerlab._jit import njit
from pokerlab.analysis.query._kernels import _alone_best, _share, _shares_best
from pokerlab.analysis.query._kinds import (
    EQUITY,
    HAND_CAT,
    IN_RANGE,
    OUTS,
    SCOOPS,
    TIES_HI,
    WINS_HI,
    WINS_LO,
)
from pokerlab.engine._generic import _NO_CARDS, best5_high, hand_values
from pokerlab.engine._stud_sweep import (
    BINOM,
    NO_LOW,
    TIE,
    WIN,
    _completion_values,
    heads_up_split_sweep,
    heads_up_sweep,
    spot_key,
)
from pokerlab.engine._walk import unseen_deck

CATEGORY_SHIFT = 12
HAND = 7  # cards in a finished stud hand
SHARE_UNITS = 1680
"""Every pot share of up to 8 players is a whole number of 1/1680ths (half the pot split k ways
or all of it: 1680 = 2 * lcm(1..8)), so a multiway street equity sums whole numbers: its value
does not depend on the order in which the completions are walked."""


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
def _value(hand, n, hi_code, lo_code, low_only, scratch, pair, tables):
    """One player's showdown strengths with the cards ``hand[:n]`` (5..7): ``pair[0]`` decides
    the pot (razz: the A-5 low), ``pair[1]`` the 8-or-better half (0: none); razz also gets its
    low in ``pair[1]`` (so ``winsLo`` reads one array)."""
    card_key, card_mask, mult, displace, values = tables
    pair[0], pair[1] = hand_values(hi_code, lo_code, hand, n, hand[:0], _NO_CARDS, scratch,
                                   card_key, card_mask, mult, displace, values)  # fmt: skip
    if low_only:
        pair[1] = pair[0]


@njit(cache=True, _nrt=False)
def _values(cards, players, lengths, hi_code, lo_code, low_only, scratch, pair, hi, lo, tables):
    """Every player's showdown strengths (see :func:`_value`) with its first ``lengths[p]``
    cards ``cards[p]``."""
    for p in range(players):
        _value(cards[p], lengths[p], hi_code, lo_code, low_only, scratch, pair, tables)
        hi[p] = pair[0]
        lo[p] = pair[1]


@njit(cache=True)
def _unseen(cards, lengths, players, dead_mask, deck):
    """Writes the cards in no player's ``cards[p, :lengths[p]]`` and not dead into ``deck``;
    returns their count."""
    used = uint64(dead_mask)
    for p in range(players):
        for j in range(lengths[p]):
            used |= uint64(1) << uint64(cards[p, j])
    return unseen_deck(used, deck)


@njit(cache=True)
def street_equity(cards, lengths, players, dead_mask, hi_code, lo_code, split, tables, eq):
    """``eq[p]`` = player ``p``'s expected pot share over every way to complete the hands whose
    cards so far are ``cards[p, :lengths[p]]`` (from the cards none of them holds, not dead): the
    engine's exact stud equity of that spot. Heads-up by the engine's inclusion-exclusion sweep
    (``engine._stud_sweep``); multiway every player's completions are evaluated once (the
    sweep's ``_completion_values``) and every disjoint choice of one per player is walked."""
    deck = np.empty(52, np.uint8)
    nd = _unseen(cards, lengths, players, dead_mask, deck)
    if players == 2:
        # np.int64: a literal 7 would compile the sweeps once more than the engine's calls do
        args = (cards[0], lengths[0], cards[1], lengths[1], deck, nd, np.int64(HAND), hi_code,
                lo_code, BINOM, tables)  # fmt: skip
        share = 0.0
        if split:  # never stopped inside: the query stops between deals
            counts, deals = heads_up_split_sweep(*args, np.zeros(1, np.uint8))
            for high in range(3):  # outcome classes of player 0 (see _stud_sweep)
                for low in range(4):
                    hi_part = 1.0 if high == WIN else 0.5 if high == TIE else 0.0
                    if low == NO_LOW:
                        share += counts[high, low] * hi_part
                    else:
                        lo_part = 1.0 if low == WIN else 0.5 if low == TIE else 0.0
                        share += counts[high, low] * 0.5 * (hi_part + lo_part)
        else:
            wins, ties, deals = heads_up_sweep(*args, np.zeros(1, np.uint8))
            share = wins + 0.5 * ties
        eq[0] = share / deals
        eq[1] = 1.0 - eq[0]
        return
    card_key, card_mask, mult, displace, values = tables
    first = np.zeros(players + 1, np.int64)  # player p's completions: rows first[p]..first[p+1]-1
    for p in range(players):
        first[p + 1] = first[p] + BINOM[nd, HAND - lengths[p]]
    masks = np.zeros(first[players], np.uint64)
    hi_of = np.empty(first[players], np.int64)
    lo_of = np.empty(first[players], np.int64)
    for p in range(players):
        k = HAND - lengths[p]
        subsets, vals, lows = _completion_values(cards[p], lengths[p], deck, nd, k, hi_code,
                                                 lo_code, card_key, card_mask, mult, displace,
                                                 values, np.zeros(1, np.uint8))  # fmt: skip
        for r in range(first[p + 1] - first[p]):
            t = first[p] + r
            for j in range(k):
                masks[t] |= uint64(1) << uint64(subsets[r, j])  # deck positions
            hi_of[t] = vals[r]
            lo_of[t] = lows[r]
    hi = np.empty(players, np.int64)
    lo = np.empty(players, np.int64)
    row = np.empty(players, np.int64)
    taken = np.zeros(players + 1, np.uint64)
    total = np.zeros(players, np.int64)  # shares in units of 1 / SHARE_UNITS, summed exactly
    runs = 0
    q = 0
    row[0] = first[0] - 1
    while q >= 0:  # depth first: one completion per player, no card twice
        row[q] += 1
        if row[q] == first[q + 1]:
            q -= 1
            continue
        t = row[q]
        if masks[t] & taken[q]:
            continue
        hi[q] = hi_of[t]
        lo[q] = lo_of[t]
        if q + 1 < players:
            taken[q + 1] = taken[q] | masks[t]
            q += 1
            row[q] = first[q] - 1
            continue
        for p in range(players):
            total[p] += round(_share(hi, lo, players, p, split) * SHARE_UNITS)
        runs += 1
    for p in range(players):
        eq[p] = total[p] / (runs * SHARE_UNITS)


@njit(cache=True)
def _outs(cards, players, held, p, s, dead_mask, hi_code, lo_code, split, low_only, scratch,
          pair, hi, lo, tables):  # fmt: skip
    """``outs(p, s)`` (s = 5 or 6): every player's cards by street ``s`` are its first
    ``max(s, held)``; if ``p`` does not scoop with them, the number of cards ``c`` (in no player's
    cards by then, not dead) after which ``p`` scoops on street ``s + 1`` whatever card each other
    player still to get one gets next (any card left once ``c`` is gone); else 0."""
    lengths = np.empty(players, np.int64)
    for q in range(players):
        lengths[q] = max(s, held[q])
    _values(cards, players, lengths, hi_code, lo_code, low_only, scratch, pair, hi, lo, tables)
    if _share(hi, lo, players, p, split) == 1.0:
        return 0.0
    free = np.empty(52, np.uint8)
    nf = _unseen(cards, lengths, players, dead_mask, free)
    hi_with = np.empty((players, nf), np.int64)  # value with each free card as the next one
    lo_with = np.empty((players, nf), np.int64)
    hand = np.empty(HAND, np.uint8)
    for q in range(players):
        if held[q] <= s:  # q gets a card on street s + 1
            for j in range(lengths[q]):
                hand[j] = cards[q, j]
            for i in range(nf):
                hand[lengths[q]] = free[i]
                _value(hand, lengths[q] + 1, hi_code, lo_code, low_only, scratch, pair, tables)
                hi_with[q, i] = pair[0]
                lo_with[q, i] = pair[1]
        else:
            for i in range(nf):
                hi_with[q, i] = hi[q]
                lo_with[q, i] = lo[q]
    count = 0
    for i in range(nf):
        hp = hi_with[p, i]
        lp = lo_with[p, i]
        scoops = True
        for q in range(players):
            if q == p:
                continue
            for j in range(nf):  # p scoops against every next card of q's
                if j == i:
                    continue
                if hi_with[q, j] >= hp or (split and lo_with[q, j] > 0 and lo_with[q, j] >= lp):
                    scoops = False
                    break
            if not scoops:
                break
        if scoops:
            count += 1
    return float(count)


@njit(cache=True, nogil=True)
def stud_features(hold, dealt, spec, combos, held, pos, in_range, dead_mask, hi_code,
                  lo_code, split, low_only, tables, eq_keys, eq_vals, eq_ok, out):  # fmt: skip
    """``out[d, f]`` = feature ``spec[f]`` of deal ``d`` (kinds: equity on streets 3..7, winsHi,
    tiesHi, scoops, winsLo, handType, outs on streets 5 and 6, inRange; the compiler refuses the
    rest).

    An equity on street ``s < 7`` is :func:`street_equity` of every player's cards by street
    ``s`` (its first ``max(s, held)``). It is kept in a slot of ``eq_keys[s - 3]`` /
    ``eq_vals[s - 3]`` (``eq_ok[s - 3]``: which slots are filled) chosen by the hash of its
    ``spot_key`` (the engine's sweep's), and reused by every later deal, in this call or the
    next, whose spot has the same key: a range's holdings repeat, suits aside, far more often
    than whole deals, so a sampled run computes each spot about once. The equity of a key never
    depends on the deal that stored it (integer counts of the same spot), so neither does any
    result. ``split``: the pot is halved with an 8-or-better low; ``low_only``: a low decides
    the whole pot (razz: hand types are lows). ``tables``: the engine's ``KernelTables``, passed
    as the engine passes it, so the sweeps compile once for both."""
    n_deals = hold.shape[0]
    players = hold.shape[1]
    n_feat = spec.shape[0]
    cards = np.zeros((players, HAND), dtype=np.uint8)
    hi = np.zeros(players, dtype=np.int64)
    lo = np.zeros(players, dtype=np.int64)
    tmp_hi = np.zeros(players, dtype=np.int64)
    tmp_lo = np.zeros(players, dtype=np.int64)
    eq = np.zeros(players, dtype=np.float64)
    lengths = np.zeros(players, dtype=np.int64)
    full = np.full(players, HAND, dtype=np.int64)
    scratch = np.zeros(16, dtype=np.uint8)
    pair = np.zeros(2, dtype=np.int64)
    key = np.zeros(players + 1, dtype=np.uint64)
    suit_ranks = np.zeros((4, players + 1), dtype=np.int64)
    order = np.zeros(4, dtype=np.int64)
    slot_mask = uint64(eq_keys.shape[1] - 1)  # a power of two slots
    need7 = False
    for f in range(n_feat):
        kind = spec[f, 0]
        if kind in (WINS_HI, TIES_HI, SCOOPS, WINS_LO) or (kind == EQUITY and spec[f, 2] == 7):
            need7 = True
    for d in range(n_deals):
        for p in range(players):
            c = hold[d, p]
            h = held[p]
            for j in range(h):
                cards[p, j] = combos[c, j]
            for j in range(HAND - h):
                cards[p, h + j] = dealt[d, pos[p, j]]
        if need7:
            _values(cards, players, full, hi_code, lo_code, low_only, scratch, pair, hi, lo,
                    tables)  # fmt: skip
        for f in range(n_feat):
            kind = spec[f, 0]
            p = spec[f, 1]
            s = spec[f, 2]
            arg = spec[f, 3]
            v = 0.0
            if kind == EQUITY and s < HAND:
                i = s - 3
                for q in range(players):
                    lengths[q] = max(s, held[q])
                slot = int(
                    spot_key(cards, lengths, players, dead_mask, low_only, key, suit_ranks, order)
                    & slot_mask
                )
                same = eq_ok[i, slot]
                for q in range(players + 1):
                    if eq_keys[i, slot, q] != key[q]:
                        same = False
                if not same:
                    street_equity(cards, lengths, players, dead_mask, hi_code, lo_code, split,
                                  tables, eq)  # fmt: skip
                    for q in range(players + 1):
                        eq_keys[i, slot, q] = key[q]
                    for q in range(players):
                        eq_vals[i, slot, q] = eq[q]
                    eq_ok[i, slot] = True
                v = eq_vals[i, slot, p]
            elif kind == EQUITY:
                v = _share(hi, lo, players, p, split)
            elif kind == WINS_HI:
                v = _alone_best(hi, players, p)
            elif kind == TIES_HI:
                v = _shares_best(hi, players, p)
            elif kind == SCOOPS:
                v = 1.0 if _share(hi, lo, players, p, split) == 1.0 else 0.0
            elif kind == WINS_LO:
                v = _alone_best(lo, players, p)
            elif kind == OUTS:
                v = _outs(cards, players, held, p, s, dead_mask, hi_code, lo_code, split,
                          low_only, scratch, pair, tmp_hi, tmp_lo, tables)  # fmt: skip
            elif kind == HAND_CAT:
                if low_only:
                    v = float(razz_category(cards[p], s))
                elif s >= 5:
                    strength = best5_high(cards[p], s, tables.card_key, tables.card_mask,
                                          tables.mult, tables.displace, tables.values)  # fmt: skip
                    v = float(strength >> CATEGORY_SHIFT)
                else:
                    v = float(_short_high_category(cards[p], s))
            elif kind == IN_RANGE:
                v = float(in_range[arg, hold[d, p]])
            out[d, f] = v
