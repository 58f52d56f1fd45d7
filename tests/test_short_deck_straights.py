"""Short deck's other rule, a straight over three of a kind (``shortdeck-straights``): the
evaluator against the brute force of tests/bruteforce.py (every 5-card hand, random 7-card
hands) and pokerkit (which ranks by this rule: every pair of hands must agree), the engine's
answers (its exact spots against the brute force and across kernels are test_short_deck.py's,
run for both rules), its shipped ordering, and the features that read hand types (hits,
queries, the web)."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from bruteforce import assert_same_order, best_short, game_equity, rank5_short
from pokerlab import equity, hits, query
from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import GameError, RangeError
from pokerlab.evaluation.codes import HighEval
from pokerlab.evaluation.short_deck import (
    STRAIGHT_BEATS_TRIPS_ORDER,
    evaluate_short_deck,
    short_deck_batch,
    short_deck_category,
    short_deck_values,
)
from pokerlab.games import get_game
from pokerlab.ranges import Range, hand_ordering
from pokerlab.ranges._combos import CLASS_INDEX, CLASS_NAMES
from pokerlab.ranges._order import top_count

SHORT_DECK = list(range(16, 52))  # sixes to aces
GAME = "shortdeck-straights"


def test_every_five_card_hand_matches_the_brute_force() -> None:
    hands = np.array(list(itertools.combinations(SHORT_DECK, 5)), dtype=np.uint8)
    strengths = short_deck_batch(hands, straight_beats_trips=True)
    first: dict[int, int] = {}
    for i, s in enumerate(strengths.tolist()):
        first.setdefault(s, i)
    keys = [rank5_short(hands[i].tolist(), straight_beats_trips=True) for i in first.values()]
    assert_same_order(keys, list(first))
    assert len(first) == len(set(keys))  # no two classes share a strength
    levels = [short_deck_category(s, straight_beats_trips=True) for s in first]
    assert levels == [STRAIGHT_BEATS_TRIPS_ORDER[k[0]] for k in keys]
    rng = random.Random(6)
    for i in rng.sample(range(len(hands)), 3000):
        key = rank5_short(hands[i].tolist(), straight_beats_trips=True)
        assert keys.index(key) == list(first).index(int(strengths[i]))


@pytest.mark.parametrize("size", [6, 7])
def test_random_six_and_seven_card_hands_match_the_brute_force(size: int) -> None:
    rng = random.Random(100 + size)
    hands = [rng.sample(SHORT_DECK, size) for _ in range(4000)]
    # trips beside a straight (the straight plays), A-6-7-8-9, a flush beside a full house
    special = ["6h 6c 6d 7s 8h 9c Th", "Ah Ac Ad 6s 7h 8c 9d", "As 6s 7s 8s 9s 9d 9c"]
    hands += [[int(c) for c in parse_cards(t)][:size] for t in special]
    strengths = short_deck_batch(np.array(hands, dtype=np.uint8), straight_beats_trips=True)
    assert_same_order([best_short(h, straight_beats_trips=True) for h in hands], strengths.tolist())
    for h, s in zip(hands[:300], strengths[:300], strict=True):
        assert evaluate_short_deck(h, straight_beats_trips=True).strength == s


def test_pokerkit_agrees_on_every_pair_of_hands() -> None:
    """pokerkit's short-deck lookup ranks by this rule: no pair of hands is an exception."""
    from pokerkit import ShortDeckHoldemHand

    rng = random.Random(12)
    hands = [rng.sample(SHORT_DECK, 5) for _ in range(3000)]
    ours = short_deck_batch(np.array(hands, dtype=np.uint8), straight_beats_trips=True)
    theirs = [ShortDeckHoldemHand("".join(str(c) for c in parse_cards(h))) for h in hands]
    straight_or_trips = 0
    for a in range(0, len(hands) - 1, 2):
        b = a + 1
        assert (ours[a] > ours[b]) == (theirs[a] > theirs[b]), (hands[a], hands[b])
        assert (ours[a] == ours[b]) == (theirs[a] == theirs[b]), (hands[a], hands[b])
        cats = {short_deck_category(s, straight_beats_trips=True) for s in (ours[a], ours[b])}
        straight_or_trips += len(
            cats & {STRAIGHT_BEATS_TRIPS_ORDER[3], STRAIGHT_BEATS_TRIPS_ORDER[4]}
        )
    assert straight_or_trips > 100  # the pairs the two rules tell apart are among them


