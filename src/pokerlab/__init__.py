"""pokerlab: who wins, how often, with which outs — fast exact and Monte Carlo poker equity.

>>> import pokerlab
>>> pokerlab.evaluate("AhKh QhJhTh 2c 3d").description
'Royal Flush'

The public API lives here; submodules with a leading underscore are private.
"""

from pokerlab.analysis.distribution import Distribution, PlayerDistribution, equity_distribution
from pokerlab.analysis.hits import HitsReport, hits
from pokerlab.analysis.outs import OutsReport, outs
from pokerlab.analysis.query import QueryResult, query
from pokerlab.cards import Card, cards_from_mask, cards_to_mask, deck, format_cards, parse_cards

# The equity engine is the package `pokerlab.engine`; `pokerlab.equity` is its entry function.
# Neither import loads numba.
from pokerlab.engine.api import equity
from pokerlab.engine.result import EquityResult, PlayerEquity
from pokerlab.errors import (
    CancelledError,
    CardError,
    ClusterError,
    DuplicateCardError,
    EmptyRangeError,
    GameError,
    PokerlabError,
    QueryError,
    RangeError,
    TooLargeError,
)
from pokerlab.evaluation import (
    HandCategory,
    HandValue,
    LowValue,
    evaluate,
    evaluate_a5,
    evaluate_batch,
    evaluate_eight,
    evaluate_omaha,
    evaluate_omaha_low,
    evaluate_short_deck,
)
from pokerlab.games import GAMES, Game, get_game
from pokerlab.ranges import Range, hand_ordering
from pokerlab.ranges.pattern import PatternRange
from pokerlab.scale import SpotResult, batch

__version__ = "0.1.0"

__all__ = [
    "GAMES",
    "CancelledError",
    "Card",
    "CardError",
    "ClusterError",
    "Distribution",
    "DuplicateCardError",
    "EmptyRangeError",
    "EquityResult",
    "Game",
    "GameError",
    "HandCategory",
    "HandValue",
    "HitsReport",
    "LowValue",
    "OutsReport",
    "PatternRange",
    "PlayerDistribution",
    "PlayerEquity",
    "PokerlabError",
    "QueryError",
    "QueryResult",
    "Range",
    "RangeError",
    "SpotResult",
    "TooLargeError",
    "__version__",
    "batch",
    "cards_from_mask",
    "cards_to_mask",
    "deck",
    "equity",
    "equity_distribution",
    "evaluate",
    "evaluate_a5",
    "evaluate_batch",
    "evaluate_eight",
    "evaluate_omaha",
    "evaluate_omaha_low",
    "evaluate_short_deck",
    "format_cards",
    "get_game",
    "hand_ordering",
    "hits",
    "outs",
    "parse_cards",
    "query",
]
