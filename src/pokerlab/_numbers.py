"""What counts as a whole or a real number in an argument: any integer or real type (numpy's
too), never a bool."""

from __future__ import annotations

from decimal import Decimal
from numbers import Integral, Real

__all__ = ["counted", "is_real", "is_whole", "shown_number"]


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


def counted(count: int, noun: str) -> str:
    """``count`` and ``noun``, plural unless the count is one, as messages write them.

    >>> counted(1, "deal"), counted(1712304, "deal"), counted(0, "more cell")
    ('1 deal', '1,712,304 deals', '0 more cells')
    """
    return f"{count:,} {noun}{'s' * (count != 1)}"
