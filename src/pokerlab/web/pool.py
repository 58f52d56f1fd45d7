"""A pool of worker processes for the long computations (equity, outs, draw advice).

Why processes: an exact enumeration holds a core for seconds; in a thread it would hold the
interpreter too and every other request would wait. Each worker is started once (``spawn``),
imports pokerlab and runs a small warm-up so numba's compiled kernels are loaded before the
first request, then serves one task at a time over a pipe.

Limits: a task gets ``timeout`` seconds (the caller passes the request's time limit, capped by
the server); a worker still busy after that is killed and replaced, so no request can hold a core
for longer than the server allows. Waiting for a free worker is bounded the same way.

The pool is synchronous and thread-safe (the routes call it from FastAPI's thread pool), so it
does not depend on any particular event loop.
"""

from __future__ import annotations

import multiprocessing
import queue
import threading
import time
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

__all__ = ["PoolBusyError", "TaskTimeout", "WorkerCrashed", "WorkerPool"]

_START_TIMEOUT = 300.0  # a cold numba cache compiles every kernel the warm-up touches


class TaskTimeout(Exception):
    """The task did not finish within its time; its worker was killed."""


class PoolBusyError(Exception):
    """No worker became free within the time the request allows."""


class WorkerCrashed(Exception):
    """The worker died while running the task (out of memory, a signal) or failed unexpectedly."""


def _warm_up() -> None:
    """Load the kernels the common requests use (from numba's on-disk cache when present)."""
    from pokerlab.web.tasks import TASKS

    common = {"board": "", "dead": "", "game": "holdem", "trials": None, "stderr": None}
    equity = TASKS["equity"]
    equity(players=["AhAs", "KdKc"], method="exact", time_limit=None, seed=None, limit=60.0,
           **common)  # fmt: skip
    equity(players=["AhAs", "QQ+"], method="exact", time_limit=None, seed=None, limit=60.0,
           **{**common, "board": "Kh7c2d"})  # fmt: skip
    equity(players=["AK", "QQ"], method="mc", time_limit=None, seed=1, limit=60.0,
           **{**common, "trials": 1000})  # fmt: skip
    TASKS["outs"](players=["9h8h", "AsKd"], board="Th7c2hKs", dead="", game="holdem", limit=60.0)


def _serve(conn: Connection) -> None:
    """A worker's loop: receive ``(task, kwargs)``, answer ``("ok", payload)``,
    ``("error", payload)`` for a pokerlab error, or ``("crash", text)``."""
    from pokerlab.errors import PokerlabError
    from pokerlab.web.tasks import TASKS, error_payload

    try:
        _warm_up()
        conn.send(("ready", None))
    except Exception:
        conn.send(("crash", traceback.format_exc()))
        return
    while True:
        try:
            name, kwargs = conn.recv()
        except (EOFError, OSError):
            return
        try:
            reply: tuple[str, Any] = ("ok", TASKS[name](**kwargs))
        except PokerlabError as exc:
            reply = ("error", error_payload(exc))
        except Exception:
            reply = ("crash", traceback.format_exc())
        conn.send(reply)


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    conn: Connection

    def kill(self) -> None:
        self.process.kill()
        self.process.join(5)
        self.conn.close()


class WorkerPool:
    """``size`` worker processes; :meth:`run` gives a task to a free one and waits for it."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, got {size}")
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._idle: queue.Queue[_Worker] = queue.Queue()
        self._lock = threading.Lock()
        self._started = False
        self._generation = 0  # bumped by close(): workers of an older generation are stopped
        self._workers: set[_Worker] = set()

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        process = self._context.Process(target=_serve, args=(child,), daemon=True,
                                        name="pokerlab-web-worker")  # fmt: skip
        process.start()
        child.close()
        worker = _Worker(process, parent)
        if not parent.poll(_START_TIMEOUT):
            worker.kill()
            raise WorkerCrashed("a worker did not start in time")
        status, detail = parent.recv()
        if status != "ready":
            worker.kill()
            raise WorkerCrashed(f"a worker failed to start:\n{detail}")
        return worker

    def _add(self, generation: int) -> None:
        worker = self._spawn()
        with self._lock:
            current = generation == self._generation
            if current:
                self._workers.add(worker)
                self._idle.put(worker)
        if not current:
            worker.kill()

    def start(self) -> None:
        """Start the workers (in parallel) and wait until each has warmed up. Idempotent."""
        with self._lock:
            if self._started:
                return
            self._started = True
            generation = self._generation
        errors: list[BaseException] = []

        def add() -> None:
            try:
                self._add(generation)
            except BaseException as exc:  # reported below, in the caller's thread
                errors.append(exc)

        threads = [threading.Thread(target=add) for _ in range(self.size)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        if errors:
            raise errors[0]

    def _replace(self, worker: _Worker) -> None:
        """Kill ``worker`` and start another in the background."""
        with self._lock:
            self._workers.discard(worker)
            generation = self._generation
        worker.kill()
        threading.Thread(target=self._add, args=(generation,), daemon=True).start()

    def _release(self, worker: _Worker) -> None:
        """Make ``worker`` free again, unless :meth:`close` retired it meanwhile."""
        with self._lock:
            if worker in self._workers:
                self._idle.put(worker)
                return
        worker.kill()

    def run(self, task: str, kwargs: dict[str, Any], timeout: float) -> tuple[str, Any]:
        """Run ``task`` in a worker: ``("ok", payload)`` or ``("error", error payload)``.

        Raises :class:`PoolBusyError` when no worker frees up within ``timeout``,
        :class:`TaskTimeout` when the task runs longer (its worker is replaced), and
        :class:`WorkerCrashed` when the worker dies or fails unexpectedly."""
        self.start()
        started = time.monotonic()
        try:
            worker = self._idle.get(timeout=timeout)
        except queue.Empty:
            raise PoolBusyError(f"every worker stayed busy for {timeout:g} s") from None
        left = max(0.0, timeout - (time.monotonic() - started))
        try:
            worker.conn.send((task, kwargs))
            if not worker.conn.poll(left):
                self._replace(worker)
                raise TaskTimeout(f"the task ran longer than {timeout:g} s")
            status, payload = worker.conn.recv()
        except (EOFError, OSError, BrokenPipeError) as exc:
            self._replace(worker)
            raise WorkerCrashed(f"the worker stopped: {exc!r}") from None
        self._release(worker)  # an unexpected exception leaves the worker itself healthy
        if status == "crash":
            raise WorkerCrashed(payload)
        return status, payload

    def close(self) -> None:
        """Stop every worker (a later :meth:`start` or :meth:`run` starts new ones)."""
        with self._lock:
            self._generation += 1
            self._started = False
            workers = list(self._workers)
            self._workers.clear()
            while not self._idle.empty():
                self._idle.get_nowait()
        for worker in workers:
            worker.kill()
