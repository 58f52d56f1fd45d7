"""Run a strategy's fixed chunks on several threads, or on the workers of a client (a Dask
cluster, a process pool), with results that depend on neither.

A run is a fixed sequence of chunks (:class:`Chunks`: chunk ``i`` is a function of the problem
and ``i`` alone; :func:`chunk_bounds` fixes the exact ones, Monte Carlo draws chunk ``i`` from
its own random stream). Each chunk returns its own partial result, and :func:`in_order` hands
them back in chunk order, so the caller merges them in the same order wherever they ran
(integer counts merge exactly; weighted float sums add up in one fixed order): the same bits on
1 thread, 16 threads or 64 machines. The kernels release the GIL (``nogil=True``), so the
threads of a ``ThreadPoolExecutor`` run them in parallel.

With a client (:attr:`Control.client <pokerlab.engine._control.Control.client>`), chunks
``a..b-1`` go to a worker as one task, :func:`pokerlab.engine.strategies.run_work`, with a
:class:`Work` (the problem and what the strategy needs to rebuild the same chunks there); the
worker sends back the chunks' partial results, not their sum.
"""

from __future__ import annotations

import itertools
import math
import os
import pickle
import uuid
from collections import deque
from collections.abc import Callable, Generator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

from pokerlab.engine._control import ChunkExecutor, Control, check
from pokerlab.engine.problem import Problem
from pokerlab.errors import cluster_failures

__all__ = [
    "Chunks",
    "Work",
    "chunk_bounds",
    "executor_workers",
    "in_order",
    "pickled_call",
    "run_chunks",
]

T = TypeVar("T")

TARGET_CHUNK_SECONDS = 0.02
"""Estimated single-core time of one chunk (the first chunk's estimate, not a measurement)."""
MAX_CHUNKS = 4096
TASKS_PER_WORKER = 4
"""With a client: chunks are grouped so there are about this many tasks per worker thread..."""
MAX_TASK_CHUNKS = 64
"""...of at most this many chunks each, and at most this many tasks per worker in flight."""
OPEN_TASK_CHUNKS = 4
"""Chunks per task of a run with no fixed end (Monte Carlo stopped by stderr or time)."""


@dataclass(frozen=True)
class Chunks(Generic[T]):
    """A run as ``count`` chunks (``None``: until the caller stops); ``run(i)`` computes chunk
    ``i``'s partial result."""

    count: int | None
    run: Callable[[int], T]


@dataclass(frozen=True)
class Work:
    """What a worker needs to rebuild a run's chunks (picklable): the problem, the strategy's
    name, and for Monte Carlo the seed and the number of deals (which cuts the last chunk).
    ``key`` names the run, so a worker builds its chunks once per run."""

    problem: Problem
    strategy: str
    seed: int = 0
    trials: int | None = None
    key: str = field(default_factory=lambda: _run_key())


_PROCESS_KEY = uuid.uuid4().hex
_RUNS = itertools.count()


def _run_key() -> str:
    """A name no other run gets: random per import, the process id (a forked child shares the
    first) and a counter (a fifth of the cost of a fresh ``uuid4`` per run)."""
    return f"{_PROCESS_KEY}-{os.getpid()}-{next(_RUNS)}"


def chunk_bounds(total: int, seconds: float) -> list[tuple[int, int]]:
    """Split ``total`` units of work, estimated at ``seconds`` on one core, into chunks of about
    :data:`TARGET_CHUNK_SECONDS` (at most :data:`MAX_CHUNKS`): a function of the problem
    only, never of the thread count or of the machine's speed."""
    if total <= 0:
        return []
    wanted = min(MAX_CHUNKS, max(1, math.ceil(seconds / TARGET_CHUNK_SECONDS)), total)
    size = math.ceil(total / wanted)
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def over(run: Callable[[int, int], T], bounds: list[tuple[int, int]]) -> Chunks[T]:
    """The chunks of ``bounds``: chunk ``i`` is ``run(*bounds[i])``."""
    return Chunks(len(bounds), lambda i: run(*bounds[i]))


