"""The evaluator tables every kernel of the engine reads, bundled into one argument."""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import numpy as np
from numpy.typing import NDArray

from pokerlab.evaluation._game_tables import load_game_values
from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK
from pokerlab.evaluation._tables import load_high_tables
from pokerlab.evaluation.codes import SHORT_DECK_RULES, HighEval, LowEval
from pokerlab.evaluation.short_deck import short_deck_values
from pokerlab.games import Game

__all__ = ["KernelTables", "kernel_tables"]


class KernelTables(NamedTuple):
    """Per-card additive key and mask, the perfect hash (``mult``, ``displace``) and the
    strength table ``values`` (the high table, the combined table of
    ``evaluation._game_tables`` when an Omaha or a low evaluator is needed, or the short-deck
    table of ``evaluation.short_deck`` of its rule for a code of ``SHORT_DECK_RULES``). A kernel
    unpacks it once at its top: ``card_key, card_mask, mult, displace, values = tables``."""

    card_key: NDArray[np.uint64]
    card_mask: NDArray[np.uint64]
    mult: np.uint64
    displace: NDArray[np.uint32]
    values: NDArray[np.uint16]


@cache
def _load(kind: str, straight_beats_trips: bool = False) -> KernelTables:
    t = load_high_tables()
    if kind == "short":
        values = short_deck_values(straight_beats_trips)
    elif kind == "combined":
        values = load_game_values()
    else:
        values = t.values
    return KernelTables(CARD_KEY, CARD_MASK, np.uint64(t.multiplier), t.displace, values)


def kernel_tables(game: Game | None = None) -> KernelTables:
    """The tables for ``game``'s evaluators (the high tables when ``game`` is ``None``)."""
    if game is not None and game.high in SHORT_DECK_RULES:
        return _load("short", SHORT_DECK_RULES[game.high])
    combined = game is not None and (game.high == HighEval.OMAHA or game.low != LowEval.NONE)
    return _load("combined" if combined else "high")
