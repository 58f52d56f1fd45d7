"""How many threads a computation may use: one rule for every module that runs in parallel.

The default is every core this process may run on (``os.sched_getaffinity``), capped by
``NUMBA_NUM_THREADS`` when that is set. An explicit count must be a positive integer; it is not
capped (asking for more threads than cores is allowed, and only slower).

>>> resolve_threads(3)
3
>>> resolve_threads(None) >= 1
True
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from pokerlab._numbers import is_whole
from pokerlab.errors import GameError

__all__ = ["affinity_cores", "asked_threads", "available_cores", "resolve_threads", "threads_asked"]


def affinity_cores() -> int:
    """Cores this process may run on (``os.sched_getaffinity``: a CPU set or ``taskset``
    narrows them, where ``os.cpu_count()`` counts the machine's), at least one."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def available_cores() -> int:
    """Cores this process may use (:func:`affinity_cores`), capped by ``NUMBA_NUM_THREADS``
    when set."""
    cores = affinity_cores()
    cap = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    if cap.isdigit() and int(cap) > 0:
        cores = min(cores, int(cap))
    return max(1, cores)


def numba_threads_problem() -> str | None:
    """What is wrong with ``NUMBA_NUM_THREADS`` for numba, which refuses 0 or a negative count
    with a traceback when it loads (an interface says it in one line first); None when fine."""
    value = os.environ.get("NUMBA_NUM_THREADS", "").strip()
    try:
        count = int(value)
    except ValueError:
        return None  # unset, or not a number: numba goes on with every core
    if count > 0:
        return None
    return f"NUMBA_NUM_THREADS must be 1 or more (numba's threads), got {value!r}"


def resolve_threads(threads: int | None, name: str = "threads") -> int:
    """``threads``, checked, or :func:`available_cores` when it is ``None``.

    Raises :class:`~pokerlab.errors.GameError` (a ``ValueError``, ``field=name``) for 0, a
    negative count or anything that is not an integer; ``name`` is the argument's name in the
    message (``"processes"`` for :func:`pokerlab.analysis.warm.warm`).
    """
    if threads is None:
        return available_cores()
    if not is_whole(threads):  # numpy's integers too; not a bool, a float or a string
        raise GameError(f"{name} must be a positive integer, got {threads!r}", field=name)
    threads = int(threads)
    if threads < 1:
        raise GameError(f"{name} must be at least 1, got {threads}", field=name)
    return threads


asked_threads: ContextVar[int | None] = ContextVar("asked_threads", default=None)
"""The threads the public call running in this context was given (``None``: none given, numba's
own count), for parallel kernels deep below it that take no ``threads`` argument, such as the
listing of a wide pattern range: read where a kernel runs, set without importing numba (a
heads-up hold'em answer from the shipped table never loads it)."""


@contextmanager
def threads_asked(threads: int) -> Iterator[None]:
    """Inside the block, :data:`asked_threads` is ``threads``."""
    token = asked_threads.set(threads)
    try:
        yield
    finally:
        asked_threads.reset(token)
