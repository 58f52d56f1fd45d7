"""The discard advisor: published draw odds, a plain brute force, exact equities, Monte Carlo.

Published odds: ../shared/reference-values.md, "Draw odds" (five-card draw, one player, the 47
unseen cards equally likely).
"""

from __future__ import annotations

import itertools
import math
import random
import re
from fractions import Fraction

import pytest

import reference as R
from pokerlab import (
    CardError,
    DuplicateCardError,
    EmptyRangeError,
    GameError,
    RangeError,
    TooLargeError,
)
from pokerlab.analysis.draw import DrawAdvice, DrawChoice, Opponent, advise, parse_opponent
from pokerlab.cards import Card, format_cards, parse_cards
from test_deuce7 import badness
from test_deuce7 import bucket as deuce7_bucket

HIGH_NAMES = ["High Card", "Pair", "Two Pair", "Three of a Kind", "Straight", "Flush",
              "Full House", "Four of a Kind", "Straight Flush"]  # fmt: skip


def choice(advice: DrawAdvice, keep: str) -> DrawChoice:
    wanted = set(parse_cards(keep))
    return next(c for c in advice.choices if set(c.keep) == wanted)


def unseen(*known: list[Card]) -> list[int]:
    used = {int(c) for group in known for c in group}
    return [c for c in range(52) if c not in used]


def brute_counts(keep: list[Card], free: list[int], category: object) -> list[int]:
    """Category counts over every replacement set, by plain enumeration."""
    counts = [0] * 9
    for drawn in itertools.combinations(free, 5 - len(keep)):
        counts[category([*map(int, keep), *drawn])] += 1  # type: ignore[operator]
    return counts


def high_category(cards: list[int]) -> int:
    return R.rank5(cards)[0]


def low_bucket(cards: list[int]) -> int:
    return int(deuce7_bucket(tuple(cards)))


# --- published draw odds ----------------------------------------------------------------------


def test_pair_drawing_three() -> None:
    c = choice(advise("Jh Jd 7c 4s 2h"), "Jh Jd")
    assert c.draws == 16_215 == math.comb(47, 3)
    published = {"Pair": 71.286, "Two Pair": 15.985, "Three of a Kind": 11.434,
                 "Full House": 1.018, "Four of a Kind": 0.278}  # fmt: skip
    for name, percent in published.items():
        assert round(c.categories[name] * 100, 3) == percent
    assert sum(c.categories[n] for n in published) == pytest.approx(1.0)


def test_two_pair_drawing_one() -> None:
    c = choice(advise("Kh Kd 7c 7s 2h"), "Kh Kd 7c 7s")
    assert c.draws == 47
    assert Fraction(c.counts[HIGH_NAMES.index("Full House")], c.draws) == Fraction(4, 47)
    assert c.at_least("Full House") == pytest.approx(4 / 47)
    assert c.categories["Two Pair"] == pytest.approx(43 / 47)


def test_four_flush_drawing_one() -> None:
    c = choice(advise("Ah 9h 6h 3h Kc"), "Ah 9h 6h 3h")
    assert c.counts[HIGH_NAMES.index("Flush")] == 9 and c.draws == 47


def test_open_ended_straight_draw_drawing_one() -> None:
    c = choice(advise("9c 8d 7h 6s Kc"), "9c 8d 7h 6s")
    assert c.counts[HIGH_NAMES.index("Straight")] == 8 and c.draws == 47
    assert c.categories["Pair"] == pytest.approx(12 / 47)  # 3 of each of 9, 8, 7, 6


# --- against a plain brute force --------------------------------------------------------------


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_high_counts_equal_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    codes = rng.sample(range(52), 9)
    hand, dead = [Card(c) for c in codes[:5]], [Card(c) for c in codes[5:7]]
    advice = advise(hand, dead=dead)
    free = unseen(hand, dead)
    small = [c for c in advice.choices if len(c.discard) <= 2]
    small += [next(c for c in advice.choices if len(c.discard) == 3)]
    for c in small:
        assert list(c.counts) == brute_counts(list(c.keep), free, high_category)
        assert c.draws == math.comb(45, len(c.discard))


