"""What :func:`pokerlab.hits` counts: the made-hand categories and the draws, defined once here.

Each category is a row of :data:`MADE` or :data:`DRAWS` with its name (as printed and in JSON)
and a docstring saying exactly what it counts. The kernel (``_hits_kernels``) writes the row's
``code``; nothing else names a category.

Made hands
----------
Every combo falls in exactly one made category, the first of :data:`MADE` its best hand
qualifies for (a hand category of straight or better is its own row; below a straight the hole
cards say which row). In Omaha each pair of hole cards is classified with the board under the
2+3 rule (exactly two hole cards, three board cards) and the combo takes the best (earliest)
category of its pairs.
"Board ranks" are the distinct ranks on the board: the top one, the lowest one, and the ones
between (middle). Straights and better count hands that play the board too (a straight on a
five-card board is a straight for every combo that makes nothing better); below a straight a
category says what the hole cards make, so a board pair or board trips alone leaves a combo in
"ace high" or "no made hand".

Draws
-----
Draws are counted on the flop and the turn only, each independently (a combo may have several;
they do not add up to the range). A straight draw is measured by its *out ranks*: the ranks of
which one more board card gives a straight that uses the hole cards (in hold'em: a higher
straight than the board and that card make alone; in Omaha: two hole cards and three board
cards). Straight draws are counted only for hands without a straight or better, flush draws
only for hands without a flush or better ("better" in the game's order of hands).

Short deck
----------
Short-deck hold'em (the 36-card deck of sixes to aces, ``docs/definitions.md``) takes the same
categories and draws, by its own rules:

* each combo's best hand is its best hand by short-deck ranking (its strength table), so
  **three of a kind beats a straight** and **a flush beats a full house**: a hand that holds a
  set (or trips) and a straight is a set (trips), a flush and a full house cannot both be in two
  hole cards and five board cards. The made categories keep their codes and names, straights
  and better still by their hand category; only the order of the hands they name differs
  (set and trips above straight, flush above full house). A straight beside three of a kind on
  the board plays the board's three of a kind and the combo falls below a pair like any board
  trips. By the other rule (``shortdeck-straights``) a straight beats three of a kind, so the
  same hands are straights, and a set or trips can draw to one;
* straights are the short deck's: A-6-7-8-9 is the lowest (the ace plays low there), A-2-3-4-5
  is none, and out ranks are ranks of the deck (six to ace): hole 8-7 on 6-9-K has the out
  ranks ten and ace (A-6-7-8-9), an open-ended straight draw;
* by the usual rule a set or trips (above a straight there) counts no straight draw; a full
  house (below a flush) could count a flush draw, but none holds one with two hole cards on a
  flop or turn;
* the range's combos, the board and the dead cards are the short deck's: combos that hold a
  card below the six are dropped (``22+`` is ``66+``, ``random`` the 630 combos of the deck
  less the known cards) and a board or dead card below the six is refused, as the equity
  engine does.

Kickers, overcards, flush draws and backdoors are counted as in hold'em.
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.evaluation.codes import HighEval
from pokerlab.evaluation.high import HandCategory
from pokerlab.evaluation.short_deck import category_order

__all__ = ["DRAWS", "MADE", "Category", "made_by_name", "made_places"]


@dataclass(frozen=True)
class Category:
    """One row of the table: ``code`` (what the kernel writes: an index into :data:`MADE`, or a
    bit number in a draw mask for :data:`DRAWS`), ``name``, ``doc`` (what it counts) and
    ``group`` (a made category reported inside a larger one, e.g. the kicker classes of "top
    pair"; else equal to ``name``)."""

    code: int
    name: str
    doc: str
    group: str


def _table(rows: list[tuple[str, str, str]]) -> tuple[Category, ...]:
    return tuple(
        Category(i, name, " ".join(doc.split()), group or name)
        for i, (name, doc, group) in enumerate(rows)
    )


MADE: tuple[Category, ...] = _table(
    [
        ("straight flush", "Five cards in sequence of one suit (royal flush included).", ""),
        ("four of a kind", "Four cards of one rank.", ""),
        (
            "full house",
            "Three cards of one rank and two of another (in short deck below a flush).",
            "",
        ),
        ("flush", "Five cards of one suit (not in sequence).", ""),
        (
            "straight",
            """Five ranks in sequence, A2345 the lowest (not all one suit); in short deck
            A6789 the lowest, and below set and trips there.""",
            "",
        ),
        (
            "set",
            """A pocket pair whose rank is on the board (three of a kind; in short deck above a
            straight).""",
            "",
        ),
        (
            "trips",
            """Three of a kind from one hole card and a pair on the board (in short deck above a
            straight).""",
            "",
        ),
        (
            "two pair",
            "Each of two hole cards of different ranks pairs a board rank.",
            "",
        ),
        ("overpair", "A pocket pair above every board rank.", ""),
        (
            "top pair, top kicker",
            """A hole card pairs the top board rank and the other hole card is the highest rank
            not on the board.""",
            "top pair",
        ),
        (
            "top pair, good kicker",
            """A hole card pairs the top board rank and the other hole card is the second or
            third highest rank not on the board.""",
            "top pair",
        ),
        (
            "top pair, weak kicker",
            """A hole card pairs the top board rank and the other hole card is lower than the
            three highest ranks not on the board.""",
            "top pair",
        ),
        (
            "pocket pair below top pair",
            "A pocket pair below the top board rank and above the lowest one.",
            "",
        ),
        (
            "middle pair",
            "A hole card pairs a board rank below the top one and above the lowest one.",
            "",
        ),
        ("bottom pair", "A hole card pairs the lowest board rank.", ""),
        ("underpair", "A pocket pair below every board rank.", ""),
        (
            "ace high",
            "No pair made with a hole card (nor any category above), and an ace in the hand.",
            "",
        ),
        ("no made hand", "None of the categories above: no pair made with a hole card.", ""),
    ]
)
"""Made-hand categories, best first (in the full deck's order; short deck's moves set and trips
above straight and flush above full house); every combo is in exactly one."""

DRAWS: tuple[Category, ...] = _table(
    [
        (
            "flush draw",
            """One more card of a suit makes a flush with the hole cards: hold'em, four cards of
            the suit among the hole cards (at least one) and the board; Omaha, two or more hole
            cards of the suit and exactly two on the board.""",
            "",
        ),
        (
            "nut flush draw",
            """A flush draw whose hole cards hold the highest card of the suit that is not on
            the board.""",
            "",
        ),
        (
            "open-ended straight draw",
            """A straight draw with two out ranks (in hold'em also more, e.g. a double
            gutshot).""",
            "",
        ),
        ("gutshot", "A straight draw with exactly one out rank.", ""),
        (
            "wrap",
            "Omaha: a straight draw with three or more out ranks (nine or more outs).",
            "",
        ),
        ("combo draw", "A flush draw and a straight draw (gutshot, open-ended or wrap).", ""),
        (
            "backdoor flush draw",
            """Flop only, no flush draw: two more cards of a suit make a flush with the hole
            cards (hold'em: three of the suit among the hole cards, at least one, and the
            board; Omaha: two or more hole cards of the suit and one on the board).""",
            "",
        ),
        (
            "backdoor straight draw",
            """Flop only, no straight draw: some two more ranks on the turn and river make a
            straight with the hole cards (as for out ranks).""",
            "",
        ),
        (
            "overcards",
            """No pair made with a hole card (ace high or no made hand) and two hole cards
            above every board rank (in Omaha: at least two).""",
            "",
        ),
    ]
)
"""Draws, each counted independently (bit ``code`` of the kernel's draw mask)."""


def _codes(table: tuple[Category, ...]) -> dict[str, int]:
    return {c.name: c.code for c in table}


made_by_name = _codes(MADE)
"""Code of each made category by name."""
_draw_by_name = _codes(DRAWS)

# The kernel's constants, derived from the table so the two cannot drift apart.
STRAIGHT_FLUSH = made_by_name["straight flush"]
FLUSH = made_by_name["flush"]
STRAIGHT = made_by_name["straight"]
SET = made_by_name["set"]
TRIPS = made_by_name["trips"]
TWO_PAIR = made_by_name["two pair"]
OVERPAIR = made_by_name["overpair"]
TOP_PAIR_TOP_KICKER = made_by_name["top pair, top kicker"]
TOP_PAIR_GOOD_KICKER = made_by_name["top pair, good kicker"]
TOP_PAIR_WEAK_KICKER = made_by_name["top pair, weak kicker"]
POCKET_BELOW_TOP = made_by_name["pocket pair below top pair"]
MIDDLE_PAIR = made_by_name["middle pair"]
BOTTOM_PAIR = made_by_name["bottom pair"]
UNDERPAIR = made_by_name["underpair"]
ACE_HIGH = made_by_name["ace high"]
NO_MADE_HAND = made_by_name["no made hand"]

FLUSH_DRAW = _draw_by_name["flush draw"]
NUT_FLUSH_DRAW = _draw_by_name["nut flush draw"]
OPEN_ENDED = _draw_by_name["open-ended straight draw"]
GUTSHOT = _draw_by_name["gutshot"]
WRAP = _draw_by_name["wrap"]
COMBO_DRAW = _draw_by_name["combo draw"]
BACKDOOR_FLUSH = _draw_by_name["backdoor flush draw"]
BACKDOOR_STRAIGHT = _draw_by_name["backdoor straight draw"]
OVERCARDS = _draw_by_name["overcards"]

# The five categories at the top of MADE follow the evaluator's order of hand categories:
# MADE code = STRAIGHT_FLUSH + (8 - evaluator category) for categories straight and better.
assert [c.name for c in MADE[: STRAIGHT + 1]] == [
    "straight flush",
    "four of a kind",
    "full house",
    "flush",
    "straight",
]


_EVALUATOR_CATEGORY = {
    STRAIGHT_FLUSH: HandCategory.STRAIGHT_FLUSH,
    made_by_name["four of a kind"]: HandCategory.FOUR_OF_A_KIND,
    made_by_name["full house"]: HandCategory.FULL_HOUSE,
    FLUSH: HandCategory.FLUSH,
    STRAIGHT: HandCategory.STRAIGHT,
    SET: HandCategory.THREE_OF_A_KIND,
    TRIPS: HandCategory.THREE_OF_A_KIND,
}


def made_places(high: HighEval) -> tuple[int, ...]:
    """Each made category's place (by code) in the order of hands of the evaluator ``high``,
    best first (0): the table's order, except where short deck ranks a flush above a full
    house and (by its usual rule) three of a kind above a straight. A made code above two pair
    is its evaluator category; the rest (two pair and below) keep the table's order.

    >>> places = made_places(HighEval.SHORT_DECK)
    >>> [MADE[c].name for c in sorted(range(len(MADE)), key=places.__getitem__)][:6]
    ['straight flush', 'four of a kind', 'flush', 'full house', 'set', 'trips']
    """
    strength = {category: i for i, category in enumerate(category_order(high))}
    top = len(strength)  # above every evaluator category: only the table orders them further
    keys = [
        (-strength[_EVALUATOR_CATEGORY[c.code]] if c.code in _EVALUATOR_CATEGORY else top, c.code)
        for c in MADE
    ]
    ranked = sorted(range(len(MADE)), key=keys.__getitem__)
    places = [0] * len(MADE)
    for place, code in enumerate(ranked):
        places[code] = place
    return tuple(places)
