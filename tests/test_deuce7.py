"""The 2-7 lowball evaluator against a brute force written from the rules, over all 2,598,960
five-card hands.

Rules (``shared/definitions.md``): aces are high, straights and flushes count against you, best
low is 7-5-4-3-2 unsuited. A-5-4-3-2 is not a straight in 2-7: it is ace-high no-pair.
"""

from __future__ import annotations

import itertools
import math
import random

import numba
import numpy as np
import pytest
from numba import njit
from numpy.typing import NDArray

from pokerlab import CardError, DuplicateCardError
from pokerlab.cards import parse_cards
from pokerlab.evaluation.deuce7 import (
    DEUCE7_CLASSES,
    Deuce7Bucket,
    deuce7_batch,
    deuce7_bucket_of,
    evaluate_deuce7,
)
from pokerlab.evaluation.high import evaluate_batch

needs_jit = pytest.mark.skipif(
    bool(getattr(numba.config, "DISABLE_JIT", 0)),
    reason="exhaustive sweep; too slow with NUMBA_DISABLE_JIT=1",
)

HIGH_CARD, PAIR, TWO_PAIR, TRIPS, STRAIGHT, FLUSH, FULL_HOUSE, QUADS, STRAIGHT_FLUSH = range(9)


def badness(c0: int, c1: int, c2: int, c3: int, c4: int) -> int:
    """2-7 badness of five cards, from the rules only: smaller is a better low, equal ties.

    ``category * 13**5 + tie-break ranks`` (base-13 digits, most significant first). Categories
    run high card < pair < two pair < trips < straight < flush < full house < quads < straight
    flush; ranks are 0 (deuce) .. 12 (ace), the ace always high, so A-5-4-3-2 is no straight.
    Tie-break: the rank groups by (size, rank) descending -- a higher card is a worse low.
    Plain loops only, so numba compiles the same function for the full sweep."""
    cards = (c0, c1, c2, c3, c4)
    counts = [0] * 13
    for c in cards:
        counts[c // 4] += 1
    suit = c0 % 4
    flush = True
    for c in cards:
        if c % 4 != suit:
            flush = False
    digits = [0, 0, 0, 0, 0]
    n = 0
    largest = 0
    groups = 0
    for size in range(4, 0, -1):
        for r in range(12, -1, -1):
            if counts[r] == size:
                digits[n] = r
                n += 1
                groups += 1
                largest = max(largest, size)
    straight = groups == 5 and digits[0] - digits[4] == 4  # no wheel: the ace is only high
    if straight and flush:
        category = STRAIGHT_FLUSH
    elif largest == 4:
        category = QUADS
    elif largest == 3 and groups == 2:
        category = FULL_HOUSE
    elif flush:
        category = FLUSH
    elif straight:
        category = STRAIGHT
    elif largest == 3:
        category = TRIPS
    elif largest == 2 and groups == 3:
        category = TWO_PAIR
    elif largest == 2:
        category = PAIR
    else:
        category = HIGH_CARD
    code = category
    for d in digits:
        code = code * 13 + d
    return code


def bucket(cards: tuple[int, ...]) -> int:
    """The documented bucket, from the rules: no pair, no straight, no flush -> by top card."""
    code = badness(*cards)
    if code // 13**5 != HIGH_CARD:
        return Deuce7Bucket.PAIR_OR_WORSE
    top = max(c // 4 for c in cards)
    return Deuce7Bucket.SEVEN_LOW - (top - 5) if top >= 5 else Deuce7Bucket.SEVEN_LOW


_badness_jit = njit(cache=True)(badness)


@njit(cache=True)
def _all_hands() -> NDArray[np.uint8]:  # type: ignore[no-untyped-def]
    out = np.empty((2598960, 5), np.uint8)
    i = 0
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        out[i, 0] = a
                        out[i, 1] = b
                        out[i, 2] = c
                        out[i, 3] = d
                        out[i, 4] = e
                        i += 1
    return out


@njit(cache=True)
def _badness_rows(hands: NDArray[np.uint8]) -> NDArray[np.int64]:  # type: ignore[no-untyped-def]
    out = np.empty(hands.shape[0], np.int64)
    for i in range(hands.shape[0]):
        h = hands[i]
        out[i] = _badness_jit(h[0], h[1], h[2], h[3], h[4])
    return out


@pytest.fixture(scope="module")
def sweep() -> tuple[NDArray[np.uint8], NDArray[np.uint16], NDArray[np.int64]]:
    hands = _all_hands()
    return hands, deuce7_batch(hands), _badness_rows(hands)


def unique_pairs(first: NDArray[np.integer], second: NDArray[np.integer]) -> NDArray[np.int64]:
    """The distinct ``(first, second)`` rows, sorted by ``first`` (``second`` < 2**13)."""
    packed = np.unique(first.astype(np.int64) << 13 | second.astype(np.int64))
    return np.stack([packed >> 13, packed & (2**13 - 1)], axis=1)


def codes(text: str) -> tuple[int, ...]:
    return tuple(int(c) for c in parse_cards(text))


# --- the reference itself -------------------------------------------------------------------


def test_reference_compiled_equals_plain_python() -> None:
    rng = random.Random(7)
    for _ in range(500):
        hand = rng.sample(range(52), 5)
        assert _badness_jit(*hand) == badness(*hand)


def test_reference_spot_values() -> None:
    assert badness(*codes("7c5d4h3s2c")) < badness(*codes("8c5d4h3s2c"))
    assert badness(*codes("As5d4h3s2c")) // 13**5 == HIGH_CARD  # the wheel is no straight
    assert badness(*codes("6c5d4h3s2c")) // 13**5 == STRAIGHT


# --- exhaustive -----------------------------------------------------------------------------


@needs_jit
def test_all_hands_order_matches_the_rules(sweep: tuple[NDArray, NDArray, NDArray]) -> None:
    hands, strength, bad = sweep
    assert len(hands) == math.comb(52, 5)
    assert strength.min() == 1 and strength.max() == DEUCE7_CLASSES
    assert len(np.unique(strength)) == DEUCE7_CLASSES == 7462
    assert len(np.unique(bad)) == DEUCE7_CLASSES
    pairs = unique_pairs(bad, strength)
    assert len(pairs) == DEUCE7_CLASSES  # equal strength <=> equal badness (ties only)
    # sorted by badness (ascending = better first), strengths strictly decrease: larger is better
    assert np.all(np.diff(pairs[:, 1]) < 0)


@needs_jit
def test_all_hands_are_the_high_order_reversed_except_the_wheels(
    sweep: tuple[NDArray, NDArray, NDArray],
) -> None:
    hands, strength, _ = sweep
    high = evaluate_batch(hands).astype(np.int64)
    ranks = np.sort(hands >> 2, axis=1)
    wheel = np.all(ranks == np.array([0, 1, 2, 3, 12]), axis=1)
    assert wheel.sum() == 4**5  # 1,020 wheels + 4 steel wheels
    pairs = unique_pairs(high[~wheel], strength[~wheel])
    assert len(pairs) == DEUCE7_CLASSES - 2
    assert np.all(np.diff(pairs[:, 1]) < 0)


@needs_jit
def test_all_hands_buckets(sweep: tuple[NDArray, NDArray, NDArray]) -> None:
    hands, strength, bad = sweep
    got = deuce7_bucket_of()[strength]
    no_pair = bad // 13**5 == HIGH_CARD
    top = (hands >> 2).max(axis=1)
    want = np.where(no_pair, Deuce7Bucket.SEVEN_LOW - np.maximum(top - 5, 0), 0)
    assert np.array_equal(got, want)
    counts = np.bincount(got, minlength=9)
    # 7-low: 75432, 76432, 76532, 76542 (76543 is a straight), each in 4**5 - 4 unsuited ways
    assert counts[Deuce7Bucket.SEVEN_LOW] == 4 * (4**5 - 4)
    # no-pair, no-straight, no-flush hands: the 1,277 high-card rank sets + the wheel, unsuited
    assert counts[1:].sum() == (1277 + 1) * (4**5 - 4)


def test_plain_python_evaluation_matches_batch() -> None:
    rng = random.Random(3)
    hands = np.array([rng.sample(range(52), 5) for _ in range(1000)], dtype=np.uint8)
    batch = deuce7_batch(hands)
    for row, value in zip(hands, batch, strict=True):
        v = evaluate_deuce7([int(c) for c in row])
        assert v.strength == value
        assert v.bucket == bucket(tuple(int(c) for c in row))


# --- the wheel and friends ------------------------------------------------------------------


def test_wheel_is_ace_high_no_pair() -> None:
    wheel = evaluate_deuce7("As 5d 4h 3s 2c")
    assert wheel.bucket == Deuce7Bucket.ACE_LOW
    assert wheel.description == "A-5-4-3-2"
    assert wheel < evaluate_deuce7("Ks Qd Jh Ts 8c")  # worse than the worst king-high
    assert wheel > evaluate_deuce7("2s 2d 3h 4s 5c")  # better than any pair
    assert evaluate_deuce7("As 6d 4h 3s 2c") < wheel  # A-6 is a worse low than A-5


def test_suited_wheel_is_a_flush_not_a_straight_flush() -> None:
    steel = evaluate_deuce7("5h 4h 3h 2h Ah")
    assert steel.description == "Flush, Ace high"
    assert steel.bucket == Deuce7Bucket.PAIR_OR_WORSE
    assert steel < evaluate_deuce7("6c 5d 4h 3s 2c")  # a flush is worse than a straight
    assert steel > evaluate_deuce7("6h 5h 4h 3h 2h")  # but better than a straight flush


def test_best_and_worst() -> None:
    best = evaluate_deuce7("7c 5d 4h 3s 2c")
    assert best.strength == DEUCE7_CLASSES and best.bucket.label == "7-low"
    assert evaluate_deuce7("7h 5h 4h 3h 2h").bucket == Deuce7Bucket.PAIR_OR_WORSE  # suited
    assert evaluate_deuce7("Ah Kh Qh Jh Th").strength == 1  # royal flush: the worst
    assert evaluate_deuce7("8c 6d 4h 3s 2c") < best
    assert evaluate_deuce7("8c 6d 4h 3s 2c").bucket.label == "8-low"
    assert evaluate_deuce7("Tc 6d 4h 3s 2c").bucket.label == "10-low"
    assert evaluate_deuce7("Kh Kd 7s 3c 2c").description == "Pair, Kings"


def test_ties_are_equal() -> None:
    a, b = evaluate_deuce7("9c 7d 5h 3s 2c"), evaluate_deuce7("9d 7h 5s 3c 2d")
    assert a == b and hash(a) == hash(b)
    assert a.to_dict()["bucket"] == "9-low"


def test_bucket_labels() -> None:
    assert [b.label for b in Deuce7Bucket] == [
        "pair or worse", "A-low", "K-low", "Q-low", "J-low", "10-low", "9-low", "8-low", "7-low",
    ]  # fmt: skip


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["As Kd 4h 3s", "As Kd 4h 3s 2c 7d", ""])
def test_needs_exactly_five_cards(text: str) -> None:
    with pytest.raises(CardError, match="exactly 5 cards"):
        evaluate_deuce7(text)


def test_duplicate_card() -> None:
    with pytest.raises(DuplicateCardError):
        evaluate_deuce7("As As 4h 3s 2c")


def test_batch_errors() -> None:
    with pytest.raises(CardError, match=r"shape \(n, 5\)"):
        deuce7_batch(np.zeros((2, 7), dtype=np.uint8))
    with pytest.raises(CardError, match="row 1"):
        deuce7_batch(np.array([[0, 1, 2, 3, 4], [0, 0, 2, 3, 4]]))
    with pytest.raises(CardError, match="integer"):
        deuce7_batch(np.zeros((1, 5), dtype=np.float64))


def test_every_class_has_a_bucket_and_itertools_agrees() -> None:
    # a small plain-Python cross-check of the sweep on every hand of three ranks' cards
    cards = [c for c in range(52) if c // 4 in (0, 5, 12)]
    for hand in itertools.combinations(cards, 5):
        assert evaluate_deuce7(list(hand)).bucket == bucket(hand)


def test_deuce7_and_high_values_do_not_compare() -> None:
    from pokerlab import evaluate

    low, high = evaluate_deuce7("7c 5d 4h 3s 2c"), evaluate("7c 5d 4h 3s 2c")
    assert low != high and high != low
    with pytest.raises(TypeError):
        _ = low < high  # type: ignore[operator]
