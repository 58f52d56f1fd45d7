"""What :class:`~pokerlab.ranges.Range` and :class:`~pokerlab.ranges.pattern.PatternRange` take
besides text: arrays of card codes and lists of weights, checked the one way both constructors
share, each failure a :class:`~pokerlab.errors.RangeError`.

A card code is a whole number (a float or a bool is none, as :class:`~pokerlab.cards.Card` says),
and a weight a real number (never a bool, a string or ``None``, as :mod:`pokerlab._numbers` says).

>>> card_rows(np.array([[50.9, 0.2]]), "combos")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
pokerlab.errors.RangeError: combos must be integer card codes or card text, not ... float64
>>> weight_values([True], 1, "combos")
Traceback (most recent call last):
...
pokerlab.errors.RangeError: weights must be numbers between 0 and 1: True at index 0 is a bool
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_real, shown_number
from pokerlab.errors import RangeError, described, shorten

__all__ = ["card_rows", "weight_values"]

_LISTED_KINDS = "USO"  # text, bytes and Python objects: read element by element, as a list is
_NUMBER_KINDS = "iuf"  # integers and floats; not bool, complex, dates
_PLAIN = (float, int)  # exact types (a bool is an int subclass): real numbers, seen at once


def card_rows(
    array: NDArray[Any], what: str, width: int | None = None
) -> NDArray[np.int64] | list[Any]:
    """An array of ``what`` (``"combos"``, ``"holdings"``) as the constructors read it: integer
    codes as an ``(n, width)`` ``int64`` array, each code in 0..51; text or objects (card names,
    a mix) as the list of its rows (or of its items, when 1-D), for the caller to read as it reads
    a list. Any other dtype is refused: ``astype(int64)`` truncated ``50.9`` to the Ah and read
    ``True`` as the 2d."""
    if array.dtype.kind in _LISTED_KINDS and array.ndim in (1, 2):
        rows: list[Any] = array.tolist()
        return rows
    if array.ndim != 2 or (width is not None and array.shape[1] != width):
        cards = "cards" if width is None else width
        raise RangeError(f"{what} must have shape (n, {cards}), not {array.shape}")
    if not np.issubdtype(array.dtype, np.integer):
        raise RangeError(
            f"{what} must be integer card codes or card text, not an array of dtype {array.dtype}"
        )
    codes = array.astype(np.int64)  # a uint64 past int64 wraps negative: refused below
    bad = np.flatnonzero(((codes < 0) | (codes > 51)).any(axis=1))
    if len(bad):
        k = int(bad[0])
        raise RangeError(f"{what} must be card codes in 0..51: row {k} is {array[k].tolist()}")
    return codes


def weight_values(weights: object, count: int, what: str) -> NDArray[np.float64]:
    """``weights`` (an iterable or a 1-D array of numbers, one per item of ``what``, ``count``
    of them) as ``float64``, each checked to be a number between 0 and 1."""
    if isinstance(weights, np.ndarray) and weights.dtype.kind not in _LISTED_KINDS:
        if weights.ndim != 1 or weights.dtype.kind not in _NUMBER_KINDS:
            raise RangeError(
                "weights must be numbers between 0 and 1, not an array of dtype "
                f"{weights.dtype} and shape {weights.shape}"
            )
        values = weights.astype(np.float64)
    elif isinstance(weights, Iterable) and not isinstance(weights, str | bytes | bytearray):
        values = _weights_of_list(list(weights))
    else:
        raise RangeError(
            f"weights must be a list of numbers between 0 and 1, one per {what[:-1]}, not "
            f"{described(weights)}"
        )
    if len(values) != count:
        raise RangeError(f"{count} {what} but {len(values)} weights")
    bad = np.flatnonzero(~((values >= 0) & (values <= 1)))
    if len(bad):
        k = int(bad[0])
        raise RangeError(f"weight {float(values[k])!r} at index {k}: a weight is between 0 and 1")
    return values


def _weights_of_list(listed: list[Any]) -> NDArray[np.float64]:
    for index, value in enumerate(listed):  # float(True) was 1.0, float('0.5') 0.5: no weights
        if type(value) not in _PLAIN and not is_real(value):
            raise RangeError(
                f"weights must be numbers between 0 and 1: {shorten(shown_number(value))} at "
                f"index {index} is a {type(value).__name__}"
            )
    try:
        return np.array([float(value) for value in listed], dtype=np.float64)
    except OverflowError:  # an int past the floats: far above 1, refused by the caller
        return np.array([max(-1, min(value, 2)) for value in listed], dtype=np.float64)
