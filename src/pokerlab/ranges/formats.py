"""Hold'em range text in the formats of other tools: read any of them, write any of them.

==============  =====================================================================
``pokerstove``  PokerStove/Equilab notation (``QQ+,AKs,T9s-54s,AcKd``); no weights:
                writing a weighted range is an error
``equilab``     the same notation as ``pokerstove``
``pio``         PioSolver: one item per class or combo, ``:w`` weights in 0..1
                (``AA,KK:0.5,AsKs:0.25``); no ``+``/``-`` spans are written
``gtoplus``     GTO+ (and Flopzilla): weight groups in percent, ``[50]AA,KK[/50]``;
                unweighted items outside brackets
``ppt``         ProPokerTools generic syntax for two-card hands: ``QQ``, ``AxKx``
                (suited), ``AxKy`` (offsuit), ``AsKd``, weights ``@50`` (percent)
``pokerlab``    pokerlab's canonical text (:meth:`Range.to_string`: spans and ``:w``)
==============  =====================================================================

Reading: ``pokerstove``, ``equilab``, ``pio`` and ``pokerlab`` texts are pokerlab's own grammar
(a superset of them); ``gtoplus`` text is its bracket groups; ``ppt`` text is parsed by the
pattern grammar (:mod:`pokerlab.ranges.pattern`) with two-card holdings. ``"auto"`` reads
bracket groups as GTO+, else pokerlab's grammar, else (when the text has a suit variable
``w x y z``, a ``*`` or an ``@`` weight) the generic syntax.

>>> convert("QQ+,AKs:0.5", "gtoplus")
'QQ+,[50]AKs[/50]'
>>> convert("[50]AKs[/50],QQ+", "pio")
'AA,KK,QQ,AKs:0.5'
>>> convert("QQ+,AKs:0.5", "ppt")
'AA,KK,QQ,AxKx@50'
>>> convert("AxKy,JJ", "pokerstove")
'JJ,AKo'
"""

from __future__ import annotations

import re

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS, format_cards
from pokerlab.errors import RangeError, blame, described, shorten
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_NAMES, COMBOS
from pokerlab.ranges._format import format_weight, format_weights
from pokerlab.ranges.holdem import Range
from pokerlab.ranges.pattern import PatternRange

__all__ = ["FORMATS", "convert", "read_range", "write_range"]

FORMATS = ("pokerstove", "equilab", "pio", "gtoplus", "ppt", "pokerlab")
"""Format names :func:`read_range` and :func:`write_range` accept."""

_GROUP = re.compile(r"\[\s*([0-9.]+)\s*\](.*?)\[\s*/\s*([0-9.]+)\s*\]", re.S)


def _check_format(fmt: str, field: str, allow_auto: bool = False) -> str:
    """The format named ``fmt`` (argument ``field``), or a :class:`RangeError` naming the known
    ones."""
    known = ", ".join(FORMATS)
    if not isinstance(fmt, str):
        raise RangeError(
            f"a range format is a name ({known}), not {described(fmt)}",
            field=field,
        )
    key = fmt.strip().lower().replace("+", "plus").replace("-", "")
    aliases = {"gto": "gtoplus", "flopzilla": "gtoplus", "piosolver": "pio", "propokertools": "ppt"}
    key = aliases.get(key, key)
    if key in FORMATS or (allow_auto and key == "auto"):
        return key
    raise RangeError(f"unknown range format '{shorten(fmt)}': use one of {known}", field=field)


def _from_percent(percent: float) -> float:
    """The weight of a percentage, to 12 significant digits (``99.9`` gives 0.999, not
    0.9990000000000001), so percentages written with up to 10 decimals round-trip."""
    return float(f"{percent / 100:.12g}")


def _read_gtoplus(text: str) -> Range:
    parts: list[str] = []
    last = 0
    for m in _GROUP.finditer(text):
        if m.group(1) != m.group(3):
            raise RangeError(f"GTO+ group [{m.group(1)}] is closed by [/{m.group(3)}]")
        weight = _from_percent(float(m.group(1)))
        if weight > 1:
            raise RangeError(f"GTO+ weights are percentages up to 100, got [{m.group(1)}]")
        parts.append(text[last : m.start()])
        items = [item.strip() for item in m.group(2).split(",") if item.strip()]
        parts.append(",".join(f"{item}:{format_weight(weight)}" for item in items))
        last = m.end()
    parts.append(text[last:])
    rest = ",".join(p.strip(" ,") for p in parts if p.strip(" ,"))
    if "[" in rest or "]" in rest:
        opened = re.search(r"\[([^\]/]*)\]", rest)  # a group left over: its weight is no number
        if opened and f"[/{opened.group(1)}]" in rest:
            raise RangeError(
                f"invalid GTO+ range '{text}': a group's weight is a percentage such as [50], "
                f"got [{opened.group(1)}]"
            )
        raise RangeError(f"invalid GTO+ range '{text}': unbalanced [w]...[/w] group")
    return Range(rest)


def _read_ppt(text: str) -> Range:
    patterns = PatternRange(text, 2)
    weights = [_from_percent(100 * w) for w in patterns.weights.tolist()]
    return Range(np.asarray(patterns.holdings), weights)


