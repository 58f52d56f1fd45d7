"""Analysis built on the engines: outs per street (more to come: draw decisions, bots)."""

from pokerlab.analysis.outs import OutsReport, RunoutTotals, StreetOuts, outs

__all__ = ["OutsReport", "RunoutTotals", "StreetOuts", "outs"]
