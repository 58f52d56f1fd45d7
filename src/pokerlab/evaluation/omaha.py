"""Omaha evaluation: exactly two hole cards and exactly three board cards, for high and for the
8-or-better low (the two halves may use different hole cards), with 4, 5 or 6 hole cards.

>>> evaluate_omaha("As Ah Ks Kh", "Ad 7c 2c 9c 3s").description
'Three of a Kind, Aces'
>>> evaluate_omaha("As Ah Kd Qc", "Ks Qs Js Ts 2d").description  # one spade: no royal flush
'Straight, Ace high'
>>> evaluate_omaha("As 2s Kh Qh", "Jh Th 4h 5c 6d").description
'Flush, King high'
>>> evaluate_omaha_low("As 2s Kh Qh", "3d 4c 8h Kd Kc").description
'8-4-3-2-A'
>>> evaluate_omaha_low("As Kh Qh Jh", "2d 3c 4h Kd Kc") is None  # only one low hole card
True

Strengths are on the scales of the high evaluator (:mod:`pokerlab.evaluation.high`) and of the
A-5 low (:mod:`pokerlab.evaluation.low`). The batch functions run the numba kernels of
``_game_kernels`` (the high one reads one "pair + board" table per hole pair instead of
evaluating the 60 two-plus-three combinations).
"""

from __future__ import annotations

import itertools

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import Card, CardsLike, ensure_distinct, format_cards, parse_cards
from pokerlab.errors import CardError, blame
from pokerlab.evaluation import _game_tables as G
from pokerlab.evaluation.batch import CardRows, card_array, ensure_card_rows
from pokerlab.evaluation.high import HandValue, _strength_python, evaluate
from pokerlab.evaluation.low import EIGHT_MIN, LowValue, low_value

__all__ = ["evaluate_omaha", "evaluate_omaha_low", "omaha_batch", "omaha_low_batch"]

HOLE_SIZES = (4, 5, 6)


def _parse(hole: CardsLike, board: CardsLike) -> tuple[list[Card], list[Card]]:
    with blame("hole"):
        h = parse_cards(hole)
    with blame("board"):
        b = parse_cards(board)
    if len(h) not in HOLE_SIZES:
        raise CardError(
            f"an Omaha hand has 4, 5 or 6 hole cards, got {len(h)}: '{format_cards(h)}'",
            field="hole",
        )
    if not 3 <= len(b) <= 5:
        raise CardError(
            f"an Omaha board has 3, 4 or 5 cards, got {len(b)}: '{format_cards(b)}'", field="board"
        )
    ensure_distinct({"the hand": h, "the board": b}, {"the hand": "hole", "the board": "board"})
    return h, b


def _fives(h: list[Card], b: list[Card]) -> list[tuple[Card, ...]]:
    return [p + t for p in itertools.combinations(h, 2) for t in itertools.combinations(b, 3)]


def evaluate_omaha(hole: CardsLike, board: CardsLike) -> HandValue:
    """Best Omaha high hand of 4..6 hole cards and a 3..5 card board."""
    h, b = _parse(hole, board)
    best = max(_fives(h, b), key=lambda five: _strength_python([int(c) for c in five]))
    return evaluate(list(best))


def evaluate_omaha_low(hole: CardsLike, board: CardsLike) -> LowValue | None:
    """Best Omaha 8-or-better low, or ``None`` when no low qualifies."""
    h, b = _parse(hole, board)
    best = max(low_value(five) for five in _fives(h, b))
    return best if best.strength > EIGHT_MIN else None


def _arrays(
    hole: CardRows, board: CardRows, what: str
) -> tuple[NDArray[np.uint8], NDArray[np.uint8]]:
    h = card_array(hole, what, HOLE_SIZES, "the hole cards", "hole")
    b = card_array(board, what, (5,), "the boards", "board")
    if b.shape[0] != h.shape[0]:
        raise CardError(
            f"{what}: {h.shape[0]} hole-card rows but {b.shape[0]} boards", field="board"
        )
    ensure_card_rows(what, h, b)
    return np.ascontiguousarray(h, dtype=np.uint8), np.ascontiguousarray(b, dtype=np.uint8)


def omaha_batch(hole: CardRows, board: CardRows) -> NDArray[np.uint16]:
    """Omaha high strengths of many hands: ``hole`` (n, 4..6) and ``board`` (n, 5) card codes.

    >>> hole, board = [51, 50, 47, 46], [49, 21, 3, 31, 7]  # AsAhKsKh on Ad7d2s9s3s
    >>> omaha_batch(np.array([hole]), np.array([board])).tolist()
    [21629]
    >>> evaluate_omaha(hole, board).description
    'Flush, Ace high'
    """
    from pokerlab.evaluation import _game_kernels as K
    from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK
    from pokerlab.evaluation._tables import load_high_tables

    h, b = _arrays(hole, board, "omaha_batch")
    out = np.empty(h.shape[0], dtype=np.uint16)
    t = load_high_tables()
    K.omaha_high_rows(
        h, h.shape[1], b, CARD_KEY, CARD_MASK, np.uint64(t.multiplier), t.displace,
        G.load_game_values(), out,
    )  # fmt: skip
    return out


def omaha_low_batch(hole: CardRows, board: CardRows) -> NDArray[np.uint16]:
    """Omaha 8-or-better low strengths of many hands (0 where no low qualifies)."""
    from pokerlab.evaluation import _game_kernels as K

    h, b = _arrays(hole, board, "omaha_low_batch")
    out = np.empty(h.shape[0], dtype=np.uint16)
    K.omaha_eight_rows(h, h.shape[1], b, G.load_game_values(), out)
    return out
