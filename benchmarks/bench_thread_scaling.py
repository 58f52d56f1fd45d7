"""Is a 2-thread speed-up below 2x the code's or the machine's? Round by round, interleaved.

    python benchmarks/bench_thread_scaling.py [--rounds 10]

Each round times three things on 1 thread and then on 2:

* ``alu``: a numba loop of independent table reads and integer operations, all in L1 (no
  memory traffic, nothing shared between the threads), once per thread: twice the work on 2
  threads, so its speed-up is ``2 t1 / t2``;
* ``mc-kernel``: the hold'em Monte Carlo kernel's chunks (``QQ+,AKs,AKo`` vs
  ``JJ-88,AQs+,AQo``, 64 chunks of 65,536 deals) split between plain Python threads, without
  pokerlab's chunk pipeline (speed-up ``t1 / t2``);
* ``mc-equity``: the same deals through ``pokerlab.equity(..., threads=1 or 2)``.

It prints each round's speed-up and the median and best of each. When ``alu``, which shares
nothing, swings from round to round as much as the Monte Carlo does, the swings are the
machine's (another tenant on the host), not pokerlab's.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time
from collections.abc import Callable

import numpy as np
from numba import njit, uint64

import pokerlab
from _common import machine_line
from pokerlab.engine.montecarlo import _Sampler
from pokerlab.engine.problem import prepare

PLAYERS = ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]
CHUNKS = 64


@njit(nogil=True, cache=True)
def _alu(n, table):  # type: ignore[no-untyped-def]
    a = b = c = d = uint64(0)
    m = table.shape[0] - 1
    for i in range(n):
        a += table[(i * 7) & m]
        b += table[(i * 13 + 1) & m]
        c ^= table[(i * 29 + 2) & m]
        d += table[(i * 31 + 3) & m]
        a ^= b >> uint64(3)
        c += d << uint64(1)
    return a + b + c + d


def _on_threads(jobs: list[Callable[[], object]]) -> float:
    """Wall seconds to run each job on its own thread."""
    threads = [threading.Thread(target=job) for job in jobs]
    started = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=10)
    rounds = parser.parse_args().rounds
    print(machine_line("1 and 2"))
    table = np.arange(4096, dtype=np.uint64)
    sampler = _Sampler(prepare(PLAYERS))
    size = sampler.chunk_deals
    _alu(10, table)
    sampler.chunk(1, 0, size)
    pokerlab.equity(PLAYERS, method="mc", trials=10_000, seed=1)

    def alu(threads: int) -> float:
        return _on_threads([lambda: _alu(200_000_000, table)] * threads)

    def kernel(threads: int) -> float:
        def part(k: int) -> Callable[[], object]:
            return lambda: [sampler.chunk(1, i, size) for i in range(k, CHUNKS, threads)]

        return _on_threads([part(k) for k in range(threads)])  # the same work, split

    def api(threads: int) -> float:
        started = time.perf_counter()
        pokerlab.equity(PLAYERS, method="mc", trials=CHUNKS * size, seed=1, threads=threads)
        return time.perf_counter() - started

    cases: dict[str, Callable[[int], float]] = {"alu": alu, "mc-kernel": kernel, "mc-equity": api}
    speedups: dict[str, list[float]] = {name: [] for name in cases}
    for r in range(rounds):
        line = []
        for name, run in cases.items():
            one, two = run(1), run(2)
            speedup = 2 * one / two if name == "alu" else one / two  # alu: 2x the work on 2
            speedups[name].append(speedup)
            line.append(f"{name} {speedup:.2f}x")
        print(f"round {r + 1:>2}: " + ", ".join(line), flush=True)
    for name, values in speedups.items():
        print(f"{name:>10}: 2-thread speed-up median {statistics.median(values):.2f}x, "
              f"best {max(values):.2f}x, worst {min(values):.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