def test_deuce7_counts_equal_brute_force() -> None:
    hand = parse_cards("7h 5d 4c 3s Kh")
    advice = advise(hand, game="2-7")
    free = unseen(hand)
    for keep in ("7h 5d 4c 3s", "7h 5d 4c", "5d 4c 3s Kh", "7h 5d 4c 3s Kh"):
        c = choice(advice, keep)
        assert list(c.counts) == brute_counts(list(c.keep), free, low_bucket)
    c = choice(advice, "7h 5d 4c 3s")
    assert c.categories["7-low"] == pytest.approx(4 / 47)  # 2c 2d 2h 2s make 7-5-4-3-2
    assert c.at_least("8-low") == pytest.approx(8 / 47)  # and the four 8s


def test_every_choice_sums_to_one_and_counts_its_draws() -> None:
    for game in ("high", "2-7"):
        for dead in ("", "As Kd 2c"):
            advice = advise("Qs Jd 9c 4h 4s", dead=dead, game=game)
            n = 47 - len(parse_cards(dead))
            assert len(advice.choices) == 32
            assert len({frozenset(c.keep) for c in advice.choices}) == 32
            for c in advice.choices:
                assert sorted(c.keep + c.discard) == sorted(advice.hand)
                assert c.draws == math.comb(n, len(c.discard)) == sum(c.counts)
                assert sum(c.categories.values()) == pytest.approx(1.0, abs=1e-12)
                assert 0.0 < c.score < 1.0
                assert c.equity is None
            assert sum(c.draws for c in advice.choices) == sum(
                math.comb(5, k) * math.comb(n, k) for k in range(6)
            )


def test_score_is_the_percentile_of_a_pat_hand() -> None:
    # standing pat: the score is the share of the 2,598,960 hands that are worse (+ half ties)
    royal = choice(advise("As Ks Qs Js Ts"), "As Ks Qs Js Ts")
    assert royal.score == pytest.approx(1 - 2 / math.comb(52, 5))  # 4 royals tie, half each
    worst = choice(advise("7c 5d 4h 3s 2c"), "7c 5d 4h 3s 2c")
    assert worst.score == pytest.approx((4**5 - 4) / 2 / math.comb(52, 5))
    best_low = choice(advise("7c 5d 4h 3s 2c", game="2-7"), "7c 5d 4h 3s 2c")
    assert best_low.score == pytest.approx(1 - (4**5 - 4) / 2 / math.comb(52, 5))


# --- ranking ----------------------------------------------------------------------------------


def test_goal_ranks_by_probability_of_reaching_it() -> None:
    advice = advise("Ah Kh Qh Jh 2c", goal="flush")
    assert advice.goal == "Flush"
    assert set(advice.best.keep) == set(parse_cards("Ah Kh Qh Jh"))
    values = [c.at_least("Flush") for c in advice.choices]
    assert values == sorted(values, reverse=True)


def test_best_without_opponent_keeps_the_pair() -> None:
    assert set(advise("Jh Jd 7c 4s 2h").best.keep) == set(parse_cards("Jh Jd"))
    assert advise("As Ks Qs Js Ts").best.discard == ()


# --- equities ---------------------------------------------------------------------------------


def brute_equity(keep: list[Card], free: list[int], opp: list[int], game: str) -> Fraction:
    def value(cards: list[int]) -> object:
        return R.rank5(cards) if game == "high" else (-badness(*cards),)

    theirs = value(opp)
    share = Fraction(0)
    total = 0
    for drawn in itertools.combinations(free, 5 - len(keep)):
        mine = value([*map(int, keep), *drawn])
        share += 1 if mine > theirs else (Fraction(1, 2) if mine == theirs else 0)  # type: ignore[operator]
        total += 1
    return share / total


