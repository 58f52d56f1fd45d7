"""numba kernels of exact hold'em enumeration. Private: callers validate (see ``exact.py``).

:func:`preflop_counts` fills a matchup's ``counts`` array (layout in ``_showdown``) over every
board, for an empty board (5 cards to come), without walking the 1.7 million boards. A board
can give some player a flush only if a suit ``s`` reaches ``t_s = 5 - (most cards of suit s in
any one hand)`` board cards, and with two hole cards ``t_s >= 3``, so at most one suit can.
Part 1 enumerates those boards suit by suit (the suited cards exactly, the other one or two
cards by rank with their multiplicity), evaluates them for real and tallies them per board rank
multiset. Part 2 walks the 6,175 board rank multisets, weighting each by its number of suit
assignments (a product of binomials over the unseen cards) minus the flush boards already
counted, and evaluates it once without suits. AhAs vs KdKc takes about 35,000 showdowns instead
of 1,712,304. (Boards that are given go to the board-major strategies, ``_runouts`` and
``_generic``.)

:func:`enumerate_matchups` walks the joint holdings of a chunk of the matchup space (a mixed-radix
index over the players' combo lists), skips conflicting ones, and caches each matchup's counts
under a canonical suit relabelling so matchups that are the same up to suits are computed once.
"""

from __future__ import annotations

import math

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.engine._preflop_table import ID_RADIX
from pokerlab.engine._showdown import award
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index

_Z = np.uint64(0)
_ONE = np.uint64(1)
_ONE_DEAL = np.int64(1)
"""Weight of one deal: an int64 (not the literal 1), so :func:`award` has one specialisation."""
CHOOSE = np.array([[math.comb(n, k) for k in range(6)] for n in range(5)], dtype=np.int64)
"""``CHOOSE[n, k]`` = C(n, k) for n, k in 0..4."""

CACHE_MAX_PLAYERS = 5  # a canonical id packs 11 bits per player into an int64


@njit(cache=True, _nrt=False)
def preflop_counts(
    keys,
    masks,
    rank_keys,
    zero_masks,
    n,
    hole_suits,
    used,
    counts,
    strengths,
    avail,
    other,
    suited,
    idx,
    corr,
    touched,
    card_key,
    card_mask,
    rank_key,
    choose,
    mult,
    displace,
    values,
):
    """Counts over every 5-card board for one matchup (see the module docstring).

    ``keys``/``masks``: each player's hole-card key and mask; ``rank_keys``: the same keys without
    suit counters; ``hole_suits[p, s]``: cards of suit ``s`` in hand ``p``; ``used``: mask of
    holes and dead cards. Scratch arrays: ``avail``, ``other``, ``suited``, ``idx`` (13 int64
    each), ``corr`` (one int64 per hash slot, zero on entry and on exit), ``touched`` (as long).
    """
    for r in range(13):
        avail[r] = 0
    for c in range(52):
        if not (used >> uint64(c)) & _ONE:
            avail[c >> 2] += 1
    n_touched = 0
    # Part 1: boards where suit s reaches its flush threshold t.
    for s in range(4):
        t = 5
        for p in range(n):
            t = min(t, 5 - hole_suits[p, s])
        ns = 0
        for r in range(13):
            other[r] = avail[r]
            if not (used >> uint64(4 * r + s)) & _ONE:
                suited[ns] = r
                ns += 1
                other[r] -= 1
        for k in range(t, min(5, ns) + 1):
            for i in range(k):
                idx[i] = i
            while True:
                skey = EMPTY_KEY
                smask = _Z
                srank = EMPTY_KEY
                for i in range(k):
                    c = 4 * suited[idx[i]] + s
                    skey += card_key[c]
                    smask |= card_mask[c]
                    srank += rank_key[suited[idx[i]]]
                rest = 5 - k
                if rest == 0:
                    award(keys, masks, n, skey, smask, _ONE_DEAL, counts, strengths, mult, displace,
                          values)  # fmt: skip
                    slot = table_index(srank, _Z, mult, displace)
                    if corr[slot] == 0:
                        touched[n_touched] = slot
                        n_touched += 1
                    corr[slot] += 1
                else:
                    for r1 in range(13):
                        if other[r1] == 0:
                            continue
                        for r2 in range(r1 if rest == 2 else 13, 13 if rest == 2 else 14):
                            if rest == 1:
                                m = other[r1]
                                bkey = skey + rank_key[r1]
                                brank = srank + rank_key[r1]
                            else:
                                m = choose[other[r1], 2] if r2 == r1 else other[r1] * other[r2]
                                bkey = skey + rank_key[r1] + rank_key[r2]
                                brank = srank + rank_key[r1] + rank_key[r2]
                            if m == 0:
                                continue
                            award(
                                keys,
                                masks,
                                n,
                                bkey,
                                smask,
                                m,
                                counts,
                                strengths,
                                mult,
                                displace,
                                values,
                            )
                            slot = table_index(brank, _Z, mult, displace)
                            if corr[slot] == 0:
                                touched[n_touched] = slot
                                n_touched += 1
                            corr[slot] += m
                # next k-subset of the suited ranks
                i = k - 1
                while i >= 0 and idx[i] == ns - k + i:
                    i -= 1
                if i < 0:
                    break
                idx[i] += 1
                for j in range(i + 1, k):
                    idx[j] = idx[j - 1] + 1
    # Part 2: board rank multisets, each weighted by its suit assignments minus flush boards.
    for r1 in range(13):
        k1 = rank_key[r1]
        for r2 in range(r1, 13):
            k2 = k1 + rank_key[r2]
            for r3 in range(r2, 13):
                k3 = k2 + rank_key[r3]
                for r4 in range(r3, 13):
                    k4 = k3 + rank_key[r4]
                    for r5 in range(r4, 13):
                        m = 1
                        run = 1
                        ranks = (r1, r2, r3, r4, r5)
                        for i in range(1, 6):
                            if i < 5 and ranks[i] == ranks[i - 1]:
                                run += 1
                            else:
                                have = avail[ranks[i - 1]]
                                m *= choose[have, run] if run <= have else 0
                                run = 1
                        if m == 0:
                            continue
                        bkey = EMPTY_KEY + k4 + rank_key[r5]
                        m -= corr[table_index(bkey, _Z, mult, displace)]
                        if m > 0:
                            award(
                                rank_keys,
                                zero_masks,
                                n,
                                bkey - EMPTY_KEY,
                                _Z,
                                m,
                                counts,
                                strengths,
                                mult,
                                displace,
                                values,
                            )
    for i in range(n_touched):
        corr[touched[i]] = 0


