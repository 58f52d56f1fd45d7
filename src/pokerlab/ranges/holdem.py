"""Hold'em ranges: PokerStove/Equilab notation, "top x%", weights, and the :class:`Range` value.

>>> r = Range("QQ+, AKs, AcKd:0.5")
>>> len(r), r.weighted_combos, f"{r.percent:.2f}%"
(23, 22.5, '1.73%')
>>> r.to_string()
'QQ+,AKs,AcKd:0.5'
>>> Range("A2s+").to_string(), len(Range("T9s-54s")), Range("AsKs").is_exact
('A2s+', 24, True)
>>> len(Range("random").remove("As Kd 7h"))
1176

Grammar
-------
A range is a comma-separated list of items; whitespace around items, around ``-``, ``:``,
``@`` and between the two cards of an exact combo is ignored; ranks are case-insensitive
(``T`` or ``10`` for ten), suits ``c d h s``.

=================  ===============================================================
``QQ``             a pair class (6 combos); ``QQ+`` = QQ, KK, AA; ``99-22`` (either
                   order) = every pair between
``AKs`` ``AKo``    suited (4) / offsuit (12) class; ``AK`` = both (16)
``A2s+``           the kicker rises from 2 up to one below the top card: A2s..AKs;
                   ``KTo+`` = KTo, KJo, KQo; ``T9s+`` = T9s (already one below)
``AQs-A8s``        same top card, kickers between (either order): AQs..A8s
``T9s-54s``        same gap, both cards move: T9s, 98s, 87s, 76s, 65s, 54s
                   (``AKs-QJs`` = AKs, KQs, QJs); any other pair of ends is an error
``AcKd``           one exact combo
``random``         all 1,326 combos
``15%``            the top 15 % by the shipped ordering (see below)
``5%-10%``         the classes in the top 10 % but not in the top 5 %
=================  ===============================================================

Weights
-------
Any item may end with a weight: ``AQs:0.5`` (a number) or ``AQs@50`` (a percentage, so the
same 0.5). The weight always *follows* the item it applies to; there is no prefix form.
Weights are between 0 and 1 (``@0`` to ``@100``); the default is 1, and 0 removes
the item's combos. Items apply left to right and **the last mention of a combo wins**
(``AA:0.5,AA`` gives AA weight 1; ``QQ+,KK:0`` = ``QQ,AA``), as in Equilab.

Top x%
------
``x%@vs1`` and ``x%@sc`` pick another shipped ordering (equity against one random hand; the
Sklansky–Chubukov number; ``short`` ranks short-deck hold'em's 81 classes, and its ``x%`` is
of their 630 combos), ``x%@name`` one loaded with :func:`pokerlab.ranges.load_ordering`
(see :mod:`pokerlab.ranges._order`). By default the 169 classes are ordered by all-in equity
against three random hands, estimated by a seeded
Monte Carlo over pokerlab's own evaluator (``python -m pokerlab.ranges._order_gen``; the data
file ``_data/holdem_order.txt`` names the seed and the standard errors). ``x%`` takes classes
in that order until their combo count reaches ``x`` % of 1,326 (whole classes, the shortest such
prefix): ``1%`` = QQ+ (18 combos), ``100%`` = random, ``0%`` = nothing. A band ``a%-b%`` is
``top(b)`` minus ``top(a)``. The shipped ordering follows this definition and may differ in
places from the table PokerStove itself ships; with 64 million deals each equity has a standard
error below 0.0001, and the few neighbours closer than that (e.g. A9s/QTs) are true near-ties.

Canonical text
--------------
:meth:`Range.to_string` groups combos by weight and writes ``random``, pair runs (``QQ+``,
``99-66``), kicker runs (``A2s+``, ``A9s-A5s``), connector spans (``T9s-54s``), ``AK`` for
matching suited and offsuit classes, then exact combos of partly present classes; it parses back
to an equal range (details in :mod:`pokerlab.ranges._format`).

Percent and weight
------------------
:attr:`Range.fraction` and :attr:`Range.percent` count combos present (weight > 0) out of 1,326,
as PokerStove displays them; :attr:`Range.weighted_combos` is the sum of the weights.

Errors
------
:class:`~pokerlab.errors.RangeError` (a ``ValueError``) names the item, its 1-based position
in the text and what was expected. A range with no combo raises
:class:`~pokerlab.errors.EmptyRangeError`:

>>> Range("QQ+, AKx")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerlab.errors.RangeError: invalid range 'AKx' at character 6: expected s, o, + or - after AK, ...
>>> Range("AKs").remove("Ks Kh Kd Kc")
Traceback (most recent call last):
...
pokerlab.errors.EmptyRangeError: range 'AKs' has no combo left after removing Ks Kh Kd Kc
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any, TypeAlias

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import (
    RANK_NAMES,
    Card,
    CardsLike,
    cards_to_mask,
    format_card_set,
    format_cards,
    parse_cards,
)
from pokerlab.errors import (
    CardError,
    EmptyRangeError,
    RangeError,
    blame,
    described,
    flag_argument,
    shorten,
)
from pokerlab.ranges._combos import (
    CLASS_COMBOS,
    CLASS_NAMES,
    COMBO_COUNT,
    COMBO_INDEX,
    COMBOS,
    GRID_SIZE,
)
from pokerlab.ranges._format import format_weights
from pokerlab.ranges._frozen import Frozen
from pokerlab.ranges._inputs import card_rows, weight_values
from pokerlab.ranges._order import OrderedClass, hand_ordering
from pokerlab.ranges._parse import cuts_of_valid, parse_weights

__all__ = [
    "COMBO_COUNT",
    "Combo",
    "ComboLike",
    "OrderedClass",
    "Range",
    "hand_ordering",
    "range_report",
]

Combo: TypeAlias = tuple[Card, Card]
ComboLike: TypeAlias = str | Sequence[int | str | Card]

_CARDS = tuple(Card(c) for c in range(52))
_COMBO_MASKS = np.array(
    [(1 << int(a)) | (1 << int(b)) for a, b in COMBOS.tolist()], dtype=np.uint64
)


def _combo_index(combo: ComboLike, where: str = "") -> int:
    """Canonical index of one combo given as text (``'AsKd'``) or two cards/codes; ``where``
    (e.g. ``' at index 3'``) goes into error messages."""
    try:
        cards = parse_cards(combo)
    except CardError as exc:
        raise RangeError(f"invalid combo {combo!r}{where}: {exc}") from exc
    if len(cards) != 2:
        raise RangeError(f"invalid combo {combo!r}{where}: a combo is exactly two cards")
    return int(COMBO_INDEX[int(cards[0]), int(cards[1])])


class Range(Frozen):
    """An immutable hold'em range: combos (two cards each) with positive weights.

    ``Range(text)`` parses the notation above (``ordering``: the one a ``x%`` item without
    ``@name`` takes, default ``vs3``; short-deck hold'em passes ``short``);
    ``Range(combos, weights)`` takes combos as text
    (``'AsKd'``), pairs of cards or codes, or an ``(n, 2)`` integer array (an array of card text
    reads as the list of it; a float or bool array is refused), with optional weights (numbers
    in 0..1, default 1; a combo given twice keeps its last weight). A range is never empty:
    building one with no combo raises :class:`~pokerlab.errors.EmptyRangeError`. Errors about
    the weights have ``field`` ``"weights"``.

    :attr:`combos` is an ``(n, 2)`` ``uint8`` array of card codes, higher code first, in the
    canonical order (higher card descending, then lower card descending); :attr:`weights` the
    matching ``float64`` weights. Both are read-only. Ranges compare equal when they hold the
    same combos with the same weights.

    >>> r = Range("AKs")
    >>> [(format_cards(c), w) for c, w in r]
    [('AsKs', 1.0), ('AhKh', 1.0), ('AdKd', 1.0), ('AcKc', 1.0)]
    >>> Range(["AsKs", "AhKh"], [1, 0.5]).to_string()
    'AsKs,AhKh:0.5'
    """

    __slots__ = ("_combos", "_dense", "_text", "_weights")

    _dense: NDArray[np.float64]
    _combos: NDArray[np.uint8]
    _weights: NDArray[np.float64]
    _text: str | None

    def __init__(
        self,
        spec: str | Range | Iterable[ComboLike] | NDArray[np.integer[Any]],
        weights: Iterable[float] | None = None,
        *,
        ordering: str | None = None,
    ) -> None:
        if ordering is not None and not isinstance(ordering, str):  # an array: numpy's "truth
            raise RangeError(  # value of an array is ambiguous" from inside the parser
                f"ordering must be an ordering's name such as 'vs1', not {described(ordering)}",
                field="ordering",
            )
        if isinstance(spec, Range):
            if weights is not None:
                raise RangeError("weights cannot be given with a Range")
            dense = spec._dense
        elif isinstance(spec, str):
            if weights is not None:
                raise RangeError("weights cannot be given with a range text; write AKs:0.5")
            dense = parse_weights(spec, ordering)
            if not dense.any():
                raise EmptyRangeError(f"range '{spec}' holds no combo")
        elif isinstance(spec, Iterable) and not isinstance(spec, bytes | bytearray):
            dense = self._dense_from_combos(spec, weights)
        else:
            raise RangeError(
                "a range is text such as 'QQ+,AKs', a Range, or a list of combos such as "
                f"['AsKs', 'AhKh'], not {type(spec).__name__} {spec!r}"
            )
        self._init(dense)

    def _init(self, dense: NDArray[np.float64]) -> None:
        if not dense.any():
            raise EmptyRangeError("a range needs at least one combo with a weight > 0")
        dense = dense.copy()
        dense.flags.writeable = False
        present = np.flatnonzero(dense)
        combos = COMBOS[present]
        weights = dense[present]
        combos.flags.writeable = False
        weights.flags.writeable = False
        set_ = object.__setattr__
        set_(self, "_dense", dense)
        set_(self, "_combos", combos)
        set_(self, "_weights", weights)
        set_(self, "_text", None)

    @staticmethod
    def _dense_from_combos(
        combos: Iterable[ComboLike] | NDArray[np.integer[Any]],
        weights: Iterable[float] | None,
    ) -> NDArray[np.float64]:
        rows = card_rows(combos, "combos", 2) if isinstance(combos, np.ndarray) else combos
        if isinstance(rows, np.ndarray):
            same = np.flatnonzero(rows[:, 0] == rows[:, 1])
            if len(same):
                k = int(same[0])
                raise RangeError(
                    f"combos must be two distinct card codes: row {k} is {rows[k].tolist()}"
                )
            indices = [int(i) for i in COMBO_INDEX[rows[:, 0], rows[:, 1]]]
        else:
            indices = [_combo_index(c, f" at index {k}") for k, c in enumerate(rows)]
        dense = np.zeros(COMBO_COUNT, dtype=np.float64)
        if weights is None:
            dense[indices] = 1.0
            return dense
        with blame("weights"):
            values = weight_values(weights, len(indices), "combos")
        for index, weight in zip(indices, values.tolist(), strict=True):
            dense[index] = weight  # a combo given twice keeps its last weight
        return dense

    @classmethod
    def from_dense(cls, weights: NDArray[np.floating[Any]] | Sequence[float]) -> Range:
        """A range from 1,326 weights in the canonical combo order (see :meth:`to_dense`)."""
        with blame("weights"):
            if isinstance(weights, np.ndarray) and weights.shape != (COMBO_COUNT,):
                raise RangeError(
                    f"dense weights must have shape ({COMBO_COUNT},), not {weights.shape}"
                )
            dense = weight_values(weights, COMBO_COUNT, "combos")
        self = cls.__new__(cls)
        self._init(dense)
        return self

    # --- contents --------------------------------------------------------------------------

    @property
    def combos(self) -> NDArray[np.uint8]:
        """``(n, 2)`` card codes, higher first, canonical order (read-only)."""
        return self._combos

    @property
    def weights(self) -> NDArray[np.float64]:
        """The weight of each combo of :attr:`combos` (read-only, all > 0)."""
        return self._weights

    def to_dense(self) -> NDArray[np.float64]:
        """A copy of the 1,326 weights in canonical combo order (0 for combos not in the range).

        Index ``i`` is the combo ``pokerlab.ranges.COMBOS[i]``.
        """
        return self._dense.copy()

    def __len__(self) -> int:
        return len(self._weights)

    @property
    def combo_count(self) -> int:
        """Number of combos present (weight > 0)."""
        return len(self._weights)

    @property
    def weighted_combos(self) -> float:
        """Sum of the weights."""
        return float(self._weights.sum())

    @property
    def fraction(self) -> float:
        """Combos present out of 1,326 (unweighted, as PokerStove shows it)."""
        return len(self._weights) / COMBO_COUNT

    @property
    def percent(self) -> float:
        """:attr:`fraction` in percent."""
        return 100.0 * self.fraction

    @property
    def is_exact(self) -> bool:
        """True when the range is one single combo."""
        return len(self._weights) == 1

    def __iter__(self) -> Iterator[tuple[Combo, float]]:
        """``((card, card), weight)`` for each combo, canonical order."""
        for (a, b), w in zip(self._combos.tolist(), self._weights.tolist(), strict=True):
            yield (_CARDS[a], _CARDS[b]), w

    def items(self) -> Iterator[tuple[Combo, float]]:
        """Same as iterating the range: ``((card, card), weight)`` pairs."""
        return iter(self)

    def weight(self, combo: ComboLike) -> float:
        """The weight of one combo (``'AsKd'`` or two cards), 0.0 if absent.

        >>> Range("AKs:0.5").weight("KsAs"), Range("AKs").weight("AsKd")
        (0.5, 0.0)
        """
        with blame("combo"):
            return float(self._dense[_combo_index(combo)])

    def __contains__(self, combo: object) -> bool:
        if not isinstance(combo, str | Sequence):
            return False
        try:
            return self.weight(combo) > 0
        except RangeError:
            return False

    def remove(self, cards: CardsLike) -> Range:
        """The range without the combos that use any of ``cards`` (board or dead cards).

        Raises :class:`~pokerlab.errors.EmptyRangeError` naming the cards if no combo is left.

        >>> Range("AA,KK").remove("As Ah").to_string()
        'KK,AdAc'
        """
        dead = parse_cards(cards)
        return self._without(
            cards_to_mask(dead),
            f"range '{shorten(self.to_string())}' has no combo left after removing "
            f"{format_cards(dead, ' ')}",
        )

    def _without(self, mask: int, empty: str) -> Range:
        """The range without the combos that hold a card of ``mask``; ``empty``: the
        :class:`~pokerlab.errors.EmptyRangeError`'s message when none is left."""
        kept = np.where((_COMBO_MASKS & np.uint64(mask)) == 0, self._dense, 0.0)
        if not kept.any():
            raise EmptyRangeError(empty)
        return Range.from_dense(kept)

    # --- text ------------------------------------------------------------------------------

    def to_string(self) -> str:
        """Canonical text; ``Range(r.to_string()) == r``."""
        if self._text is None:
            object.__setattr__(self, "_text", format_weights(self._dense))
        assert self._text is not None
        return self._text

    def __str__(self) -> str:
        return self.to_string()

    def __repr__(self) -> str:
        return f"Range({self.to_string()!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Range):
            return NotImplemented
        return bool(np.array_equal(self._dense, other._dense))

    def __hash__(self) -> int:
        return hash(self._dense.tobytes())

    # --- the 13x13 grid --------------------------------------------------------------------

    def classes(self) -> dict[str, tuple[int, int]]:
        """Each of the 169 classes (grid order) mapped to (combos present, combos in class).

        >>> Range("AKs,AsKd").classes()["AKo"]
        (1, 12)
        """
        present = self._dense > 0
        return {
            name: (int(present[members].sum()), len(members))
            for name, members in zip(CLASS_NAMES, CLASS_COMBOS, strict=True)
        }

    def grid(self) -> list[list[tuple[str, float]]]:
        """13 rows of 13 ``(class, fraction of its combos present)``: aces top-left, pairs on
        the diagonal, suited above it, offsuit below.

        >>> g = Range("AKs").grid()
        >>> g[0][0], g[0][1], g[1][0], g[12][12]
        (('AA', 0.0), ('AKs', 1.0), ('AKo', 0.0), ('22', 0.0))
        """
        cells = [(name, have / total) for name, (have, total) in self.classes().items()]
        return [cells[row * GRID_SIZE : (row + 1) * GRID_SIZE] for row in range(GRID_SIZE)]

    # --- JSON ------------------------------------------------------------------------------

    def to_dict(self, list_combos: bool = False) -> dict[str, Any]:
        """JSON-ready summary: canonical text, combos, percent, weighted combos, the 13x13 grid
        (and every combo with its weight when ``list_combos``).

        >>> d = Range("QQ+,AKs").to_dict()
        >>> d["canonical"], d["combos"], d["grid"][0][1]
        ('QQ+,AKs', 22, {'class': 'AKs', 'fraction': 1.0})
        """
        out: dict[str, Any] = {
            "canonical": self.to_string(),
            "combos": self.combo_count,
            "percent": self.percent,
            "weighted_combos": self.weighted_combos,
            "grid": [
                [{"class": name, "fraction": fraction} for name, fraction in row]
                for row in self.grid()
            ],
        }
        if flag_argument(list_combos, "list_combos"):
            out["list"] = [
                {"combo": format_cards(combo), "weight": weight} for combo, weight in self.items()
            ]
        return out


def _in_deck(value: Range, lowest_rank: int, shown: str) -> Range:
    """``value`` (written ``shown``) without the combos that hold a card below rank
    ``lowest_rank``."""
    return value._without(
        (1 << 4 * lowest_rank) - 1,  # the card codes of the lower ranks
        f"range '{shorten(shown)}' has no combo left in a deck from the "
        f"{RANK_NAMES[lowest_rank]} up",
    )


def range_report(
    text: str | Range,
    dead: str | None = None,
    list_combos: bool = False,
    *,
    ordering: str | None = None,
    lowest_rank: int = 0,
) -> dict[str, Any]:
    """What ``pokerlab range --json`` prints (and the web API answers): the input, then
    :meth:`Range.to_dict` of the range without the combos that touch ``dead``. ``text`` may be a
    :class:`Range` (its input is then its canonical text). ``ordering``: the one its ``x%``
    items take (as in :class:`Range`). ``lowest_rank`` > 0 reads it in a deck without the
    ranks below (short deck: 4, the six): the combos holding a lower card are dropped,
    ``percent`` is of that deck's combos (630), and ``deck`` says how many cards it has.

    Errors name the argument at fault (``field``: ``"range"`` or ``"dead"``).

    >>> range_report("AA", dead="As")["combos"]
    3
    >>> range_report(Range("QQ+"))["input"]
    'QQ+'
    >>> r = range_report("22+", lowest_rank=4)
    >>> r["canonical"], r["combos"], round(r["percent"], 2), r["deck"]
    ('66+', 54, 8.57, 36)
    """
    with blame("range"):
        if not isinstance(text, str | Range):  # the report echoes its input: text or a Range
            raise RangeError(f"a range is text such as 'QQ+,AKs' or a Range, not {described(text)}")
        value = Range(text, ordering=ordering) if isinstance(text, str) else text
        source = text if isinstance(text, str) else text.to_string()
        if lowest_rank:
            value = _in_deck(value, lowest_rank, source)
    if dead is not None:
        with blame("dead"):
            value = value.remove(dead)
    out: dict[str, Any] = {"input": source}
    out.update(value.to_dict(list_combos))
    if lowest_rank:
        cards = 52 - 4 * lowest_rank
        out["percent"] = 100.0 * value.combo_count / (cards * (cards - 1) // 2)
        out["deck"] = cards
    cuts = cuts_of_valid(source, ordering)
    if cuts:
        out["top"] = cuts
    if dead is not None:
        out["dead"] = format_card_set(dead)  # as every result echoes dead cards
    return out
