"""Short-deck (6+) hold'em beyond the equity engine: every feature that takes a game answers
by short-deck rules (the 36-card deck, flush over full house, trips over straight, A-6-7-8-9),
checked here against the brute force's ``best_short`` (board hits, combo by combo, in
``test_short_deck_hits.py``)."""

from __future__ import annotations

import functools
import itertools
import json
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from fastapi.testclient import TestClient

import pokerlab
from bruteforce import best_short, game_equity
from cli_helpers import assert_one_line_error
from pokerlab.analysis import distribution as distribution_module
from pokerlab.analysis.distribution import equity_distribution
from pokerlab.analysis.hits import hits
from pokerlab.analysis.outs import outs
from pokerlab.analysis.query import query
from pokerlab.cards import format_cards, parse_cards
from pokerlab.cli import app as cli_app
from pokerlab.errors import QueryError
from pokerlab.web.app import Settings, create_app

SHORT_DECK = range(16, 52)  # sixes to aces
# weakest first, written from the rules (docs/definitions.md), not from the library's table
SHORT_TYPES = ("high card", "pair", "two pair", "straight", "three of a kind", "full house",
               "flush", "four of a kind", "straight flush")  # fmt: skip


def codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


@functools.cache
def best(cards: tuple[int, ...]) -> tuple[int, ...]:
    return best_short(cards)


def value(*parts: list[int] | tuple[int, ...]) -> tuple[int, ...]:
    return best(tuple(sorted(itertools.chain(*parts))))


def cli(*args: str) -> Result:
    return CliRunner().invoke(cli_app, list(args), env={"COLUMNS": "200"})


# ---- outs -------------------------------------------------------------------------------------

# The villain's boat loses to the hero's flush on every river but the last jack (quads): by the
# full deck's ranking the hero would lose on every river instead.
HERO, VILLAIN, TURN = "AhKh", "JcJd", "Jh7h7s9h"


def test_turn_outs_are_the_short_decks_rivers() -> None:
    report = outs([HERO, VILLAIN], board=TURN, game="shortdeck")
    hero, villain, board = codes(HERO), codes(VILLAIN), codes(TURN)
    rivers = [c for c in SHORT_DECK if c not in {*hero, *villain, *board}]
    assert [int(c) for c in report.next_cards.cards] == rivers
    expected = {"win": [], "tie": [], "lose": []}
    for river in rivers:
        a, b = value(hero, board, [river]), value(villain, board, [river])
        expected["win" if a > b else "tie" if a == b else "lose"].append(river)
    assert [int(c) for c in report.next_cards.win_cards(0)] == expected["win"]
    assert [int(c) for c in report.next_cards.tie_cards(0)] == expected["tie"]
    assert [int(c) for c in report.next_cards.lose_cards(0)] == expected["lose"]
    assert format_cards(report.next_cards.lose_cards(0)) == "Js"


def test_flop_outs_total_the_short_decks_runouts() -> None:
    players, flop = ["AhKh", "8c8d"], "Jh7h9s"
    report = outs(players, board=flop, game="shortdeck")
    assert report.runouts is not None and report.by_turn is not None
    assert report.runouts.total == 406  # C(29, 2): no card below the six
    assert all(int(c) >= 16 for c in report.next_cards.cards)
    holdings = [[(tuple(codes(p)), 1.0)] for p in players]
    brute = game_equity("shortdeck", holdings, codes(flop), [], 2, 5)
    assert report.runouts.equity == pytest.approx(brute["equity"], abs=1e-12)


# ---- hits -------------------------------------------------------------------------------------

# 88 holds a set and the board's straight: trips beat a straight in short deck, not in hold'em
SET_BESIDE_STRAIGHT = {"range": "88,QQ", "board": "JhTd9c8s7c"}


def test_hits_take_short_deck() -> None:
    report = hits(SET_BESIDE_STRAIGHT["range"], board=SET_BESIDE_STRAIGHT["board"], game="6+")
    assert report.game == "shortdeck"
    assert (report.count("set"), report.count("straight")) == (3, 6)
    assert hits(SET_BESIDE_STRAIGHT["range"], board=SET_BESIDE_STRAIGHT["board"]).count("set") == 0


