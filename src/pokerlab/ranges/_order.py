"""The shipped ordering of the 169 classes and the "top x%" rule.

The ordering (best first) is read lazily from ``_data/holdem_order.txt``, which
:mod:`pokerlab.ranges._order_gen` writes: all-in equity against three random hands, estimated by
a seeded Monte Carlo; the file's header names the command, the seed and the number of deals.

Top x%
------
``top_classes(x)`` is the *shortest prefix* of the ordering whose combo count reaches ``x`` percent
of the 1,326 combos, i.e. the first ``k`` classes where ``k`` is the least with
``combos(first k) >= x / 100 * 1326``. Whole classes only: ``1%`` (13.26 combos) is
``AA, KK, QQ`` (18 combos, 1.36 %), ``0%`` is nothing and ``100%`` is every class. A band
``a%-b%`` is ``top(b) - top(a)`` (so ``0%-b%`` is ``top(b)``), hence ``top(a) ⊆ top(b)`` for
``a <= b`` and the bands ``a%-b%`` and ``b%-c%`` tile ``a%-c%``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import NamedTuple

from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_INDEX, COMBO_COUNT

__all__ = ["DATA_FILE", "OrderedClass", "hand_ordering", "top_classes"]

DATA_FILE = Path(__file__).with_name("_data") / "holdem_order.txt"
_EPSILON = 1e-9


class OrderedClass(NamedTuple):
    """One line of the ordering: class name, its combos, equity against three random hands and
    the Monte Carlo standard error of that equity."""

    name: str
    combos: int
    equity: float
    stderr: float


@cache
def hand_ordering() -> tuple[OrderedClass, ...]:
    """The 169 classes, best first (read once from the shipped data file).

    >>> [c.name for c in hand_ordering()[:3]]
    ['AA', 'KK', 'QQ']
    """
    rows: list[OrderedClass] = []
    for line in DATA_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        rank, name, combos, equity, stderr, _ = line.split()
        if int(rank) != len(rows) + 1 or int(combos) != len(CLASS_COMBOS[CLASS_INDEX[name]]):
            raise RuntimeError(f"corrupt hand ordering file {DATA_FILE}: line {line!r}")
        rows.append(OrderedClass(name, int(combos), float(equity), float(stderr)))
    if sorted(r.name for r in rows) != sorted(CLASS_INDEX):
        raise RuntimeError(f"corrupt hand ordering file {DATA_FILE}: not the 169 classes")
    return tuple(rows)


@cache
def _cumulative() -> tuple[int, ...]:
    total = 0
    out = [0]
    for row in hand_ordering():
        total += row.combos
        out.append(total)
    return tuple(out)


def top_count(percent: float) -> int:
    """How many classes (from the top of the ordering) make the top ``percent`` %."""
    target = percent / 100.0 * COMBO_COUNT - _EPSILON
    for k, combos in enumerate(_cumulative()):
        if combos >= target:
            return k
    return len(hand_ordering())


def top_classes(percent: float) -> list[int]:
    """Grid indices of the classes in the top ``percent`` % (``0 <= percent <= 100``).

    >>> from pokerlab.ranges._combos import CLASS_NAMES
    >>> [CLASS_NAMES[c] for c in top_classes(1)]
    ['AA', 'KK', 'QQ']
    """
    return [CLASS_INDEX[row.name] for row in hand_ordering()[: top_count(percent)]]
