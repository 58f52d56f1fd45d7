"""JSON routes of the flop report and the preflop matrix of the page's range-analytics tab:
``POST /api/flops`` (player 1's exact equity on every flop, as ``pokerlab flops``) and
``POST /api/matrix`` (the exact heads-up preflop class matrix, as ``pokerlab matrix``), each
answering what ``pokerlab flops --json`` / ``pokerlab matrix --json`` print.

Added by :func:`pokerlab.web.app.create_app` (:func:`add_routes`). Both run in the worker pool as
equity does, within the server's time limit, and both stream their progress and can be stopped
(``POST /api/flops/stream`` and ``POST /api/matrix/stream``: :data:`FLOPS`, :data:`MATRIX`). In
a worker the report runs on the library's ``inline`` backend (see :mod:`pokerlab.web.tasks`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Request, Response
from pydantic import Field

from pokerlab.ranges import CLASS_NAMES
from pokerlab.web.models import (
    MAX_PLAYERS,
    BodyModel,
    Cards,
    GameName,
    HandOrRange,
    PooledTask,
    TimeLimit,
)

__all__ = ["FLOPS", "MATRIX", "FlopsRequest", "MatrixRequest", "add_routes"]

InPool = Callable[[Request, Response, str, dict[str, Any], float | None], Awaitable[dict[str, Any]]]

ClassName = Annotated[str, Field(max_length=10)]


class FlopsRequest(BodyModel):
    """``pokerlab flops``: player 1's hand or range, then each opponent's."""

    game: GameName = "holdem"
    players: list[HandOrRange] = Field(
        max_length=MAX_PLAYERS,
        description="Player 1 (whose equity is reported), then one hand or range per opponent.",
        examples=[["AsKs", "QQ+"], ["AsAhKsKh", "JdTd9c8c"]],
    )
    dead: Cards = ""
    time_limit: TimeLimit = None


class MatrixRequest(BodyModel):
    """``pokerlab matrix``: the classes of a sub-matrix, or none for all of the game's."""

    names: list[ClassName] | None = Field(
        default=None,
        max_length=len(CLASS_NAMES),
        description="Hand classes (a sub-matrix); none: all of the game's (169, short deck 81).",
        examples=[["AA", "KK", "AKs"]],
    )
    game: GameName = "holdem"
    time_limit: TimeLimit = None


FLOPS = PooledTask("flops", FlopsRequest, lambda body: body.model_dump(),
                   "Player 1's exact equity on every flop")  # fmt: skip
"""The flop report's route, which also streams its progress (``POST /api/flops/stream``)."""

MATRIX = PooledTask("matrix", MatrixRequest, lambda body: body.model_dump(exclude={"time_limit"}),
                    "Exact heads-up equity of preflop classes against each other")  # fmt: skip
"""The preflop matrix's route, which also streams its progress (``POST /api/matrix/stream``)."""


def add_routes(app: FastAPI, in_pool: InPool, errors: dict[int | str, dict[str, Any]]) -> None:
    """``POST /api/flops`` and ``POST /api/matrix`` on ``app``, each run by ``in_pool``
    (:func:`pokerlab.web.app.create_app`'s: a worker process, within the server's time limit);
    ``errors``: the error answers the schema lists for them, as for every pooled route."""
    for spec in (FLOPS, MATRIX):
        _add_route(app, in_pool, errors, spec)


def _add_route(
    app: FastAPI, in_pool: InPool, errors: dict[int | str, dict[str, Any]], spec: PooledTask
) -> None:
    """``POST /api/{task}`` for ``spec``: its report's fields."""

    async def route(body: Any, request: Request, response: Response) -> dict[str, Any]:
        return await in_pool(request, response, spec.task, spec.arguments(body),
                             spec.time_limit(body))  # fmt: skip

    route.__annotations__["body"] = spec.body  # FastAPI reads the body's model here
    app.post(f"/api/{spec.task}", name=spec.task, summary=spec.summary, responses=errors,
             description=f"Same JSON as ``pokerlab {spec.task} --json``.")(route)  # fmt: skip
