"""Preflop exact enumeration, matchup by matchup against board by board: which is faster on
each spot, whether the engine picks it, and how far each estimate is from its time.

    python benchmarks/bench_preflop.py            # spots each strategy runs in under 30 s
    python benchmarks/bench_preflop.py --limit 5  # only those estimated under 5 s

Every spot is prepared as ``pokerlab.equity`` prepares it, and both strategies are forced on it
(``PreflopMatchups``: each matchup's boards at once, one per suit orbit of matchups;
``BoardRunouts``: every five-card board, one per suit orbit, each combo evaluated once per
board), on one thread, warm (an untimed run of the same strategy on a tiny spot compiles or
loads its kernels first). Printed: each time, its estimate and the ratio time / estimate, the
ratio of the two times, and the strategy the engine picks (``exact_strategy``); a pick is
right when it names the faster one.
"""

from __future__ import annotations

import argparse
import time

from _common import machine_line
from pokerlab.engine._control import Control
from pokerlab.engine.exact import BoardRunouts, PreflopMatchups
from pokerlab.engine.problem import Problem, prepare
from pokerlab.engine.strategies import exact_strategy

SPOTS: list[tuple[str, list[str], str]] = [  # (game, players, dead)
    ("shortdeck", ["AA", "66"], ""),
    ("holdem", ["AA", "KK"], "2c"),
    ("holdem", ["AhKh", "random"], "3c"),
    ("holdem", ["AhAs", "KdKc", "QsQh"], ""),
    ("holdem", ["AK", "QQ", "JJ"], ""),
    ("holdem", ["TT+", "AK", "KQ"], ""),
    ("holdem", ["AhAs", "KdKc", "random"], ""),
    ("holdem", ["AhAs", "QQ+,AK", "random"], ""),
    ("holdem", ["QQ+", "JJ+", "random"], ""),
    ("holdem", ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo", "random"], ""),
    ("holdem", ["QQ+", "JJ+", "AK", "random"], ""),
    ("holdem", ["AhAs", "random", "random"], ""),
    ("shortdeck", ["AhAs", "KK", "random"], ""),
    ("shortdeck", ["AK", "QQ", "JJ"], ""),
    ("shortdeck", ["JJ", "random", "random"], ""),
]


def _timed(strategy: BoardRunouts | PreflopMatchups, problem: Problem) -> float:
    started = time.perf_counter()
    strategy.run(problem, Control())
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=30.0, help="skip runs estimated longer")
    limit = parser.parse_args().limit
    print(machine_line(1))
    warm = prepare(["AA", "KK", "QQ"], game="shortdeck")
    for strategy in (BoardRunouts(), PreflopMatchups()):
        strategy.run(warm, Control())
    print(f"{'spot':<58} {'by matchups':>22} {'by boards':>22} {'boards/matchups':>15}  picks")
    for game, players, dead in SPOTS:
        problem = prepare(players, dead=dead, game=game)
        times: list[float | None] = []
        cells: list[str] = []
        for strategy in (PreflopMatchups(), BoardRunouts()):
            estimate = strategy.estimate(problem)
            if estimate > limit:
                times.append(None)
                cells.append(f"(est {estimate:.2f} s)")
                continue
            seconds = min(_timed(strategy, problem) for _ in range(2 if estimate < 1 else 1))
            times.append(seconds)
            cells.append(f"{seconds:.3f} s ({seconds / estimate:.2f}x est)")
        matchups, boards = times
        ratio = f"{boards / matchups:.2f}" if boards is not None and matchups is not None else "-"
        picked = exact_strategy(problem)
        pick = picked.name if picked else "-"
        name = f"{game} {' vs '.join(players)}" + (f" dead {dead}" if dead else "")
        print(f"{name:<58} {cells[0]:>22} {cells[1]:>22} {ratio:>15}  {pick}")


if __name__ == "__main__":
    main()
