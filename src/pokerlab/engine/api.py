"""The one equity entry point: :func:`equity`."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from pokerlab._numbers import is_real
from pokerlab._threads import resolve_threads, threads_asked
from pokerlab.cards import Card
from pokerlab.engine._control import (
    CancelLike,
    Control,
    PartialCallback,
    ProgressCallback,
    Stopping,
    check_callbacks,
    check_seed,
    is_cancelled,
)
from pokerlab.engine.limits import check_exact_options, check_seconds, estimate_text
from pokerlab.engine.methods import Method, read_method
from pokerlab.engine.problem import PlayerInput, Problem, prepare
from pokerlab.engine.result import EquityResult, PlayerEquity
from pokerlab.engine.tally import player_stats
from pokerlab.errors import CancelledError, GameError, TooLargeError
from pokerlab.games import Game

if TYPE_CHECKING:
    from pokerlab.engine.strategies import Strategy

__all__ = ["AUTO_EXACT_SECONDS", "MAX_EXACT_SECONDS", "TOO_LARGE_HINT", "equity", "refusal_tail"]

AUTO_EXACT_SECONDS = 2.0
"""``method="auto"`` enumerates when the estimated exact time is at most this."""
AUTO_EXACT_SHARE = 0.5
"""...and, with a ``time_limit``, at most this share of it (estimates may be 2x off, and a
machine busy with other work runs slower)..."""
AUTO_EXACT_DEADLINE = 0.8
"""...and an exact run still going at this share of the time limit is stopped for Monte Carlo
with the time left (at least :data:`AUTO_SAMPLE_SECONDS`), so that auto answers on time."""
AUTO_SAMPLE_SECONDS = 0.05
"""The least sampling time auto gives itself after an enumeration that ran out of time."""
MAX_EXACT_SECONDS = 1800.0
"""A forced exact run estimated above this is refused (:class:`TooLargeError`)."""
TOO_LARGE_HINT = "use Monte Carlo (--mc, method='monte-carlo') with a target standard error"
"""How a refused exact run can be made to finish."""


def _until(cancel: CancelLike, deadline: float | None) -> CancelLike:
    """``cancel``, or also the passing of ``deadline`` (``time.perf_counter``) when one is set."""
    if deadline is None:
        return cancel
    return lambda: is_cancelled(cancel) or time.perf_counter() >= deadline


class _Reported:
    """A progress callback that remembers the last fraction it passed on, so that a run which
    goes on another way (auto's sampling after its enumeration ran out of time) reports on
    from there instead of starting the bar again."""

    def __init__(self, progress: ProgressCallback | None) -> None:
        self.progress = progress
        self.last = 0.0

    def __call__(self, fraction: float) -> None:
        self.last = fraction
        if self.progress is not None:
            self.progress(fraction)

    def rest(self) -> ProgressCallback | None:
        """``progress`` for the rest of the run: fraction ``f`` of it as ``last + (1 - last) f``."""
        progress, last = self.progress, self.last
        if progress is None:
            return None
        return lambda fraction: progress(last + (1.0 - last) * fraction)


def refusal_tail(max_exact_seconds: float) -> str:
    """How the refusal of a forced exact run over ``max_exact_seconds`` ends (a server swaps
    it for words of its own form)."""
    return f"over the limit of {max_exact_seconds:,g} s; {TOO_LARGE_HINT}"


DEFAULT_STDERR = 0.001
DEFAULT_TIME_LIMIT = 30.0


class _Engine(NamedTuple):
    exact_strategy: Callable[[Problem], Strategy | None]
    for_enumeration: Callable[[Problem, float], Problem | None]
    monte_carlo: Strategy
    executor_workers: Callable[[Any], int]


@functools.cache
def _engine() -> _Engine:
    """The strategies and the executor probe, imported on the first equity call (14 ms that
    ``import pokerlab`` alone does without) and then kept (a function-level import costs
    microseconds on every call)."""
    from pokerlab.engine._parallel import executor_workers
    from pokerlab.engine.exact import for_enumeration
    from pokerlab.engine.strategies import MONTE_CARLO, exact_strategy

    return _Engine(exact_strategy, for_enumeration, MONTE_CARLO, executor_workers)


def _listed(engine: _Engine, problem: Problem, method: str, budget: float) -> Problem | None:
    """What an exact run would enumerate (:func:`~pokerlab.engine.exact.for_enumeration`):
    ``auto`` lists a dealt ``random`` hand only when enumerating it may fit its ``budget``,
    and samples where the list is too long; a forced exact run lists it or says why it
    cannot."""
    if method == "exact":
        return engine.for_enumeration(problem, math.inf)
    try:
        return engine.for_enumeration(problem, budget)
    except TooLargeError:
        return None


def equity(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
    method: Method = "auto",
    *,
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
    threads: int | None = None,
    partial: PartialCallback | None = None,
    client: Any = None,
    max_exact_seconds: float | None = None,
) -> EquityResult:
    """Equity of each player: hands (``"AhAs"``) or ranges (``"QQ+,AKs"``, a :class:`Range`).

    ``method``: ``"exact"`` enumerates every deal (``trials``, ``stderr``, ``time_limit`` and
    ``seed`` are then refused: they steer sampling); ``"monte-carlo"`` (or ``"mc"``) samples
    deals without bias until ``trials`` deals, a target ``stderr`` or ``time_limit`` seconds
    (defaults: stderr 0.001 within 30 s); ``"auto"`` enumerates when that is estimated to take
    at most :data:`AUTO_EXACT_SECONDS` (and at most half of ``time_limit``), else samples; an
    exact run chosen so and still going at 80 % of ``time_limit`` gives way to sampling for the
    rest of it (the result says ``"monte-carlo"``).
    ``progress(fraction)`` is called between chunks; ``cancel`` (an Event or a callable) stops
    the run: an exact run raises
    :class:`~pokerlab.errors.CancelledError`, a Monte Carlo run returns what it has sampled.
    ``threads``: how many threads to run on (default: every available core, see
    :func:`pokerlab._threads.resolve_threads`); exact results, and Monte Carlo results with a
    ``seed`` stopped by ``trials`` or ``stderr``, are the same for any thread count.
    ``partial(samples, equities, stderrs)`` (Monte Carlo only) gets the running estimates after
    each chunk; its last call matches the result.

    ``client``: run the job's chunks on the workers of a ``dask.distributed.Client`` (or of any
    executor with ``submit``, such as a ``ProcessPoolExecutor``; pokerlab must be importable
    there), merged here in chunk order: the same bits as without a client, exact or Monte Carlo
    with a ``seed`` stopped by ``trials`` or ``stderr``; a ``time_limit`` stops after the chunks
    merged by then (best effort). ``threads`` then does not apply.

    ``max_exact_seconds`` (default :data:`MAX_EXACT_SECONDS`): a forced exact run estimated at
    more seconds of one core is refused at once (:class:`~pokerlab.errors.TooLargeError`), and
    ``auto`` samples it; a server lowers it to its own limit.

    >>> r = equity(["AdAc", "KhKs"])
    >>> r.method, r.samples, round(r.players[0].equity, 6)
    ('exact', 1712304, 0.812555)
    >>> equity(["AsKs", "QQ"], board="Qh7c2d", method="mc", trials=20000, seed=1).method
    'monte-carlo'

    Other games (``pokerlab.games``) take pattern ranges; split games add ``hi``, ``lo`` and
    ``scoop`` per player:

    >>> r = equity(["AsAhKsKh", "JdTd9c8c"], game="omaha")
    >>> r.samples, round(r.players[0].equity, 6)
    (1086008, 0.614813)
    >>> p = equity(["As2sKd3d", "AA**$ds"], board="Qs7d2c", game="omaha-hilo").players[0]
    >>> round(p.equity, 4) == round(p.hi + p.lo, 4), p.scoop == p.win
    (True, True)
    """
    engine = _engine()
    started = time.perf_counter()
    method = read_method(method)
    check_exact_options(method, trials=trials, stderr=stderr, time_limit=time_limit, seed=seed)
    seed = check_seed(seed)  # before any answer: the shipped table's needs no Control to check it
    given = trials is not None or stderr is not None or time_limit is not None
    # checked now, not only where auto would sample
    stopping = Stopping(trials, stderr, time_limit) if given else None
    check_callbacks(cancel, progress=progress, partial=partial)
    if max_exact_seconds is None:
        max_exact_seconds = MAX_EXACT_SECONDS
    else:
        check_seconds(max_exact_seconds, "max_exact_seconds")
    n_threads = resolve_threads(threads)
    if client is not None and not callable(getattr(client, "submit", None)):
        raise GameError(
            f"client must be a dask.distributed.Client or an executor with submit(), not "
            f"{type(client).__name__}",
            field="client",
        )
    with threads_asked(n_threads):  # a wide pattern range is listed in parallel
        raw = prepare(players, board, dead, game)
    if raw.shared_card and method == "exact":
        raise GameError(
            f"{raw.game.title} with {raw.n_players} players shares its seventh-street card "
            f"(the deck runs short), which only Monte Carlo answers: drop the exact method "
            f"(auto samples it)",
            field="method",
        )
    problem = raw.with_unit_weights()
    wants_mc = method == "monte-carlo"
    # a dealt random Omaha hand is listed for an exact run (not when it would only sample)
    # auto enumerates within its budget, and within the caller's time limit when there is one
    auto_limit = min(AUTO_EXACT_SECONDS, max_exact_seconds)
    if is_real(time_limit) and time_limit > 0:  # type: ignore[operator]
        auto_limit = min(auto_limit, AUTO_EXACT_SHARE * float(time_limit))  # type: ignore[arg-type]
    listed = None if wants_mc else _listed(engine, problem, method, auto_limit)
    exact = engine.exact_strategy(listed) if listed is not None else None
    estimate = exact.estimate(listed) if exact is not None and listed is not None else math.inf
    # a cluster shares the work: its workers together may take max_exact_seconds of wall time
    # asked only past one core's limit: a Dask client's worker count is a scheduler round trip
    too_large = method == "exact" and estimate > max_exact_seconds
    workers = 1 if client is None or not too_large else engine.executor_workers(client)
    if too_large and estimate > max_exact_seconds * workers:
        on = (
            "" if client is None else f" ({estimate_text(estimate / workers)} on {workers} workers)"
        )
        sizes = "x".join(f"{s:,}" for s in problem.range_sizes)
        raise TooLargeError(
            f"exact enumeration is too large: about {estimate_text(estimate)} of work{on} ({sizes} "
            f"combos per player), {refusal_tail(max_exact_seconds)}",
            field="method",
        )
    # The choice depends on the single-core estimate only, never on the thread count.
    run_exact = method == "exact" or (method == "auto" and estimate <= auto_limit)
    tally = None
    if exact is not None and listed is not None and run_exact and not wants_mc:
        deadline = None  # auto's with a time limit: past it, sampling answers on time
        if method == "auto" and stopping is not None and stopping.time_limit is not None:
            deadline = started + AUTO_EXACT_DEADLINE * stopping.time_limit
        reported = _Reported(progress)
        control = Control(threads=n_threads, progress=None if progress is None else reported,
                          cancel=_until(cancel, deadline), client=client)  # fmt: skip
        try:
            tally = exact.run(listed, control)
        except CancelledError:
            if deadline is None or is_cancelled(cancel):
                raise
            assert stopping is not None and stopping.time_limit is not None
            left = stopping.time_limit - (time.perf_counter() - started)
            stopping = Stopping(stopping.trials, stopping.stderr, max(left, AUTO_SAMPLE_SECONDS))
            progress = reported.rest()  # the bar goes on from where enumeration left it
    if tally is None:
        stopping = stopping or Stopping(None, DEFAULT_STDERR, DEFAULT_TIME_LIMIT)
        control = Control(n_threads, progress, cancel, stopping, seed, partial, client)
        tally = engine.monte_carlo.run(problem, control)
    split = problem.game.split
    stats = player_stats(tally.stats, tally.sampled, split)  # stderr NaN (unknown) for 1 deal
    players_out = tuple(
        PlayerEquity(text, st.equity, st.win, st.tie, st.tie_equity, st.stderr, size, st.hi,
                     st.lo, st.win if split else None)
        for text, st, size in zip(problem.inputs, stats, problem.range_sizes, strict=True)
    )  # fmt: skip
    return EquityResult(
        players=players_out,
        method="monte-carlo" if tally.sampled else "exact",
        samples=int(tally.deals),  # numpy's integer when trials was one: not JSON
        seconds=time.perf_counter() - started,
        game=problem.game.name,
        board=problem.board_text,
        dead=problem.dead_text,
        stopped=tally.stopped,
        counts=tally.stats if tally.sampled else tally.stats * math.prod(raw.weight_peaks()),
        shared_card=raw.shared_card,
        seed=tally.seed,
    )
