"""What each JSON route computes: a call of the public API and its ``to_dict()``, nothing more.

These functions run inside the worker processes of :mod:`pokerlab.web.pool` (equity, outs, draw
advice, queries, hits, distributions, flop reports, preflop matrices) or in the server itself
(ranges, evaluation, games), and they import neither FastAPI nor the CLI. Each answers exactly
what the matching ``pokerlab ... --json`` command prints.

The pooled tasks take ``limit``, the seconds the server allows them: an equity run, a query, outs,
a distribution, a flop report and a matrix are told to stop there (Monte Carlo through its time
limit, an exact run through cancellation) or when ``stop()`` says so (its client pressed Stop or
went away: the tasks in :data:`STOPPABLE`); the pool kills a worker whose task outlives it (draw
advice and hits cannot be interrupted from inside). The tasks in :data:`STREAMING` report
``progress(update)`` as they go. ``threads`` is the numba threads a worker may use, passed on to
library functions that take it.

The flop report and the matrix run on the library's ``inline`` backend, in the worker itself
and on its numba threads: their default backend, a process pool of every core, would nest
processes in a worker of the pool and oversubscribe the cores (workers x threads <= cores).

Range reports run in the server itself, on one thread beside the event loop, and are cached
(the page asks for the same grid texts again and again).
"""

from __future__ import annotations

import functools
import inspect
import re
import time
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from pokerlab._numbers import known_or_none
from pokerlab.analysis.bots import get_strategy
from pokerlab.analysis.distribution import RAISE_THE_CAP, equity_distribution
from pokerlab.analysis.draw import advise, normalize_game
from pokerlab.analysis.draw_play import advice_for, deal_hand, discard_for_keep, play_hand
from pokerlab.analysis.hits import hits
from pokerlab.analysis.outs import MORE_TIME, outs
from pokerlab.analysis.query import query
from pokerlab.analysis.showdown import showdown_value
from pokerlab.engine.api import DEFAULT_STDERR, MAX_EXACT_SECONDS, equity, refusal_tail
from pokerlab.engine.game_range import game_range_report
from pokerlab.engine.limits import check_exact_options
from pokerlab.errors import CancelledError, PokerlabError, TooLargeError, blame
from pokerlab.games import GAMES, game_aliases
from pokerlab.scale.flops import RAISE_MAX_SECONDS, flop_report
from pokerlab.scale.matrix import preflop_matrix

__all__ = [
    "STOPPABLE",
    "STREAMING",
    "TASKS",
    "WEB_MAX_HOLDINGS",
    "error_payload",
    "games",
    "threads_for",
    "time_limit_error",
]

WEB_MAX_HOLDINGS = 400
"""Most holdings a distribution request may need one engine call each for (outside heads-up
hold'em with a board)."""

Payload = dict[str, Any]


def error_payload(exc: PokerlabError) -> Payload:
    """The JSON body of an error answer: the library's type, message and the field at fault."""
    return {"error": {"type": type(exc).__name__, "message": str(exc), "field": exc.field}}


_SMALLER = {
    "equity": "use Monte Carlo with a target standard error, or a smaller problem",
    "query": "sample it ('mc' in the query) with fewer trials, or narrow the ranges",
    "draw": "ask for fewer trials, or fewer or narrower opponents",
    "outs": "narrow the ranges, or give the turn card on a flop",
    "distribution": "narrow the hero's range or the villains'",
    "hits": "narrow the range",
    "flops": "narrow the ranges",
    "matrix": "ask for fewer classes",
}
"""What each task's request can change to finish sooner (only what its body can say); each of
these requests has a ``time_limit``, the field a time-limit error names."""


def time_limit_error(limit: float, task: str = "equity") -> TooLargeError:
    """The error of a ``task`` request that did not finish within ``limit`` seconds."""
    return TooLargeError(
        f"the computation did not finish within its time limit of {limit:g} s: "
        f"{_SMALLER.get(task, 'ask for a smaller problem')}",
        field="time_limit" if task in _SMALLER else None,
    )


EXACT_REFUSAL_FACTOR = 3.0
"""An exact equity request estimated at more than this times its time limit (in seconds of
the worker's threads) is refused at once: the estimates err by up to about 2.7x on the high
side, so one refused would not have finished, and one that runs past its limit is stopped."""

_CANCEL_MARGIN = 0.1
"""Seconds past the time limit at which a run is cancelled: a Monte Carlo run stops at the limit
itself (and says it stopped on time); an exact run cannot and is cancelled."""