@njit(cache=True, inline="always")
def _pair_code(a, b):
    """One player's part of a matchup id: cards ``a`` and ``b`` (relabelled codes) as 1..1326."""
    if a < b:
        a, b = b, a
    return a * (a - 1) // 2 + b + 1


@njit(cache=True, inline="always")
def _slot(keys, cid):
    """The slot of id ``cid`` in an open-addressing table of ``keys`` (a power of two of them,
    -1 when free): where it is, or the free slot where it goes."""
    mask = keys.shape[0] - 1
    h = (cid * 0x9E3779B97F4A7C15) & mask
    while keys[h] != -1 and keys[h] != cid:
        h = (h + 1) & mask
    return h


@njit(cache=True)
def _canonical_id(choice, combo_cards, n, fixed_cards, n_fixed, label):
    """Id of the matchup with suits relabelled in order of first appearance (board and dead
    cards first, then each hand); equal ids mean matchups equal up to a suit permutation that
    fixes the board and the dead cards."""
    for s in range(4):
        label[s] = -1
    nxt = 0
    for i in range(n_fixed):
        s = fixed_cards[i] & 3
        if label[s] < 0:
            label[s] = nxt
            nxt += 1
    cid = 0
    for p in range(n):
        row = choice[p]
        hi = combo_cards[row, 0]
        lo = combo_cards[row, 1]
        if hi < lo:
            hi, lo = lo, hi
        for c in (hi, lo):
            s = c & 3
            if label[s] < 0:
                label[s] = nxt
                nxt += 1
        a = 4 * (hi >> 2) + label[hi & 3]
        b = 4 * (lo >> 2) + label[lo & 3]
        cid = cid * ID_RADIX + _pair_code(a, b)
    return cid


@njit(cache=True, inline="always")
def _start_odometer(offsets, start, sizes, digit):
    """Set the matchup odometer (``digit[p]``: player ``p``'s holding, player 0 fastest) to
    mixed-radix index ``start``; ``sizes``: each player's holdings."""
    rem = start
    for p in range(offsets.shape[0] - 1):
        sizes[p] = offsets[p + 1] - offsets[p]
        digit[p] = rem % sizes[p]
        rem //= sizes[p]


@njit(cache=True, inline="always")
def _odometer_matchup(combo_cards, offsets, weights, sizes, digit, choice, base):
    """The odometer's matchup (its rows into ``choice``), then the odometer advanced to the
    next index. Returns ``(valid, cards, weight)``: whether no card is used twice (nor one of
    ``base``), every card used, and the product of the holdings' weights."""
    n = offsets.shape[0] - 1
    used = base
    weight = 1.0
    valid = True
    for p in range(n):
        row = offsets[p] + digit[p]
        choice[p] = row
        m = (_ONE << uint64(combo_cards[row, 0])) | (_ONE << uint64(combo_cards[row, 1]))
        if used & m:
            valid = False
        used |= m
        weight *= weights[row]
    for p in range(n):
        digit[p] += 1
        if digit[p] < sizes[p]:
            break
        digit[p] = 0
    return valid, used, weight


