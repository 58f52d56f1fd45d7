"""pokerlab: who wins, how often, with which outs — fast exact and Monte Carlo poker equity.

>>> import pokerlab
>>> pokerlab.evaluate("AhKh QhJhTh 2c 3d").description
'Royal Flush'

The public API lives here; submodules with a leading underscore are private.
"""

from pokerlab.analysis.outs import OutsReport, outs
from pokerlab.cards import Card, cards_from_mask, cards_to_mask, deck, format_cards, parse_cards

# Bound after the subpackages are imported, so `pokerlab.equity` is the function (the package
# stays importable as `pokerlab.equity.api` etc.). Neither import loads numba.
from pokerlab.equity.api import equity
from pokerlab.equity.result import EquityResult, PlayerEquity
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
from pokerlab.ranges import Range, hand_ordering

__version__ = "0.1.0"

__all__ = [
    "CancelledError",
    "Card",
    "CardError",
    "DuplicateCardError",
    "EmptyRangeError",
    "EquityResult",
    "GameError",
    "HandCategory",
    "HandValue",
    "OutsReport",
    "PlayerEquity",
    "PokerlabError",
    "Range",
    "RangeError",
    "TooLargeError",
    "__version__",
    "cards_from_mask",
    "cards_to_mask",
    "deck",
    "equity",
    "evaluate",
    "evaluate_batch",
    "format_cards",
    "hand_ordering",
    "outs",
    "parse_cards",
]
