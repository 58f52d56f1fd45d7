"""Bounds on work. Exact work that has no Monte Carlo fallback (outs): :func:`refuse_too_large`
refuses a run whose estimated time is over its limit before it starts, and :func:`time_limited`
stops one still running at the limit. Strategies run in chunks and check ``cancel`` between
them, so the limit (and Ctrl-C, which Python sees only between kernel calls) takes effect within
a chunk's time. Monte Carlo stopping rules: :func:`check_sampling` refuses the ones that cannot
be met or would run for hours (the CLI's options and the batch's spots)."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import TypeVar

from pokerlab._numbers import is_real, is_whole, shown_number
from pokerlab.engine._control import COUNTABLE_TRIALS, CancelLike, is_cancelled
from pokerlab.engine.problem import Problem
from pokerlab.errors import CancelledError, GameError, TooLargeError

__all__ = [
    "COUNTABLE_TRIALS",
    "DEFAULT_SECONDS",
    "MAX_SECONDS",
    "MAX_TRIALS",
    "MIN_STDERR",
    "check_exact_options",
    "check_sampling",
    "estimate_text",
    "refuse_too_large",
    "time_limited",
]

T = TypeVar("T")

DEFAULT_SECONDS = 60.0
"""The time limit of an exact computation that cannot fall back to sampling (``outs``)."""


MAX_TRIALS = 10**10
"""Most Monte Carlo deals unless the caps are lifted (hours of work in the slowest games)."""
MAX_SECONDS = 3600.0
"""Longest Monte Carlo time limit unless the caps are lifted."""
MIN_STDERR = 1e-5
"""Smallest target standard error (0.001 %) unless the caps are lifted: about 2.5e9 deals."""


def _percent(fraction: float) -> str:
    """A fraction of the pot in percent, as the stderr messages write it (``0.001%``)."""
    return f"{fraction * 100:g}%"


def check_sampling(
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    *,
    capped: bool = True,
    lift: str = "",
    named: bool = False,
) -> None:
    """Refuse, with :class:`GameError` naming the field (``trials``, ``stderr``,
    ``time_limit``), Monte Carlo stopping rules of the wrong type or that cannot be met and,
    when ``capped``, those
    past :data:`MAX_TRIALS`, :data:`MIN_STDERR` or :data:`MAX_SECONDS`; ``lift`` says how to
    lift the caps (the CLI's "add --no-limit to run it anyway"). The message starts with the
    field's name when ``named`` (a library function's; the CLI and the query name their own)."""
    try:
        _check_sampling(trials, stderr, time_limit, capped, lift)
    except GameError as exc:
        if named:
            exc.args = (f"{exc.field}: {exc}", *exc.args[1:])
        raise


def _check_sampling(
    trials: int | None, stderr: float | None, time_limit: float | None, capped: bool, lift: str
) -> None:
    hint = f" ({lift})" if lift else ""
    if trials is not None:
        if not is_whole(trials):
            raise GameError(f"must be a whole number, got {trials!r}", field="trials")
        if trials < 1:
            raise GameError(f"must be at least 1, got {trials}", field="trials")
        if trials > COUNTABLE_TRIALS:
            raise GameError(
                f"{int(trials):,} deals cannot be counted; at most {COUNTABLE_TRIALS:,}",
                field="trials",
            )
        if trials > MAX_TRIALS and capped:
            raise GameError(
                f"{int(trials):,} deals would take hours or longer; at most {MAX_TRIALS:,}{hint}",
                field="trials",
            )
    if stderr is not None and not (is_real(stderr) and 0 < stderr < 1):
        # a fraction of the pot, said in percent too: the web page's box takes percent
        shown = shown_number(stderr)
        if is_real(stderr) and math.isfinite(stderr):
            shown += f" ({_percent(stderr)})"
        raise GameError(f"must be between 0 and 1 (0% and 100%), got {shown}", field="stderr")
    if stderr is not None and stderr < MIN_STDERR and capped:
        # the variance of a pot share is at most 1/4 (stderr**2 underflows below 1e-162)
        deals = 0.25 / stderr**2 if stderr > 1e-100 else math.inf
        need = "more deals than can be counted"
        if deals <= COUNTABLE_TRIALS:
            need = f"up to {deals:.2g} deals"
        raise GameError(
            f"{_percent(stderr)} needs {need}; at least {_percent(MIN_STDERR)}{hint}",
            field="stderr",
        )
    if time_limit is not None:
        if not is_real(time_limit) or math.isnan(time_limit) or time_limit <= 0:
            raise GameError(
                f"must be a positive number of seconds, got {shown_number(time_limit)}",
                field="time_limit",
            )
        if time_limit > MAX_SECONDS and capped:
            raise GameError(
                f"{time_limit:g} s is more than {MAX_SECONDS:g} s{hint}", field="time_limit"
            )


def check_seconds(value: float, name: str) -> None:
    """Refuse (:class:`GameError` on ``name``, named in the message) a number of seconds that
    is not a positive real number: 0, a negative, NaN, a bool, text."""
    if not (is_real(value) and value > 0):
        raise GameError(
            f"{name}: must be a positive number of seconds, got {shown_number(value)}", field=name
        )


def check_exact_options(method: str | None, **options: object) -> None:
    """With ``method="exact"``, refuse (:class:`GameError` naming it) the first of ``options``
    that is set: trials, stderr, seed steer Monte Carlo only, and an exact run would ignore
    them."""
    if method == "exact":
        for name, value in options.items():
            if value is not None:
                raise GameError(f"'{name}' applies to Monte Carlo, not method 'exact'", field=name)


def _limit_text(seconds: float) -> str:
    return f"{seconds:g} s"


def estimate_text(seconds: float) -> str:
    """An estimate with the digits that show it over a limit: ``0.046 s``, ``3.4 s``,
    ``1,234 s``, ``2.5e+07 s``."""
    if seconds >= 1e7:
        return f"{seconds:.1e} s"
    return f"{seconds:,.0f} s" if seconds >= 10 else f"{seconds:.2g} s"


def refuse_too_large(
    problem: Problem, estimate: float, seconds: float, what: str, remedies: str | Sequence[str]
) -> None:
    """Raise :class:`TooLargeError` (naming the size of ``problem`` and its ``remedies``, the
    ways to make it smaller) when the ``estimate`` of its exact work (seconds of one core) is over
    ``seconds``."""
    if estimate > seconds:
        size = "x".join(f"{s:,}" for s in problem.range_sizes)
        if math.isinf(estimate):
            work = "unbounded work"
        else:
            work = f"about {estimate_text(estimate)} of work"
        raise TooLargeError(
            f"{what} is too large: {work} ({size} holdings per player), over the limit of "
            f"{_limit_text(seconds)}",
            field="time_limit",
            remedies=remedies,
        )


def time_limited(
    compute: Callable[[CancelLike], T],
    seconds: float,
    what: str,
    remedies: str | Sequence[str],
    cancel: CancelLike,
) -> T:
    """``compute(stop)``, where ``stop()`` turns true when the caller's ``cancel`` does or
    ``seconds`` have passed; a run stopped by the limit raises :class:`TooLargeError`, one
    stopped by the caller :class:`~pokerlab.errors.CancelledError`."""
    deadline = time.perf_counter() + seconds

    def stop() -> bool:
        return is_cancelled(cancel) or time.perf_counter() > deadline

    try:
        return compute(stop)
    except CancelledError:
        if is_cancelled(cancel):
            raise
        raise TooLargeError(
            f"{what} did not finish within {_limit_text(seconds)}",
            field="time_limit",
            remedies=remedies,
        ) from None