def threads_for(function: Callable[..., Any], threads: int) -> dict[str, Any]:
    """``{"threads": threads}`` when ``function`` takes a ``threads`` keyword, else nothing
    (the worker's ``NUMBA_NUM_THREADS`` caps its threads either way)."""
    return {"threads": threads} if "threads" in inspect.signature(function).parameters else {}


class _Cancel:
    """A library call's ``cancel``: true once ``stop()`` (the server's stop flag) is, or once
    ``limit`` seconds (and :data:`_CANCEL_MARGIN`) have passed."""

    def __init__(self, stop: Callable[[], bool] | None, limit: float) -> None:
        self.stop = stop
        self.deadline = time.monotonic() + limit + _CANCEL_MARGIN

    def requested(self) -> bool:
        """Whether the server asked the run to stop (its client pressed Stop or went away)."""
        return self.stop is not None and self.stop()

    def __call__(self) -> bool:
        return self.requested() or time.monotonic() > self.deadline


class _Progress:
    """A library call's ``progress(fraction)``: keeps the fraction done (what a stopped run
    says it reached) and hands each update on to ``report`` (the pool's stream), as
    ``{"fraction"}`` and whatever :attr:`extra` holds. With ``limit`` (the seconds that end the
    run if nothing else does first) the fraction reported is at least the share of it spent."""

    def __init__(
        self, report: Callable[[Payload], object] | None, limit: float | None = None
    ) -> None:
        self.report = report
        self.limit = limit
        self.started = time.monotonic()
        self.done = 0.0
        self.extra: Payload = {}

    def __call__(self, fraction: float) -> None:
        self.done = fraction
        if self.report is not None:
            if self.limit:
                fraction = max(fraction, min(1.0, (time.monotonic() - self.started) / self.limit))
            self.report({"fraction": fraction, **self.extra})

    def stopped(
        self, why: str, what: str = "the exact enumeration", units: str = "deals"
    ) -> CancelledError:
        """The error of a run stopped on request, saying how far it got and ``why`` it has
        nothing to show."""
        return CancelledError(f"{what} was stopped at {self.done:.0%} of its {units}: {why}")


_EXACT_STOPPED = "an exact run has no partial result (Monte Carlo answers with what it sampled)"
_QUERY_STOPPED = "an exact run has no partial result (a sampled query answers with what it drew)"


