"""Equity: exact enumeration and unbiased Monte Carlo (see :func:`equity`)."""

from pokerlab.equity.api import equity
from pokerlab.equity.result import EquityResult, PlayerEquity

__all__ = ["EquityResult", "PlayerEquity", "equity"]
