"""Request and error bodies of the JSON API (pydantic models; they make the OpenAPI schema).

Field names are the keyword arguments of the library functions, so an error's ``field`` (see
:mod:`pokerlab.errors`) names the request field to show it next to. The models bound sizes (text
lengths, list lengths, numbers) so that no request can ask for unbounded parsing; everything about
poker (what a card, range or game is) is left to the library and its messages.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field

from pokerlab.engine.limits import MAX_TRIALS, MIN_STDERR
from pokerlab.engine.methods import Method
from pokerlab.games import GAMES

__all__ = [
    "MAX_PLAYERS",
    "SEED_MAX",
    "BodyModel",
    "DrawDealRequest",
    "DrawRequest",
    "DrawShowdownRequest",
    "EquityRequest",
    "ErrorBody",
    "ErrorDetail",
    "EvaluateRequest",
    "OutsRequest",
    "PooledTask",
    "QueryRequest",
    "RangeRequest",
    "StopRequest",
]

MAX_PLAYERS = max(game.max_players for game in GAMES.values())
"""The most players any game seats: longer lists are refused before any parsing."""

Cards = Annotated[
    str,
    Field(max_length=200, description="Cards, e.g. 'Qh7c2d' or 'Qh 7c 2d'.", examples=["Qh7c2d"]),
]
HandOrRange = Annotated[
    str,
    Field(max_length=2000, description="A hand ('AhAs') or, in hold'em, a range ('QQ+,AKs')."),
]
GameName = Annotated[str, Field(max_length=40, description="A game name from GET /api/games.")]
TimeLimit = Annotated[
    float | None,
    Field(
        default=None,
        gt=0,
        le=3600,
        allow_inf_nan=False,
        description="Seconds this request may compute (capped by the server's limit).",
    ),
]
SEED_MAX = 2**63 - 1
"""The largest seed a request may give (the schema states it exactly, not as a float)."""
Seed = Annotated[int | None, Field(default=None, ge=0, le=SEED_MAX)]


class BodyModel(BaseModel):
    """A request body: no unknown field, no coercion between JSON types."""

    # strict: no coercion of a JSON value to another type ("1" or true as a seed, "yes" as a
    # flag were taken as 1, 1 and true)
    model_config = ConfigDict(extra="forbid", strict=True)  # fields by their JSON names only


class EquityRequest(BodyModel):
    """``pokerlab equity``: equity of each player."""

    game: GameName = "holdem"
    players: list[HandOrRange] = Field(
        max_length=MAX_PLAYERS,
        description="One hand or range per player.",
        examples=[["AhAs", "KdKc"], ["AsKs", "QQ+,AKs", "random"]],
    )
    board: Cards = ""
    dead: Cards = ""
    method: Method = "auto"
    # the CLI's and batch's cap (README): the web's time limit ends a run long before it
    trials: int | None = Field(default=None, ge=1, le=MAX_TRIALS, description="Monte Carlo deals.")
    stderr: float | None = Field(
        default=None,
        ge=MIN_STDERR,  # the CLI's cap, as trials' above
        lt=1,
        allow_inf_nan=False,
        description="Monte Carlo target stderr.",
    )
    time_limit: TimeLimit = None
    seed: Seed = None


class OutsRequest(BodyModel):
    """``pokerlab outs``: winning, tying and losing next cards on a flop or turn."""

    game: GameName = "holdem"
    players: list[HandOrRange] = Field(max_length=MAX_PLAYERS, examples=[["9h8h", "AsKd"]])
    board: Cards = Field(examples=["Th7c2hKs", "Th7c2h"])
    dead: Cards = ""
    time_limit: TimeLimit = None


class DrawRequest(BodyModel):
    """``pokerlab draw advise``: the 32 keep/discard choices of a five-card hand."""

    hand: Cards = Field(examples=["Jh Jd 7c 4s 2h"])
    vs: list[Annotated[str, Field(max_length=2000)]] = Field(
        default_factory=list,
        max_length=9,
        description="Opponents: 'random', a hand, hands joined by '|'; ':rules' or ':random' "
        "after it for how it draws.",
    )
    dead: Cards = ""
    game: str = Field(default="high", max_length=20, description="'high' or '2-7'.")
    goal: str | None = Field(default=None, max_length=40)
    method: Method = "auto"
    trials: int | None = Field(default=None, ge=1, le=10**9)
    seed: Seed = None
    max_draw: int = Field(default=5, ge=0, le=5, description="The most cards one may draw.")
    time_limit: TimeLimit = None


class DrawDealRequest(BodyModel):
    """Draw play: deal ``hand`` (from 1) of ``seed``; the server keeps nothing, every deal is
    re-derived from the seed and its number."""

    bot: str = Field(default="rules", max_length=20,
                     description="'random', 'stand-pat', 'rules' or 'optimal'.")  # fmt: skip
    game: str = Field(default="high", max_length=20, description="'high' or '2-7'.")
    seed: int = Field(ge=0, le=SEED_MAX, description="The session's seed (the client's choice).")
    hand: int = Field(ge=1, le=10**9, description="The deal's number, from 1.")
    max_draw: int = Field(default=5, ge=0, le=5, description="The most cards one may draw.")
    advice: bool = Field(default=False, description="Add the advisor's best choice.")


class DrawShowdownRequest(DrawDealRequest):
    """Draw play: the same deal played out, the player keeping ``keep``."""

    keep: list[Annotated[str, Field(max_length=3)]] = Field(
        max_length=5, description="The cards of the dealt hand kept, e.g. ['Jh', 'Jd'].",
        examples=[["Jh", "Jd"]],
    )  # fmt: skip


class QueryRequest(BodyModel):
    """``pokerlab query``: a query's text (grammar in docs/query.md); its ``from`` clause holds
    every setting."""

    text: str = Field(
        max_length=5000,
        description="select ... from ... [where ...]",
        examples=["select avg(riverEquity(hero)) from game='holdem', hero='AhAs', villain='KdKc'"],
    )
    time_limit: TimeLimit = None


class RangeRequest(BodyModel):
    """``pokerlab range``: combos, percent, canonical text and grid of a hold'em range."""

    text: str = Field(
        alias="range", max_length=5000, description="A hold'em range.", examples=["QQ+,AKs,A5s:0.5"]
    )
    dead: Cards | None = None
    list_combos: bool = Field(default=False, alias="list", description="List every combo.")
    game: GameName | None = Field(
        default=None,
        description="Read the range in this game's deck (short deck: sixes to aces, its own "
        "x% ordering); a game of hold'em notation.",
    )


