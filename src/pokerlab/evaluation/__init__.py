"""Hand evaluators, one module each: ``high`` (5-7 card high hands), ``low`` (A-5 and
8-or-better lows), ``omaha`` (two hole + three board, high and 8-or-better low), ``deuce7``,
``short_deck`` (6+ hold'em's high hands)."""

from pokerlab.evaluation.high import (
    HandCategory,
    HandValue,
    category_of,
    describe,
    evaluate,
    evaluate_batch,
)
from pokerlab.evaluation.low import LowValue, a5_batch, eight_batch, evaluate_a5, evaluate_eight
from pokerlab.evaluation.omaha import (
    evaluate_omaha,
    evaluate_omaha_low,
    omaha_batch,
    omaha_low_batch,
)
from pokerlab.evaluation.short_deck import evaluate_short_deck, short_deck_batch

__all__ = [
    "HandCategory",
    "HandValue",
    "LowValue",
    "a5_batch",
    "category_of",
    "describe",
    "eight_batch",
    "evaluate",
    "evaluate_a5",
    "evaluate_batch",
    "evaluate_eight",
    "evaluate_omaha",
    "evaluate_omaha_low",
    "evaluate_short_deck",
    "omaha_batch",
    "omaha_low_batch",
    "short_deck_batch",
]
