"""Short-deck (6+) hold'em high hands: 5 to 7 cards from the 36-card deck of sixes to aces.

Rules (``docs/definitions.md``, as Triton, PokerStars and GGPoker deal it): the deck has no
deuces, treys, fours or fives; a **flush beats a full house** and **three of a kind beats a
straight**; the ace plays low in ``A-6-7-8-9``, the lowest straight (and straight flush). The
order, weakest first: high card, pair, two pair, straight, three of a kind, full house, flush,
four of a kind, straight flush. The short deck's other rule, still dealt in places and
pokerkit's, puts a **straight over three of a kind** (:data:`STRAIGHT_BEATS_TRIPS_ORDER`); every
function here takes ``straight_beats_trips=True`` for it, and the game ``shortdeck-straights``
(``HighEval.SHORT_DECK_STRAIGHTS``) is dealt by it.

Strength scale
--------------
``level << 12 | index``: ``level`` is the category's place in that order (0..8, see
:data:`SHORT_DECK_ORDER`, or :data:`STRAIGHT_BEATS_TRIPS_ORDER`) and ``index`` the class's index
inside its category on the high evaluator's scale (:mod:`pokerlab.evaluation._tables`), so larger is
better and equal ties. ``A-6-7-8-9`` takes the index of a nine-high straight (``5-6-7-8-9`` cannot
be dealt here). :func:`short_deck_values` is a table laid out as the high evaluator's ``values``
(same perfect hash, same flush entries), so every high kernel returns short-deck strengths when
handed it: best five of seven needs its own table, not a remap of high strengths, because a straight
made with the low ace, or trips beside a straight, change which five cards play.

>>> v = evaluate_short_deck("Ah 6c 7d 8s 9h Kc Kd")
>>> v.category.label, v.description
('Straight', 'Straight, Nine high')
>>> evaluate_short_deck("6h 6c 6d 8s 9h") > evaluate_short_deck("6h 7c 8d 9s Th")
True
>>> evaluate_short_deck("Ah Kh Qh 9h 6h") > evaluate_short_deck("Ks Kh Kd 6s 6c")
True
>>> evaluate_short_deck("6h 6c 6d 8s 9h", straight_beats_trips=True) > evaluate_short_deck(
...     "6h 7c 8d 9s Th", straight_beats_trips=True)
False
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS, CardsLike, format_cards
from pokerlab.errors import CardError, flag_argument
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation.batch import CardRows, card_array
from pokerlab.evaluation.codes import SHORT_DECK_RULES, HighEval
from pokerlab.evaluation.high import HandCategory, HandValue, batch_strengths, evaluate_in

__all__ = [
    "LOWEST_RANK",
    "SHORT_DECK_ORDER",
    "STRAIGHT_BEATS_TRIPS_ORDER",
    "category_order",
    "evaluate_short_deck",
    "short_deck_batch",
    "short_deck_category",
    "short_deck_values",
    "short_straight_top",
]

LOWEST_RANK = RANKS.index("6")
"""The lowest rank in the short deck (rank index 4, the six): card codes below ``4 * 4`` are
not in it."""

SHORT_DECK_ORDER: tuple[HandCategory, ...] = (
    HandCategory.HIGH_CARD,
    HandCategory.PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.STRAIGHT,
    HandCategory.THREE_OF_A_KIND,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.STRAIGHT_FLUSH,
)
"""The categories weakest first: a strength's ``>> 12`` indexes it."""

STRAIGHT_BEATS_TRIPS_ORDER: tuple[HandCategory, ...] = (
    HandCategory.HIGH_CARD,
    HandCategory.PAIR,
    HandCategory.TWO_PAIR,
    HandCategory.THREE_OF_A_KIND,
    HandCategory.STRAIGHT,
    HandCategory.FULL_HOUSE,
    HandCategory.FLUSH,
    HandCategory.FOUR_OF_A_KIND,
    HandCategory.STRAIGHT_FLUSH,
)
"""The other rule's categories weakest first: a straight over three of a kind (a flush still
over a full house)."""


