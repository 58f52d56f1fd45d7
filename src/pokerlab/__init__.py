"""pokerlab: who wins, how often, with which outs — fast exact and Monte Carlo poker equity.

>>> import pokerlab
>>> pokerlab.evaluate("AhKh QhJhTh 2c 3d").description
'Royal Flush'

The public API lives here; submodules with a leading underscore are private.
"""

from pokerlab.cards import Card, cards_from_mask, cards_to_mask, deck, format_cards, parse_cards
from pokerlab.errors import (
    CancelledError,
    CardError,
    DuplicateCardError,
    EmptyRangeError,
    GameError,
    PokerlabError,
    RangeError,
    TooLargeError,
)
from pokerlab.evaluation import HandCategory, HandValue, evaluate, evaluate_batch

__version__ = "0.1.0"

__all__ = [
    "CancelledError",
    "Card",
    "CardError",
    "DuplicateCardError",
    "EmptyRangeError",
    "GameError",
    "HandCategory",
    "HandValue",
    "PokerlabError",
    "RangeError",
    "TooLargeError",
    "__version__",
    "cards_from_mask",
    "cards_to_mask",
    "deck",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "parse_cards",
]
