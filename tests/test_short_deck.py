"""Short-deck (6+) hold'em: the evaluator against the brute force of tests/bruteforce.py (every
5-card hand, random 7-card hands) and pokerkit, the engine's exact answers against Monte Carlo
and across thread counts, and the refusals of cards outside the 36-card deck."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from bruteforce import assert_same_order, best_short, game_equity, rank5_short
from pokerlab import equity
from pokerlab.cards import format_cards, parse_cards
from pokerlab.engine._control import Control
from pokerlab.engine.exact import GameBoards
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.engine.tally import player_stats
from pokerlab.errors import CardError, EmptyRangeError, GameError, PokerlabError, RangeError
from pokerlab.evaluation.high import HandCategory
from pokerlab.evaluation.short_deck import (
    evaluate_short_deck,
    short_deck_batch,
    short_deck_category,
)
from pokerlab.games import get_game
from pokerlab.ranges import Range, hand_ordering, percent_cuts
from pokerlab.ranges._combos import CLASS_INDEX, CLASS_NAMES
from pokerlab.ranges._order import top_count

SHORT_DECK = list(range(16, 52))  # sixes to aces


def test_every_five_card_hand_matches_the_brute_force() -> None:
    hands = np.array(list(itertools.combinations(SHORT_DECK, 5)), dtype=np.uint8)
    assert len(hands) == 376_992
    strengths = short_deck_batch(hands)
    # one brute-force key per class of equal strength is enough to check the order, and every
    # hand's category must be the brute force's (on the short-deck order)
    first: dict[int, int] = {}
    for i, s in enumerate(strengths.tolist()):
        first.setdefault(s, i)
    keys = [rank5_short(hands[i].tolist()) for i in first.values()]
    assert_same_order(keys, list(first))
    assert len(first) == len(set(keys))  # no two classes share a strength
    levels = [short_deck_category(s) for s in first]
    by_level = [
        HandCategory.HIGH_CARD,
        HandCategory.PAIR,
        HandCategory.TWO_PAIR,
        HandCategory.STRAIGHT,
        HandCategory.THREE_OF_A_KIND,
        HandCategory.FULL_HOUSE,
        HandCategory.FLUSH,
        HandCategory.FOUR_OF_A_KIND,
        HandCategory.STRAIGHT_FLUSH,
    ]
    assert levels == [by_level[k[0]] for k in keys]
    # and each hand gets its class's strength: a random sample, hand by hand
    rng = random.Random(5)
    for i in rng.sample(range(len(hands)), 3000):
        key = rank5_short(hands[i].tolist())
        assert keys.index(key) == list(first).index(int(strengths[i]))


@pytest.mark.parametrize("size", [6, 7])
def test_random_six_and_seven_card_hands_match_the_brute_force(size: int) -> None:
    rng = random.Random(size)
    hands = [rng.sample(SHORT_DECK, size) for _ in range(4000)]
    # hands that make a straight beside trips or a flush, A-6-7-8-9, are the cases to get right
    special = ["Ah 6c 7d 8s 9h Kc Kd", "6h 6c 6d 7s 8h 9c Th", "As 6s 7s 8s 9s 9d 9c"]
    hands += [[int(c) for c in parse_cards(t)][:size] for t in special]
    strengths = short_deck_batch(np.array(hands, dtype=np.uint8))
    assert_same_order([best_short(h) for h in hands], strengths.tolist())
    for h, s in zip(hands[:300], strengths[:300], strict=True):
        assert evaluate_short_deck(h).strength == s  # the Python lookup is the kernel's


def test_pokerkit_agrees_except_where_its_rules_put_a_straight_over_trips() -> None:
    """pokerkit's short-deck lookup ranks a straight above three of a kind (the other rule in
    use); every other pair of hands must compare the same way."""
    from pokerkit import ShortDeckHoldemHand

    rng = random.Random(11)
    hands = [rng.sample(SHORT_DECK, 5) for _ in range(1500)]
    ours = short_deck_batch(np.array(hands, dtype=np.uint8))
    theirs = [ShortDeckHoldemHand("".join(str(c) for c in parse_cards(h))) for h in hands]
    cats = [short_deck_category(s) for s in ours]
    swapped = {HandCategory.STRAIGHT, HandCategory.THREE_OF_A_KIND}
    compared = 0
    for i in range(0, len(hands) - 1, 2):
        a, b = i, i + 1
        if {cats[a], cats[b]} == swapped:
            assert (ours[a] > ours[b]) == (cats[a] == HandCategory.THREE_OF_A_KIND)
            continue
        assert (ours[a] > ours[b]) == (theirs[a] > theirs[b])
        assert (ours[a] == ours[b]) == (theirs[a] == theirs[b])
        compared += 1
    assert compared > 700


def test_descriptions_and_best_five() -> None:
    v = evaluate_short_deck("9s 8s 7s 6s As Kd Kc")
    assert (v.category, v.description) == (HandCategory.STRAIGHT_FLUSH, "Straight Flush, Nine high")
    assert format_cards(v.best, " ") == "9s 8s 7s 6s As"  # the ace plays low, shown last
    assert evaluate_short_deck("Ah Kh 9h 7h 6h 6c 6d").category == HandCategory.FLUSH
    v = evaluate_short_deck("Jh Jc Jd Ts 9h 8c 7d")  # trips beside a straight: trips play
    assert v.description == "Three of a Kind, Jacks"
    assert evaluate_short_deck("AhAc6d6s6h") < evaluate_short_deck("Kh Qh 9h 7h 6h")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: evaluate_short_deck("5h 6c 7d 8s 9h"), "no card below the six, got '5h'"),
        (lambda: evaluate_short_deck("6c 7d 8s 9h"), "5, 6 or 7 cards, got 4"),
        (
            lambda: short_deck_batch(np.array([[16, 20, 24, 28, 32], [51, 47, 43, 39, 2]])),
            "short_deck_batch: row 1: the short deck has no card below the six, got '2h'",
        ),
    ],
)
def test_evaluator_refuses_cards_outside_the_short_deck(call, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(CardError, match=message.replace("(", r"\(")):
        call()


def test_game_definition() -> None:
    game = get_game("6+")
    assert (game.name, game.deck_size, game.max_players) == ("shortdeck", 36, 15)
    assert get_game("short-deck") is game
    with pytest.raises(GameError, match=r"16 players need 37 cards .* the short deck .* has 36"):
        equity(["AA"] + ["random"] * 15, game="shortdeck")


def test_preflop_exact_agrees_with_monte_carlo_and_threads() -> None:
    players = ["AhKh", "QsQd"]
    one = equity(players, game="shortdeck", method="exact", threads=1)
    two = equity(players, game="shortdeck", method="exact", threads=2)
    assert one.method == "exact"
    assert [p.equity for p in one.players] == [p.equity for p in two.players]  # bit for bit
    mc = equity(players, game="shortdeck", method="mc", trials=200_000, seed=3)
    for p, q in zip(one.players, mc.players, strict=True):
        assert abs(p.equity - q.equity) < 4 * q.stderr + 1e-12
    # the board is dealt from the short deck: C(32, 5) boards, no deuce to five among them
    assert one.samples == 201_376


def test_ranges_and_random_hands_are_dealt_from_the_short_deck() -> None:
    three = ["AK", "22+", "random"]
    exact = equity(three, board="Jh9h6c", game="shortdeck", method="exact", threads=2)
    one = equity(three, board="Jh9h6c", game="shortdeck", method="exact", threads=1)
    assert [(p.equity, p.win, p.tie) for p in exact.players] == [
        (p.equity, p.win, p.tie) for p in one.players
    ]  # bit for bit
    seeded = [
        equity(
            three, board="Jh9h6c", game="shortdeck", method="mc", trials=50_000, seed=4, threads=t
        )
        for t in (1, 2)
    ]
    assert seeded[0].players == seeded[1].players  # a seed's deals, whatever the threads
    mc = equity(three, board="Jh9h6c", game="shortdeck", method="mc", trials=300_000, seed=9)
    for p, q in zip(exact.players, mc.players, strict=True):
        assert abs(p.equity - q.equity) < 4 * q.stderr
    assert exact.players[1].combos == 9 * 6 - 3 * 3  # 66-AA, less the pairs of a board card
    assert exact.dead == ""  # the cards outside the deck are not echoed as dead


RULES = ["shortdeck", "shortdeck-straights"]  # trips over a straight, and the other rule


@pytest.mark.parametrize("game", RULES)
@pytest.mark.parametrize("seed", range(4))
def test_flop_spots_with_ranges_and_dead_cards_match_the_brute_force(seed: int, game: str) -> None:
    """Two or three players of one to three weighted combos (overlapping), a flop, dead cards:
    every turn and river of the short deck, walked in plain Python."""
    rng = random.Random(f"short-{seed}" if game == "shortdeck" else f"straights-{seed}")
    deck = SHORT_DECK.copy()
    rng.shuffle(deck)
    board = [deck.pop() for _ in range(3)]
    dead = [deck.pop() for _ in range(seed % 3)]
    pool = deck[:8]
    holdings = []
    for _ in range(rng.choice([2, 3])):
        combos = {tuple(sorted(rng.sample(pool, 2))): rng.choice([1.0, 0.5]) for _ in range(3)}
        holdings.append(list(combos.items()))
    texts = [
        ",".join(format_cards(c) + ("@50" if w == 0.5 else "") for c, w in h) for h in holdings
    ]
    ref = game_equity(game, holdings, board, dead, 2, 5)
    got = equity(texts, board=format_cards(board), dead=format_cards(dead), game=game,
                 method="exact")  # fmt: skip
    for i, p in enumerate(got.players):
        assert (p.equity, p.win, p.tie) == pytest.approx(
            (ref["equity"][i], ref["scoop"][i], ref["tie"][i]), abs=1e-9
        )


@pytest.mark.parametrize("game", RULES)
@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["AhKh", "QsQd"], "", ""),  # preflop matchups
        (["AK,JTs", "QQ,99", "76s"], "", "8c"),
        (["AK", "22+", "random"], "Jh9h6c", ""),  # board runouts, the last range counted
        (["AhAs", "KdKc", "T9s,87s"], "Th7c6d", "Ks"),
        (["AQ:0.5,66", "random"], "9s8s7dAh", ""),
        (["KK,AK", "QQ"], "6c7d9hTsJc", ""),
    ],
)
def test_holdem_kernels_agree_with_the_generic_one(
    players: list[str], board: str, dead: str, game: str
) -> None:
    """Short deck runs on the hold'em kernels over its own table (one per rule); the
    game-agnostic kernel (checked against the brute force above) must count the same deals the
    same way."""
    problem = prepare(players, board=board, dead=dead, game=game)
    fast = exact_strategy(problem)
    assert fast is not None and fast.name in ("preflop-matchups", "board-runouts")
    fast_tally = fast.run(problem, Control())
    generic_tally = GameBoards().run(problem, Control())
    assert fast_tally.deals == generic_tally.deals
    ours = player_stats(fast_tally.stats, sampled=False, split=False)
    theirs = player_stats(generic_tally.stats, sampled=False, split=False)
    for a, b in zip(ours, theirs, strict=True):
        assert (a.equity, a.win, a.tie) == pytest.approx((b.equity, b.win, b.tie), abs=1e-12)


@pytest.mark.parametrize("seed", range(24))
def test_random_spots_agree_across_kernels(seed: int) -> None:
    """Seeded random spots (2 to 4 players of 1 to 4 combos, any street, dead cards): the
    hold'em kernels over the short-deck table count what the game-agnostic kernel counts."""
    rng = random.Random(f"kernels-{seed}")
    deck = SHORT_DECK.copy()
    rng.shuffle(deck)
    board = [deck.pop() for _ in range(rng.choice([0, 3, 3, 4, 5]))]
    dead = [deck.pop() for _ in range(rng.randint(0, 3))]
    pool = deck[:10]
    while True:  # until the players can all be dealt (two exact hands may share a card)
        players = []
        for _ in range(rng.choice([2, 2, 3, 4] if board else [2, 3])):
            many = rng.randint(1, 4 if board else 2)
            combos = {tuple(sorted(rng.sample(pool, 2))) for _ in range(many)}
            players.append(",".join(format_cards(c) for c in combos))
        try:
            problem = prepare(players, format_cards(board), format_cards(dead), "shortdeck")
        except PokerlabError:
            continue
        break
    fast = exact_strategy(problem)
    assert fast is not None and fast.name != "game-boards"
    ours = player_stats(fast.run(problem, Control()).stats, sampled=False, split=False)
    theirs = player_stats(GameBoards().run(problem, Control()).stats, sampled=False, split=False)
    for a, b in zip(ours, theirs, strict=True):
        assert (a.equity, a.win, a.tie) == pytest.approx((b.equity, b.win, b.tie), abs=1e-12)