@pytest.mark.parametrize("game", ["high", "2-7"])
def test_exact_equity_against_a_known_pat_hand(game: str) -> None:
    hand, opp = parse_cards("9h 8h 7h 4s 4d"), parse_cards("Tc Td 6c 5s 2d")
    advice = advise(hand, vs=format_cards(opp), game=game)
    assert advice.method == "exact" and advice.samples == 1
    free = unseen(hand, opp)
    for c in advice.choices:
        assert c.draws == math.comb(42, len(c.discard))
        assert c.stderr == 0.0
        assert c.equity == pytest.approx(c.win + c.tie_equity)  # type: ignore[operator]
        if len(c.discard) <= 2:
            assert c.equity == pytest.approx(float(brute_equity(list(c.keep), free, opp, game)))
    equities = [c.equity for c in advice.choices]
    assert equities == sorted(equities, reverse=True)


def test_ties_split_the_pot() -> None:
    # our straight against the same straight: every pat deal splits
    c = choice(advise("9h 8d 7c 6s 5h", vs="9c 8s 7d 6h 5d"), "9h 8d 7c 6s 5h")
    assert (c.win, c.tie, c.tie_equity, c.equity) == (0.0, 1.0, 0.5, 0.5)


def test_list_of_hands_is_the_average_of_its_hands() -> None:
    hand = "Qs Qd 8c 5h 2d"
    a, b = "Ks Kd 9c 8h 3d", "As 7d 6c 4h 3s"
    both = advise(hand, vs=f"{a}|{b}")
    assert both.method == "exact" and both.samples == 2
    one, two = advise(hand, vs=a), advise(hand, vs=b)
    for c in both.choices:
        keep = format_cards(c.keep, " ")
        want = (choice(one, keep).equity + choice(two, keep).equity) / 2  # type: ignore[operator]
        assert c.equity == pytest.approx(want)


def test_list_hands_that_use_known_cards_are_dropped() -> None:
    advice = advise("Qs Qd 8c 5h 2d", vs="Ks Kd 9c 8h 3d|Qh Qc 9d 8d 3c|As Qs 4d 4h 4c")
    assert advice.samples == 2  # As Qs... uses our Qs
    with pytest.raises(EmptyRangeError):
        advise("Qs Qd 8c 5h 2d", vs="As Qs 4d 4h 4c|Ks Qd 4d 4h 4c")
    with pytest.raises(DuplicateCardError):  # one hand is a known hand: a plain conflict
        advise("Qs Qd 8c 5h 2d", vs="As Qs 4d 4h 4c")


def test_monte_carlo_agrees_with_exact() -> None:
    exact = advise("Ah Kh 8h 4s 4d", vs="Tc Td 6c 5s 2d")
    mc = advise("Ah Kh 8h 4s 4d", vs="Tc Td 6c 5s 2d", method="mc", trials=60_000, seed=5)
    assert mc.method == "monte-carlo" and mc.samples == 60_000
    for c in mc.choices:
        e = choice(exact, format_cards(c.keep, " "))
        assert (c.stderr is not None and c.stderr > 0) or c.equity in (0.0, 1.0)
        assert abs(c.equity - e.equity) <= 4.5 * max(c.stderr or 0.0, 1e-3)  # type: ignore[operator]


def test_monte_carlo_against_a_known_hand_that_draws() -> None:
    # the opponent holds two pair and draws one by the rules; brute force over both draws
    hand, opp = parse_cards("Qs Qd 8c 5h 2d"), parse_cards("Ks Kd 9c 9h 3d")
    kept = [int(c) for c in opp[:4]]
    mc = advise(hand, vs=format_cards(opp) + ":rules", trials=100_000, seed=2)
    free = unseen(hand, opp)
    for c in mc.choices:
        if len(c.discard) > 1:
            continue
        share, total = Fraction(0), 0
        for drawn in itertools.combinations(free, len(c.discard)):
            mine = R.rank5([*map(int, c.keep), *drawn])
            for card in free:
                if card in drawn:
                    continue
                theirs = R.rank5([*kept, card])
                share += 1 if mine > theirs else (Fraction(1, 2) if mine == theirs else 0)
                total += 1
        exact = float(share / total)
        assert abs(c.equity - exact) <= 4.5 * max(c.stderr or 0.0, 1e-3)  # type: ignore[operator]


