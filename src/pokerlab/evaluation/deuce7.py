"""2-7 (deuce-to-seven) lowball evaluation of exactly five cards.

Rules (``shared/definitions.md``): aces are always high, straights and flushes count against
you, pairs are bad; the best hand is ``7-5-4-3-2`` of mixed suits. ``A-5-4-3-2`` is **not** a
straight in 2-7: it is an ace-high no-pair hand, worse than any king-high one (and suited it is
an ace-high flush, not a straight flush).

Strength scale
--------------
Every 5-card hand has a 2-7 *strength* in ``1..7462``: larger is better, equal means a tie (one
value per class of hands that tie; 7,462 classes, like high hands). It is the high evaluator's
order turned upside down, after moving the two "wheel" classes where 2-7 puts them: the wheel
straight becomes the lowest ace-high no-pair class (just above every king-high hand in high
terms, so just below them in 2-7 terms) and the steel wheel becomes the lowest ace-high flush.
So a 2-7 strength is one read of a table indexed like the high evaluator's: :func:`deuce7_values`
is the high ``values`` table with every entry remapped, and the high kernels
(``_kernels.strength``) return 2-7 strengths when handed it.

Buckets
-------
:class:`Deuce7Bucket` groups hands the way lowball players name them, worst first: ``pair or
worse`` (any pair, two pair, trips, straight, flush, full house, quads, straight flush), then the
no-pair hands by their highest card: ``A-low`` (``A-5-4-3-2`` included), ``K-low`` ... ``8-low``,
``7-low`` (the best; it is also "7-low or better").

>>> v = evaluate_deuce7("7c 5d 4h 3s 2c")
>>> v.strength, v.bucket.label, v.description
(7462, '7-low', '7-5-4-3-2')
>>> evaluate_deuce7("As 5d 4h 3s 2c") < evaluate_deuce7("Ks Qd Jh 9s 8c")
True
>>> evaluate_deuce7("6h 5d 4h 3s 2c").description
'Straight, Six high'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from functools import cache
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS, Card, CardsLike, format_cards, parse_cards
from pokerlab.errors import CardError
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation.batch import CardRows
from pokerlab.evaluation.high import HandCategory, batch_strengths, evaluate
from pokerlab.evaluation.ordering import StrengthOrdered

__all__ = [
    "DEUCE7_CLASSES",
    "Deuce7Bucket",
    "Deuce7Value",
    "deuce7_batch",
    "deuce7_bucket_of",
    "deuce7_of_high",
    "deuce7_values",
    "evaluate_deuce7",
]

_WHEEL = (12, 3, 2, 1, 0)  # A-5-4-3-2 as a descending rank tuple


class Deuce7Bucket(IntEnum):
    """2-7 hand buckets, worst first (a larger bucket is a better hand)."""

    PAIR_OR_WORSE = 0
    ACE_LOW = 1
    KING_LOW = 2
    QUEEN_LOW = 3
    JACK_LOW = 4
    TEN_LOW = 5
    NINE_LOW = 6
    EIGHT_LOW = 7
    SEVEN_LOW = 8

    @property
    def label(self) -> str:
        """``'pair or worse'``, ``'A-low'`` ... ``'10-low'`` ... ``'7-low'``."""
        if self is Deuce7Bucket.PAIR_OR_WORSE:
            return "pair or worse"
        top = 12 - (self - 1)  # rank index of the highest card
        return ("10" if top == 8 else RANKS[top]) + "-low"


def _class_list() -> list[tuple[int, int, tuple[int, ...]]]:
    """Every high class as ``(high strength, 2-7 category, rank tuple)`` where the 2-7 category
    and tuple put the wheel among the ace-high no-pair hands and the steel wheel among the
    ace-high flushes (ace high only)."""
    out: list[tuple[int, int, tuple[int, ...]]] = []
    for category, classes in T.class_orders().items():
        for cls, index in classes.items():
            strength = category << T.CATEGORY_SHIFT | index
            if category == T.STRAIGHT and cls == (3,):
                out.append((strength, T.HIGH_CARD, _WHEEL))
            elif category == T.STRAIGHT_FLUSH and cls == (3,):
                out.append((strength, T.FLUSH, _WHEEL))
            else:
                out.append((strength, category, cls))
    return out


@cache
def deuce7_of_high() -> NDArray[np.uint16]:
    """Table: high strength (of five cards) -> 2-7 strength (``1..7462``); 0 where no high
    class has that strength."""
    classes = sorted(_class_list(), key=lambda item: (item[1], item[2]))
    table = np.zeros((T.STRAIGHT_FLUSH << T.CATEGORY_SHIFT) + 16, dtype=np.uint16)
    for position, (strength, _, _) in enumerate(classes):
        table[strength] = len(classes) - position
    return table


DEUCE7_CLASSES = 7462


@cache
def deuce7_bucket_of() -> NDArray[np.uint8]:
    """Table: 2-7 strength (``0..7462``, 0 unused) -> :class:`Deuce7Bucket`."""
    buckets = np.zeros(DEUCE7_CLASSES + 1, dtype=np.uint8)
    to_d7 = deuce7_of_high()
    for strength, category, cls in _class_list():
        if category == T.HIGH_CARD and cls[0] >= 5:  # highest card 7 (rank 5) or better
            buckets[to_d7[strength]] = Deuce7Bucket.SEVEN_LOW - (cls[0] - 5)
    return buckets


@cache
def deuce7_values() -> NDArray[np.uint16]:
    """The high ``values`` table with 2-7 strengths in it: the high kernels' lookup
    (``_kernels.strength(key, mask, multiplier, displace, deuce7_values())``) then returns the
    2-7 strength of five cards. Valid for five cards only."""
    values = T.load_high_tables().values
    return deuce7_of_high()[values]


@dataclass(frozen=True, eq=False)
class Deuce7Value(StrengthOrdered):
    """A 2-7 hand's value; compares by ``strength`` (larger is better, equal ties).

    Fields: ``strength`` (``1..7462``), ``bucket``, ``description`` (``'9-7-5-3-2'`` for a no-pair
    hand, else the high description such as ``'Pair of Kings'``) and ``cards`` (highest first).
    """

    strength: int
    bucket: Deuce7Bucket
    description: str
    cards: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``bucket``, ``description``, ``cards``, ``strength``."""
        return {
            "bucket": self.bucket.label,
            "description": self.description,
            "cards": [str(c) for c in self.cards],
            "strength": self.strength,
        }


