"""Equality for result dataclasses whose fields may be numpy arrays or an unknown (NaN) number."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator
from typing import Any, ClassVar

import numpy as np

__all__ = ["ArrayFields", "UnknownFloats"]


def _compared(result: object) -> Iterator[Any]:
    """The values of the fields of ``result`` (a dataclass) that take part in comparison."""
    for f in dataclasses.fields(result):  # type: ignore[arg-type]
        if f.compare:
            yield getattr(result, f.name)


def _unknown(value: object) -> bool:
    return isinstance(value, float) and math.isnan(value)


def _same(mine: Any, theirs: Any) -> bool:
    """Whether two field values are the same answer: arrays element by element, and two
    unknown (NaN) numbers alike, as JSON writes both as null."""
    if isinstance(mine, np.ndarray) or isinstance(theirs, np.ndarray):
        floats = all(np.asarray(a).dtype.kind in "fc" for a in (mine, theirs))
        return bool(np.array_equal(mine, theirs, equal_nan=floats))
    return (_unknown(mine) and _unknown(theirs)) or bool(mine == theirs)


def _fields_equal(result: object, other: object) -> bool:
    return all(_same(a, b) for a, b in zip(_compared(result), _compared(other), strict=True))


class UnknownFloats:
    """A mixin for ``@dataclass(frozen=True, eq=False)`` results with a float that may be NaN
    (unknown, such as the standard error of one sampled deal): ``==`` reads two NaN as the same
    unknown (the generated ``__eq__`` made a result unequal to its own pickled copy), and the
    hash agrees."""

    __slots__ = ()

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return _fields_equal(self, other)

    def __hash__(self) -> int:
        return hash(tuple(None if _unknown(v) else v for v in _compared(self)))


class ArrayFields:
    """A mixin for ``@dataclass(frozen=True, eq=False)`` results with array fields: ``==``
    compares the fields that take part in comparison, arrays element by element (the generated
    ``__eq__`` raised numpy's "truth value of an array is ambiguous"), NaN as in
    :class:`UnknownFloats`; such a result is not hashable (its generated hash failed on the
    arrays)."""

    __slots__ = ()
    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return _fields_equal(self, other)
