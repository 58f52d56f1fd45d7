"""What counts as a whole or a real number in an argument: any integer or real type (numpy's
too), never a bool."""

from __future__ import annotations

from decimal import Decimal
from numbers import Integral, Real

import numpy as np
from numpy.typing import NDArray

__all__ = ["counted", "is_real", "is_whole", "known_or_none", "shown_number", "tenths"]


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer (a bool is not a count)."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """Whether ``value`` is a real number (a bool is not one)."""
    return isinstance(value, Real) and not isinstance(value, bool)


def shown_number(value: object) -> str:
    """A refused number as a message shows it: its ``repr``, and for a ``Decimal`` (no
    :class:`numbers.Real`, so refused whatever its value) what to pass instead.

    >>> shown_number(2), shown_number(Decimal("0.5"))
    ('2', "Decimal('0.5') (a Decimal: pass a float)")
    """
    return f"{value!r} (a Decimal: pass a float)" if isinstance(value, Decimal) else repr(value)


def known_or_none(value: float | None) -> float | None:
    """A standard error as JSON writes it: ``None`` (null, unknown) for NaN, which is no JSON
    (a sampled estimate of one deal has no spread to tell).

    >>> known_or_none(float("nan")), known_or_none(0.25), known_or_none(None)
    (None, 0.25, None)
    """
    return None if value is None or value != value else value


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is one, as messages write them.

    >>> counted(1, "deal"), counted(1712304, "deal"), counted(0, "more cell")
    ('1 deal', '1,712,304 deals', '0 more cells')
    """
    return f"{count:,} {noun}{'s' * (count != 1)}"


_BOUNDARY_SLACK = 1e-9


def tenths(shares: NDArray[np.float64]) -> NDArray[np.int64]:
    """The tenth of 0..1 (0 to 9, 1 itself in the last) each share falls in, a share within
    1e-9 below a boundary counted at it: a share computed from float sums lands in the tenth its
    exact value names (1.2 / 3.0 is 0.39999999999999997, an equity of exactly 40 %).

    >>> tenths(np.array([0.0, 1.2 / 3.0, 0.95, 1.0])).tolist()
    [0, 4, 9, 9]
    """
    return np.floor(shares * 10 + _BOUNDARY_SLACK).astype(np.int64).clip(0, 9)