class EvaluateRequest(BodyModel):
    """``pokerlab eval``: the value of a 5, 6 or 7-card high hand, or of a hand in ``game``
    (each half of a split pot; the response names the game)."""

    cards: Cards = Field(examples=["Kh Kd Ks 4c 4d 2s 7h"])
    board: Cards = Field(default="", description="The board, with the hole cards.")
    game: str | None = Field(
        default=None, max_length=30, description="Any game of /api/games, or 'high' or '2-7'."
    )


class StopRequest(BodyModel):
    """Stop a streamed run."""

    id: str = Field(max_length=64, description="The id in the stream's start event.")


class ErrorDetail(BaseModel):
    type: str = Field(description="The error's class, e.g. CardError, RangeError.")
    message: str = Field(description="What is wrong and what would be right.")
    field: str | None = Field(description="The request field at fault ('board', 'players.1').")


class ErrorBody(BaseModel):
    error: ErrorDetail


@dataclass(frozen=True)
class PooledTask:
    """A pooled route, ``POST /api/{task}``, that also streams its progress (``POST
    /api/{task}/stream``): its request body and the task's keyword arguments from one. Both
    routes take them from here, so a stream ends with the plain route's answer."""

    task: str
    body: type[BodyModel]
    arguments: Callable[[Any], dict[str, Any]]
    summary: str
    progress: str = ""
    """What the stream's progress events carry besides the fraction done, if anything."""

    def time_limit(self, body: BodyModel) -> float | None:
        """The seconds ``body`` allows (None: the server's limit)."""
        limit: float | None = getattr(body, "time_limit", None)
        return limit
