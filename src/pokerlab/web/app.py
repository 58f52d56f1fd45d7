"""The ASGI app: JSON routes under ``/api``, the simulator page at ``/``.

``create_app()`` is the factory ``pokerlab serve`` hands to uvicorn. Every route answers the
same JSON as the matching ``pokerlab ... --json`` command (the payloads come from the library's
``to_dict()``); bad input is a 422 answer ``{"error": {"type", "message", "field"}}`` carrying the
library's message and the request field at fault; a request that outgrows its time limit is a
422 on ``time_limit`` (outs past the server's limit, with none of their own: on no field); a
body over the size cap is a 413. 503 (with ``Retry-After``) means the workers are still warming
up, every worker stayed busy for the queue limit, or the worker died mid-task.
A 500 is a bug (logged with its traceback).

Equity, outs, draw advice, queries, hits, distributions, flop reports and preflop matrices run
in a :class:`~pokerlab.web.pool.WorkerPool` of processes, so a long computation never blocks the
others. Waiting for a worker
(``queue_seconds``) and computing (``max_seconds``) are limited separately; each answer's
``Server-Timing`` header says how long it was queued and computed, and ``GET /api/status`` how
many requests wait. A request whose client disconnects has its task stopped.

``POST /api/{task}/stream`` (equity, outs, query, distribution, flops, matrix) runs the same
request as ``POST /api/{task}`` but answers Server-Sent Events: ``start`` (``{"id"}``, the run's
id), ``progress`` (``{"fraction", "elapsed"}``, a few times a second; Monte Carlo equity adds the
running ``"samples"``, ``"equity"`` and ``"stderr"`` per player), then one ``result`` (the JSON
of ``/api/{task}``) or ``error`` (an error body). ``POST /api/stop`` (or ``/api/equity/stop``, its
older name) with that id stops the run at once: a sampled run (Monte Carlo equity, a sampled
query) answers with the deals it sampled (equity says ``"stopped": "cancelled"``), an exact one
with a ``CancelledError``. A client that disconnects from the stream has its run stopped and its
worker freed.

Range reports run on one thread beside the event loop; evaluation and the game list are quick
and run on the loop itself.

Hosts: only the names in ``allowed_hosts`` are answered (DNS rebinding), and every answer carries
a Content-Security-Policy that forbids inline script (see :mod:`pokerlab.web.middleware`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import secrets
import signal
import socket
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, StreamingResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from pokerlab import __version__
from pokerlab._threads import affinity_cores
from pokerlab.engine.limits import check_sampling
from pokerlab.errors import GameError, PokerlabError, shorten
from pokerlab.web import analytics, reports, tasks
from pokerlab.web.middleware import BodyLimit, HostCheck, RequestLog, SecurityHeaders, error_body
from pokerlab.web.models import (
    SEED_MAX,
    DrawDealRequest,
    DrawRequest,
    DrawShowdownRequest,
    EquityRequest,
    ErrorBody,
    EvaluateRequest,
    OutsRequest,
    PooledTask,
    QueryRequest,
    RangeRequest,
    StopRequest,
)
from pokerlab.web.pool import (
    PoolBusyError,
    StopHandle,
    TaskFailed,
    TaskTimeout,
    WarmingUp,
    WorkerDied,
    WorkerPool,
)

__all__ = [
    "LOOPBACK_NAMES",
    "STREAMED",
    "Settings",
    "allowed_hosts_for",
    "create_app",
    "default_workers",
]

log = logging.getLogger("pokerlab.web")

STATIC = Path(__file__).parent / "static"
DOCS = Path(__file__).parent.parent / "docs"
"""The documents a server serves at ``/docs/NAME`` (``docs/`` in the source links to them)."""
_GRACE = 2.0
"""Seconds a worker gets beyond a task's time limit before it is killed (an equity run stops
itself at the limit; outs and draw advice cannot, so they are killed)."""
_RETRY_AFTER = "2"  # seconds, in a 503's Retry-After

LOOPBACK_NAMES = ("127.0.0.1", "localhost")
_EVERY_INTERFACE = ("0.0.0.0", "::", "")

T = TypeVar("T")


def allowed_hosts_for(host: str, extra: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The ``Host`` names a server bound to ``host`` answers: the bound name, the loopback
    names for a loopback or wildcard address, this machine's names for a wildcard address, and
    ``extra``."""
    names: list[str] = []
    if host in _EVERY_INTERFACE:
        names += [*LOOPBACK_NAMES, socket.gethostname(), socket.getfqdn()]
    else:
        names.append(host)
        if host in LOOPBACK_NAMES or host.startswith("127.") or host == "::1":
            names += LOOPBACK_NAMES
    names += extra
    return tuple(dict.fromkeys(n for n in names if n))