def test_the_hits_command_takes_short_deck() -> None:
    spot = SET_BESIDE_STRAIGHT
    result = cli("hits", spot["range"], "--board", spot["board"], "--game", "shortdeck", "--json")
    assert result.exit_code == 0, result.output
    expected = hits(spot["range"], board=spot["board"], game="shortdeck").to_dict()
    assert json.loads(result.stdout) == expected
    result = cli("hits", "QQ+", "--board", "Ks9s2d", "--game", "shortdeck")
    assert_one_line_error(result, "2d is not in the short deck")


# ---- distribution -----------------------------------------------------------------------------


def test_headsup_distribution_is_the_short_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up with a board takes the dedicated kernel, over the short deck's table (a set
    beats the straight of T8s here)."""

    def per_holding(*args: object) -> None:
        raise AssertionError("heads-up short deck with a board takes the dedicated kernel")

    monkeypatch.setattr(distribution_module, "_per_holding", per_holding)
    hero, villain, board = "AA,T8s", "QQ,77", "Qh7h6c9d"
    result = equity_distribution(hero, villain, board=board, game="shortdeck")
    assert result.game == "shortdeck" and result.method == "exact"
    board_codes = codes(board)
    villains = [
        (tuple(c), 1.0) for c in pokerlab.Range(villain).remove(board_codes).combos.tolist()
    ]
    mine = result.players[0]
    assert len(mine.hands) == len(pokerlab.Range(hero).remove(board_codes).combos)
    for hand, equity in zip(mine.hands, mine.equities, strict=True):
        brute = game_equity("shortdeck", [[(tuple(codes(hand)), 1.0)], villains],
                            board_codes, [], 2, 5)  # fmt: skip
        assert equity == pytest.approx(brute["equity"][0], abs=1e-12), hand
    assert dict(mine.pairs())["Ts8s"] == 0.0  # the straight loses to both sets on every river
    whole = pokerlab.equity([hero, villain], board=board, game="shortdeck", method="exact")
    assert mine.equity == pytest.approx(whole.players[0].equity, abs=1e-12)


# ---- query ------------------------------------------------------------------------------------


def query_spot() -> tuple[list[int], list[int], list[int], list[int]]:
    hero, villain, flop = codes("AhKh"), codes("8c8d"), codes("Jh7h9s")
    deck = [c for c in SHORT_DECK if c not in {*hero, *villain, *flop}]
    return hero, villain, flop, deck


def brute_query() -> dict[str, object]:
    """The query's aggregates by enumeration with ``best_short``."""
    hero, villain, flop, deck = query_spot()

    @functools.cache
    def turn_features(turn: int) -> tuple[float, float]:
        board = [*flop, turn]
        level = value(villain, board)[0]
        seen = {*villain, *board}  # a draw's card: any the villain cannot see
        draw = level < 3 and any(value(villain, board, [c])[0] in (3, 8)
                                 for c in SHORT_DECK if c not in seen)  # fmt: skip
        rivers = [c for c in deck if c != turn]
        outs = 0
        if not value(hero, board) > value(villain, board):  # not scooping already
            outs = sum(value(hero, board, [c]) > value(villain, board, [c]) for c in rivers)
        return float(draw), float(outs)

    share = wins = straight_or_better = trips_or_better = draws = outs = 0.0
    types: Counter[str] = Counter()
    runouts = list(itertools.combinations(deck, 2))
    for turn_river in runouts:
        board = [*flop, *turn_river]
        a, b = value(hero, board), value(villain, board)
        share += 1.0 if a > b else 0.5 if a == b else 0.0
        wins += a > b
        types[SHORT_TYPES[b[0]]] += 1
        straight_or_better += b[0] >= SHORT_TYPES.index("straight")
        trips_or_better += b[0] >= SHORT_TYPES.index("three of a kind")
        # the exact enumeration deals the turn and the river as one set: each order once
        for turn in turn_river:
            draw, n = turn_features(turn)
            draws += draw / 2
            outs += n / 2
    n = len(runouts)
    return {"eq": share / n, "wins": wins / n, "types": {k: v / n for k, v in types.items()},
            "straight": straight_or_better / n, "trips": trips_or_better / n,
            "draw": draws / n, "outs": outs / n}  # fmt: skip


