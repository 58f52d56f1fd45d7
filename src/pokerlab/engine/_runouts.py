"""numba kernel of exact enumeration once the flop is out (board-major order).

For each completion of the board (the *runout*), every combo of every player is evaluated once;
then a depth-first walk over the players' combo lists, pruned at the first card conflict, credits
each joint holding with the product of its combos' weights. Evaluations cost
``runouts x sum(range sizes)`` instead of ``runouts x matchups x players``; what remains per
matchup is a comparison of precomputed strengths. Counts layout as in ``_showdown`` (folded into
the engine's one layout by ``tally.from_winner_counts``).

Two things keep a runout cheap when the ranges are wide:

* **Rank pairs.** A 7-card hand without a flush is worth what its ranks are worth, so when a
  runout's board lets no combo make a flush (or a combo has too few cards of the board's long
  suit to make one), its strength is read from a table of the board plus each rank pair the
  combos have (at most 91) instead of being evaluated. Those values depend on the ranks of the
  cards to come only, so each is looked up once per rank pattern of the runout (at most 91 of
  them on the flop), not once per runout.
* **The last player is counted, not walked**, when all its combos weigh the same (a ``random``
  hand, most ranges): per joint holding of the other players, its combos that beat, tie or lose
  to their best hand are *counted*. With few joint holdings per runout the counted player's
  combos are scanned; with many, they are sorted by strength once per runout and each joint
  holding reads its counts from the cumulative counts by strength, minus the combos that hold
  one of the walked cards (a sorted list per card), plus the combos that hold two of them
  (inclusion-exclusion). When the counted player is a ``random`` hand (every pair of the cards
  it may hold) and few joint holdings are walked, its combos are counted by rank pair instead:
  the cards left per rank give each of the 91 rank pairs its number of combos, and only the
  combos that could make a flush on this board are looked at one by one. The counts are the
  same integers the walk would have added up.

And one thing skips most runouts when the ranges ignore suits:

* **Rank patterns.** Where every player is one known hand or a range *closed under rank
  pairs* (with any combo of two ranks it holds every other combo of those ranks that the known
  cards leave, at the same weight: ``random``, pairs, ``AK``), and no suit has three cards on
  the runout's board (no flush can be made), what a runout adds depends on its ranks alone:
  the strengths do, and so does how many joint holdings of each rank pair the cards left
  allow. So the first such runout of each rank pattern is walked and kept, and the others of
  that pattern (59-65 % of preflop runouts) add what it added, scaled by their orbit.
"""

from __future__ import annotations

import math

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.engine._walk import (
    binom,
    lower_bound,
    next_combination,
    next_joint_holding,
    orbit_size,
    start_walk,
    stripe_run,
    units_span,
    unrank_combination,
    unseen_deck,
)
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index

_Z = np.uint64(0)
_ONE = np.uint64(1)

_SLOT_TERM = np.array([[math.comb(q + x, x + 1) for q in range(13)] for x in range(5)])
"""``_SLOT_TERM[x, r]``: the term of the ``x``-th lowest rank ``r`` to come in the number of the
runout's rank pattern (see ``rank_memo`` in :func:`enumerate_runouts`)."""

SCAN_MAX_JOINT = 8
"""Joint holdings of the walked players up to which the counted player's combos are scanned per
joint holding rather than sorted once per runout."""