def default_workers(threads_per_worker: int = 1) -> int:
    """Workers for ``threads_per_worker`` numba threads each within the cores this process may
    run on (:func:`~pokerlab._threads.affinity_cores`; ``os.cpu_count()`` counted the
    machine's): workers x threads <= cores, at least one."""
    return max(1, affinity_cores() // max(1, threads_per_worker))


def _env_tuple(name: str) -> tuple[str, ...]:
    return tuple(part for part in os.environ.get(name, "").split(",") if part)


@dataclass(frozen=True)
class Settings:
    """Server limits. ``workers``: processes for long computations; ``max_seconds``: the most
    any request may compute (its own ``time_limit`` can only lower it); ``queue_seconds``: the
    most a request may wait for a free worker; ``max_body_bytes``: the request size cap;
    ``allowed_hosts``: the ``Host`` names answered; ``threads_per_worker``: numba threads per
    worker (keep workers x threads within the cores); ``wait_for_workers``: start-up waits
    until the workers are warm (``pokerlab serve`` does not: it answers 503 until then)."""

    workers: int = default_workers()
    max_seconds: float = 10.0
    queue_seconds: float = 30.0
    max_body_bytes: int = 64 * 1024
    allowed_hosts: tuple[str, ...] = LOOPBACK_NAMES
    threads_per_worker: int = 1
    wait_for_workers: bool = True

    def __post_init__(self) -> None:
        # NaN passed every check downstream: each request then failed at its limit of 'nan s'
        for name in ("max_seconds", "queue_seconds"):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not math.isfinite(value) or value <= 0:
                raise ValueError(f"{name} must be a positive number of seconds, got {value!r}")
        for name in ("workers", "threads_per_worker"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number, 1 or more, got {value!r}")

    @classmethod
    def from_env(cls) -> Settings:
        """The ``POKERLAB_WEB_*`` variables set by ``pokerlab serve``: ``WORKERS``,
        ``MAX_SECONDS``, ``QUEUE_SECONDS``, ``THREADS_PER_WORKER``, ``HOST`` (the bound address)
        and ``ALLOWED_HOSTS`` (more names, comma-separated); with no ``WORKERS``, as many as
        the cores hold at ``THREADS_PER_WORKER`` threads each. Workers warm up in the
        background."""
        default = cls()

        def number(name: str, fallback: float) -> float:
            value = os.environ.get(f"POKERLAB_WEB_{name}")
            return float(value) if value else fallback

        host = os.environ.get("POKERLAB_WEB_HOST", "127.0.0.1")
        threads = int(number("THREADS_PER_WORKER", default.threads_per_worker))
        return cls(
            # one worker per core took 2 x 2 threads on 2 cores with --threads-per-worker 2
            workers=int(number("WORKERS", default_workers(threads))),
            max_seconds=number("MAX_SECONDS", default.max_seconds),
            queue_seconds=number("QUEUE_SECONDS", default.queue_seconds),
            threads_per_worker=threads,
            allowed_hosts=allowed_hosts_for(host, _env_tuple("POKERLAB_WEB_ALLOWED_HOSTS")),
            wait_for_workers=False,
        )


class _Failure(Exception):
    """An answer other than 200, raised inside a route."""

    def __init__(
        self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(body)
        self.status = status
        self.body = body
        self.headers = headers


def _unavailable(kind: str, message: str) -> _Failure:
    return _Failure(503, error_body(kind, message), {"Retry-After": _RETRY_AFTER})


def _validation_body(exc: RequestValidationError, content_type: str = "") -> dict[str, Any]:
    """The first validation problem as an error body; ``field`` is its path in the body. A
    body sent as another ``content_type`` than JSON is not read, so that is what it says."""
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    loc = [str(part) for part in first.get("loc", ())]
    kind = first.get("type")
    if kind == "json_invalid":  # its loc is the character offset, not a field
        where = f" (at character {loc[1]})" if len(loc) > 1 else ""
        return error_body("ValidationError", f"the body is not valid JSON{where}", None)
    if loc == ["body"]:  # no body, or not a JSON object
        send = "send a JSON object with Content-Type: application/json"
        media = content_type.split(";")[0].strip().lower()
        if media and media != "application/json" and not media.endswith("+json"):
            # FastAPI reads no other type: a JSON object sent as text/plain is not looked at
            what = f"was sent as {shorten(media)}, which is not read"
        elif not media and kind != "missing":  # nor one with no type (curl -H 'Content-Type:')
            what = "was sent without a Content-Type, so it is not read"
        else:
            what = "is missing" if kind == "missing" else "is not a JSON object"
        return error_body("ValidationError", f"the body {what}: {send}", None)
    field = ".".join(loc[1:]) if len(loc) > 1 and loc[0] == "body" else None
    words = _field_words(loc[1:]) if field else ""
    message = f"{words}: {_plain(first)}" if field else str(first["msg"])
    return error_body("ValidationError", message, field)


_UNPARSED = "There was an error parsing the body"
"""FastAPI's 400 for a body its JSON reader raised on with no validation error of its own."""


_ONE_OF = {"vs": "opponent"}
"""One item of a list field whose name is not a plural (the draw's ``vs``: "v 1" before)."""


def _field_words(loc: list[str]) -> str:
    """A body path as the page's words: ``players.1`` is "player 2" (the index counts from 0,
    players from 1), ``villains.0`` "villain 1", ``vs.0`` "opponent 1"."""
    words: list[str] = []
    for part in loc:
        if part.isdigit() and words:
            one = _ONE_OF.get(words[-1], words[-1].removesuffix("s"))
            words[-1] = f"{one} {int(part) + 1}"
        else:
            words.append(part)
    return ".".join(words)


def _plain(error: Any) -> str:
    """pydantic's message, said plainly for the usual length limits."""
    ctx, given = error.get("ctx") or {}, error.get("input")
    kind = error.get("type")
    if kind == "too_short" and "min_length" in ctx:
        return f"give at least {ctx['min_length']:,} (got {len(given) if given is not None else 0})"
    if kind == "string_too_long" and isinstance(given, str):
        return f"at most {ctx['max_length']:,} characters, got {len(given):,}"
    stderr = tuple(error.get("loc", ()))[-1:] == ("stderr",) and isinstance(given, float | int)
    if stderr and kind in ("greater_than_equal", "less_than"):
        # the CLI's and the query's message, in percent as the page writes it (pydantic's bound
        # reads "0.00001")
        try:
            check_sampling(None, given, None)
        except GameError as exc:
            return str(exc)
    return str(error["msg"])


_ERRORS: dict[int | str, dict[str, Any]] = {
    413: {"model": ErrorBody, "description": "The request body is over the size cap."},
    422: {"model": ErrorBody, "description": "Bad input: the library's message and the field."},
    503: {
        "model": ErrorBody,
        "description": "Warming up, every worker stayed busy, or the worker died; retry.",
    },
}


async def _until_disconnected(request: Request) -> None:
    """Returns once the client has gone away (the body has been read already)."""
    while (await request.receive())["type"] != "http.disconnect":
        pass


async def _unless_client_leaves(request: Request, work: Awaitable[T]) -> T:
    """``await work``, cancelling it if the client disconnects first (then a 499 that nobody
    reads, logged as such)."""
    task = asyncio.ensure_future(work)
    watch = asyncio.ensure_future(_until_disconnected(request))
    try:
        done, _ = await asyncio.wait({task, watch}, return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:
        task.cancel()
        raise
    finally:
        watch.cancel()
    if task in done:
        return task.result()
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
    log.info("%s %s: the client went away; its task was stopped", request.method, request.url.path)
    raise _Failure(499, error_body("ClientClosed", "the client closed the connection"))


def _pool_failure(exc: Exception, task: str, limit: float) -> _Failure:
    """The answer to a request whose pooled task ended in ``exc`` (a pool exception)."""
    if isinstance(exc, TaskTimeout):  # timed like an answer: it computed for its whole limit
        timing = {"Server-Timing": _server_timing(exc.queued, exc.computed)}
        return _Failure(422, tasks.error_payload(tasks.time_limit_error(limit, task)), timing)
    if isinstance(exc, WarmingUp):
        return _unavailable("WarmingUp", f"the server is warming up: {exc}")
    if isinstance(exc, PoolBusyError):
        return _unavailable("Busy", f"the server is busy: {exc}")
    if isinstance(exc, WorkerDied):
        return _unavailable("WorkerDied", f"{exc}; the request was not answered, retry it")
    return _Failure(500, error_body("InternalError", f"the {task} task failed (a bug)"))


def _server_timing(queued: float, computed: float) -> str:
    """The ``Server-Timing`` header of a pooled request: seconds queued and computed, in ms."""
    return f"queue;dur={queued * 1000:.1f}, compute;dur={computed * 1000:.1f}"


_POOL_ERRORS = (TaskTimeout, WarmingUp, PoolBusyError, WorkerDied, TaskFailed)


def _event(kind: str, data: dict[str, Any]) -> bytes:
    """One Server-Sent Event."""
    return f"event: {kind}\ndata: {json.dumps(data)}\n\n".encode()


@dataclass
class _Stream:
    """A streamed run: its stop handle and the task awaiting its answer."""

    handle: StopHandle
    work: asyncio.Future[Any]

    def stop(self) -> None:
        """Stop the run: through the worker's stop flag once a worker has it, else (still
        queued) by giving up its place."""
        if self.handle.running:
            self.handle.stop()
        else:
            self.work.cancel()


EQUITY = PooledTask("equity", EquityRequest, lambda body: body.model_dump(),
                    "Equity of each player", " (Monte Carlo: with running estimates)")  # fmt: skip
OUTS = PooledTask("outs", OutsRequest, lambda body: body.model_dump(),
                  "Winning, tying and losing next cards")  # fmt: skip
QUERY = PooledTask("query", QueryRequest, lambda body: {"text": body.text},
                   "Aggregates over the deals of a spot")  # fmt: skip
STREAMED = (EQUITY, OUTS, QUERY, analytics.DISTRIBUTION, reports.FLOPS, reports.MATRIX)
"""The pooled routes that also stream their progress (``POST /api/{task}/stream``)."""

_EXACT_BOUNDS = {float(bound): bound for bound in (SEED_MAX,)}
"""Integer bounds of the request models that a float cannot hold, by their float."""


def _integer_bounds(node: Any) -> Any:
    """``node`` (an OpenAPI schema) with the bounds of its integer fields as integers: FastAPI's
    schema model reads every bound as a float (the seed's 2**63 - 1 was 9.223372036854776e+18);
    those a float cannot hold come back exactly from :data:`_EXACT_BOUNDS`."""
    if isinstance(node, list):
        return [_integer_bounds(item) for item in node]
    if not isinstance(node, dict):
        return node
    out = {key: _integer_bounds(value) for key, value in node.items()}
    if out.get("type") == "integer":
        for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            value = out.get(key)
            if isinstance(value, float) and value.is_integer():
                out[key] = _EXACT_BOUNDS.get(value, int(value))
    return out


@contextmanager
def _stopping_tasks_on_exit_signals(pool: WorkerPool) -> Iterator[None]:
    """While the server runs, Ctrl-C (or SIGTERM) first asks the pool's running tasks to stop,
    then runs the handler in place (uvicorn's, which waits for the answers): a Monte Carlo run
    answers with what it sampled at once, where the shutdown waited for it to end (8 s). Off
    the main thread (a test client's), or with no handler of the server's, nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved: dict[signal.Signals, Any] = {}
    for sig in (signal.SIGINT, signal.SIGTERM):
        previous = signal.getsignal(sig)
        if callable(previous):
            saved[sig] = previous
            signal.signal(sig, partial(_stop_then, pool, previous))
    try:
        yield
    finally:
        for sig, previous in saved.items():
            signal.signal(sig, previous)


def _stop_then(pool: WorkerPool, previous: Callable[..., Any], sig: int, frame: Any) -> None:
    pool.stop_running()
    previous(sig, frame)


def create_app(settings: Settings | None = None) -> FastAPI:
    """The pokerlab web app (routes in the module docstring)."""
    config = settings or Settings.from_env()
    pool = WorkerPool(config.workers, config.threads_per_worker)
    ranges = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pokerlab-range")
    local_warm: dict[str, asyncio.Future[None]] = {}

    def warm_locally() -> None:
        """The kernels the server process itself runs (ranges, evaluation)."""
        tasks.run_evaluate(cards="Kh Kd Ks 4c 4d 2s 7h")
        tasks.run_range(range="15%,AKs", dead="Ah", list=True)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        local_warm["done"] = asyncio.get_running_loop().run_in_executor(ranges, warm_locally)
        if config.wait_for_workers:
            await pool.start()
            await local_warm["done"]
        else:
            pool.launch()
        log.info(
            "pokerlab web: %d workers x %d numba threads, compute limit %g s, queue limit %g s, "
            "hosts %s", config.workers, config.threads_per_worker, config.max_seconds,
            config.queue_seconds, ", ".join(config.allowed_hosts),
        )  # fmt: skip
        try:
            with _stopping_tasks_on_exit_signals(pool):
                yield
        finally:
            pool.close()

    app = FastAPI(
        title="pokerlab",
        version=__version__,
        description="Poker equity, outs, ranges and draw advice; the same JSON as the CLI.",
        lifespan=lifespan,
        openapi_url="/api/openapi.json",
        docs_url=None,  # the Swagger page loads its script from a CDN; the app stays offline
        redoc_url=None,
    )
    app.state.pool = pool
    app.state.settings = config
    schema = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = _integer_bounds(schema())
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]
    # added innermost first: the log sees every answer, the host check comes before the body
    app.add_middleware(BodyLimit, max_bytes=config.max_body_bytes)
    app.add_middleware(HostCheck, allowed_hosts=config.allowed_hosts)
    app.add_middleware(SecurityHeaders)
    app.add_middleware(RequestLog)

    @app.exception_handler(RequestValidationError)
    async def on_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        content_type = request.headers.get("content-type", "")
        return JSONResponse(_validation_body(exc, content_type), status_code=422)

    @app.exception_handler(PokerlabError)
    async def on_pokerlab(_: Request, exc: PokerlabError) -> JSONResponse:
        return JSONResponse(tasks.error_payload(exc), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 400 and exc.detail == _UNPARSED:  # bad input, said plainly
            message = ("the body is not JSON the server can read: invalid UTF-8, nested too "
                       "deep, or a number of thousands of digits")  # fmt: skip
            return JSONResponse(error_body("ValidationError", message), status_code=422)
        kind = "TooLarge" if exc.status_code == 413 else "HTTPError"
        body = error_body(kind, str(exc.detail))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(_Failure)
    async def on_failure(_: Request, exc: _Failure) -> JSONResponse:
        return JSONResponse(exc.body, status_code=exc.status, headers=exc.headers)

    def locally_ready() -> bool:
        done = local_warm.get("done")
        return done is not None and done.done()

    def ready() -> bool:
        return bool(pool.status()["ready"]) and locally_ready()

    def check_ready(needs_workers: bool = True) -> None:
        if not (ready() if needs_workers else locally_ready()):
            status = pool.status()
            raise _unavailable(
                "WarmingUp",
                f"the server is warming up ({status['workers_ready']} of {status['workers']} "
                "workers ready); try again in a few seconds",
            )

    def task_arguments(
        task: str, kwargs: dict[str, Any], time_limit: float | None
    ) -> tuple[dict[str, Any], float]:
        """A pooled task's keyword arguments (the route's ``kwargs``, the seconds it may compute
        and the numba threads of a worker, if the task takes them) and those seconds."""
        limit = config.max_seconds if time_limit is None else min(time_limit, config.max_seconds)
        threads = tasks.threads_for(tasks.TASKS[task], config.threads_per_worker)
        return {**kwargs, **threads, "limit": limit}, limit

    async def in_pool(
        request: Request, response: Response, task: str, kwargs: dict[str, Any],
        time_limit: float | None,
    ) -> dict[str, Any]:  # fmt: skip
        check_ready()
        arguments, limit = task_arguments(task, kwargs, time_limit)
        work = pool.run(
            task, arguments, queue_timeout=config.queue_seconds,
            timeout=limit + _GRACE, stoppable=task in tasks.STOPPABLE,
        )  # fmt: skip
        try:
            outcome = await _unless_client_leaves(request, work)
        except _POOL_ERRORS as exc:
            raise _pool_failure(exc, task, limit) from None
        timing = _server_timing(outcome.queued, outcome.computed)
        response.headers["Server-Timing"] = timing
        if outcome.status == "error":
            raise _Failure(422, outcome.payload, {"Server-Timing": timing})
        result: dict[str, Any] = outcome.payload
        return result

    async def off_loop(function: Any, **kwargs: Any) -> dict[str, Any]:
        result: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(
            ranges, lambda: function(**kwargs)
        )
        return result

    @app.get("/api/games", summary="The games pokerlab knows")
    async def games() -> dict[str, Any]:
        return tasks.games()

    @app.get("/api/status", summary="Workers ready, busy and idle; requests queued")
    async def status() -> dict[str, Any]:
        loop = type(asyncio.get_running_loop())
        return {
            **pool.status(),
            "ready": ready(),
            "event_loop": f"{loop.__module__}.{loop.__name__}",
        }

    @app.post("/api/equity", summary=EQUITY.summary, responses=_ERRORS)
    async def equity(body: EquityRequest, request: Request, response: Response) -> dict[str, Any]:
        """Same JSON as ``pokerlab equity --json``."""
        return await in_pool(request, response, "equity", EQUITY.arguments(body), body.time_limit)

    streams: dict[str, _Stream] = {}

    async def stream_events(
        request: Request, task: str, kwargs: dict[str, Any], time_limit: float | None
    ) -> AsyncIterator[bytes]:
        loop = asyncio.get_running_loop()
        started = loop.time()
        updates: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        handle = StopHandle()
        arguments, limit = task_arguments(task, kwargs, time_limit)
        work = asyncio.ensure_future(pool.run(
            task, arguments, queue_timeout=config.queue_seconds, timeout=limit + _GRACE,
            stoppable=True, on_progress=updates.put_nowait, stopper=handle,
        ))  # fmt: skip
        run_id = secrets.token_urlsafe(16)
        streams[run_id] = _Stream(handle, work)
        watch = asyncio.ensure_future(_until_disconnected(request))
        update: asyncio.Future[dict[str, Any]] | None = None
        try:
            yield _event("start", {"id": run_id})
            while not work.done():
                update = asyncio.ensure_future(updates.get())
                await asyncio.wait({work, update, watch}, return_when=asyncio.FIRST_COMPLETED)
                if watch.done():
                    log.info("POST %s: the client went away; its run was stopped", request.url.path)
                    return
                if update.done():
                    elapsed = loop.time() - started
                    yield _event("progress", {**update.result(), "elapsed": elapsed})
            # The answer can come in the same loop tick as the last progress frames (read just
            # before it), before the pending get() resumes: those frames are still queued (a
            # get() cancelled before it resumes takes nothing), so they go out first, in order.
            if update is not None and not update.done():
                update.cancel()
            while not updates.empty():
                elapsed = loop.time() - started
                yield _event("progress", {**updates.get_nowait(), "elapsed": elapsed})
            try:
                outcome = work.result()
            except asyncio.CancelledError:
                body = error_body("CancelledError", "stopped before a worker took the request")
                yield _event("error", body)
                return
            except _POOL_ERRORS as exc:
                yield _event("error", _pool_failure(exc, task, limit).body)
                return
            yield _event("result" if outcome.status == "ok" else "error", outcome.payload)
        finally:
            streams.pop(run_id, None)
            for future in (work, watch, update):
                if future is not None and not future.done():
                    future.cancel()  # the run's task: the pool stops it and frees its worker

    def add_stream_route(spec: PooledTask) -> None:
        """``POST /api/{task}/stream``: ``spec``'s request, its progress as Server-Sent Events."""

        async def stream(body: Any, request: Request) -> StreamingResponse:
            check_ready()
            events = stream_events(request, spec.task, spec.arguments(body), spec.time_limit(body))
            return StreamingResponse(
                events, media_type="text/event-stream", headers={"Cache-Control": "no-store"}
            )

        stream.__annotations__["body"] = spec.body  # FastAPI reads the body's model here
        answers = (f"start, progress{spec.progress}, then result (the /api/{spec.task} JSON) or "
                   "error (an error body)")  # fmt: skip
        app.post(
            f"/api/{spec.task}/stream", name=f"{spec.task}_stream",
            summary=f"{spec.summary}, with progress as Server-Sent Events",
            description=f"Runs like ``/api/{spec.task}``; stop it with ``/api/stop`` and the "
            "start event's id.",
            responses={**_ERRORS, 200: {"content": {"text/event-stream": {}},
                                        "description": answers}},
            response_class=StreamingResponse,
        )(stream)  # fmt: skip

    for spec in STREAMED:
        add_stream_route(spec)

    async def stop(body: StopRequest) -> dict[str, Any]:
        """Stops the run of a ``/api/{task}/stream`` whose start event gave ``id``; its stream
        then ends with what the run has (a sampled result, or an error for an exact run)."""
        stream = streams.get(body.id)
        if stream is None:
            raise _Failure(404, error_body("NotFound", "no running stream has that id", "id"))
        stream.stop()
        return {"stopping": True}

    not_found: dict[int | str, dict[str, Any]] = {
        404: {"model": ErrorBody, "description": "No running stream has that id."}
    }
    app.post("/api/stop", summary="Stop a streamed run", responses={**_ERRORS, **not_found})(stop)
    app.post("/api/equity/stop", name="equity_stop", responses={**_ERRORS, **not_found},
             summary="Stop a streamed run (the older name of /api/stop)")(stop)  # fmt: skip

    @app.post("/api/outs", summary=OUTS.summary, responses=_ERRORS)
    async def outs(body: OutsRequest, request: Request, response: Response) -> dict[str, Any]:
        """Same JSON as ``pokerlab outs --json``."""
        return await in_pool(request, response, "outs", OUTS.arguments(body), body.time_limit)

    @app.post("/api/draw", summary="Five-card draw: keep/discard advice", responses=_ERRORS)
    async def draw(body: DrawRequest, request: Request, response: Response) -> dict[str, Any]:
        """Same JSON as ``pokerlab draw advise --json``."""
        kwargs = body.model_dump(exclude={"time_limit"})
        return await in_pool(request, response, "draw", kwargs, body.time_limit)

    @app.post("/api/draw/deal", summary="Draw play: the player's cards of a deal",
              responses=_ERRORS)  # fmt: skip
    async def draw_deal(
        body: DrawDealRequest, request: Request, response: Response
    ) -> dict[str, Any]:
        """Deal ``hand`` of ``seed``: the player's five cards, nothing of the bot's."""
        return await in_pool(request, response, "draw_deal", body.model_dump(), None)

    @app.post("/api/draw/showdown", summary="Draw play: a deal played out", responses=_ERRORS)
    async def draw_showdown(
        body: DrawShowdownRequest, request: Request, response: Response
    ) -> dict[str, Any]:
        """The same deal re-dealt, the player keeping ``keep``, the bot drawing after him: both
        hands, the bot's discards, the winner (and the advisor's pick when ``advice``)."""
        return await in_pool(request, response, "draw_showdown", body.model_dump(), None)

    @app.post("/api/query", summary=QUERY.summary, responses=_ERRORS)
    async def query(body: QueryRequest, request: Request, response: Response) -> dict[str, Any]:
        """Same JSON as ``pokerlab query --json``; a sampled run stops at the time limit."""
        return await in_pool(request, response, "query", QUERY.arguments(body), body.time_limit)

    @app.post("/api/range", summary="Expand, count and canonicalise a range", responses=_ERRORS)
    async def range_(body: RangeRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab range --json``."""
        check_ready(needs_workers=False)
        return await off_loop(
            tasks.run_range, range=body.text, dead=body.dead, list=body.list_combos, game=body.game
        )

    @app.post("/api/evaluate", summary="What a hand is worth, in any game", responses=_ERRORS)
    async def evaluate(body: EvaluateRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab eval --json`` (``board``, ``game``: ``--board``, ``--game``)."""
        check_ready(needs_workers=False)
        return tasks.run_evaluate(cards=body.cards, board=body.board, game=body.game)

    # HEAD too, as the static files answer it (a `curl -I` health check of the page was a 405)
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    def document(name: str) -> Callable[[], FileResponse]:
        def serve() -> FileResponse:
            return FileResponse(DOCS / name, media_type="text/markdown; charset=utf-8")

        return serve

    # the query language's reference, which the Query tab points at, and the definitions it
    # links to: shipped in the package, so an installed server has them too
    for name in ("query.md", "definitions.md"):
        app.api_route(f"/docs/{name}", methods=["GET", "HEAD"], include_in_schema=False)(
            document(name)
        )

    analytics.add_routes(app, in_pool, _ERRORS)
    reports.add_routes(app, in_pool, _ERRORS)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