@njit(cache=True)
def _orbit_id(choice, combo_cards, n, perms):
    """Id of the matchup's orbit under the suit permutations ``perms`` (one suit map per row,
    the identity among them): the least id of its images, each written as
    :func:`_canonical_id` writes suits it does not relabel. Matchups that differ by one of the
    permutations have one id; the order of first appearance misses those that swap the two
    suits of a pair (AhAs vs KdKc vs X and vs X with hearts and spades swapped)."""
    best = np.int64(-1)
    for g in range(perms.shape[0]):
        cid = np.int64(0)
        for p in range(n):
            row = choice[p]
            a = combo_cards[row, 0]
            b = combo_cards[row, 1]
            a = 4 * (a >> 2) + perms[g, a & 3]
            b = 4 * (b >> 2) + perms[g, b & 3]
            cid = cid * ID_RADIX + _pair_code(a, b)
        if best < 0 or cid < best:
            best = cid
    return best


@njit(cache=True, nogil=True)
def enumerate_matchups(
    combo_cards,
    offsets,
    weights,
    dead_mask,
    start,
    stop,
    use_cache,
    perms,
    cache_keys,
    cache_rows,
    store,
    n_stored,
    acc,
    totals,
    corr,
    touched,
    rank_key,
    choose,
    tables,
):
    """Add the counts of matchups ``start..stop-1`` (mixed-radix index, player 0 fastest; no
    board, ``dead_mask`` the dead cards) to
    ``acc`` (float64, weighted by the product of combo weights). ``totals[0]`` += deals
    enumerated, ``totals[1]`` += valid matchups, ``totals[2]`` += cache hits. The cache keys a
    matchup by :func:`_orbit_id` under ``perms`` (the suit permutations that map the dead cards
    onto themselves), or with no rows by :func:`_canonical_id` (the shipped table's ids).
    ``corr`` and ``touched``: scratch of one entry per hash slot (``corr`` all zero, left all
    zero)."""
    card_key, card_mask, mult, displace, values = tables
    n = offsets.shape[0] - 1
    sizes = np.empty(n, np.int64)
    digit = np.empty(n, np.int64)
    choice = np.empty(n, np.int64)
    _start_odometer(offsets, start, sizes, digit)
    fixed_mask = dead_mask
    n_fixed = np.int64(0)  # int64 at once: one specialisation of _canonical_id
    fixed_cards = np.empty(52, np.int64)
    for c in range(52):
        if (fixed_mask >> uint64(c)) & _ONE:
            fixed_cards[n_fixed] = c
            n_fixed += 1
    keys = np.empty(n, np.uint64)
    masks = np.empty(n, np.uint64)
    rank_keys = np.empty(n, np.uint64)
    zero_masks = np.zeros(n, np.uint64)
    hole_suits = np.zeros((n, 4), np.int64)
    strengths = np.empty(n, np.int64)
    counts = np.zeros((n + 1, n), np.int64)
    scratch = np.empty((4, 13), np.int64)
    label = np.empty(4, np.int64)
    capacity = store.shape[0]
    for _index in range(start, stop):
        ok, used, weight = _odometer_matchup(
            combo_cards, offsets, weights, sizes, digit, choice, fixed_mask
        )
        if not ok or weight == 0.0:
            continue
        totals[1] += 1
        slot = -1
        cid = -1
        if use_cache:
            if perms.shape[0] > 0:
                cid = _orbit_id(choice, combo_cards, n, perms)
            else:
                cid = _canonical_id(choice, combo_cards, n, fixed_cards, n_fixed, label)
            h = _slot(cache_keys, cid)
            if cache_keys[h] == cid:
                slot = cache_rows[h]
        if slot >= 0:
            totals[2] += 1
            for i in range(n + 1):
                for j in range(n):
                    acc[i, j] += weight * store[slot, i, j]
            totals[0] += store[slot, n, 0]
            continue
        for i in range(n + 1):
            for j in range(n):
                counts[i, j] = 0
        for p in range(n):
            row = choice[p]
            a = combo_cards[row, 0]
            b = combo_cards[row, 1]
            keys[p] = card_key[a] + card_key[b]
            masks[p] = card_mask[a] | card_mask[b]
            rank_keys[p] = rank_key[a >> 2] + rank_key[b >> 2]
            for s in range(4):
                hole_suits[p, s] = 0
            hole_suits[p, a & 3] += 1
            hole_suits[p, b & 3] += 1
        preflop_counts(
            keys,
            masks,
            rank_keys,
            zero_masks,
            n,
            hole_suits,
            used,
            counts,
            strengths,
            scratch[0],
            scratch[1],
            scratch[2],
            scratch[3],
            corr,
            touched,
            card_key,
            card_mask,
            rank_key,
            choose,
            mult,
            displace,
            values,
        )
        for i in range(n + 1):
            for j in range(n):
                acc[i, j] += weight * counts[i, j]
        totals[0] += counts[n, 0]
        if use_cache and n_stored[0] < capacity:
            row = n_stored[0]
            n_stored[0] += 1
            cache_keys[h] = cid
            cache_rows[h] = row
            for i in range(n + 1):
                for j in range(n):
                    store[row, i, j] = counts[i, j]


