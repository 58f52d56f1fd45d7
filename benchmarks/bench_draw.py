"""Five-card draw: discard advice and bot matches, timed against the issue's targets.

    python benchmarks/bench_draw.py                 # about 1-2 minutes (the optimal match)
    python benchmarks/bench_draw.py --quick         # optimal vs random on 1,000 hands only
    python benchmarks/bench_draw.py --json out.json

Warm numba cache (an untimed warm-up call first), best of several repeats for the short
timings. The rows run on one thread (``threads=1``) except the full optimal match, which uses
every available core (its target is for 2 cores); thread-scaling tables (1 thread and every
available core) follow for the advice and for the optimal match on 1,000 hands. What is timed:

* ``advise(hand)``: the whole exact 32-choice advice without opponents (2,598,960 evaluations
  of replacement sets, category distributions, scores, ranking). Target <= 10 ms.
* ``advise(hand, vs="random")``: the same plus equities against one random opponent hand who
  stands pat (Monte Carlo, 200,000 deals shared by the 32 choices). No target; the largest
  standard error is printed.
* ``play_match("rules", "random", 10_000)``. Target <= 2 s.
* ``play_match(OptimalStrategy(), "random", 10_000)`` with an empty cache, twice: as a user
  runs it (the bot reads its choices from the shipped table of every hand class,
  ``pokerlab.analysis._optimal_table``) and with ``use_table=False`` (it computes each
  suit-isomorphic hand class it meets once, as the table's generator does). Target <= 30 s on
  2 cores.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numba
import numpy as np

import pokerlab
from _common import available_cores, best_time, machine_info, machine_line, scaling_table
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

    print(machine_line("1 (rows), all cores (full optimal match), 1 and all (scaling)"))
    print(f"numpy {np.__version__}  numba {numba.__version__}  pokerlab {pokerlab.__version__}\n")

    report("advise, 32 choices, no opponent (exact)",
           best_time(lambda: advise(HAND, threads=1), 20), 0.010)  # fmt: skip
    report("advise, 2-7, 32 choices, no opponent",
           best_time(lambda: advise(HAND, game="2-7", threads=1), 20), 0.010)  # fmt: skip
    result = advise(HAND, vs="random", seed=SEED)
    worst = max(c.stderr or 0.0 for c in result.choices)
    report("advise vs 1 random pat hand (MC 200k deals)",
           best_time(lambda: advise(HAND, vs="random", seed=SEED), 5), None,
           f"max stderr {worst:.4f}")  # fmt: skip

    m = play_match("rules", "random", 10_000, seed=SEED, threads=1)
    report("match rules vs random, 10,000 hands",
           best_time(lambda: play_match("rules", "random", 10_000, seed=SEED, threads=1), 5), 2.0,
           f"rules wins {m.wins / m.hands:.1%}, p={m.p_value:.2g}")  # fmt: skip

    play_match(OptimalStrategy(use_table=False), "random", 20, seed=SEED + 1)  # compile only
    hands = 1_000 if args.quick else 10_000
    answers = []
    for use_table, how in ((True, "shipped table"), (False, "every class computed")):
        bot = OptimalStrategy(use_table=use_table)
        t0 = time.perf_counter()
        m = play_match(bot, "random", hands, seed=SEED)
        seconds = time.perf_counter() - t0
        answers.append((m.wins, m.ties, m.losses))
        note = (f"{available_cores()} threads, {len(bot._cache):,} classes, optimal wins "
                f"{m.wins / m.hands:.1%}, p={m.p_value:.2g}")  # fmt: skip
        name = f"match optimal vs random, {hands:,} hands, {how}"
        report(name, seconds, 30.0 * hands / 10_000 * 2 / available_cores(), note)
    if answers[0] != answers[1]:
        raise SystemExit(f"the table and the computed choices played differently: {answers}")

    print()
    scaling = scaling_table("advise, 32 choices, no opponent", lambda t: advise(HAND, threads=t),
                            1, "advice", repeats=10)  # fmt: skip
    scaling += scaling_table(
        "match optimal vs random, 1,000 hands (empty cache, computed)",
        lambda t: play_match(OptimalStrategy(use_table=False), "random", 1_000, seed=SEED,
                             threads=t),
        1_000, "hands", repeats=1,
    )  # fmt: skip

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine_info(), "rows": rows, "scaling": scaling}, f, indent=2)


if __name__ == "__main__":
    main()
