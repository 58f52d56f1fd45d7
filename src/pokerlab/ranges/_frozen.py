"""Immutability shared by the range classes: no attribute may be set or deleted after
construction, yet a range pickles, unpickles and copies (to worker processes, say)."""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["Frozen"]


class Frozen:
    """A base for classes with ``__slots__`` that fill their slots with ``object.__setattr__``
    while they are built and never change after."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable")

    def __setstate__(self, state: Any) -> None:
        """Unpickling: the default sets each slot with ``setattr``, which is refused, so a range
        pickled but never loaded (a process pool's worker died unpickling its arguments)."""
        slots = state[1] if isinstance(state, tuple) else state
        for name, value in (slots or {}).items():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            object.__setattr__(self, name, value)

    def __copy__(self) -> Frozen:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Frozen:
        return self
