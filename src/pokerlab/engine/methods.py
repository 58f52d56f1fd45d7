"""The computing methods a caller may ask for, read the same way by every entry point
(``pokerlab.equity``, ``equity_distribution``, ``draw.advise``, queries, batch spots)."""

from __future__ import annotations

from typing import Literal

from pokerlab.errors import GameError

__all__ = ["METHOD_CHOICES", "Method", "read_method"]

Method = Literal["auto", "exact", "monte-carlo", "mc"]
"""The method names as typed arguments take them (:func:`read_method` also takes any letter
case and ``montecarlo``)."""

_SPELLINGS = {
    "auto": "auto",
    "exact": "exact",
    "monte-carlo": "monte-carlo",
    "montecarlo": "monte-carlo",
    "mc": "monte-carlo",
}
METHOD_CHOICES = "auto, exact or monte-carlo (mc)"
"""The methods, as an error message lists them."""


def read_method(method: object) -> Literal["auto", "exact", "monte-carlo"]:
    """``method`` as ``"auto"``, ``"exact"`` or ``"monte-carlo"``: in any letter case, with
    ``mc`` and ``montecarlo`` for Monte Carlo (as game names are read in any case). Anything
    else raises :class:`~pokerlab.errors.GameError` (``field="method"``) listing the choices."""
    name = _SPELLINGS.get(method.strip().lower()) if isinstance(method, str) else None
    if name is None:
        shown = f"'{method}'" if isinstance(method, str) else repr(method)
        raise GameError(f"unknown method {shown}: use {METHOD_CHOICES}", field="method")
    return name  # type: ignore[return-value]
