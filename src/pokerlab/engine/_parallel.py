"""Run a strategy's fixed chunks on several threads, or on the workers of a client (a Dask
cluster, a process pool), with results that depend on neither.

A run is a fixed sequence of chunks (:class:`Chunks`: chunk ``i`` is a function of the problem
and ``i`` alone; :func:`chunk_bounds` fixes the exact ones, Monte Carlo draws chunk ``i`` from
its own random stream). Each chunk returns its own partial result, and :func:`in_order` hands
them back in chunk order, so the caller merges them in the same order wherever they ran
(integer counts merge exactly; weighted float sums add up in one fixed order): the same bits on
1 thread, 16 threads or 64 machines. The kernels release the GIL (``nogil=True``), so the
calling thread and its helper threads (:class:`_Claims`) run them in parallel.

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
import threading
import uuid
from collections import deque
from collections.abc import Callable, Generator
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar

import numpy as np
from numpy.typing import NDArray

from pokerlab.engine._control import ChunkExecutor, Control, check
from pokerlab.engine.problem import Problem
from pokerlab.errors import cluster_failures

__all__ = [
    "Chunks",
    "Work",
    "chunk_bounds",
    "chunks_wanted",
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
    ``key`` names the run, so a worker builds its chunks once per run. ``stop``: a flag that a
    kernel running for seconds inside one chunk reads (a
    :class:`~pokerlab.engine._control.StopFlag`'s, set here on a cancel; a worker elsewhere
    gets a copy never set, and stops between chunks as before)."""

    problem: Problem
    strategy: str
    seed: int = 0
    trials: int | None = None
    key: str = field(default_factory=lambda: _run_key())
    stop: NDArray[np.uint8] = field(default_factory=lambda: np.zeros(1, dtype=np.uint8))


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
    wanted = min(chunks_wanted(seconds), total)
    size = math.ceil(total / wanted)
    return [(start, min(total, start + size)) for start in range(0, total, size)]


def chunks_wanted(seconds: float) -> int:
    """How many chunks a run estimated at ``seconds`` on one core is cut into, given units
    enough (:func:`chunk_bounds`)."""
    return min(MAX_CHUNKS, max(1, math.ceil(seconds / TARGET_CHUNK_SECONDS)))


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
    yield from _Claims(chunks, threads).results()


class _Claims(Generic[T]):
    """``threads - 1`` helper threads and the calling thread claim chunks in index order, at
    most ``2 * threads`` ahead of the one the caller consumes next; results go back in chunk
    order. The caller computes chunks too instead of sleeping until the next one is done: with
    a pool of ``threads`` workers it woke once a chunk (about 60 us of CPU each, 6 % of a
    2-thread Monte Carlo run) as a third thread on two cores."""

    def __init__(self, chunks: Chunks[T], threads: int) -> None:
        self.chunks = chunks
        self.ahead = 2 * threads
        self.lock = threading.Condition()
        self.done: dict[int, tuple[bool, Any]] = {}  # index -> (ok, result or exception)
        self.claimed = 0
        self.consumed = 0
        self.stopped = False
        busy = threads if chunks.count is None else min(threads, chunks.count)
        self.helpers = [
            threading.Thread(target=self._helper, name=f"pokerlab-chunks-{k}", daemon=True)
            for k in range(busy - 1)
        ]

    def _claim(self) -> int | None:
        """The next chunk to compute (the lock held), or None if there is none for now."""
        count = self.chunks.count
        index = self.claimed
        if self.stopped or index >= self.consumed + self.ahead:
            return None
        if count is not None and index >= count:
            return None
        self.claimed += 1
        return index

    def _finished(self) -> bool:
        count = self.chunks.count
        return self.stopped or (count is not None and self.claimed >= count)

    def _compute(self, index: int, caught: type[BaseException] = BaseException) -> None:
        """Run chunk ``index`` and file its answer; an exception of type ``caught`` is filed
        too (raised to the caller in chunk order). The caller's own chunks catch only
        ``Exception``: a Ctrl-C there stops the run at once."""
        try:
            answer: tuple[bool, Any] = (True, self.chunks.run(index))
        except caught as exc:
            answer = (False, exc)
        with self.lock:
            self.done[index] = answer
            self.lock.notify_all()

    def _helper(self) -> None:
        while True:
            with self.lock:
                index = self._claim()
                while index is None:
                    if self._finished():
                        return
                    self.lock.wait()
                    index = self._claim()
            self._compute(index)

    def results(self) -> Generator[T, None, None]:
        for helper in self.helpers:
            helper.start()
        count = self.chunks.count
        try:
            wanted = 0
            while count is None or wanted < count:
                answer = self._next(wanted)
                wanted += 1
                if not answer[0]:
                    raise answer[1]
                yield answer[1]
        finally:
            with self.lock:
                self.stopped = True
                self.lock.notify_all()
            for helper in self.helpers:
                helper.join()

    def _next(self, wanted: int) -> tuple[bool, Any]:
        """Chunk ``wanted``'s answer: computing claimable chunks here while it is not done."""
        while True:
            with self.lock:
                if wanted in self.done:
                    self.consumed = wanted + 1
                    self.lock.notify_all()  # room in the window for the helpers
                    return self.done.pop(wanted)
                index = self._claim()
                if index is None:
                    self.lock.wait()
                    continue
            self._compute(index, Exception)


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