def test_monte_carlo_random_opponent_symmetry() -> None:
    # throwing all five against a random pat hand: two random hands, equity exactly 1/2
    for game in ("high", "2-7"):
        advice = advise("Ah Kh 8h 4s 4d", vs="random", game=game, trials=80_000, seed=11)
        c = choice(advice, "")
        assert abs(c.equity - 0.5) <= 4.5 * c.stderr  # type: ignore[operator]


def test_monte_carlo_is_reproducible() -> None:
    args = {"vs": ["random:rules"], "trials": 5_000, "seed": 3}
    a, b = advise("Ah Kh 8h 4s 4d", **args), advise("Ah Kh 8h 4s 4d", **args)  # type: ignore[arg-type]
    assert [c.equity for c in a.choices] == [c.equity for c in b.choices]
    c = advise("Ah Kh 8h 4s 4d", vs=["random:rules"], trials=5_000, seed=4)
    assert [x.equity for x in a.choices] != [x.equity for x in c.choices]


def test_unbeatable_hand_against_drawing_opponents() -> None:
    advice = advise("As Ks Qs Js Ts", vs=["random:rules", "Ah Ad Ac 7d 2c:random"], trials=2_000,
                    seed=1)  # fmt: skip
    assert advice.best.discard == () and advice.best.equity == 1.0


def test_auto_samples_random_opponents_and_exact_refuses() -> None:
    assert advise("Jh Jd 7c 4s 2h", vs="random", trials=1_000, seed=1).method == "monte-carlo"
    with pytest.raises(TooLargeError):
        advise("Jh Jd 7c 4s 2h", vs="random", method="exact")
    with pytest.raises(TooLargeError, match="not random hands or opponents who draw"):
        advise("Jh Jd 7c 4s 2h", vs="Ks Kd 9c 8h 3d:rules", method="exact")
    # a listed range standing pat is enumerated up to MAX_FORCED_EXACT evaluations (it had no
    # cap and ran for minutes): here every 3 of the 45 other cards, times every draw
    size = math.comb(45, 3) * sum(math.comb(5, k) * math.comb(42, k) for k in range(6))
    with pytest.raises(TooLargeError, match=re.escape(f"{size:.2g} evaluations, at most 1e+10")):
        advise("Jh Jd 7c 4s 2h", vs="JsJc***", method="exact")


def test_known_opponent_cards_are_dead_for_the_categories() -> None:
    advice = advise("Jh Jd 7c 4s 2h", vs="Js Jc 9c 8h 3d")
    c = choice(advice, "Jh Jd")
    assert c.draws == math.comb(42, 3)
    assert c.categories["Three of a Kind"] == 0.0 and c.categories["Four of a Kind"] == 0.0


# --- input ------------------------------------------------------------------------------------