def test_query_features_are_the_short_decks() -> None:
    """Equity and wins over the short deck's runouts, hand types in its order (three of a kind
    at least a straight), draws below a straight in its order (a set of eights is none)."""
    result = query(
        "select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
        "histogram(handType(villain, river)) as types, "
        "count(minHandType(villain, river, 'straight')) as straight, "
        "count(handType(villain, river) >= 'trips') as trips, "
        "count(handType(villain, turn) = 'straight draw') as draw, "
        "avg(outs(hero, turn)) as outs "
        "from game='shortdeck', hero='AhKh', villain='8c8d', board='Jh7h9s'"
    )
    assert result.method == "exact" and result.deals == 812 and result.game == "shortdeck"
    got = {r.name: r.value for r in result.results}
    expected = brute_query()
    for name in ("eq", "wins", "straight", "trips", "draw", "outs"):
        assert got[name] == pytest.approx(expected[name], abs=1e-12), name
    types = next(r.value for r in result.results if r.name == "types")
    assert isinstance(types, list)
    assert {b.bucket: b.value for b in types} == pytest.approx(expected["types"])
    # a full-deck "straight or better" would leave the set of eights out
    assert got["straight"] > got["trips"] > 0


def test_query_board_hits_are_the_short_decks() -> None:
    """The set beside the board's straight is a set, A-6-7-8-9 a straight, as ``hits`` says."""
    spots = {
        "count(hits(hero, river) = 'set')": "hero='8s8c', villain='AhKh', board='JhTd9c8d7c'",
        "count(hits(hero, flop) = 'straight')": "hero='Ah7c', villain='KsKd', board='6d8s9h'",
    }
    for feature, players in spots.items():
        for game, expected in (("shortdeck", 1.0), ("holdem", 0.0)):
            result = query(f"select {feature} from game='{game}', {players}")
            assert result.results[0].value == expected, (feature, game)


def test_query_hand_type_names_are_in_the_short_decks_order() -> None:
    with pytest.raises(QueryError) as info:
        query("select count(handType(hero, river) = 'straihgt') from game='shortdeck', "
              "hero='AhKh', villain='8c8d', board='Jh7h9s6c8h'")  # fmt: skip
    assert ", ".join(SHORT_TYPES) in str(info.value)


# ---- web --------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(Settings(workers=1, max_seconds=10.0)), base_url="http://127.0.0.1"
    ) as c:
        yield c


def test_web_games_list_short_deck_as_a_board_game(client: TestClient) -> None:
    games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
    assert games["shortdeck"]["lowest_rank"] == 4 and not games["shortdeck"]["is_stud"]
    assert games["shortdeck"]["max_players"] == 15
    script = (Path(pokerlab.__file__).parent / "web" / "static" / "analytics.js").read_text()
    assert "data.games.filter((g) => !g.is_stud)" in script  # both menus: every board game


def test_web_hits_answer_short_deck_as_the_library(client: TestClient) -> None:
    response = client.post("/api/hits", json={**SET_BESIDE_STRAIGHT, "game": "shortdeck"})
    assert response.status_code == 200, response.text
    spot = SET_BESIDE_STRAIGHT
    assert response.json() == hits(spot["range"], board=spot["board"], game="shortdeck").to_dict()
    response = client.post("/api/hits", json={"range": "QQ+", "board": "Ks9s2d", "game": "6+"})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == "board"


