"""What counts as a whole or a real number in an argument: any integer or real type (numpy's
too), never a bool."""

from __future__ import annotations

from numbers import Integral, Real

__all__ = ["is_real", "is_whole"]


def is_whole(value: object) -> bool:
    """Whether ``value`` is an integer (a bool is not a count)."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def is_real(value: object) -> bool:
    """Whether ``value`` is a real number (a bool is not one)."""
    return isinstance(value, Real) and not isinstance(value, bool)
