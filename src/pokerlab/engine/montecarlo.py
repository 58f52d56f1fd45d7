"""Monte Carlo equity: unbiased joint sampling (see ``_sampling``) with a standard error.

Stopping rules, checked between chunks of about 0.1 s: a number of deals (``trials``), a target
standard error (``stderr``: the largest player's standard error of equity at or below it), or a
time limit (``time_limit`` seconds); whichever comes first. Reproducible: the same ``seed`` and
the same stopping by ``trials`` give the same answer.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.engine import _generic, _sampling
from pokerlab.engine._control import (
    CancelLike,
    Chunker,
    PartialCallback,
    ProgressCallback,
    is_cancelled,
)
from pokerlab.engine.exact import _tables
from pokerlab.engine.problem import Problem
from pokerlab.engine.result import PlayerStats, StopReason, player_stats, split_stats
from pokerlab.errors import EmptyRangeError, GameError
from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK

__all__ = ["Stopping", "alias_tables", "sample"]

_MAX_REJECTS = 1_000_000


@dataclass(frozen=True)
class Stopping:
    """When a Monte Carlo run stops; at least one of the three must be set."""

    trials: int | None = None
    stderr: float | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.trials is None and self.stderr is None and self.time_limit is None:
            raise GameError(
                "Monte Carlo needs a stopping rule: trials, stderr or a time limit", field="trials"
            )
        if self.trials is not None and self.trials < 1:
            raise GameError(f"trials must be at least 1, got {self.trials}", field="trials")
        if self.stderr is not None and not 0 < self.stderr < 1:
            raise GameError(
                f"target stderr must be between 0 and 1, got {self.stderr}", field="stderr"
            )
        if self.time_limit is not None and not self.time_limit > 0:
            raise GameError(
                f"time limit must be positive, got {self.time_limit}", field="time_limit"
            )


def alias_tables(
    weights: NDArray[np.float64], offsets: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.int64]]:
    """Walker/Vose alias tables, one per player's slice: ``prob`` (acceptance of the column)
    and ``alias`` (the other combo of the column, relative to the slice start)."""
    prob = np.ones(len(weights), dtype=np.float64)
    alias = np.zeros(len(weights), dtype=np.int64)
    for p in range(len(offsets) - 1):
        lo, hi = int(offsets[p]), int(offsets[p + 1])
        w = weights[lo:hi]
        n = hi - lo
        alias[lo:hi] = np.arange(n)
        if np.all(w == w[0]):
            continue
        scaled = (w * n / w.sum()).tolist()
        small = [i for i, x in enumerate(scaled) if x < 1.0]
        large = [i for i, x in enumerate(scaled) if x >= 1.0]
        while small and large:
            s, g = small.pop(), large.pop()
            prob[lo + s] = scaled[s]
            alias[lo + s] = g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1.0 else large).append(g)
        for i in small + large:  # numerical leftovers are full columns
            prob[lo + i] = 1.0
            alias[lo + i] = i
    return prob, alias


def sample(
    problem: Problem,
    stopping: Stopping,
    seed: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
    partial: PartialCallback | None = None,
) -> tuple[NDArray[np.float64], int, StopReason]:
    """Sample until a stopping rule holds; return the tally (hold'em: counts layout of
    ``_showdown``; other games: statistics layout of ``_generic``), deals sampled, and why it
    stopped. ``partial`` gets the running estimates after each chunk."""
    n = problem.n_players
    prob, alias = alias_tables(problem.weights, problem.offsets)
    state = _sampling.seed_state(
        seed if seed is not None else int(np.random.SeedSequence().entropy)  # type: ignore[arg-type]
    )
    generic = problem.game.name != "holdem"
    counts = np.zeros((n + 1, n), dtype=np.int64)
    stats = np.zeros((n + 1, _generic.STATS), dtype=np.float64)
    mult, displace, values = _tables(problem.game)
    chunker = Chunker(first=2_000)

    def _done() -> int:
        return int(stats[n, 0] if generic else counts[n, 0])

    def _stats() -> list[PlayerStats]:
        if generic:
            return split_stats(stats, sampled=True, split=problem.game.split)
        return player_stats(counts.astype(np.float64), sampled=True)

    started = time.perf_counter()
    reason: StopReason | None = None

    def run(size: int) -> None:
        if generic:
            game = problem.game
            rejected = _sampling.sample_deals_generic(
                problem.combos, problem.held, problem.offsets, prob, alias, problem.board,
                np.uint64(problem.dead_mask), game.hole_cards, game.board_cards, size, _MAX_REJECTS,
                state,
                game.hi_code, game.lo_code, game.split, stats, CARD_KEY, CARD_MASK, mult,
                displace, values,
            )  # fmt: skip
        else:
            rejected = _sampling.sample_deals(
                problem.combos, problem.offsets, prob, alias, problem.board,
                np.uint64(problem.dead_mask), size, _MAX_REJECTS, state, counts, CARD_KEY,
                CARD_MASK, mult, displace, values,
            )  # fmt: skip
        if rejected < 0:
            raise EmptyRangeError(
                f"the ranges leave almost no valid deal: {_MAX_REJECTS:,} joint draws in a row "
                "used some card twice"
            )

    while reason is None:
        done = _done()
        size = chunker.size
        if stopping.trials is not None:
            size = min(size, stopping.trials - done)
        chunker.timed(run, size)
        done = _done()
        elapsed = time.perf_counter() - started
        fractions = [0.0]
        current = _stats() if stopping.stderr is not None or partial is not None else []
        if partial is not None:
            partial(done, tuple(s.equity for s in current), tuple(s.stderr for s in current))
        if stopping.trials is not None:
            fractions.append(done / stopping.trials)
            if done >= stopping.trials:
                reason = "trials"
        if stopping.stderr is not None:
            worst = max(s.stderr for s in current)
            fractions.append((stopping.stderr / worst) ** 2 if worst > 0 else 1.0)
            if done >= 1000 and worst <= stopping.stderr:
                reason = reason or "stderr"
        if stopping.time_limit is not None:
            fractions.append(elapsed / stopping.time_limit)
            if elapsed >= stopping.time_limit:
                reason = reason or "time"
        if progress is not None:
            progress(min(1.0, max(fractions)))
        if reason is None and is_cancelled(cancel):
            reason = "cancelled"
    return (stats if generic else counts.astype(np.float64)), _done(), reason