def category_order(high: HighEval) -> tuple[HandCategory, ...]:
    """The categories weakest first on the strength scale of the evaluator ``high``: the short
    deck's two orders, else the full deck's (a strength's ``>> 12`` is the category itself).

    >>> category_order(HighEval.SHORT_DECK)[3].label, category_order(HighEval.BEST5)[3].label
    ('Straight', 'Three of a Kind')
    """
    if high in SHORT_DECK_RULES:
        return _order(SHORT_DECK_RULES[high])
    return tuple(HandCategory)


def _order(straight_beats_trips: bool) -> tuple[HandCategory, ...]:
    return STRAIGHT_BEATS_TRIPS_ORDER if straight_beats_trips else SHORT_DECK_ORDER


_LOW_STRAIGHT = 1 << 12 | 0b11110000  # A-6-7-8-9 as a rank set
_NINE = RANKS.index("9")


def short_straight_top(rank_set: int) -> int:
    """Top rank of the best short-deck straight in a rank set (``A-6-7-8-9`` counts as nine
    high), or -1."""
    top = T.straight_top(rank_set)
    if top >= _NINE + 1:  # ten high or better: as in the full deck
        return top
    return _NINE if rank_set & _LOW_STRAIGHT == _LOW_STRAIGHT else -1


def _strength(order: tuple[HandCategory, ...], category: int, cls: tuple[int, ...]) -> int:
    level = order.index(HandCategory(category))
    return level << T.CATEGORY_SHIFT | T.class_orders()[category][cls]


def _rank_counts_strength(counts: tuple[int, ...], order: tuple[HandCategory, ...]) -> int:
    """Best non-flush short-deck strength of 5..7 cards given as 13 rank counts, ranked by
    ``order`` (of the two, only where trips and a straight stand)."""
    present = [r for r in range(T.N_RANKS - 1, -1, -1) if counts[r]]
    quads = [r for r in present if counts[r] >= 4]
    trips = [r for r in present if counts[r] == 3]
    pairs = [r for r in present if counts[r] == 2]
    if quads:
        return _strength(order, T.QUADS, (quads[0], next(r for r in present if r != quads[0])))
    if trips and (len(trips) > 1 or pairs):
        return _strength(order, T.FULL_HOUSE, (trips[0], max(trips[1:] + pairs)))
    top = short_straight_top(sum(1 << r for r in present))
    made = []
    if trips:
        made.append((T.TRIPS, (trips[0], *[r for r in present if r != trips[0]][:2])))
    if top >= 0:
        made.append((T.STRAIGHT, (top,)))
    if made:  # three of a kind and a straight: the higher in this order plays
        return max(_strength(order, category, cls) for category, cls in made)
    if len(pairs) >= 2:
        hi, lo = pairs[:2]
        kicker = next(r for r in present if r not in (hi, lo))
        return _strength(order, T.TWO_PAIR, (hi, lo, kicker))
    if pairs:
        return _strength(order, T.PAIR, (pairs[0], *[r for r in present if r != pairs[0]][:3]))
    return _strength(order, T.HIGH_CARD, tuple(present[:5]))


def _flush_strength(rank_set: int, order: tuple[HandCategory, ...]) -> int:
    """Best short-deck flush or straight flush of 5+ suited cards' rank set. (Seven cards with
    a flush never hold a full house or four of a kind, so a flush entry needs no other rank.)"""
    top = short_straight_top(rank_set)
    if top >= 0:
        return _strength(order, T.STRAIGHT_FLUSH, (top,))
    ranks = [r for r in range(T.N_RANKS - 1, -1, -1) if rank_set >> r & 1]
    return _strength(order, T.FLUSH, tuple(ranks[:5]))


