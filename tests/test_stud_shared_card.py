"""Stud tables that run the deck short: 8 players (56 cards for seven each), or 7 players with 4
dead cards. The stud rule then deals the seventh street card once, face up in the middle, for
every player. Monte Carlo against the plain-Python brute force of tests/bruteforce.py (which
deals six cards each and then the shared card), the refusals, and the interfaces."""

from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from bruteforce import game_equity
from pokerlab import equity, query
from pokerlab.cards import format_cards
from pokerlab.cli import app as cli
from pokerlab.errors import GameError, QueryError
from pokerlab.games import get_game

Holdings = list[list[tuple[tuple[int, ...], float]]]


def _spot(game: str, seed: int, players: int, dead: int) -> tuple[list[str], Holdings, list[int]]:
    """``players`` stud hands of six known cards but the last two (five), the first of those
    two a range of two weighted holdings, and ``dead`` dead cards; the brute force deals the
    few cards left."""
    rng = random.Random(f"{game}-{seed}-{players}-{dead}")
    deck = list(range(52))
    rng.shuffle(deck)
    known = [6] * (players - 2) + [5, 5]
    hands = [[deck.pop() for _ in range(k)] for k in known]
    dead_cards = [deck.pop() for _ in range(dead)]
    holdings: Holdings = [[(tuple(h), 1.0)] for h in hands]
    spare = rng.sample(deck, 2)  # a second holding sharing 3 cards with the first
    holdings[-2].append((tuple(hands[-2][:3] + spare), 0.5))
    texts = [
        ",".join(format_cards(list(c)) + ("@50" if w == 0.5 else "") for c, w in h)
        for h in holdings
    ]
    return texts, holdings, dead_cards


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
@pytest.mark.parametrize(("players", "dead"), [(8, 0), (7, 4)])
def test_monte_carlo_agrees_with_the_shared_card_brute_force(
    game: str, players: int, dead: int
) -> None:
    texts, holdings, dead_cards = _spot(game, 1, players, dead)
    g = get_game(game)
    assert g.shares_last_card(players, dead)
    ref = game_equity(game, holdings, [], dead_cards, g.hole_cards, 0, shared_card=True)
    trials = 200_000
    got = equity(texts, dead=format_cards(dead_cards), game=game, trials=trials, seed=7)
    assert got.method == "monte-carlo" and got.shared_card and got.samples == trials
    for i, p in enumerate(got.players):
        assert abs(p.equity - ref["equity"][i]) <= 4.5 * p.stderr + 1e-12, (i, p, ref)
        win_stderr = math.sqrt(ref["scoop"][i] * (1 - ref["scoop"][i]) / trials)
        assert abs(p.win - ref["scoop"][i]) <= 4.5 * win_stderr + 1e-12, (i, p, ref)


def test_the_shared_card_changes_the_answer() -> None:
    """Two pair against a flush and straight draw, six cards each: dealt a seventh card each,
    the draw wins when it hits and the two pair does not fill (68.27 % for the two pair);
    with one shared card, a hit that also fills (Ad) goes to the two pair and no fill can
    come beside a hit (67.5 %). The brute force the tests above compare with tells the two
    rules apart."""
    two_pair = (51, 50, 45, 44, 10, 3)  # As Ah Kd Kc 4h 2s
    draw = (29, 25, 17, 13, 32, 36)  # 9d 8d 6d 5d Tc Jc
    holdings: Holdings = [[(two_pair, 1.0)], [(draw, 1.0)]]
    own = game_equity("stud", holdings, [], [], 7, 0)["equity"][0]
    shared = game_equity("stud", holdings, [], [], 7, 0, shared_card=True)["equity"][0]
    assert own == pytest.approx(71 / 104) and shared == pytest.approx(27 / 40)


def test_seeded_results_do_not_depend_on_the_thread_count() -> None:
    players = ["AsAd|Kc", "QsQh|Jd", *["*"] * 6]
    one = equity(players, game="stud", trials=40_000, seed=3, threads=1)
    two = equity(players, game="stud", trials=40_000, seed=3, threads=2)
    assert one.equities == two.equities and one.shared_card


def test_seven_players_without_dead_cards_deal_seven_own_cards() -> None:
    r = equity(["AsAd|Kc", "QsQh|Jd", *["*"] * 5], game="stud", trials=2_000, seed=1)
    assert not r.shared_card and not r.to_dict()["shared_card"]
    assert equity(["AsAd|Kc", "QsQh|Jd"], game="stud", method="exact").shared_card is False


def test_exact_is_refused_and_auto_samples() -> None:
    players = ["AsAd|Kc", "QsQh|Jd", *["*"] * 6]
    with pytest.raises(GameError, match="shares its seventh-street card") as info:
        equity(players, game="stud", method="exact")
    assert info.value.field == "method"
    r = equity(players, game="razz", trials=5_000, seed=2)
    assert r.method == "monte-carlo" and r.to_dict()["shared_card"] is True


@pytest.mark.parametrize(
    ("players", "dead", "message"),
    [
        (["*"] * 9, "", r"9 players need 55 cards \(6 each and a shared seventh-street card\)"),
        (["*"] * 8, "2c 3c 4c 5c", r"8 players need 53 cards \(6 each and a shared"),
        (
            ["AsAdKcKd2s3s4s", *["*"] * 7],
            "",
            r"player 1: 8 players need 56 .* a hand has at most 6 cards of its own, got 7 "
            r"\('AsAdKcKd2s3s4s'\)",
        ),
    ],
)
def test_tables_the_deck_cannot_deal_are_refused(
    players: list[str], dead: str, message: str
) -> None:
    with pytest.raises(GameError, match=message):
        equity(players, dead=dead, game="stud", trials=100)


def test_max_players_counts_the_shared_card() -> None:
    assert get_game("stud").max_players == 8
    assert get_game("razz").max_players == 8
    assert get_game("holdem").max_players == 23


def test_query_refuses_a_shared_card_table() -> None:
    with pytest.raises(QueryError, match="shared seventh-street card"):
        query(
            "select avg(riverEquity(a)) from game='stud', a='AsAd|Kc', b='QsQh|Jd', c='*', "
            "d='*', e='*', f='*', g='*', h='*'"
        )


def test_cli_says_the_seventh_card_is_shared() -> None:
    args = ["equity", "--game", "stud", "AsAd|Kc", "QsQh|Jd", *["*"] * 6, "--trials", "2000"]
    out = CliRunner().invoke(cli, [*args, "--seed", "1"])
    assert out.exit_code == 0, out.output
    assert "seventh street: one shared card" in out.output
    data = json.loads(CliRunner().invoke(cli, [*args, "--seed", "1", "--json"]).output)
    assert data["shared_card"] is True and len(data["players"]) == 8
