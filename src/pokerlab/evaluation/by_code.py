"""One hand's value by an evaluator code (:mod:`pokerlab.evaluation.codes`): the Python-level
evaluators behind the codes a :class:`~pokerlab.games.Game` names, so a caller that holds a game
asks what it evaluates, never which game it is.

>>> from pokerlab.cards import parse_cards
>>> high_value(HighEval.OMAHA, parse_cards("AsKsQd2c"), parse_cards("Js Ts 9h")).description
'Straight, King high'
>>> low_value_of(LowEval.EIGHT, parse_cards("Ah 2c 3d 4s 8h Kd Kc"), []).description
'8-4-3-2-A'
>>> low_value_of(LowEval.OMAHA_EIGHT, parse_cards("AsKsQd2c"), parse_cards("Js Ts 3h")) is None
True
"""

from __future__ import annotations

from pokerlab.cards import Card
from pokerlab.evaluation.codes import SHORT_DECK_RULES, HighEval, LowEval
from pokerlab.evaluation.high import HandValue, evaluate
from pokerlab.evaluation.low import LowValue, evaluate_a5, evaluate_eight
from pokerlab.evaluation.omaha import evaluate_omaha, evaluate_omaha_low
from pokerlab.evaluation.short_deck import evaluate_short_deck

__all__ = ["high_value", "low_value_of"]


def high_value(code: HighEval, hole: list[Card], board: list[Card]) -> HandValue | None:
    """The high value of ``hole`` with ``board`` by ``code`` (``None`` for ``HighEval.NONE``):
    the best five of all the cards, by short-deck rules for the short-deck codes, or Omaha's
    two hole cards and three board cards."""
    if code == HighEval.NONE:
        return None
    if code == HighEval.OMAHA:
        return evaluate_omaha(hole, board)
    cards = [*hole, *board]
    if code in SHORT_DECK_RULES:
        return evaluate_short_deck(cards, straight_beats_trips=SHORT_DECK_RULES[code])
    return evaluate(cards)


def low_value_of(code: LowEval, hole: list[Card], board: list[Card]) -> LowValue | None:
    """The low value of ``hole`` with ``board`` by ``code``: ``None`` for ``LowEval.NONE`` and
    where an 8-or-better low does not qualify."""
    if code == LowEval.NONE:
        return None
    if code == LowEval.OMAHA_EIGHT:
        return evaluate_omaha_low(hole, board)
    cards = [*hole, *board]
    return evaluate_a5(cards) if code == LowEval.A5 else evaluate_eight(cards)