@njit(cache=True, nogil=True)
def matchup_orbits(combo_cards, offsets, weights, dead_mask, start, stop, perms, ids, wsum, count,
                   first):  # fmt: skip
    """The suit orbits (:func:`_orbit_id` under ``perms``) of the valid matchups
    ``start..stop-1`` (mixed-radix index, player 0 fastest; no card twice, none dead, weight
    above 0), gathered in an open-addressing table of ``ids.shape[0]`` slots (a power of two,
    ``ids`` all -1): per orbit the sum of its matchups' weights (``wsum``), their number
    (``count``) and the first one's index (``first``). Returns the orbits found, or -1 when
    the table filled up."""
    n = offsets.shape[0] - 1
    sizes = np.empty(n, np.int64)
    digit = np.empty(n, np.int64)
    choice = np.empty(n, np.int64)
    _start_odometer(offsets, start, sizes, digit)
    found = 0
    for index in range(start, stop):
        ok, _, weight = _odometer_matchup(
            combo_cards, offsets, weights, sizes, digit, choice, dead_mask
        )
        if not ok or weight == 0.0:
            continue
        cid = _orbit_id(choice, combo_cards, n, perms)
        h = _slot(ids, cid)
        if ids[h] == -1:
            if 2 * (found + 1) > ids.shape[0]:
                return -1
            ids[h] = cid
            first[h] = index
            found += 1
        wsum[h] += weight
        count[h] += 1
    return found


@njit(cache=True)
def card_demand_scores(masks, offsets):
    """Each holding's demand: the sum over its cards of each card's demand, the share of every
    player's holdings that hold it (a card that ``AA**``, ``KK**`` and ``QQ**`` all may take as
    a side card is in demand; a ``K`` of ``KK**`` is in demand from ``AA**`` and ``QQ**`` too).
    Holdings of low demand leave the others most to choose from. Masks are read a byte at a
    time (a count per byte value, a score table per byte value)."""
    n = offsets.shape[0] - 1
    demand = np.zeros(64, np.float64)
    per_byte = np.zeros((8, 256), np.int64)
    for p in range(n):
        per_byte[:] = 0
        for i in range(offsets[p], offsets[p + 1]):
            m = masks[i]
            for b in range(7):  # 52 cards: 7 bytes
                per_byte[b, (m >> uint64(8 * b)) & uint64(255)] += 1
        size = max(offsets[p + 1] - offsets[p], 1)
        for b in range(7):
            for v in range(256):
                for j in range(8):
                    if v >> j & 1:
                        demand[8 * b + j] += per_byte[b, v] / size
    table = np.zeros((8, 256), np.float64)
    for b in range(7):
        for v in range(256):
            for j in range(8):
                if v >> j & 1:
                    table[b, v] += demand[8 * b + j]
    scores = np.zeros(masks.shape[0], np.float64)
    for i in range(masks.shape[0]):
        m = masks[i]
        total = 0.0
        for b in range(7):
            total += table[b, (m >> uint64(8 * b)) & uint64(255)]
        scores[i] = total
    return scores


@njit(cache=True)
def has_joint_holding(masks, offsets, same, steps):
    """Whether some joint holding uses no card twice: 1 or 0, or -1 when ``steps`` steps of the
    depth-first walk did not tell. ``same[p]``: player ``p`` has player ``p - 1``'s holdings,
    so it takes only the holdings after that player's (any other order is a permutation of
    one). Callers order the players fewest holdings first, which prunes soonest."""
    n = offsets.shape[0] - 1
    pos = np.empty(n, np.int64)  # position within the player's holdings
    used = np.empty(n + 1, np.uint64)
    used[0] = _Z
    pos[0] = -1
    p = 0
    for _ in range(steps):
        pos[p] += 1
        if pos[p] >= offsets[p + 1] - offsets[p]:
            p -= 1
            if p < 0:
                return 0
            continue
        m = masks[offsets[p] + pos[p]]
        if m & used[p]:
            continue
        used[p + 1] = used[p] | m
        if p + 1 == n:
            return 1
        p += 1
        pos[p] = pos[p - 1] if same[p] else -1
    return -1
