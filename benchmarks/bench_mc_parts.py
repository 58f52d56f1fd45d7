"""Where a hold'em Monte Carlo deal spends its time: the sampler's parts timed alone.

    python benchmarks/bench_mc_parts.py

Single core (NUMBA_NUM_THREADS=1), warm numba cache. Times, per call, one xoshiro256** draw
(``next_u64``), dealing five board cards around four used ones (``deal_cards``), and a whole
heads-up deal through ``pokerlab.equity`` (fixed hands, then ranges), so the parts can be set
against the whole. Then heads-up range spots with few to many valid joint holdings, each dealt
with the joint table whatever its size (``engine._joint_draw``: one alias draw per joint
holding) and with it turned off (``JOINT_LIMIT = 0``: each player's combo drawn, the whole draw
rejected on a shared card), in the same run: the evidence for ``JOINT_LIMIT``, the size up to
which pokerlab uses the table.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from collections.abc import Callable

import numpy as np
from numba import njit, uint64

import pokerlab
from _common import best_time, machine_line
from pokerlab.engine import _joint_draw
from pokerlab.engine import _sampling as S
from pokerlab.engine.problem import prepare

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


JOINT_SPOTS = [
    ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"],
    ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AKs,AKo"],
    ["15%", "10%"],
    ["20%", "15%"],
    ["40%", "30%"],
]


def joint_table() -> None:
    limit = _joint_draw.JOINT_LIMIT
    print(f"\njoint table (any size) vs whole-draw rejection, whole deals through "
          f"pokerlab.equity; pokerlab uses the table up to {limit:,} joint holdings")  # fmt: skip
    print(f"{'players':<44}{'joint holdings':>15}{'table':>12}{'rejection':>12}{'ratio':>8}"
          "  pokerlab uses")  # fmt: skip
    for players in JOINT_SPOTS:
        problem = prepare(players)
        count = len(_joint_draw.holding_draw(problem.combo_masks, problem.offsets,
                                             problem.weights, 1 << 30).joint_used)  # fmt: skip
        rates = []
        for joint_limit in (1 << 30, 0):
            _joint_draw.JOINT_LIMIT = joint_limit
            rates.append(1e3 / deal_ns(players))
        _joint_draw.JOINT_LIMIT = limit
        used = "  table" if count <= limit else "  rejection"
        print(f"{' vs '.join(players):<44}{count:>15,}{rates[0]:>8.1f} M/s{rates[1]:>8.1f} M/s"
              f"{rates[0] / rates[1]:>7.2f}x{used}")  # fmt: skip


def main() -> None:
    print(machine_line(os.environ["NUMBA_NUM_THREADS"]))
    print(f"next_u64 (one xoshiro256** draw)       {per_call_ns(_draws, N):6.1f} ns")
    print(f"deal_cards (5 board cards, 4 used)      {per_call_ns(_deals, N):6.1f} ns")
    for players in (["AhAs", "KdKc"], ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]):
        ns = deal_ns(players)
        print(f"whole deal, {' vs '.join(players):<28}{ns:6.1f} ns ({1e3 / ns:.1f} M deals/s)")
    joint_table()


if __name__ == "__main__":
    main()
