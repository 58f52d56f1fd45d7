"""Run a kernel over fixed chunks of its work on several threads, with results that do not
depend on the thread count.

The chunks are fixed by the problem alone (:func:`chunk_bounds`), each chunk writes its own
partial result, and :func:`run_chunks` hands the partial results back in chunk order, so the
caller merges them in the same order for any number of threads (integer counts merge exactly;
weighted float sums add up in one fixed order). The kernels release the GIL (``nogil=True``), so
the threads of a ``ThreadPoolExecutor`` run them in parallel. Progress is reported and
cancellation honoured after each chunk.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from pokerlab.engine._control import Control, check

__all__ = ["chunk_bounds", "run_chunks"]

T = TypeVar("T")

TARGET_CHUNK_SECONDS = 0.02
"""Estimated single-core time of one chunk (the first chunk's estimate, not a measurement)."""
MAX_CHUNKS = 4096


def chunk_bounds(total: int, seconds: float) -> list[tuple[int, int]]:
    """Split ``total`` units of work, estimated at ``seconds`` on one core, into chunks of about
    :data:`TARGET_CHUNK_SECONDS` (at most :data:`MAX_CHUNKS`): a function of the problem
    only, never of the thread count or of the machine's speed."""
    if total <= 0:
        return []
    wanted = min(MAX_CHUNKS, max(1, math.ceil(seconds / TARGET_CHUNK_SECONDS)), total)
    size = math.ceil(total / wanted)
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def _ordered(
    run: Callable[[int, int], T], bounds: list[tuple[int, int]], threads: int
) -> Generator[T, None, None]:
    if threads <= 1 or len(bounds) <= 1:
        for start, stop in bounds:
            yield run(start, stop)
        return
    pool = ThreadPoolExecutor(max_workers=min(threads, len(bounds)))
    try:
        futures: list[Future[T]] = [pool.submit(run, a, b) for a, b in bounds]
        for future in futures:
            yield future.result()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def run_chunks(
    run: Callable[[int, int], T],
    bounds: list[tuple[int, int]],
    control: Control,
    merge: Callable[[T], None],
) -> None:
    """``merge(run(start, stop))`` for every chunk, merged in chunk order; progress after each
    chunk, :class:`~pokerlab.errors.CancelledError` when the caller cancels."""
    total = bounds[-1][1] if bounds else 0
    parts = _ordered(run, bounds, control.threads)
    try:
        for (_, stop), part in zip(bounds, parts, strict=True):
            merge(part)
            check(control.cancel, control.progress, stop / total if total else 1.0)
    finally:
        parts.close()
