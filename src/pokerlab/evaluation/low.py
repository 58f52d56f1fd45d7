"""A-5 low (razz) and 8-or-better low of 5, 6 or 7 cards.

Rules (``shared/definitions.md``): aces are low, straights and flushes do not count, pairs are
bad; the best low is ``5-4-3-2-A``. 8-or-better: a low qualifies only with five distinct ranks,
all 8 or lower. A low *strength* runs ``1..6175`` (one value per class of hands that tie,
larger is better, ``5-4-3-2-A`` = 6,175); qualifying 8-or-better lows are the 56 strengths
above :data:`EIGHT_MIN`.

>>> v = evaluate_a5("Kd 7c 5h 4s 3c 2d Ah")
>>> v.description, v.strength
('5-4-3-2-A', 6175)
>>> evaluate_a5("As Ad 2c 2h 3s").description
'two pair: 2-2-A-A-3'
>>> evaluate_eight("9c 9d Tc Js Kh") is None
True
>>> evaluate_eight("8c 7d 6c 4s 2h Kd Kc").description
'8-7-6-4-2'
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import Card, CardsLike, format_cards, parse_cards
from pokerlab.errors import CardError
from pokerlab.evaluation import _game_tables as G
from pokerlab.evaluation.batch import CardRows, card_array, ensure_card_rows
from pokerlab.evaluation.ordering import StrengthOrdered

__all__ = [
    "A5_CLASSES",
    "EIGHT_MIN",
    "LowValue",
    "a5_batch",
    "eight_batch",
    "evaluate_a5",
    "evaluate_eight",
]

A5_CLASSES = G.A5_CLASSES
EIGHT_MIN = G.EIGHT_MIN
_LOW_NAMES = "A23456789TJQK"
_SHAPES = ("", "pair", "two pair", "three of a kind", "full house", "four of a kind")


@dataclass(frozen=True, eq=False)
class LowValue(StrengthOrdered):
    """A low hand's value; compares by ``strength`` (larger is the better low).

    ``description``: the five ranks high to low (``'7-5-4-3-A'``), prefixed by the shape for
    paired hands (``'two pair: 2-2-A-A-3'``: the groups first); ``best``: the five cards.
    """

    strength: int
    description: str
    best: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "description": self.description,
            "best": [str(c) for c in self.best],
            "strength": self.strength,
        }


def _five_strength(five: tuple[Card, ...]) -> int:
    return G.a5_classes()[tuple(sorted(G.low_rank(c.rank) for c in five))]


def low_value(five: tuple[Card, ...]) -> LowValue:
    """The :class:`LowValue` of exactly five cards."""
    strength = _five_strength(five)
    key = G._badness(tuple(G.low_rank(c.rank) for c in five))
    counts = {r: sum(1 for c in five if G.low_rank(c.rank) == r) for r in key[1:]}
    ranks = [r for r in key[1:] for _ in range(counts[r])]
    ordered = tuple(
        sorted(five, key=lambda c: (ranks.index(G.low_rank(c.rank)), c.suit), reverse=False)
    )
    text = "-".join(_LOW_NAMES[r] for r in ranks)
    shape = _SHAPES[key[0]]
    return LowValue(strength, f"{shape}: {text}" if shape else text, ordered)


def _cards(cards: CardsLike, what: str) -> list[Card]:
    hand = parse_cards(cards)
    if not 5 <= len(hand) <= 7:
        raise CardError(
            f"{what} needs 5, 6 or 7 cards, got {len(hand)}: '{format_cards(hand, ' ')}'"
        )
    return hand


def evaluate_a5(cards: CardsLike) -> LowValue:
    """Best A-5 low of 5, 6 or 7 distinct cards (every hand has one)."""
    hand = _cards(cards, "an A-5 low")
    best = max(itertools.combinations(hand, 5), key=_five_strength)
    return low_value(best)


def evaluate_eight(cards: CardsLike) -> LowValue | None:
    """Best 8-or-better low of 5, 6 or 7 distinct cards, or ``None`` if none qualifies."""
    value = evaluate_a5(_cards(cards, "an 8-or-better low"))
    return value if value.strength > EIGHT_MIN else None


def _batch(codes: CardRows, eight: bool, what: str) -> NDArray[np.uint16]:
    from pokerlab.evaluation import _game_kernels as K
    from pokerlab.evaluation._kernels import CARD_KEY
    from pokerlab.evaluation._tables import load_high_tables

    arr = card_array(codes, what, (5, 6, 7))
    ensure_card_rows(what, arr)
    out = np.empty(arr.shape[0], dtype=np.uint16)
    tables = load_high_tables()
    K.low_rows(
        np.ascontiguousarray(arr, dtype=np.uint8), arr.shape[1], eight, CARD_KEY,
        np.uint64(tables.multiplier), tables.displace, G.load_game_values(), out,
    )  # fmt: skip
    return out


def a5_batch(codes: CardRows) -> NDArray[np.uint16]:
    """A-5 low strengths of many hands (shape ``(n, 5..7)``, card codes 0..51), by a numba
    kernel.

    >>> a5_batch(np.array([[48, 0, 4, 8, 13]])).tolist()  # Ac 2c 3c 4c 5d
    [6175]
    """
    return _batch(codes, False, "a5_batch")


def eight_batch(codes: CardRows) -> NDArray[np.uint16]:
    """8-or-better low strengths of many hands (0 where no low qualifies)."""
    return _batch(codes, True, "eight_batch")
