"""A pool of worker processes for the long computations (equity, outs, draw advice).

Why processes: an exact enumeration holds a core for seconds; in a thread it would hold the
interpreter too and every other request would wait. Each worker is started once (``spawn``),
imports pokerlab and runs a small warm-up so numba's compiled kernels are loaded before the
first request, then serves one task at a time over a pipe.

Limits: a task gets ``timeout`` seconds (the caller passes the request's time limit, capped by
the server); a worker still busy after that is killed and replaced, so no request can hold a core
for longer than the server allows. Waiting for a free worker is bounded the same way.

Workers are started with ``spawn``, which imports the main module again: a script that builds
the app itself needs the usual ``if __name__ == "__main__":`` guard.

The pool lives on the server's event loop: a request waiting for a worker or for its answer holds
no thread, so fifty waiting requests cost nothing while the cheap routes keep answering.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import traceback
from dataclasses import dataclass
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pokerlab._threads import available_cores

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


def _serve(conn: Connection, threads: int) -> None:
    """A worker's loop: receive ``(task, kwargs)``, answer ``("ok", payload)``,
    ``("error", payload)`` for a pokerlab error, or ``("crash", text)``. Its computations use
    at most ``threads`` threads (``NUMBA_NUM_THREADS`` caps ``pokerlab._threads``' default)."""
    os.environ["NUMBA_NUM_THREADS"] = str(threads)
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
    """``size`` worker processes; :meth:`run` gives a task to a free one and awaits its answer.

    The pool belongs to the event loop that starts it (the server's); :meth:`close` stops it and a
    later :meth:`start` (or :meth:`run`) starts a fresh one, on whichever loop is running then.
    Waiting for a worker holds no thread: the loop watches the worker's pipe.

    Cores: each worker computes on ``max(1, cores // size)`` threads (``cores`` as
    :func:`pokerlab._threads.available_cores` counts them), so ``size`` busy workers never run
    more threads than there are cores."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, got {size}")
        self.size = size
        self._context = multiprocessing.get_context("spawn")
        self._started = False
        self._generation = 0  # bumped by close(): workers of an older generation are stopped
        self._workers: set[_Worker] = set()
        self._idle: asyncio.Queue[_Worker] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _spawn(self) -> _Worker:
        parent, child = self._context.Pipe()
        threads = max(1, available_cores() // self.size)
        process = self._context.Process(target=_serve, args=(child, threads), daemon=True,
                                        name="pokerlab-web-worker")  # fmt: skip
        process.start()
        child.close()
        worker = _Worker(process, parent)
        if not parent.poll(_START_TIMEOUT):
            worker.kill()
            raise WorkerCrashed("a worker did not start in time")
        try:
            status, detail = parent.recv()
        except EOFError:
            status, detail = "crash", f"the worker exited with status {process.exitcode}"
        if status != "ready":
            worker.kill()
            raise WorkerCrashed(f"a worker failed to start:\n{detail}")
        return worker

    def _adopt(self, worker: _Worker, generation: int) -> None:
        """On the loop: free a new worker, unless the pool was closed since it was asked for."""
        if generation != self._generation or self._idle is None:
            worker.kill()
            return
        self._workers.add(worker)
        self._idle.put_nowait(worker)

    async def start(self) -> None:
        """Start the workers (in parallel) and wait until each has warmed up. Idempotent."""
        if self._started:
            return
        self._started = True
        self._loop = asyncio.get_running_loop()
        self._idle = asyncio.Queue()
        generation = self._generation
        spawned = await asyncio.gather(
            *(asyncio.to_thread(self._spawn) for _ in range(self.size)), return_exceptions=True
        )
        for worker in spawned:
            if isinstance(worker, _Worker):
                self._adopt(worker, generation)
        failures = [w for w in spawned if isinstance(w, BaseException)]
        if failures:
            self.close()
            raise failures[0]

    def _retire(self, worker: _Worker) -> None:
        """Kill ``worker`` and start another in the background."""
        self._workers.discard(worker)
        worker.kill()
        loop, generation = self._loop, self._generation
        if loop is None or not self._started:
            return

        def replace() -> None:
            try:
                fresh = self._spawn()
            except WorkerCrashed:
                return  # the pool runs one worker short; the next retirement tries again
            try:
                loop.call_soon_threadsafe(self._adopt, fresh, generation)
            except RuntimeError:  # the loop has closed
                fresh.kill()

        threading.Thread(target=replace, daemon=True).start()

    def _release(self, worker: _Worker) -> None:
        if worker in self._workers and self._idle is not None:
            self._idle.put_nowait(worker)
        else:
            worker.kill()

    async def run(self, task: str, kwargs: dict[str, Any], timeout: float) -> tuple[str, Any]:
        """Run ``task`` in a worker: ``("ok", payload)`` or ``("error", error payload)``.

        Raises :class:`PoolBusyError` when no worker frees up within ``timeout``,
        :class:`TaskTimeout` when the task runs longer (its worker is replaced), and
        :class:`WorkerCrashed` when the worker dies or fails unexpectedly."""
        await self.start()
        assert self._idle is not None
        loop = asyncio.get_running_loop()
        started = loop.time()
        try:
            worker = await asyncio.wait_for(self._idle.get(), timeout)
        except TimeoutError:
            raise PoolBusyError(f"every worker stayed busy for {timeout:g} s") from None
        left = max(0.0, timeout - (loop.time() - started))
        readable: asyncio.Future[None] = loop.create_future()

        def on_readable() -> None:
            if not readable.done():
                readable.set_result(None)

        fd = worker.conn.fileno()
        loop.add_reader(fd, on_readable)
        try:
            worker.conn.send((task, kwargs))
            await asyncio.wait_for(readable, left)
            status, payload = worker.conn.recv()
        except TimeoutError:
            self._retire(worker)
            raise TaskTimeout(f"the task ran longer than {timeout:g} s") from None
        except (EOFError, OSError) as exc:
            self._retire(worker)
            raise WorkerCrashed(f"the worker stopped: {exc!r}") from None
        except BaseException:  # cancelled while the worker computes: its answer would be stale
            self._retire(worker)
            raise
        finally:
            loop.remove_reader(fd)
        self._release(worker)  # an unexpected exception leaves the worker itself healthy
        if status == "crash":
            raise WorkerCrashed(payload)
        return status, payload

    def close(self) -> None:
        """Stop every worker (a later :meth:`start` or :meth:`run` starts new ones)."""
        self._generation += 1
        self._started = False
        self._idle = None
        workers = list(self._workers)
        self._workers.clear()
        for worker in workers:
            worker.kill()
