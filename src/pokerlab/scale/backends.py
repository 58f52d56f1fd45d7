"""Where the work of a batch runs: this machine's cores, or a Dask distributed cluster.

A backend takes tasks (a picklable function of the light module :mod:`pokerlab.scale.jobs` and
its argument) and yields ``(tag, answer)`` as each task finishes, in whatever order they finish.
It keeps a bounded number of tasks in flight, so an endless input costs bounded memory. Its
``executor`` (the process pool, or the Dask client) is what ``pokerlab.equity(..., client=)``
takes to run one job's chunks there.

* :class:`LocalBackend`: a :class:`~concurrent.futures.ProcessPoolExecutor` of ``workers``
  processes (default: every core), started with ``spawn``; each worker runs numba on one thread
  (``NUMBA_NUM_THREADS=1``, set before it loads numba), so ``workers`` processes use
  ``workers`` cores.
* :class:`DaskBackend`: a ``dask.distributed.Client``, connected to a running scheduler
  (``tcp://HOST:8786``) or to a :class:`~dask.distributed.LocalCluster` started here. A task whose
  worker dies is run again by Dask on another worker (up to Dask's ``allowed-failures``).
* :class:`InlineBackend` (``"inline"``): each task in turn, in this process, on the calling
  thread, for a caller that is itself one worker of a pool (the web server's): a process pool of
  its own would nest pools and oversubscribe the cores. Its tasks use this process's numba
  threads (``NUMBA_NUM_THREADS``); a caller stops it between tasks by raising from its
  ``progress`` callback.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import TYPE_CHECKING, Any

from pokerlab._signals import sigint_deferred
from pokerlab._threads import available_cores
from pokerlab.engine._parallel import pickled_call
from pokerlab.errors import ClusterError, cluster_failures, shorten

if TYPE_CHECKING:
    from concurrent.futures import Future

__all__ = [
    "CONNECT_TIMEOUT",
    "Backend",
    "ClusterError",
    "DaskBackend",
    "InlineBackend",
    "LocalBackend",
    "dask_client",
    "make_backend",
    "quickest_backend",
]

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for a Dask scheduler before :class:`ClusterError`."""

LOCAL_CLUSTER_CONFIG = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "500ms",
}
"""Dask settings of a LocalCluster started here (its scheduler and nannies, which run in this
process, and its workers), for the work a cluster without a dashboard has no use for. Each
worker's statistical profiler samples the running task's stack every 10 ms in the worker's
event loop (a quarter of that loop's CPU on a batch, taken from the cores the tasks run on);
every server's event-loop watchdog wakes every 20 ms (idle, the cluster took 8 % of a core,
with 500 ms 3.5 %; a stalled loop is still reported). Dotted keys: a Nanny merges this over
Dask's whole configuration one level deep."""

SCHEDULER_HTTP = {"dashboard": False, "dashboard_address": "127.0.0.1:0"}
"""The scheduler's HTTP server (health and metrics routes; it runs even without a dashboard) on
a free port of this machine's loopback: by default it takes port 8787 on every interface, and a
second cluster at once warned "Port 8787 is already in use" (distributed 2026.8)."""

INSTALL_HINT = 'Dask is not installed: pip install "pokerlab[dask]"'

WORKER_START_SECONDS = 1.0
"""About what a local backend costs before its workers compute (spawning them, importing
pokerlab, loading its cached kernels): a flop report of AA vs KK took 1.22 s on 2 local workers
and 0.51 s inline, so about 0.96 s went to the start (a 2-core Intel Xeon, warm numba cache)."""

SECONDS_PER_RUN = 2e-4
"""What one exact ``pokerlab.equity`` run of a report costs beside its kernel's estimate: the
call's checks and set-up (profiled at 0.12-0.2 ms a flop over 400 hold'em and Omaha flops, about
half of each run; rounded up)."""

Task = tuple[Any, Callable[[Any], Any], Any]  # (tag, function, argument)


