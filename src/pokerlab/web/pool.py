"""A pool of worker processes for the long computations (equity, outs, draw advice, queries,
hits, distributions, flop reports, matrices).

Why processes: an exact enumeration holds a core for seconds; in a thread it would hold the
interpreter too and every other request would wait. Each worker is started once (``spawn``),
imports pokerlab and runs a warm-up of every task kind so numba's compiled kernels are loaded
before the first request, then serves one task at a time.

Pipes: tasks go to a worker over a one-way pipe (small messages, written by the parent); answers
come back over another one-way pipe that the parent reads through the event loop's own pipe
transport (``connect_read_pipe``), framed as an 8-byte length and a pickle. Nothing ever calls a
blocking ``recv()`` on a descriptor the loop has made non-blocking, so large answers arrive intact
under any loop (asyncio's or uvloop's).

Progress: a task run with ``on_progress`` (one of the tasks in ``STREAMING``) is given a
``progress(update)`` callback in its worker, which writes ``("progress", update)`` frames (at
most every :data:`_PROGRESS_EVERY` seconds) on the same reply pipe ahead of the answer's frame; the
parent hands each to ``on_progress`` and reads on until the answer. A :class:`StopHandle` given to
:meth:`WorkerPool.run` lets its caller stop the task through the worker's stop flag (a sampled run
then answers with what it sampled) without going away.

Limits: waiting for a free worker and computing are bounded separately (``queue_timeout``,
``timeout``). A task still running after its ``timeout`` has its worker killed and replaced, so no
request holds a core longer than the server allows. A task whose caller goes away (the client
disconnected) is stopped: a task in ``STOPPABLE`` (equity, outs, a query, a distribution) is
asked to stop through a shared flag and its worker kept; a task that cannot stop itself has its
worker killed and replaced. A worker found dead when its turn comes is replaced and the task goes
to another; one that dies mid-task is :class:`WorkerDied`.

Threads: each worker's numba threads are capped (``NUMBA_NUM_THREADS``, set in the worker's
environment before it imports numba) so that workers x threads stays within the cores.

Workers are started with ``spawn``, which imports the main module again: a script that builds
the app itself needs the usual ``if __name__ == "__main__":`` guard.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import pickle
import signal
import struct
import threading
import time
import traceback
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from pokerlab._numbers import counted
from pokerlab._signals import sigint_deferred

__all__ = [
    "PoolBusyError",
    "StopHandle",
    "TaskFailed",
    "TaskTimeout",
    "WarmingUp",
    "WorkerDied",
    "WorkerPool",
]

log = logging.getLogger("pokerlab.web.pool")

_START_TIMEOUT = 300.0  # a cold numba cache compiles every kernel the warm-up touches
_STOP_GRACE = 2.0  # seconds a worker asked to stop gets to answer before it is killed
_PROGRESS_EVERY = 0.2  # seconds between a streamed task's progress frames
_HEADER = struct.Struct("!Q")
_ENV_LOCK = threading.Lock()


class TaskTimeout(Exception):
    """The task did not finish within its time; its worker was killed. ``queued`` and
    ``computed``: the seconds it waited for a worker and ran, as :class:`Outcome` has them."""

    def __init__(self, message: str, queued: float = 0.0, computed: float = 0.0) -> None:
        super().__init__(message)
        self.queued = queued
        self.computed = computed


class PoolBusyError(Exception):
    """No worker became free within the time a request may wait in the queue."""


class WarmingUp(Exception):
    """No worker has finished its warm-up yet (or none could start: the message says which)."""


class WorkerDied(Exception):
    """The worker's process ended while running the task (out of memory, a signal)."""


class TaskFailed(Exception):
    """The task raised an unexpected exception in its worker (a bug); the text is its traceback."""