def test_parse_opponent() -> None:
    assert parse_opponent("random") == Opponent(None, "pat")
    assert parse_opponent("RANDOM:rules") == Opponent(None, "rules")
    o = parse_opponent("Ks Kd 9c 8h 3d | Qs Qd 9d 8d 3c :random")
    assert o.strategy == "random" and len(o.hands or ()) == 2
    assert o.text() == "KsKd9c8h3d|QsQd9d8d3c:random"


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hand": "Jh Jd 7c 4s"}, CardError, "exactly 5 cards"),
        ({"hand": "Jh Jd 7c 4s 2h 3h"}, CardError, "exactly 5 cards"),
        ({"hand": "Jh Jh 7c 4s 2h"}, DuplicateCardError, "duplicate"),
        ({"dead": "Jh"}, DuplicateCardError, "the hand and in the dead cards"),
        ({"dead": "2c 2c"}, DuplicateCardError, "duplicate"),
        ({"vs": "Jh Kd 9c 8h 3d"}, DuplicateCardError, "opponent 1"),
        ({"vs": ["Ks Kd 9c 8h 3d", "Ks Qd 9d 8d 3c"]}, DuplicateCardError, "Ks"),
        ({"vs": "Ks Kd 9c 8h"}, CardError, "5 cards"),
        ({"vs": "random:smart"}, GameError, "strategy"),
        ({"game": "razz"}, GameError, "unknown draw game"),
        ({"goal": "royal"}, GameError, "unknown goal"),
        ({"method": "guess"}, GameError, "unknown method"),
        ({"vs": "random", "trials": 0}, GameError, "trials"),
        # a MemoryError ("Unable to allocate 128. PiB"), where equity says the same words
        ({"vs": "random", "trials": 2**70}, GameError, "trials: .* deals cannot be counted"),
        ({"vs": ["random"] * 9}, GameError, r"opponents' hands and draws \(45\) need 55"),
        ({"vs": ["random:random"] * 5}, GameError, r"draws \(50\) need 60; the deck has 52"),
        ({"vs": "random:rules", "max_draw": 3}, GameError, "cannot hold to a limit of 3"),
        ({"hand": "Jh Jd 7c 4s Xx"}, CardError, "invalid card"),
    ],
)
def test_errors(kwargs: dict[str, object], error: type[Exception], match: str) -> None:
    args = {"hand": "Jh Jd 7c 4s 2h", **kwargs}
    with pytest.raises(error, match=match):
        advise(**args)  # type: ignore[arg-type]


def test_the_deck_check_counts_what_each_player_may_draw() -> None:
    """Opponents who stand pat draw nothing, and under a draw limit a random one draws at most
    that: tables the old "everyone draws five" count refused now run."""
    assert advise("Jh Jd 7c 4s 2h", vs=["random"] * 8, trials=200, seed=1).samples == 200
    limited = advise("Jh Jd 7c 4s 2h", vs=["random:random"] * 5, trials=200, seed=1, max_draw=3)
    assert limited.samples == 200 and len(limited.choices) == 26


def test_a_random_opponent_keeps_to_the_draw_limit() -> None:
    """With ``max_draw=0`` nobody draws: against a listed better hand, hero never wins, unless
    the random opponent breaks its hand by drawing (which the limit forbids)."""
    better = "Ah Ad 7d 4d 2c:random"
    free = advise("Jh Jd 7c 4s 2h", vs=better, trials=2_000, seed=3)
    pat = next(c for c in free.choices if c.discard == ())
    assert pat.equity > 0.05  # drawing at random, it breaks its aces now and then
    held = advise("Jh Jd 7c 4s 2h", vs=better, trials=2_000, seed=3, max_draw=0)
    assert [c.discard for c in held.choices] == [()]
    assert held.best.equity == 0.0 and held.best.win == 0.0


def test_at_least_unknown_category() -> None:
    with pytest.raises(GameError):
        advise("Jh Jd 7c 4s 2h").best.at_least("Royal")


def test_to_dict_shape() -> None:
    d = advise("Jh Jd 7c 4s 2h", vs="Ks Kd 9c 8h 3d").to_dict()
    assert d["hand"] == "Jh Jd 7c 4s 2h" and d["method"] == "exact" and len(d["choices"]) == 32
    first = d["choices"][0]
    assert set(first) >= {"keep", "discard", "draws", "categories", "equity", "win", "tie"}
    assert list(first["categories"]) == HIGH_NAMES


def test_an_opponent_range_is_its_listed_hands() -> None:
    # A pattern range of five-card hands is the list of every hand it matches, equally likely.
    by_pattern = advise("Qs Qd 8c 5h 2d", vs="AsAdKsKd[QJ]h")
    by_list = advise("Qs Qd 8c 5h 2d", vs="AsAdKsKdQh|AsAdKsKdJh")
    assert by_pattern.method == by_list.method == "exact"
    for a, b in zip(by_pattern.choices, by_list.choices, strict=True):
        assert (a.keep, a.equity, a.win, a.tie) == (b.keep, b.equity, b.win, b.tie)


