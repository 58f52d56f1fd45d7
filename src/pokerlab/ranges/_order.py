"""The shipped orderings of the 169 classes (81 for short deck) and the "top x%" rule.

Orderings (best first), each read lazily from a data file in ``_data/`` that a generator in this
repository writes (the file's header names it):

========  ==========================================================================================
``vs3``   the default: all-in equity against three random hands, a seeded Monte Carlo
          (``holdem_order.txt``, :mod:`pokerlab.ranges._order_gen`; the header names the seed)
``vs1``   exact all-in equity against one random hand
          (``holdem_order_vs1.txt``, :mod:`pokerlab.analysis.orderings`)
``sc``    the Sklansky–Chubukov number, largest first (``holdem_order_sc.txt``, its definition in
          :mod:`pokerlab.analysis.orderings`)
``short`` short-deck hold'em's 81 classes (sixes to aces) by all-in equity against three random
          hands, dealt from the 36-card deck and ranked by its rules, a seeded Monte Carlo
          (``shortdeck_order.txt``, ``python -m pokerlab.ranges._order_gen --short``); the
          default of that game, whose ``x%`` is of its 630 combos; ``short_straights`` the same
          by the short deck's other rule, a straight over trips (``--short --straights``,
          ``shortdeck_straights_order.txt``), the default of ``shortdeck-straights`` (its pairs
          ten to six rank 10 to 30 places lower than in ``short``)
========  ==========================================================================================

:func:`load_ordering` adds a user ordering from a file of the 169 class names, best first.

Top x%
------
``top_classes(x)`` is the *shortest prefix* of the ordering whose combo count reaches ``x`` percent
of the combos it ranks (1,326; short deck's 630), i.e. the first ``k`` classes where ``k`` is the
least with ``combos(first k) >= x / 100 * 1326``. Whole classes only: ``1%`` (13.26 combos) is
``AA, KK, QQ`` (18 combos, 1.36 %), ``0%`` is nothing and ``100%`` is every class. A band
``a%-b%`` is ``top(b) - top(a)`` (so ``0%-b%`` is ``top(b)``), hence ``top(a) ⊆ top(b)`` for
``a <= b`` and the bands ``a%-b%`` and ``b%-c%`` tile ``a%-c%``.
"""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path
from typing import NamedTuple

from pokerlab.cards import RANKS
from pokerlab.errors import RangeError, blame, described, shorten
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_INDEX

__all__ = [
    "DATA_FILE",
    "DEFAULT_ORDERING",
    "ORDERINGS",
    "SHORT_ORDERING",
    "SHORT_ORDERINGS",
    "STRAIGHTS_ORDERING",
    "OrderedClass",
    "hand_ordering",
    "load_ordering",
    "ordering_combos",
    "ordering_names",
    "top_classes",
    "top_count",
]

_DATA = Path(__file__).with_name("_data")
DATA_FILE = _DATA / "holdem_order.txt"
DEFAULT_ORDERING = "vs3"
#: Shipped orderings: name -> (data file, what it ranks by).
ORDERINGS: dict[str, tuple[Path, str]] = {
    "vs3": (DATA_FILE, "equity against three random hands"),
    "vs1": (_DATA / "holdem_order_vs1.txt", "equity against one random hand"),
    "sc": (_DATA / "holdem_order_sc.txt", "Sklansky-Chubukov number"),
    "short": (_DATA / "shortdeck_order.txt", "short-deck equity against three random hands"),
    "short_straights": (
        _DATA / "shortdeck_straights_order.txt",
        "short-deck equity against three random hands, a straight over trips",
    ),
}
SHORT_ORDERING = "short"
STRAIGHTS_ORDERING = "short_straights"
SHORT_ORDERINGS = frozenset({SHORT_ORDERING, STRAIGHTS_ORDERING})
"""The orderings of the short deck's 81 classes (of its 630 combos)."""
_SHORT_CLASSES = frozenset(n for n in CLASS_INDEX if min(RANKS.index(r) for r in n[:2]) >= 4)
"""The classes of short-deck hold'em (both cards six or higher): the 81 ``short`` ranks."""
_USER: dict[str, tuple[tuple[OrderedClass, ...], str]] = {}
_EPSILON = 1e-9
_LOWER_NAMES = {name.lower() for name in CLASS_INDEX}


class OrderedClass(NamedTuple):
    """One line of an ordering: class name, its combos, the value it is ranked by (an equity, or
    a Sklansky–Chubukov number) and that value's Monte Carlo standard error (0 when exact)."""

    name: str
    combos: int
    equity: float
    stderr: float


def _parse(
    text: str, source: str, classes: frozenset[str] = frozenset(CLASS_INDEX)
) -> tuple[OrderedClass, ...]:
    """Rows of an ordering file: ``rank class combos value [stderr ...]`` lines (shipped files)
    or one class name per line, optionally after its rank (a user file); ``#`` starts a comment.
    ``classes``: the classes it must list, each once (all 169 unless said)."""
    rows: list[OrderedClass] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split("#", 1)[0].split()
        if not line:
            continue
        ranked = len(line) > 1 and line[0].isdigit() and line[1].lower() in _LOWER_NAMES
        fields = line[1:] if ranked else line  # "22" alone is the class, "1 AA" a rank and class
        name = fields[0] if fields else ""
        key = next((k for k in CLASS_INDEX if k.lower() == name.lower()), None)
        if key is None:
            raise RangeError(f"ordering {source} line {number}: '{name}' is not a hand class "
                             "such as AA, AKs or AKo")  # fmt: skip
        numbers: list[float] = []
        for token in fields[2:4]:  # the value ranked by, its standard error
            try:
                numbers.append(float(token))
            except ValueError:
                raise RangeError(
                    f"ordering {source} line {number}: '{token}' is not a number (after {key}: "
                    "its combos, value, standard error)"
                ) from None
        value = numbers[0] if numbers else float(-len(rows))
        stderr = numbers[1] if len(numbers) > 1 else 0.0
        rows.append(OrderedClass(key, len(CLASS_COMBOS[CLASS_INDEX[key]]), value, stderr))
    seen = [r.name for r in rows]
    doubled = sorted({n for n in seen if seen.count(n) > 1})
    missing = sorted(classes - set(seen), key=CLASS_INDEX.__getitem__)
    extra = sorted(set(seen) - classes, key=CLASS_INDEX.__getitem__)
    if doubled or missing or extra:
        names = doubled or missing or extra
        listed = ", ".join(names[:8]) + (f" and {len(names) - 8} more" if len(names) > 8 else "")
        problem = (
            f"repeats {listed}" if doubled else f"lacks {listed}" if missing else f"lists {listed}"
        )
        raise RangeError(
            f"ordering {source} must list each of the {len(classes)} classes once: it {problem}"
        )
    return tuple(rows)


