"""numba kernel of exact enumeration once the flop is out (board-major order).

For each completion of the board (the *runout*), every combo of every player is evaluated once;
then a depth-first walk over the players' combo lists, pruned at the first card conflict, credits
each joint holding with the product of its combos' weights. Evaluations cost
``runouts x sum(range sizes)`` instead of ``runouts x matchups x players``; what remains per
matchup is a comparison of precomputed strengths. Counts layout as in ``_showdown`` (folded into
the engine's one layout by ``tally.from_winner_counts``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, uint64

from pokerlab.engine._walk import next_joint_holding, orbit_size, start_walk, unseen_deck
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index

_Z = np.uint64(0)
_ONE = np.uint64(1)


@njit(cache=True)
def runout_count(n_unseen, to_come):
    """Number of runouts: C(n_unseen, to_come) for to_come in 0..2."""
    if to_come == 0:
        return 1
    if to_come == 1:
        return n_unseen
    return n_unseen * (n_unseen - 1) // 2


@njit(cache=True, nogil=True)
def enumerate_runouts(
    combo_cards,
    offsets,
    weights,
    board,
    skip_mask,
    start,
    stop,
    by_runout,
    sym,
    out,
    totals,
    tables,
):
    """Add runouts ``start..stop-1`` (cards in code order, ``(i, j)`` pairs with ``i < j``
    lexicographically) to ``out[0]`` (float64, counts layout), or each to its own
    ``out[r - start]`` when ``by_runout``. ``totals[0]`` += deals (joint holding x runout),
    ``totals[1]`` += runouts. Runouts use no card of the board or of ``skip_mask`` (dead cards,
    and cards every combo of some player holds); combos must not touch board or dead cards."""
    card_key, card_mask, mult, displace, values = tables
    n = offsets.shape[0] - 1
    n_combos = combo_cards.shape[0]
    board_key = EMPTY_KEY
    board_mask = _Z
    used = skip_mask
    for i in range(board.shape[0]):
        c = board[i]
        board_key += card_key[c]
        board_mask |= card_mask[c]
        used |= _ONE << uint64(c)
    combo_masks = np.empty(n_combos, np.uint64)
    for t in range(n_combos):
        combo_masks[t] = (_ONE << uint64(combo_cards[t, 0])) | (_ONE << uint64(combo_cards[t, 1]))
    deck = np.empty(52, np.int64)
    nd = unseen_deck(used, deck)
    to_come = 5 - board.shape[0]
    strength = np.empty(n_combos, np.int64)
    level_used = np.empty(n + 1, np.uint64)
    level_weight = np.empty(n + 1, np.float64)
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    first = offsets[:-1]
    last = offsets[1:]
    run_cards = np.empty(2, np.int64)
    image = np.empty(2, np.int64)
    # decode the first runout of the chunk
    i = 0
    j = 0
    if to_come == 2:
        rem = start
        while rem >= nd - 1 - i:
            rem -= nd - 1 - i
            i += 1
        j = i + 1 + rem
    elif to_come == 1:
        i = start
    for r in range(start, stop):
        acc = out[r - start] if by_runout else out[0]
        if to_come >= 1:
            run_cards[0] = deck[i]
            run_cards[1] = deck[j]
        orbit = orbit_size(run_cards, to_come, sym, image)
        if orbit == 0:
            if to_come == 2:
                j += 1
                if j >= nd:
                    i += 1
                    j = i + 1
            elif to_come == 1:
                i += 1
            continue
        run_mask = _Z
        run_key = board_key
        run_emask = board_mask
        if to_come >= 1:
            run_mask |= _ONE << uint64(deck[i])
            run_key += card_key[deck[i]]
            run_emask |= card_mask[deck[i]]
        if to_come == 2:
            run_mask |= _ONE << uint64(deck[j])
            run_key += card_key[deck[j]]
            run_emask |= card_mask[deck[j]]
        for t in range(n_combos):
            if combo_masks[t] & run_mask:
                strength[t] = -1
            else:
                a = combo_cards[t, 0]
                b = combo_cards[t, 1]
                key = run_key + card_key[a] + card_key[b]
                mask = run_emask | card_mask[a] | card_mask[b]
                strength[t] = values[table_index(key, mask, mult, displace)]
        # depth-first walk over joint holdings, pruned at the first conflict
        level = start_walk(first, pos, level_used, level_weight, run_mask)
        while True:
            level = next_joint_holding(
                level,
                n,
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
            for q in range(n):
                s = strength[chosen[q]]
                if s > best:
                    best = s
                    k = 1
                    winner = q
                elif s == best:
                    k += 1
            w = level_weight[n] * orbit
            if k == 1:
                acc[winner, 0] += w
            else:
                for q in range(n):
                    if strength[chosen[q]] == best:
                        acc[q, k - 1] += w
            acc[n, 0] += w
            totals[0] += orbit
        totals[1] += 1
        # next runout
        if to_come == 2:
            j += 1
            if j >= nd:
                i += 1
                j = i + 1
        elif to_come == 1:
            i += 1
