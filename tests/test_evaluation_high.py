"""The high-hand evaluator against an independent oracle (tests/reference.py), published counts
and two peer libraries.

Published counts come from ../shared/reference-values.md ("Evaluator counts"): the 5-card
category counts and the 7,462 distinct 5-card values are the classic combinatorial figures
(e.g. Wikipedia "Poker probability", frequency of 5-card hands); the 7-card counts over
133,784,560 hands and the 4,824 values reachable as a best-of-7 are the figures of the same page's
7-card table and of Cactus Kev's / PokerHandEvaluator's 7-card enumerations, each reproduced there
by an independent exact enumeration.
"""

from __future__ import annotations

import math
from typing import Any

import numba
import numpy as np
import pytest
from numpy.typing import NDArray

import pokerlab
import reference as R
from pokerlab import CardError, DuplicateCardError, HandCategory, HandValue, evaluate
from pokerlab.cards import Card, format_cards, parse_cards
from pokerlab.evaluation import _kernels as K
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation import evaluate_batch
from pokerlab.evaluation.high import _strength_python

# reference-values.md, "Evaluator counts" (high card -> straight flush).
FIVE_CARD_COUNTS = [1_302_540, 1_098_240, 123_552, 54_912, 10_200, 5_108, 3_744, 624, 40]
SEVEN_CARD_COUNTS = [
    23_294_460,
    58_627_800,
    31_433_400,
    6_461_620,
    6_180_020,
    4_047_644,
    3_473_184,
    224_848,
    41_584,
]
DISTINCT_FIVE = 7_462
DISTINCT_SEVEN = 4_824
# Sweeps over millions of hands: skipped when numba runs as plain Python (coverage runs).
needs_jit = pytest.mark.skipif(
    bool(getattr(numba.config, "DISABLE_JIT", 0)),
    reason="exhaustive sweep; too slow with NUMBA_DISABLE_JIT=1",
)

# Classes per category (high card .. straight flush); they sum to 7,462.
CLASSES_PER_CATEGORY = [1_277, 2_860, 858, 858, 10, 1_277, 156, 156, 10]

# --- fixtures ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def tables() -> T.HighTables:
    return T.load_high_tables()


def histogram(tables: T.HighTables, k: int) -> NDArray[np.int64]:
    """Kernel histogram of the strengths of every k-card hand from the full deck."""
    hist = np.zeros(1 << 16, np.int64)
    n = K.strength_histogram(
        K.EMPTY_KEY,
        np.uint64(0),
        np.arange(52, dtype=np.uint8),
        k,
        K.CARD_KEY,
        K.CARD_MASK,
        np.uint64(tables.multiplier),
        tables.displace,
        tables.values,
        hist,
    )
    assert n == hist.sum() == math.comb(52, k)
    return hist


def category_counts(hist: NDArray[np.int64]) -> list[int]:
    counts = [0] * 9
    for strength in np.flatnonzero(hist).tolist():
        counts[strength >> T.CATEGORY_SHIFT] += int(hist[strength])
    return counts


@pytest.fixture(scope="module")
def five_card() -> dict[str, Any]:
    """Every 5-card hand with its reference value and pokerlab strength, and the bijection
    between the two scales (which the exhaustive test proves is one)."""
    hands = R.all_hands(5)
    ref = R.best_code_rows(hands)
    strength = evaluate_batch(hands)
    pairs = np.unique(np.stack([ref, strength.astype(np.int64)]), axis=1)
    to_strength = dict(zip(pairs[0].tolist(), pairs[1].tolist(), strict=True))
    return {"hands": hands, "ref": ref, "strength": strength, "to_strength": to_strength}


def ref_to_strength(five_card: dict[str, Any], ref: NDArray[np.int64]) -> NDArray[np.int64]:
    mapping: dict[int, int] = five_card["to_strength"]
    return np.array([mapping[int(v)] for v in ref], dtype=np.int64)


