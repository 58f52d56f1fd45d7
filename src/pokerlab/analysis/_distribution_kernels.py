"""numba kernels of :func:`pokerlab.equity_distribution`. Private: no validation.

Heads-up hold'em with a board: every runout evaluates each combo of both ranges once
(:func:`runout_strengths`), then every compatible pair of combos compares the stored strengths
(:func:`pair_wins`), which sums, per pair, twice its pot share over the runouts (2 a win, 1 a
tie) in integers, so the result does not depend on the thread count. Their loops are the exact
engine's (:mod:`pokerlab.engine._pairs`), here over every core with ``prange``.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from pokerlab._jit import njit
from pokerlab.engine._pairs import MAX_RUNOUTS, pair_sums, runout_cards, strengths_on_runout
from pokerlab.evaluation._kernels import popcount


@njit(cache=True, parallel=True)
def runout_strengths(
    combos, board_key, board_mask, runouts, card_key, card_mask, multiplier, displace, values, out
):
    """``out[i, r]``: high strength of combo ``i`` (two cards) with the board and runout ``r``
    (``runouts[r]``: 0..2 cards), or 0 when the combo uses a card of the runout."""
    for r in prange(runouts.shape[0]):
        key, mask, used = runout_cards(runouts, r, board_key, board_mask, card_key, card_mask)
        strengths_on_runout(combos, key, mask, used, r, card_key, card_mask, multiplier,
                            displace, values, out)  # fmt: skip


@njit(cache=True, parallel=True)
def pair_wins(hero, villain, hero_masks, villain_masks, wins):
    """``wins[i, j]`` = sum over runouts of twice hero combo ``i``'s pot share against villain
    combo ``j`` (strength rows from :func:`runout_strengths`; 0 marks a runout the combo cannot
    meet, at most :data:`~pokerlab.engine._pairs.MAX_RUNOUTS` runouts); pairs that share a
    card are left at 0."""
    n_runouts = hero.shape[1]
    if n_runouts > MAX_RUNOUTS:
        raise ValueError("pair_wins: too many runouts for its 16-bit sums")
    for i in prange(hero.shape[0]):
        for j in range(villain.shape[0]):
            if hero_masks[i] & villain_masks[j]:
                continue
            share, _tie, _live = pair_sums(hero, i, villain, j, 0, n_runouts)
            wins[i, j] = share


@njit(cache=True)
def joint_weight(masks, weights, offsets, skip, fixed, last, last_total, single, pair):
    """Sum over the joint holdings of every player but ``skip`` (holdings
    ``masks[offsets[p]:offsets[p+1]]``) that share no card with each other nor with ``fixed``,
    of the product of their weights.

    Player ``last`` (not ``skip``; -1 for none), whose holdings must be two cards each, is summed
    without a walk: its holdings that avoid a set of cards weigh ``last_total`` minus those
    holding one of them plus those holding two (``single[c]``: the weight of its holdings with
    card ``c``; ``pair[52 c + d]``, ``c < d``: of the holding ``{c, d}``). The walk then covers
    the other players only: three hold'em ranges of 1,000 combos take a thousand steps per
    holding instead of a million."""
    n_players = offsets.shape[0] - 1
    order = np.empty(n_players, dtype=np.int64)
    m = 0
    for p in range(n_players):
        if p != skip and p != last:
            order[m] = p
            m += 1
    if m == 0:
        return 1.0 if last < 0 else _avoiding(fixed, last_total, single, pair)
    index = np.empty(m, dtype=np.int64)
    used = np.empty(m + 1, dtype=np.uint64)
    prod = np.empty(m + 1, dtype=np.float64)
    used[0] = fixed
    prod[0] = 1.0
    total = 0.0
    depth = 0
    index[0] = offsets[order[0]]
    while depth >= 0:
        p = order[depth]
        i = index[depth]
        if i >= offsets[p + 1]:
            depth -= 1
            if depth >= 0:
                index[depth] += 1
            continue
        if masks[i] & used[depth]:
            index[depth] += 1
            continue
        w = prod[depth] * weights[i]
        if depth == m - 1:
            if last >= 0:
                w *= _avoiding(used[depth] | masks[i], last_total, single, pair)
            total += w
            index[depth] += 1
            continue
        used[depth + 1] = used[depth] | masks[i]
        prod[depth + 1] = w
        depth += 1
        index[depth] = offsets[order[depth]]
    return total


@njit(cache=True, inline="always")
def _avoiding(cards, total, single, pair):
    """Weight of the two-card holdings that share no card with the mask ``cards``, by
    inclusion-exclusion (see :func:`joint_weight`; exact where the weights are counts)."""
    w = total
    rest = cards
    while rest:
        c, rest = _pop_lowest(rest)
        w -= single[c]
        more = rest
        while more:
            d, more = _pop_lowest(more)
            w += pair[52 * c + d]
    return w


@njit(cache=True, inline="always")
def _pop_lowest(mask):
    """``(the lowest card of a non-empty mask, the mask without it)``."""
    return popcount((mask & (~mask + uint64(1))) - uint64(1)), mask & (mask - uint64(1))
