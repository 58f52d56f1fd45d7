"""Running numba's parallel kernels on a given number of threads."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["numba_threads"]


@contextmanager
def numba_threads(threads: int) -> Iterator[int]:
    """Inside the block, numba's parallel kernels called from this thread use ``threads``
    threads (at most ``NUMBA_NUM_THREADS``, numba's pool size); yields the count used."""
    import numba

    pool: int = numba.config.NUMBA_NUM_THREADS  # type: ignore[attr-defined]
    count = max(1, min(threads, pool))
    previous = numba.get_num_threads()
    numba.set_num_threads(count)
    try:
        yield count
    finally:
        numba.set_num_threads(previous)