# --- the oracle itself ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("worse", "better"),
    [
        ("Ac 2d 3h 4s 5c", "2c 3d 4h 5s 6c"),  # the wheel is the lowest straight
        ("Ac Kd Qh Js 9c", "2c 3d 4h 5s Ac"),  # ace-high loses to the wheel
        ("Ah Kh Qh Jh 9h", "2c 2d 2h 3s 3c"),  # flush < full house
        ("Kc Kd 7h 7s Ac", "Ac Ad 2h 2s 3c"),  # two pair: the top pair first
        ("Ac Ad 5h 5s Kc", "Ac Ad 6h 6s 2c"),  # then the second pair
        ("Ac Ad 6h 6s 2c", "Ah As 6c 6d 3h"),  # then the kicker
        ("3c 3d 3h As Kc", "4c 4d 4h 2s 3d"),  # trips by the trips' rank
        ("2c 2d 2h Ks Kc", "3c 3d 3h 2s 2d"),  # full house by the trips
        ("9c 9d 9h 9s 2c", "9c 9d 9h 9s 3c"),  # quad kicker
        ("5h 4h 3h 2h Ah", "6c 5c 4c 3c 2c"),  # steel wheel < six-high straight flush
    ],
)
def test_reference_oracle_examples(worse: str, better: str) -> None:
    w = [int(c) for c in parse_cards(worse)]
    b = [int(c) for c in parse_cards(better)]
    assert R.rank5(w) < R.rank5(b)
    assert R.encode(R.rank5(w)) < R.encode(R.rank5(b))


def test_reference_suits_never_break_ties() -> None:
    a = [int(c) for c in parse_cards("Ac Kd Qh 9s 7c")]
    b = [int(c) for c in parse_cards("As Kh Qd 9c 7d")]
    assert R.rank5(a) == R.rank5(b)


def test_numba_reference_equals_python_reference() -> None:
    for k, n, seed in ((5, 10_000, 11), (6, 3_000, 12), (7, 3_000, 13)):
        hands = R.random_hands(n, k, seed)
        fast = R.best_code_rows(hands)
        slow = [R.encode(R.best_rank([int(c) for c in row])) for row in hands]
        assert fast.tolist() == slow


# --- exhaustive checks --------------------------------------------------------------------------


@needs_jit
def test_all_five_card_hands_kernel_histogram(tables: T.HighTables) -> None:
    hist = histogram(tables, 5)
    assert hist.sum() == 2_598_960
    assert category_counts(hist) == FIVE_CARD_COUNTS
    assert np.count_nonzero(hist) == DISTINCT_FIVE


@needs_jit
def test_strength_scale_is_category_and_dense_index(tables: T.HighTables) -> None:
    """strength = category << 12 | index, index 1..n inside each category (documented in
    _tables)."""
    strengths = np.flatnonzero(histogram(tables, 5))
    for category, n in enumerate(CLASSES_PER_CATEGORY):
        mine = strengths[strengths >> T.CATEGORY_SHIFT == category]
        assert mine.tolist() == [category << T.CATEGORY_SHIFT | i for i in range(1, n + 1)]


@needs_jit
def test_all_five_card_hands_match_reference_ordering(five_card: dict[str, Any]) -> None:
    ref, strength = five_card["ref"], five_card["strength"]
    assert len(ref) == 2_598_960
    assert np.bincount(R.category_of_code(ref)).tolist() == FIVE_CARD_COUNTS  # the oracle
    assert len(np.unique(ref)) == DISTINCT_FIVE
    R.assert_same_order(ref, strength)
    assert (R.category_of_code(ref) == strength >> T.CATEGORY_SHIFT).all()
    assert len(five_card["to_strength"]) == DISTINCT_FIVE


@needs_jit
def test_all_seven_card_hands_kernel_histogram(tables: T.HighTables) -> None:
    hist = histogram(tables, 7)
    assert hist.sum() == 133_784_560
    assert category_counts(hist) == SEVEN_CARD_COUNTS
    assert np.count_nonzero(hist) == DISTINCT_SEVEN
    # every best-of-7 value is a 5-card value
    five = histogram(tables, 5)
    assert (five[np.flatnonzero(hist)] > 0).all()


