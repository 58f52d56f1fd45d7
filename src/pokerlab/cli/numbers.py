"""Number option types that take ASCII digits only, as cards, ranges, weights and the query
language do: click's own (Python's ``int`` and ``float``) read any script's digits, so
``--trials １０００`` ran 1000 deals where ``--board ３h`` is refused."""

from __future__ import annotations

import math
from typing import Any

import click

__all__ = ["FLOAT", "INT", "FloatRange", "IntRange", "check_ascii"]


def check_ascii(
    kind: click.ParamType,  # type: ignore[type-arg]  # generic only from click 8.2
    value: Any,
    param: click.Parameter | None,
    ctx: click.Context | None,
) -> None:
    """Fail (click's usage error) on a text with a character outside ASCII."""
    if isinstance(value, str) and not value.isascii():
        kind.fail(f"{value!r}: write numbers with the digits 0-9", param, ctx)


class _AsciiNumber(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """Checks the text, then converts it as the next type in the class's order does."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        check_ascii(self, value, param, ctx)
        return super().convert(value, param, ctx)


class _Int(_AsciiNumber, click.types.IntParamType):
    pass


class _Float(_AsciiNumber, click.types.FloatParamType):
    pass


class IntRange(_AsciiNumber, click.IntRange):
    """``click.IntRange`` of ASCII digits (text that is no number: "not a valid integer", not
    click's "integer range")."""

    name = "integer"


class FloatRange(_AsciiNumber, click.FloatRange):
    """``click.FloatRange`` of ASCII digits, and no NaN: click's bounds let ``nan`` through
    (every comparison with it is false), so ``serve --max-seconds nan`` started a server
    whose every request failed. Text that is no number: "not a valid float", not click's
    "float range"."""

    name = "float"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        number = super().convert(value, param, ctx)
        if math.isnan(number):
            self.fail(f"{value!r} is not a number", param, ctx)
        return number


INT = _Int()
"""``type=int`` of ASCII digits."""
FLOAT = _Float()
"""``type=float`` of ASCII digits."""
