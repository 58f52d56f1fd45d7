"""Analysis built on the engines: outs per street, board hits, equity distributions (more:
draw decisions, bots)."""

from pokerlab.analysis.distribution import Distribution, PlayerDistribution, equity_distribution
from pokerlab.analysis.hits import CategoryCount, HitsReport, hits
from pokerlab.analysis.outs import OutsReport, RunoutTotals, StreetOuts, outs

__all__ = [
    "CategoryCount",
    "Distribution",
    "HitsReport",
    "OutsReport",
    "PlayerDistribution",
    "RunoutTotals",
    "StreetOuts",
    "equity_distribution",
    "hits",
    "outs",
]
