"""Range analytics: board hits and equity distributions, timed against issue 13's targets.

    python benchmarks/bench_analytics.py
    python benchmarks/bench_analytics.py --json out.json

Warm numba cache (an untimed warm-up call first), best of several repeats. What is timed:

* ``hits(range, flop)`` of a ~200-combo hold'em range (the whole call: parsing, card removal,
  kernel, counts). Target <= 5 ms.
* ``hits(range, flop, game="omaha")`` of a 5,000-holding Omaha range (given as a PatternRange of
  seeded random holdings, so parsing is not timed). Target <= 100 ms.
* ``equity_distribution(range, range, flop)``, ~200 x ~200 combos, exact, on 1 and on 2 numba
  threads. Target <= 1 s on 2 cores. Beside it, the same answer for the hero's combos only by
  one ``pokerlab.equity`` call per combo (what a user would script without this feature): the
  ratio is the speed-up of the runout-major kernel.

Each line prints the time, the target and the ratio time/target; the header prints the CPU
model, core count and thread counts. On a shared machine say so next to the figures.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import numba
import numpy as np

import pokerlab
from _common import available_cores, best_time, machine_info, machine_line, thread_counts
from pokerlab.ranges import Range
from pokerlab.ranges.pattern import PatternRange

HOLDEM_RANGE = "22+,A2s+,K9s+,QTs+,J9s+,T9s,98s,87s,ATo+,KJo+"
FLOP = "Ks9s2d"
OMAHA_FLOP = "9h7c2d"
SEED = 13


def omaha_range(n: int) -> PatternRange:
    rng = np.random.default_rng(SEED)
    used = {int(c) for c in pokerlab.parse_cards(OMAHA_FLOP)}
    deck = np.array([c for c in range(52) if c not in used])
    seen: set[tuple[int, ...]] = set()
    while len(seen) < n:
        seen.add(tuple(sorted(rng.choice(deck, 4, replace=False).tolist(), reverse=True)))
    return PatternRange.from_holdings(np.array(sorted(seen), dtype=np.uint8), size=4)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", metavar="FILE", help="also write the rows as JSON")
    args = parser.parse_args()
    rows: list[dict[str, Any]] = []

    def report(name: str, seconds: float, target: float | None, note: str = "") -> None:
        ratio = seconds / target if target else None
        rows.append(
            {"what": name, "seconds": seconds, "target": target, "ratio": ratio, "note": note}
        )
        goal = f"target {target * 1000:6.0f} ms" if target else "no target     "
        verdict = "" if ratio is None else f"  ratio {ratio:5.2f} {'ok' if ratio <= 1 else 'SLOW'}"
        print(f"{name:<52} {seconds * 1000:9.2f} ms  {goal}{verdict}  {note}")

    cores = available_cores()
    print(machine_line(f"1 (hits), 1 and {cores} (distribution)"))
    print(f"numpy {np.__version__}, numba {numba.__version__}")

    holdem = Range(HOLDEM_RANGE).remove(FLOP)
    t = best_time(lambda: pokerlab.hits(HOLDEM_RANGE, board=FLOP), 20)
    report(f"hits: {len(holdem)} hold'em combos on {FLOP}", t, 0.005)
    omaha = omaha_range(5000)
    t = best_time(lambda: pokerlab.hits(omaha, board=OMAHA_FLOP, game="omaha"), 10)
    report(f"hits: {len(omaha):,} Omaha holdings on {OMAHA_FLOP}", t, 0.1)

    def distribution() -> pokerlab.Distribution:
        return pokerlab.equity_distribution(HOLDEM_RANGE, HOLDEM_RANGE, board=FLOP)

    size = f"{len(holdem)}x{len(holdem)}"
    for threads in thread_counts():
        numba.set_num_threads(threads)
        t = best_time(distribution, 5)
        report(f"distribution: {size} exact on {FLOP}, {threads} thread(s)", t, 1.0)
    numba.set_num_threads(cores)
    kernel = best_time(distribution, 3)
    hands = [pokerlab.format_cards(c) for c in holdem.combos.tolist()]
    started = time.perf_counter()
    for h in hands:
        pokerlab.equity([h, HOLDEM_RANGE], board=FLOP, method="exact")
    per_combo = time.perf_counter() - started
    report(
        f"  same, hero side by {len(hands)} pokerlab.equity calls",
        per_combo,
        None,
        f"kernel is {per_combo / kernel:.0f}x faster (and gives both players)",
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine_info(cores), "rows": rows}, f, indent=2)


if __name__ == "__main__":
    main()
