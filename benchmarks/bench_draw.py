"""Five-card draw: discard advice and bot matches, timed against the issue's targets.

    python benchmarks/bench_draw.py                 # about 1-2 minutes (the optimal match)
    python benchmarks/bench_draw.py --quick         # optimal vs random on 1,000 hands only
    python benchmarks/bench_draw.py --json out.json

Single core (NUMBA_NUM_THREADS=1), warm numba cache (an untimed warm-up call first), best of
several repeats for the short timings. What is timed:

* ``advise(hand)``: the whole exact 32-choice advice without opponents (2,598,960 evaluations
  of replacement sets, category distributions, scores, ranking). Target <= 10 ms.
* ``advise(hand, vs="random")``: the same plus equities against one random opponent hand who
  stands pat (Monte Carlo, 200,000 deals shared by the 32 choices). No target; the largest
  standard error is printed.
* ``play_match("rules", "random", 10_000)``. Target <= 2 s.
* ``play_match(OptimalStrategy(), "random", 10_000)`` with an empty cache (the optimal bot
  computes each suit-isomorphic hand class it meets once). Target <= 120 s.
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import argparse
import json
import platform
import time
from typing import Any

import numba
import numpy as np

import pokerlab
from _common import best_time, cpu_model
from pokerlab.analysis.bots import OptimalStrategy, play_match
from pokerlab.analysis.draw import advise

HAND = "Jh Jd 7c 4s 2h"
SEED = 1


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="optimal vs random on 1,000 hands")
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args()

    rows: list[dict[str, Any]] = []

    def report(name: str, seconds: float, target: float | None, note: str = "") -> None:
        ratio = seconds / target if target else None
        rows.append({"what": name, "seconds": seconds, "target": target, "ratio": ratio,
                     "note": note})  # fmt: skip
        shown = f"{seconds * 1000:10.2f} ms" if seconds < 1 else f"{seconds:10.2f} s "
        goal = f"target {target * 1000:.0f} ms" if target and target < 1 else (
            f"target {target:.0f} s" if target else "no target")  # fmt: skip
        verdict = "" if ratio is None else f"  ratio {ratio:5.2f} {'ok' if ratio <= 1 else 'SLOW'}"
        print(f"{name:<44} {shown}  {goal}{verdict}  {note}")

    print(f"cpu: {cpu_model()}  python {platform.python_version()}  numpy {np.__version__}  "
          f"numba {numba.__version__}  pokerlab {pokerlab.__version__}")  # fmt: skip
    print(f"NUMBA_NUM_THREADS={os.environ['NUMBA_NUM_THREADS']}\n")

    report("advise, 32 choices, no opponent (exact)", best_time(lambda: advise(HAND), 20), 0.010)
    report("advise, 2-7, 32 choices, no opponent", best_time(lambda: advise(HAND, game="2-7"), 20),
           0.010)  # fmt: skip
    result = advise(HAND, vs="random", seed=SEED)
    worst = max(c.stderr or 0.0 for c in result.choices)
    report("advise vs 1 random pat hand (MC 200k deals)",
           best_time(lambda: advise(HAND, vs="random", seed=SEED), 5), None,
           f"max stderr {worst:.4f}")  # fmt: skip

    m = play_match("rules", "random", 10_000, seed=SEED)
    report("match rules vs random, 10,000 hands",
           best_time(lambda: play_match("rules", "random", 10_000, seed=SEED), 5), 2.0,
           f"rules wins {m.wins / m.hands:.1%}, p={m.p_value:.2g}")  # fmt: skip

    play_match(OptimalStrategy(), "random", 20, seed=SEED + 1)  # warm-up: compile only
    hands = 1_000 if args.quick else 10_000
    bot = OptimalStrategy()
    t0 = time.perf_counter()
    m = play_match(bot, "random", hands, seed=SEED)
    seconds = time.perf_counter() - t0
    note = (f"{len(bot._cache):,} classes computed, optimal wins {m.wins / m.hands:.1%}, "
            f"p={m.p_value:.2g}")  # fmt: skip
    name = f"match optimal vs random, {hands:,} hands"
    report(name, seconds, 120.0 * hands / 10_000, note)

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"cpu": cpu_model(), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