def _single_thread_worker() -> None:
    """Initializer of a local worker: numba on one thread (numba is not loaded yet)."""
    os.environ["NUMBA_NUM_THREADS"] = "1"


class _ProcessPool(ProcessPoolExecutor):
    """A process pool whose workers never hear Ctrl-C: the pool starts them as tasks are
    submitted, each inside :func:`sigint_deferred`. Ctrl-C is the parent's to handle (it stops
    the workers); ignored only once a worker had started (its initializer), it reached one still
    importing, which printed a traceback ("Fatal Python error: init_import_site")."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future[Any]:
        with sigint_deferred():
            return super().submit(fn, *args, **kwargs)


class LocalBackend:
    """``workers`` processes of this machine (default: one per core)."""

    def __init__(self, workers: int | None = None) -> None:
        import multiprocessing

        count = workers if workers is not None else available_cores()
        if count < 1:
            raise ClusterError(f"a local backend needs at least 1 worker, got {count}")
        self.workers = count
        self._pool = _ProcessPool(
            count, mp_context=multiprocessing.get_context("spawn"),
            initializer=_single_thread_worker,
        )  # fmt: skip

    @property
    def executor(self) -> Any:
        """The process pool (``pokerlab.equity``'s ``client=``)."""
        return self._pool

    def run(self, tasks: Iterable[Task]) -> Iterator[tuple[Any, Any]]:
        from concurrent.futures import FIRST_COMPLETED, wait

        limit = 4 * self.workers
        pending: dict[Future[Any], Any] = {}
        source = iter(tasks)
        exhausted = False
        while pending or not exhausted:
            while not exhausted and len(pending) < limit:
                try:
                    tag, function, argument = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending[self._pool.submit(function, argument)] = tag
            if not pending:
                break
            done, _ = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield pending.pop(future), future.result()

    def pids(self) -> list[int]:
        """Process ids of the workers started so far (for benchmarks)."""
        return [p.pid for p in getattr(self._pool, "_processes", {}).values()]

    def __enter__(self) -> LocalBackend:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is not None:
            # Interrupted: drop what has not started and stop the running tasks now rather than
            # when they finish (the executor has no public way to, hence its process table).
            for process in list(getattr(self._pool, "_processes", {}).values()):
                process.terminate()
        self._pool.shutdown(wait=True, cancel_futures=True)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise ClusterError(INSTALL_HINT) from None
    return distributed


def dask_client(scheduler: str | None = None, local_cluster: int | None = None) -> Any:
    """A ``dask.distributed.Client``: of the scheduler at ``scheduler`` (``tcp://HOST:8786``),
    or of a new LocalCluster of ``local_cluster`` single-threaded worker processes (closed with
    the client). :class:`ClusterError` when Dask is missing or the scheduler does not answer
    within :data:`CONNECT_TIMEOUT` seconds."""
    distributed = _import_distributed()
    if (scheduler is None) == (local_cluster is None):
        raise ClusterError("give either a scheduler address or a local cluster size")
    if scheduler is not None:
        return _scheduler_client(distributed, scheduler)
    assert local_cluster is not None
    if local_cluster < 1:
        raise ClusterError(f"a local cluster needs at least 1 worker, got {local_cluster}")
    import logging

    import dask

    saved = dict(os.environ)
    cluster = None
    try:
        # the workers spawned now never hear Ctrl-C (see sigint_deferred). A terminal's Ctrl-C
        # reaches the whole group; the parent stops the cluster, and each worker printed a
        # KeyboardInterrupt traceback of its own (as _single_thread_worker avoids for the local
        # backend). A Ctrl-C during the start-up is heard once the cluster stands
        with dask.config.set(LOCAL_CLUSTER_CONFIG), sigint_deferred():
            cluster = distributed.LocalCluster(
                n_workers=local_cluster, threads_per_worker=1, processes=True,
                dashboard_address=None, scheduler_kwargs=SCHEDULER_HTTP,
                silence_logs=logging.ERROR,
                env={"NUMBA_NUM_THREADS": "1"}, config=LOCAL_CLUSTER_CONFIG,
            )  # fmt: skip
    except BaseException:
        if cluster is not None:  # interrupted as the start-up ended
            cluster.close()
        raise
    finally:
        _restore_environ(saved)
    client = distributed.Client(cluster)
    client.pokerlab_owned_cluster = cluster
    return client


WORKERS_TIMEOUT = 10.0
"""Seconds to wait for a scheduler with no worker to get one before :class:`ClusterError`."""


def _scheduler_client(distributed: Any, scheduler: str) -> Any:
    """A client of the scheduler at ``scheduler`` that has a worker, or :class:`ClusterError`
    within :data:`CONNECT_TIMEOUT` + :data:`WORKERS_TIMEOUT` seconds. The connection is made in
    a thread given a deadline of its own: Dask's ``timeout`` did not end the wait on a server
    that accepts the connection and then says nothing a scheduler says (a dashboard, a web
    server), and any failure to connect (a worker's address, a banner, an unknown protocol)
    raised its own traceback."""
    import threading
    from urllib.parse import urlsplit

    where = f"the Dask scheduler at {shorten(scheduler)}"
    try:  # a port out of range waited the whole timeout and said "Timed out"
        port = urlsplit(scheduler if "://" in scheduler else f"tcp://{scheduler}").port
    except ValueError:
        port = 0
    if port == 0:
        raise ClusterError(f"cannot reach {where}: its port is not one of 1 to 65535")
    outcome: dict[str, Any] = {}

    def connect() -> None:
        try:
            outcome["client"] = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT)
        except BaseException as exc:  # reported below, in the caller's thread
            outcome["error"] = exc

    thread = threading.Thread(target=connect, name="pokerlab-dask-connect", daemon=True)
    thread.start()
    thread.join(CONNECT_TIMEOUT + 1.0)
    if "error" in outcome:
        exc = outcome["error"]
        detail = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise ClusterError(f"cannot reach {where}: {shorten(detail)}") from None
    if "client" not in outcome:
        raise ClusterError(
            f"cannot reach {where}: no answer as a Dask scheduler within {CONNECT_TIMEOUT:g} s"
        )
    client = outcome["client"]
    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT)
        except Exception:
            client.close()
            raise ClusterError(
                f"{where} has no worker (none joined within {WORKERS_TIMEOUT:g} s): start "
                f"one with `dask worker {shorten(scheduler)}`"
            ) from None
    return client


