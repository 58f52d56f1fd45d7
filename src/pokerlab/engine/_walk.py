"""The loops every exact kernel shares (numba, inlined into their callers).

* :func:`unseen_deck`: the cards a mask leaves, in code order; :func:`unrank_combination`,
  :func:`next_combination`: the k-subsets of them (runouts, draws) in lexicographic order.
* :func:`units_span`, :func:`stripe_run`: a chunk of units, each item (a runout, a holding)
  cut into ``stripes`` units that are equal runs of some list (a player's rows, the choices of
  cards to deal).
* :func:`next_joint_holding`: a depth-first walk over the players' holdings (one per player,
  player ``p``'s rows ``first[p]..last[p] - 1``, usually ``offsets[:-1]`` and ``offsets[1:]``;
  a chunk of the walk narrows player 0's rows), pruned at the first card used twice, with
  the product of the holdings' weights kept per level. The walk is resumable: start it with
  :func:`start_walk`, then each call returns with ``chosen[:depth]`` the next joint holding
  (``weight[depth]`` its weight, ``used[depth]`` its cards) or -1 when there is none left::

      level = start_walk(first, pos, used, weight, base_mask)
      while True:
          level = next_joint_holding(level, depth, first, last, masks, weights, pos, chosen,
                                     used, weight)
          if level < 0:
              break
          ...  # credit chosen[:depth] with weight[depth]
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit

_ONE = np.uint64(1)
_BYTE = np.uint64(255)


@njit(cache=True, inline="always")
def lower_bound(row, size, x):
    """First index of ``row[:size]`` (ascending) whose value is not below ``x``."""
    lo = 0
    hi = size
    while lo < hi:
        mid = (lo + hi) >> 1
        if row[mid] < x:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True, inline="always")
def unseen_deck(used, deck):
    """``deck[:nd]`` = the cards not in the mask ``used``, in code order; returns ``nd``."""
    nd = np.int64(0)  # typed int64 at once: no Literal[int](0) specialisation of callees
    for c in range(52):
        if not (used >> uint64(c)) & _ONE:
            deck[nd] = c
            nd += 1
    return nd


@njit(cache=True)
def unrank_combination(index, n, k, out):
    """``out[:k]`` = the ``index``-th k-subset of ``range(n)`` in lexicographic order."""
    x = 0
    for i in range(k):
        # choose the smallest next element c with enough subsets after it
        while True:
            rest = binom(n - x - 1, k - i - 1)
            if index < rest:
                out[i] = x
                x += 1
                break
            index -= rest
            x += 1


@njit(cache=True)
def binom(n, k):
    if k < 0 or k > n:
        return 0
    r = 1
    for i in range(k):
        r = r * (n - i) // (i + 1)
    return r


@njit(cache=True)
def next_combination(idx, k, n):
    """Advance ``idx[:k]`` to the next k-subset of ``range(n)``: returns the first position
    that changed (the ones after it changed too), or -1 after the last subset."""
    i = k - 1
    while i >= 0 and idx[i] == n - k + i:
        i -= 1
    if i < 0:
        return -1
    idx[i] += 1
    for j in range(i + 1, k):
        idx[j] = idx[j - 1] + 1
    return i


@njit(cache=True, inline="always")
def units_span(start, stop, stripes):
    """``(first, end)``: the whole items (runouts, holdings) that units ``start..stop-1`` touch
    when each item is cut into ``stripes`` units (unit ``u`` is stripe ``u % stripes`` of item
    ``u // stripes``)."""
    first = start // stripes
    return first, ((stop - 1) // stripes + 1 if stop > start else first)


@njit(cache=True, inline="always")
def stripe_run(item, start, stop, stripes, size):
    """``(lo, hi)``: the part ``lo..hi-1`` of an item's ``size`` things (rows, choices) that
    units ``start..stop-1`` cover, its stripes being ``stripes`` equal runs of them."""
    unit = item * stripes
    lo = max(start - unit, 0)
    hi = min(stop - unit, stripes)
    return size * lo // stripes, size * hi // stripes


@njit(cache=True, inline="always")
def start_walk(first, pos, used, weight, base):
    """Set up :func:`next_joint_holding` with the cards ``base`` already used."""
    used[0] = base
    weight[0] = 1.0
    pos[0] = first[0] - 1
    return 0


@njit(cache=True, inline="always")
def next_joint_holding(level, depth, first, last, masks, weights, pos, chosen, used, weight):
    """Advance the walk to the next joint holding of the first ``depth`` players (see the
    module docstring); ``masks``: one card mask per holding. Returns ``depth - 1``, or -1 at
    the end."""
    p = level
    while p >= 0:
        pos[p] += 1
        if pos[p] >= last[p]:
            p -= 1
            continue
        t = pos[p]
        if masks[t] & used[p]:
            continue
        chosen[p] = t
        used[p + 1] = used[p] | masks[t]
        weight[p + 1] = weight[p] * weights[t]
        if p + 1 < depth:
            p += 1
            pos[p] = first[p] - 1
            continue
        return p
    return -1


@njit(cache=True, inline="always")
def orbit_size(cards, k, sym, image):
    """Suit symmetry of a runout: ``cards[:k]`` (ascending card codes) under the suit
    permutations ``sym`` (one card map per row, the identity left out) that map every player's
    range, the board and the dead cards onto themselves. Returns 0 unless the runout is the
    smallest (lexicographically, sorted) of its orbit, else the orbit's size, so enumerating
    the smallest runouts with that weight counts every runout once. ``image``: scratch of
    ``k``."""
    m = sym.shape[0]
    if m == 0:
        return 1
    fixed = 1
    for g in range(m):
        for i in range(k):
            image[i] = sym[g, cards[i]]
        for i in range(1, k):  # insertion sort, k <= 5
            x = image[i]
            j = i - 1
            while j >= 0 and image[j] > x:
                image[j + 1] = image[j]
                j -= 1
            image[j + 1] = x
        order = 0
        for i in range(k):
            if image[i] != cards[i]:
                order = -1 if image[i] < cards[i] else 1
                break
        if order < 0:
            return 0
        if order == 0:
            fixed += 1
    return (m + 1) // fixed


@njit(cache=True)
def stable_argsort(keys):
    """``np.argsort(keys, kind="stable")`` (the same permutation) of int64 keys, written out as
    a least-significant-digit radix sort on bytes of ``key - min(keys)`` (as many passes as the
    span has bytes: two for hand strengths): faster than numba's mergesort on these keys, and
    it compiles in a fraction of its 1.7 s of CPU."""
    n = keys.shape[0]
    order = np.empty(n, np.int64)
    if n == 0:
        return order
    lo = keys[0]
    hi = keys[0]
    for i in range(n):
        lo = min(lo, keys[i])
        hi = max(hi, keys[i])
    span = np.uint64(hi - lo)
    digits = np.empty(n, np.uint64)
    for i in range(n):
        order[i] = i
        digits[i] = np.uint64(keys[i] - lo)
    spare_order = np.empty(n, np.int64)
    spare_digits = np.empty(n, np.uint64)
    count = np.empty(257, np.int64)
    shift = np.uint64(0)
    while True:
        for d in range(257):
            count[d] = 0
        for i in range(n):
            count[((digits[i] >> shift) & _BYTE) + 1] += 1
        for d in range(256):
            count[d + 1] += count[d]
        for i in range(n):
            d = (digits[i] >> shift) & _BYTE
            at = count[d]
            count[d] += 1
            spare_order[at] = order[i]
            spare_digits[at] = digits[i]
        order, spare_order = spare_order, order
        digits, spare_digits = spare_digits, digits
        shift += np.uint64(8)
        if shift >= np.uint64(64) or (span >> shift) == np.uint64(0):
            return order


@njit(cache=True)
def dense_ranks(keys):
    """``(levels, ranks)``: the number of distinct values of ``keys`` and, per key, its index
    among them in increasing order (``np.searchsorted(np.unique(keys), keys)``, written out
    with :func:`stable_argsort`: numba's ``np.unique`` and ``np.searchsorted`` cost 1.8 s of CPU
    to compile)."""
    order = stable_argsort(keys)
    ranks = np.empty(keys.shape[0], np.int64)
    levels = 0
    for i in range(keys.shape[0]):
        if i > 0 and keys[order[i]] != keys[order[i - 1]]:
            levels += 1
        ranks[order[i]] = levels
    return (levels + 1 if keys.shape[0] > 0 else 0), ranks
