"""Bounds on exact work that has no Monte Carlo fallback (outs): :func:`refuse_too_large`
refuses a run whose estimated time is over its limit before it starts, and :func:`time_limited`
stops one still running at the limit. Strategies run in chunks and check ``cancel`` between
them, so the limit (and Ctrl-C, which Python sees only between kernel calls) takes effect within
a chunk's time."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import TypeVar

from pokerlab.engine._control import CancelLike, is_cancelled
from pokerlab.engine.problem import Problem
from pokerlab.errors import CancelledError, TooLargeError

__all__ = ["DEFAULT_SECONDS", "refuse_too_large", "time_limited"]

T = TypeVar("T")

DEFAULT_SECONDS = 60.0
"""The time limit of an exact computation that cannot fall back to sampling (``outs``)."""


def _limit_text(seconds: float) -> str:
    return f"{seconds:g} s"


def refuse_too_large(problem: Problem, seconds: float, what: str, hint: str) -> float:
    """The estimated seconds of enumerating ``problem`` exactly (by the exact strategy that
    would run it); raises :class:`TooLargeError` (naming its size and ``hint``, how to make it
    smaller) when that is over ``seconds``."""
    from pokerlab.engine.strategies import exact_strategy

    strategy = exact_strategy(problem)
    estimate = math.inf if strategy is None else strategy.estimate(problem)
    if estimate > seconds:
        size = "x".join(f"{s:,}" for s in problem.sizes)
        if math.isinf(estimate):
            work = "unbounded work"
        else:
            work = f"about {estimate:,.0f} s" if estimate < 1e7 else f"about {estimate:.1e} s"
            work += " of work"
        raise TooLargeError(
            f"{what} is too large: {work} ({size} holdings per player), over the limit of "
            f"{_limit_text(seconds)}; {hint}",
            field="time_limit",
        )
    return estimate


def time_limited(
    compute: Callable[[CancelLike], T], seconds: float, what: str, hint: str, cancel: CancelLike
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
            f"{what} did not finish within {_limit_text(seconds)}; {hint}", field="time_limit"
        ) from None