@cache
def _shipped(name: str) -> tuple[OrderedClass, ...]:
    path = ORDERINGS[name][0]
    classes = _SHORT_CLASSES if name in SHORT_ORDERINGS else frozenset(CLASS_INDEX)
    rows = _parse(path.read_text(encoding="utf-8"), str(path), classes)
    if any(r.combos != len(CLASS_COMBOS[CLASS_INDEX[r.name]]) for r in rows):
        raise RuntimeError(f"corrupt hand ordering file {path}")
    return rows


def ordering_names() -> list[str]:
    """The names a ``x%@name`` item may use: the shipped orderings, then loaded ones."""
    return [*ORDERINGS, *_USER]


def describe(name: str) -> str:
    """What an ordering ranks by, in words."""
    if name in ORDERINGS:
        return ORDERINGS[name][1]
    return _USER[name][1]


def load_ordering(path: str | Path, name: str = "file") -> str:
    """Load an ordering of the 169 classes (best first; one class per line, optionally after its
    rank, ``#`` comments) from ``path`` and make it usable as ``x%@name``; returns ``name``.

    >>> import tempfile, os
    >>> from pokerlab.ranges._combos import CLASS_NAMES
    >>> with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
    ...     _ = f.write("\\n".join(reversed(CLASS_NAMES)))
    >>> load_ordering(f.name, "mine"), [c.name for c in hand_ordering("mine")[:2]]
    ('mine', ['22', '32o'])
    >>> os.unlink(f.name)
    """
    if not isinstance(name, str) or not name.isidentifier():
        shown = f"'{shorten(name)}'" if isinstance(name, str) else described(name)
        raise RangeError(f"an ordering name is letters, digits and '_', not {shown}", field="name")
    if name in ORDERINGS:
        raise RangeError(
            f"'{name}' is a shipped ordering; load a file under another name", field="name"
        )
    if not isinstance(path, str | os.PathLike):
        raise RangeError(
            f"an ordering file is a path, not {described(path)}",
            field="path",
        )
    with blame("path"):
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RangeError(f"cannot read the ordering file '{path}': {exc.strerror}") from None
        except UnicodeDecodeError as exc:  # a binary file, or another encoding
            raise RangeError(
                f"cannot read the ordering file '{path}': not UTF-8 text (byte "
                f"0x{exc.object[exc.start]:02x} at offset {exc.start})"
            ) from None
        _USER[name] = (_parse(text, f"file '{path}'"), f"the ordering in {path}")
    _cumulative.cache_clear()
    return name


def hand_ordering(name: str = DEFAULT_ORDERING) -> tuple[OrderedClass, ...]:
    """The classes of an ordering (169, or the short deck's 81), best first.

    >>> [c.name for c in hand_ordering()[:3]], hand_ordering("sc")[0].name
    (['AA', 'KK', 'QQ'], 'AA')
    """
    known = ", ".join(ordering_names())
    if not isinstance(name, str):  # [] in a dict was a TypeError
        raise RangeError(
            f"an ordering is named by text ({known}), not {described(name)}",
            field="name",
        )
    if name in ORDERINGS:
        return _shipped(name)
    if name in _USER:
        return _USER[name][0]
    raise RangeError(
        f"unknown ordering '{name}': use one of {known}, or load one first (load_ordering(path, "
        f"'{name}'); `pokerlab range --ordering-file PATH` loads it as 'file')",
        field="name",
    )


@cache
def _cumulative(name: str) -> tuple[int, ...]:
    total = 0
    out = [0]
    for row in hand_ordering(name):
        total += row.combos
        out.append(total)
    return tuple(out)


def ordering_combos(name: str = DEFAULT_ORDERING) -> int:
    """The combos an ordering ranks, which its percentages are of: 1,326 (630 for the short
    deck's)."""
    return _cumulative(name)[-1]


def top_count(percent: float, name: str = DEFAULT_ORDERING) -> int:
    """How many classes (from the top of the ordering) make the top ``percent`` %."""
    target = percent / 100.0 * ordering_combos(name) - _EPSILON
    for k, combos in enumerate(_cumulative(name)):
        if combos >= target:
            return k
    return len(hand_ordering(name))


def top_classes(percent: float, name: str = DEFAULT_ORDERING) -> list[int]:
    """Grid indices of the classes in the top ``percent`` % (``0 <= percent <= 100``).

    >>> from pokerlab.ranges._combos import CLASS_NAMES
    >>> [CLASS_NAMES[c] for c in top_classes(1)]
    ['AA', 'KK', 'QQ']
    """
    return [CLASS_INDEX[row.name] for row in hand_ordering(name)[: top_count(percent, name)]]
