"""numba kernel: exact heads-up stud equity (one evaluator decides the pot: stud high, razz)
without walking the joint deals.

On third street each player still gets four cards from the 46 unseen: 163,185 completions each
and 2.2e10 joint deals. Instead, every completion of each player is evaluated once; player 2's
completions are inserted in order of value while player 1's are queried, and the number of
player-2 completions *disjoint* from a player-1 completion ``S`` with a smaller value is, by
inclusion-exclusion over the cards they could share,
``sum over T subset of S of (-1)^|T| * #{inserted completions containing T}``.
The counts per subset ``T`` live in one array per size, indexed by the combinatorial number system.
Ties come from querying before and after inserting the completions of equal value. A big
sweep also runs as two halves on two cores (:func:`heads_up_sweep_part`): the values below a
split value swept up, the others swept down, with no insertion or query in common.
"""

from __future__ import annotations

import math

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.engine._generic import key_values
from pokerlab.engine._walk import dense_ranks, next_combination, stable_argsort
from pokerlab.evaluation._kernels import EMPTY_KEY

BINOM = np.array([[math.comb(n, k) for k in range(9)] for n in range(53)], dtype=np.int64)
"""``BINOM[n, k]`` = C(n, k) for n <= 52, k <= 8. Read-only, so the sweeps compile one overload
whether it comes from Python or as a global of another kernel (numba types those read-only)."""
BINOM.flags.writeable = False


@njit(cache=True)
def _completion_values(known, n_known, deck, nd, k, hi_code, lo_code, card_key, card_mask, mult,
                       displace, values, stop):  # fmt: skip
    """Every k-subset of ``deck[:nd]`` (positions, lexicographic) and the values of the known
    cards plus it: the strength that decides the pot (see ``hand_values``) and the low half's
    strength (0 unless the game is split and the low qualifies). The hand's key and mask are
    kept per card of the subset, so the next subset adds only the cards that changed. Reads
    ``stop`` (one uint8, see :class:`~pokerlab.engine._control.StopFlag`) every 4,096 subsets
    and returns once it is set, the rest unfilled: a caller reads ``stop`` after it (from one
    known card 15.9 M subsets, 0.4 s)."""
    count = 1
    for i in range(k):
        count = count * (nd - i) // (i + 1)
    subsets = np.empty((count, max(k, 1)), np.uint8)  # deck positions: 1/8 of int64 in cache
    vals = np.empty(count, np.int64)
    lows = np.empty(count, np.int64)
    idx = np.empty(8, np.int64)
    for i in range(k):
        idx[i] = i
    level_key = np.empty(9, np.uint64)
    level_mask = np.empty(9, np.uint64)
    level_key[0] = EMPTY_KEY
    level_mask[0] = np.uint64(0)
    for i in range(n_known):
        level_key[0] += card_key[known[i]]
        level_mask[0] |= card_mask[known[i]]
    changed = 0
    for r in range(count):
        if r & 4095 == 0 and stop[0]:
            break
        for i in range(k):
            subsets[r, i] = idx[i]
        for i in range(changed, k):
            level_key[i + 1] = level_key[i] + card_key[deck[idx[i]]]
            level_mask[i + 1] = level_mask[i] | card_mask[deck[idx[i]]]
        # the deciding strength (a razz low included), and the low
        vals[r], lows[r] = key_values(hi_code, lo_code, level_key[k], level_mask[k], mult,
                                      displace, values)  # fmt: skip
        if k > 0:
            changed = next_combination(idx, k, nd)
    return subsets, vals, lows


@njit(cache=True, inline="always")
def _subsets_of(subsets, row, k, binom, sizes, ranks):
    """``sizes[:2**k]``, ``ranks[:2**k]``: every subset of one completion's cards, as its size
    and its rank in the combinatorial number system (an index into the counts of that size).
    Built by doubling: the subsets with card ``i`` are those without it plus that card, the
    largest so far, whose term is ``binom[card, size]``: one addition per subset."""
    sizes[0] = 0
    ranks[0] = 0
    m = 1
    for i in range(k):
        e = subsets[row, i]
        for j in range(m):
            size = sizes[j] + 1
            sizes[m + j] = size
            ranks[m + j] = ranks[j] + binom[e, size]
        m += m
    return m


