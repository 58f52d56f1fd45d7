"""The Omaha "top x%" rule: the shipped orderings of 4- and 5-card Omaha hands.

Each ordering (``_data/omaha4_order.npz``, ``_data/omaha5_order.npz``, written by
:mod:`pokerlab.ranges._omaha_order_gen`, whose docstring gives the definition: Monte Carlo
equity against one random hand, per suit-isomorphism class) lists the classes best first. As in
hold'em, ``x%`` is the shortest prefix of whole classes whose hands reach ``x`` percent of all
hands (270,725 with 4 cards, 2,598,960 with 5), and ``a%-b%`` is ``top(b)`` minus ``top(a)``.
"""

from __future__ import annotations

import itertools
from functools import cache

import numpy as np
from numpy.typing import NDArray

from pokerlab.ranges._omaha_order_gen import data_file

__all__ = ["omaha_ordering", "top_class_count", "top_masks"]

_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.uint8)


@cache
def omaha_ordering(n_hole: int) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.float64]]:
    """Representatives (best first), hands per class and estimated equities."""
    with np.load(data_file(n_hole)) as data:
        return data["reps"], data["counts"].astype(np.int64), data["equity"]


def top_class_count(n_hole: int, percent: float) -> int:
    """How many classes from the top make the top ``percent`` % of the hands."""
    _, counts, _ = omaha_ordering(n_hole)
    cumulative = np.cumsum(counts)
    target = percent / 100.0 * cumulative[-1] - 1e-9
    return int(np.searchsorted(cumulative, target, side="left") + 1) if target > 0 else 0


@cache
def top_masks(n_hole: int, percent: float) -> NDArray[np.uint64]:
    """The sorted card masks of every hand in the top ``percent`` %."""
    reps, _, _ = omaha_ordering(n_hole)
    chosen = reps[: top_class_count(n_hole, percent)]
    if not len(chosen):
        return np.zeros(0, dtype=np.uint64)
    ranks, suits = chosen & ~np.uint8(3), chosen & np.uint8(3)
    images = []
    for perm in _PERMS:
        codes = (ranks | perm[suits]).astype(np.uint64)
        images.append(np.bitwise_or.reduce(np.uint64(1) << codes, axis=1))
    return np.unique(np.concatenate(images))
