"""High-hand evaluation of 5, 6 or 7 cards: strength, category, description, best five.

>>> v = evaluate("Kh Kd Ks 4c 4d 2s 7h")
>>> v.category.label, v.description
('Full House', 'Full House, Kings full of Fours')
>>> format_cards(v.best, " ")
'Ks Kh Kd 4d 4c'
>>> evaluate("AsKsQsJsTs").description
'Royal Flush'
>>> evaluate("5d4c3h2sAs").description
'Straight, Five high'

A single hand is evaluated in plain Python over the same tables the numba kernels read (so
``pokerlab eval`` starts without compiling anything); :func:`evaluate_batch` runs the kernel over a
numpy array.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass
from enum import IntEnum
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._threads import resolve_threads
from pokerlab.cards import RANK_NAMES, RANK_PLURALS, Card, CardsLike, format_cards, parse_cards
from pokerlab.errors import CardError, blame, flag_argument
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation.batch import CardRows, card_array, raise_bad_row
from pokerlab.evaluation.ordering import StrengthOrdered

__all__ = ["HandCategory", "HandValue", "category_of", "describe", "evaluate", "evaluate_batch"]

_MASK64 = (1 << 64) - 1


class HandCategory(IntEnum):
    """The nine high-hand categories, weakest first (``strength >> 12``)."""

    HIGH_CARD = T.HIGH_CARD
    PAIR = T.PAIR
    TWO_PAIR = T.TWO_PAIR
    THREE_OF_A_KIND = T.TRIPS
    STRAIGHT = T.STRAIGHT
    FLUSH = T.FLUSH
    FULL_HOUSE = T.FULL_HOUSE
    FOUR_OF_A_KIND = T.QUADS
    STRAIGHT_FLUSH = T.STRAIGHT_FLUSH

    @property
    def label(self) -> str:
        """Human name: ``'Full House'``."""
        return self.name.replace("_", " ").title().replace(" A ", " a ").replace(" Of ", " of ")


def category_of(strength: int) -> HandCategory:
    """The category of a strength value."""
    return HandCategory(int(strength) >> T.CATEGORY_SHIFT)


@dataclass(frozen=True, eq=False)
class HandValue(StrengthOrdered):
    """A high hand's value. Compares by ``strength`` (larger wins; equal strengths tie).

    Fields: ``strength`` (``category << 12 | index``), ``category``, ``description`` and
    ``best``, the five cards that make the hand, most important first.
    """

    strength: int
    category: HandCategory
    description: str
    best: tuple[Card, ...]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form: ``category``, ``description``, ``best`` (card strings), ``strength``."""
        return {
            "category": self.category.label,
            "description": self.description,
            "best": [str(c) for c in self.best],
            "strength": self.strength,
        }


def _strength_python(codes: list[int], values: NDArray[np.uint16] | None = None) -> int:
    """The kernel's lookup written in Python for one hand (no numba start-up cost), in the high
    table or in ``values``, a table laid out as it is (short deck's)."""
    tables = T.load_high_tables()
    values = tables.values if values is None else values
    key = T.EMPTY_KEY
    mask = 0
    for c in codes:
        r, s = c >> 2, c & 3
        key += (1 << (T.RANK_BITS * r)) + (1 << (T.SUIT_SHIFT + T.SUIT_BITS * s))
        mask |= 1 << (16 * s + r)
    flush_bits = key & T.FLUSH_BITS
    if flush_bits:
        suit = (flush_bits.bit_length() - 1 - T.SUIT_SHIFT) // T.SUIT_BITS
        return int(values[T.FLUSH_OFFSET + (mask >> (16 * suit) & 0x1FFF)])
    p = (key & T.RANK_FIELD) * tables.multiplier & _MASK64
    slot = (p >> T.SLOT_SHIFT) & T.SLOT_MASK
    return int(values[slot ^ int(tables.displace[p >> (64 - T.BUCKET_BITS)])])


def _display_order(five: tuple[Card, ...], category: HandCategory) -> tuple[Card, ...]:
    counts = [0] * 13
    for c in five:
        counts[c.rank] += 1
    ordered = sorted(five, key=lambda c: (counts[c.rank], c.rank, c.suit), reverse=True)
    ranks = {c.rank for c in five}
    wheel = ranks in ({12, 0, 1, 2, 3}, {12, 4, 5, 6, 7})  # A-5-4-3-2, short deck's A-6-7-8-9
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH) and wheel:
        ordered = ordered[1:] + ordered[:1]  # the ace plays low
    return tuple(ordered)


def describe(strength: int, best: tuple[Card, ...]) -> str:
    """Human description of a hand from its strength and its best five (in display order)."""
    return _describe_as(category_of(strength), best)


