"""Hand values that compare by one integer ``strength`` (larger is better, equal ties)."""

from __future__ import annotations

__all__ = ["StrengthOrdered"]


class StrengthOrdered:
    """Mixin for hand-value dataclasses (declare them ``eq=False``): ``==``, ``<``, ``<=``,
    ``>``, ``>=`` and ``hash`` by ``strength``. Values of different classes do not compare
    (a high value against a 2-7 value is a ``TypeError``, never a silent answer).

    >>> from pokerlab import evaluate
    >>> evaluate("AsKsQsJsTs") > evaluate("2c2d2h2s3c")
    True
    """

    __slots__ = ()
    strength: int

    def _key(self, other: object) -> int | None:
        return other.strength if type(other) is type(self) else None

    def __eq__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.strength == key

    def __lt__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.strength < key

    def __le__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.strength <= key

    def __gt__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.strength > key

    def __ge__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.strength >= key

    def __hash__(self) -> int:
        return hash(self.strength)
