"""JSON routes of the page's range-analytics tab: ``POST /api/hits`` and
``POST /api/distribution`` (the same JSON as ``pokerlab hits --json`` and
``pokerlab distribution --json``).

Added by :func:`pokerlab.web.app.create_app` (:func:`add_routes`). Both run in the worker pool,
as equity does, so the server's time limit holds for them (a long range in a thread beside the
event loop ran for as long as it took). A distribution outside heads-up hold'em with a board
takes one engine call per holding, so the page allows at most
:data:`~pokerlab.web.tasks.WEB_MAX_HOLDINGS` holdings there; such a distribution also streams
its progress and can be stopped (``POST /api/distribution/stream``, :data:`DISTRIBUTION`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from fastapi import FastAPI, Request, Response
from pydantic import Field

from pokerlab.web.models import BodyModel, PooledTask, TimeLimit
from pokerlab.web.tasks import WEB_MAX_HOLDINGS

__all__ = ["DISTRIBUTION", "WEB_MAX_HOLDINGS", "DistributionRequest", "HitsRequest", "add_routes"]

InPool = Callable[[Request, Response, str, dict[str, Any], float | None], Awaitable[dict[str, Any]]]

Text = Annotated[str, Field(max_length=2000)]
Cards = Annotated[str, Field(max_length=200)]
Game = Annotated[str, Field(max_length=40)]


class HitsRequest(BodyModel):
    """``pokerlab hits``: a range and a flop, turn or river."""

    range: Text = Field(examples=["QQ+,AKs,JTs"])
    board: Cards = Field(examples=["Ks9s2d"])
    game: Game = "holdem"
    dead: Cards = ""
    time_limit: TimeLimit = None


class DistributionRequest(BodyModel):
    """``pokerlab distribution``: the hero's range, one to eight villains, a board."""

    hero: Text = Field(examples=["QQ+,AK"])
    villains: list[Text] = Field(min_length=1, max_length=8, examples=[["JJ-99,AQs"]])
    board: Cards = ""
    game: Game = "holdem"
    dead: Cards = ""
    time_limit: TimeLimit = None


DISTRIBUTION = PooledTask("distribution", DistributionRequest,
                          lambda body: body.model_dump(exclude={"time_limit"}),
                          "Equity of every combo of each range")  # fmt: skip
"""The distribution route, which also streams its progress (``POST /api/distribution/stream``,
added by :func:`pokerlab.web.app.create_app`)."""


def add_routes(app: FastAPI, in_pool: InPool, errors: dict[int | str, dict[str, Any]]) -> None:
    """``POST /api/hits`` and ``POST /api/distribution`` on ``app``, each run by ``in_pool``
    (:func:`pokerlab.web.app.create_app`'s: a worker process, within the server's time limit);
    ``errors``: the error answers the schema lists for them, as for every pooled route."""

    @app.post("/api/hits", summary="How a range hits a board", responses=errors)
    async def post_hits(body: HitsRequest, request: Request, response: Response) -> dict[str, Any]:
        """Same JSON as ``pokerlab hits --json``."""
        kwargs = body.model_dump(exclude={"time_limit"})
        return await in_pool(request, response, "hits", kwargs, body.time_limit)

    @app.post("/api/distribution", summary=DISTRIBUTION.summary, responses=errors)
    async def post_distribution(
        body: DistributionRequest, request: Request, response: Response
    ) -> dict[str, Any]:
        """Same JSON as ``pokerlab distribution --json``."""
        kwargs = DISTRIBUTION.arguments(body)
        return await in_pool(request, response, "distribution", kwargs, body.time_limit)