def test_web_routes_answer_short_deck_as_the_library(client: TestClient) -> None:
    spot = {"players": [HERO, VILLAIN], "board": TURN, "game": "shortdeck"}
    response = client.post("/api/outs", json=spot)
    assert response.status_code == 200, response.text
    assert response.json() == outs([HERO, VILLAIN], board=TURN, game="shortdeck").to_dict()
    body = {"hero": "AA,T8s", "villains": ["QQ,77"], "board": "Qh7h6c9d", "game": "shortdeck"}
    response = client.post("/api/distribution", json=body)
    assert response.status_code == 200, response.text
    expected = equity_distribution("AA,T8s", "QQ,77", board="Qh7h6c9d", game="shortdeck")
    assert response.json() == expected.to_dict()
    text = (f"select count(winsHi(hero)) from game='shortdeck', hero='{HERO}', "
            f"villain='{VILLAIN}', board='{TURN}'")  # fmt: skip
    response = client.post("/api/query", json={"text": text})
    assert response.status_code == 200, response.text
    assert response.json()["results"][0]["value"] == pytest.approx(27 / 28)  # all rivers but Js


# ---- CLI --------------------------------------------------------------------------------------


def test_cli_commands_take_short_deck() -> None:
    result = cli("outs", HERO, VILLAIN, "--board", TURN, "--game", "shortdeck", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["players"][1]["win"] == ["Js"]
    result = cli("distribution", "AA,T8s", "QQ,77", "--board", "Qh7h6c9d", "-g", "6+", "--json")
    assert result.exit_code == 0, result.output
    expected = equity_distribution("AA,T8s", "QQ,77", board="Qh7h6c9d", game="shortdeck")
    assert json.loads(result.stdout) == expected.to_dict()
    for command in ("equity", "outs"):
        assert "shortdeck" in cli(command, "--help").stdout


# ---- batch ------------------------------------------------------------------------------------


def test_batch_spots_take_short_deck() -> None:
    from pokerlab.scale.jobs import run_spot

    result, error = run_spot({"players": [HERO, VILLAIN], "board": TURN, "game": "shortdeck"})
    assert error is None and result is not None
    assert [p["equity"] for p in result["players"]] == pytest.approx([27 / 28, 1 / 28])
    result, error = run_spot({"players": [HERO, VILLAIN], "board": "Jh7h7s2h", "game": "6+"})
    assert result is None and error is not None and "2h is not in the short deck" in error


def test_range_reports_read_in_the_short_deck(client: TestClient) -> None:
    """A range in short deck (the web grid's and `pokerlab range --game`'s): its combos of
    sixes to aces, percent of 630, its own x% ordering, the refusals with their fields."""
    body = {"range": "22+,15%", "list": True, "game": "shortdeck"}
    report = client.post("/api/range", json=body).json()
    combos = pokerlab.Range("22+,15%", ordering="short").combo_count
    assert report["combos"] == len(report["list"]) < combos  # 22-55 dropped
    assert all(c["combo"][0] not in "2345" and c["combo"][2] not in "2345" for c in report["list"])
    assert report["deck"] == 36 and report["percent"] == pytest.approx(100 * report["combos"] / 630)
    assert report["top"][0]["ordering"] == "short"
    plain = client.post("/api/range", json={"range": "22+"}).json()
    assert "deck" not in plain and plain["combos"] == 78  # no game: hold'em's deck as before
    for request, field in (
        ({"range": "22-55", "game": "shortdeck"}, "range"),
        ({"range": "15%@vs1", "game": "shortdeck"}, "range"),
        ({"range": "AA", "dead": "2c", "game": "shortdeck"}, "dead"),
        ({"range": "AA", "game": "omaha"}, "game"),
        ({"range": "AA", "game": "chess"}, "game"),
    ):
        response = client.post("/api/range", json=request)
        assert response.status_code == 422 and response.json()["error"]["field"] == field
    result = CliRunner().invoke(cli_app, ["range", "22+,15%", "--game", "6+", "--list", "--json"])
    assert json.loads(result.stdout) == {**report, "input": "22+,15%"}
    text = CliRunner().invoke(cli_app, ["range", "22+", "--game", "shortdeck"]).stdout
    assert "54 of 630 (8.57%)" in text
