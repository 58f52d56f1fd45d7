"""Pattern ranges for Omaha, stud and razz: sets of ``size``-card holdings described by patterns.

A pattern range is a set of concrete holdings of a fixed size (Omaha: 4, 5 or 6 hole cards;
stud and razz: the player's known cards, up to 7), each with a weight. Every concrete holding
that matches is in the set exactly once, whatever order the pattern lists its cards in, so
every matching holding is equally likely (times its weight).

>>> r = PatternRange("AA**$ds", size=4)
>>> len(r), r.holdings.shape, r.holdings.dtype.name
(864, (864, 4), 'uint8')
>>> len(PatternRange("AA", size=4)), len(PatternRange("AxAyKxKy", size=4))
(6961, 6)
>>> razz = PatternRange("(3-3-)4", size=3, low_aces=True)
>>> len(razz), razz == PatternRange("(3-2-)4", size=3, low_aces=True)
(192, True)
>>> plo6 = PatternRange("random", size=6)
>>> len(plo6), plo6.is_random, len(plo6.remove("As Kd"))
(20358520, True, 15890700)

Grammar
-------
In the spirit of ProPokerTools' generic syntax (its "Range of Hands Syntax Help" page); the
differences are listed below. Whitespace between cards and around operators is ignored, but it
ends a card (``A s`` is an ace and a spade, ``As`` the ace of spades). Ranks and suits are
case-insensitive; ``T`` or ``10`` is ten.

=========================  =========================================================================
``AsKsQdJd``               exact cards (sorted internally; the order never matters)
``A`` ``K`` ... ``2``      a card of that rank, any suit: ``AAKK`` = at least two aces and two kings
``*``                      any card: ``AA**`` = ``AA`` = at least two aces (a ``*`` may be an ace)
``3-`` ``T+`` ``5-9``      a rank span on one card: "3 or lower", "ten or higher"; ``5-9`` or
                           ``9-5`` = 5 to 9. ``a-b`` is a span when ``b`` is not followed by ``+``
                           or ``-``: ``3-2-`` is two cards "3 or lower", "2 or lower", while ``3-2``
                           is one card "2 or 3" (``3- 2``: a card "3 or lower" and a deuce).
                           Text that could read two ways is refused with both spellings: ``5-9``
                           inside a no-pair group (``([5-9])`` or ``(5- 9)``), ``7-7-7`` outside
                           one (``7- 7- 7`` or ``7- [7-7]``), and ``KK-TT`` (a span of pairs,
                           which patterns do not have: ``KK,QQ,JJ,TT``, or ``K[K-T]T``)
``[A,K,Q]`` ``[2-5,A]``    one card of any listed rank or span (commas optional: ``[AKQ]``)
``s`` ``h`` ``d`` ``c``    an explicit suit, after a rank (``As``, ``T+h``, ``[AK]s``) or alone
                           (``ss`` = at least two spades)
``w`` ``x`` ``y`` ``z``    suit variables: the cards marked with one letter share a suit, different
                           letters have different suits, and no variable is a suit written
                           explicitly in the same pattern (``AxAyKxKy``: double-suited aces and
                           kings; ``xxyy`` = two cards of one suit and two of another)
``R`` ``O`` ``N`` ``P``    rank variables (upper case): the cards marked with one letter share a
                           rank, different letters have different ranks, and none is a rank written
                           as a single rank letter in the same pattern (``RR`` = a pair or better,
                           ``RRON`` = one pair and two other ranks, ``AARR`` = aces and another
                           pair)
``(3-3-)``                 a no-pair group: the cards inside have pairwise distinct ranks
                           (``(3-3-)4`` = two different ranks from A, 2, 3 plus a four)
``(7-7-7)``                the classic stud/razz reading inside a no-pair group: in a chain of two
                           or more dashes every rank but the last is "or lower" (two cards seven
                           or lower and a seven, all ranks distinct; canonical ``(7-7- 7)``)
``$ds`` ...                macros ``$ds`` ``$ss`` ``$ts`` ``$r`` ``$np``: a condition on the whole
                           holding (table below), alone or inside a pattern: ``AA$ds`` = ``AA:$ds``
``random`` or ``*``        every holding (kept unexpanded, see "Limits")
``a:b``                    intersection: holdings in both
``a!b``                    difference: holdings of ``a`` not in ``b`` (``AA!AAA``: exactly two aces)
``a,b``                    union
``(a,b)``                  grouping: ``(AA,KK):$ds``; ``:`` and ``!`` bind tighter than ``,`` and
                           apply left to right
``item@50``                a weight in percent (so 0.5), at the end of a top-level item
=========================  =========================================================================

A pattern describes cards that a holding must *contain*: it matches a holding when its cards can
be given to distinct cards of the holding, each card satisfying its rank, suit, variables and
no-pair group; the holding's other cards are free. A pattern with more cards than ``size`` is an
error. Parentheses hold a no-pair group when they contain only cards, and an expression when
they contain ``,`` ``:`` ``!`` or another ``(``.

With ``low_aces=True`` (razz and other A-5 low games) the ace ranks below the deuce in spans:
``3-`` = A, 2, 3, ``5-`` = A..5, ``T+`` = T, J, Q, K, ``A-5`` = A..5. With the default high aces,
``3-`` = 2, 3, ``T+`` = T..A and ``A-5`` = 5..A. Single ranks, lists and variables do not depend
on it.

Macros count the holding's cards per suit (``n`` = the holding size):

========  ====================================================================================
``$ds``   double-suited: exactly two suits hold two cards each, no suit holds three or more.
          n=4: 2-2; n=5: 2-2-1; n=6: 2-2-1-1; impossible for n < 4 or n > 6
``$ss``   single-suited: exactly one suit holds two cards, every other suit at most one.
          n=4: 2-1-1; n=5: 2-1-1-1; impossible for n > 5
``$ts``   triple-suited: three suits hold two cards each, the fourth at most one.
          n=6: 2-2-2; n=7: 2-2-2-1; impossible for n < 6
``$r``    rainbow: no two cards share a suit; impossible for n > 4
``$np``   no pair: no two cards share a rank
========  ====================================================================================

Weights
-------
``@w`` after a top-level item gives its holdings weight ``w`` percent: ``AA@50`` is weight 0.5
(weights are between 0 and 1, ``@0`` to ``@100``, and 0 removes the item's holdings).
The default is 100 %. Items apply left to right and the last mention of a holding wins, as in
pokerlab's hold'em ranges: ``AA@50,AAKK`` gives AAKK weight 1 and the other AA hands 0.5.

Where pokerlab differs from ProPokerTools
-----------------------------------------
* Weights: ``@`` is a percentage (``@50`` = 0.5); ProPokerTools takes ``@`` weights 1..100 as
  relative (the same distribution) and lets the largest weight of a hand win, pokerlab the last.
  ``:`` is always intersection (hold'em's ``AQs:0.5`` weights do not exist here).
* Rank spans work card by card (``3-``, ``T+``, ``5-9``, ``[2-5,A]``); ProPokerTools' spans of
  whole hands such as ``KK-TT`` or ``AK-JT`` are not supported (``KK-TT`` is refused, naming
  the pairs to list; ``AK-JT`` reads as the cards A, K-J, T). The ace's place in spans is the
  ``low_aces`` flag, not a fixed rule.
* Parentheses holding only cards are a no-pair group (``(3-3-)4``); elsewhere they group.
* Rank variables are only the upper-case letters R, O, N, P (ProPokerTools: any other letter),
  so ``AKo`` is an error rather than a silent pattern.
* Percentage rankings (``15%``, ``5%-10%``) only for 4- and 5-card Omaha (``percent=True``;
  the ordering is :mod:`pokerlab.ranges._omaha_order`); no board or dead-card syntax, no card
  order for stud: a
  holding is a set of cards; the caller decides which cards it stands for (for stud, e.g. the
  three third-street cards with ``size=3``).
* The macros are the five above, with the exact meaning given for each size.

Limits
------
``random`` (or a range that is every holding minus some cards, after :meth:`PatternRange.remove`)
is kept unexpanded: :attr:`PatternRange.is_random` is true and ``len`` is computed
combinatorially. Any other range is expanded to arrays; more than :data:`MAX_HOLDINGS` holdings
raise :class:`~pokerlab.errors.TooLargeError` (so ``A`` alone is fine in Omaha, not with 6
cards).

Errors
------
:class:`~pokerlab.errors.RangeError` (a ``ValueError``) names the 1-based position of the
offending character and what was expected; a pattern no holding matches raises
:class:`~pokerlab.errors.EmptyRangeError`:

>>> PatternRange("AA:0.5", size=4)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerlab.errors.RangeError: invalid range 'AA:0.5' at character 4: expected a card: ...
>>> PatternRange("AAAAA", size=5)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerlab.errors.EmptyRangeError: invalid range 'AAAAA' at character 1: the pattern 'AAAAA' ...
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_whole
from pokerlab.cards import Card, CardsLike, cards_to_mask, format_cards, parse_cards
from pokerlab.errors import CardError, EmptyRangeError, RangeError, TooLargeError, blame, described
from pokerlab.ranges._frozen import Frozen
from pokerlab.ranges._inputs import card_rows, weight_values
from pokerlab.ranges._pattern_expand import (
    MAX_HOLDINGS,
    Lazy,
    Masks,
    SetValue,
    descending_codes,
    evaluate,
    last_wins,
    materialise,
    popcount,
)
from pokerlab.ranges._pattern_parse import (
    Binary,
    Group,
    Item,
    Node,
    Percent,
    Term,
    chain,
    parse_pattern_text,
    shorten,
)

__all__ = [
    "MAX_HOLDINGS",
    "MAX_SIZE",
    "Holding",
    "HoldingLike",
    "PatternRange",
    "parse_pattern_range",
    "pattern_card_count",
    "without_updown_bars",
]

#: The largest holding size (seven-card stud).
MAX_SIZE = 7

Holding: TypeAlias = tuple[Card, ...]
HoldingLike: TypeAlias = str | Sequence[int | str | Card]

_CARDS = tuple(Card(c) for c in range(52))


def _check_size(size: int, field: str = "size") -> int:
    """``size`` checked, ``field`` the argument it came from (the holdings, when read off them)."""
    if not is_whole(size):
        raise RangeError(f"size must be an int, not {type(size).__name__}", field=field)
    if not 1 <= int(size) <= MAX_SIZE:
        raise RangeError(f"size must be between 1 and {MAX_SIZE} cards, not {size}", field=field)
    return int(size)


def _percent_text(weight: float) -> str:
    """Text ``t`` such that ``@t`` reads back as exactly ``weight``: ``0.5`` -> ``'50'``."""
    text = format(Decimal(repr(float(weight))).scaleb(2).normalize(), "f")
    return text[:-2] if text.endswith(".0") else text


def _holding_cards(holding: HoldingLike, where: str = "") -> list[Card]:
    """The cards of one holding (text or a sequence of cards or codes); ``where`` (e.g.
    ``' at index 3'``) goes into error messages."""
    try:
        return parse_cards(holding)
    except CardError as exc:
        raise RangeError(f"invalid holding {shorten(repr(holding))}{where}: {exc}") from exc


def _holding_mask(holding: HoldingLike, size: int, where: str = "") -> int:
    cards = _holding_cards(holding, where)
    if len(cards) != size:
        raise RangeError(
            f"invalid holding {shorten(repr(holding))}{where}: a holding here is exactly {size} "
            f"cards, not {len(cards)}"
        )
    return cards_to_mask(cards)


class PatternRange(Frozen):
    """An immutable range of ``size``-card holdings with positive weights.

    ``PatternRange(text, size, low_aces=False)`` parses the grammar above (``low_aces=True``
    for razz and A-5 low games: the ace is the lowest rank in spans). Ranges compare equal when
    they hold the same holdings of the same size with the same weights.

    :attr:`holdings` is an ``(n, size)`` ``uint8`` array of card codes (each row in descending
    order, rows in descending order of their cards), :attr:`weights` the ``float64`` weights,
    :attr:`masks` the ``uint64`` card masks; all are read-only.

    >>> r = PatternRange("KK$ds@50, AsKs**", size=4)
    >>> len(r), r.weighted_count, r.is_exact
    (2053, 1639.0, False)
    >>> r.weight("KsAsQdJd"), r.weight("KhKcQhQc"), r.weight("KsKhAsAh")
    (1.0, 0.5, 1.0)
    >>> [format_cards(h) for h, _ in PatternRange("AsAh[KQ]s", size=3)]
    ['AsAhKs', 'AsAhQs']
    """

    __slots__ = (
        "_asc",
        "_codes",
        "_dead",
        "_items",
        "_lazy_weight",
        "_low_aces",
        "_size",
        "_text",
        "_wasc",
    )

    _size: int
    _low_aces: bool
    _lazy_weight: float | None
    _dead: int
    _asc: NDArray[np.uint64] | None
    _wasc: NDArray[np.float64] | None
    _items: tuple[tuple[str, str], ...] | None
    _codes: NDArray[np.uint8] | None
    _text: str | None

    def __init__(
        self, spec: str, size: int, *, low_aces: bool = False, percent: bool = False
    ) -> None:
        if not isinstance(spec, str):
            raise RangeError(
                "a PatternRange is built from text; use PatternRange.from_holdings for holdings"
            )
        size = _check_size(size)
        items = parse_pattern_text(spec, size, low_aces=low_aces, percent=percent)
        self._init(size, bool(low_aces))
        texts = tuple(
            (item.expr.text, "" if item.weight_text is None else "@" + item.weight_text)
            for item in items
        )
        object.__setattr__(self, "_items", texts)
        # an item whose expression is written again later is overruled for every holding it
        # lists, whatever the weights (the last mention wins): only the last is expanded
        last = {item.expr.text: item for item in items}
        kept = [item for item in items if last[item.expr.text] is item]
        memo: dict[tuple[str, str], SetValue] = {}
        values = [evaluate(item.expr, size, spec, memo) for item in kept]
        self._combine(kept, values, spec)

    # --- construction ----------------------------------------------------------------------

    def _init(self, size: int, low_aces: bool) -> None:
        set_ = object.__setattr__
        set_(self, "_size", size)
        set_(self, "_low_aces", low_aces)
        set_(self, "_lazy_weight", None)
        set_(self, "_dead", 0)
        set_(self, "_asc", None)
        set_(self, "_wasc", None)
        set_(self, "_items", None)
        set_(self, "_codes", None)
        set_(self, "_text", None)

    def _set_arrays(self, asc: NDArray[np.uint64], weights: NDArray[np.float64]) -> None:
        asc = np.ascontiguousarray(asc, dtype=np.uint64)
        weights = np.ascontiguousarray(weights, dtype=np.float64)
        asc.flags.writeable = False
        weights.flags.writeable = False
        object.__setattr__(self, "_asc", asc)
        object.__setattr__(self, "_wasc", weights)

    def _combine(self, items: Sequence[Item], values: list[SetValue], spec: str) -> None:
        """Apply the items left to right, the last mention of a holding winning."""
        size = self._size
        last, weight = values[-1], items[-1].weight
        if isinstance(last, Lazy) and last.pred is None and weight > 0:
            covered = all(
                bool(((v.masks & np.uint64(last.dead)) == 0).all())
                if isinstance(v, Masks)
                else last.dead & ~v.dead == 0
                for v in values[:-1]
            )
            if covered:
                if math.comb(52 - last.dead.bit_count(), size) == 0:
                    raise EmptyRangeError(f"range '{shorten(spec)}' holds no holding of {size}")
                object.__setattr__(self, "_lazy_weight", weight)
                object.__setattr__(self, "_dead", last.dead)
                return
        sets = [v if isinstance(v, Masks) else Masks(materialise(v, size)) for v in values]
        weights = [item.weight for item in items]
        masks, chosen = last_wins(sets, weights, size) or _last_wins(
            [v.masks for v in sets], weights
        )
        if not len(masks):
            raise EmptyRangeError(
                f"range '{shorten(spec)}' holds no holding of {size} cards with a weight > 0"
            )
        self._set_arrays(masks, chosen)

    @classmethod
    def from_holdings(
        cls,
        holdings: Iterable[HoldingLike] | NDArray[np.integer[Any]],
        weights: Iterable[float] | None = None,
        *,
        size: int | None = None,
        low_aces: bool = False,
    ) -> PatternRange:
        """A range of explicit holdings (text such as ``'AsKsQdJd'``, card sequences, or an
        ``(n, size)`` integer array of codes; an array of card text reads as the list of it) with
        optional weights (numbers in 0..1, default 1; a holding given twice keeps its last
        weight; weight 0 leaves it out). ``size`` (keyword-only) defaults to the size of the
        first holding. Errors name the argument at fault (``field``: ``"holdings"``,
        ``"weights"`` or ``"size"``).

        >>> r = PatternRange.from_holdings(["AsKsQdJd", "2c3c4c5c"], [1, 0.25])
        >>> r.to_string(), len(r)
        ('AsKsQdJd,5c4c3c2c@25', 2)
        """
        if isinstance(holdings, str | bytes | bytearray) or not isinstance(holdings, Iterable):
            text = ": a range text is PatternRange(text, size)" if isinstance(holdings, str) else ""
            raise RangeError(
                "holdings are a list such as ['AsKsQdJd', '5c4c3c2c'] or an (n, size) array of "
                f"card codes, not {described(holdings)}{text}",
                field="holdings",
            )
        if size is not None:
            size = _check_size(size)
        with blame("holdings"):
            rows = (
                card_rows(holdings, "holdings", size)
                if isinstance(holdings, np.ndarray)
                else holdings
            )
            if isinstance(rows, np.ndarray):
                size = size or _check_size(rows.shape[1], "holdings")
                masks = np.zeros(len(rows), dtype=np.uint64)
                for j in range(size):
                    masks |= np.left_shift(np.uint64(1), rows[:, j].astype(np.uint64))
                bad = np.flatnonzero(popcount(masks) != size)
                if len(bad):
                    raise RangeError(f"holding at index {int(bad[0])} repeats a card")
            else:
                listed = list(rows)
                if size is None:
                    if not listed:
                        raise EmptyRangeError("no holdings given, and no size to make a range of")
                    size = _check_size(len(_holding_cards(listed[0], " at index 0")), "holdings")
                masks = np.array(
                    [_holding_mask(h, size, f" at index {k}") for k, h in enumerate(listed)],
                    dtype=np.uint64,
                )
        if is_whole(weights):  # from_holdings(rows, 4): the size went into the weights
            raise RangeError(
                f"weights must be a list of numbers, not {weights!r}: the size is a keyword "
                f"argument (size={weights})",
                field="weights",
            )
        with blame("weights"):
            values = (
                np.ones(len(masks))
                if weights is None
                else weight_values(weights, len(masks), "holdings")
            )
        asc, chosen = _last_wins_flat(masks, values)
        if not len(asc):
            raise EmptyRangeError("a range needs at least one holding with a weight > 0")
        self = cls.__new__(cls)
        self._init(size, bool(low_aces))
        self._set_arrays(asc, chosen)
        return self

    # --- contents --------------------------------------------------------------------------

    @property
    def size(self) -> int:
        """Cards per holding."""
        return self._size

    @property
    def low_aces(self) -> bool:
        """Whether the text was read with the ace low in rank spans."""
        return self._low_aces

    @property
    def is_random(self) -> bool:
        """True for an unexpanded range of every holding that avoids :attr:`excluded`, all with
        one weight (``random``, ``*``, and what :meth:`remove` leaves of them)."""
        return self._lazy_weight is not None

    @property
    def excluded(self) -> list[Card]:
        """For a random range, the cards no holding uses (removed cards); else ``[]``."""
        return [_CARDS[c] for c in range(52) if self._dead >> c & 1]

    def _arrays(self) -> tuple[NDArray[np.uint64], NDArray[np.float64]]:
        if self._asc is None:
            assert self._lazy_weight is not None
            asc = materialise(Lazy(None, self._dead), self._size)
            self._set_arrays(asc, np.full(len(asc), self._lazy_weight))
        assert self._asc is not None and self._wasc is not None
        return self._asc, self._wasc

    @property
    def masks(self) -> NDArray[np.uint64]:
        """``(n,)`` 64-bit card masks of the holdings, canonical (descending) order.

        Raises :class:`~pokerlab.errors.TooLargeError` for a random range of more than
        :data:`MAX_HOLDINGS` holdings."""
        return self._arrays()[0][::-1]

    @property
    def weights(self) -> NDArray[np.float64]:
        """The weight of each holding of :attr:`holdings` (read-only, all > 0)."""
        return self._arrays()[1][::-1]

    @property
    def holdings(self) -> NDArray[np.uint8]:
        """``(n, size)`` card codes, each row descending, rows in canonical order (read-only).

        Raises :class:`~pokerlab.errors.TooLargeError` for a random range of more than
        :data:`MAX_HOLDINGS` holdings."""
        if self._codes is None:
            codes = descending_codes(self._arrays()[0], self._size)
            codes.flags.writeable = False
            object.__setattr__(self, "_codes", codes)
        assert self._codes is not None
        return self._codes

    def __len__(self) -> int:
        if self._lazy_weight is not None:
            return math.comb(52 - self._dead.bit_count(), self._size)
        assert self._asc is not None
        return len(self._asc)

    @property
    def fraction(self) -> float:
        """Holdings present out of all ``C(52, size)`` holdings (unweighted)."""
        return len(self) / math.comb(52, self._size)

    @property
    def weighted_count(self) -> float:
        """Sum of the weights."""
        if self._lazy_weight is not None:
            return self._lazy_weight * len(self)
        return float(self._arrays()[1].sum())

    @property
    def is_exact(self) -> bool:
        """True when the range is one single holding."""
        return len(self) == 1

    def __iter__(self) -> Iterator[tuple[Holding, float]]:
        """``(cards, weight)`` for each holding, canonical order, cards descending."""
        for row, w in zip(self.holdings.tolist(), self.weights.tolist(), strict=True):
            yield tuple(_CARDS[c] for c in row), w

    def weight(self, holding: HoldingLike) -> float:
        """The weight of one holding (text such as ``'AsKsQdJd'`` or cards), 0.0 if absent.

        >>> PatternRange("AA@50", size=4).weight("AsAhKdQc")
        0.5
        """
        with blame("holding"):
            mask = _holding_mask(holding, self._size)
        if self._lazy_weight is not None:
            return self._lazy_weight if mask & self._dead == 0 else 0.0
        asc, weights = self._arrays()
        k = int(np.searchsorted(asc, np.uint64(mask)))
        return float(weights[k]) if k < len(asc) and int(asc[k]) == mask else 0.0

    def __contains__(self, holding: object) -> bool:
        if not isinstance(holding, str | Sequence):
            return False
        try:
            return self.weight(holding) > 0
        except RangeError:
            return False

    def remove(self, cards: CardsLike) -> PatternRange:
        """The range without the holdings that use any of ``cards`` (board or dead cards).

        Raises :class:`~pokerlab.errors.EmptyRangeError` naming the cards if nothing is left.

        >>> r = PatternRange("AsAh**", size=4).remove("Kd 2c")
        >>> len(r), r.to_string()
        (1128, 'AsAh**!Kd!2c')
        >>> PatternRange("AsAh**", size=4).remove("Ah")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        pokerlab.errors.EmptyRangeError: pattern range 'AsAh**' has no holding left after ...
        """
        dead_cards = parse_cards(cards)
        dead = cards_to_mask(dead_cards)
        new = PatternRange.__new__(PatternRange)
        new._init(self._size, self._low_aces)
        empty = False
        if self._lazy_weight is not None:
            merged = self._dead | dead
            empty = math.comb(52 - merged.bit_count(), self._size) == 0
            object.__setattr__(new, "_lazy_weight", self._lazy_weight)
            object.__setattr__(new, "_dead", merged)
        else:
            asc, weights = self._arrays()
            keep = (asc & np.uint64(dead)) == 0
            empty = not keep.any()
            new._set_arrays(asc[keep], weights[keep])
        if empty:
            raise EmptyRangeError(
                f"pattern range '{shorten(self.to_string())}' has no holding left after "
                f"removing {format_cards(dead_cards, ' ')}"
            )
        if self._items is not None:
            suffix = "".join("!" + str(c) for c in dead_cards)
            items = tuple((expr + suffix, weight) for expr, weight in self._items)
            object.__setattr__(new, "_items", items)
        return new

    # --- text ------------------------------------------------------------------------------

    def to_string(self) -> str:
        """Text that parses back (with the same ``size`` and ``low_aces``) to an equal range:
        the normalised input text for a parsed range (with ``!card`` appended to each item
        after :meth:`remove`), else the holdings one by one grouped by weight.

        >>> PatternRange(" aa ** $DS , (3-2-)4 @ 50", size=4, low_aces=True).to_string()
        'AA**$ds,(3-2-)4@50'
        """
        if self._text is None:
            if self._items is not None:
                text = ",".join(expr + weight for expr, weight in self._items)
            elif self._lazy_weight is not None:
                weight = "" if self._lazy_weight == 1 else "@" + _percent_text(self._lazy_weight)
                text = "random" + "".join("!" + str(c) for c in self.excluded) + weight
            else:
                text = self._explicit_text()
            object.__setattr__(self, "_text", text)
        assert self._text is not None
        return self._text

    def _explicit_text(self) -> str:
        weights = self.weights
        levels = sorted({float(w) for w in weights}, key=lambda w: (w != 1.0, -w))
        codes = self.holdings
        parts: list[str] = []
        for level in levels:
            suffix = "" if level == 1.0 else "@" + _percent_text(level)
            parts.extend(format_cards(row) + suffix for row in codes[weights == level].tolist())
        return ",".join(parts)

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        low = ", low_aces=True" if self._low_aces else ""
        return f"PatternRange({shorten(self.to_string(), 200)!r}, size={self._size}{low})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, PatternRange):
            return NotImplemented
        if self._size != other._size or len(self) != len(other):
            return False
        if self._lazy_weight is not None and other._lazy_weight is not None:
            return self._dead == other._dead and self._lazy_weight == other._lazy_weight
        try:
            mine, theirs = self._arrays(), other._arrays()
        except TooLargeError:
            return False
        return bool(np.array_equal(mine[0], theirs[0]) and np.array_equal(mine[1], theirs[1]))

    def __hash__(self) -> int:
        return hash((self._size, len(self)))


def _last_wins_flat(
    masks: NDArray[np.uint64], weights: NDArray[np.float64]
) -> tuple[NDArray[np.uint64], NDArray[np.float64]]:
    """Distinct masks (ascending) each with its last weight, weight-0 ones dropped."""
    order = np.argsort(masks, kind="stable")  # equal masks keep their input order
    sorted_masks = masks[order]
    last = np.ones(len(order), dtype=bool)
    last[:-1] = sorted_masks[1:] != sorted_masks[:-1]
    chosen_masks = sorted_masks[last]
    chosen = weights[order][last]
    keep = chosen > 0
    return chosen_masks[keep], chosen[keep]


def _last_wins(
    parts: list[NDArray[np.uint64]], weights: list[float]
) -> tuple[NDArray[np.uint64], NDArray[np.float64]]:
    if not parts:
        return np.zeros(0, dtype=np.uint64), np.zeros(0)
    masks = np.concatenate(parts)
    values = np.concatenate(
        [np.full(len(p), w, dtype=np.float64) for p, w in zip(parts, weights, strict=True)]
    )
    return _last_wins_flat(masks, values)


def parse_pattern_range(text: str, size: int, *, low_aces: bool = False) -> PatternRange:
    """Parse a pattern range; the same as ``PatternRange(text, size, low_aces=low_aces)``.

    >>> len(parse_pattern_range("(5-5-5-)", 3, low_aces=True))
    640
    """
    return PatternRange(text, size, low_aces=low_aces)


def _term_counts(node: Node) -> set[int]:
    if isinstance(node, Term):
        return {-1} if node.is_random_word else ({len(node.cards)} if node.cards else set())
    if isinstance(node, Binary):
        first, steps = chain(node)
        counts = _term_counts(first)
        for step in steps:
            if step.removed_card < 0:  # "! As" removes a card: it lists none
                counts |= _term_counts(step.right)
        return counts
    if isinstance(node, Percent):
        return {-1}
    assert isinstance(node, Group)
    return set().union(*(_term_counts(p) for p in node.parts))


def without_updown_bars(text: str, *, stud: bool) -> str:
    """``text`` with each ``|`` (a stud hand's downcards from its upcards: ``As2d|3h``) read as a
    space, once it is where one belongs: in stud, at most one per item (items split at commas
    outside brackets), with cards on both sides; never in another game. Else a
    :class:`~pokerlab.errors.RangeError` naming the item.

    >>> without_updown_bars("As2d|3h,(KK)|*", stud=True)
    'As2d 3h,(KK) *'
    """
    if "|" not in text:
        return text
    if not stud:
        raise RangeError(
            f"range '{shorten(text)}': '|' separates a stud hand's downcards from its upcards; "
            "this game's hands have none"
        )
    depth = 0
    start = 0
    for i, ch in enumerate(text + ","):
        depth += (ch in "([") - (ch in ")]")
        if ch != "," or depth > 0:
            continue
        item = text[start:i].strip()
        start = i + 1
        bars = item.count("|")
        if bars > 1 or (bars == 1 and (item.startswith("|") or item.endswith("|"))):
            raise RangeError(
                f"range '{shorten(text)}': '{shorten(item)}' has a '|' out of place; one '|' "
                "may separate the downcards from the upcards (As2d|3h)"
            )
    return text.replace("|", " ")


def pattern_card_count(text: str, *, low_aces: bool = False) -> int:
    """The number of cards a range's patterns list, when they all list the same number (stud:
    a player's known cards). ``random`` and patterns of different lengths raise
    :class:`~pokerlab.errors.RangeError`.

    >>> pattern_card_count("(3-3-)45678"), pattern_card_count("AsKs Qd, [AK]** : $np")
    (7, 3)
    """
    items = parse_pattern_text(text, MAX_SIZE, low_aces=low_aces)
    counts = set().union(*(_term_counts(item.expr) for item in items))
    if -1 in counts:
        raise RangeError(f"range '{shorten(text)}': 'random' does not say how many cards are known")
    if len(counts) != 1:
        listed = ", ".join(str(c) for c in sorted(counts)) or "no"
        raise RangeError(
            f"range '{shorten(text)}': every pattern must list the same number of cards "
            f"(the known cards), got {listed} cards"
        )
    return counts.pop()
