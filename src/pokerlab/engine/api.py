"""The one equity entry point: :func:`equity`."""

from __future__ import annotations

import functools
import math
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal

from pokerlab._threads import resolve_threads
from pokerlab.cards import Card
from pokerlab.engine._control import (
    CancelLike,
    Control,
    PartialCallback,
    ProgressCallback,
    Stopping,
    check_callbacks,
)
from pokerlab.engine.limits import check_exact_options
from pokerlab.engine.problem import PlayerInput, Problem, prepare
from pokerlab.engine.result import EquityResult, PlayerEquity
from pokerlab.engine.tally import player_stats
from pokerlab.errors import GameError, TooLargeError
from pokerlab.games import Game

if TYPE_CHECKING:
    from pokerlab.engine.strategies import Strategy

__all__ = ["AUTO_EXACT_SECONDS", "MAX_EXACT_SECONDS", "equity"]

AUTO_EXACT_SECONDS = 2.0
"""``method="auto"`` enumerates when the estimated exact time is at most this."""
MAX_EXACT_SECONDS = 1800.0
"""A forced exact run estimated above this is refused (:class:`TooLargeError`)."""
DEFAULT_STDERR = 0.001
DEFAULT_TIME_LIMIT = 30.0

Method = Literal["auto", "exact", "monte-carlo", "mc"]


@functools.cache
def _engine() -> tuple[Callable[[Problem], Strategy | None], Strategy, Callable[[Any], int]]:
    """The strategies and the executor probe, imported on the first equity call (14 ms that
    ``import pokerlab`` alone does without) and then kept (a function-level import costs
    microseconds on every call)."""
    from pokerlab.engine._parallel import executor_workers
    from pokerlab.engine.strategies import MONTE_CARLO, exact_strategy

    return exact_strategy, MONTE_CARLO, executor_workers


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
) -> EquityResult:
    """Equity of each player: hands (``"AhAs"``) or ranges (``"QQ+,AKs"``, a :class:`Range`).

    ``method``: ``"exact"`` enumerates every deal (``trials``, ``stderr``, ``time_limit`` and
    ``seed`` are then refused: they steer sampling); ``"monte-carlo"`` (or ``"mc"``) samples
    deals without bias until ``trials`` deals, a target ``stderr`` or ``time_limit`` seconds
    (defaults: stderr 0.001 within 30 s); ``"auto"`` enumerates when that is estimated to take
    at most :data:`AUTO_EXACT_SECONDS`, else samples. ``progress(fraction)`` is called between
    chunks; ``cancel`` (an Event or a callable) stops the run: an exact run raises
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
    exact_strategy, monte_carlo, executor_workers = _engine()
    started = time.perf_counter()
    if method not in ("auto", "exact", "monte-carlo", "mc"):
        raise GameError(
            f"unknown method '{method}': use auto, exact or monte-carlo", field="method"
        )
    check_exact_options(method, trials=trials, stderr=stderr, time_limit=time_limit, seed=seed)
    check_callbacks(cancel, progress=progress, partial=partial)
    n_threads = resolve_threads(threads)
    if client is not None and not callable(getattr(client, "submit", None)):
        raise GameError(
            f"client must be a dask.distributed.Client or an executor with submit(), not "
            f"{type(client).__name__}",
            field="client",
        )
    raw = prepare(players, board, dead, game)
    problem = raw.with_unit_weights()
    exact = exact_strategy(problem)
    estimate = exact.estimate(problem) if exact is not None else math.inf
    wants_mc = method in ("monte-carlo", "mc")
    if method == "exact" and exact is None:
        raise TooLargeError(
            f"exact enumeration of {problem.game.title} needs every player's hole cards as a "
            "range of holdings; a 'random' hand is only dealt by Monte Carlo (--mc, "
            "method='monte-carlo')"
        )
    # a cluster shares the work: its workers together may take MAX_EXACT_SECONDS of wall time
    # asked only past one core's limit: a Dask client's worker count is a scheduler round trip
    too_large = method == "exact" and estimate > MAX_EXACT_SECONDS
    workers = 1 if client is None or not too_large else executor_workers(client)
    if too_large and estimate > MAX_EXACT_SECONDS * workers:
        on = "" if client is None else f" ({estimate / workers:,.0f} s on {workers} workers)"
        raise TooLargeError(
            f"exact enumeration is too large: about {estimate:,.0f} s of work{on} "
            f"({'x'.join(str(s) for s in problem.sizes)} combos per player); use Monte Carlo "
            "(--mc, method='monte-carlo') with a target standard error",
            field="method",
        )
    # The choice depends on the single-core estimate only, never on the thread count.
    run_exact = method == "exact" or (method == "auto" and estimate <= AUTO_EXACT_SECONDS)
    if exact is not None and run_exact and not wants_mc:
        control = Control(threads=n_threads, progress=progress, cancel=cancel, client=client)
        tally = exact.run(problem, control)
    else:
        if trials is None and stderr is None and time_limit is None:
            stopping = Stopping(None, DEFAULT_STDERR, DEFAULT_TIME_LIMIT)
        else:
            stopping = Stopping(trials, stderr, time_limit)
        control = Control(n_threads, progress, cancel, stopping, seed, partial, client)
        tally = monte_carlo.run(problem, control)
    split = problem.game.split
    stats = player_stats(tally.stats, tally.sampled, split)
    unknown = tally.sampled and tally.deals < 2  # one deal says nothing of the spread: not 0.0
    players_out = tuple(
        PlayerEquity(text, st.equity, st.win, st.tie, st.tie_equity,
                     math.nan if unknown else st.stderr, size, st.hi, st.lo,
                     st.win if split else None)
        for text, st, size in zip(problem.inputs, stats, problem.range_sizes, strict=True)
    )  # fmt: skip
    return EquityResult(
        players=players_out,
        method="monte-carlo" if tally.sampled else "exact",
        samples=tally.deals,
        seconds=time.perf_counter() - started,
        game=problem.game.name,
        board=problem.board_text,
        dead=problem.dead_text,
        stopped=tally.stopped,
        counts=tally.stats if tally.sampled else tally.stats * math.prod(raw.weight_peaks()),
    )
