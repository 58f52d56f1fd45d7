"""Shares printed as percentages in the command line's tables."""

from __future__ import annotations

import math

__all__ = ["percent", "stderr_percent"]


def percent(x: float, digits: int = 3) -> str:
    """``x`` (a share, 0..1) as a percentage with ``digits`` decimals.

    >>> percent(0.8125546), percent(0.5, 1)
    ('81.255%', '50.0%')
    """
    return f"{x * 100:.{digits}f}%"


def stderr_percent(x: float, digits: int = 3) -> str:
    """A sampled share's standard error as :func:`percent`, or ``unknown`` where it is NaN (a
    Monte Carlo run of fewer than two deals has no spread to measure).

    >>> stderr_percent(0.0012), stderr_percent(float("nan"))
    ('0.120%', 'unknown')
    """
    return "unknown" if math.isnan(x) else percent(x, digits)
