"""The fixed tables of hold'em starting hands: the 1,326 combos, the 169 classes, the 13x13 grid.

Combo order
-----------
A combo is two distinct card codes stored higher code first. :data:`COMBOS` lists all 1,326 in
the *canonical order*: higher card descending, then lower card descending, so index 0 is
``AsAh`` and index 1,325 is ``2d2c``. :data:`COMBO_INDEX` maps ``[c1, c2]`` (either order) back.

Classes and the grid
--------------------
The 169 classes are named ``'AA'``, ``'AKs'``, ``'AKo'`` (higher rank first) and numbered in the
row-major order of the standard 13x13 grid: row ``i`` and column ``j`` both run from ace down to
deuce; pairs lie on the diagonal, suited classes above it (row rank higher), offsuit classes below
it (column rank higher). So class 0 is ``AA``, 1 is ``AKs``, 13 is ``AKo`` and 168 is ``22``.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANKS

__all__ = [
    "CLASS_COMBOS",
    "CLASS_INDEX",
    "CLASS_NAMES",
    "CLASS_OF_COMBO",
    "CLASS_OF_PAIR",
    "COMBOS",
    "COMBO_COUNT",
    "COMBO_INDEX",
    "GRID_SIZE",
    "class_name",
]

GRID_SIZE = len(RANKS)
COMBO_COUNT = 52 * 51 // 2


def class_name(high: int, low: int, suited: bool) -> str:
    """Name of the class of ranks ``high >= low`` (``0`` = deuce .. ``12`` = ace)."""
    if high == low:
        return RANKS[high] * 2
    if high < low:
        high, low = low, high
    return RANKS[high] + RANKS[low] + ("s" if suited else "o")


def _grid_name(row: int, col: int) -> str:
    r, c = GRID_SIZE - 1 - row, GRID_SIZE - 1 - col
    return class_name(max(r, c), min(r, c), suited=col > row)


def _build() -> tuple[
    NDArray[np.uint8],
    NDArray[np.int64],
    tuple[str, ...],
    NDArray[np.int64],
    NDArray[np.uint8],
]:
    combos = np.array(
        [(hi, lo) for hi in range(51, 0, -1) for lo in range(hi - 1, -1, -1)], dtype=np.uint8
    )
    index = np.full((52, 52), -1, dtype=np.int64)
    for i, (hi, lo) in enumerate(combos.tolist()):
        index[hi, lo] = index[lo, hi] = i
    names = tuple(_grid_name(r, c) for r in range(GRID_SIZE) for c in range(GRID_SIZE))
    by_name = {n: i for i, n in enumerate(names)}
    class_of_pair = np.zeros((52, 52), dtype=np.uint8)
    for a in range(52):
        for b in range(52):
            if a != b:
                class_of_pair[a, b] = by_name[class_name(a >> 2, b >> 2, (a & 3) == (b & 3))]
    class_of_combo = class_of_pair[combos[:, 0], combos[:, 1]].astype(np.int64)
    return combos, index, names, class_of_combo, class_of_pair


COMBOS, COMBO_INDEX, CLASS_NAMES, CLASS_OF_COMBO, CLASS_OF_PAIR = _build()
COMBOS.flags.writeable = False
COMBO_INDEX.flags.writeable = False
CLASS_OF_COMBO.flags.writeable = False
CLASS_OF_PAIR.flags.writeable = False
CLASS_INDEX = {name: i for i, name in enumerate(CLASS_NAMES)}
#: For each class (grid order), the canonical indices of its combos (6, 4 or 12 of them).
CLASS_COMBOS: tuple[NDArray[np.int64], ...] = tuple(
    np.flatnonzero(np.equal(CLASS_OF_COMBO, c)) for c in range(len(CLASS_NAMES))
)

assert len(CLASS_NAMES) == len(set(CLASS_NAMES)) == 169
assert sorted(len(c) for c in CLASS_COMBOS) == [4] * 78 + [6] * 13 + [12] * 78
assert len(COMBOS) == COMBO_COUNT