def _restore_environ(saved: dict[str, str]) -> None:
    """Put this process's environment back as it was. A Dask nanny sets variables such as
    ``OMP_NUM_THREADS=1`` and ``MALLOC_TRIM_THRESHOLD_`` in its parent's environment before it
    spawns a worker (distributed 2026.8), so every process the caller started afterwards would
    inherit them; the workers, already spawned, keep theirs."""
    for key in [k for k in os.environ if k not in saved]:
        del os.environ[key]
    for key, value in saved.items():
        if os.environ.get(key) != value:
            os.environ[key] = value


class DaskBackend:
    """Tasks on a Dask cluster through ``client``; closes the client (and its LocalCluster) at
    exit only when it made them itself (``owned``)."""

    def __init__(self, client: Any, owned: bool = False) -> None:
        self.client = client
        self.owned = owned
        self.workers = max(1, sum(client.nthreads().values()))

    @property
    def executor(self) -> Any:
        """The Dask client (``pokerlab.equity``'s ``client=``)."""
        return self.client

    def run(self, tasks: Iterable[Task]) -> Iterator[tuple[Any, Any]]:
        distributed = _import_distributed()
        limit = 4 * self.workers
        source = iter(tasks)
        tags: dict[str, Any] = {}
        queue = distributed.as_completed()
        exhausted = False

        def refill() -> None:
            nonlocal exhausted
            while not exhausted and len(tags) < limit:
                try:
                    tag, function, argument = next(source)
                except StopIteration:
                    exhausted = True
                    return
                future = self.client.submit(pickled_call, function, argument, pure=False)
                tags[future.key] = tag
                queue.add(future)

        refill()
        while tags:
            future = next(queue)
            tag = tags.pop(future.key)
            with cluster_failures():
                answer = pickle.loads(future.result())
            future.release()
            refill()
            yield tag, answer

    def __enter__(self) -> DaskBackend:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.owned:
            cluster = getattr(self.client, "pokerlab_owned_cluster", None)
            self.client.close()
            if cluster is not None:
                cluster.close()


