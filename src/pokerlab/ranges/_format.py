"""Canonical text of a range (the inverse of :mod:`pokerlab.ranges._parse`).

Combos are grouped by weight (weight 1 first, then descending). Inside a group, whole classes are
written compactly and the combos of partially present classes one by one:

* ``random`` when the group holds all 1,326 combos;
* pairs as runs: ``QQ+``, ``99-66``, ``22``;
* for each top card, the kickers present as suited and as offsuit classes; when both sets are
  equal the suffix is dropped (``AT+``); runs of kickers become ``A2s+`` (reaching one below the
  top card) or ``A9s-A5s``;
* single classes left over that share a gap and follow each other become a connector span
  (``T9s-54s``), else stay single (``K8o``);
* exact combos, higher card first (``AsKd``).

Items are ordered pairs, then unsuffixed, suited, offsuit classes (each from the highest top card
down), then exact combos; a weight other than 1 is appended to every item as ``:w`` with the
shortest text that reads back as the same float.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS, format_cards
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_INDEX, COMBOS, GRID_SIZE, class_name

__all__ = ["format_weight", "format_weights"]

_ACE = GRID_SIZE - 1


def format_weight(weight: float) -> str:
    """Shortest text of a weight that parses back to the same float: ``0.5``, ``2``, ``1e-05``."""
    text = repr(float(weight))
    return text[:-2] if text.endswith(".0") else text


def _runs(values: list[int]) -> list[list[int]]:
    """Maximal runs of consecutive integers in ascending ``values``."""
    runs: list[list[int]] = []
    for v in values:
        if runs and runs[-1][-1] == v - 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return runs


def _name(high: int, low: int, suffix: str) -> str:
    return RANKS[high] + RANKS[low] + suffix if high != low else class_name(high, low, False)


def _pair_items(ranks: list[int]) -> list[tuple[tuple[int, ...], str]]:
    items: list[tuple[tuple[int, ...], str]] = []
    for run in _runs(ranks):
        top, bottom = run[-1], run[0]
        if top == _ACE and bottom < top:
            text = f"{RANKS[bottom] * 2}+"
        elif len(run) == 1:
            text = RANKS[top] * 2
        else:
            text = f"{RANKS[top] * 2}-{RANKS[bottom] * 2}"
        items.append(((0, -top, 0), text))
    return items


def _nonpair_items(full: set[tuple[int, int, str]]) -> list[tuple[tuple[int, ...], str]]:
    """Items for full non-pair classes ``(high, low, 's'|'o')``."""
    by_top: dict[tuple[int, str], list[int]] = {}
    for high in range(_ACE, 0, -1):
        suited = [low for low in range(high) if (high, low, "s") in full]
        offsuit = [low for low in range(high) if (high, low, "o") in full]
        if suited and suited == offsuit:
            by_top[(high, "")] = suited
        else:
            by_top[(high, "s")] = suited
            by_top[(high, "o")] = offsuit
    kind_order = {"": 1, "s": 2, "o": 3}
    items: list[tuple[tuple[int, ...], str]] = []
    singles: dict[tuple[str, int], list[int]] = {}  # (suffix, gap) -> top cards
    for (high, suffix), lows in by_top.items():
        for run in _runs(lows):
            if len(run) == 1:
                singles.setdefault((suffix, high - run[0]), []).append(high)
                continue
            key = (kind_order[suffix], -high, -run[-1])
            if run[-1] == high - 1:
                items.append((key, _name(high, run[0], suffix) + "+"))
            else:
                items.append((key, f"{_name(high, run[-1], suffix)}-{_name(high, run[0], suffix)}"))
    for (suffix, gap), tops in singles.items():
        for run in _runs(sorted(tops)):
            top, bottom = run[-1], run[0]
            key = (kind_order[suffix], -top, -(top - gap))
            text = _name(top, top - gap, suffix)
            if len(run) > 1:
                text += "-" + _name(bottom, bottom - gap, suffix)
            items.append((key, text))
    return items


def _group_items(present: NDArray[np.bool_]) -> list[str]:
    """Text items for the set of combos ``present`` (canonical order booleans)."""
    if present.all():
        return ["random"]
    items: list[tuple[tuple[int, ...], str]] = []
    pairs: list[int] = []
    full: set[tuple[int, int, str]] = set()
    partial: list[int] = []
    for name, index in CLASS_INDEX.items():
        members = CLASS_COMBOS[index]
        have = present[members]
        if have.all():
            high, low = RANKS.index(name[0]), RANKS.index(name[1])
            if high == low:
                pairs.append(high)
            else:
                full.add((high, low, name[2]))
        elif have.any():
            partial.extend(int(c) for c in members[have])
    items.extend(_pair_items(sorted(pairs)))
    items.extend(_nonpair_items(full))
    items.extend(((4, c), format_cards(COMBOS[c].tolist())) for c in sorted(partial))
    return [text for _, text in sorted(items)]


def format_weights(weights: NDArray[np.float64]) -> str:
    """Canonical text of dense weights (1,326, canonical combo order); ``''`` if all are 0."""
    levels = sorted({float(w) for w in weights[weights > 0]}, key=lambda w: (w != 1.0, -w))
    parts: list[str] = []
    for level in levels:
        suffix = "" if level == 1.0 else ":" + format_weight(level)
        parts.extend(item + suffix for item in _group_items(weights == level))
    return ",".join(parts)
