"""Lowball and Omaha evaluators against exhaustive counts, the plain-Python brute force of
``bruteforce.py`` and phevaluator (Omaha high) as an independent oracle."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bruteforce import best_a5, best_eight, best_omaha_eight, best_omaha_high
from pokerlab.errors import CardError
from pokerlab.evaluation.low import (
    A5_CLASSES,
    EIGHT_MIN,
    a5_batch,
    eight_batch,
    evaluate_a5,
    evaluate_eight,
)
from pokerlab.evaluation.omaha import (
    evaluate_omaha,
    evaluate_omaha_low,
    omaha_batch,
    omaha_low_batch,
)


def _deals(rng: np.random.Generator, n: int, k: int) -> np.ndarray:
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def _assert_same_order(ours: list[int], reference: list[object], larger_better: bool) -> None:
    """``ours`` (larger better) ranks the hands exactly as ``reference`` does: equal values
    exactly when the reference ties, and the same order otherwise."""
    mapping: dict[object, int] = {}
    for o, r in zip(ours, reference, strict=True):
        assert mapping.setdefault(r, o) == o, f"{r} has two strengths"
    keys = sorted(mapping, reverse=not larger_better)  # type: ignore[type-var]
    values = [mapping[k] for k in keys]
    assert values == sorted(values) and len(set(values)) == len(values)


@pytest.fixture(scope="module")
def all_fives() -> np.ndarray:
    return np.array(list(itertools.combinations(range(52), 5)), dtype=np.uint8)


def test_a5_has_6175_values_over_all_five_card_hands(all_fives: np.ndarray) -> None:
    values = a5_batch(all_fives)
    assert len(all_fives) == 2_598_960
    assert len(np.unique(values)) == A5_CLASSES == 6175  # shared/reference-values.md
    assert values.min() == 1 and values.max() == 6175


def test_eight_or_better_has_56_qualifying_lows(all_fives: np.ndarray) -> None:
    values = eight_batch(all_fives)
    qualifying = np.unique(values[values > 0])
    assert len(qualifying) == 56  # shared/reference-values.md
    assert (qualifying > EIGHT_MIN).all()
    # each qualifying low is five distinct ranks of A..8: 4**5 suit choices per rank set
    assert int((values > 0).sum()) == 56 * 4**5


@pytest.mark.parametrize("k", [5, 6, 7])
def test_a5_and_eight_match_brute_force(k: int) -> None:
    rng = np.random.default_rng(k)
    hands = _deals(rng, 3000, k)
    ours = a5_batch(hands).tolist()
    reference = [best_a5([int(c) for c in h]) for h in hands]
    _assert_same_order(ours, reference, larger_better=False)
    eights = eight_batch(hands).tolist()
    for h, e, o in zip(hands, eights, ours, strict=True):
        ref = best_eight([int(c) for c in h])
        assert (e > 0) == (ref is not None)
        assert e in (0, o)


def test_low_python_functions_match_the_kernels() -> None:
    rng = np.random.default_rng(7)
    hands = _deals(rng, 300, 7)
    a5 = a5_batch(hands)
    e8 = eight_batch(hands)
    for h, a, e in zip(hands, a5, e8, strict=True):
        cards = [int(c) for c in h]
        assert evaluate_a5(cards).strength == a
        value = evaluate_eight(cards)
        assert (value.strength if value else 0) == e
    assert evaluate_a5("Ah 2h 3h 4h 5h").strength == 6175  # a steel wheel is the nuts
    assert evaluate_a5("Kc Kd Ks Kh Qc").strength == 1  # four kings with a queen: the worst
    assert evaluate_eight("Ac 2c 3c 4c 9d") is None


@pytest.mark.parametrize("n_hole", [4, 5, 6])
def test_omaha_high_and_low_match_brute_force(n_hole: int) -> None:
    rng = np.random.default_rng(100 + n_hole)
    deals = _deals(rng, 1500, n_hole + 5)
    hole, board = deals[:, :n_hole], deals[:, n_hole:]
    high = omaha_batch(hole, board).tolist()
    low = omaha_low_batch(hole, board).tolist()
    ref_high = [best_omaha_high(h.tolist(), b.tolist()) for h, b in zip(hole, board, strict=True)]
    _assert_same_order(high, ref_high, larger_better=True)
    ref_low = [best_omaha_eight(h.tolist(), b.tolist()) for h, b in zip(hole, board, strict=True)]
    assert [v > 0 for v in low] == [r is not None for r in ref_low]
    pairs = [(v, r) for v, r in zip(low, ref_low, strict=True) if r is not None]
    _assert_same_order([v for v, _ in pairs], [r for _, r in pairs], larger_better=False)


def test_omaha_flushes_need_two_suited_hole_cards() -> None:
    """Spots where the best five of all nine cards is not an Omaha hand."""
    assert evaluate_omaha("As Kd Qc Jh", "Ts 9s 8s 7s 6s").description == "Straight, Queen high"
    assert evaluate_omaha("As Ks Qc Jh", "Ts 9s 2s 7d 6d").description == "Flush, Ace high"
    # three aces in the hand, a pair on the board: only two of the aces play
    assert evaluate_omaha("Ah Ad Ac 2h", "Kd Ks 3c 7d 8h").description == "Two Pair, Aces and Kings"
    hole = np.array([[51, 47, 43, 39]], dtype=np.uint8)  # As Ks Qs Js
    board = np.array([[35, 31, 27, 23, 19]], dtype=np.uint8)  # Ts 9s 8s 7s 6s
    assert omaha_batch(hole, board)[0] == evaluate_omaha(hole[0], board[0]).strength
    assert evaluate_omaha(hole[0], board[0]).description == "Straight Flush, Queen high"


def test_omaha_high_matches_phevaluator() -> None:
    phevaluator = pytest.importorskip("phevaluator")
    rng = np.random.default_rng(2024)
    deals = _deals(rng, 20_000, 9)
    hole, board = deals[:, :4], deals[:, 4:]
    ours = omaha_batch(hole, board).tolist()
    ref = [
        phevaluator.evaluate_omaha_cards(*[int(c) for c in b], *[int(c) for c in h])
        for h, b in zip(hole, board, strict=True)
    ]
    # phevaluator's card ids are ours (4 * rank + suit, suits c d h s); it takes the five board
    # cards first; its rank is 1 for the best hand: smaller is better
    _assert_same_order(ours, ref, larger_better=False)


def test_low_and_omaha_inputs_are_checked() -> None:
    with pytest.raises(CardError, match="5, 6 or 7 cards"):
        evaluate_a5("As 2d 3c 4h")
    with pytest.raises(CardError, match="4, 5 or 6 hole cards"):
        evaluate_omaha("As Kd", "2c 3c 4c")
    with pytest.raises(CardError, match="used twice: in the hand and in the board"):
        evaluate_omaha_low("As Kd Qc Jh", "As 3c 4c")
    with pytest.raises(CardError, match="shape"):
        omaha_batch(np.zeros((3, 4), np.uint8), np.zeros((3, 4), np.uint8))
    with pytest.raises(CardError, match="row 0"):
        omaha_batch(np.array([[1, 2, 3, 4]]), np.array([[1, 5, 6, 7, 8]]))
    with pytest.raises(CardError, match="row 1"):
        a5_batch(np.array([[0, 1, 2, 3, 4], [0, 0, 1, 2, 3]]))


def test_shipped_game_tables_equal_their_generator() -> None:
    from pokerlab.evaluation import _game_tables as G

    built = G.build_game_values()
    assert built.shape == (G.GAME_VALUES_LEN,)
    np.testing.assert_array_equal(G.load_game_values(), built)


@pytest.mark.parametrize("size", [4, 5, 6])
def test_the_sorting_networks_sort_every_input(size: int) -> None:
    """Omaha high's unrolled paths sort the hole ranks with fixed networks. A network that sorts
    every 0/1 input sorts every input (the 0-1 principle); every order of distinct values and
    every run of ranks with repeats from 0..3 are checked besides."""
    from pokerlab.evaluation._game_kernels import sort4, sort5, sort6

    network = {4: sort4, 5: sort5, 6: sort6}[size]
    inputs = {tuple(p) for p in itertools.product(range(4), repeat=size)}
    inputs |= set(itertools.permutations(range(size)))
    for values in inputs:
        got = [int(v) for v in network(*(np.uint64(v) for v in values))]
        assert got == sorted(values, reverse=True), values


def test_bad_arrays_and_hands_name_their_argument() -> None:
    """Rows of unequal lengths raised numpy's "inhomogeneous shape" ValueError; the batch
    errors and the Omaha hand errors had no field, and a card both in the hand and on the
    board was a plain CardError."""
    from pokerlab.errors import DuplicateCardError
    from pokerlab.evaluation import evaluate_batch

    with pytest.raises(CardError, match="the rows are not all as long") as caught:
        evaluate_batch([[1, 2, 3, 4, 5], [1, 2, 3, 4]])  # type: ignore[arg-type]
    assert caught.value.field == "codes"
    with pytest.raises(CardError, match="row 1 is not 5 distinct") as caught:
        evaluate_batch(np.array([[1, 2, 3, 4, 5], [1, 2, 3, 4, 60]]))
    assert caught.value.field == "codes"
    with pytest.raises(CardError) as caught:
        omaha_batch(np.zeros((2, 4), dtype=np.uint8), np.zeros((3, 5), dtype=np.uint8))
    assert caught.value.field == "board"
    with pytest.raises(DuplicateCardError) as dup:
        evaluate_omaha("AsKsQsJs", "AsKd2c")
    assert dup.value.field == "board"
    for hole, board, field in (
        ("AsKs", "AdKd2c", "hole"),
        ("AsKsQsJs", "AdKd", "board"),
        ("AsAsQsJs", "AdKd2c", "hole"),
        ("AsKsQsJs", "AdKx2c", "board"),
    ):
        with pytest.raises(CardError) as caught:
            evaluate_omaha_low(hole, board)
        assert caught.value.field == field, (hole, board)
