"""Ranges: sets of holdings with weights, parsed from the notation players use.

Hold'em (:mod:`pokerlab.ranges.holdem`): PokerStove/Equilab notation (``QQ+``, ``AKs``,
``A2s+``, ``T9s-54s``, ``AcKd``, ``random``), "top x%" by a shipped ordering, weights
(``AQs:0.5``, ``AQs@50``), and the immutable :class:`Range` value.

>>> from pokerlab.ranges import Range
>>> len(Range("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"))
226
"""

from __future__ import annotations

from pokerlab.ranges._combos import CLASS_NAMES, COMBOS
from pokerlab.ranges._order import load_ordering, ordering_names
from pokerlab.ranges._parse import percent_cuts
from pokerlab.ranges.holdem import (
    COMBO_COUNT,
    Combo,
    ComboLike,
    OrderedClass,
    Range,
    hand_ordering,
    range_report,
)

__all__ = [
    "CLASS_NAMES",
    "COMBOS",
    "COMBO_COUNT",
    "Combo",
    "ComboLike",
    "OrderedClass",
    "Range",
    "hand_ordering",
    "load_ordering",
    "ordering_names",
    "percent_cuts",
    "range_report",
]