@njit(cache=True)
def _subset_sum(subsets, row, k, tables, binom, max_size, sizes, ranks):
    """Sum (query) over the subsets T of one completion of (-1)^|T| * count[T]."""
    total = 0
    for j in range(_subsets_of(subsets, row, k, binom, sizes, ranks)):
        size = sizes[j]
        if size > max_size:
            continue
        term = tables[size, ranks[j]]
        total += -term if size & 1 else term
    return total


@njit(cache=True)
def _insert(subsets, row, k, tables, binom, max_size, sizes, ranks):
    for j in range(_subsets_of(subsets, row, k, binom, sizes, ranks)):
        if sizes[j] <= max_size:
            tables[sizes[j], ranks[j]] += 1


WHOLE, LOWER, UPPER = 0, 1, 2
"""Parts of a heads-up sweep (:func:`heads_up_sweep_part`): every player-1 completion, or those
below / at or above the split value (:func:`split_value`). Two calls, one per half, can run at
once; their counts add up to the whole's."""


@njit(cache=True, nogil=True)
def heads_up_sweep(
    known1, n1, known2, n2, deck, nd, hole_total, hi_code, lo_code, binom, tables, stop
):
    """``(wins of player 1, ties, deals)`` over every joint completion of two stud hands; deals
    -1 where ``stop`` was set (see :func:`heads_up_sweep_part`)."""
    sub1, val1, sub2, val2 = heads_up_completions(known1, n1, known2, n2, deck, nd, hole_total,
                                                  hi_code, lo_code, tables, stop)  # fmt: skip
    if stop[0]:  # the completions may be cut short
        return 0, 0, -1
    return heads_up_sweep_part(sub1, val1, hole_total - n1, sub2, val2, hole_total - n2, nd,
                               binom, np.int64(WHOLE), stop)  # fmt: skip


@njit(cache=True, nogil=True)
def heads_up_completions(
    known1, n1, known2, n2, deck, nd, hole_total, hi_code, lo_code, tables, stop
):
    """``(sub1, val1, sub2, val2)``: each player's completions from ``deck[:nd]`` and their
    deciding values (:func:`_completion_values`), what every part of a sweep reads; cut short
    where ``stop`` is set (the caller reads it after)."""
    card_key, card_mask, mult, displace, values = tables
    sub1, val1, _ = _completion_values(known1, n1, deck, nd, hole_total - n1, hi_code, lo_code,
                                       card_key, card_mask, mult, displace, values,
                                       stop)  # fmt: skip
    sub2, val2, _ = _completion_values(known2, n2, deck, nd, hole_total - n2, hi_code, lo_code,
                                       card_key, card_mask, mult, displace, values,
                                       stop)  # fmt: skip
    return sub1, val1, sub2, val2


@njit(cache=True, nogil=True)
def heads_up_sweep_part(sub1, val1, k1, sub2, val2, k2, nd, binom, part, stop):
    """The sweep over one part of player 1's completions (``WHOLE``, ``LOWER`` or ``UPPER``;
    ``k1``, ``k2``: the cards each completion adds). ``LOWER`` sweeps up through the values
    below the split value, inserting only player 2's completions below it; ``UPPER`` sweeps
    *down* from the top (the same sweep on negated values, which counts player 1's losses)
    through the values at or above it. So the two halves share no insertion and no query, only
    their inputs (:func:`heads_up_completions`) and the split value. A half from one known card
    each takes seconds, so it reads ``stop`` (one uint8, see
    :class:`~pokerlab.engine._control.StopFlag`) as it goes and returns deals -1 once it is
    set (before, a cancel waited for the sweep: 5 s)."""
    split = split_value(val1, val2) if part != WHOLE else 0
    rows1, keys1 = _part_keys(val1, part, split)
    if stop[0]:
        return 0, 0, -1
    rows2, keys2 = _part_keys(val2, part, split)
    below, ties = _sweep(sub1, rows1, keys1, k1, sub2, rows2, keys2, k2, nd, binom, stop)
    if below < 0:
        return 0, 0, -1
    deals = rows1.shape[0] * binom[nd - k1, k2]
    if part == UPPER:  # the sweep on negated values counted player 1's losses
        return deals - below - ties, ties, deals
    return below, ties, deals


