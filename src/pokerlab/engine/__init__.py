"""The equity engine: exact enumeration and unbiased Monte Carlo (see :func:`equity`)."""

from pokerlab.engine.api import equity
from pokerlab.engine.result import EquityResult, PlayerEquity

__all__ = ["EquityResult", "PlayerEquity", "equity"]
