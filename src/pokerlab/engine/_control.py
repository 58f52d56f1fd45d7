"""Progress reporting, cancellation and adaptive chunking shared by the exact and Monte Carlo
drivers: the kernels run in chunks sized to about a tenth of a second, and between chunks the
driver reports progress and honours a cancellation request."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Protocol

from pokerlab.errors import CancelledError

__all__ = ["CancelLike", "Chunker", "PartialCallback", "ProgressCallback", "is_cancelled"]

ProgressCallback = Callable[[float], object]
"""Called with the fraction done (0..1) after each chunk."""

PartialCallback = Callable[[int, tuple[float, ...], tuple[float, ...]], object]
"""Monte Carlo only: called after each chunk with the deals sampled so far and each player's
current equity and standard error (after the last chunk: the run's result)."""


class _Event(Protocol):
    def is_set(self) -> bool: ...


CancelLike = _Event | Callable[[], bool] | None
"""A ``threading.Event`` (or anything with ``is_set()``) or a callable returning True to stop."""


def is_cancelled(cancel: CancelLike) -> bool:
    if cancel is None:
        return False
    if hasattr(cancel, "is_set"):
        return bool(cancel.is_set())
    return bool(cancel())


class Chunker:
    """Sizes successive chunks of work so each takes about ``target`` seconds."""

    def __init__(self, first: int, target: float = 0.1) -> None:
        self.size = max(1, first)
        self.target = target
        self.started = time.perf_counter()

    def timed(self, run: Callable[[int], object], size: int) -> None:
        """Run one chunk of ``size`` units and adapt the next chunk's size."""
        t0 = time.perf_counter()
        run(size)
        elapsed = time.perf_counter() - t0
        if elapsed < self.target / 4:
            self.size = size * 4
        elif elapsed > 0:
            self.size = max(1, int(size * self.target / elapsed))

    @property
    def elapsed(self) -> float:
        return time.perf_counter() - self.started


def check(cancel: CancelLike, progress: ProgressCallback | None, fraction: float) -> None:
    """Report progress, then raise :class:`CancelledError` if the caller asked to stop."""
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)))
    if is_cancelled(cancel):
        raise CancelledError("the computation was cancelled")