@njit(cache=True)
def split_value(val1, val2):
    """A value that splits the two players' completions into halves of about equal work (the
    median of every 16th value of both): a function of the values only."""
    step = 16
    sample = np.empty((val1.shape[0] + step - 1) // step + (val2.shape[0] + step - 1) // step,
                      np.int64)  # fmt: skip
    n = 0
    for vals in (val1, val2):
        for r in range(0, vals.shape[0], step):
            sample[n] = vals[r]
            n += 1
    sample.sort()
    return sample[n // 2]


@njit(cache=True)
def _part_keys(vals, part, split):
    """The rows of one player's completions in ``part``, in increasing order of their sort key
    (the value; its negation for ``UPPER``), and those keys."""
    n = 0
    for r in range(vals.shape[0]):
        n += part == WHOLE or (vals[r] < split) == (part == LOWER)
    rows = np.empty(n, np.int64)
    keys = np.empty(n, np.int64)
    n = 0
    for r in range(vals.shape[0]):
        if part == WHOLE or (vals[r] < split) == (part == LOWER):
            rows[n] = r
            keys[n] = -vals[r] if part == UPPER else vals[r]
            n += 1
    order = stable_argsort(keys)
    return rows[order], keys[order]


@njit(cache=True)
def _sweep(sub1, rows1, keys1, k1, sub2, rows2, keys2, k2, nd, binom, stop):
    """``(below, ties)``: over the listed player-1 completions (``rows1``, sorted by ``keys1``),
    the number of disjoint listed player-2 completions with a smaller key, and with the same;
    ``(-1, -1)`` once ``stop`` is set (read once per value)."""
    max_size = min(k1, k2)
    width = binom[nd, max_size] if max_size > 0 else 1
    for s in range(max_size + 1):
        width = max(width, binom[nd, s])
    tables = np.zeros((max_size + 1, width), np.int32)  # < C(46, 4) each: half the cache
    below_total = 0
    ties = 0
    i = 0
    j = 0
    m1 = rows1.shape[0]
    m2 = rows2.shape[0]
    below = np.empty(m1, np.int64)
    sizes = np.empty(256, np.int64)
    ranks = np.empty(256, np.int64)
    while i < m1:
        if stop[0]:  # once per value: a byte read beside thousands of table updates
            return -1, -1
        x = keys1[i]
        while j < m2 and keys2[j] < x:
            _insert(sub2, rows2[j], k2, tables, binom, max_size, sizes, ranks)
            j += 1
        i_end = i
        while i_end < m1 and keys1[i_end] == x:
            below[i_end] = _subset_sum(sub1, rows1[i_end], k1, tables, binom, max_size, sizes,
                                       ranks)  # fmt: skip
            below_total += below[i_end]
            i_end += 1
        j_start = j
        while j < m2 and keys2[j] == x:
            _insert(sub2, rows2[j], k2, tables, binom, max_size, sizes, ranks)
            j += 1
        if j > j_start:
            for r in range(i, i_end):
                ties += _subset_sum(sub1, rows1[r], k1, tables, binom, max_size, sizes,
                                    ranks) - below[r]  # fmt: skip
        i = i_end
    return below_total, ties


# Outcome classes of a split-pot deal from player 1's side: high won / tied / lost (rows) and
# low won / tied / lost / no qualifying low for either (columns).
WIN, TIE, LOSS, NO_LOW = 0, 1, 2, 3


@njit(cache=True)
def _insert_low(subsets, row, k, tables, top, binom, max_size, bucket, sizes, ranks):
    """Count one player-2 completion with low bucket ``bucket`` under each of its subsets:
    ``tables[size, rank, b]`` counts the completions containing that subset whose bucket is
    ``b`` or more, so a query reads three entries instead of summing over every bucket. With a
    ``top`` array (see :func:`heads_up_split_sweep`) the largest subset, the completion itself,
    is recorded there instead."""
    whole = top.shape[0] > 0
    for j in range(_subsets_of(subsets, row, k, binom, sizes, ranks)):
        size = sizes[j]
        if size > max_size:
            continue
        if whole and size == max_size:
            top[ranks[j]] = bucket
        else:
            for b in range(bucket + 1):
                tables[size, ranks[j], b] += 1


@njit(cache=True)
def _query_low(subsets, row, k, tables, top, binom, max_size, bucket, out, sizes, ranks):
    """``out`` = (inserted completions disjoint from this one with a lower low bucket, with
    the same bucket, in all), by inclusion-exclusion over the subsets of the completion."""
    out[0] = 0
    out[1] = 0
    out[2] = 0
    whole = top.shape[0] > 0
    for j in range(_subsets_of(subsets, row, k, binom, sizes, ranks)):
        size = sizes[j]
        rank = ranks[j]
        if size > max_size:
            continue
        sign = -1 if size & 1 else 1
        if whole and size == max_size:
            other = top[rank]
            if other >= 0:
                out[0] += sign * (other < bucket)
                out[1] += sign * (other == bucket)
                out[2] += sign
            continue
        every = tables[size, rank, 0]
        at_least = tables[size, rank, bucket]
        out[0] += sign * (every - at_least)
        out[1] += sign * (at_least - tables[size, rank, bucket + 1])
        out[2] += sign * every


@njit(cache=True)
def _credit_low(rel, bucket, hi_class, counts):
    """Add the three lo relations ``rel`` (lower, same, all) of one player-1 completion with low
    bucket ``bucket`` (0: no low) to ``counts[hi_class]``."""
    higher = rel[2] - rel[0] - rel[1]
    if bucket == 0:
        counts[hi_class, NO_LOW] += rel[1]
        counts[hi_class, LOSS] += higher
    else:
        counts[hi_class, WIN] += rel[0]
        counts[hi_class, TIE] += rel[1]
        counts[hi_class, LOSS] += higher


@njit(cache=True, nogil=True)
def heads_up_split_sweep(
    known1, n1, known2, n2, deck, nd, hole_total, hi_code, lo_code, binom, tables, stop
):
    """The sweep of :func:`heads_up_sweep` for a split pot (stud hi/lo): player 2's completions
    are inserted in order of high value into per-subset counts *per low bucket* (the distinct
    low values, 0 = no qualifying low), so each player-1 completion learns how many disjoint
    player-2 completions beat, tie or lose to it on high *and* on low. Returns ``(counts,
    deals)``: ``counts[h, l]`` = joint deals with high outcome ``h`` and low outcome ``l`` for
    player 1 (``WIN``, ``TIE``, ``LOSS``; low also ``NO_LOW``). One sweep of two hands of two
    known cards each takes seconds, so it reads ``stop`` (one uint8, see
    :class:`~pokerlab.engine._control.StopFlag`) as it goes and returns deals ``-1`` once it is
    set (before, a cancel waited for the whole sweep)."""
    card_key, card_mask, mult, displace, values = tables
    k1 = hole_total - n1
    k2 = hole_total - n2
    sub1, val1, low1 = _completion_values(
        known1, n1, deck, nd, k1, hi_code, lo_code, card_key, card_mask, mult, displace, values,
        stop,
    )  # fmt: skip
    sub2, val2, low2 = _completion_values(
        known2, n2, deck, nd, k2, hi_code, lo_code, card_key, card_mask, mult, displace, values,
        stop,
    )  # fmt: skip
    if stop[0]:  # the completions may be cut short
        return np.zeros((3, 4), np.int64), -1
    # low buckets: 0 for no low, then the distinct qualifying lows in increasing order
    m1 = val1.shape[0]
    m2 = val2.shape[0]
    lows = np.zeros(1 + m1 + m2, np.int64)  # element by element: a slice assignment compiles
    for r in range(m1):  # numba's shape check with its error message, 1.9 s of CPU
        lows[1 + r] = low1[r]
    for r in range(m2):
        lows[1 + m1 + r] = low2[r]
    n_levels, ranks = dense_ranks(lows)
    bucket1 = ranks[1 : 1 + m1]
    bucket2 = ranks[1 + m1 :]
    order1 = stable_argsort(val1)
    order2 = stable_argsort(val2)
    max_size = min(k1, k2)
    # When player 2's completions are the largest subsets counted (k2 <= k1), each such subset
    # is at most one completion: ``top[rank]`` = that completion's low bucket (-1: none yet)
    # replaces the largest size's counts per bucket, which were most of the memory (37 MB of
    # int32 from third street, touched at random). The other sizes' counts are cumulative
    # over the buckets (see _insert_low). Together: 405-519 -> 114-119 ms on third street.
    whole = max_size > 0 and k2 == max_size
    kept = max_size if whole else max_size + 1  # subset sizes counted per bucket
    width = 1
    for s in range(kept):
        width = max(width, binom[nd, s])
    tables = np.zeros((kept, width, n_levels + 1), np.int32)  # a last level of zeros
    top = np.full(binom[nd, max_size] if whole else 0, -1, np.int32)
    counts = np.zeros((3, 4), np.int64)
    before = np.empty((m1, 3), np.int64)
    after = np.empty((m1, 3), np.int64)
    rel = np.empty(3, np.int64)
    sizes = np.empty(256, np.int64)
    ranks = np.empty(256, np.int64)
    i = 0
    j = 0
    while i < m1:
        if stop[0]:  # once per value: a byte read beside thousands of table updates
            return counts, -1
        x = val1[order1[i]]
        while j < m2 and val2[order2[j]] < x:
            _insert_low(sub2, order2[j], k2, tables, top, binom, max_size, bucket2[order2[j]],
                        sizes, ranks)  # fmt: skip
            j += 1
        i_end = i
        while i_end < m1 and val1[order1[i_end]] == x:
            r = order1[i_end]
            _query_low(sub1, r, k1, tables, top, binom, max_size, bucket1[r], before[r], sizes,
                       ranks)  # fmt: skip
            i_end += 1
        while j < m2 and val2[order2[j]] == x:
            _insert_low(sub2, order2[j], k2, tables, top, binom, max_size, bucket2[order2[j]],
                        sizes, ranks)  # fmt: skip
            j += 1
        for q in range(i, i_end):
            r = order1[q]
            _query_low(sub1, r, k1, tables, top, binom, max_size, bucket1[r], after[r], sizes,
                       ranks)  # fmt: skip
        i = i_end
    while j < m2:  # the rest beat every player-1 completion on high
        _insert_low(sub2, order2[j], k2, tables, top, binom, max_size, bucket2[order2[j]],
                        sizes, ranks)  # fmt: skip
        j += 1
    for r in range(m1):  # every player-2 completion is inserted now
        if r & 4095 == 0 and stop[0]:
            return counts, -1
        _query_low(sub1, r, k1, tables, top, binom, max_size, bucket1[r], rel, sizes, ranks)
        for c in range(3):
            rel[c] -= after[r, c]
        _credit_low(rel, bucket1[r], np.int64(LOSS), counts)
        for c in range(3):
            rel[c] = after[r, c] - before[r, c]
        _credit_low(rel, bucket1[r], np.int64(TIE), counts)
        _credit_low(before[r], bucket1[r], np.int64(WIN), counts)
    deals = m1 * binom[nd - k1, k2]
    return counts, deals


_HASH = uint64(0x9E3779B97F4A7C15)


@njit(cache=True, _nrt=False)
def spot_key(cards, lengths, players, dead_mask, low_only, key, suit_ranks, order):
    """``key[:players + 1]``: the spot of every player's ``cards[p, :lengths[p]]`` and the dead
    cards up to what leaves every equity unchanged, so spots with equal keys have equal exact
    outcome counts (the engine's sweep and the query's street equities reuse them); returns a
    hash of it. Razz ignores suits, so a row counts ranks (three bits per
    rank). Otherwise a row is a card mask after the suits are renamed in the order of their
    cards (each suit's ranks held by player 0, then 1, ..., then the dead cards, compared in
    turn): renaming suits in every hand and the dead cards at once changes no equity.
    ``suit_ranks`` (4 by ``players + 1`` or more) and ``order`` (4) are scratch."""
    rows = players + 1
    if low_only:
        for q in range(rows):
            key[q] = 0
        for q in range(players):
            for j in range(lengths[q]):
                key[q] += uint64(1) << uint64(3 * (int(cards[q, j]) >> 2))
        for c in range(52):
            if dead_mask >> uint64(c) & uint64(1):
                key[players] += uint64(1) << uint64(3 * (c >> 2))
    else:
        suit_ranks[:, :rows] = 0  # suit, row: the row's 13-bit set of ranks
        for q in range(players):
            for j in range(lengths[q]):
                c = int(cards[q, j])
                suit_ranks[c & 3, q] |= 1 << (c >> 2)
        for c in range(52):
            if dead_mask >> uint64(c) & uint64(1):
                suit_ranks[c & 3, players] |= 1 << (c >> 2)
        for i in range(4):
            order[i] = i
        for i in range(1, 4):  # insertion sort of the suits, larger rows first
            t = order[i]
            k = i
            while k > 0 and _suit_before(suit_ranks, rows, t, order[k - 1]):
                order[k] = order[k - 1]
                k -= 1
            order[k] = t
        for q in range(rows):
            m = uint64(0)
            for new in range(4):
                bits = suit_ranks[order[new], q]
                for r in range(13):
                    if bits >> r & 1:
                        m |= uint64(1) << uint64(4 * r + new)
            key[q] = m
    h = uint64(0x243F6A8885A308D3)
    for q in range(rows):
        h = (h ^ key[q]) * _HASH
        h ^= h >> uint64(29)
    return h


@njit(cache=True, _nrt=False, inline="always")
def _suit_before(suit_ranks, rows, a, b):
    """Whether suit ``a`` sorts before suit ``b``: its rows compared in turn, larger first."""
    for q in range(rows):
        if suit_ranks[a, q] != suit_ranks[b, q]:
            return suit_ranks[a, q] > suit_ranks[b, q]
    return False


@njit(cache=True, _nrt=False)
def matchup_key(combos, a, b, held, dead_mask, low_only, key, scratch):
    """:func:`spot_key` of the heads-up matchup of holdings ``a`` and ``b`` (``held``: each
    player's known cards) into ``key`` (3 words); returns its hash. ``scratch``:
    :func:`matchup_scratch`'s arrays."""
    cards, suit_ranks, order = scratch
    for k in range(held[0]):
        cards[0, k] = combos[a, k]
    for k in range(held[1]):
        cards[1, k] = combos[b, k]
    return spot_key(cards, held, np.int64(2), dead_mask, low_only, key, suit_ranks, order)


@njit(cache=True)
def matchup_scratch():
    """Scratch arrays of :func:`matchup_key`: the two hands, suits by rows, the suits' order."""
    return np.zeros((2, 7), np.uint8), np.zeros((4, 3), np.int64), np.zeros(4, np.int64)


@njit(cache=True)
def spot_hashes(combos, first, n_first, second, n_second, held, masks, dead_mask):
    """The :func:`matchup_key` hash of every heads-up matchup of holdings ``first + i`` and
    ``second + j`` that share no card, suits counted (how many distinct spots an exact run of a
    suit game sweeps)."""
    out = np.empty(n_first * n_second, np.uint64)
    key = np.zeros(3, np.uint64)
    scratch = matchup_scratch()
    count = 0
    for a in range(first, first + n_first):
        for b in range(second, second + n_second):
            if not masks[a] & masks[b]:
                out[count] = matchup_key(combos, a, b, held, dead_mask, np.bool_(False), key,
                                         scratch)  # fmt: skip
                count += 1
    return out[:count]
