"""numba kernels that compare two players' combos pair by pair over a list of runouts. Private:
no validation.

Each runout evaluates every combo of both players once (:func:`strengths_on_runout`); then each
pair of combos that share no card compares its two rows of strengths (:func:`pair_sums`), 16
runouts at a time: every step is truncated to 16 bits, which the sums never exceed (at most
:data:`MAX_RUNOUTS` runouts at once), so LLVM compares 16-bit lanes where numba's integer
promotion to 64 bits left 4 to a vector (3.5x slower, ``benchmarks/RESULTS.md``). A strength
of 0 marks a runout that uses one of the combo's cards.

The exact engine's heads-up flop strategy (:class:`pokerlab.engine.exact.PairRunouts`) sums the
pairs' weighted counts chunk by chunk (:func:`pair_chunk`); the equity distribution keeps them
per pair (``pokerlab.analysis._distribution_kernels``).
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.evaluation._kernels import table_index

MAX_RUNOUTS = 32767
"""The most runouts one call of :func:`pair_sums` compares (its sums are 16-bit; a flop leaves
at most C(49, 2) = 1,176)."""

_ONE = uint64(1)


@njit(cache=True, inline="always")
def runout_cards(runouts, r, board_key, board_mask, card_key, card_mask):
    """``(key, mask, used)`` of the board plus runout ``r`` (``runouts[r]``: 0..2 cards):
    its additive key, its rank mask and its card bits."""
    key = board_key
    mask = board_mask
    used = uint64(0)
    for j in range(runouts.shape[1]):
        c = runouts[r, j]
        key += card_key[c]
        mask |= card_mask[c]
        used |= _ONE << uint64(c)
    return key, mask, used


@njit(cache=True, inline="always")
def strengths_on_runout(combos, key, mask, used, column, card_key, card_mask, multiplier,
                        displace, values, out):  # fmt: skip
    """``out[i, column]``: high strength of combo ``i`` (two cards) with the board and runout
    cards ``key``/``mask``/``used``, or 0 when the combo holds one of the runout's cards."""
    for i in range(combos.shape[0]):
        a = combos[i, 0]
        b = combos[i, 1]
        if (used >> uint64(a)) & _ONE or (used >> uint64(b)) & _ONE:
            out[i, column] = 0
            continue
        hk = key + card_key[a] + card_key[b]
        hm = mask | card_mask[a] | card_mask[b]
        out[i, column] = values[table_index(hk, hm, multiplier, displace)]


@njit(cache=True, inline="always")
def pair_sums(first, i, second, j, lo, hi):
    """``(share, tie, live)`` of the pair of row ``i`` of ``first`` and row ``j`` of ``second``
    (strengths per runout) over runouts ``lo..hi-1``: ``live`` runouts meet both combos, ``tie``
    of them tie and ``share`` is twice the first combo's pot share (2 a win, 1 a tie), all
    16-bit (at most :data:`MAX_RUNOUTS` runouts). Unsigned indices throughout: with a signed
    ``r`` from a runtime ``lo`` numba checks every read for a negative index, and LLVM left the
    loop scalar (9x slower on the Intel Xeon)."""
    share = np.uint16(0)
    tie = np.uint16(0)
    live = np.uint16(0)
    for r in range(uint64(lo), uint64(hi)):  # unsigned: no negative-index select per read,
        a = first[uint64(i), r]  # which kept LLVM from vectorising a loop from a runtime start
        b = second[uint64(j), r]
        both = np.uint16((a != 0) & (b != 0))
        share = np.uint16(share + np.uint16(np.uint16(np.uint16(a > b) + np.uint16(a >= b)) * both))
        tie = np.uint16(tie + np.uint16(np.uint16(a == b) * both))
        live = np.uint16(live + both)
    return share, tie, live


@njit(cache=True, nogil=True)
def pair_chunk(first, second, first_masks, second_masks, first_weights, second_weights,
               board_key, board_mask, runouts, orbit, start, stop, card_key, card_mask,
               multiplier, displace, values, out):  # fmt: skip
    """Heads-up winner counts over runouts ``start..stop-1`` (at most :data:`MAX_RUNOUTS`)
    into ``out`` (the ``(3, 2)`` layout of :mod:`pokerlab.engine.tally`): each pair of combos
    that share no card, weighted by the product of their weights, counts its wins, ties and
    losses, runout ``r`` ``orbit[r]`` times (the runouts a suit symmetry maps it onto; ``orbit``
    ascending, so each size is one run of runouts, summed unweighted and then multiplied: a
    multiply per runout and lane halved the compare rate). Returns the deals (pair and runout,
    orbits counted) counted."""
    n = stop - start
    first_rows = np.empty((first.shape[0], n), np.uint16)
    second_rows = np.empty((second.shape[0], n), np.uint16)
    for r in range(start, stop):
        key, mask, used = runout_cards(runouts, r, board_key, board_mask, card_key, card_mask)
        strengths_on_runout(first, key, mask, used, r - start, card_key, card_mask, multiplier,
                            displace, values, first_rows)  # fmt: skip
        strengths_on_runout(second, key, mask, used, r - start, card_key, card_mask, multiplier,
                            displace, values, second_rows)  # fmt: skip
    bounds = np.empty(n + 1, np.int64)  # runs of runouts with one orbit size
    sizes = np.empty(n, np.int64)
    runs = 0
    for r in range(n):
        if r == 0 or orbit[start + r] != orbit[start + r - 1]:
            bounds[runs] = r
            sizes[runs] = orbit[start + r]
            runs += 1
    bounds[runs] = n
    won = 0.0
    lost = 0.0
    tied = 0.0
    dealt = 0.0
    deals = np.int64(0)
    for i in range(first.shape[0]):
        wins = 0.0
        losses = 0.0
        ties = 0.0
        lives = 0.0
        for j in range(second.shape[0]):
            if first_masks[i] & second_masks[j]:
                continue
            share = np.int64(0)
            tie = np.int64(0)
            live = np.int64(0)
            for g in range(runs):
                s, t, v = pair_sums(first_rows, i, second_rows, j, bounds[g], bounds[g + 1])
                share += sizes[g] * np.int64(s)
                tie += sizes[g] * np.int64(t)
                live += sizes[g] * np.int64(v)
            win = (share - tie) // 2
            w = second_weights[j]
            wins += w * win
            ties += w * tie
            losses += w * (live - win - tie)
            lives += w * live
            deals += live
        w = first_weights[i]
        won += w * wins
        lost += w * losses
        tied += w * ties
        dealt += w * lives
    out[0, 0] += won
    out[1, 0] += lost
    out[0, 1] += tied
    out[1, 1] += tied
    out[2, 0] += dealt
    return deals