def test_an_opponent_range_with_many_hands_is_sampled() -> None:
    # 108,336 hands with two jacks or more: too many to enumerate, so Monte Carlo; against a
    # pair of jacks or better, drawing to queens wins less often than against random hands.
    vs_jacks = advise("Qs Qd 8c 5h 2d", vs="JJ***", trials=40_000, seed=3)
    vs_random = advise("Qs Qd 8c 5h 2d", vs="random", trials=40_000, seed=3)
    assert vs_jacks.method == "monte-carlo"
    assert vs_jacks.best.equity is not None and vs_random.best.equity is not None
    assert vs_jacks.best.equity < vs_random.best.equity - 10 * (vs_jacks.best.stderr or 0)


def test_an_opponent_range_is_echoed_with_its_tens_written_t() -> None:
    # definitions.md: output writes a ten 'T'; the range as written echoed '1010***' (the
    # equity table already shows '1010**' as 'TT**')
    assert parse_opponent("1010***:rules").text() == "TT***:rules"
    advice = advise("Ah Kd 7c 4s 2h", vs=["10s10d***", "JJ***"], trials=100, seed=1, threads=1)
    assert advice.opponents == ("TsTd***", "JJ***")


@pytest.mark.parametrize(
    ("text", "error", "fragment"),
    [
        ("JJ***@50,KK***", RangeError, "weights are not supported"),
        ("JJ#", RangeError, "character"),
        ("AhAd7c4s", CardError, "needs 5 cards"),
    ],
)
def test_bad_opponents_are_named(text: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        parse_opponent(text)


# --- threads ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "kwargs"),
    [
        ("Jh Jd 7c 4s 2h", {}),
        ("8s 7s 5d 3c 2h", {"game": "2-7", "dead": "Ks"}),
        ("Ah Kh Qh 4c 2d", {"vs": ["9s 9d 8c 7c 2s|Tc Td 3s 3d 4h"], "method": "exact"}),
    ],
)
def test_advice_is_the_same_on_any_thread_count(hand: str, kwargs: dict[str, object]) -> None:
    one, two = (advise(hand, threads=threads, **kwargs) for threads in (1, 2))  # type: ignore[arg-type]
    for a, b in zip(one.choices, two.choices, strict=True):
        assert (a.keep, a.counts, a.score, a.equity) == (b.keep, b.counts, b.score, b.equity)