class InlineBackend:
    """Tasks run one after another in this process, on the calling thread, as they are asked
    for: nothing runs ahead, so a caller that stops reading (an exception raised while it handles
    an answer) leaves no work behind."""

    workers = 1

    @property
    def executor(self) -> None:
        """No executor: ``pokerlab.equity(..., client=None)`` runs its chunks here."""
        return None

    def run(self, tasks: Iterable[Task]) -> Iterator[tuple[Any, Any]]:
        for tag, function, argument in tasks:
            yield tag, function(argument)

    def __enter__(self) -> InlineBackend:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        return None


Backend = LocalBackend | DaskBackend | InlineBackend


def quickest_backend(
    work_seconds: float,
    backend: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
) -> str:
    """``"inline"`` where the default local backend was asked for (``backend`` "local", no
    ``workers``, no cluster) and ``work_seconds`` of one core end sooner in this process than
    on a pool of every core, which first takes :data:`WORKER_START_SECONDS` to start; else
    ``backend``. The answers are the same either way (each task is one exact run)."""
    if backend != "local" or any(
        given is not None for given in (workers, scheduler, local_cluster, client)
    ):
        return backend
    on_pool = WORKER_START_SECONDS + work_seconds / available_cores()
    return "inline" if work_seconds <= on_pool else backend


def backend_sizes(
    workers: object, local_cluster: object, chunk_size: object
) -> tuple[int | None, int | None, int | None]:
    """``workers``, ``local_cluster`` and ``chunk_size`` as whole numbers of at least 1
    (``None`` kept), else the one-line error of a thread count naming the argument."""
    from pokerlab._threads import resolve_threads

    workers, local_cluster, chunk_size = (
        None if value is None else resolve_threads(value, name)  # type: ignore[arg-type]
        for value, name in ((workers, "workers"), (local_cluster, "local_cluster"),
                            (chunk_size, "chunk_size"))
    )  # fmt: skip
    return workers, local_cluster, chunk_size


def make_backend(
    backend: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    work_seconds: float | None = None,
) -> Backend:
    """The backend a batch asked for: ``client`` (a Dask client you own) wins, then
    ``scheduler``, then ``local_cluster``, then ``backend`` ("local"; "inline", this process and
    thread, which takes no ``workers`` but 1; or "dask", which needs one of the others). Given
    the estimated ``work_seconds`` of one core, the default local backend is run inline where
    that ends sooner (:func:`quickest_backend`)."""
    if work_seconds is not None:
        backend = quickest_backend(work_seconds, backend, workers=workers, scheduler=scheduler,
                                   local_cluster=local_cluster, client=client)  # fmt: skip
    if client is not None:
        return DaskBackend(client)
    if scheduler is not None or local_cluster is not None:
        return DaskBackend(dask_client(scheduler, local_cluster), owned=True)
    if backend == "local":
        return LocalBackend(workers)
    if backend == "inline":
        if workers not in (None, 1):
            raise ClusterError(f"the inline backend runs in this process, not on {workers} workers")
        return InlineBackend()
    if backend == "dask":
        raise ClusterError(
            "the dask backend needs a scheduler address, a local cluster or a client"
        )
    raise ClusterError(f"unknown backend '{backend}': use local, inline or dask")
