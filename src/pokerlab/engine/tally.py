"""The one result layout every strategy of the engine returns, and the statistics it gives.

A :class:`Tally` holds ``stats``, float64 of shape ``(n + 1, STATS)`` for ``n`` players: row
``p`` has player ``p``'s weighted sums of

* ``SHARE``: its pot share (1, a fraction when it ties or splits, or 0),
* ``SHARE_SQ``: the share squared (for the standard error of a sampled result),
* ``SCOOP``: deals it takes the whole pot (share 1),
* ``TIE``: deals it ends with a share strictly between 0 and 1,
* ``HI_SHARE``, ``LO_SHARE``: the parts of its share won by its high hand and by its low hand
  (split-pot games; in other games ``HI_SHARE == SHARE`` and ``LO_SHARE == 0``),

and ``stats[n, 0]`` is the total weight of the deals (``stats[n, 1:]`` are zero). Each deal is
weighted by the product of its holdings' range weights (1 for plain ranges, and for every sampled
deal). Every deal's shares add up to 1, so ``stats[:n, SHARE].sum() == stats[n, 0]``.

>>> counts = np.array([[3.0, 1.0], [0.0, 1.0], [4.0, 0.0]])  # 2 players: wins, 2-way ties
>>> from_winner_counts(counts)[:, [SHARE, SCOOP, TIE]].tolist()
[[3.5, 3.0, 1.0], [0.5, 0.0, 1.0], [4.0, 0.0, 0.0]]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = [
    "HI_SHARE",
    "LO_SHARE",
    "SCOOP",
    "SHARE",
    "SHARE_SQ",
    "STATS",
    "TIE",
    "PlayerStats",
    "StopReason",
    "Tally",
    "from_winner_counts",
    "player_stats",
    "sampled_stderr",
]

STATS = 6
SHARE, SHARE_SQ, SCOOP, TIE, HI_SHARE, LO_SHARE = range(STATS)

StopReason = Literal["complete", "trials", "stderr", "time", "cancelled"]


@dataclass(frozen=True)
class Tally:
    """What a strategy returns: ``stats`` (the layout above), the number of deals it
    enumerated or sampled, whether they were sampled, and why it stopped."""

    stats: NDArray[np.float64]
    deals: int
    sampled: bool
    stopped: StopReason = "complete"
    seed: int | None = None  # the seed the deals were sampled with


def from_winner_counts(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    """The layout above from the compact counts the single-pot hold'em kernels keep while they
    run (``counts[p, 0]``: weight of deals ``p`` wins alone; ``counts[p, k - 1]``, ``k >= 2``:
    deals where it is one of ``k`` tied best hands; ``counts[n, 0]``: total weight), for one
    array ``(n + 1, n)`` or a stack ``(..., n + 1, n)``."""
    counts = np.asarray(counts, dtype=np.float64)
    if counts.ndim == 2:
        return _from_winner_rows(counts)
    n = counts.shape[-1]
    inverse, inverse_sq = _tie_shares(n)
    per = counts[..., :n, :]
    stats = np.zeros((*counts.shape[:-2], n + 1, STATS), dtype=np.float64)
    for k in range(n):  # summed in k order: the same bits for one array and for a stack
        stats[..., :n, SHARE] += per[..., k] * inverse[k]
        stats[..., :n, SHARE_SQ] += per[..., k] * inverse_sq[k]
        if k:
            stats[..., :n, TIE] += per[..., k]
    stats[..., :n, SCOOP] = per[..., 0]
    stats[..., :n, HI_SHARE] = stats[..., :n, SHARE]
    stats[..., n, 0] = counts[..., n, 0]
    return stats


def _from_winner_rows(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    """:func:`from_winner_counts` of one ``(n + 1, n)`` array with Python floats, the same
    operations in the same order (so the same bits): a small result is a few microseconds here
    against twenty for the array slicing, and every exact run ends with one."""
    rows = counts.tolist()
    n = len(rows[0])
    inverse, inverse_sq = _tie_share_lists(n)
    out = [[0.0] * STATS for _ in range(n + 1)]
    for p in range(n):
        row, stats = rows[p], out[p]
        share = share_sq = tie = 0.0
        for k in range(n):
            share += row[k] * inverse[k]
            share_sq += row[k] * inverse_sq[k]
            if k:
                tie += row[k]
        stats[SHARE] = stats[HI_SHARE] = share
        stats[SHARE_SQ] = share_sq
        stats[TIE] = tie
        stats[SCOOP] = row[0]
    out[n][0] = rows[n][0]
    return np.array(out, dtype=np.float64)


@functools.cache
def _tie_share_lists(n: int) -> tuple[list[float], list[float]]:
    inverse, inverse_sq = _tie_shares(n)
    return inverse.tolist(), inverse_sq.tolist()


@functools.cache
def _tie_shares(n: int) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """``1/k`` and ``1/k**2`` for ``k = 1..n`` (the share of one of ``k`` tied players and its
    square), read-only."""
    k = np.arange(1, n + 1, dtype=np.float64)
    inverse, inverse_sq = 1.0 / k, 1.0 / (k * k)
    inverse.flags.writeable = inverse_sq.flags.writeable = False
    return inverse, inverse_sq


class PlayerStats(NamedTuple):
    equity: float
    win: float
    tie: float
    tie_equity: float
    stderr: float
    hi: float | None = None
    lo: float | None = None


def sampled_stderr(mean: Any, second: Any, n: float) -> Any:
    """The standard error of the mean of ``n`` sampled deals whose per-deal share ``X`` has
    mean ``mean`` and ``E[X^2]`` ``second`` (floats or arrays): ``sqrt(s^2 / n)`` with the sample
    variance ``s^2 = n / (n - 1) * (E[X^2] - E[X]^2)``; NaN (unknown) below two deals, where a
    spread of one deal would read as an exact 0.0.

    >>> float(sampled_stderr(0.5, 0.5, 4)), float(sampled_stderr(1.0, 1.0, 1))
    (0.28867513459481287, nan)
    """
    if n < 2:
        return np.full_like(np.asarray(mean, dtype=np.float64), np.nan)[()]
    return np.sqrt(np.maximum(second - np.square(mean), 0.0) * n / (n - 1) / n)


def player_stats(stats: NDArray[np.float64], sampled: bool, split: bool) -> list[PlayerStats]:
    """``(equity, win, tie, tie_equity, stderr, hi, lo)`` per player: equity is the mean share,
    win the scoops, tie the partial shares; hi/lo only for split-pot games. For sampled deals
    ``stderr = sqrt(s^2 / n)`` with the sample variance ``s^2 = n / (n - 1) * (E[X^2] -
    E[X]^2)`` of the per-deal share ``X`` (NaN, unknown, below two deals: :func:`sampled_stderr`);
    0.0 for an exact result."""
    rows = stats.tolist()  # Python floats divide as numpy's float64 do, without the overhead
    n = len(rows) - 1
    total = rows[n][0]
    if total == 0:  # no deal at all (a run cancelled at once): nan, as numpy divides
        total = np.float64(0.0)
    out = []
    for p in range(n):
        row = rows[p]
        equity = row[SHARE] / total
        win = row[SCOOP] / total
        stderr = 0.0
        if sampled:  # the running estimates (a stream's progress) too: NaN below two deals
            stderr = float(sampled_stderr(equity, row[SHARE_SQ] / total, total))
        hi = row[HI_SHARE] / total if split else None
        lo = row[LO_SHARE] / total if split else None
        tie = row[TIE] / total
        out.append(PlayerStats(equity, win, tie, equity - win, stderr, hi, lo))
    return out
