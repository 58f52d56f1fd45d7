"""Which evaluator decides each half of a pot, as the integer codes the engine's kernels read.

A :class:`~pokerlab.games.Game` names its evaluators with these values, so the engine asks what a
game evaluates, never which game it is.

>>> int(HighEval.OMAHA), LowEval.EIGHT.name
(2, 'EIGHT')
"""

from __future__ import annotations

from enum import IntEnum

__all__ = ["SHORT_DECK_RULES", "HighEval", "LowEval", "kernel_high"]


class HighEval(IntEnum):
    """The high half: none (a low decides the whole pot), best five of all the player's cards
    and the board, Omaha (exactly two hole cards and three board cards), or best five ranked
    by short-deck rules (:mod:`pokerlab.evaluation.short_deck`: flush over full house, trips
    over straight, ``A-6-7-8-9``; the kernels read it as ``BEST5`` over the short-deck
    table), or by the short deck's other rule, a straight over trips
    (``SHORT_DECK_STRAIGHTS``, over its own table)."""

    NONE = 0
    BEST5 = 1
    OMAHA = 2
    SHORT_DECK = 3
    SHORT_DECK_STRAIGHTS = 4


SHORT_DECK_RULES: dict[HighEval, bool] = {
    HighEval.SHORT_DECK: False,
    HighEval.SHORT_DECK_STRAIGHTS: True,
}
"""The short deck's evaluator codes, each with whether its rule puts a straight over three of a
kind: the one place that knows which codes are short deck and which table each reads."""


def kernel_high(high: HighEval) -> int:
    """The high code a kernel is handed: a short-deck code is ``BEST5`` read over its own table
    (the kernels never see a short-deck code; the table carries the rule).

    >>> kernel_high(HighEval.SHORT_DECK_STRAIGHTS) == kernel_high(HighEval.BEST5) == 1
    True
    """
    return int(HighEval.BEST5) if high in SHORT_DECK_RULES else int(high)


class LowEval(IntEnum):
    """The low half: none, A-5 low of all the player's cards (razz), 8-or-better of all the
    player's cards (stud hi/lo), or 8-or-better with two hole and three board cards (Omaha)."""

    NONE = 0
    A5 = 1
    EIGHT = 2
    OMAHA_EIGHT = 3
