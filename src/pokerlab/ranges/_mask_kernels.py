"""numba kernels that list sets of holdings in order (private; see
:mod:`pokerlab.ranges._pattern_expand`).

A holding of ``size`` cards is a 64-bit mask. The masks of one size, in ascending order, are the
``size``-subsets of the 52 cards in *colex* order (compared by their highest card first), and
the colex rank ``sum(C(c_i, i))`` (``c_1 < c_2 < ...`` the card codes, ``i`` from 1) numbers them
``0 .. C(52, size) - 1`` without gaps. So a set of holdings can be written into a *mark array*
of ``C(52, size)`` entries (one per possible holding: 20,358,520 for 6 cards) at each holding's
rank, and read back sorted and distinct by one pass over the array that steps from each holding
to the next with Gosper's hack: no sort, and duplicates cost nothing. The writes go in parallel
(each holding's entry is written alone, or by several threads with the same value); the pass
reads fixed chunks of ranks, counted first so that every chunk knows where its output starts.
The output is the same array for any number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from pokerlab._jit import njit
from pokerlab.evaluation._kernels import popcount

__all__ = [
    "MARK_CHUNK",
    "colex_masks",
    "marked_masks",
    "mask_codes",
    "overlay",
    "stamp",
    "stamp_completions",
]

MARK_CHUNK = 1 << 16
"""Ranks (or masks) per parallel task; fixed, so the work split never depends on threads."""

_MAX_CARDS = 52
_MAX_PICK = 8
_BINOM = np.zeros((_MAX_CARDS + 2, _MAX_PICK + 1), dtype=np.int64)
for _n in range(_MAX_CARDS + 2):
    _BINOM[_n, 0] = 1
    for _k in range(1, min(_n, _MAX_PICK) + 1):
        _BINOM[_n, _k] = _BINOM[_n - 1, _k - 1] + (_BINOM[_n - 1, _k] if _k < _n else 0)

_ONE = np.uint64(1)
_TWO = np.uint64(2)


@njit(cache=True, inline="always")
def _lowest(x):
    """The lowest set bit of ``x`` (non-zero) and its index."""
    low = x & (~x + _ONE)
    return low, np.int64(popcount(low - _ONE))


@njit(cache=True, inline="always")
def _rank(m):
    """The colex rank of a mask among the masks with as many bits."""
    r = 0
    i = 1
    while m:
        low, c = _lowest(m)
        r += _BINOM[c, i]
        i += 1
        m ^= low
    return r


@njit(cache=True, inline="always")
def _unrank(r, size):
    """The mask of ``size`` bits of colex rank ``r``."""
    m = uint64(0)
    c = _MAX_CARDS
    for i in range(size, 0, -1):
        while _BINOM[c, i] > r:
            c -= 1
        r -= _BINOM[c, i]
        m |= _ONE << uint64(c)
        c -= 1
    return m


@njit(cache=True, inline="always")
def _next(x):
    """The next larger mask with as many bits (Gosper's hack)."""
    low, c = _lowest(x)
    r = x + low
    return r | (((r ^ x) >> _TWO) >> uint64(c))


@njit(cache=True, parallel=True)
def stamp(marks, masks, value):
    """``marks[rank(m)] = value`` for every mask ``m`` of ``masks`` (all of one size)."""
    n = len(masks)
    for task in prange((n + MARK_CHUNK - 1) // MARK_CHUNK):
        for i in range(task * MARK_CHUNK, min(n, (task + 1) * MARK_CHUNK)):
            marks[_rank(masks[i])] = value


@njit(cache=True, parallel=True)
def overlay(marks, flags, value):
    """``marks[r] = value`` wherever ``flags[r]`` (two mark arrays of one size)."""
    n = len(marks)
    for task in prange((n + MARK_CHUNK - 1) // MARK_CHUNK):
        for r in range(task * MARK_CHUNK, min(n, (task + 1) * MARK_CHUNK)):
            if flags[r]:
                marks[r] = value


@njit(cache=True, parallel=True)
def stamp_completions(marks, sets, avail, combos):
    """``marks[rank(m)] = True`` for every ``m = sets[i] | cards`` where ``cards`` are the cards
    ``avail[i, combos[j]]`` (row ``j`` of ``combos``: ascending indices into the cards not in
    the set, ascending); each task takes one set and a fixed run of ``combos`` rows.

    The rank is summed from tables made once per task rather than walked bit by bit: the
    ``j``-th free card (from 1) at index ``a`` sits at place ``j + (set cards below it)`` and
    adds ``C(card, place)``; the ``q``-th set card sits at ``q + (free cards below it)``, which
    is how many of the row's indices fall below its own place among the free cards. With
    ``combos`` in colex order the ranks a task writes ascend, so its writes into the (tens of
    MB) mark array go forward."""
    per_set = len(combos)
    free = combos.shape[1]
    n_avail = avail.shape[1]
    runs = (per_set + MARK_CHUNK - 1) // MARK_CHUNK
    for task in prange(len(sets) * runs):
        i = task // runs
        lo = (task % runs) * MARK_CHUNK
        k = np.int64(popcount(sets[i]))
        under = np.empty(k, dtype=np.int64)  # free cards below each set card
        set_term = np.empty((k, free + 1), dtype=np.int64)  # by free cards below it
        rest = sets[i]
        for q in range(k):
            low, c = _lowest(rest)
            rest ^= low
            under[q] = c - q
            for below in range(free + 1):
                set_term[q, below] = _BINOM[c, q + 1 + below]
        free_term = np.empty((free, n_avail), dtype=np.int64)
        for a in range(n_avail):
            card = avail[i, a]
            for j in range(free):
                free_term[j, a] = _BINOM[card, j + 1 + card - a]
        for row in range(lo, min(per_set, lo + MARK_CHUNK)):
            r = 0
            for j in range(free):
                r += free_term[j, combos[row, j]]
            for q in range(k):
                below = 0
                for j in range(free):
                    below += combos[row, j] < under[q]
                r += set_term[q, below]
            marks[r] = True


@njit(cache=True, parallel=True)
def marked_masks(marks, size, table):
    """The masks of ``size`` cards (2 or more) with a non-zero mark, ascending, and the
    ``table`` entry of each one's mark (``float64``: a weight). In colex order the lowest card
    runs through ``0 .. c2 - 1`` under each set of the other cards (``c2`` the lowest of them),
    so the inner loop only ORs one bit."""
    total = len(marks)
    tasks = (total + MARK_CHUNK - 1) // MARK_CHUNK
    counts = np.zeros(tasks + 1, dtype=np.int64)
    for task in prange(tasks):
        found = 0
        for r in range(task * MARK_CHUNK, min(total, (task + 1) * MARK_CHUNK)):
            found += marks[r] != 0
        counts[task + 1] = found
    starts = np.cumsum(counts)
    out = np.empty(starts[-1], dtype=np.uint64)
    values = np.empty(starts[-1], dtype=table.dtype)
    for task in prange(tasks):
        if starts[task + 1] == starts[task]:
            continue
        r = task * MARK_CHUNK
        end = min(total, r + MARK_CHUNK)
        pos = starts[task]
        low, c = _lowest(_unrank(r, size))
        upper = _unrank(r, size) ^ low  # the cards above the lowest
        while r < end:
            top = min(end - r, _lowest(upper)[1] - c)  # the lowest card runs c .. c2 - 1
            for j in range(top):
                v = marks[r + j]
                if v:
                    out[pos] = upper | (_ONE << uint64(c + j))
                    values[pos] = table[v]
                    pos += 1
            r += top
            c = 0
            upper = _next(upper >> _ONE) << _ONE  # the next set of cards from 1 up
    return out, values


@njit(cache=True, parallel=True)
def colex_masks(cards, size):
    """Every mask of ``size`` of the (ascending) ``cards``, ascending."""
    n = len(cards)
    total = 1
    for i in range(size):  # C(n, size), exact at every step
        total = total * (n - i) // (i + 1)
    out = np.empty(total, dtype=np.uint64)
    for task in prange((total + MARK_CHUNK - 1) // MARK_CHUNK):
        lo = task * MARK_CHUNK
        x = _unrank(lo, size)  # the subset of positions in ``cards``
        for r in range(lo, min(total, lo + MARK_CHUNK)):
            m = uint64(0)
            rest = x
            while rest:
                low, c = _lowest(rest)
                m |= _ONE << uint64(cards[c])
                rest ^= low
            out[r] = m
            x = _next(x)
    return out


@njit(cache=True, parallel=True)
def mask_codes(masks, out):
    """``out[n - 1 - i]``: the card codes of ``masks[i]``, descending (``out`` is ``(n, size)``;
    ascending masks give rows in descending order)."""
    n = len(masks)
    size = out.shape[1]
    for task in prange((n + MARK_CHUNK - 1) // MARK_CHUNK):
        for i in range(task * MARK_CHUNK, min(n, (task + 1) * MARK_CHUNK)):
            rest = masks[i]
            row = n - 1 - i
            for column in range(size - 1, -1, -1):
                low, c = _lowest(rest)
                out[row, column] = c
                rest ^= low
