"""JSON routes of the page's range-analytics tab: ``POST /api/hits`` and
``POST /api/distribution`` (the same JSON as ``pokerlab hits --json`` and
``pokerlab distribution --json``).

A separate router, included by :func:`pokerlab.web.app.create_app`, so the app factory gains one
line. Both run in a worker thread (never on the event loop). A distribution outside heads-up
hold'em with a board takes one engine call per holding, so the page allows at most
:data:`WEB_MAX_HOLDINGS` holdings there.
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from pokerlab.analysis.distribution import equity_distribution
from pokerlab.analysis.hits import hits
from pokerlab.errors import PokerlabError

__all__ = ["WEB_MAX_HOLDINGS", "DistributionRequest", "HitsRequest", "router"]

WEB_MAX_HOLDINGS = 400
"""Most holdings a distribution request may need one engine call each for."""

Text = Annotated[str, Field(max_length=2000)]
Cards = Annotated[str, Field(max_length=200)]
Game = Annotated[str, Field(max_length=40)]


class HitsRequest(BaseModel):
    """``pokerlab hits``: a range and a flop, turn or river."""

    model_config = ConfigDict(extra="forbid")
    range: Text = Field(examples=["QQ+,AKs,JTs"])
    board: Cards = Field(examples=["Ks9s2d"])
    game: Game = "holdem"
    dead: Cards = ""


class DistributionRequest(BaseModel):
    """``pokerlab distribution``: the hero's range, one to eight villains, a board."""

    model_config = ConfigDict(extra="forbid")
    hero: Text = Field(examples=["QQ+,AK"])
    villains: list[Text] = Field(min_length=1, max_length=8, examples=[["JJ-99,AQs"]])
    board: Cards = ""
    game: Game = "holdem"
    dead: Cards = ""


def _hits(body: HitsRequest) -> dict[str, Any]:
    return hits(body.range, board=body.board, game=body.game, dead=body.dead).to_dict()


def _distribution(body: DistributionRequest) -> dict[str, Any]:
    try:
        result = equity_distribution(
            body.hero,
            body.villains,
            board=body.board,
            dead=body.dead,
            game=body.game,
            max_holdings=WEB_MAX_HOLDINGS,
        )
    except PokerlabError as exc:  # the library names players.0, players.1 ...: hero, villains.0
        if exc.field == "players.0":
            exc.field = "hero"
        elif exc.field is not None and exc.field.startswith("players."):
            exc.field = f"villains.{int(exc.field.split('.')[1]) - 1}"
        elif exc.field == "players":
            exc.field = "villains"
        raise
    return result.to_dict()


router = APIRouter()


@router.post("/api/hits", summary="How a range hits a board")
async def post_hits(body: HitsRequest) -> dict[str, Any]:
    """Same JSON as ``pokerlab hits --json``."""
    return await asyncio.to_thread(_hits, body)


@router.post("/api/distribution", summary="Equity of every combo of each range")
async def post_distribution(body: DistributionRequest) -> dict[str, Any]:
    """Same JSON as ``pokerlab distribution --json``."""
    return await asyncio.to_thread(_distribution, body)
