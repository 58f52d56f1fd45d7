"""The value an equity computation returns, and how it is derived from raw counts.

Definitions (``shared/definitions.md``): on one deal a player's pot share is ``1/k`` if it is one
of ``k`` players tied for the best hand, else 0. ``equity`` is the expected share; ``win`` the
probability of taking the pot alone; ``tie`` the probability of a share strictly between 0 and 1;
``tie_equity`` the part of ``equity`` won through ties, so ``equity = win + tie_equity``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

import numpy as np
from numpy.typing import NDArray

__all__ = ["EquityResult", "PlayerEquity", "PlayerStats", "player_stats", "split_stats"]

Method = Literal["exact", "monte-carlo"]
StopReason = Literal["complete", "trials", "stderr", "time", "cancelled"]


@dataclass(frozen=True)
class PlayerEquity:
    """One player's result.

    Attributes:
        input: the hand or range as given.
        equity: expected share of the pot, 0..1.
        win: probability of winning the whole pot alone.
        tie: probability of ending with a share strictly between 0 and 1.
        tie_equity: the part of ``equity`` that comes from ties (``equity = win + tie_equity``).
        stderr: standard error of ``equity`` (0.0 for an exact result).
        combos: number of combos the player's range held after removing known cards.
        hi, lo: split-pot games only (else ``None``): the expected pot share won by the player's
            high hand and by its low hand (``equity = hi + lo``; when no low qualifies the high
            hand's share is the whole pot).
        scoop: split-pot games only: probability of taking the whole pot (equal to ``win``).
    """

    input: str
    equity: float
    win: float
    tie: float
    tie_equity: float
    stderr: float
    combos: int
    hi: float | None = None
    lo: float | None = None
    scoop: float | None = None

    @property
    def lose(self) -> float:
        """Probability of winning nothing."""
        return max(0.0, 1.0 - self.win - self.tie)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "input": self.input,
            "equity": self.equity,
            "win": self.win,
            "tie": self.tie,
            "tie_equity": self.tie_equity,
            "stderr": self.stderr,
            "combos": self.combos,
        }
        if self.hi is not None:
            out.update(hi=self.hi, lo=self.lo, scoop=self.scoop)
        return out


@dataclass(frozen=True)
class EquityResult:
    """The answer of :func:`pokerlab.equity`.

    Attributes:
        players: one :class:`PlayerEquity` per player, in input order.
        method: ``"exact"`` (full enumeration) or ``"monte-carlo"``.
        samples: exact: deals enumerated (joint holdings x board completions, PokerStove's
            "games"); Monte Carlo: deals sampled.
        seconds: wall time of the computation.
        game, board, dead: what was asked (cards in canonical text).
        stopped: why it ended: ``complete`` (exact), ``trials``, ``stderr``, ``time`` or
            ``cancelled`` (Monte Carlo; a cancelled Monte Carlo result is still unbiased).
        counts: the raw weighted counts (layout in ``pokerlab.engine._showdown``).
    """

    players: tuple[PlayerEquity, ...]
    method: Method
    samples: int
    seconds: float
    game: str
    board: str
    dead: str
    stopped: StopReason
    counts: NDArray[np.float64] = field(repr=False, compare=False)

    @property
    def equities(self) -> list[float]:
        return [p.equity for p in self.players]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (the CLI's ``--json`` and the web API print exactly this)."""
        return {
            "game": self.game,
            "board": self.board,
            "dead": self.dead,
            "method": self.method,
            "samples": self.samples,
            "seconds": self.seconds,
            "stopped": self.stopped,
            "players": [p.to_dict() for p in self.players],
        }


class PlayerStats(NamedTuple):
    equity: float
    win: float
    tie: float
    tie_equity: float
    stderr: float
    hi: float | None = None
    lo: float | None = None


def player_stats(counts: NDArray[np.float64], sampled: bool) -> list[PlayerStats]:
    """``(equity, win, tie, tie_equity, stderr)`` per player from a counts array.

    For a Monte Carlo run the per-deal share is 1, ``1/k`` or 0, so its variance follows from the
    same counts: ``E[X^2] = win + sum_k t_k / k^2``; ``stderr = sqrt(s^2 / n)`` with the sample
    variance ``s^2 = n / (n - 1) * (E[X^2] - E[X]^2)``.
    """
    n = counts.shape[1]
    total = float(counts[n, 0])
    out = []
    for p in range(n):
        win = counts[p, 0] / total
        tie = sum(counts[p, k - 1] for k in range(2, n + 1)) / total
        tie_equity = sum(counts[p, k - 1] / k for k in range(2, n + 1)) / total
        equity = win + tie_equity
        stderr = 0.0
        if sampled and total > 1:
            second = win + sum(counts[p, k - 1] / (k * k) for k in range(2, n + 1)) / total
            variance = max(0.0, second - equity * equity) * total / (total - 1)
            stderr = math.sqrt(variance / total)
        out.append(PlayerStats(float(equity), float(win), float(tie), float(tie_equity), stderr))
    return out


def split_stats(stats: NDArray[np.float64], sampled: bool, split: bool) -> list[PlayerStats]:
    """The same from the game-agnostic statistics (layout in ``_generic``): equity is the
    share, win the scoops, tie the partial shares; hi/lo for split-pot games."""
    n = stats.shape[0] - 1
    total = float(stats[n, 0])
    out = []
    for p in range(n):
        equity = stats[p, 0] / total
        win = stats[p, 2] / total
        stderr = 0.0
        if sampled and total > 1:
            variance = max(0.0, stats[p, 1] / total - equity * equity) * total / (total - 1)
            stderr = math.sqrt(variance / total)
        hi = float(stats[p, 4] / total) if split else None
        lo = float(stats[p, 5] / total) if split else None
        tie = float(stats[p, 3] / total)
        out.append(PlayerStats(float(equity), float(win), tie, float(equity - win), stderr, hi, lo))
    return out
