"""What every benchmark script shares: the machine's name and best-of-N timing.

The scripts run as ``python benchmarks/bench_x.py``, so this folder is on ``sys.path``.
"""

from __future__ import annotations

import math
import platform
import time
from collections.abc import Callable
from typing import Any

__all__ = ["best_of", "best_time", "cpu_model"]


def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (else what ``platform`` knows)."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def best_of(
    fn: Callable[[], Any], repeats: int, budget: float = math.inf, warm: bool = True
) -> tuple[float, Any]:
    """Best wall time of ``repeats`` calls of ``fn`` and the last call's result, after one
    untimed warm-up call (which compiles on a cold numba cache) unless ``warm`` is False; stops
    repeating once ``budget`` seconds have gone by."""
    out = fn() if warm else None
    best = math.inf
    started = time.perf_counter()
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t)
        if time.perf_counter() - started > budget:
            break
    return best, out


def best_time(fn: Callable[[], Any], repeats: int, warm: bool = True) -> float:
    """:func:`best_of` without the result."""
    return best_of(fn, repeats, warm=warm)[0]
