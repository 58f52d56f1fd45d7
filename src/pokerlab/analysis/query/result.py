"""What a query returns: one :class:`AggregateResult` per select item, inside a
:class:`QueryResult` that says how the deals were produced and how many passed ``where``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from pokerlab.engine.tally import StopReason

__all__ = ["AggregateResult", "Bucket", "QueryResult"]


@dataclass(frozen=True)
class Bucket:
    """One bar of a histogram: the share of the matched deals whose value falls in ``bucket``,
    with its standard error (0 when exact)."""

    bucket: str
    value: float
    stderr: float | None

    def to_dict(self) -> dict[str, Any]:
        return {"bucket": self.bucket, "value": self.value, "stderr": self.stderr}


@dataclass(frozen=True)
class AggregateResult:
    """One select item.

    ``value``: ``avg`` the weighted mean, ``count`` the fraction of matched deals where the
    condition holds (``count`` then holds the number of such deals, weighted by the combos'
    weights), ``min``/``max`` the extreme value seen (of a hand type: its name, as a
    histogram's bucket: ``'flush'``, razz ``'5-low'``), ``histogram`` a list of
    :class:`Bucket`; ``None`` when no deal matched. ``stderr``: 0 when exact, the standard error
    of a Monte Carlo estimate (a ratio estimator when ``where`` filters), ``None`` for a sampled
    ``min``/``max`` (an extreme of a sample has no unbiased estimate).
    """

    name: str
    aggregate: str
    value: float | str | list[Bucket] | None
    stderr: float | None
    count: float | None = None

    def to_dict(self) -> dict[str, Any]:
        value: Any = self.value
        if isinstance(value, list):
            value = [b.to_dict() for b in value]
        out: dict[str, Any] = {"name": self.name, "aggregate": self.aggregate, "value": value,
                               "stderr": self.stderr}  # fmt: skip
        if self.count is not None:
            out["count"] = self.count
        return out


@dataclass(frozen=True)
class QueryResult:
    """A query's answer.

    ``method`` is ``"exact"`` (every deal enumerated, weighted by the combos' weights) or
    ``"monte-carlo"`` (``deals`` sampled without bias, ``seed`` reproduces them); ``matched``
    is how many deals passed ``where`` (all when there is none); ``seconds`` the wall time;
    ``stopped`` why it ended, as :attr:`pokerlab.EquityResult.stopped`: ``complete`` (exact),
    ``trials``, ``stderr``, ``time`` or ``cancelled`` (what was sampled is still unbiased).
    """

    method: str
    deals: int
    matched: int
    results: tuple[AggregateResult, ...]
    seconds: float = field(compare=False)  # a timing, not part of the answer
    seed: int | None
    game: str
    players: tuple[tuple[str, str], ...]
    board: str
    dead: str
    stopped: StopReason = "complete"

    def __getitem__(self, name: str) -> AggregateResult:
        for r in self.results:
            if r.name == name:
                return r
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """The JSON contract: ``method``, ``deals``, ``matched``, ``results`` (``name``,
        ``value``, ``stderr``), plus ``seconds``, ``seed``, ``game``, ``players``, ``board``,
        ``dead`` and ``stopped``."""
        return {
            "method": self.method,
            "deals": self.deals,
            "matched": self.matched,
            "results": [r.to_dict() for r in self.results],
            "seconds": self.seconds,
            "seed": self.seed,
            "game": self.game,
            "players": [{"name": n, "input": t} for n, t in self.players],
            "board": self.board,
            "dead": self.dead,
            "stopped": self.stopped,
        }