@pytest.mark.parametrize("threads", [0, -1, 2.5, "4"])
def test_advise_rejects_bad_threads(threads: object) -> None:
    with pytest.raises(GameError, match="threads must be") as info:
        advise("Jh Jd 7c 4s 2h", threads=threads)  # type: ignore[arg-type]
    assert info.value.field == "threads"


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"vs": "random", "method": "mc", "trials": 100.5}, "trials"),  # ran, samples == 100.5
        ({"vs": "random", "method": "mc", "trials": "100"}, "trials"),
        ({"max_draw": 2.5}, "max_draw"),  # ran, and echoed max_draw 2.5
        ({"max_draw": True}, "max_draw"),
        ({"max_draw": 6}, "max_draw"),
    ],
)
def test_advise_counts_are_whole_numbers(kwargs: dict[str, object], field: str) -> None:
    with pytest.raises(GameError, match=f"{field}:? must be a whole number") as info:
        advise("Jh Jd 7c 4s 2h", **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


# --- the Monte Carlo sampler's stream is fixed --------------------------------------------------


@pytest.mark.parametrize(
    ("opponents", "expected"),
    [
        (["random"], (49772.0, 7.0, 744971.0, 23.0)),
        (["random:rules"], (31742.0, 2.0, 467410.0, 21.5)),
        (["JJ***:rules"], (11392.0, 29.0, 143909.0, 205.5)),
        (["random:random"], (50029.0, 9.0, 744639.0, 67.0)),
        (["JJ***:rules", "random"], (10330.0, 20.0, 129724.0, 194.0)),
    ],
)
def test_sampled_choice_tallies_are_pinned(
    opponents: list[str], expected: tuple[float, ...]
) -> None:
    """Seeded tallies of all 32 choices against pat, drawing, listed and several opponents,
    pinned as computed at commit 77e47f9: the optimal bot's shipped table
    (``_optimal_table``) holds answers of this sampler and its streams, so a change to either
    must regenerate the table. (It caught an attempt that read our dealt cards after a drawing
    opponent had dealt into the same array.)"""
    import numpy as np

    from pokerlab.analysis.draw import sample_equities

    hand = [int(c) for c in parse_cards("Jh Jd 7c 4s 2h")]
    tally = sample_equities(hand, "high", [parse_opponent(s) for s in opponents], 3000, 7)
    m = np.arange(32)
    got = (tally[:, 0].sum(), tally[:, 1].sum(), (m * tally[:, 0]).sum(), (m * tally[:, 2]).sum())
    assert tuple(float(x) for x in got) == expected


def test_a_hand_listed_twice_for_an_opponent_is_refused() -> None:
    """``Td Tc 8s 8c 3h`` after ``Tc Td 8c 8s 3h`` counted that hand twice (equity 0.533
    where the set of two hands gives 0.65)."""
    two = "Ac Kd Qh 9s 3c|Tc Td 8c 8s 3h"
    assert advise("Jh Jd 7c 4s 2h", vs=two).best.equity == pytest.approx(0.65)
    with pytest.raises(GameError, match="'Td Tc 8s 8c 3h' is listed twice"):
        advise("Jh Jd 7c 4s 2h", vs=two + "|Td Tc 8s 8c 3h")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": None}, "a draw game is"),
        ({"game": 5}, "a draw game is"),
        ({"vs": [None]}, "an opponent is text"),
    ],
)
def test_advice_arguments_of_the_wrong_type_are_one_line_errors(
    kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(GameError, match=message):
        advise("Jh Jd 7c 4s 2h", **kwargs)  # type: ignore[arg-type]


def test_seeds_past_64_bits_are_not_seed_0() -> None:
    spot = {"vs": "random", "method": "mc", "trials": 2000}
    zero = advise("Jh Jd 7c 4s 2h", seed=0, **spot)  # type: ignore[arg-type]
    big = advise("Jh Jd 7c 4s 2h", seed=2**64, **spot)  # type: ignore[arg-type]
    assert [c.equity for c in zero.choices] != [c.equity for c in big.choices]


def test_a_pattern_of_every_hand_is_random() -> None:
    """``*****`` listed its 2.6 million hands (13 s) before an exact run refused them."""
    every = parse_opponent("*****")
    assert every.hands is None and every.text() == "random"
    assert every == parse_opponent("random")
    assert parse_opponent("*****:rules") == parse_opponent("random:rules")
    assert len(parse_opponent("AA***").hands or ()) > 0


def test_sampled_tallies_are_the_same_on_any_number_of_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The sampler runs chunks in parallel, each on its own stream (it ran on one thread, in
    one call that Ctrl-C could not stop); the first chunk keeps the seed's own stream, which
    the optimal bot's shipped table was computed with."""
    import numpy as np

    from pokerlab.analysis import draw

    hand = [int(c) for c in parse_cards("Jh Jd 7c 4s 2h")]
    opponents = [parse_opponent(o) for o in ("random:rules", "random", "random:pat")]
    monkeypatch.setattr(draw, "SAMPLE_CHUNK", 1_000)
    tallies = [
        draw.sample_equities(hand, "high", opponents, 7_501, 7, threads=k) for k in (1, 2, 3)
    ]
    assert np.array_equal(tallies[0], tallies[1]) and np.array_equal(tallies[0], tallies[2])
    assert tallies[0][:, 0].sum() > 0
    first = draw.sample_equities(hand, "high", opponents, 1_000, 7, threads=2)
    monkeypatch.setattr(draw, "SAMPLE_CHUNK", 10**6)
    assert np.array_equal(draw.sample_equities(hand, "high", opponents, 1_000, 7), first)


def test_a_huge_count_of_trials_allocates_nothing_up_front(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``draw advise --vs random --trials 10000000000000000 --no-limit`` ended in a MemoryError
    traceback: the sampler made an array of every chunk's size (1.2 TB) before its first deal."""
    from pokerlab.analysis import _draw_kernels, draw

    class FirstCall(Exception):
        pass

    def first_call(*args: object) -> None:
        raise FirstCall

    monkeypatch.setattr(_draw_kernels, "sample_chunks", first_call)
    hand = parse_cards("Jh Jd 7c 4s 2h")
    with pytest.raises(FirstCall):
        draw.sample_equities(hand, "high", [parse_opponent("random")], 10**16, 7, threads=1)


def test_ctrl_c_stops_a_long_monte_carlo_advice() -> None:
    """10^9 trials ran in one kernel call, deaf to Ctrl-C for about 40 minutes."""
    import os
    import signal
    import subprocess
    import sys
    import time

    command = [sys.executable, "-m", "pokerlab", "draw", "advise", "Jh Jd 7c 4s 2h", "--vs",
               "random:rules", "--trials", "1000000000"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, env={**os.environ, "COLUMNS": "100"})  # fmt: skip
    time.sleep(4)
    process.send_signal(signal.SIGINT)
    try:
        _, stderr = process.communicate(timeout=60)
    finally:
        process.kill()  # left running by a failure
    assert process.returncode == 1 and stderr.strip() == "error: aborted", stderr


@pytest.mark.parametrize(
    ("kwargs", "field", "message"),
    [
        ({"goal": 5}, "goal", "a goal is the name of one of High Card"),
        ({"vs": 5}, "vs", "vs must be a list of opponents"),
        ({"vs": b"random"}, "vs", "vs must be a list of opponents"),
        ({"vs": Opponent()}, "vs", "vs must be a list of opponents"),
        ({"game": ["high"]}, "game", "a draw game is"),
        ({"game": "razz"}, "game", "unknown draw game"),
    ],
)
def test_advice_arguments_are_named_one_line_errors(
    kwargs: dict[str, object], field: str, message: str
) -> None:
    """``goal=5`` raised an AttributeError, ``vs=5`` a TypeError, ``vs=b"random"`` was read
    byte by byte ("got 114"), ``game=["high"]`` raised "unhashable type"."""
    with pytest.raises(GameError, match=message) as info:
        advise("Jh Jd 7c 4s 2h", **kwargs)  # type: ignore[arg-type]
    assert info.value.field == field


def test_one_opponent_may_be_given_as_text() -> None:
    """The docstring's ``vs="random"``: one opponent, not a list of its letters."""
    one = advise("Jh Jd 7c 4s 2h", vs="random", trials=2000, seed=1)
    assert one.opponents == ("random",)
    assert (
        one.best.equity == advise("Jh Jd 7c 4s 2h", vs=["random"], trials=2000, seed=1).best.equity
    )


def test_one_sampled_deal_has_an_unknown_standard_error() -> None:
    """One deal read as an exact 0.0 (DrawChoice's word for exact); the equity engine calls
    the spread of fewer than two deals unknown (NaN, JSON null), and so does the advice now."""
    one = advise("Jh Jd 7c 4s 2h", vs="random", seed=1, trials=1)
    assert one.method == "monte-carlo"
    assert all(math.isnan(c.stderr) for c in one.choices if c.stderr is not None)
    assert one.best.to_dict()["stderr"] is None
    many = advise("Jh Jd 7c 4s 2h", vs="random", seed=1, trials=2000)
    assert 0 < many.best.stderr < 0.02


@pytest.mark.parametrize("trials", [0, 2.5, 2**70])
def test_advise_and_equity_refuse_trials_in_the_same_words(trials: object) -> None:
    """Three copies of the trials check said it three ways ("trials must be a whole number from
    1", "trials must be a whole number, at least 1", "trials: must be at least 1")."""
    import pokerlab

    with pytest.raises(GameError) as advised:
        advise("Jh Jd 7c 4s 2h", vs="random", method="mc", trials=trials)  # type: ignore[arg-type]
    with pytest.raises(GameError) as equity:
        pokerlab.equity(["AhAs", "KK"], method="mc", trials=trials)  # type: ignore[arg-type]
    assert str(advised.value) == str(equity.value) and str(equity.value).startswith("trials: ")
