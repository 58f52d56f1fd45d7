"""How good are the exact strategies' time estimates? ``method="auto"`` enumerates when the
estimate is at most ``AUTO_EXACT_SECONDS`` and a forced exact run is refused past
``MAX_EXACT_SECONDS``, so an estimate far too high refuses or samples what enumerates in
seconds, and one far too low enumerates for minutes on a 2-second budget.

    python benchmarks/bench_estimates.py            # every spot (a few minutes)
    python benchmarks/bench_estimates.py --quick    # the spots under a few seconds

Each spot is prepared as ``pokerlab.equity`` prepares it, its exact strategy's estimate
(single core, seconds) is printed next to the time the same strategy takes on one thread
(warm numba cache: an untimed first run of the same strategy), and the ratio actual /
estimate (1.0 is perfect; 0.5-2 is what ``auto`` can live with). Then the same for ``outs``
(``engine.exact.runout_seconds``: every runout, no symmetry), whose estimate refuses a
request over its time limit before it starts.
"""

from __future__ import annotations

import argparse
import math
import time

import pokerlab
from _common import machine_line
from pokerlab.engine._control import Control
from pokerlab.engine.exact import runout_seconds
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy

# (game, players, board, quick?)
SPOTS: list[tuple[str, list[str], str, bool]] = [
    ("holdem", ["AA,KK"] * 4, "", True),
    ("holdem", ["AA,KK,QQ"] * 4, "", True),
    ("holdem", ["AhAs", "KdKc", "random"], "", True),  # pairs: suit orbits (_exact._orbit_id)
    ("holdem", ["AhKh", "QdQc", "random"], "", False),
    ("holdem", ["AcKd", "random", "QQ"], "", False),
    ("holdem", ["QsQh", "8c7c", "random"], "Jc9h2d", True),
    ("holdem", ["AsKs", "QQ+,AKs,AKo"], "Qh7c2d", True),
    ("holdem", ["QQ+,AK", "random"], "Jc9h2d", True),  # board-pairs
    ("holdem", ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AK"], "Jc9h2d", True),  # board-pairs
    ("holdem", ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AKs,AKo", "random"], "Jc9h2d8s", True),
    ("omaha", ["AsAhKsKh", "JdTd9c8c"], "", True),
    ("omaha", ["AsAhKsKh", "AA**"], "", False),
    ("omaha", ["AsAhKsKh", "5%"], "", False),
    ("omaha", ["AsAhKsKh", "JdTd9c8c", "7h6h5d4d"], "Qc8s2h", True),
    ("omaha", ["AsAhKsKh", "JdTd9c8c", "7h6h5d4d"], "Qc8s2h3c", True),
    ("omaha", ["AsAhKsKh", "JJ**", "T9**"], "Qc8s2h3c", True),
    ("omaha", ["AsAhKsKh", "15%"], "Qc8s2h", True),
    ("omaha", ["AsKhQd2c", "JJ**", "T9**"], "Qc8s7h3d", False),
    ("omaha6", ["AsKhQd2c3c5c", "AA****"], "Qc8s7h", False),
    ("omaha-hilo", ["AsKhQd2c", "A2**", "KK**"], "Qc8s7h3d", False),
    ("omaha-hilo", ["AsAh2c3d", "KdKcQhJh"], "", True),
    ("omaha-hilo", ["AsAh2c3d", "KdKcQhJh", "7h6h5d4d"], "Qc8s2h", True),
    ("stud", ["AsAdKc", "QsQhJd"], "", True),
    ("stud", ["AsAdKc", "QQ*"], "", False),
    ("stud-hilo", ["AsAd2c", "QQ*"], "", False),
    ("razz", ["As2d3c", "4s5h6d"], "", True),
    ("razz", ["A 2 7 9 K Q", "3 4 8 J T 5"], "", True),  # rank classes: one group
    ("stud-hilo", ["AsAd2c", "QsQh3d"], "", True),
]

OUTS_SPOTS: list[tuple[str, list[str], str, bool]] = [
    ("holdem", ["AhKh", "random", "random"], "Th7c2d", True),
    ("holdem", ["22+,A2s+", "QQ+,AKs", "random"], "Jc9h2d", True),
    ("omaha", ["AsKhQd2c", "15%"], "Qc8s7h", True),
    ("omaha-hilo", ["As2sKh3h", "AA**"], "Ks7d2c", True),
    ("omaha-hilo", ["A2**", "KK**"], "Th7c3h2s", False),
    ("omaha6", ["As2sKh3h4c5c", "AA****"], "Ks7d2c", False),
]


def _row(
    game: str, players: list[str], board: str, name: str, estimate: float, actual: float
) -> None:
    print(f"{game:<11} {' | '.join(players)[:58]:<58} {board:<9} {name:<17} "
          f"{estimate:>8.3f}s {actual:>8.3f}s {actual / estimate:>10.2f}")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="only the spots under a few seconds")
    args = parser.parse_args()
    print(machine_line())
    print(f"{'game':<11} {'players':<58} {'board':<9} {'strategy':<17} "
          f"{'estimate':>9} {'actual':>9} {'actual/est':>10}")  # fmt: skip
    warmed: set[str] = set()
    for game, players, board, quick in SPOTS:
        if args.quick and not quick:
            continue
        problem = prepare(players, board, "", game).with_unit_weights()
        strategy = exact_strategy(problem)
        if strategy is None:
            print(f"{game:<11} {' | '.join(players):<58} {board:<9} no exact strategy")
            continue
        estimate = strategy.estimate(problem)
        if strategy.name not in warmed:  # compile once, outside the timing
            strategy.run(problem, Control(threads=1))
            warmed.add(strategy.name)
        start = time.perf_counter()
        strategy.run(problem, Control(threads=1))
        _row(game, players, board, strategy.name, estimate, time.perf_counter() - start)
    print("\nouts (every runout, no symmetry)")
    for game, players, board, quick in OUTS_SPOTS:
        if args.quick and not quick:
            continue
        problem = prepare(players, board, "", game).with_unit_weights()
        estimate = runout_seconds(problem)
        pokerlab.outs(players, board=board, game=game, threads=1, time_limit=math.inf)
        start = time.perf_counter()
        pokerlab.outs(players, board=board, game=game, threads=1, time_limit=math.inf)
        _row(game, players, board, "outs", estimate, time.perf_counter() - start)


if __name__ == "__main__":
    main()
