"""The low and Omaha evaluators against pokerkit (an independent, pure-Python library) on random
hands: every pair of hands must compare the same way in both (pokerkit's hands compare with the
better hand greater, for lows too), and a low must qualify exactly when pokerkit can form one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from pokerlab.cards import format_cards
from pokerlab.evaluation.deuce7 import deuce7_batch
from pokerlab.evaluation.low import a5_batch, eight_batch
from pokerlab.evaluation.omaha import omaha_batch, omaha_low_batch

pk = pytest.importorskip("pokerkit")


def random_rows(n: int, width: int, seed: int) -> NDArray[np.uint8]:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :width].astype(np.uint8)


def pokerkit_hand(kind: Any, hole: NDArray[Any], board: NDArray[Any] | None = None) -> Any:
    """pokerkit's best hand of ``kind``, or None when it cannot form one (no qualifying low)."""
    try:
        return kind.from_game(format_cards(hole), format_cards(board) if board is not None else "")
    except ValueError:
        return None


def assert_same_order(ours: NDArray[Any], theirs: list[Any], pairs: int, seed: int) -> None:
    """Ours (larger is better, 0 = no hand) and pokerkit's (None = no hand) agree on which hand
    exists and on every sampled pair's comparison."""
    assert [s > 0 for s in ours.tolist()] == [h is not None for h in theirs]
    rng = np.random.default_rng(seed)
    with_hand = [i for i, h in enumerate(theirs) if h is not None]
    for _ in range(pairs):
        i, j = rng.choice(with_hand, 2)
        a, b = theirs[i], theirs[j]
        assert (ours[i] > ours[j]) == (a > b) and (ours[i] == ours[j]) == (a == b), (i, j)


CASES: list[tuple[str, Callable[[NDArray[Any]], NDArray[Any]], str, int]] = [
    ("A-5 low (razz), 7 cards", a5_batch, "RegularLowHand", 7),
    ("8-or-better low, 7 cards", eight_batch, "EightOrBetterLowHand", 7),
    ("2-7 low, 5 cards", deuce7_batch, "StandardLowHand", 5),
]


@pytest.mark.parametrize(("name", "ours", "kind", "width"), CASES, ids=[c[0] for c in CASES])
def test_lows_order_like_pokerkit(
    name: str, ours: Callable[[NDArray[Any]], NDArray[Any]], kind: str, width: int
) -> None:
    rows = random_rows(3_000, width, seed=width + len(name))
    strengths = ours(rows)
    theirs = [pokerkit_hand(getattr(pk, kind), r) for r in rows]
    assert_same_order(strengths, theirs, pairs=20_000, seed=1)


@pytest.mark.parametrize("hole_size", [4, 5])
def test_omaha_high_and_low_order_like_pokerkit(hole_size: int) -> None:
    rows = random_rows(1_500, hole_size + 5, seed=10 + hole_size)
    hole, board = rows[:, :hole_size], rows[:, hole_size:]
    high = [pokerkit_hand(pk.OmahaHoldemHand, h, b) for h, b in zip(hole, board, strict=True)]
    assert_same_order(omaha_batch(hole, board), high, pairs=10_000, seed=2)
    low = [
        pokerkit_hand(pk.OmahaEightOrBetterLowHand, h, b) for h, b in zip(hole, board, strict=True)
    ]
    assert any(h is not None for h in low) and any(h is None for h in low)
    assert_same_order(omaha_low_batch(hole, board), low, pairs=10_000, seed=3)