@needs_jit
@pytest.mark.slow
def test_all_six_card_hands_match_reference(
    tables: T.HighTables, five_card: dict[str, Any]
) -> None:
    """The kernel's histogram over all C(52, 6) hands equals the brute-force best-of-6
    histogram carried to the strength scale (~10 s)."""
    hist = histogram(tables, 6)
    assert hist.sum() == 20_358_520
    ref_hist = R.six_card_histogram()
    codes = np.flatnonzero(ref_hist)
    expected = np.zeros(1 << 16, np.int64)
    np.add.at(expected, ref_to_strength(five_card, codes), ref_hist[codes])
    assert np.array_equal(hist, expected)


@needs_jit
@pytest.mark.parametrize(("k", "n", "seed"), [(6, 200_000, 606), (7, 1_000_000, 20240607)])
def test_random_hands_match_reference(five_card: dict[str, Any], k: int, n: int, seed: int) -> None:
    """A million random 7-card hands (and 200,000 6-card ones) against the brute force: the same
    category and tie-break ranks, not only the same order."""
    hands = R.random_hands(n, k, seed=seed)
    ref = R.best_code_rows(hands)
    got = evaluate_batch(hands)
    R.assert_same_order(ref, got)
    assert np.array_equal(ref_to_strength(five_card, ref), got)


# --- peers ------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def peer_sample() -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    hands = R.random_hands(150_000, 7, seed=77)
    return hands, evaluate_batch(hands).astype(np.int64)


def _assert_pairwise_signs(mine: NDArray[np.int64], theirs: NDArray[np.int64]) -> None:
    perm = np.random.default_rng(5).permutation(len(mine))
    assert np.array_equal(np.sign(mine - mine[perm]), np.sign(theirs - theirs[perm]))


def test_ordering_agrees_with_phevaluator(
    peer_sample: tuple[NDArray[np.uint8], NDArray[np.int64]],
) -> None:
    from phevaluator import evaluate_cards

    hands, mine = peer_sample
    names = [str(Card(c)) for c in range(52)]
    # phevaluator: lower is better, 1 = royal flush
    theirs = -np.array([evaluate_cards(*(names[c] for c in row)) for row in hands.tolist()])
    _assert_pairwise_signs(mine, theirs)
    R.assert_same_order(theirs, mine)


@pytest.mark.filterwarnings("ignore::DeprecationWarning")  # eval7's use of old pyparsing names
def test_ordering_agrees_with_eval7(
    peer_sample: tuple[NDArray[np.uint8], NDArray[np.int64]],
) -> None:
    import eval7

    hands, mine = peer_sample
    deck = [eval7.Card(str(Card(c))) for c in range(52)]
    theirs = np.array([eval7.evaluate([deck[c] for c in row]) for row in hands.tolist()])
    _assert_pairwise_signs(mine, theirs)
    R.assert_same_order(theirs, mine)