@cache
def short_deck_values(straight_beats_trips: bool = False) -> NDArray[np.uint16]:
    """The high evaluator's ``values`` table with short-deck strengths in it, for every hand of
    5..7 cards of the short deck (entries of hands with a card below the six are 0), by the
    trips-over-straight rule or, with ``straight_beats_trips``, the other."""
    order = _order(straight_beats_trips)
    tables = T.load_high_tables()
    short = [c for c in T.rank_multisets() if not any(c[:LOWEST_RANK])]
    keys = np.array([T.counts_key(c) for c in short], dtype=np.uint64)
    buckets, slots = T._hash_parts(keys, tables.multiplier)
    values = np.zeros_like(tables.values)
    values[slots ^ tables.displace[buckets].astype(np.int64)] = [
        _rank_counts_strength(c, order) for c in short
    ]
    low_ranks = (1 << LOWEST_RANK) - 1
    for rank_set in range(1 << T.N_RANKS):
        if rank_set.bit_count() >= 5 and not rank_set & low_ranks:
            values[T.FLUSH_OFFSET + rank_set] = _flush_strength(rank_set, order)
    # left writeable as the high table is: numba types a read-only array apart, and every
    # kernel handed this table would be compiled a second time
    return values


def short_deck_category(strength: int, straight_beats_trips: bool = False) -> HandCategory:
    """The category of a short-deck strength (of the rule it was evaluated by)."""
    return _order(straight_beats_trips)[int(strength) >> T.CATEGORY_SHIFT]


def _check_short_deck(codes: list[int], what: str) -> None:
    low = [c for c in codes if c >> 2 < LOWEST_RANK]
    if low:
        raise CardError(
            f"{what}: the short deck has no card below the six, got "
            f"'{format_cards(sorted(low, reverse=True), ' ')}'"
        )


def evaluate_short_deck(cards: CardsLike, *, straight_beats_trips: bool = False) -> HandValue:
    """Evaluate 5, 6 or 7 distinct short-deck cards (sixes to aces) as a short-deck high hand
    (``straight_beats_trips``: by the other rule). The value's ``strength`` is on this module's
    scale, comparable only with other short-deck strengths of the same rule."""
    rule = flag_argument(straight_beats_trips, "straight_beats_trips")
    return evaluate_in(
        cards,
        "a short-deck hand",
        short_deck_values(rule),
        lambda strength: short_deck_category(strength, rule),
        lambda codes: _check_short_deck(codes, "the hand"),
    )


def short_deck_batch(
    codes: CardRows,
    *,
    check: bool = True,
    threads: int | None = None,
    straight_beats_trips: bool = False,
) -> NDArray[np.uint16]:
    """Short-deck strengths of many hands: ``codes`` has shape ``(n, k)``, ``k`` in 5..7,
    distinct card codes 16..51 (sixes to aces) per row; ``check`` and ``threads`` as in
    :func:`~pokerlab.evaluation.high.evaluate_batch` (with ``check=False`` a card below the
    six gets a meaningless strength); ``straight_beats_trips``: by the other rule.

    >>> from pokerlab.cards import parse_cards
    >>> rows = np.array([parse_cards("Ah 6c 7d 8s 9h"), parse_cards("6h 6c 6d 8s 9h")])
    >>> [short_deck_category(s).label for s in short_deck_batch(rows)]
    ['Straight', 'Three of a Kind']
    """
    rule = flag_argument(straight_beats_trips, "straight_beats_trips")
    if flag_argument(check, "check"):
        arr = card_array(codes, "short_deck_batch", (5, 6, 7))
        if arr.size and arr.min() < 4 * LOWEST_RANK:  # one pass; the rare failure looks closer
            low = (arr >= 0) & (arr < 4 * LOWEST_RANK)
        else:
            low = np.zeros((1, 1), dtype=bool)
        if low.any():
            row = int(np.flatnonzero(low.any(axis=1))[0])
            _check_short_deck(
                [int(c) for c in arr[row] if 0 <= c < 52], f"short_deck_batch: row {row}"
            )
    values = short_deck_values(rule)
    return batch_strengths(codes, values, "short_deck_batch", (5, 6, 7), check, threads)
