"""The Monte Carlo strategy: unbiased joint sampling (see ``_sampling``) with a standard error.

Deals are sampled in chunks of a fixed size (:data:`CHUNK_DEALS`, four times that for the fast
two-card high games); chunk ``i`` draws from its
own random stream (``SeedSequence(seed, spawn_key=(i,))``), and the chunks are merged and the
stopping rules checked in chunk order, after each chunk. Stopping rules: a number of deals
(``trials``), a target standard error (``stderr``: the largest player's standard error of equity
at or below it, checked from 1,000 deals on), or a time limit (``time_limit`` seconds);
whichever comes first. So a run with a seed that stops by ``trials`` or by ``stderr`` gives the
same answer on any number of threads, and with a client (chunk ``i`` drawn on a worker is chunk
``i`` drawn here; the chunks merged here in order, the rules checked after each as always); a
time limit or a cancellation stops after whatever chunks are done by then, and inside the chunk
being drawn (its kernel reads a :class:`~pokerlab.engine._control.StopFlag`: ranges that leave
few valid joint holdings can spend seconds rejecting draws within one chunk), whose deals drawn
so far count too (still unbiased: when a run stops does not depend on the deals; with a client,
chunks still running on workers then are dropped).
"""

from __future__ import annotations

import time

import numpy as np
from numpy.typing import NDArray

from pokerlab.engine._control import (
    Control,
    StopFlag,
    Stopping,
    fresh_seed,
    is_cancelled,
    nothing_sampled,
)
from pokerlab.engine._joint_draw import holding_draw
from pokerlab.engine._parallel import Chunks, Work, in_order
from pokerlab.engine.problem import Problem
from pokerlab.engine.tally import STATS, StopReason, Tally, from_winner_counts, player_stats
from pokerlab.errors import EmptyRangeError
from pokerlab.evaluation.codes import kernel_high

__all__ = ["CHUNK_DEALS", "MonteCarlo", "Stopping"]

CHUNK_DEALS = 1 << 14
"""Deals per chunk (four times as many in two-card high games, which deal them about ten times
faster): the unit of work of a thread and the points where stopping is checked."""
_MAX_REJECTS = 20_000_000
"""Rejected joint draws in a row after which a run gives up (a few tenths of a second): the
joint holdings exist (``prepare`` checked), but so few joint draws are valid that a deal costs
millions of draws. Six 5-card Omaha ``15%`` ranges accept 1.7 draws in a million: refused at
1,000,000, they now sample (slowly, with an honest standard error)."""


class _CutShort(Exception):
    """A chunk stopped inside its kernel by the run's stop flag: its tally of ``deals``."""

    def __init__(self, tally: NDArray[np.float64], deals: int) -> None:
        super().__init__(deals)
        self.tally = tally
        self.deals = deals


_MIN_DEALS_FOR_STDERR = 1000


class MonteCarlo:
    """Sample deals until a stopping rule holds (any game, any hands and ranges)."""

    name = "monte-carlo"

    def applies(self, problem: Problem) -> bool:
        return True

    def estimate(self, problem: Problem) -> float:
        return float("inf")  # it stops when told to

    def chunks(self, work: Work) -> Chunks[NDArray[np.float64]]:
        """Chunk ``i``: :data:`CHUNK_DEALS` deals of stream ``i`` of ``work.seed`` (the last
        one cut at ``work.trials``)."""
        return _Sampler(work.problem).chunks(work.seed, work.trials)

    def run(self, problem: Problem, control: Control) -> Tally:
        stopping = control.stopping or Stopping(None, 0.001, 30.0)
        seed = fresh_seed() if control.seed is None else control.seed
        sampler = _Sampler(problem)
        n = problem.n_players
        winner_counts = sampler.two_card_high
        total = np.zeros((n + 1, n) if winner_counts else (n + 1, STATS), dtype=np.float64)
        # A chunk of no deals compiles the sampling kernel on its first use (seconds, once per
        # install) before the clock starts: a time limit is sampling time. Counted in it, a
        # first --time 1 run compiled and sampled nothing ("no deal was sampled").
        sampler.chunk(seed, 0, 0)
        started = time.perf_counter()
        done = 0
        reason: StopReason | None = None
        limit = stopping.trials
        per_chunk = sampler.chunk_deals
        split = problem.game.split

        def stats_now() -> NDArray[np.float64]:
            return from_winner_counts(total) if winner_counts else total

        work = Work(problem, self.name, seed, limit)
        with StopFlag(control.cancel, stopping.time_limit) as stop:
            sampler.stop = stop.flag
            parts = in_order(sampler.chunks(seed, limit), control, work)
            index = 0
            try:
                while reason is None:
                    size = _size_of(limit, index, per_chunk)
                    try:
                        total += next(parts)
                    except _CutShort as cut:
                        total += cut.tally
                        size = cut.deals
                        reason = "cancelled" if is_cancelled(control.cancel) else "time"
                        if done + size == 0:
                            break
                    done += size
                    index += 1
                    elapsed = time.perf_counter() - started
                    fractions = [0.0]
                    if limit is not None:
                        fractions.append(done / limit)
                        if done >= limit:
                            reason = "trials"
                    current = (
                        player_stats(stats_now(), True, split)
                        if stopping.stderr is not None or control.partial is not None
                        else []
                    )
                    if control.partial is not None:
                        control.partial(
                            done, tuple(s.equity for s in current), tuple(s.stderr for s in current)
                        )
                    if stopping.stderr is not None:
                        worst = max(s.stderr for s in current)
                        fractions.append((stopping.stderr / worst) ** 2 if worst > 0 else 1.0)
                        if done >= _MIN_DEALS_FOR_STDERR and worst <= stopping.stderr:
                            reason = reason or "stderr"
                    if stopping.time_limit is not None:
                        fractions.append(elapsed / stopping.time_limit)
                        if elapsed >= stopping.time_limit:
                            reason = reason or "time"
                    if control.progress is not None:
                        control.progress(min(1.0, max(fractions)))
                    if reason is None and is_cancelled(control.cancel):
                        reason = "cancelled"
            finally:
                parts.close()
        if done == 0:
            raise nothing_sampled(reason == "cancelled", stopping.time_limit)
        return Tally(stats_now(), done, sampled=True, stopped=reason, seed=seed)