# --- evaluate() ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "category", "description"),
    [
        ("As Ks Qs Js Ts", HandCategory.STRAIGHT_FLUSH, "Royal Flush"),
        ("9h 8h 7h 6h 5h Ah 2c", HandCategory.STRAIGHT_FLUSH, "Straight Flush, Nine high"),
        ("Ad 2d 3d 4d 5d", HandCategory.STRAIGHT_FLUSH, "Straight Flush, Five high"),
        ("9c 9d 9h 9s Kd", HandCategory.FOUR_OF_A_KIND, "Four of a Kind, Nines"),
        ("Kh Kd Ks 4c 4d 2s 7h", HandCategory.FULL_HOUSE, "Full House, Kings full of Fours"),
        ("Kh Kd Ks 4c 4d 4s", HandCategory.FULL_HOUSE, "Full House, Kings full of Fours"),
        ("2c 2d 2h Ac As", HandCategory.FULL_HOUSE, "Full House, Twos full of Aces"),
        ("Kc 9c 7c 4c 2c", HandCategory.FLUSH, "Flush, King high"),
        ("5d 4c 3h 2s As", HandCategory.STRAIGHT, "Straight, Five high"),
        ("Ac Kd Qh Js Tc", HandCategory.STRAIGHT, "Straight, Ace high"),
        ("7c 7d 7h Ks 2c", HandCategory.THREE_OF_A_KIND, "Three of a Kind, Sevens"),
        ("Ac Ad 6h 6s 2c", HandCategory.TWO_PAIR, "Two Pair, Aces and Sixes"),
        ("Jc Jd Th Ts 2c", HandCategory.TWO_PAIR, "Two Pair, Jacks and Tens"),
        ("Qc Qd 8h 5s 2c", HandCategory.PAIR, "Pair, Queens"),
        ("Ac Jd 8h 5s 3c", HandCategory.HIGH_CARD, "High Card, Ace high"),
        ("7c 5d 4h 3s 2c", HandCategory.HIGH_CARD, "High Card, Seven high"),
    ],
)
def test_evaluate_descriptions(cards: str, category: HandCategory, description: str) -> None:
    value = evaluate(cards)
    assert value.category is category
    assert value.category == value.strength >> T.CATEGORY_SHIFT
    assert value.description == description
    hand = [int(c) for c in parse_cards(cards)]
    assert R.rank5([int(c) for c in value.best]) == R.best_rank(hand)


def test_category_labels() -> None:
    assert [c.label for c in HandCategory] == list(R.CATEGORY_NAMES)


def test_display_order_of_best_five() -> None:
    assert format_cards(evaluate("Kh Kd Ks 4c 4d 2s 7h").best, " ") == "Ks Kh Kd 4d 4c"
    assert format_cards(evaluate("5d 4c 3h 2s As").best, " ") == "5d 4c 3h 2s As"
    assert format_cards(evaluate("Ac 6d 6h 2c As").best, " ") == "As Ac 6h 6d 2c"


