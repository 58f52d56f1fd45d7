"""Analysis built on the engines: outs per street, board hits (more: draw decisions, bots)."""

from pokerlab.analysis.hits import CategoryCount, HitsReport, hits
from pokerlab.analysis.outs import OutsReport, RunoutTotals, StreetOuts, outs

__all__ = [
    "CategoryCount",
    "HitsReport",
    "OutsReport",
    "RunoutTotals",
    "StreetOuts",
    "hits",
    "outs",
]