def test_trips_beside_a_straight_play_the_straight() -> None:
    text = "6h 6c 6d 7s 8h 9c Th"
    other = evaluate_short_deck(text, straight_beats_trips=True)
    assert other.description == "Straight, Ten high"
    assert format_cards(other.best, " ") == "Th 9c 8h 7s 6h"
    assert evaluate_short_deck(text).description == "Three of a Kind, Sixes"
    wheel = evaluate_short_deck("Ah Ac Ad 6s 7h 8c 9d", straight_beats_trips=True)
    assert wheel.description == "Straight, Nine high"
    # the two tables differ only where a straight or trips is the best hand
    trips_first, straights_first = short_deck_values(), short_deck_values(True)
    assert trips_first is not straights_first
    assert 0 < int((trips_first != straights_first).sum()) < 5000
    game = get_game(GAME)
    assert game.high == HighEval.SHORT_DECK_STRAIGHTS and game.two_card_high
    assert game.deck_size == 36 and get_game("6+straights") is game


def test_the_rule_changes_the_answer() -> None:
    """Aces against a made straight on T-7-6: a set of aces beats it by the usual short-deck
    rule and loses to it by this one."""
    holding = [[(tuple(int(c) for c in parse_cards("AhAd")), 1.0)],
               [(tuple(int(c) for c in parse_cards("9s8s")), 1.0)]]  # fmt: skip
    board = [int(c) for c in parse_cards("Ts7d6h")]
    for game in ("shortdeck", GAME):
        ref = game_equity(game, holding, board, [], 2, 5)
        got = equity(["AhAd", "9s8s"], board="Ts7d6h", game=game, method="exact").players
        assert got[0].equity == pytest.approx(ref["equity"][0], abs=1e-12)
    ours = equity(["AhAd", "9s8s"], board="Ts7d6h", game=GAME, method="exact").players[0].equity
    theirs = equity(["AhAd", "9s8s"], board="Ts7d6h", game="shortdeck").players[0].equity
    assert ours != pytest.approx(theirs, abs=1e-3)


def test_monte_carlo_and_threads_agree_with_exact() -> None:
    exact = equity(["AhKh", "QsQd"], game=GAME, method="exact", threads=1)
    assert exact.players[0].equity == equity(["AhKh", "QsQd"], game=GAME, method="exact",
                                             threads=2).players[0].equity  # fmt: skip
    mc = equity(["AhKh", "QsQd"], game=GAME, method="mc", trials=300_000, seed=3, threads=1)
    again = equity(["AhKh", "QsQd"], game=GAME, method="mc", trials=300_000, seed=3, threads=2)
    p = mc.players[0]
    assert p.equity == again.players[0].equity
    assert abs(p.equity - exact.players[0].equity) < 4 * p.stderr


def test_shipped_ordering_is_its_own() -> None:
    order = hand_ordering("short_straights")
    assert len(order) == 81 and {c.name for c in order} == {
        n for n in CLASS_INDEX if all(r in "6789TJQKA" for r in n[:2])
    }
    equities = [c.equity for c in order]
    assert equities == sorted(equities, reverse=True)
    names = [c.name for c in order]
    short = [c.name for c in hand_ordering("short")]
    assert names.index("TT") - short.index("TT") >= 8  # pairs lose most of their sets' value
    # a class's shipped equity, against the engine's own Monte Carlo (another sampler)
    shipped = {c.name: c for c in order}
    for name in ("TT", "JTs"):
        r = equity([name, "random", "random", "random"], game=GAME, method="mc",
                   trials=400_000, seed=22)  # fmt: skip
        p = r.players[0]
        assert abs(p.equity - shipped[name].equity) < 4 * (p.stderr + shipped[name].stderr)


def test_generator_deals_by_the_rule() -> None:
    from pokerlab.ranges._order_gen import render, run

    a = run(seed=7, chunks=2, deals=2000, short=True, straights=True)
    assert render(a) == render(run(seed=7, chunks=2, deals=2000, short=True, straights=True))
    assert "--short --straights" in render(a)
    assert len(a.classes) == 81 and a.count.sum(axis=0)[CLASS_INDEX["22"]] == 0
    shipped = {c.name: c.equity for c in hand_ordering("short_straights")}
    for idx in a.classes.tolist():
        assert abs(a.equity[idx] - shipped[CLASS_NAMES[idx]]) < 0.03


