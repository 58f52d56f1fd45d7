"""numba kernel of :mod:`pokerlab.engine.rank_classes`: every joint holding, by the tuple of its
players' rank classes."""

from __future__ import annotations

import numpy as np

from pokerlab._jit import njit
from pokerlab.engine._walk import next_joint_holding, start_walk


@njit(cache=True, nogil=True)
def joint_rank_classes(offsets, masks, weights, class_of, strides, base, total_w, total_n, first):
    """Walk every joint holding (one holding per player, no card twice, none in ``base``) and
    add it to its key ``sum(class_of[holding of p] * strides[p])``: ``total_w[key]`` += the
    product of its weights, ``total_n[key]`` += 1; ``first[key]`` gets the holdings (one row
    per player) of the key's first joint holding, in walk order."""
    n = offsets.shape[0] - 1
    lo = offsets[:-1].copy()
    hi = offsets[1:].copy()
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    used = np.empty(n + 1, np.uint64)
    weight = np.empty(n + 1, np.float64)
    _walk_classes(lo, hi, masks, weights, class_of, strides, base, total_w, total_n, first, pos,
                  chosen, used, weight)  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _walk_classes(lo, hi, masks, weights, class_of, strides, base, total_w, total_n, first, pos,
                  chosen, used, weight):  # fmt: skip
    """The walk of :func:`joint_rank_classes` over its arrays, without reference counting (the
    inlined walk step counted a reference to each array it takes, per joint holding: 14 % of a
    razz spot's time on an Intel Xeon, ``perf``)."""
    n = lo.shape[0]
    level = start_walk(lo, pos, used, weight, base)
    while True:
        level = next_joint_holding(level, n, lo, hi, masks, weights, pos, chosen, used, weight)
        if level < 0:
            return
        key = 0
        for p in range(n):
            key += class_of[chosen[p]] * strides[p]
        if total_n[key] == 0:
            for p in range(n):
                first[key, p] = chosen[p]
        total_w[key] += weight[n]
        total_n[key] += 1