def _write_frame(fd: int, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


async def _read_frame(reader: asyncio.StreamReader) -> Any:
    (size,) = _HEADER.unpack(await reader.readexactly(_HEADER.size))
    return pickle.loads(await reader.readexactly(size))


async def _read_answer(
    reader: asyncio.StreamReader, on_progress: Callable[[Any], object] | None
) -> Any:
    """The task's answer frame, handing the progress frames before it to ``on_progress``."""
    while True:
        frame = await _read_frame(reader)
        if frame[0] != "progress":
            return frame
        if on_progress is not None:
            on_progress(frame[1])


def _progress_writer(fd: int) -> Callable[[Any], None]:
    """A ``progress(update)`` callback writing a progress frame at most every
    :data:`_PROGRESS_EVERY` seconds."""
    last = [0.0]

    def progress(update: Any) -> None:
        now = time.monotonic()
        if now - last[0] >= _PROGRESS_EVERY:
            last[0] = now
            _write_frame(fd, ("progress", update))

    return progress


def _warm_spots() -> list[tuple[str, list[str], str, str]]:
    """``(game, players, board, method)`` touching each game's Monte Carlo and exact kernels."""
    from pokerlab.games import GAMES

    spots = [
        ("holdem", ["AhAs", "KdKc"], "", "exact"),
        ("holdem", ["AhAs", "QQ+"], "Kh7c2d", "exact"),
    ]
    for game in GAMES.values():
        if game.is_stud:
            players = ["As2d|3c" if game.name == "razz" else "AsAd|Kc", "QhQs|Jd"]
            spots += [(game.name, players, "", "mc"), (game.name, players, "", "exact")]
        else:
            size = 2 * game.hole_cards
            players = ["AsAhKsKhJsJh"[:size], "9d8d6s5s5c4c"[:size]]
            # boards every game's deck holds (the short deck has no 2 or 3)
            spots += [(game.name, [players[0], "random"], "Qh7cTd", "mc"),
                      (game.name, players, "Qh7cTd9h", "exact")]  # fmt: skip
    return spots


def _warm_up() -> None:
    """Load the kernels of every task kind and game (from numba's on-disk cache when present:
    about a second; a cold cache compiles them, which takes minutes on a busy machine)."""
    from pokerlab.web.tasks import TASKS

    for game, players, board, method in _warm_spots():
        sampled = {"trials": 300, "seed": 1} if method == "mc" else {"trials": None, "seed": None}
        TASKS["equity"](players=players, board=board, dead="", game=game, method=method,
                        stderr=None, time_limit=None, limit=60.0, **sampled)  # fmt: skip
    for board in ("Th7c2hKs", "Th7c2h"):
        TASKS["outs"](players=["9h8h", "AsKd"], board=board, dead="", game="holdem", limit=60.0)
    for game, hand, other in (("high", "Jh Jd 7c 4s 2h", "Kc Qd 9s 8h 3c"),
                              ("2-7", "7h 5d 4c 3s Kh", "8c 6d 5h 3c 2s")):  # fmt: skip
        for vs in (["random"], [other]):
            TASKS["draw"](hand=hand, vs=vs, dead="", game=game, goal=None, method="auto",
                          trials=200, seed=1, limit=60.0)  # fmt: skip
        TASKS["draw_showdown"](
            bot="optimal", game=game, seed=1, hand=1, max_draw=5, keep=[], advice=False, limit=60.0
        )  # the optimal bot (its shipped table) and the deal kernels; fmt: skip
    for spot in ("board='Qh7c2d', trials=300, seed=1", "board='Qh7c2d3s'"):  # sampled, exact
        TASKS["query"](
            text="select avg(riverEquity(h)), histogram(handType(h, flop)) "
            f"from h='AhAs', v='KdKc', {spot}",
            limit=60.0,
        )
    TASKS["query"](  # the stud games' query kernel
        text="select avg(riverEquity(h)) from game='razz', h='As2d|3c', v='QhQs|Jd', trials=300",
        limit=60.0,
    )
    for game, hand in (("holdem", "QQ+,AKs"), ("omaha", "AA**")):  # the analytics tab's kernels
        TASKS["hits"](range=hand, board="Ks9s2d", game=game, dead="", limit=60.0)
    TASKS["distribution"](hero="QQ+", villains=["JJ"], board="Ks9s2d", game="holdem", dead="",
                          limit=60.0)  # fmt: skip


def _serve(tasks: Connection, replies: Connection, stop_flag: Any) -> None:
    """A worker's loop: receive ``(task, kwargs, stream)``, answer ``("ok", payload)``,
    ``("error", payload)`` for a pokerlab error, or ``("crash", traceback)``. Ends when
    either pipe closes (the server stopped or dropped this worker)."""
    try:
        _serve_until_closed(tasks, replies, stop_flag)
    except (BrokenPipeError, EOFError):
        return


def _serve_until_closed(tasks: Connection, replies: Connection, stop_flag: Any) -> None:
    from pokerlab.errors import PokerlabError
    from pokerlab.web.tasks import STOPPABLE, STREAMING, TASKS, error_payload

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C stops the server, which stops us
    out = replies.fileno()
    try:
        _warm_up()
    except Exception:
        _write_frame(out, ("crash", traceback.format_exc()))
        return
    _write_frame(out, ("ready", None))

    def stop() -> bool:
        return bool(stop_flag.value)

    while True:
        name, kwargs, stream = tasks.recv()
        if name in STOPPABLE:
            kwargs = {**kwargs, "stop": stop}
        if stream and name in STREAMING:
            kwargs = {**kwargs, "progress": _progress_writer(out)}
        try:
            reply: tuple[str, Any] = ("ok", TASKS[name](**kwargs))
        except PokerlabError as exc:
            reply = ("error", error_payload(exc))
        except Exception:
            reply = ("crash", traceback.format_exc())
        _write_frame(out, reply)


def describe_exit(process: BaseProcess) -> str:
    """How a worker process ended, in words ("was killed by SIGKILL", "exited with status 1")."""
    code = process.exitcode
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with status {code}"


@dataclass(eq=False)
class _Worker:
    process: BaseProcess
    tasks: Connection
    replies: asyncio.StreamReader
    transport: asyncio.ReadTransport
    stop_flag: Any
    reply: asyncio.Future[Any] | None = field(default=None)

    def alive(self) -> bool:
        return self.process.is_alive()

    def kill(self) -> None:
        self.process.kill()
        self.process.join(1)
        self.transport.close()
        self.tasks.close()
        if self.reply is not None and not self.reply.done():
            self.reply.cancel()


class StopHandle:
    """Lets the caller of :meth:`WorkerPool.run` stop its task while still awaiting the answer:
    :meth:`stop` sets the stop flag of the worker running it (a stoppable task then ends early
    and answers). ``running``: a worker has the task."""

    def __init__(self) -> None:
        self._flag: Any = None
        self.requested = False

    @property
    def running(self) -> bool:
        return self._flag is not None

    def stop(self) -> None:
        self.requested = True
        if self._flag is not None:
            self._flag.value = 1

    def _bind(self, flag: Any) -> None:
        self._flag = flag
        if self.requested:
            flag.value = 1

    def _unbind(self) -> None:
        self._flag = None


@dataclass(frozen=True)
class Outcome:
    """A task's answer: ``status`` "ok" or "error" (a pokerlab error payload), and the seconds
    it waited for a worker and computed."""

    status: str
    payload: Any
    queued: float
    computed: float


class WorkerPool:
    """``size`` worker processes; :meth:`run` gives a task to a free one and awaits its answer.

    :meth:`launch` starts the workers in the background (the server accepts connections at once
    and :meth:`run` raises :class:`WarmingUp` until one is ready); :meth:`start` waits for them.
    The pool belongs to the event loop that starts it; :meth:`close` stops it, and a later start
    begins afresh on whichever loop runs then."""

    def __init__(self, size: int, threads_per_worker: int = 1) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least 1 worker, got {size}")
        if threads_per_worker < 1:
            raise ValueError(f"a worker needs at least 1 thread, got {threads_per_worker}")
        self.size = size
        self.threads_per_worker = threads_per_worker
        self._context = multiprocessing.get_context("spawn")
        self._generation = 0  # bumped by close(): workers of an older generation are stopped
        self._workers: set[_Worker] = set()
        self._idle: asyncio.Queue[_Worker] | None = None
        self._background: set[asyncio.Task[None]] = set()
        self._waiting = 0
        self._failure: str | None = None

    # ---- starting and replacing workers ------------------------------------------------

    def _start_process(self, process: BaseProcess) -> None:
        # the child inherits the environment as it is at this moment, and never hears Ctrl-C
        # (the server stops it): one during its warm-up printed its traceback
        with _ENV_LOCK, sigint_deferred():
            before = os.environ.get("NUMBA_NUM_THREADS")
            os.environ["NUMBA_NUM_THREADS"] = str(self.threads_per_worker)
            try:
                process.start()
            finally:
                if before is None:
                    del os.environ["NUMBA_NUM_THREADS"]
                else:
                    os.environ["NUMBA_NUM_THREADS"] = before

    async def _spawn(self) -> _Worker:
        loop = asyncio.get_running_loop()
        task_out, task_in = self._context.Pipe(duplex=False)
        reply_out, reply_in = self._context.Pipe(duplex=False)
        stop_flag = self._context.RawValue("b", 0)
        process = self._context.Process(target=_serve, args=(task_out, reply_in, stop_flag),
                                        daemon=True, name="pokerlab-web-worker")  # fmt: skip
        self._start_process(process)
        task_out.close()
        reply_in.close()
        reader = asyncio.StreamReader(limit=1 << 20)
        transport, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), reply_out
        )
        worker = _Worker(process, task_in, reader, transport, stop_flag)
        try:
            status, detail = await asyncio.wait_for(_read_frame(reader), _START_TIMEOUT)
        except TimeoutError:
            worker.kill()
            raise WorkerDied(f"a worker did not warm up within {_START_TIMEOUT:g} s") from None
        except (asyncio.IncompleteReadError, OSError):
            worker.kill()
            raise WorkerDied(f"a worker {describe_exit(process)} while warming up") from None
        except BaseException:
            worker.kill()
            raise
        if status != "ready":
            worker.kill()
            raise WorkerDied(f"a worker failed to warm up:\n{detail}")
        return worker

    async def _add_worker(self, generation: int) -> None:
        try:
            worker = await self._spawn()
        except WorkerDied as exc:
            log.error("worker start failed: %s", exc)
            if not self._workers:
                self._failure = str(exc).splitlines()[0]
            return
        if generation != self._generation or self._idle is None:
            worker.kill()
            return
        self._workers.add(worker)
        self._idle.put_nowait(worker)
        log.info("worker %d ready (%d of %d)", worker.process.pid, len(self._workers), self.size)

    def _in_background(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    def _spawn_in_background(self) -> None:
        self._in_background(self._add_worker(self._generation))

    def launch(self) -> None:
        """Start the workers in the background (on the running loop). Idempotent."""
        if self._idle is not None:
            return
        self._idle = asyncio.Queue()
        self._failure = None
        for _ in range(self.size):
            self._spawn_in_background()

    async def start(self) -> None:
        """Start the workers and wait until every one has warmed up (or failed: then raise)."""
        self.launch()
        while self._background:
            await asyncio.gather(*self._background)
        if not self._workers:
            raise WorkerDied(self._failure or "no worker started")

    def _retire(self, worker: _Worker, why: str) -> None:
        """Kill ``worker`` (logging ``why``) and start another in the background."""
        self._workers.discard(worker)
        worker.kill()
        log.warning("worker %d retired: %s; starting a replacement", worker.process.pid, why)
        if self._idle is not None:
            self._spawn_in_background()

    def _release(self, worker: _Worker) -> None:
        worker.reply = None
        if worker in self._workers and self._idle is not None:
            self._idle.put_nowait(worker)
        else:
            worker.kill()

    # ---- running tasks -----------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        """Workers ready and idle, requests waiting for one, and whether the pool is usable."""
        idle = self._idle.qsize() if self._idle is not None else 0
        return {
            "ready": bool(self._workers),
            "workers": self.size,
            "workers_ready": len(self._workers),
            "idle": idle,
            "busy": len(self._workers) - idle,
            "queued": self._waiting,
            "threads_per_worker": self.threads_per_worker,
        }

    async def _acquire(self, queue_timeout: float) -> _Worker:
        """A live idle worker, waiting at most ``queue_timeout`` seconds; dead ones are
        replaced on the way."""
        assert self._idle is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + queue_timeout
        self._waiting += 1
        try:
            while True:
                left = deadline - loop.time()
                try:
                    worker = await asyncio.wait_for(self._idle.get(), max(0.0, left))
                except TimeoutError:
                    raise PoolBusyError(
                        f"every worker stayed busy for {queue_timeout:g} s "
                        f"({counted(self._waiting - 1, 'other request')} waiting)"
                    ) from None
                if worker.alive():
                    return worker
                self._retire(worker, f"found dead while idle (it {describe_exit(worker.process)})")
        finally:
            self._waiting -= 1

    def _dispatch(
        self, worker: _Worker, task: str, kwargs: dict[str, Any],
        on_progress: Callable[[Any], object] | None,
    ) -> None:  # fmt: skip
        worker.stop_flag.value = 0
        worker.tasks.send((task, kwargs, on_progress is not None))
        worker.reply = asyncio.ensure_future(_read_answer(worker.replies, on_progress))

    async def run(
        self, task: str, kwargs: dict[str, Any], *, queue_timeout: float, timeout: float,
        stoppable: bool = False, on_progress: Callable[[Any], object] | None = None,
        stopper: StopHandle | None = None,
    ) -> Outcome:  # fmt: skip
        """Run ``task`` in a worker: its :class:`Outcome` ("ok" or a pokerlab "error").

        ``on_progress(update)`` is called as the task reports progress (tasks in
        ``STREAMING``); ``stopper`` lets the caller stop a ``stoppable`` task and still get
        its answer.

        Raises :class:`WarmingUp` before any worker is ready, :class:`PoolBusyError` when no
        worker frees up within ``queue_timeout``, :class:`TaskTimeout` when the task computes
        longer than ``timeout`` (its worker is replaced), :class:`WorkerDied` when the worker
        dies mid-task and :class:`TaskFailed` when the task raised an unexpected exception.
        Cancelled (the client went away), it stops the task: ``stoppable`` tasks are asked to
        stop and keep their worker, others have their worker replaced."""
        if self._idle is None:
            self.launch()
        if not self._workers:
            raise WarmingUp(self._failure or "the workers are warming up")
        loop = asyncio.get_running_loop()
        queued_since = loop.time()  # for the timeouts; the Outcome's seconds by perf_counter:
        queued_clock = time.perf_counter()  # uvloop's loop.time() counts whole milliseconds
        for attempt in (1, 2):
            worker = await self._acquire(queue_timeout - (loop.time() - queued_since))
            try:
                self._dispatch(worker, task, kwargs, on_progress)
                break
            except OSError as exc:  # it died between the health check and the send
                self._retire(worker, f"its pipe broke at dispatch ({exc!r})")
                if attempt == 2:
                    raise WorkerDied(
                        f"two workers in a row died before taking the task: {exc}"
                    ) from None
        started_clock = time.perf_counter()
        assert worker.reply is not None
        if stopper is not None:
            stopper._bind(worker.stop_flag)
        try:
            status, payload = await asyncio.wait_for(asyncio.shield(worker.reply), timeout)
        except TimeoutError:
            self._retire(worker, f"its {task} task ran past {timeout:g} s")
            raise TaskTimeout(
                f"the task ran longer than {timeout:g} s",
                queued=started_clock - queued_clock,
                computed=time.perf_counter() - started_clock,
            ) from None
        except (asyncio.IncompleteReadError, OSError):
            await asyncio.to_thread(worker.process.join, 1.0)
            how = describe_exit(worker.process)
            self._retire(worker, f"it {how} while running {task}")
            raise WorkerDied(f"the worker computing this request {how}") from None
        except asyncio.CancelledError:
            self._abandon(worker, task, stoppable)
            raise
        finally:
            if stopper is not None:
                stopper._unbind()  # before the worker takes another task
        computed = time.perf_counter() - started_clock
        self._release(worker)
        if status == "crash":
            log.error("%s task failed in worker %d:\n%s", task, worker.process.pid, payload)
            raise TaskFailed(payload)
        return Outcome(status, payload, started_clock - queued_clock, computed)

    def _abandon(self, worker: _Worker, task: str, stoppable: bool) -> None:
        """Stop the task of a caller that went away: ask it to stop, or kill its worker."""
        if not stoppable:
            self._retire(worker, f"its {task} task was abandoned by the client")
            return
        worker.stop_flag.value = 1
        reply = worker.reply
        assert reply is not None

        async def reclaim() -> None:
            try:
                await asyncio.wait_for(asyncio.shield(reply), _STOP_GRACE)
            except (TimeoutError, asyncio.IncompleteReadError, OSError):
                self._retire(worker, f"its abandoned {task} task did not stop")
                return
            log.info("worker %d stopped an abandoned %s task", worker.process.pid, task)
            worker.stop_flag.value = 0
            self._release(worker)

        self._in_background(reclaim())

    def stop_running(self) -> None:
        """Ask the task of every busy worker to stop (a stoppable one then answers at once, with
        what it has), as :meth:`run`'s ``stopper`` does for one."""
        for worker in self._workers:
            if worker.reply is not None and not worker.reply.done():
                worker.stop_flag.value = 1

    def close(self) -> None:
        """Stop every worker (a later :meth:`launch`, :meth:`start` or :meth:`run` starts new
        ones)."""
        self._generation += 1
        self._idle = None
        for task in list(self._background):
            task.cancel()
        self._background.clear()
        workers = list(self._workers)
        self._workers.clear()
        for worker in workers:
            worker.kill()
