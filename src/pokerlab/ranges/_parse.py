"""Parser of the hold'em range grammar (documented in :mod:`pokerlab.ranges.holdem`).

:func:`parse_weights` turns text into a dense vector of 1,326 weights in the canonical combo
order of :mod:`pokerlab.ranges._combos`. Items are applied left to right, each setting the weight
of its combos, so the last mention of a combo wins and weight 0 removes it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS, SUITS
from pokerlab.errors import EmptyRangeError, RangeError, blame, described, shorten
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_INDEX, COMBO_COUNT, COMBO_INDEX, class_name
from pokerlab.ranges._pattern_parse import (
    percent_bounds,
    plain_spaces,
    reads_as_zero,
    weight_of_text,
)

__all__ = ["cuts_of_valid", "parse_weights", "percent_cuts", "split_ordering"]

_WS = " \t\r\n"
_NUMBER = r"(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)"
_PERCENT = re.compile(rf"({_NUMBER})[{_WS}]*%(?:[{_WS}]*-[{_WS}]*({_NUMBER})[{_WS}]*%)?")
_ORDERED = re.compile(rf"([^@]*%)[{_WS}]*@[{_WS}]*([A-Za-z][A-Za-z0-9_]*)")
_NAMED = re.compile(rf"[^@]*@[{_WS}]*([A-Za-z]\w*)")
_WEIGHT = re.compile(rf"{_NUMBER}(?:[eE][+-]?[0-9]+)?")
_EXPECTED_HAND = "expected a hand such as QQ+, AKs, A2s+, T9s-54s, AcKd, 15% or random"


@dataclass(frozen=True)
class _Class:
    """A class read from the text: ranks ``high >= low`` and suffix ``''``, ``'s'`` or ``'o'``."""

    high: int
    low: int
    suffix: str
    text: str

    @property
    def is_pair(self) -> bool:
        return self.high == self.low

    def names(self) -> list[str]:
        if self.is_pair:
            return [class_name(self.high, self.low, False)]
        kinds = [self.suffix == "s"] if self.suffix else [True, False]
        return [class_name(self.high, self.low, suited) for suited in kinds]


@dataclass(frozen=True)
class _Combo:
    """An exact combo read from the text."""

    first: int
    second: int
    text: str


class _Item:
    """One comma-separated item: its text and its 1-based position in the whole input."""

    def __init__(self, text: str, position: int) -> None:
        self.text = text
        self.position = position

    def error(self, message: str) -> RangeError:
        text = shorten(self.text)
        return RangeError(f"invalid range '{text}' at character {self.position}: {message}")


def _found(text: str, i: int) -> str:
    return f"found '{text[i]}'" if i < len(text) else "found the end of the item"


def _skip_ws(text: str, i: int) -> int:
    while i < len(text) and text[i] in _WS:
        i += 1
    return i


def _rank_at(text: str, i: int) -> tuple[int, int]:
    """The rank at ``text[i]`` (``T`` or ``10`` for ten) and the index after it; ``-1`` if none."""
    if text.startswith("10", i):
        return RANKS.index("T"), i + 2
    if i < len(text) and text[i].upper() in RANKS:
        return RANKS.index(text[i].upper()), i + 1
    return -1, i


def _suit_at(text: str, i: int) -> int:
    return SUITS.find(text[i].lower()) if i < len(text) else -1


def _read_hand(item: _Item, i: int) -> tuple[_Class | _Combo, int]:
    """Read a class (``AK``, ``AKs``, ``QQ``) or an exact combo (``AcKd``) at ``text[i]``."""
    text = item.text
    start = i
    first, i = _rank_at(text, i)
    if first < 0:
        raise item.error(f"{_EXPECTED_HAND}, {_found(text, i)}")
    suit = _suit_at(text, i)
    if suit >= 0:
        card = 4 * first + suit
        i = _skip_ws(text, i + 1) - 1  # "Ac Kd": blanks may separate the two cards
        second_rank, j = _rank_at(text, i + 1)
        second_suit = _suit_at(text, j)
        if second_rank < 0 or second_suit < 0:
            raise item.error(
                f"expected a second card (rank and suit) after {text[start : i + 1].strip()}, "
                f"{_found(text, i + 1 if second_rank < 0 else j)}"
            )
        other = 4 * second_rank + second_suit
        if other == card:
            raise item.error(f"duplicate card '{RANKS[first]}{SUITS[suit]}' in an exact combo")
        return _Combo(max(card, other), min(card, other), text[start : j + 1]), j + 1
    second, i = _rank_at(text, i)
    if second < 0:
        raise item.error(
            f"expected a second rank or a suit after {text[start:i]}, {_found(text, i)}"
        )
    suffix = ""
    if i < len(text) and text[i].lower() in "so":
        suffix = text[i].lower()
        if first == second:
            pair = text[start:i]
            raise item.error(
                f"a pair cannot be suited or offsuit: write {pair}, not {pair}{suffix}"
            )
        i += 1
    return _Class(max(first, second), min(first, second), suffix, text[start:i]), i


def _span(item: _Item, a: _Class, b: _Class) -> list[str]:
    """Classes of the span ``a-b`` (either order)."""
    if a.is_pair != b.is_pair:
        raise item.error(
            f"a span joins two pairs (99-22) or two non-pair hands (AQs-A8s), "
            f"not {a.text} and {b.text}"
        )
    if a.is_pair:
        lo, hi = sorted((a.high, b.high))
        return [class_name(r, r, False) for r in range(lo, hi + 1)]
    if a.suffix != b.suffix:
        raise item.error(
            f"both ends of a span must be suited, offsuit or both alike, not {a.text} and {b.text}"
        )
    if a.high == b.high:
        lo, hi = sorted((a.low, b.low))
        spots = [(a.high, k) for k in range(lo, hi + 1)]
    elif a.high - a.low == b.high - b.low:
        gap = a.high - a.low
        lo, hi = sorted((a.high, b.high))
        spots = [(t, t - gap) for t in range(lo, hi + 1)]
    else:
        raise item.error(
            f"a span keeps the top card (AQs-A8s) or the gap between the cards (T9s-54s); "
            f"{a.text}-{b.text} does neither"
        )
    return [n for h, k in spots for n in _Class(h, k, a.suffix, "").names()]


def _hand_item(item: _Item, text: str) -> list[int]:
    """Combo indices of a hand item (class, class+, span or exact combo), ``text`` without the
    weight."""
    hand, end = _read_hand(item, 0)
    i = _skip_ws(text, end)
    if isinstance(hand, _Combo):
        if i < len(text):
            raise item.error(
                f"expected ',' or a weight after the exact combo {hand.text}, {_found(text, i)}"
            )
        return [int(COMBO_INDEX[hand.first, hand.second])]
    if i == len(text):
        names = hand.names()
    elif text[i] == "+":
        if hand.is_pair:
            names = [class_name(r, r, False) for r in range(hand.high, len(RANKS))]
        else:
            kickers = range(hand.low, hand.high)
            names = [n for k in kickers for n in _Class(hand.high, k, hand.suffix, "").names()]
        i = _skip_ws(text, i + 1)
        if i < len(text):
            raise item.error(f"expected ',' or a weight after {hand.text}+, {_found(text, i)}")
    elif text[i] == "-":
        j = _skip_ws(text, i + 1)
        if j == len(text):
            raise item.error(f"expected a hand class after '-' in {text}")
        other, j = _read_hand(item, j)
        if isinstance(other, _Combo):
            raise item.error(f"a span joins hand classes, not the exact combo {other.text}")
        j = _skip_ws(text, j)
        if j < len(text):
            raise item.error(
                f"expected ',' or a weight after the span {text[:j].strip()}, {_found(text, j)}"
            )
        names = _span(item, hand, other)
    else:
        allowed = "+ or -" if hand.is_pair or hand.suffix else "s, o, + or -"
        if i > end and allowed.startswith("s") and text[i] in "soSO":  # 'AK s'
            raise item.error(
                f"expected {allowed} right after {hand.text}, found a space before "
                f"'{text[i]}' (write {hand.text}{text[i]})"
            )
        raise item.error(f"expected {allowed} after {hand.text}, {_found(text, i)}")
    return [int(c) for n in names for c in CLASS_COMBOS[CLASS_INDEX[n]]]


def _percent_item(item: _Item, match: re.Match[str], ordering: str) -> list[int]:
    from pokerlab.ranges._order import top_classes

    bounds, wrong = percent_bounds([g for g in match.groups() if g is not None])
    if wrong is not None:
        raise item.error(wrong)
    low, high = (0.0, bounds[0]) if len(bounds) == 1 else sorted(bounds)
    try:
        chosen = set(top_classes(high, ordering)) - set(top_classes(low, ordering))
    except RangeError as exc:
        raise item.error(str(exc)) from None
    return [int(c) for k in sorted(chosen) for c in CLASS_COMBOS[k]]


def split_ordering(text: str) -> tuple[str, str | None]:
    """``"10%@vs1:0.5"`` -> ``("10%:0.5", "vs1")``: the ordering a percent item names after
    ``@`` (a name starts with a letter; ``@50`` stays a weight), and the item without it."""
    match = _ORDERED.match(text)
    if match is None:
        return text, None
    return match.group(1) + text[match.end() :], match.group(2)


def percent_cuts(text: str, ordering: str | None = None) -> list[dict[str, Any]]:
    """For each "top x%" item of a range text, how it was cut: the ordering used (name and what
    it ranks by), the percentages asked for, and the whole classes taken with their real share
    of the combos the ordering ranks (1,326; short deck's 630). ``ordering``: the one an item
    without ``@name`` uses (default ``vs3``). A text that is no range raises
    :class:`RangeError` (``field`` ``"text"``), as :class:`~pokerlab.ranges.Range` would.

    >>> cut = percent_cuts("AKs, 1%@vs1")[0]
    >>> cut["ordering"], cut["classes"], cut["combos"], round(cut["percent"], 2)
    ('vs1', 3, 18, 1.36)
    """
    with blame("text"):
        if not isinstance(text, str):
            raise RangeError(f"a range is text such as 'QQ+,15%', not {described(text)}")
        parse_weights(text, ordering)  # 'abc' had no cut, silently: its error instead
    return cuts_of_valid(text, ordering)


def cuts_of_valid(text: str, ordering: str | None = None) -> list[dict[str, Any]]:
    """:func:`percent_cuts` of a text already known to parse."""
    from pokerlab.ranges._order import DEFAULT_ORDERING, describe, ordering_combos, top_classes

    cuts: list[dict[str, Any]] = []
    for piece in plain_spaces(text).split(","):
        body, named = split_ordering(piece.strip(_WS))
        body = re.split(r"[:@]", body, maxsplit=1)[0].strip(_WS)
        match = _PERCENT.fullmatch(body)
        if match is None:
            continue
        name = named or ordering or DEFAULT_ORDERING
        bounds = [float(g) for g in match.groups() if g is not None]
        low, high = (0.0, bounds[0]) if len(bounds) == 1 else sorted(bounds)
        chosen = set(top_classes(high, name)) - set(top_classes(low, name))
        combos = sum(len(CLASS_COMBOS[k]) for k in chosen)
        cuts.append({"item": piece.strip(_WS), "ordering": name, "ranks_by": describe(name),
                     "asked": [low, high], "classes": len(chosen), "combos": combos,
                     "percent": 100.0 * combos / ordering_combos(name)})  # fmt: skip
    return cuts


def _weight(item: _Item, text: str, marker: str) -> float:
    raw = text.strip()
    if not raw:
        raise item.error(f"expected a weight after '{marker}'")
    if _WEIGHT.fullmatch(raw) is None:
        if raw.startswith("-") and _WEIGHT.fullmatch(raw[1:]):
            raise item.error(f"a weight must be >= 0, not {raw}")
        raise item.error(f"expected a number after '{marker}', found '{shorten(raw)}'")
    value = weight_of_text(raw) if marker == "@" else float(raw)  # 99.9 -> 0.999 exactly
    if reads_as_zero(raw, value):
        raise item.error(f"the weight {raw} is too small to tell from 0 (under about 1e-308)")
    if not math.isfinite(value):
        raise item.error(f"a weight must be a finite number, not {raw}")
    if value > 1.0:
        most = "100 after '@' (a percentage)" if marker == "@" else "1 after ':' (a fraction)"
        raise item.error(f"a weight is at most {most}, not {raw}")
    return value


def _apply_item(item: _Item, weights: NDArray[np.float64], default_ordering: str) -> None:
    text, ordering = split_ordering(item.text)
    named = _NAMED.match(text)
    if ordering is None and named is not None:
        raise item.error(f"'@{named.group(1)}' names an ordering, which only a percentage takes "
                         "(10%@vs1); a weight after '@' is a number (AA@50)")  # fmt: skip
    weight = 1.0
    cut = min((k for k in (text.find(":"), text.find("@")) if k >= 0), default=-1)
    if cut >= 0:
        weight = _weight(item, text[cut + 1 :], text[cut])
        text = text[:cut].rstrip()
        if not text:
            raise item.error(f"expected a hand before '{item.text[cut]}'")
    if text.lower() == "random":
        weights[:] = weight
        return
    percent = _PERCENT.fullmatch(text)
    if percent is not None:
        weights[_percent_item(item, percent, ordering or default_ordering)] = weight
        return
    if "%" in text:
        raise item.error("expected a percentage such as 15% or a band such as 5%-10%")
    weights[_hand_item(item, text)] = weight


def parse_weights(text: str, ordering: str | None = None) -> NDArray[np.float64]:
    """Dense weights (1,326, canonical combo order) of a range text; raises :class:`RangeError`.
    ``ordering``: the one a ``x%`` item without ``@name`` takes (default ``vs3``).

    An empty text raises :class:`EmptyRangeError`; a text whose combos all end with weight 0 is
    returned as all zeros (the caller decides).
    """
    if not text.strip():
        raise EmptyRangeError(
            f"empty range {shorten(text)!r}: expected hands such as 'QQ+,AKs', '15%' or 'random'"
        )
    from pokerlab.ranges._order import DEFAULT_ORDERING

    text = plain_spaces(text)
    weights = np.zeros(COMBO_COUNT, dtype=np.float64)
    start = 0
    for piece in text.split(","):
        lead = len(piece) - len(piece.lstrip(_WS))
        stripped = piece.strip(_WS)
        if not stripped:
            where = "at the end" if start + len(piece) == len(text) else "between two commas"
            if start == 0:
                where = "before the first comma"
            raise RangeError(
                f"invalid range '{shorten(text)}' at character {start + 1}: empty item {where}"
            )
        _apply_item(_Item(stripped, start + lead + 1), weights, ordering or DEFAULT_ORDERING)
        start += len(piece) + 1
    return weights
