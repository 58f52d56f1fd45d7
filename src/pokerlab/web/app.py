"""The ASGI app: JSON routes under ``/api``, the simulator page at ``/``.

``create_app()`` is the factory ``pokerlab serve`` hands to uvicorn. Every route answers the
same JSON as the matching ``pokerlab ... --json`` command (the payloads come from the library's
``to_dict()``); bad input is a 422 answer ``{"error": {"type", "message", "field"}}`` carrying the
library's message and the request field at fault; a request that outgrows its time limit is a
422 on ``time_limit``; 503 means every worker stayed busy. A 500 is a bug.

Equity, outs and draw advice run in a :class:`~pokerlab.web.pool.WorkerPool` of processes, so a
long computation never blocks the others; ranges, evaluation and the game list are quick and run
on the event loop itself (each takes well under a millisecond).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from pokerlab import __version__
from pokerlab.errors import PokerlabError
from pokerlab.web import analytics, tasks
from pokerlab.web.models import (
    DrawRequest,
    EquityRequest,
    ErrorBody,
    EvaluateRequest,
    OutsRequest,
    RangeRequest,
)
from pokerlab.web.pool import PoolBusyError, TaskTimeout, WorkerCrashed, WorkerPool

__all__ = ["Settings", "create_app"]

STATIC = Path(__file__).parent / "static"
_GRACE = 2.0
"""Seconds a worker gets beyond a task's time limit before it is killed (an equity run stops
itself at the limit; outs and draw advice cannot, so they are killed)."""


@dataclass(frozen=True)
class Settings:
    """Server limits. ``workers``: processes for long computations; ``max_seconds``: the most
    any request may compute (its own ``time_limit`` can only lower it)."""

    workers: int = max(1, os.cpu_count() or 1)
    max_seconds: float = 10.0

    @classmethod
    def from_env(cls) -> Settings:
        """``POKERLAB_WEB_WORKERS`` and ``POKERLAB_WEB_MAX_SECONDS`` (set by ``pokerlab serve``)."""
        default = cls()
        workers = os.environ.get("POKERLAB_WEB_WORKERS")
        seconds = os.environ.get("POKERLAB_WEB_MAX_SECONDS")
        return cls(
            workers=int(workers) if workers else default.workers,
            max_seconds=float(seconds) if seconds else default.max_seconds,
        )


class _Failure(Exception):
    """An answer other than 200, raised inside a route."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body)
        self.status = status
        self.body = body


def _error(kind: str, message: str, field: str | None = None) -> dict[str, Any]:
    return {"error": {"type": kind, "message": message, "field": field}}


def _validation_body(exc: RequestValidationError) -> dict[str, Any]:
    """The first validation problem as an error body; ``field`` is its path in the body."""
    first = exc.errors()[0] if exc.errors() else {"loc": (), "msg": "invalid request"}
    loc = [str(part) for part in first.get("loc", ())]
    field = ".".join(loc[1:]) if len(loc) > 1 and loc[0] == "body" else None
    message = f"{field}: {first['msg']}" if field else str(first["msg"])
    return _error("ValidationError", message, field)


_ERRORS: dict[int | str, dict[str, Any]] = {
    422: {"model": ErrorBody, "description": "Bad input: the library's message and the field."},
    503: {"model": ErrorBody, "description": "Every worker stayed busy; try again."},
}


def create_app(settings: Settings | None = None) -> FastAPI:
    """The pokerlab web app (routes in the module docstring)."""
    config = settings or Settings.from_env()
    pool = WorkerPool(config.workers)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        await pool.start()
        try:
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

    @app.exception_handler(RequestValidationError)
    async def on_validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        return JSONResponse(_validation_body(exc), status_code=422)

    @app.exception_handler(PokerlabError)
    async def on_pokerlab(_: Request, exc: PokerlabError) -> JSONResponse:
        return JSONResponse(tasks.error_payload(exc), status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        body = _error("HTTPError", str(exc.detail))
        return JSONResponse(body, status_code=exc.status_code, headers=exc.headers)

    @app.exception_handler(_Failure)
    async def on_failure(_: Request, exc: _Failure) -> JSONResponse:
        return JSONResponse(exc.body, status_code=exc.status)

    async def in_pool(
        task: str, kwargs: dict[str, Any], time_limit: float | None
    ) -> dict[str, Any]:
        limit = config.max_seconds if time_limit is None else min(time_limit, config.max_seconds)
        try:
            status, payload = await pool.run(task, {**kwargs, "limit": limit}, limit + _GRACE)
        except TaskTimeout:
            raise _Failure(422, tasks.error_payload(tasks.time_limit_error(limit))) from None
        except PoolBusyError as exc:
            raise _Failure(503, _error("Busy", f"the server is busy: {exc}")) from None
        except WorkerCrashed as exc:
            raise _Failure(500, _error("InternalError", f"a worker failed: {exc}")) from None
        if status == "error":
            raise _Failure(422, payload)
        result: dict[str, Any] = payload
        return result

    @app.get("/api/games", summary="The games pokerlab knows")
    async def games() -> dict[str, Any]:
        return tasks.games()

    @app.post("/api/equity", summary="Equity of each player", responses=_ERRORS)
    async def equity(body: EquityRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab equity --json``."""
        return await in_pool("equity", body.model_dump(), body.time_limit)

    @app.post("/api/outs", summary="Winning, tying and losing next cards", responses=_ERRORS)
    async def outs(body: OutsRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab outs --json``."""
        return await in_pool("outs", body.model_dump(exclude={"time_limit"}), body.time_limit)

    @app.post("/api/draw", summary="Five-card draw: keep/discard advice", responses=_ERRORS)
    async def draw(body: DrawRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab draw advise --json``."""
        return await in_pool("draw", body.model_dump(exclude={"time_limit"}), body.time_limit)

    @app.post("/api/range", summary="Expand, count and canonicalise a range", responses=_ERRORS)
    async def range_(body: RangeRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab range --json``."""
        return tasks.run_range(range=body.text, dead=body.dead, list=body.list_combos)

    @app.post("/api/evaluate", summary="Value of a 5, 6 or 7-card high hand", responses=_ERRORS)
    async def evaluate(body: EvaluateRequest) -> dict[str, Any]:
        """Same JSON as ``pokerlab eval --json``."""
        return tasks.run_evaluate(cards=body.cards)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    app.include_router(analytics.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