def test_percent_ranges_take_its_ordering() -> None:
    top = hand_ordering("short_straights")
    k = top_count(10.0, "short_straights")
    chosen = Range(",".join(c.name for c in top[:k]))
    assert chosen == Range("JJ+,AJs+,KJs+,QJs-JTs,AKo")
    assert equity(["10%", "AA"], game=GAME).players[0].combos == len(chosen)
    assert equity(["10%", "AA"], game="shortdeck").players[0].combos == len(
        Range("99+,AJs+,KQs,AKo")
    )
    # either short-deck ordering when named; the full deck's refused, and this one in hold'em
    assert equity(["10%@short", "AA"], game=GAME).players[0].combos == len(
        Range("99+,AJs+,KQs,AKo")
    )
    with pytest.raises(RangeError, match=r"ranks full-deck hands; .* take 'short_straights'"):
        equity(["10%@vs1", "AA"], game=GAME)
    with pytest.raises(RangeError, match="ranks short-deck hands"):
        equity(["10%@short_straights", "AA"])


def test_hits_and_queries_read_its_order() -> None:
    """A set beside a straight plays the straight; hand types in this order."""
    for game, made in (("shortdeck", "set"), (GAME, "straight")):
        report = hits("66", board="6h7c8dTs9h", game=game)
        assert [c.name for c in report.categories if c.combos] == [made]
    spot = "hero='AhKh', villain='8c8d', board='Jh7h9s'"
    result = query(
        "select count(handType(villain, river) = 'straight') as straight, "
        "count(handType(villain, river) >= 'straight') as straight_up, "
        f"count(handType(villain, river) >= 'trips') as trips_up from game='{GAME}', {spot}"
    )
    got = {r.name: r.value for r in result.results}
    hero, villain, flop = ([int(c) for c in parse_cards(t)] for t in ("AhKh", "8c8d", "Jh7h9s"))
    deck = [c for c in SHORT_DECK if c not in {*hero, *villain, *flop}]
    levels = [
        best_short([*villain, *flop, *tr], straight_beats_trips=True)[0]
        for tr in itertools.combinations(deck, 2)
    ]
    n = len(levels)
    assert STRAIGHT_BEATS_TRIPS_ORDER[4].label == "Straight"
    assert got["straight"] == pytest.approx(sum(v == 4 for v in levels) / n, abs=1e-12)
    assert got["straight_up"] == pytest.approx(sum(v >= 4 for v in levels) / n, abs=1e-12)
    assert got["trips_up"] == pytest.approx(sum(v >= 3 for v in levels) / n, abs=1e-12)
    assert got["trips_up"] > got["straight_up"] > got["straight"] > 0


def test_web_answers_it_as_the_library() -> None:
    from fastapi.testclient import TestClient

    from pokerlab.web.app import Settings, create_app

    app = create_app(Settings(workers=1, max_seconds=10.0))
    with TestClient(app, base_url="http://127.0.0.1") as client:
        games = {g["name"]: g for g in client.get("/api/games").json()["games"]}
        assert games[GAME]["lowest_rank"] == 4 and not games[GAME]["is_stud"]
        spot = {"players": ["AhAd", "9s8s"], "board": "Ts7d6h", "game": GAME}
        response = client.post("/api/equity", json={**spot, "method": "exact"})
        assert response.status_code == 200, response.text
        expected = equity(spot["players"], board="Ts7d6h", game=GAME, method="exact")
        got = [p["equity"] for p in response.json()["players"]]
        assert got == pytest.approx([p.equity for p in expected.players], abs=1e-12)
        report = client.post("/api/range", json={"range": "10%", "game": GAME}).json()
        assert report["top"][0]["ordering"] == "short_straights"
        assert report["combos"] == len(Range("JJ+,AJs+,KJs+,QJs-JTs,AKo"))


def test_messages_name_the_other_rule_in_parentheses() -> None:
    """The title read "Short-deck Hold'em, straight over trips", so a message said "a Short-deck
    Hold'em, straight over trips board has 0, 3, 4, 5 cards" (QA)."""
    with pytest.raises(GameError, match=r"^a Short-deck Hold'em \(straight over trips\) board "):
        equity(["AK", "QQ"], board="Kh9s", game="shortdeck-straights")
