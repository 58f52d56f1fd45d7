"""How Monte Carlo draws a joint holding (one holding per player), as arrays for the kernels.

The distribution is the one ``shared/definitions.md`` defines: every joint holding whose
holdings share no card, with probability proportional to the product of their weights. Two ways
to draw from it, both exact:

* **one alias table over the joint holdings** themselves, when there are few of them (at most
  :data:`JOINT_LIMIT`): one draw, never a rejection. Heads-up ranges of a few dozen combos each
  have about a thousand; a hold'em deal then costs a sixth less than the way below, and the
  table still fits in the core's cache;
* otherwise **one alias table per player**, the whole joint draw rejected when two holdings
  share a card (``_sampling.draw_holding``).

Which way a problem takes depends only on the problem, never on the thread count, so a seeded
run stays the same on any number of threads.
"""

from __future__ import annotations

import itertools
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "JOINT_LIMIT",
    "HoldingDraw",
    "alias_tables",
    "holding_draw",
    "unit_weights",
    "weight_peaks",
]

JOINT_LIMIT = 1 << 15
"""The most joint holdings drawn from one table. ``benchmarks/bench_mc_parts.py`` deals
heads-up spots both ways: the table gives 1.2x the deals per second at 1,284 and 6,330 joint
holdings, 1.16x at 22,904, 0.99x at 46,092 and 0.79x at 192,592, as it leaves the cache."""

_BUILD_LIMIT = 4 * JOINT_LIMIT
"""The most pairs (joint holdings so far x the next player's holdings) the build looks at
before it gives up on the joint table: keeps the build under a millisecond or two."""


class HoldingDraw(NamedTuple):
    """Everything a kernel needs to draw joint holdings (``_sampling.draw_holding``).

    ``masks``: one card mask per holding; ``offsets``: player ``p``'s holdings are rows
    ``offsets[p]:offsets[p + 1]``; ``prob``/``alias``: each player's alias table over its own
    holdings. ``joint_rows``: one row per valid joint holding (the holding of each player, as
    flat row indices), ``joint_used`` its cards and ``joint_prob``/``joint_alias`` the alias
    table over them; no row at all when the joint holdings are too many to list."""

    masks: NDArray[np.uint64]
    offsets: NDArray[np.int64]
    prob: NDArray[np.float64]
    alias: NDArray[np.int64]
    joint_rows: NDArray[np.int32]
    joint_used: NDArray[np.uint64]
    joint_prob: NDArray[np.float64]
    joint_alias: NDArray[np.int64]


def weight_peaks(weights: NDArray[np.float64], offsets: NDArray[np.int64]) -> NDArray[np.float64]:
    """Each player's largest weight (player ``p``'s are ``weights[offsets[p]:offsets[p + 1]]``)."""
    return np.array([weights[a:b].max() for a, b in itertools.pairwise(offsets.tolist())])


def unit_weights(weights: NDArray[np.float64], offsets: NDArray[np.int64]) -> NDArray[np.float64]:
    """Each player's weights divided by that player's largest. The distribution of joint
    holdings is the same (it depends on the weights only up to a factor per player), and a
    product of one weight per player cannot underflow: ``AA:1e-200,KK:5e-201`` against
    ``QQ:1e-200`` would otherwise give every joint holding a weight of 0."""
    return weights / np.repeat(weight_peaks(weights, offsets), np.diff(offsets))


def alias_tables(
    weights: NDArray[np.float64], offsets: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Walker/Vose alias tables, one per player's slice: ``prob`` (acceptance of the column)
    and ``alias`` (the other combo of the column, relative to the slice start)."""
    from pokerlab.engine._sampling import alias_slice  # numba: loaded when a run samples

    prob = np.ones(len(weights), dtype=np.float64)
    alias = np.zeros(len(weights), dtype=np.int64)
    for p in range(len(offsets) - 1):
        lo, hi = int(offsets[p]), int(offsets[p + 1])
        w = weights[lo:hi]
        n = hi - lo
        alias[lo:hi] = np.arange(n)
        if np.all(w == w[0]):
            continue
        alias_slice(w * n / w.sum(), prob[lo:hi], alias[lo:hi])
    return prob, alias


def holding_draw(
    masks: NDArray[np.uint64],
    offsets: NDArray[np.int64],
    weights: NDArray[np.float64],
    joint_limit: int | None = None,
) -> HoldingDraw:
    """The arrays to draw joint holdings of these holdings (see :class:`HoldingDraw`), with the
    joint table when the valid joint holdings number at most ``joint_limit`` (default
    :data:`JOINT_LIMIT` as it is when called, so a benchmark can set it; 0: never)."""
    prob, alias = alias_tables(weights, offsets)
    n = len(offsets) - 1
    limit = JOINT_LIMIT if joint_limit is None else joint_limit
    joint = _joint_holdings(masks, offsets, unit_weights(weights, offsets), limit)
    if joint is None:
        rows = np.zeros((0, n), dtype=np.int32)
        used = np.zeros(0, dtype=np.uint64)
        jprob, jalias = np.ones(0), np.zeros(0, dtype=np.int64)
    else:
        rows, used, jweights = joint
        jprob, jalias = alias_tables(jweights, np.array([0, len(jweights)], dtype=np.int64))
    return HoldingDraw(masks, offsets, prob, alias, rows, used, jprob, jalias)


def _joint_holdings(
    masks: NDArray[np.uint64], offsets: NDArray[np.int64], weights: NDArray[np.float64],
    limit: int,
) -> tuple[NDArray[np.int32], NDArray[np.uint64], NDArray[np.float64]] | None:  # fmt: skip
    """``(rows, used, weights)`` of every joint holding that uses no card twice (row order:
    player 0's holding slowest), or ``None`` when there are more than ``limit`` of them (or
    the build would look at too many pairs to find out)."""
    if limit <= 0:
        return None
    n = len(offsets) - 1
    rows = np.zeros((1, 0), dtype=np.int32)
    used = np.zeros(1, dtype=np.uint64)
    joint_weights = np.ones(1)
    for p in range(n):
        lo, hi = int(offsets[p]), int(offsets[p + 1])
        if len(used) * (hi - lo) > max(_BUILD_LIMIT, limit):
            return None
        mine = masks[lo:hi]
        before, holding = np.nonzero((used[:, None] & mine[None, :]) == 0)
        if len(before) > limit:
            return None
        rows = np.concatenate([rows[before], (lo + holding).astype(np.int32)[:, None]], axis=1)
        used = used[before] | mine[holding]
        joint_weights = joint_weights[before] * weights[lo + holding]
    if not len(used):
        return None  # no valid joint holding: the rejecting draw reports it as always
    return np.ascontiguousarray(rows), used, joint_weights