@pytest.mark.parametrize(
    ("kwargs", "error", "field", "message"),
    [
        ({"players": ["5h5d", "AA"]}, EmptyRangeError, "players.0", "not in the short deck"),
        ({"players": ["AA", "KK"], "board": "5h6h7h"}, GameError, "board", "board card 5h is"),
        ({"players": ["AA", "KK"], "dead": "2c 3c"}, GameError, "dead", "dead cards 2c 3c are"),
        ({"players": ["15%@vs1", "AA"]}, RangeError, "players.0", "ranks full-deck hands"),
    ],
)
def test_cards_outside_the_deck_are_refused(kwargs, error, field, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(error, match=message) as info:
        equity(kwargs.pop("players"), game="shortdeck", **kwargs)
    assert info.value.field == field


def test_shipped_ordering_lists_the_81_classes_by_equity() -> None:
    order = hand_ordering("short")
    names = {c.name for c in order}
    assert len(order) == 81 and names == {
        n for n in CLASS_INDEX if all(r in "6789TJQKA" for r in n[:2])
    }
    equities = [c.equity for c in order]
    assert equities == sorted(equities, reverse=True)
    assert order[0].name == "AA" and all(0 < c.stderr < 0.0001 for c in order)
    assert sum(c.combos for c in order) == 630


def test_shipped_ordering_against_the_engine() -> None:
    """A class's shipped equity against three random short-deck hands, by the engine's own
    Monte Carlo (another sampler, another code path): within 4 standard errors of the two."""
    shipped = {c.name: c for c in hand_ordering("short")}
    for name in ("AA", "76o"):
        r = equity([name, "random", "random", "random"], game="shortdeck", method="mc",
                   trials=400_000, seed=21)  # fmt: skip
        p = r.players[0]
        assert abs(p.equity - shipped[name].equity) < 4 * (p.stderr + shipped[name].stderr)


def test_generator_is_deterministic_and_deals_only_the_short_deck() -> None:
    from pokerlab.ranges._order_gen import render, run

    a = run(seed=7, chunks=2, deals=2000, short=True)
    assert render(a) == render(run(seed=7, chunks=2, deals=2000, short=True))
    assert len(a.classes) == 81 and a.count.sum(axis=0)[CLASS_INDEX["22"]] == 0
    shipped = {c.name: c.equity for c in hand_ordering("short")}
    for idx in a.classes.tolist():
        assert abs(a.equity[idx] - shipped[CLASS_NAMES[idx]]) < 0.03


def test_percent_ranges_take_the_short_deck_ordering() -> None:
    """'x%' in short deck is the shortest prefix of the 'short' ordering reaching x % of the
    630 combos; equity reads it so, and the full deck's orderings stay out of it."""
    assert len(Range("100%", ordering="short")) == 630
    assert Range("1%", ordering="short") == Range("KK+")  # 6.3 combos: AA is not enough
    assert Range("0.95%", ordering="short") == Range("AA")
    top = hand_ordering("short")
    for percent in (5.0, 15.0, 40.0):
        k = top_count(percent, "short")
        chosen = Range(",".join(c.name for c in top[:k]))
        assert Range(f"{percent}%", ordering="short") == chosen
        assert (
            sum(c.combos for c in top[:k])
            >= percent / 100 * 630
            > sum(c.combos for c in top[: k - 1])
        )
        got = equity([f"{percent}%", "AA"], game="shortdeck")
        assert got.players[0].combos == len(chosen)
    cut = percent_cuts("15%", "short")[0]
    assert (cut["ordering"], cut["combos"]) == ("short", 100)
    assert cut["percent"] == pytest.approx(100 * 100 / 630)
    with pytest.raises(RangeError, match=r"'short'.* ranks short-deck hands") as info:
        equity(["15%@short", "AA"])  # hold'em
    assert info.value.field == "players.0"


def test_the_short_table_shares_the_high_tables_compiled_kernels() -> None:
    """numba compiles a kernel once per argument type: a read-only short-deck table compiled
    every kernel a second time (about 2.5 minutes more of CI's cold start)."""
    import numba

    from pokerlab.evaluation._tables import load_high_tables
    from pokerlab.evaluation.short_deck import short_deck_values

    assert numba.typeof(short_deck_values()) == numba.typeof(load_high_tables().values)
