"""numba's ``njit`` for pokerlab's kernels, with numba's on-disk cache made safe across processes.

Every kernel module imports ``njit`` from here, so importing any kernel first installs the lock
below (``import pokerlab`` alone still loads no numba).

numba saves a compiled overload by reading the function's index file, picking the first data
file name (``….1.nbc``, ``….2.nbc`` …) the index does not use, writing the index and then the
data. Two processes saving different overloads of one function at the same moment (``pokerlab
warm``'s processes, web workers, batch or Dask workers on a cold cache) can both pick the same
name: the index then maps one signature to the other's machine code, which numba loads without
checking, and the overload the first process wrote is dropped from the index. A reader can also
see an index entry before its data file is written and load a stale file from an older version
of the source. Holding an exclusive lock on ``<index>.lock`` while saving and while loading an
entry makes each save (index and data) atomic for every other pokerlab process. Where ``fcntl``
is missing (Windows) or the lock file cannot be opened, numba's own unlocked behaviour remains.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator
from typing import Any

from numba import njit
from numba.core import caching

try:
    import fcntl
except ImportError:  # pragma: no cover - not on Windows
    fcntl = None  # type: ignore[assignment]

__all__ = ["njit"]


@contextlib.contextmanager
def _locked(path: str) -> Iterator[None]:
    try:
        handle = open(path, "a")  # noqa: SIM115 - held until the block ends
    except OSError:
        yield  # a read-only cache: nothing else can save into it through us
        return
    with handle:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_EX)
        yield  # the lock is released when the file closes


def _under_lock(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def locked(self: Any, *args: Any) -> Any:
        index = getattr(self, "_index_path", None)
        if not isinstance(index, str):  # a numba whose cache file no longer looks like this
            return method(self, *args)
        with _locked(index + ".lock"):
            return method(self, *args)

    locked.pokerlab_locked = True  # type: ignore[attr-defined]
    return locked


def _install() -> None:
    cache_file = caching.IndexDataCacheFile
    for name in ("save", "load"):
        method = getattr(cache_file, name, None)
        if method is None or getattr(method, "pokerlab_locked", False):
            continue
        setattr(cache_file, name, _under_lock(method))


_install()
