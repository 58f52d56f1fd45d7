"""Draw play on the JSON API: ``/api/draw/deal`` and ``/api/draw/showdown`` re-derive every deal
from the seed and the deal's number (the server keeps nothing), agree with the library's
:mod:`pokerlab.analysis.draw_play` and the terminal's ``pokerlab draw play``, and refuse bad
input with the usual 422 body."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from pokerlab.analysis.draw import advise, game_tables
from pokerlab.analysis.draw_play import DrawSession, deal_hand, play_hand
from pokerlab.cards import format_cards, parse_cards
from pokerlab.cli import app as cli_app
from pokerlab.evaluation import evaluate
from pokerlab.web.app import Settings, create_app

LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1, max_seconds=10.0)), base_url=LOCAL) as c:
        yield c


def post(client: TestClient, path: str, **body: Any) -> dict[str, Any]:
    r = client.post(f"/api/draw/{path}", json=body)
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def error_of(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"type", "message", "field"}
    return error


def test_the_deal_is_reproducible_and_is_the_libraries_and_the_clis(client: TestClient) -> None:
    deals = [post(client, "deal", bot="rules", seed=11, hand=n) for n in (1, 2, 3)]
    assert deals[0] == post(client, "deal", bot="rules", seed=11, hand=1)  # nothing kept
    for n, deal in enumerate(deals, 1):
        assert deal["cards"] == [str(c) for c in deal_hand(11, n).hand]
        assert set(deal) == {"bot", "game", "seed", "hand", "max_draw", "cards"}  # no bot cards
    assert len({tuple(d["cards"]) for d in deals}) == 3
    assert post(client, "deal", seed=12, hand=1)["cards"] != deals[0]["cards"]
    # deal n of a seed does not depend on what was played before: the CLI shows the same hands
    cli = CliRunner().invoke(cli_app, ["draw", "play", "--seed", "11", "--hands", "3"],
                             input="1 2 3\n-\n5\n")  # fmt: skip
    assert cli.exit_code == 0, cli.output
    shown = re.findall(r"deal \d+: your hand ((?:\S\S ){4}\S\S)", cli.output)
    assert shown == [" ".join(d["cards"]) for d in deals]


def strength(cards: list[str]) -> int:
    return int(evaluate(" ".join(cards)).strength)


def compare(a: list[str], b: list[str], game: str) -> int:
    """1 when ``a`` wins, by the five-card high evaluator (reversed for deuce-to-seven, where the
    worst high hand wins: exact but for A-2-3-4-5, a straight high and ace-high low)."""
    x, y = strength(a), strength(b)
    return ((x > y) - (x < y)) * (1 if game == "high" else -1)


def is_wheel(cards: list[str]) -> bool:
    return {c[0] for c in cards} == set("A2345")


@pytest.mark.parametrize(
    ("bot", "game"),
    [("random", "high"), ("stand-pat", "high"), ("rules", "high"), ("optimal", "high"),
     ("rules", "2-7"), ("optimal", "2-7")],
)  # fmt: skip
def test_the_showdown_matches_the_library(client: TestClient, bot: str, game: str) -> None:
    session = DrawSession(bot, game, seed=21)
    for n in range(1, 7):
        cards = post(client, "deal", bot=bot, game=game, seed=21, hand=n)["cards"]
        keep = cards[: n % 4]
        out = post(client, "showdown", bot=bot, game=game, seed=21, hand=n, keep=keep)
        assert out["game"] == game and out["bot"] == bot
        assert session.deal().hand == tuple(parse_cards(" ".join(cards)))
        mine = session.draw([c for c in parse_cards(" ".join(cards)) if str(c) not in keep])
        assert out["player"]["hand"] == cards
        assert out["player"]["discard"] == cards[n % 4 :]
        assert out["player"]["final"][: n % 4] == keep
        assert out["opponent"]["final"] == [str(c) for c in mine.bot_final]
        assert out["opponent"]["discard"] == [str(c) for c in mine.bot_discard]
        assert set(out["opponent"]["final"]).isdisjoint(out["player"]["final"])
        # the winner by the library's own five-card evaluator, independent of draw_play
        assert out["result"] == mine.result
        assert out["winner"] == {1: "player", 0: "tie", -1: "bot"}[out["result"]]
        finals = out["player"]["final"], out["opponent"]["final"]
        if not any(is_wheel(f) for f in finals):
            assert out["result"] == compare(*finals, game)
        if game == "high":
            assert out["player"]["category"] == evaluate(" ".join(finals[0])).to_dict()["category"]
        assert out["opponent"]["category"] in game_tables(game).names


def test_the_bot_draws_after_the_player_from_the_same_deck(client: TestClient) -> None:
    cards = post(client, "deal", bot="random", seed=3, hand=9)["cards"]
    pat = post(client, "showdown", bot="random", seed=3, hand=9, keep=cards)
    drew = post(client, "showdown", bot="random", seed=3, hand=9, keep=[])
    assert pat["player"]["final"] == cards and pat["opponent"]["hand"] == drew["opponent"]["hand"]
    assert (
        pat["opponent"]["discard"] == drew["opponent"]["discard"]
    )  # its random bits: the deal's own
    showdown = play_hand(3, 9, " ".join(cards), bot="random")  # throw all five
    assert drew["player"]["final"] == [str(c) for c in showdown.player_final]
    if drew["opponent"]["discard"]:  # the bot's replacements come after the player's five
        assert drew["opponent"]["final"] != pat["opponent"]["final"]


def test_advice_only_when_asked_and_it_is_the_advisors(client: TestClient) -> None:
    deal = post(client, "deal", bot="rules", seed=8, hand=2)
    assert "advice" not in deal
    asked = post(client, "deal", bot="rules", seed=8, hand=2, advice=True, max_draw=3)
    best = advise(" ".join(deal["cards"]), max_draw=3).best
    assert asked["advice"] == best.to_dict() and len(asked["advice"]["discard"]) <= 3
    out = post(client, "showdown", bot="rules", seed=8, hand=2, keep=[], advice=True)
    assert out["advice"] == advise(" ".join(deal["cards"])).best.to_dict()
    assert "advice" not in post(client, "showdown", bot="rules", seed=8, hand=2, keep=[])


@pytest.mark.parametrize(
    ("path", "body", "field", "kind"),
    [
        ("deal", {"bot": "nobody", "seed": 1, "hand": 1}, "bot", "GameError"),
        ("deal", {"game": "razz", "seed": 1, "hand": 1}, "game", "GameError"),
        ("deal", {"seed": 1, "hand": 0}, "hand", "ValidationError"),
        ("deal", {"seed": -1, "hand": 1}, "seed", "ValidationError"),
        ("deal", {"hand": 1}, "seed", "ValidationError"),
        ("deal", {"seed": 1, "hand": 1, "max_draw": 6}, "max_draw", "ValidationError"),
        ("deal", {"seed": 1, "hand": 1, "bot": "x" * 21}, "bot", "ValidationError"),
        ("deal", {"seed": 1, "hand": 1, "cards": ["As"]}, "cards", "ValidationError"),
        ("showdown", {"seed": 1, "hand": 1}, "keep", "ValidationError"),
        ("showdown", {"seed": 1, "hand": 1, "keep": ["Zz"]}, "keep", "CardError"),
        ("showdown", {"seed": 1, "hand": 1, "keep": ["As"] * 6}, "keep", "ValidationError"),
        ("showdown", {"seed": 1, "hand": 1, "keep": ["Ah Kh"]}, "keep.0", "ValidationError"),
    ],
)
def test_bad_input_is_a_422_naming_its_field(
    client: TestClient, path: str, body: dict[str, Any], field: str, kind: str
) -> None:
    error = error_of(client.post(f"/api/draw/{path}", json=body))
    assert (error["field"], error["type"]) == (field, kind), error


def test_cards_not_dealt_cannot_be_kept(client: TestClient) -> None:
    cards = post(client, "deal", seed=5, hand=1)["cards"]
    stranger = next(f"{r}{s}" for r in "AKQJT98765432" for s in "shdc" if f"{r}{s}" not in cards)
    error = error_of(
        client.post("/api/draw/showdown", json={"seed": 5, "hand": 1, "keep": [cards[0], stranger]})
    )
    assert error["field"] == "keep" and stranger in error["message"]
    assert format_cards(parse_cards(" ".join(cards)), " ") in error["message"]
    error = error_of(
        client.post("/api/draw/showdown", json={"seed": 5, "hand": 1, "keep": [cards[0], cards[0]]})
    )
    assert error["field"] == "keep"
    error = error_of(
        client.post("/api/draw/showdown", json={"seed": 5, "hand": 1, "keep": [], "max_draw": 3})
    )
    assert error["message"] == "you may draw at most 3 cards, not 5"