def _expected_rank_sequence(value: tuple[int, ...], five: list[int]) -> list[int]:
    """Ranks of the best five, most important first, from the oracle's tuple."""
    category, *keys = value
    if category in (R.STRAIGHT, R.STRAIGHT_FLUSH):
        top = keys[0]
        return [3, 2, 1, 0, 12] if top == 3 else list(range(top, top - 5, -1))
    counts = {r: sum(1 for c in five if c // 4 == r) for r in keys}
    return [r for r in keys for _ in range(counts[r])]


@pytest.mark.parametrize("k", [5, 6, 7])
def test_evaluate_random_hands_against_reference(k: int) -> None:
    for row in R.random_hands(1_500, k, seed=k).tolist():
        cards = [Card(c) for c in row]
        value = evaluate(cards)
        expected = R.best_rank(row)
        best = [int(c) for c in value.best]
        assert len(best) == 5 and len(set(best)) == 5 and set(best) <= set(row)
        assert R.rank5(best) == expected
        assert value.category == expected[0]
        assert _strength_python(best) == value.strength
        assert [c >> 2 for c in best] == _expected_rank_sequence(expected, best)
        assert value.strength == int(evaluate_batch(np.array([row]))[0])


def test_evaluate_accepts_codes_cards_and_text() -> None:
    text = evaluate("AsKsQsJsTs")
    assert evaluate([51, 47, 43, 39, 35]) == text
    assert evaluate(["As", "Ks", "Qs", "Js", "Ts"]) == text
    assert evaluate(parse_cards("as ks qs js 10s")) == text
    assert evaluate([np.uint8(51), np.int64(47), 43, 39, 35]) == text  # type: ignore[list-item]
    assert pokerlab.evaluate is evaluate


def test_hand_value_comparisons() -> None:
    royal = evaluate("As Ks Qs Js Ts")
    quads = evaluate("9c 9d 9h 9s Kd 2c")
    other_suits = evaluate("9c 9d 9h 9s Kh 2d 3d")
    high = evaluate("Ac Jd 8h 5s 3c")
    assert high < quads < royal
    assert royal > quads >= other_suits and quads <= other_suits
    assert quads == other_suits and hash(quads) == hash(other_suits)
    assert quads != royal
    assert sorted([royal, high, quads]) == [high, quads, royal]
    assert max([high, royal, quads]).description == "Royal Flush"
    assert royal != "Royal Flush" and royal != royal.strength
    assert len({quads, other_suits, royal}) == 2


def test_hand_value_ordering_against_other_types_is_a_type_error() -> None:
    with pytest.raises(TypeError):
        _ = evaluate("As Ks Qs Js Ts") < 5  # type: ignore[operator]


def test_hand_value_to_dict() -> None:
    d = evaluate("Kh Kd Ks 4c 4d 2s 7h").to_dict()
    assert d == {
        "category": "Full House",
        "description": "Full House, Kings full of Fours",
        "best": ["Ks", "Kh", "Kd", "4d", "4c"],
        "strength": T.FULL_HOUSE << 12 | d["strength"] & 0xFFF,
    }
    assert isinstance(d["strength"], int)


def test_hand_value_is_frozen() -> None:
    value = evaluate("As Ks Qs Js Ts")
    with pytest.raises(AttributeError):
        value.strength = 0  # type: ignore[misc]
    assert isinstance(value, HandValue)


@pytest.mark.parametrize(
    ("cards", "error", "fragment"),
    [
        ("As Ks Qs Js", CardError, "needs 5, 6 or 7 cards, got 4"),
        ("As Ks Qs Js Ts 9s 8s 7s", CardError, "needs 5, 6 or 7 cards, got 8"),
        ("", CardError, "got 0"),
        ("As Ks Qs Js As", DuplicateCardError, "duplicate card 'As': cards 1 and 5 are the same"),
        ("As Ks Qs Js Xs", CardError, "invalid card 'Xs' at character 13"),
    ],
)
def test_evaluate_errors(cards: str, error: type[Exception], fragment: str) -> None:
    with pytest.raises(error) as info:
        evaluate(cards)
    assert fragment in str(info.value)
    assert isinstance(info.value, ValueError)
    assert isinstance(info.value, pokerlab.PokerlabError)


def test_evaluate_duplicate_codes() -> None:
    with pytest.raises(DuplicateCardError, match="cards 1 and 5 "):
        evaluate([51, 47, 43, 39, 51])


@needs_jit
@pytest.mark.parametrize("deal", ["random", "ranks"])
@pytest.mark.parametrize("k", range(8))
def test_subset_walk_counts_every_subset_size(tables: T.HighTables, k: int, deal: str) -> None:
    """The walk for each subset size 0..7 (its outer levels run once, the last cards' loops
    count runs of equal strengths, and a rank's cards once when no flush can come), from a
    fixed part of 7 - k cards, against the plain-Python evaluator on every subset, with the free
    cards in code order and shuffled. ``ranks``: free cards of whole ranks (the groups counted
    at once) and a fixed part in hearts, so some prefixes may make a flush and some may not."""
    import itertools

    rng = np.random.default_rng(70 + k)
    if deal == "random":
        deck = rng.permutation(52)
        fixed = [int(c) for c in deck[: 7 - k]]
        free = np.sort(deck[7 - k : 7 - k + (11 if k < 5 else 10)]).astype(np.uint8)
    else:
        fixed = [int(c) for c in parse_cards("Ah Jh 7h 5h 2h 9h Qh")][: 7 - k]
        whole_ranks = "Kc Kd Kh Ks Tc Td Th Ts 8c 8d 8h 8s 3h 4h 6h"
        free = np.array(sorted(int(c) for c in parse_cards(whole_ranks)), dtype=np.uint8)
    key, mask = K.EMPTY_KEY, np.uint64(0)
    for c in fixed:
        key, mask = key + K.CARD_KEY[c], mask | K.CARD_MASK[c]
    hist = np.zeros(1 << 16, np.int64)
    n = K.strength_histogram(
        key, mask, free, k, K.CARD_KEY, K.CARD_MASK, np.uint64(tables.multiplier),
        tables.displace, tables.values, hist,
    )  # fmt: skip
    expected = np.zeros(1 << 16, np.int64)
    for sub in itertools.combinations(free.tolist(), k):
        expected[_strength_python(fixed + list(sub))] += 1
    assert n == math.comb(len(free), k)
    assert np.array_equal(hist, expected)
    # counted a run of equal strengths at a time: the same counts in any card order
    shuffled = np.zeros(1 << 16, np.int64)
    K.strength_histogram(
        key, mask, rng.permutation(free), k, K.CARD_KEY, K.CARD_MASK,
        np.uint64(tables.multiplier), tables.displace, tables.values, shuffled,
    )  # fmt: skip
    assert np.array_equal(shuffled, expected)


# --- evaluate_batch -----------------------------------------------------------------------------


@pytest.mark.parametrize("k", [5, 6, 7])
@pytest.mark.parametrize("dtype", [np.uint8, np.int64, np.int32, np.int16, np.uint16])
def test_evaluate_batch_shapes_and_dtypes(k: int, dtype: type[np.integer[Any]]) -> None:
    hands = R.random_hands(2_000, k, seed=100 + k)
    expected = R.best_code_rows(hands)
    got = evaluate_batch(hands.astype(dtype))
    assert got.dtype == np.uint16 and got.shape == (2_000,)
    R.assert_same_order(expected, got)
    for row, strength in zip(hands[:50].tolist(), got[:50].tolist(), strict=True):
        assert evaluate(row).strength == strength


def test_evaluate_batch_layouts_agree() -> None:
    hands = R.random_hands(3_000, 7, seed=9)
    expected = evaluate_batch(hands)  # C-contiguous uint8 (n, 7): the fast path
    assert np.array_equal(evaluate_batch(np.asfortranarray(hands)), expected)
    assert np.array_equal(evaluate_batch(hands[:, ::-1]), expected)
    assert np.array_equal(evaluate_batch(hands[::2]), expected[::2])
    assert np.array_equal(evaluate_batch(hands.tolist()), expected)
    before = hands.copy()
    evaluate_batch(hands[:, :5])
    assert np.array_equal(hands, before)


@pytest.mark.parametrize("k", [5, 6, 7])
def test_evaluate_batch_empty(k: int) -> None:
    out = evaluate_batch(np.empty((0, k), dtype=np.uint8))
    assert out.shape == (0,) and out.dtype == np.uint16


@pytest.mark.parametrize(
    ("codes", "fragment"),
    [
        (np.zeros((3, 4), np.uint8), "shape (n, 5..7), got (3, 4)"),
        (np.zeros((3, 8), np.uint8), "shape (n, 5..7), got (3, 8)"),
        (np.arange(7, dtype=np.uint8), "shape (n, 5..7), got (7,)"),
        (np.zeros((1, 2, 7), np.uint8), "got (1, 2, 7)"),
        (np.arange(5, dtype=np.float64)[None, :], "integer card codes, got dtype float64"),
        (np.ones((1, 5), dtype=bool), "integer card codes, got dtype bool"),
    ],
)
def test_evaluate_batch_rejects_bad_arrays(codes: NDArray[Any], fragment: str) -> None:
    with pytest.raises(CardError) as info:
        evaluate_batch(codes)
    assert fragment in str(info.value)


@pytest.mark.parametrize(
    ("bad_row", "dtype"),
    [
        ([0, 1, 2, 3, 52], np.int64),
        ([0, 1, 2, 3, -1], np.int64),
        ([0, 1, 2, 3, -1], np.int8),
        ([0, 1, 2, 3, 255], np.uint8),
        ([0, 1, 2, 3, 2**40], np.int64),
        ([0, 1, 2, 3, 2], np.int32),
        ([51, 51, 2, 3, 4], np.uint8),
    ],
)
def test_evaluate_batch_names_the_bad_row(bad_row: list[int], dtype: type[Any]) -> None:
    codes = np.array([[0, 1, 2, 3, 4]] * 3 + [bad_row] + [[5, 6, 7, 8, 9]], dtype=dtype)
    with pytest.raises(CardError) as info:
        evaluate_batch(codes)
    message = str(info.value)
    assert "row 3 " in message
    assert str(np.array(bad_row, dtype=dtype).tolist()) in message


@pytest.mark.parametrize(
    ("bad_row", "dtype"),
    [
        ([0, 1, 2, 3, 4, 5, 52], np.int64),
        ([-1, 1, 2, 3, 4, 5, 6], np.int64),
        ([0, 1, 2, 3, 4, 5, 2**40], np.int64),
        ([0, 1, 2, 3, 4, 5, 255], np.uint8),
        ([0, 1, 2, 3, 4, 5, 0], np.uint8),
        ([9, 9, 9, 9, 9, 9, 9], np.int16),
    ],
)
def test_evaluate_batch_checks_seven_card_rows_in_the_kernel(
    bad_row: list[int], dtype: type[Any]
) -> None:
    # 7-column arrays go to the kernel as they are (no copy), which validates as it evaluates.
    codes = np.array([list(range(7))] * 4 + [bad_row] + [list(range(10, 17))], dtype=dtype)
    with pytest.raises(CardError, match="row 4 is not 7 distinct card codes"):
        evaluate_batch(codes)
    trusted = evaluate_batch(codes, check=False)  # garbage for row 4, but no error or crash
    assert trusted.shape == (6,)
    assert np.array_equal(np.delete(trusted, 4), evaluate_batch(np.delete(codes, 4, axis=0)))


@pytest.mark.parametrize("bad", [52, -1, 2**40, 0])
def test_evaluate_batch_large_wide_codes_take_the_prefetching_loops(bad: int) -> None:
    # int64 codes beyond PREFETCH_FROM_BYTES run in their own loops (each row prefetched
    # ahead): the same strengths as uint8, and a bad row near the end still found
    rows = K.PREFETCH_FROM_BYTES // (7 * 8) + 2 * K.PREFETCH_ROWS
    hands = R.random_hands(rows, 7, seed=77)
    expected = evaluate_batch(hands)
    wide = hands.astype(np.int64)
    assert np.array_equal(evaluate_batch(wide, threads=1), expected)
    assert np.array_equal(evaluate_batch(wide, threads=1, check=False), expected)
    assert np.array_equal(evaluate_batch(wide, threads=2), expected)
    wide[rows - 3, 6] = bad if bad else wide[rows - 3, 5]  # 0: a repeated card
    with pytest.raises(CardError, match=f"row {rows - 3} is not 7 distinct card codes"):
        evaluate_batch(wide, threads=1)


@pytest.mark.parametrize("n", range(1, 10))
def test_evaluate_batch_rows_four_at_a_time_and_the_rest(n: int) -> None:
    """The kernel takes rows four at a time, then one by one: every row's strength and a bad
    row found wherever it falls."""
    hands = R.random_hands(12, 7, seed=90 + n)
    expected = evaluate_batch(hands)[:n]  # rows 0..n-1 inside a batch of 12 (four a step)
    assert np.array_equal(evaluate_batch(hands[:n].copy()), expected)
    for bad in range(n):
        codes = hands[:n].copy()
        codes[bad, 6] = codes[bad, 0]
        with pytest.raises(CardError, match=f"row {bad} is not 7 distinct card codes"):
            evaluate_batch(codes)
        trusted = evaluate_batch(codes, check=False)
        assert np.array_equal(np.delete(trusted, bad), np.delete(expected, bad))


@pytest.mark.parametrize("k", [5, 6, 7])
def test_evaluate_batch_unchecked_equals_checked_on_valid_rows(k: int) -> None:
    hands = R.random_hands(5_000, k, seed=40 + k)
    assert np.array_equal(evaluate_batch(hands, check=False), evaluate_batch(hands))


@needs_jit
@pytest.mark.parametrize("k", [5, 7])
def test_evaluate_batch_int64_equals_uint8_and_reference(five_card: dict[str, Any], k: int) -> None:
    """Large batches run in chunks of K.ROW_CHUNK rows (a short last one) on several threads:
    the same answers for int64 and uint8 codes and the brute force, on one thread and two."""
    n = 2 * K.ROW_CHUNK + 7
    hands = R.random_hands(n, k, seed=900 + k)
    expected = ref_to_strength(five_card, R.best_code_rows(hands))
    for threads in (1, 2):
        assert np.array_equal(evaluate_batch(hands, threads=threads), expected)
        wide = evaluate_batch(hands.astype(np.int64), threads=threads)
        assert np.array_equal(wide, expected)
        assert np.array_equal(evaluate_batch(hands.tolist(), threads=threads), expected)


@pytest.mark.parametrize("dtype", [np.uint8, np.int64])
@pytest.mark.parametrize("threads", [1, 2])
def test_evaluate_batch_finds_a_bad_row_in_a_large_batch(dtype: type[Any], threads: int) -> None:
    n = 2 * K.ROW_CHUNK + 5
    codes = R.random_hands(n, 7, seed=31).astype(dtype)
    bad = K.ROW_CHUNK + 3
    card = int(codes[bad, 6])
    codes[bad, 6] = codes[bad, 0]
    with pytest.raises(CardError, match=f"row {bad} is not 7 distinct card codes"):
        evaluate_batch(codes, threads=threads)
    if dtype == np.int64:
        codes[bad, 6] = 256 + card  # its low 8 bits name the card that was there
        with pytest.raises(CardError, match=f"row {bad} is not 7 distinct card codes"):
            evaluate_batch(codes, threads=threads)


@pytest.mark.parametrize("threads", [0, -1, 1.5, "2", True])
def test_evaluate_batch_rejects_bad_threads(threads: Any) -> None:
    with pytest.raises(ValueError, match="threads must be") as info:
        evaluate_batch(np.array([[0, 1, 2, 3, 4]]), threads=threads)
    assert getattr(info.value, "field", None) == "threads"
    assert "\n" not in str(info.value)


# --- the tables ---------------------------------------------------------------------------------


def test_shipped_tables_equal_the_generator(tables: T.HighTables) -> None:
    built = T.build_high_tables()
    assert built.multiplier == tables.multiplier
    assert built.multiplier & 1 and 0 < built.multiplier < 1 << 64
    for name in ("displace", "values"):
        a, b = getattr(built, name), getattr(tables, name)
        assert a.dtype == b.dtype and a.shape == b.shape
        assert np.array_equal(a, b), name
    assert tables.values.shape == (T.FLUSH_OFFSET + (1 << T.N_RANKS),)
    assert tables.displace.shape == (1 << T.BUCKET_BITS,)


def test_tables_are_small(tables: T.HighTables) -> None:
    assert tables.nbytes < 5_000_000
    assert tables.nbytes == tables.displace.nbytes + tables.values.nbytes


def test_rank_multisets_count() -> None:
    # multisets of 5..7 ranks with at most 4 of a rank: 6,175 + 18,395 + 49,205
    assert len(T.rank_multisets()) == 6_175 + 18_395 + 49_205


@needs_jit
@pytest.mark.slow
def test_python_scalar_path_equals_kernel_on_all_five_card_hands(
    five_card: dict[str, Any],
) -> None:
    """_strength_python (what `evaluate` and `pokerlab eval` use) on all 2,598,960 hands
    (~12 s)."""
    hands, strength = five_card["hands"], five_card["strength"]
    got = np.fromiter((_strength_python(row) for row in hands.tolist()), np.int64, len(hands))
    assert np.array_equal(got, strength)


@pytest.mark.parametrize("k", [6, 7])
def test_python_scalar_path_equals_kernel_on_random_hands(k: int) -> None:
    hands = R.random_hands(40_000, k, seed=300 + k)
    got = [_strength_python(row) for row in hands.tolist()]
    assert got == evaluate_batch(hands).tolist()
