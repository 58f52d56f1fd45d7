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
def pair_sums(row, other, n_runouts):
    """``(share, tie, live)`` of one pair over the first ``n_runouts`` strengths of ``row``
    (the first combo) and ``other``: ``live`` runouts meet both combos, ``tie`` of them tie and
    ``share`` is twice the first combo's pot share (2 a win, 1 a tie), all 16-bit."""
    share = np.uint16(0)
    tie = np.uint16(0)
    live = np.uint16(0)
    for r in range(n_runouts):
        a = row[r]
        b = other[r]
        both = np.uint16((a != 0) & (b != 0))
        share = np.uint16(share + np.uint16(np.uint16(np.uint16(a > b) + np.uint16(a >= b)) * both))
        tie = np.uint16(tie + np.uint16(np.uint16(a == b) * both))
        live = np.uint16(live + both)
    return share, tie, live


@njit(cache=True, nogil=True)
def pair_chunk(first, second, first_masks, second_masks, first_weights, second_weights,
               board_key, board_mask, runouts, start, stop, card_key, card_mask, multiplier,
               displace, values, out):  # fmt: skip
    """Heads-up winner counts over runouts ``start..stop-1`` (at most :data:`MAX_RUNOUTS`) into
    ``out`` (the ``(3, 2)`` layout of :mod:`pokerlab.engine.tally`): each pair of combos that
    share no card, weighted by the product of their weights, counts its wins, ties and losses.
    Returns the deals (pair and runout) counted."""
    n = stop - start
    first_rows = np.empty((first.shape[0], n), np.uint16)
    second_rows = np.empty((second.shape[0], n), np.uint16)
    for r in range(start, stop):
        key, mask, used = runout_cards(runouts, r, board_key, board_mask, card_key, card_mask)
        strengths_on_runout(first, key, mask, used, r - start, card_key, card_mask, multiplier,
                            displace, values, first_rows)  # fmt: skip
        strengths_on_runout(second, key, mask, used, r - start, card_key, card_mask, multiplier,
                            displace, values, second_rows)  # fmt: skip
    won = 0.0
    lost = 0.0
    tied = 0.0
    dealt = 0.0
    deals = np.int64(0)
    for i in range(first.shape[0]):
        row = first_rows[i]
        wins = 0.0
        losses = 0.0
        ties = 0.0
        lives = 0.0
        for j in range(second.shape[0]):
            if first_masks[i] & second_masks[j]:
                continue
            share, tie, live = pair_sums(row, second_rows[j], n)
            win = (np.int64(share) - np.int64(tie)) // 2
            w = second_weights[j]
            wins += w * win
            ties += w * np.int64(tie)
            losses += w * (np.int64(live) - win - np.int64(tie))
            lives += w * np.int64(live)
            deals += np.int64(live)
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