def executor_workers(client: ChunkExecutor) -> int:
    """How many tasks ``client`` runs at once: a Dask client's worker threads
    (``nthreads()``), an executor's ``max_workers``, else this machine's cores."""
    nthreads = getattr(client, "nthreads", None)
    if callable(nthreads):
        return max(1, int(sum(nthreads().values())))
    return max(1, int(getattr(client, "_max_workers", 0) or os.cpu_count() or 1))


def in_order(
    chunks: Chunks[T], control: Control, work: Work | None = None
) -> Generator[T, None, None]:
    """Every chunk's partial result, in chunk order: on ``control.client``'s workers when there
    is one (then ``work`` describes the run), else on ``control.threads`` threads. Closing the
    generator (the caller stops) cancels what is still running."""
    if control.client is not None:
        if work is None:
            raise ValueError("a run on a client needs its Work")  # a strategy's bug
        return _on_client(control.client, work, chunks.count)
    return _on_threads(chunks, control.threads)


def _on_threads(chunks: Chunks[T], threads: int) -> Generator[T, None, None]:
    count = chunks.count
    if threads <= 1 or count == 1:
        index = 0
        while count is None or index < count:
            yield chunks.run(index)
            index += 1
        return
    ahead = 2 * threads
    pool = ThreadPoolExecutor(max_workers=threads)
    pending: deque[Future[T]] = deque()
    submitted = 0
    try:
        while True:
            while len(pending) < ahead and (count is None or submitted < count):
                pending.append(pool.submit(chunks.run, submitted))
                submitted += 1
            if not pending:
                return
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        pool.shutdown(wait=True, cancel_futures=True)


def pickled_call(function: Callable[..., Any], *args: Any) -> bytes:
    """``function(*args)`` pickled whole, for a task on a cluster: Dask sends a list answer
    element by element (a header and a pickle each, in the worker's and the client's event
    loops); one bytes object goes as one frame. The caller ``pickle.loads`` the answer."""
    return pickle.dumps(function(*args), protocol=pickle.HIGHEST_PROTOCOL)


def _on_client(client: ChunkExecutor, work: Work, count: int | None) -> Generator[Any, None, None]:
    from pokerlab.engine.strategies import run_work  # it knows every strategy

    workers = executor_workers(client)
    if count is None:
        group = OPEN_TASK_CHUNKS
    else:
        group = max(1, min(MAX_TASK_CHUNKS, math.ceil(count / (TASKS_PER_WORKER * workers))))
    pending: deque[Any] = deque()
    submitted = 0
    try:
        while True:
            while len(pending) < TASKS_PER_WORKER * workers and (
                count is None or submitted < count
            ):
                stop = submitted + group if count is None else min(count, submitted + group)
                with cluster_failures():
                    pending.append(client.submit(pickled_call, run_work, work, submitted, stop))
                submitted = stop
            if not pending:
                return
            with cluster_failures():
                answers = pickle.loads(pending.popleft().result())
            yield from answers
    finally:
        for future in pending:
            future.cancel()


def run_chunks(
    chunks: Chunks[T], control: Control, merge: Callable[[T], None], work: Work | None = None
) -> None:
    """``merge(chunks.run(i))`` for every chunk, merged in chunk order (on the client when
    ``control`` has one); progress after each chunk, :class:`~pokerlab.errors.CancelledError`
    when the caller cancels."""
    count = chunks.count
    if count is None:
        raise ValueError("run_chunks needs a fixed number of chunks")
    if control.client is None and (control.threads <= 1 or count == 1):
        # here, one chunk after another: no generator in between (15 us of a small call)
        for index in range(count):
            merge(chunks.run(index))
            check(control.cancel, control.progress, (index + 1) / count)
        return
    parts = in_order(chunks, control, work)
    try:
        for index, part in enumerate(parts, start=1):
            merge(part)
            check(control.cancel, control.progress, index / count)
    finally:
        parts.close()
