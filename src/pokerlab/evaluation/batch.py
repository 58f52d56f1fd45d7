"""Validation shared by the batch evaluators (``evaluate_batch``, ``a5_batch``,
``omaha_batch`` ...): array shapes and dtypes, and rows of distinct card codes, each failure a
:class:`~pokerlab.errors.CardError` naming the function and, for a bad row, its index and codes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NoReturn

import numpy as np
from numpy.typing import NDArray

from pokerlab.errors import CardError

__all__ = ["CardRows", "card_array", "ensure_card_rows", "raise_bad_row"]

CardRows = NDArray[np.integer[Any]] | Sequence[Sequence[int]]
"""Rows of card codes as the batch evaluators take them: an integer array of shape ``(n, k)``,
or a list of equally long lists of ints (read with ``np.asarray``)."""


def card_array(
    codes: Any, name: str, sizes: tuple[int, ...], what: str = "", field: str = "codes"
) -> NDArray[Any]:
    """``codes`` as a C-contiguous 2-D integer array whose row length is one of ``sizes``
    (values unchecked). ``what`` names the argument when a function takes several arrays, and
    ``field`` is its parameter's name (the errors' ``field``).
    Another layout (Fortran order, a strided view) is copied: the kernels are compiled for one
    layout, and a copy costs far less than compiling them again for another."""
    wanted = f"{sizes[0]}..{sizes[-1]}" if len(sizes) > 1 else str(sizes[0])
    label = f"{name}: {what}" if what else name
    try:
        arr = np.asarray(codes)
    except (ValueError, TypeError):  # rows of unequal lengths (numpy's "inhomogeneous shape")
        raise CardError(
            f"{label}: expected an array of shape (n, {wanted}): the rows are not all as long",
            field=field,
        ) from None
    if arr.ndim != 2 or arr.shape[1] not in sizes:
        raise CardError(
            f"{label}: expected an array of shape (n, {wanted}), got {arr.shape}", field=field
        )
    if not np.issubdtype(arr.dtype, np.integer):
        raise CardError(f"{label}: expected integer card codes, got dtype {arr.dtype}", field=field)
    return arr if arr.flags.c_contiguous else np.ascontiguousarray(arr)


def raise_bad_row(name: str, *arrays: NDArray[Any]) -> NoReturn:
    """Raise for the first row (of the arrays side by side) that is not distinct codes 0..51."""
    from pokerlab.evaluation._kernels import first_invalid_row

    rows = np.concatenate(arrays, axis=1) if len(arrays) > 1 else arrays[0]
    # int64 holds every code of any integer dtype (a wrapped uint64 reads as negative: invalid)
    bad = int(first_invalid_row(np.ascontiguousarray(rows, dtype=np.int64)))
    raise CardError(
        f"{name}: row {bad} is not {rows.shape[1]} distinct card codes in 0..51: "
        f"{rows[bad].tolist()}",
        field="codes" if len(arrays) == 1 else None,  # one row of two arrays: either's
    )


def ensure_card_rows(name: str, first: NDArray[Any], second: NDArray[Any] | None = None) -> None:
    """Raise unless every row of ``first`` (with the same row of ``second``) holds distinct card
    codes in 0..51. One compiled pass (a popcount sum); the slow search runs only on failure."""
    from pokerlab.evaluation._kernels import CARD_MASK, rows_hold_distinct_cards

    other = np.empty((first.shape[0], 0), dtype=np.uint8) if second is None else second
    if not rows_hold_distinct_cards(first, other, CARD_MASK):
        raise_bad_row(name, first, other)