def _size_of(limit: int | None, index: int, per_chunk: int) -> int:
    """Deals of chunk ``index``: ``per_chunk``, the last one cut at ``limit``."""
    if limit is None:
        return per_chunk
    return max(0, min(per_chunk, limit - index * per_chunk))


class _Sampler:
    """The kernel arguments of one problem, and one chunk of deals from one stream."""

    def __init__(self, problem: Problem) -> None:
        from pokerlab.engine._tables import kernel_tables  # kernels load when a run needs them

        game = problem.game
        view = problem.dealing_random_hands()
        self.problem = view
        self.draw = holding_draw(view.combo_masks, view.offsets, view.weights)
        self.tables = kernel_tables(game)
        self.two_card_high = game.two_card_high
        self.chunk_deals = CHUNK_DEALS * (4 if self.two_card_high else 1)
        self.stop = _sampling_never()

    def chunks(self, seed: int, trials: int | None) -> Chunks[NDArray[np.float64]]:
        """Chunk ``i`` of a run of ``trials`` deals (``None``: no end) with ``seed``."""
        per_chunk = self.chunk_deals
        count = None if trials is None else -(-trials // per_chunk)
        return Chunks(count, lambda i: self.chunk(seed, i, _size_of(trials, i, per_chunk)))

    def chunk(self, seed: int, index: int, size: int) -> NDArray[np.float64]:
        """The tally of ``size`` deals from chunk ``index``'s stream (winner counts for
        two-card high games, else the statistics layout)."""
        from pokerlab.engine import _sampling

        p = self.problem
        n = p.n_players
        state = _sampling.chunk_state(seed, index)
        dead = np.uint64(p.dead_mask)
        if self.two_card_high:
            counts = np.zeros((n + 1, n), dtype=np.int64)
            rejected = _sampling.sample_deals(
                p.combos, p.held, self.draw, p.board, dead, size, _MAX_REJECTS, state, counts,
                self.tables, self.stop,
            )  # fmt: skip
            out = counts.astype(np.float64)
        else:
            game = p.game
            shared = int(p.shared_card)  # stud's shared seventh card: a one-card board
            out = np.zeros((n + 1, STATS), dtype=np.float64)
            rejected = _sampling.sample_deals_generic(
                p.combos, p.held, self.draw, p.board, dead, game.hole_cards - shared,
                game.board_cards + shared, size, _MAX_REJECTS, state, kernel_high(game.high),
                int(game.low), game.split, out, self.tables, self.stop,
            )  # fmt: skip
        if rejected <= _sampling.STOPPED:
            raise _CutShort(out, _sampling.STOPPED - rejected)
        if rejected < 0:
            raise EmptyRangeError(
                f"the ranges leave almost no valid deal: {_MAX_REJECTS:,} joint draws in a row "
                "used some card twice"
            )
        return out


def _sampling_never() -> NDArray[np.uint8]:
    """A stop flag nobody sets (a chunk run for a client, or before :meth:`MonteCarlo.run`)."""
    return np.zeros(1, dtype=np.uint8)