def _describe_as(category: HandCategory, best: tuple[Card, ...]) -> str:
    """Human description of a hand of ``category`` from its best five (in display order)."""
    ranks = [c.rank for c in best]
    label = category.label
    if category == HandCategory.STRAIGHT_FLUSH and ranks[0] == 12:
        return "Royal Flush"
    if category in (HandCategory.HIGH_CARD, HandCategory.FLUSH):
        return f"{label}, {RANK_NAMES[ranks[0]]} high"
    if category in (HandCategory.STRAIGHT, HandCategory.STRAIGHT_FLUSH):
        return f"{label}, {RANK_NAMES[ranks[0]]} high"
    if category == HandCategory.TWO_PAIR:
        return f"{label}, {RANK_PLURALS[ranks[0]]} and {RANK_PLURALS[ranks[2]]}"
    if category == HandCategory.FULL_HOUSE:
        return f"{label}, {RANK_PLURALS[ranks[0]]} full of {RANK_PLURALS[ranks[3]]}"
    return f"{label}, {RANK_PLURALS[ranks[0]]}"


def evaluate(cards: CardsLike) -> HandValue:
    """Evaluate 5, 6 or 7 distinct cards as a high hand (text such as ``"AsKd..."`` or cards)."""
    return evaluate_in(cards, "a high hand", T.load_high_tables().values, category_of)


def evaluate_in(
    cards: CardsLike,
    what: str,
    values: NDArray[np.uint16],
    category: Callable[[int], HandCategory],
    check: Callable[[list[int]], None] | None = None,
) -> HandValue:
    """:func:`evaluate` over ``values`` (a table laid out as the high one) whose strengths
    ``category`` decodes; ``what`` names the hand in errors, ``check`` vets the card codes."""
    hand = parse_cards(cards)
    if not 5 <= len(hand) <= 7:
        raise CardError(
            f"{what} needs 5, 6 or 7 cards, got {len(hand)}: '{format_cards(hand, ' ')}'"
        )
    codes = [int(c) for c in hand]
    if check is not None:
        check(codes)
    strength = _strength_python(codes, values)
    best = next(
        five
        for five in itertools.combinations(hand, 5)
        if _strength_python([int(c) for c in five], values) == strength
    )
    kind = category(strength)
    ordered = _display_order(best, kind)
    return HandValue(strength, kind, _describe_as(kind, ordered), ordered)


def evaluate_batch(
    codes: CardRows, *, check: bool = True, threads: int | None = None
) -> NDArray[np.uint16]:
    """Strengths of many hands at once: ``codes`` has shape ``(n, k)``, ``k`` in 5..7, card codes
    0..51 with no card repeated in a row, any integer dtype (uint8 is fastest; int64 is read
    as it is, without a converted copy, prefetched ahead when large, at about 0.75x the rate;
    an array not in C order is copied to C order first).
    Runs a numba kernel (hundreds of millions of hands per second per core) on ``threads``
    threads (default: every available core; the result is the same for any count). A row that
    breaks the rules raises :class:`CardError`; ``check=False`` skips that check (about
    1.1-1.3x faster) for rows known to be valid: an invalid row then gets a meaningless
    strength (never a read outside the tables).

    >>> evaluate_batch(np.array([[51, 47, 43, 39, 35], [0, 4, 8, 12, 49]])).tolist()
    [32778, 16385]
    """
    values = T.load_high_tables().values
    return batch_strengths(codes, values, "evaluate_batch", (5, 6, 7), check, threads)


def batch_strengths(
    codes: CardRows,
    values: NDArray[np.uint16],
    name: str,
    sizes: tuple[int, ...],
    check: bool = True,
    threads: int | None = None,
) -> NDArray[np.uint16]:
    """Validate ``codes`` (shape ``(n, k)``, ``k`` in ``sizes``, distinct codes 0..51 per row)
    and look every row up in ``values`` (a table laid out as the high table's ``values``: the
    high strengths, or another ranking of the same hand classes such as 2-7 low). ``name``
    names the public function in error messages; ``check=False`` skips the row check;
    ``threads`` as in :func:`evaluate_batch` (batches up to ``ROW_CHUNK`` rows run on one)."""
    from pokerlab.evaluation import _kernels as K
    from pokerlab.evaluation._parallel import numba_threads

    check = flag_argument(check, "check")
    with blame("threads"):
        workers = resolve_threads(threads)
    arr = card_array(codes, name, sizes)
    k = arr.shape[1]
    if k == 7:
        rows = arr  # the kernel reads any integer dtype
    else:
        rows = np.full((arr.shape[0], 7), K.NULL_CARD, dtype=np.uint8)
        rows[:, :k] = np.where((arr >= 0) & (arr <= 51), arr, K.NULL_CARD)
    out = np.empty(arr.shape[0], dtype=np.uint16)
    tables = T.load_high_tables()
    args = (K.CARD_KEY, K.CARD_MASK, np.uint64(tables.multiplier), tables.displace, values, out)
    if workers > 1 and arr.shape[0] > K.ROW_CHUNK:
        with numba_threads(workers):
            valid = K.evaluate_rows_parallel(rows, k, check, *args)
    else:
        valid = K.evaluate_rows(rows, k, check, *args)
    if not valid:
        raise_bad_row(name, arr)
    return out
