"""The text a result echoes for a range: as the user wrote it, with every ten written ``T``.

Input accepts ``T`` or ``10`` for ten, output always writes ``T`` (definitions.md). A range is
echoed as typed (its items, spacing and weights kept, so a user finds their own range in a
table), but a ``10`` that is a rank becomes ``T``; a ``10`` inside a number (``10%``, ``@10``,
``:0.10``, ``1e-10``) or an ordering's name (``15%@my10``) is left alone.

>>> echo_text("Ah10d, 10s9s:0.10, 10%, KQ@10", "holdem")
'AhTd, Ts9s:0.10, 10%, KQ@10'
>>> echo_text("(10-9-)**@10, 5%-10%, AA**:10h*", "pattern")
'(T-9-)**@10, 5%-10%, AA**:Th*'
"""

from __future__ import annotations

import re

__all__ = ["echo_text"]

_NUMBER = r"[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][-+]?[0-9]+)?"
_PERCENT = re.compile(rf"{_NUMBER}[ \t]*%")
_ORDERING = re.compile(r"@[ \t]*[A-Za-z_]\w*")
#: The characters a weight follows, per range grammar (``Game.range_syntax``): hold'em writes
#: ``AA:0.5`` or ``AA@50``; card patterns only ``@50``, as ``:`` joins patterns (``AA**:$ds``).
_WEIGHT_MARKERS = {"holdem": ":@", "pattern": "@"}


def _numbers(text: str, syntax: str) -> list[tuple[int, int]]:
    """Spans of ``text`` that are numbers or names, not ranks: percentages, weights and
    ordering names after ``@``."""
    weight = re.compile(rf"[{re.escape(_WEIGHT_MARKERS[syntax])}][ \t]*{_NUMBER}")
    spans = [m.span() for p in (_PERCENT, _ORDERING, weight) for m in p.finditer(text)]
    return sorted(spans)


def echo_text(text: str, syntax: str) -> str:
    """``text`` (a range that parsed, written in ``syntax``: ``"holdem"`` or ``"pattern"``, as
    ``Game.range_syntax`` says) with each rank ``10`` written ``T``."""
    if "10" not in text:
        return text
    pieces: list[str] = []
    at = 0
    for start, end in _numbers(text, syntax):
        if start >= at:
            pieces.append(text[at:start].replace("10", "T"))
            pieces.append(text[start:end])
            at = end
        elif end > at:  # overlapping spans: keep the union as written
            pieces.append(text[at:end])
            at = end
    pieces.append(text[at:].replace("10", "T"))
    return "".join(pieces)
