"""Equality for result dataclasses that hold numpy arrays."""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

__all__ = ["ArrayFields"]


class ArrayFields:
    """A mixin for ``@dataclass(frozen=True, eq=False)`` results with array fields: ``==``
    compares the fields that take part in comparison, arrays element by element (the generated
    ``__eq__`` raised numpy's "truth value of an array is ambiguous"); such a result is not
    hashable (its generated hash failed on the arrays)."""

    __slots__ = ()
    __hash__: ClassVar[None] = None  # type: ignore[assignment]

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            if not f.compare:
                continue
            mine: Any = getattr(self, f.name)
            theirs: Any = getattr(other, f.name)
            if isinstance(mine, np.ndarray) or isinstance(theirs, np.ndarray):
                floats = all(np.asarray(a).dtype.kind in "fc" for a in (mine, theirs))
                if not np.array_equal(mine, theirs, equal_nan=floats):
                    return False
            elif mine != theirs:
                return False
        return True
