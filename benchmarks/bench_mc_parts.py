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

    python benchmarks/bench_mc_parts.py --old OLD/src [--rounds 15]

times instead the hold'em kernel ``sample_deals`` of an older checkout's ``engine/_sampling.py``
against this one's, in one process, interleaved round by round (a noisy machine's slow phases
then hit both), by thread CPU time; it checks first that both give the same counts and leave the
generator in the same state. The older file is imported beside this checkout's package (its
helpers come from this checkout), so it must import the same names.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

from collections.abc import Callable
from types import ModuleType

import numpy as np
from numba import njit, uint64

import pokerlab
from _common import best_time, machine_line
from pokerlab.engine import _joint_draw
from pokerlab.engine import _sampling as S
from pokerlab.engine.montecarlo import _Sampler
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


AB_SPOTS = [
    (["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], 2_000_000),
    (["AhAs", "KdKc"], 2_000_000),
    (["40%", "30%"], 1_000_000),
    (["AhAs"] + ["random"] * 22, 200_000),
]


def _older_sampling(src: str) -> ModuleType:
    """The older checkout's ``engine/_sampling.py``, imported as a module of its own."""
    folder = tempfile.mkdtemp(prefix="bench_mc_old_")
    shutil.copy(os.path.join(src, "pokerlab", "engine", "_sampling.py"),
                os.path.join(folder, "older_sampling.py"))  # fmt: skip
    sys.path.insert(0, folder)
    import older_sampling  # type: ignore[import-not-found]

    return older_sampling  # type: ignore[no-any-return]


def _deal_with(module: ModuleType, sampler: _Sampler, n: int) -> tuple[np.ndarray, np.ndarray]:
    """``n`` deals of ``sampler``'s problem through ``module.sample_deals`` (chunk 0 of seed 7):
    the counts and the generator's final state."""
    p = sampler.problem
    k = p.n_players
    state = S.chunk_state(7, 0)
    counts = np.zeros((k + 1, k), np.int64)
    module.sample_deals(p.combos, p.held, sampler.draw, p.board, np.uint64(p.dead_mask), n,
                        100_000, state, counts, sampler.tables)  # fmt: skip
    return counts, state


def old_against_new(src: str, rounds: int) -> None:
    older = _older_sampling(src)
    print(f"sample_deals: {src} against this checkout, one process, {rounds} interleaved rounds, "
          "thread CPU time")  # fmt: skip
    print(f"{'players':<36}{'deals':>11}{'old M/s':>10}{'new M/s':>10}{'new/old':>9}  (medians)")
    for players, n in AB_SPOTS:
        sampler = _Sampler(prepare(players))
        (a, state_a), (b, state_b) = _deal_with(older, sampler, n), _deal_with(S, sampler, n)
        if not (np.array_equal(a, b) and np.array_equal(state_a, state_b)):
            raise SystemExit(f"{players}: the two kernels dealt different deals")
        times: dict[str, list[float]] = {"old": [], "new": []}
        for _ in range(rounds):
            for name, module in (("old", older), ("new", S)):
                started = time.thread_time()
                _deal_with(module, sampler, n)
                times[name].append(time.thread_time() - started)
        old, new = (statistics.median(times[name]) for name in ("old", "new"))
        many = len(players) > 3
        label = f"{players[0]} vs {len(players) - 1} random" if many else " vs ".join(players)
        print(f"{label:<36}{n:>11,}{n / old / 1e6:>10.2f}{n / new / 1e6:>10.2f}{old / new:>8.3f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", help="src folder of an older checkout: time its sample_deals")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(machine_line(os.environ["NUMBA_NUM_THREADS"]))
    if args.old:
        old_against_new(args.old, args.rounds)
        return
    print(f"next_u64 (one xoshiro256** draw)       {per_call_ns(_draws, N):6.1f} ns")
    print(f"deal_cards (5 board cards, 4 used)      {per_call_ns(_deals, N):6.1f} ns")
    for players in (["AhAs", "KdKc"], ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]):
        ns = deal_ns(players)
        print(f"whole deal, {' vs '.join(players):<28}{ns:6.1f} ns ({1e3 / ns:.1f} M deals/s)")
    joint_table()


if __name__ == "__main__":
    main()
