"""The value an equity computation returns, and how it is derived from raw counts.

Definitions (``shared/definitions.md``): on one deal a player's pot share is ``1/k`` if it is one
of ``k`` players tied for the best hand, else 0. ``equity`` is the expected share; ``win`` the
probability of taking the pot alone; ``tie`` the probability of a share strictly between 0 and 1;
``tie_equity`` the part of ``equity`` won through ties, so ``equity = win + tie_equity``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import known_or_none
from pokerlab._results import UnknownFloats
from pokerlab.engine.tally import StopReason

__all__ = ["EquityResult", "PlayerEquity"]

Method = Literal["exact", "monte-carlo"]


@dataclass(frozen=True, eq=False)
class PlayerEquity(UnknownFloats):
    """One player's result.

    Attributes:
        input: the hand or range as given.
        equity: expected share of the pot, 0..1.
        win: probability of winning the whole pot alone.
        tie: probability of ending with a share strictly between 0 and 1.
        tie_equity: the part of ``equity`` that comes from ties (``equity = win + tie_equity``).
        stderr: standard error of ``equity`` (0.0 for an exact result; NaN, unknown, for a
            Monte Carlo run of fewer than two deals: JSON gives null).
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
            "stderr": known_or_none(self.stderr),  # unknown: null
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
        seed: Monte Carlo: the seed the deals were sampled with (the one given, or one drawn
            for the run), with which the same call gives the same answer unless a time limit
            or a cancel stopped it; ``None`` for an exact result.
        shared_card: stud only: the deck ran short of a seventh card per player, so the
            seventh street card was one card shared by all
            (:meth:`~pokerlab.games.Game.shares_last_card`).
        counts: the raw weighted sums, float64 ``(players + 1, 6)``, the same layout for every
            game and method (:mod:`pokerlab.engine.tally`): per player (rows) the sums of its
            pot share, share squared, scoops, ties, high share and low share; ``counts[n, 0]``
            is the total weight of the deals. Exact: each deal weighs the product of the
            players' range weights (as written: ``QQ:0.5`` counts half); Monte Carlo: each
            sampled deal weighs 1 (the weights chose which deals were drawn).
    """

    players: tuple[PlayerEquity, ...]
    method: Method
    samples: int
    seconds: float = field(compare=False)  # a timing, not part of the answer
    game: str
    board: str
    dead: str
    stopped: StopReason
    counts: NDArray[np.float64] = field(repr=False, compare=False)
    shared_card: bool = False
    seed: int | None = None

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
            "seed": self.seed,
            "shared_card": self.shared_card,
            "players": [p.to_dict() for p in self.players],
        }
