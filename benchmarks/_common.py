"""What every benchmark script shares: the machine (CPU model and family, cores, threads),
best-of-N timing and the thread-scaling table.

The scripts run as ``python benchmarks/bench_x.py``, so this folder is on ``sys.path``. Every
script prints :func:`machine_line` first; a script that computes in parallel prints a
:func:`scaling_table` (1 thread and every available core). Timings taken while other processes
load the machine are noisy: compare rows of the same run (ratios), not runs, and time the
single-thread rows by CPU time with ``BENCH_CLOCK=cpu`` (:func:`best_of`).
"""

from __future__ import annotations

import functools
import math
import os
import platform
import statistics
import time
from collections.abc import Callable
from typing import Any, TypedDict

__all__ = [
    "available_cores",
    "best_of",
    "best_time",
    "clock_name",
    "cpu_family",
    "cpu_model",
    "machine_info",
    "machine_line",
    "print_rates",
    "scaling_table",
    "thread_counts",
]


def cpu_model() -> str:
    """The CPU's model name from ``/proc/cpuinfo`` (else what ``platform`` knows)."""
    return _cpuinfo("model name") or platform.processor() or "unknown"


def _cpuinfo(field: str) -> str | None:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.split(":", 1)[0].strip() == field:
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def cpu_family() -> str:
    """Vendor and family as ``/proc/cpuinfo`` says (``AuthenticAMD family 25``: Zen 3/Zen 4;
    ``GenuineIntel family 6``): the same code can be bound by different things on each (the
    enumeration histogram was, benchmarks/RESULTS.md), so results are kept per family."""
    vendor = _cpuinfo("vendor_id") or platform.machine() or "unknown"
    family = _cpuinfo("cpu family")
    model = _cpuinfo("model")
    return f"{vendor} family {family} model {model}" if family else vendor


def available_cores() -> int:
    """Cores this process may run on (``os.sched_getaffinity``), capped by
    ``NUMBA_NUM_THREADS`` when set: what pokerlab uses by default."""
    from pokerlab._threads import resolve_threads

    return resolve_threads(None)


def thread_counts() -> list[int]:
    """The thread counts of a scaling table: 1 and every available core."""
    return sorted({1, available_cores()})


class MachineInfo(TypedDict):
    """What :func:`machine_info` reports (typed, so mypy catches a report reading a key that
    is not there: two benchmarks crashed at their last line that way)."""

    cpu: str
    family: str
    cores_online: int | None
    cores_available: int
    threads: int | str
    load_average_1min: float | None
    python: str


def machine_info(threads: int | str | None = None) -> MachineInfo:
    """CPU model and family, cores (online and available to this process) and the thread
    count the script's figures use (``threads``: a number, or text like ``"1 and 2"``)."""
    cores = available_cores()
    return {
        "cpu": cpu_model(),
        "family": cpu_family(),
        "cores_online": os.cpu_count(),
        "cores_available": cores,
        "threads": cores if threads is None else threads,
        "load_average_1min": os.getloadavg()[0] if hasattr(os, "getloadavg") else None,
        "python": platform.python_version(),
    }


def machine_line(threads: int | str | None = None) -> str:
    """One line naming the machine (:func:`machine_info`); print it first."""
    m = machine_info(threads)
    load = m["load_average_1min"]
    busy = (
        f"; load average {load:.1f} on {m['cores_online']} cores: figures taken under load"
        if load is not None and load > 0.5 * (m["cores_online"] or 1)
        else ""
    )
    return (
        f"machine: {m['cpu']} ({m['family']}), {m['cores_online']} cores, "
        f"{m['cores_available']} available; threads: {m['threads']}; clock: {clock_name()}; "
        f"python {m['python']}{busy}"
    )


def scaling_table(
    name: str, run: Callable[[int], Any], work: float, unit: str, repeats: int = 3
) -> list[dict[str, Any]]:
    """Time ``run(threads)`` (best of ``repeats`` after a warm-up) for every count of
    :func:`thread_counts`; print ``work / seconds`` in ``unit`` per second and the speed-up
    over one thread; return the rows."""
    rows: list[dict[str, Any]] = []
    print(f"{name}: thread scaling (wall time)")
    print(f"  {'threads':>7} {'seconds':>10} {unit + '/s':>14} {'speed-up':>9}")
    for threads in thread_counts():
        seconds = best_time(functools.partial(run, threads), repeats, clock=time.perf_counter)
        rate = work / seconds
        speedup = rows[0]["seconds"] / seconds if rows else 1.0
        rows.append({"name": name, "threads": threads, "seconds": seconds, "rate": rate,
                     "unit": unit, "speedup": speedup})  # fmt: skip
        print(f"  {threads:>7} {seconds:>10.4f} {rate:>14,.0f} {speedup:>8.2f}x")
    return rows


def _clock() -> Callable[[], float]:
    """The clock of single-thread timings: wall time, or with ``BENCH_CLOCK=cpu`` this thread's
    CPU time (``time.thread_time``), which leaves out the time other processes held the core:
    the steadier figure on a loaded machine, and meaningless for parallel code (so the scaling
    tables always use wall time)."""
    return time.thread_time if os.environ.get("BENCH_CLOCK") == "cpu" else time.perf_counter


def clock_name() -> str:
    """``"wall"`` or ``"cpu (this thread)"``: say which in the output."""
    return "cpu (this thread)" if _clock() is time.thread_time else "wall"


def best_of(
    fn: Callable[[], Any],
    repeats: int,
    budget: float = math.inf,
    warm: bool = True,
    clock: Callable[[], float] | None = None,
) -> tuple[float, Any]:
    """Best time (``clock``, default :func:`_clock`) of ``repeats`` calls of ``fn`` and the last
    call's result, after one untimed warm-up call (which compiles on a cold numba cache) unless
    ``warm`` is False; stops repeating once ``budget`` seconds of wall time have gone by."""
    now = clock or _clock()
    out = fn() if warm else None
    best = math.inf
    started = time.perf_counter()
    for _ in range(repeats):
        t = now()
        out = fn()
        best = min(best, now() - t)
        if time.perf_counter() - started > budget:
            break
    return best, out


def best_time(
    fn: Callable[[], Any],
    repeats: int,
    warm: bool = True,
    clock: Callable[[], float] | None = None,
) -> float:
    """:func:`best_of` without the result."""
    return best_of(fn, repeats, warm=warm, clock=clock)[0]


def print_rates(times: dict[str, list[float]], rows: int, base: str) -> None:
    """A table of interleaved variants: each one's best and median rate (``rows`` per timed
    call, in millions a second) and its median time against the variant ``base`` (the
    shipped kernel)."""
    width = max(len("variant"), *(len(name) for name in times))
    reference = statistics.median(times[base])
    print(f"{'variant':<{width}} {'best M/s':>9} {'median M/s':>11} {'vs shipped':>11}")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"{name:<{width}} {rows / min(ts) / 1e6:>9.1f} {rows / median / 1e6:>11.1f} "
              f"{reference / median:>10.2f}x")  # fmt: skip