@njit(cache=True, nogil=True)
def enumerate_runouts(
    combo_cards,
    offsets,
    weights,
    board,
    skip_mask,
    start,
    stop,
    stripes,
    by_runout,
    sym,
    counted,
    dealt,
    by_pattern,
    rank_key,
    dense,
    out,
    totals,
    tables,
    stop_flag,
):
    """Add units ``start..stop-1`` to ``out[0]`` (float64, counts layout), or each runout to its
    own ``out[r - start]`` when ``by_runout`` (then ``stripes`` is 1). Unit ``u`` is the
    ``u % stripes``-th of ``stripes`` equal runs of the last walked player's combos on runout
    ``u // stripes`` (runouts: cards in code order, ``(i, j)`` pairs with ``i < j``
    lexicographically; every k-subset of the unseen cards in lexicographic order, k being the
    0 to 5 cards to come), so a river's one runout still splits into chunks. ``totals[0]`` +=
    deals (joint holding x runout), ``totals[1]`` += runouts begun. Runouts use no card of the
    board or of ``skip_mask`` (dead cards, and cards every combo of some player holds); combos
    must not touch board or dead cards.
    ``counted``: the last player's combos all weigh the same and are counted (module
    docstring); ``dealt``: they are every pair of the cards they use (a ``random`` hand).
    ``by_pattern``: every player is one known hand or a range closed under rank pairs (module
    docstring), so a runout where no flush can come adds what the first runout of its rank
    pattern in this call added (only with one unit per runout, not ``by_runout``).
    ``rank_key``: each rank's additive key without suit counters; ``dense[v]``: the place of
    strength ``v`` among the table's strengths (0-based, increasing).
    ``stop_flag``: one uint8 (:class:`~pokerlab.engine._control.StopFlag`'s), read once per
    runout: once it is set the call returns with ``totals[0]`` = -1 (a chunk of wide ranges
    preflop walks hundreds of runouts for half a second, which a cancel waited for)."""
    card_key, card_mask, mult, displace, values = tables
    n = offsets.shape[0] - 1
    n_combos = combo_cards.shape[0]
    n_walk = n - 1 if counted else n
    board_key = EMPTY_KEY
    board_mask = _Z
    board_rkey = _Z
    board_suits = np.zeros(4, np.int64)
    board_ranks = np.zeros(13, np.int64)
    used = skip_mask
    for i in range(board.shape[0]):
        c = board[i]
        board_key += card_key[c]
        board_mask |= card_mask[c]
        board_rkey += rank_key[c >> 2]
        board_suits[c & 3] += 1
        board_ranks[c >> 2] += 1
        used |= _ONE << uint64(c)
    combo_masks = np.empty(n_combos, np.uint64)
    # the rank pairs the combos have (``pairs``, by id 13 * lower rank + upper rank; ``pair_at``:
    # an id's place in it; ``combo_pair``: each combo's place): one evaluation each per rank
    # pattern of the runout when the combos outnumber them
    combo_pair = np.empty(n_combos, np.int64)
    pair_at = np.full(169, -1, np.int64)
    pairs = np.empty(91, np.int64)
    n_pairs = 0
    for t in range(n_combos):
        a = combo_cards[t, 0]
        b = combo_cards[t, 1]
        combo_masks[t] = (_ONE << uint64(a)) | (_ONE << uint64(b))
        lo_rank = min(a >> 2, b >> 2)
        pair = 13 * lo_rank + (a >> 2) + (b >> 2) - lo_rank
        if pair_at[pair] < 0:
            pair_at[pair] = n_pairs
            pairs[n_pairs] = pair
            n_pairs += 1
        combo_pair[t] = pair_at[pair]
    use_ranks = n_pairs < n_combos
    run_suits = np.empty(4, np.int64)
    run_ranks = np.empty(13, np.int64)
    deck = np.empty(52, np.int64)
    nd = unseen_deck(used, deck)
    to_come = 5 - board.shape[0]
    strength = np.empty(n_combos, np.int64)
    level_used = np.empty(n + 1, np.uint64)
    level_weight = np.empty(n + 1, np.float64)
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    first = offsets[:-1].copy()
    last = offsets[1:].copy()
    run_cards = np.empty(5, np.int64)
    image = np.empty(5, np.int64)
    idx = np.empty(5, np.int64)
    # the counted player: its weight, and how its combos are counted
    c_first = offsets[n - 1]
    c_last = offsets[n]
    c_weight = weights[c_first] if counted else 1.0
    joint = 1
    for p in range(n_walk):
        joint *= last[p] - first[p]
    by_sort = counted and joint > SCAN_MAX_JOINT
    by_ranks = counted and dealt and not by_sort
    use_ranks = use_ranks or by_ranks
    # the rank pairs' values per rank pattern of the runout (the multiset of the ranks to come,
    # numbered 0 .. C(12 + to_come, to_come) - 1: ranks r0 <= r1 <= ... give the strictly
    # increasing r0 + 0, r1 + 1, ..., numbered as k-subsets: the sum of C(r_x + x, x + 1)),
    # computed on the pattern's first runout
    n_slots = binom(12 + to_come, to_come)
    rank_memo = np.empty((n_slots if use_ranks else 1, n_pairs), np.int64)
    memo_done = np.zeros(n_slots, np.bool_)
    # what a runout without a flush adds, per rank pattern (at orbit 1), once one was walked
    by_pattern = by_pattern and stripes == 1 and not by_runout
    n_kept = n_slots if by_pattern else 1
    kept = np.zeros((n_kept, out.shape[1], out.shape[2]), np.float64)
    kept_deals = np.zeros(n_kept, np.int64)
    kept_done = np.zeros(n_kept, np.bool_)
    keeping = False  # this runout's walk goes into ``kept``
    scale = 1
    deals_before = 0
    n_eval = c_first if by_ranks else n_combos  # combos evaluated one by one on every runout
    dealt_mask = _Z  # the cards a dealt counted player may hold
    for t in range(c_first, c_last):
        dealt_mask |= combo_masks[t]
    dealt_ranks = np.zeros(13, np.int64)
    for c in range(52):
        if (dealt_mask >> uint64(c)) & _ONE:
            dealt_ranks[c >> 2] += 1
    left = np.zeros(13, np.int64)  # per joint holding: counted cards left per rank
    suited = np.zeros(13, np.int64)  # ... of which of the board's long suit
    run_left = np.zeros(13, np.int64)
    run_suited = np.zeros(13, np.int64)
    capable = np.empty(c_last - c_first if by_ranks else 1, np.int64)
    n_capable = 0
    n_classes = dense[dense.shape[0] - 1] + 1  # the strongest hand's class, plus one
    below = np.zeros(n_classes + 2 if by_sort else 1, np.int64)
    place = np.empty(n_classes + 1 if by_sort else 1, np.int64)
    order = np.empty(c_last - c_first if by_sort else 1, np.int64)
    card_count = np.zeros(52, np.int64)
    card_values = np.empty((52, 52) if by_sort else (1, 1), np.int64)
    pair_combo = np.full(52 * 52 if by_sort else 1, -1, np.int64)
    if by_sort:
        for t in range(c_first, c_last):
            a = combo_cards[t, 0]
            b = combo_cards[t, 1]
            pair_combo[52 * a + b] = t
            pair_combo[52 * b + a] = t
    walked = np.empty(2 * n, np.int64)
    # the striped player: the last walked (in ``size_order``, the widest but a counted one)
    striped = n_walk - 1
    striped_row = offsets[striped]
    striped_size = offsets[striped + 1] - striped_row
    r_start, r_stop = units_span(start, stop, stripes)
    unrank_combination(r_start, nd, to_come, idx)  # the chunk's first runout
    acc = out[0]
    has_sym = sym.shape[0] > 0
    slot = 0
    for r in range(r_start, r_stop):
        if stop_flag[0]:  # a byte read per runout, beside thousands of evaluations
            totals[0] = -1
            return
        if by_runout:
            acc = out[r - r_start]
        lo_row, hi_row = stripe_run(r, start, stop, stripes, striped_size)
        first[striped] = striped_row + lo_row
        last[striped] = striped_row + hi_row
        for x in range(to_come):
            run_cards[x] = deck[idx[x]]
        if to_come > 0:
            next_combination(idx, to_come, nd)  # the next runout's, read on the next pass
        orbit = 1
        if has_sym:  # hoisted: the inlined check costs ~10 ns per runout otherwise
            orbit = orbit_size(run_cards, to_come, sym, image)
        if orbit == 0:
            continue
        run_mask = _Z
        run_key = board_key
        run_emask = board_mask
        run_rkey = board_rkey
        for s in range(4):
            run_suits[s] = board_suits[s]
        for q in range(13):
            run_ranks[q] = board_ranks[q]
        for x in range(to_come):
            c = run_cards[x]
            run_mask |= _ONE << uint64(c)
            run_key += card_key[c]
            run_emask |= card_mask[c]
            run_rkey += rank_key[c >> 2]
            run_suits[c & 3] += 1
            run_ranks[c >> 2] += 1
        # the board's long suit: a combo with ``need`` cards of it may make a flush
        flush_suit = -1
        need = 3
        for s in range(4):
            if run_suits[s] >= 3:
                flush_suit = s
                need = 5 - run_suits[s]
        if use_ranks or by_pattern:
            # the runout's rank pattern (its cards ascend, and so do their ranks; no card to
            # come: slot 0)
            slot = 0
            for x in range(to_come):
                slot += _SLOT_TERM[x, run_cards[x] >> 2]
        keeping = by_pattern and flush_suit < 0
        if keeping:
            if kept_done[slot]:  # no flush: the same ranks, the same outcomes
                _add_kept(acc, kept[slot], orbit)
                totals[0] += orbit * kept_deals[slot]
                totals[1] += 1
                continue
            scale = orbit
            orbit = 1
            acc = kept[slot]
            deals_before = totals[0]
        if use_ranks and not memo_done[slot]:
            # the runout's ranks decide the rank-pair values: looked up once per rank pattern
            memo_done[slot] = True
            for x in range(n_pairs):
                r1 = pairs[x] // 13
                r2 = pairs[x] - 13 * r1
                v = 0  # five of a rank: no combo of this pair is free on this runout
                if run_ranks[r1] + 1 + (r1 == r2) <= 4 and run_ranks[r2] < 4:
                    key = run_rkey + rank_key[r1] + rank_key[r2]
                    v = values[table_index(key, _Z, mult, displace)]
                rank_memo[slot, x] = v
        one_by_one = n_eval
        if use_ranks and flush_suit < 0 and not by_sort:
            # no flush on this board: every strength from its rank pair (the combos that
            # touch the runout are never read: the walk and the counts skip them by mask)
            for t in range(n_eval):
                strength[t] = rank_memo[slot, combo_pair[t]]
            one_by_one = 0
        for t in range(one_by_one):
            if combo_masks[t] & run_mask:
                strength[t] = -1
                continue
            a = combo_cards[t, 0]
            b = combo_cards[t, 1]
            if use_ranks and ((a & 3) == flush_suit) + ((b & 3) == flush_suit) < need:
                strength[t] = rank_memo[slot, combo_pair[t]]
            else:
                key = run_key + card_key[a] + card_key[b]
                mask = run_emask | card_mask[a] | card_mask[b]
                strength[t] = values[table_index(key, mask, mult, displace)]
        if by_ranks:
            # cards left to the counted player per rank, and its combos that may make a flush
            for q in range(13):
                run_left[q] = dealt_ranks[q]
                run_suited[q] = 0
            for c in range(52):
                if (dealt_mask >> uint64(c)) & _ONE:
                    if (run_mask >> uint64(c)) & _ONE:
                        run_left[c >> 2] -= 1
                    elif (c & 3) == flush_suit:
                        run_suited[c >> 2] = 1
            n_capable = 0
            if flush_suit >= 0:
                for t in range(c_first, c_last):
                    if combo_masks[t] & run_mask:
                        continue
                    a = combo_cards[t, 0]
                    b = combo_cards[t, 1]
                    if ((a & 3) == flush_suit) + ((b & 3) == flush_suit) >= need:
                        key = run_key + card_key[a] + card_key[b]
                        mask = run_emask | card_mask[a] | card_mask[b]
                        strength[t] = values[table_index(key, mask, mult, displace)]
                        capable[n_capable] = t
                        n_capable += 1
        if by_sort:
            # counted combos by strength class: cumulative counts, and a sorted list per card
            for v in range(n_classes + 2):
                below[v] = 0
            for t in range(c_first, c_last):
                if strength[t] >= 0:
                    below[dense[strength[t]] + 1] += 1
            for v in range(1, n_classes + 2):
                below[v] += below[v - 1]
            for v in range(n_classes + 1):
                place[v] = below[v]
            n_valid = below[n_classes + 1]
            for t in range(c_first, c_last):
                if strength[t] >= 0:
                    d = dense[strength[t]]
                    order[place[d]] = t
                    place[d] += 1
            for c in range(52):
                card_count[c] = 0
            for x in range(n_valid):
                t = order[x]
                for y in range(2):
                    c = combo_cards[t, y]
                    card_values[c, card_count[c]] = strength[t]
                    card_count[c] += 1
        # depth-first walk over joint holdings, pruned at the first conflict
        level = start_walk(first, pos, level_used, level_weight, run_mask)
        while True:
            level = next_joint_holding(
                level,
                n_walk,
                first,
                last,
                combo_masks,
                weights,
                pos,
                chosen,
                level_used,
                level_weight,
            )
            if level < 0:
                break
            best = -1
            k = 0
            winner = 0
            for q in range(n_walk):
                s = strength[chosen[q]]
                if s > best:
                    best = s
                    k = 1
                    winner = q
                elif s == best:
                    k += 1
            if not counted:
                w = level_weight[n] * orbit
                if k == 1:
                    acc[winner, 0] += w
                else:
                    for q in range(n):
                        if strength[chosen[q]] == best:
                            acc[q, k - 1] += w
                acc[n, 0] += w
                totals[0] += orbit
                continue
            # the counted player's combos below, equal to and above ``best``
            lose = 0
            tie = 0
            deals = 0
            if by_sort:
                d = dense[best]
                lose = below[d]
                tie = below[d + 1] - lose
                deals = n_valid
                nw = 0
                for q in range(n_walk):
                    walked[nw] = combo_cards[chosen[q], 0]
                    walked[nw + 1] = combo_cards[chosen[q], 1]
                    nw += 2
                for x in range(nw):
                    c = walked[x]
                    size = card_count[c]
                    row = card_values[c]
                    lo = lower_bound(row, size, best)
                    hi = lower_bound(row, size, best + 1)
                    lose -= lo
                    tie -= hi - lo
                    deals -= size
                    for y in range(x + 1, nw):
                        t = pair_combo[52 * c + walked[y]]
                        if t >= 0 and strength[t] >= 0:
                            s = strength[t]
                            deals += 1
                            lose += s < best
                            tie += s == best
            elif by_ranks:
                taken = level_used[n_walk]
                for q in range(13):
                    left[q] = run_left[q]
                    suited[q] = run_suited[q]
                for q in range(n_walk):
                    for y in range(2):
                        c = combo_cards[chosen[q], y]
                        if (dealt_mask >> uint64(c)) & _ONE:
                            left[c >> 2] -= 1
                            if (c & 3) == flush_suit:
                                suited[c >> 2] = 0
                if need == 1:  # a card of the long suit may make a flush: not by rank
                    for q in range(13):
                        left[q] -= suited[q]
                if need >= 1:
                    sub = need == 2  # two cards of the long suit make a flush: not by rank
                    for r1 in range(13):
                        x1 = left[r1]
                        if x1 == 0:
                            continue
                        m = x1 * (x1 - 1) // 2
                        if m:
                            v = rank_memo[slot, pair_at[14 * r1]]
                            deals += m
                            lose += m * (v < best)
                            tie += m * (v == best)
                        for r2 in range(r1 + 1, 13):
                            m = x1 * left[r2] - sub * suited[r1] * suited[r2]
                            if m:
                                v = rank_memo[slot, pair_at[13 * r1 + r2]]
                                deals += m
                                lose += m * (v < best)
                                tie += m * (v == best)
                for x in range(n_capable):
                    t = capable[x]
                    if not combo_masks[t] & taken:
                        s = strength[t]
                        deals += 1
                        lose += s < best
                        tie += s == best
            else:
                taken = level_used[n_walk]
                for t in range(c_first, c_last):
                    free = (combo_masks[t] & taken) == _Z
                    s = strength[t]
                    deals += free
                    lose += free & (s < best)
                    tie += free & (s == best)
            win = deals - lose - tie
            w = level_weight[n_walk] * c_weight * orbit
            if lose:
                if k == 1:
                    acc[winner, 0] += w * lose
                else:
                    for q in range(n_walk):
                        if strength[chosen[q]] == best:
                            acc[q, k - 1] += w * lose
            if tie:
                for q in range(n_walk):
                    if strength[chosen[q]] == best:
                        acc[q, k] += w * tie
                acc[n - 1, k] += w * tie
            if win:
                acc[n - 1, 0] += w * win
            acc[n, 0] += w * deals
            totals[0] += orbit * deals
        if keeping:
            kept_done[slot] = True
            kept_deals[slot] = totals[0] - deals_before
            totals[0] = deals_before + scale * kept_deals[slot]
            acc = out[0]
            _add_kept(acc, kept[slot], scale)
        totals[1] += r * stripes >= start  # the runout's first unit


@njit(cache=True, inline="always")
def _add_kept(acc, kept, orbit):
    """``acc += orbit * kept`` (two counts-layout arrays)."""
    for i in range(acc.shape[0]):
        for j in range(acc.shape[1]):
            acc[i, j] += orbit * kept[i, j]
