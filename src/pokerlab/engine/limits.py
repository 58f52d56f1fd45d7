"""Bounds on exact work that has no Monte Carlo fallback (outs): the size estimate refuses a run
whose estimated time is over its limit before it starts, and :func:`run_chunked` runs a kernel
over ``0..total`` in chunks of about a tenth of a second, reporting progress, honouring a cancel
request and stopping at the time limit between chunks (so Ctrl-C, which Python sees only between
kernel calls, takes effect at once)."""

from __future__ import annotations

import math
from collections.abc import Callable

from pokerlab.engine._control import CancelLike, Chunker, ProgressCallback, check
from pokerlab.engine.problem import Problem
from pokerlab.errors import TooLargeError

__all__ = ["DEFAULT_SECONDS", "refuse_too_large", "run_chunked"]

DEFAULT_SECONDS = 60.0
"""The time limit of an exact computation that cannot fall back to sampling (``outs``)."""


def _limit_text(seconds: float) -> str:
    return f"{seconds:g} s"


def refuse_too_large(problem: Problem, seconds: float, what: str, hint: str) -> float:
    """The estimated seconds of enumerating ``problem`` exactly; raises :class:`TooLargeError`
    (naming its size and ``hint``, how to make it smaller) when that is over ``seconds``."""
    from pokerlab.engine.exact import estimate_seconds

    estimate = estimate_seconds(problem)
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


def run_chunked(
    run: Callable[[int, int], object],
    total: int,
    seconds: float,
    what: str,
    hint: str,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
) -> None:
    """Call ``run(start, stop)`` over consecutive chunks of ``0..total``; between chunks report
    progress, raise :class:`~pokerlab.errors.CancelledError` if cancelled and
    :class:`TooLargeError` once ``seconds`` have passed."""
    chunker = Chunker(1)
    start = 0

    def from_start(size: int) -> None:
        run(start, start + size)

    while start < total:
        size = min(chunker.size, total - start)
        chunker.timed(from_start, size)
        start += size
        check(cancel, progress, start / total)
        if start < total and chunker.elapsed > seconds:
            raise TooLargeError(
                f"{what} did not finish within {_limit_text(seconds)} "
                f"({start / total:.0%} done); {hint}",
                field="time_limit",
            )