def evaluate_deuce7(cards: CardsLike) -> Deuce7Value:
    """Evaluate exactly five distinct cards as a 2-7 lowball hand."""
    hand = parse_cards(cards)
    if len(hand) != 5:
        raise CardError(
            f"a 2-7 hand needs exactly 5 cards, got {len(hand)}: '{format_cards(hand, ' ')}'"
        )
    high = evaluate(hand)
    strength = int(deuce7_of_high()[high.strength])
    bucket = Deuce7Bucket(int(deuce7_bucket_of()[strength]))
    ordered = tuple(sorted(hand, key=lambda c: (c.rank, c.suit), reverse=True))
    no_pair = len({c.rank for c in hand}) == 5
    if high.category == HandCategory.STRAIGHT and ordered[0].rank == 12 and ordered[1].rank == 3:
        description = "-".join(RANKS[c.rank] for c in ordered)  # the wheel: ace-high no pair
    elif high.category == HandCategory.STRAIGHT_FLUSH and ordered[1].rank == 3:
        description = "Flush, Ace high"
    elif high.category == HandCategory.HIGH_CARD and no_pair:
        description = "-".join(RANKS[c.rank] for c in ordered)
    else:
        description = high.description
        ordered = high.best
    return Deuce7Value(strength, bucket, description, ordered)


def deuce7_batch(codes: CardRows) -> NDArray[np.uint16]:
    """2-7 strengths of many 5-card hands: ``codes`` has shape ``(n, 5)``, distinct card codes
    0..51 per row. Runs the high evaluator's numba kernel over :func:`deuce7_values`.

    >>> deuce7_batch(np.array([[20, 13, 8, 4, 0], [48, 12, 8, 4, 1]])).tolist()  # 75432, A5432
    [7462, 6678]
    """
    return batch_strengths(codes, deuce7_values(), "deuce7_batch", (5,))
