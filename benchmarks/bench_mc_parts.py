"""Where a hold'em Monte Carlo deal spends its time: the sampler's parts timed alone.

    python benchmarks/bench_mc_parts.py

Single core (NUMBA_NUM_THREADS=1), warm numba cache. Times, per call, one xoshiro256** draw
(``next_u64``), dealing five board cards around four used ones (``deal_cards``), and a whole
heads-up deal through ``pokerlab.equity`` (fixed hands, then ranges), so the parts can be set
against the whole.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from collections.abc import Callable

import numpy as np
from numba import njit, uint64

import pokerlab
from _common import best_time, machine_line
from pokerlab.engine import _sampling as S

N = 5_000_000


@njit(cache=True)
def _draws(state, n):  # type: ignore[no-untyped-def]
    acc = uint64(0)
    for _ in range(n):
        acc ^= S.next_u64(state)
    return acc


@njit(cache=True)
def _deals(state, n):  # type: ignore[no-untyped-def]
    dealt = np.empty(5, np.int64)
    acc = 0
    for _ in range(n):
        S.deal_cards(state, uint64(0xF), 5, dealt)
        acc += dealt[0]
    return acc


def per_call_ns(fn: Callable[[np.ndarray, int], object], n: int) -> float:
    state = S.seed_state(1)
    return best_time(lambda: fn(state, n), 3) / n * 1e9


def deal_ns(players: list[str]) -> float:
    return best_time(lambda: pokerlab.equity(players, method="mc", trials=N, seed=1), 3) / N * 1e9


def main() -> None:
    print(machine_line(os.environ["NUMBA_NUM_THREADS"]))
    print(f"next_u64 (one xoshiro256** draw)       {per_call_ns(_draws, N):6.1f} ns")
    print(f"deal_cards (5 board cards, 4 used)      {per_call_ns(_deals, N):6.1f} ns")
    for players in (["AhAs", "KdKc"], ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]):
        ns = deal_ns(players)
        print(f"whole deal, {' vs '.join(players):<28}{ns:6.1f} ns ({1e3 / ns:.1f} M deals/s)")


if __name__ == "__main__":
    main()