def read_range(text: str, fmt: str = "auto") -> Range:
    """A hold'em :class:`Range` from text in format ``fmt`` (one of :data:`FORMATS`, or
    ``"auto"``). Errors name the argument at fault (``field``: ``"text"`` or ``"fmt"``)."""
    key = _check_format(fmt, "fmt", allow_auto=True)
    with blame("text"):
        if not isinstance(text, str):
            raise RangeError(f"a range to read is text such as 'QQ+,AKs', not {described(text)}")
        return _read(text, key)


def _read(text: str, key: str) -> Range:
    if key == "gtoplus" or (key == "auto" and "[/" in text):
        return _read_gtoplus(text)
    if key == "ppt":
        return _read_ppt(text)
    if key in ("pokerstove", "equilab") and re.search(r"[:@]", text):
        raise RangeError(f"a {key} range has no weights: '{text}' (read it as pio or pokerlab)")
    if key != "auto":
        return Range(text)
    try:
        return Range(text)
    except RangeError as first:
        if not re.search(r"[wxyz*@]", text):  # no mark of the generic syntax: a plain typo
            raise
        try:
            return _read_ppt(text)
        except RangeError:
            raise first from None


def _percent(weight: float) -> str:
    """A weight as a percentage, rounded to 10 decimals (so 0.1 is ``10``, not
    ``10.000000000000002``); one too small for that (under 1e-4 percent), in plain decimals to
    12 significant digits: the GTO+ and ProPokerTools readers take no exponent, and ``0`` would
    drop the combos."""
    text = format_weight(round(100 * weight, 10))
    if text == "0" or "e" in text:
        return np.format_float_positional(100 * weight, precision=12, unique=False,
                                          fractional=False, trim="-")  # fmt: skip
    return text


def _levels(rng: Range) -> list[tuple[float, NDArray[np.bool_]]]:
    """Each distinct weight (1 first, then descending) and the combos that have it."""
    dense = rng.to_dense()
    levels = sorted({float(w) for w in rng.weights}, key=lambda w: (w != 1.0, -w))
    return [(w, dense == w) for w in levels]


def _class_order(entry: tuple[str, object]) -> tuple[int, int, int]:
    name = entry[0]
    kind = 0 if len(name) == 2 else 1 if name[2] == "s" else 2
    return kind, -RANKS.index(name[0]), -RANKS.index(name[1])


def _class_items(present: NDArray[np.bool_], suited_mark: str, offsuit_mark: str) -> list[str]:
    """Whole classes by name (``suited_mark``/``offsuit_mark`` replace ``s``/``o``): pairs, then
    suited, then offsuit classes, each from the highest; then other combos one by one."""
    items: list[str] = []
    partial: list[int] = []
    for name, members in sorted(zip(CLASS_NAMES, CLASS_COMBOS, strict=True), key=_class_order):
        have = present[members]
        if have.all():
            if len(name) == 2:
                items.append(name)
            else:
                mark = suited_mark if name[2] == "s" else offsuit_mark
                items.append(mark.format(hi=name[0], lo=name[1]))
        elif have.any():
            partial.extend(int(c) for c in members[have])
    items.extend(format_cards(COMBOS[c].tolist()) for c in sorted(partial))
    return items


def write_range(rng: Range, fmt: str) -> str:
    """The text of ``rng`` in format ``fmt`` (one of :data:`FORMATS`). Errors name the argument
    at fault (``field``: ``"rng"`` or ``"fmt"``)."""
    if not isinstance(rng, Range):
        hint = f": convert({shorten(rng)!r}, {fmt!r}) writes a text" if isinstance(rng, str) else ""
        raise RangeError(
            f"write_range writes a Range, not {described(rng)}{hint}",
            field="rng",
        )
    key = _check_format(fmt, "fmt")
    if key == "pokerlab":
        return rng.to_string()
    if key in ("pokerstove", "equilab"):
        if not (rng.weights == 1.0).all():
            raise RangeError(f"{key} ranges have no weights; write this range as pio or gtoplus")
        return rng.to_string()
    out: list[str] = []
    for weight, present in _levels(rng):
        if key == "pio":
            if weight > 1:
                raise RangeError(f"PioSolver weights are at most 1, got {format_weight(weight)}")
            suffix = "" if weight == 1 else ":" + format_weight(weight)
            out.extend(i + suffix for i in _class_items(present, "{hi}{lo}s", "{hi}{lo}o"))
        elif key == "ppt":
            suffix = "" if weight == 1 else "@" + _percent(weight)
            out.extend(i + suffix for i in _class_items(present, "{hi}x{lo}x", "{hi}x{lo}y"))
        else:  # gtoplus
            if weight > 1:
                raise RangeError(f"GTO+ weights are percentages up to 100, got {100 * weight:g}")
            text = format_weights(np.where(present, 1.0, 0.0))
            out.append(text if weight == 1 else f"[{_percent(weight)}]{text}[/{_percent(weight)}]")
    return ",".join(out)


def convert(text: str, to: str, source: str = "auto") -> str:
    """Read ``text`` in format ``source`` and write it in format ``to``. Errors name the argument
    at fault (``field``: ``"text"``, ``"to"`` or ``"source"``)."""
    _check_format(to, "to")
    key = _check_format(source, "source", allow_auto=True)
    return write_range(read_range(text, key), to)