def run_equity(
    *,
    players: list[str],
    board: str,
    dead: str,
    game: str,
    method: str,
    trials: int | None,
    stderr: float | None,
    time_limit: float | None,
    seed: int | None,
    limit: float,
    threads: int = 1,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """``pokerlab equity --json``. Monte Carlo stops at ``time_limit`` (at most ``limit``); with
    no stopping rule it targets the library's default standard error, as the CLI does. An exact
    run estimated far over the time (:data:`EXACT_REFUSAL_FACTOR`) is refused at once, one
    past it is a :func:`time_limit_error`; one stopped by ``stop()`` is a
    :class:`~pokerlab.errors.CancelledError` saying how far it got (a Monte Carlo run stopped so
    answers what it sampled). ``progress(update)`` is called between chunks with ``{"fraction"}``
    and, for Monte Carlo, the running ``"samples"``, ``"equity"`` and ``"stderr"`` (per player)."""
    check_exact_options(method, trials=trials, stderr=stderr, seed=seed)
    budget = limit if time_limit is None else min(time_limit, limit)
    if trials is None and stderr is None:
        stderr = DEFAULT_STDERR
    cancel = _Cancel(stop, budget)
    report = _Progress(progress)

    def estimates(samples: int, equities: tuple[float, ...], stderrs: tuple[float, ...]) -> None:
        # a standard error unknown (one deal so far) is null, as in the result: NaN is no JSON
        known = [known_or_none(e) for e in stderrs]
        report.extra.update(samples=samples, equity=list(equities), stderr=known)

    exact = method == "exact"  # takes no sampling options (the pool holds it to the budget)
    refused_at = min(EXACT_REFUSAL_FACTOR * budget * threads, MAX_EXACT_SECONDS)  # one core
    try:
        result = equity(
            players, board=board, dead=dead, game=game, method=method,  # type: ignore[arg-type]
            trials=None if exact else trials, stderr=None if exact else stderr,
            time_limit=None if exact else budget, seed=None if exact else seed,
            progress=report, partial=estimates if progress is not None else None, cancel=cancel,
            max_exact_seconds=refused_at, **threads_for(equity, threads),
        )  # fmt: skip
    except TooLargeError as exc:  # said in the terms of the request's form (no --mc)
        message = str(exc)
        if message.endswith(refusal_tail(refused_at)):  # refused for the time limit
            tail = f"far over the time limit of {budget:g} s; {_SMALLER['equity']}"
            exc.args = (message.replace(refusal_tail(refused_at), tail), *exc.args[1:])
            # the request's own time limit, or else the method (the server's limit is no box
            # on the page: its empty Time limit box was marked for a change of method)
            exc.field = "time_limit" if time_limit is not None else "method"
        raise
    except CancelledError:
        if cancel.requested():
            raise report.stopped(_EXACT_STOPPED) from None
        raise time_limit_error(budget) from None
    return result.to_dict()


def run_outs(
    *,
    players: list[str],
    board: str,
    dead: str,
    game: str,
    limit: float,
    time_limit: float | None = None,
    threads: int = 1,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """``pokerlab outs --json``; refused at once when estimated over ``limit`` seconds, stopped
    (a :class:`~pokerlab.errors.TooLargeError`) when it runs longer, and by ``stop()`` (a
    :class:`~pokerlab.errors.CancelledError` saying how far it got). Either error names the
    field ``time_limit`` when the request gave one (``time_limit``, of which ``limit`` is the
    lesser of it and the server's), else no field: the server's limit is no box on the page.
    ``progress(update)`` is called between chunks of runouts with ``{"fraction"}``."""
    report = _Progress(progress)
    try:
        outcome = outs(
            players, board=board, dead=dead, game=game, time_limit=limit, cancel=stop,
            progress=report, **threads_for(outs, threads),
        )  # fmt: skip
    except TooLargeError as exc:  # the page has no --time, and its limit is the server's
        exc.with_remedies(r for r in exc.remedies if r != MORE_TIME)
        if exc.field == "time_limit" and time_limit is None:  # its remedies are other fields
            exc.field = None
        raise
    except CancelledError:  # only stop() cancels it: the time limit is a TooLargeError
        raise report.stopped("outs have no partial result", units="runouts") from None
    return outcome.to_dict()


def run_draw(
    *,
    hand: str,
    vs: list[str],
    dead: str,
    game: str,
    goal: str | None,
    method: str,
    trials: int | None,
    seed: int | None,
    limit: float,
    max_draw: int = 5,
) -> Payload:
    """``pokerlab draw advise --json``."""
    advice = advise(
        hand, dead=dead, vs=vs, game=game, goal=goal, method=method,  # type: ignore[arg-type]
        trials=trials, seed=seed, max_draw=max_draw,
    )  # fmt: skip
    return advice.to_dict()


def _draw_game(bot: str, game: str, seed: int, hand: int, max_draw: int) -> dict[str, Any]:
    """The settings of a deal of draw play, checked (each error names its field) and echoed."""
    with blame("bot"):
        name = get_strategy(bot).name
    with blame("game"):
        game = normalize_game(game)
    return {"bot": name, "game": game, "seed": seed, "hand": hand, "max_draw": max_draw}


def run_draw_deal(
    *, bot: str, game: str, seed: int, hand: int, max_draw: int, advice: bool, limit: float
) -> Payload:
    """Draw play: the player's five cards of deal ``hand`` of ``seed`` (nothing of the bot's)
    and, when asked, the advisor's best choice for them (no opponents, the bot's cards unknown)."""
    settings = _draw_game(bot, game, seed, hand, max_draw)
    with blame("hand"):
        dealt = deal_hand(seed, hand).hand
    out: Payload = {**settings, "cards": [str(c) for c in dealt]}
    if advice:
        out["advice"] = advice_for(dealt, settings["game"], max_draw).to_dict()
    return out


def run_draw_showdown(
    *,
    bot: str,
    game: str,
    seed: int,
    hand: int,
    max_draw: int,
    keep: list[str],
    advice: bool,
    limit: float,
) -> Payload:
    """Draw play: deal ``hand`` of ``seed`` re-dealt and played out, the player keeping ``keep``
    (cards of his hand); both final hands, the bot's discards, the winner and, when asked, the
    advisor's best choice for the dealt hand."""
    settings = _draw_game(bot, game, seed, hand, max_draw)
    with blame("hand"):
        dealt = deal_hand(seed, hand).hand
    with blame("keep"):
        thrown = discard_for_keep(keep, dealt)
        showdown = play_hand(seed, hand, thrown, bot=bot, game=game, max_draw=max_draw)
    out: Payload = {**settings, **showdown.to_dict()}
    if advice:
        out["advice"] = advice_for(dealt, settings["game"], max_draw).to_dict()
    return out


def run_query(
    *,
    text: str,
    limit: float,
    threads: int = 1,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """``pokerlab query --json``. A sampled run stops sampling at ``limit`` seconds, or when
    ``stop()`` says so, and says how many deals it drew; an exact run still going then is a
    :func:`time_limit_error`, one stopped by ``stop()`` a
    :class:`~pokerlab.errors.CancelledError` saying how far it got. ``progress(update)`` is
    called between chunks of deals with ``{"fraction"}``: of the deals, or of ``limit`` when
    more of it has passed."""
    cancel = _Cancel(stop, limit)
    report = _Progress(progress, limit)  # a sampled run asking for more deals ends at the limit
    try:
        # capped: the text's time=, trials= and stderr= within the CLI's (and /api/equity's) caps
        result = query(text, max_seconds=limit, threads=threads, cancel=cancel, progress=report,
                       capped=True)  # fmt: skip
    except CancelledError:
        if cancel.requested():
            raise report.stopped(_QUERY_STOPPED) from None
        raise time_limit_error(limit, "query") from None
    except PokerlabError as exc:  # every setting of a query is in its text
        exc.field = "text"
        raise
    answer = result.to_dict()
    if answer["stopped"] == "cancelled" and not cancel.requested():
        answer["stopped"] = "time"  # the server's limit (its cancel), not a Stop
    return answer


@functools.lru_cache(maxsize=128)
def run_range(*, range: str, dead: str | None, list: bool, game: str | None = None) -> Payload:
    """``pokerlab range --json`` (cached: callers must not change the answer), read in
    ``game``'s deck and with its ``x%`` ordering (short deck's); no game is hold'em, whose
    percentages refuse a short-deck ordering as its equity does."""
    return game_range_report(range, dead, list, game or "holdem")


def run_evaluate(*, cards: str, board: str = "", game: str | None = None) -> Payload:
    """``pokerlab eval --json`` (``--board``, ``--game``)."""
    value = showdown_value(cards, "holdem" if game is None else game, board)
    return value.to_dict(with_game=game is not None)


def games() -> Payload:
    """Every game pokerlab knows, as data (the page builds its game menus from this)."""
    return {
        "games": [
            {
                **asdict(g),
                "max_players": g.max_players,
                "aliases": game_aliases(g.name),
                "split": g.split,
                "is_stud": g.is_stud,
                "range_syntax": g.range_syntax,
            }
            for g in GAMES.values()
        ]
    }


def run_hits(
    *, range: str, board: str, game: str, dead: str, limit: float, threads: int = 1
) -> Payload:
    """``pokerlab hits --json`` (on the worker's ``threads``)."""
    return hits(range, board=board, game=game, dead=dead, threads=threads).to_dict()


def run_distribution(
    *,
    hero: str,
    villains: list[str],
    board: str,
    game: str,
    dead: str,
    limit: float,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """``pokerlab distribution --json``, at most :data:`WEB_MAX_HOLDINGS` engine calls; errors
    name the request's fields (``hero``, ``villains.0`` ...) where the library names
    ``players.0``, ``players.1`` .... A run still going after ``limit`` seconds is a
    :func:`time_limit_error`, one stopped by ``stop()`` a
    :class:`~pokerlab.errors.CancelledError` saying how far it got; ``progress(update)`` is
    called before each holding's engine call with ``{"fraction"}``."""
    cancel = _Cancel(stop, limit)
    report = _Progress(progress)
    try:
        result = equity_distribution(
            hero, villains, board=board, dead=dead, game=game, max_holdings=WEB_MAX_HOLDINGS,
            progress=report, cancel=cancel,
        )  # fmt: skip
    except CancelledError:
        if cancel.requested():
            why = "a distribution has no partial result"
            raise report.stopped(why, what="the distribution", units="holdings") from None
        raise time_limit_error(limit, "distribution") from None
    except PokerlabError as exc:
        if isinstance(exc, TooLargeError) and RAISE_THE_CAP in exc.remedies:
            exc.with_remedies(["narrow the ranges (this server's cap is fixed)"])
        if exc.field == "players.0":
            exc.field = "hero"
        elif exc.field is not None and exc.field.startswith("players."):
            exc.field = f"villains.{int(exc.field.split('.')[1]) - 1}"
        elif exc.field == "players":
            exc.field = "villains"
        exc.args = (_PLAYER.sub(_hero_or_villain, str(exc)), *exc.args[1:])
        raise
    return result.to_dict()


_PLAYER = re.compile(r"\b([Pp])layer (\d+)")


def _hero_or_villain(match: re.Match[str]) -> str:
    """The library's "player 3" as the distribution form says it: "villain 2" (the hero is
    player 1; the villains box numbers its lines from 1)."""
    number = int(match.group(2))
    if number == 1:
        return f"{'T' if match.group(1) == 'P' else 't'}he hero"
    return f"{'V' if match.group(1) == 'P' else 'v'}illain {number - 1}"


REPORT_CHUNK = 1
"""Flops or matrix cells per task of a report run in a worker (on the inline backend, where a
task costs nothing to send): Stop and the time limit end a report between two exact runs."""

ReportProgress = Callable[[int, int], None]


def _run_report(
    task: str,
    compute: Callable[[ReportProgress], Payload],
    *,
    limit: float,
    stop: Callable[[], bool] | None,
    progress: Callable[[Payload], object] | None,
    what: str,
    units: str,
) -> Payload:
    """``compute(count)``, a scale report whose ``progress(done, total)`` is ``count``: it hands
    the fraction done to ``progress`` and ends the report once ``stop()`` says so or ``limit``
    seconds have passed. A report still going then is a :func:`time_limit_error`, one stopped by
    ``stop()`` a :class:`~pokerlab.errors.CancelledError` saying how far it got."""
    cancel = _Cancel(stop, limit)
    report = _Progress(progress)

    def count(done: int, total: int) -> None:
        report(done / total)
        if cancel():
            raise CancelledError(f"{what} was cancelled")

    try:
        return compute(count)
    except CancelledError:
        if cancel.requested():
            raise report.stopped(f"{what} has no partial result", what, units) from None
        raise time_limit_error(limit, task) from None


def run_flops(
    *,
    players: list[str],
    dead: str,
    game: str,
    limit: float,
    time_limit: float | None = None,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """Player 1's exact equity on every flop (``pokerlab flops --json``). A
    report estimated at more than ``limit`` seconds of one core is refused at once with the
    library's message (its flop runs are mostly too small to share the worker's threads), on
    the field ``time_limit`` when the request gave one, else on none (the server's limit is no
    box on the page); refused for the request's own limit, it says to raise ``time_limit``.
    ``progress(update)`` is called after each flop with ``{"fraction"}``."""

    def compute(count: ReportProgress) -> Payload:
        return flop_report(players, dead, game=game, backend="inline", chunk_size=REPORT_CHUNK,
                           progress=count, max_seconds=limit).to_dict()  # fmt: skip

    try:
        return _run_report("flops", compute, limit=limit, stop=stop, progress=progress,
                           what="the flop report", units="flop classes")  # fmt: skip
    except TooLargeError as exc:
        if exc.field == "max_seconds":  # the library's refusal: no such field here
            exc.field = "time_limit" if time_limit is not None else None
            if time_limit is not None and time_limit <= limit:  # the request's own limit
                # told to raise max_seconds (RAISE_MAX_SECONDS), which a request cannot
                exc.with_remedies(
                    "raise time_limit to run it" if r == RAISE_MAX_SECONDS else r
                    for r in exc.remedies
                )
        raise


def run_matrix(
    *,
    names: list[str] | None,
    game: str,
    limit: float,
    stop: Callable[[], bool] | None = None,
    progress: Callable[[Payload], object] | None = None,
) -> Payload:
    """The exact heads-up preflop matrix of ``names`` (all of ``game``'s classes when None;
    ``pokerlab matrix --json``).
    ``progress(update)`` is called after each cell with ``{"fraction"}``."""

    def compute(count: ReportProgress) -> Payload:
        return preflop_matrix(names, game=game, backend="inline", chunk_size=REPORT_CHUNK,
                              progress=count).to_dict()  # fmt: skip

    return _run_report("matrix", compute, limit=limit, stop=stop, progress=progress,
                       what="the matrix", units="cells")  # fmt: skip


TASKS: dict[str, Callable[..., Payload]] = {
    "equity": run_equity,
    "outs": run_outs,
    "draw": run_draw,
    "draw_deal": run_draw_deal,
    "draw_showdown": run_draw_showdown,
    "query": run_query,
    "range": run_range,
    "evaluate": run_evaluate,
    "hits": run_hits,
    "distribution": run_distribution,
    "flops": run_flops,
    "matrix": run_matrix,
}
"""Tasks by name (what the pool's workers are asked to run)."""

STOPPABLE = frozenset({"equity", "outs", "query", "distribution", "flops", "matrix"})
"""Tasks that take ``stop``: asked to stop, they end early and keep their worker."""

STREAMING = frozenset({"equity", "outs", "query", "distribution", "flops", "matrix"})
"""Tasks that take ``progress(update)``, a dict with at least ``"fraction"`` (the pool streams
it back to the server: ``POST /api/{task}/stream``)."""
