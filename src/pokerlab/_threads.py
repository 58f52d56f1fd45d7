"""How many threads a computation uses: every core this process may run on by default
(``os.sched_getaffinity``), capped by ``NUMBA_NUM_THREADS`` when it is set."""

from __future__ import annotations

import os
from numbers import Integral

from pokerlab.errors import GameError

__all__ = ["resolve_threads"]


def _available() -> int:
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        cores = os.cpu_count() or 1
    cap = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if cap.isdigit() and int(cap) > 0:
        cores = min(cores, int(cap))
    return max(cores, 1)


def resolve_threads(threads: int | None) -> int:
    """``threads`` checked (a positive integer), or every available core for ``None``.

    >>> resolve_threads(2)
    2
    """
    if threads is None:
        return _available()
    if isinstance(threads, bool) or not isinstance(threads, Integral) or threads < 1:
        raise GameError(f"threads must be a positive integer, got {threads!r}", field="threads")
    return int(threads)
