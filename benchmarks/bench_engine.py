"""The equity engine across games, streets and thread counts (issue 10).

    python benchmarks/bench_engine.py                 # 1 thread and every core
    python benchmarks/bench_engine.py --threads 1,2   # these thread counts
    python benchmarks/bench_engine.py --json out.json --label after

Each spot: one untimed warm-up call, then the best of a few calls of ``pokerlab.equity``
(``method`` fixed, Monte Carlo with a fixed seed and number of deals), and the process CPU time
of the best of two more calls (all threads included; on a busy machine it is the steadier
figure of the work done, while the wall time shows what a user waits). The same script runs on
an older checkout (``PYTHONPATH=old/src``): where that version has no ``threads`` keyword it
runs once, on one core, and a spot it cannot answer is reported with its error. Prints the CPU
model, the cores available and the thread counts used; compare figures from the same run only.
"""

from __future__ import annotations

import argparse
import inspect
import json
import os
import sys
import time
from typing import Any

import pokerlab
from _common import best_of, cpu_model

RANGE_226 = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"

SPOTS: list[dict[str, Any]] = [
    {"name": "QsQh vs 8c7c vs random, flop Jc9h2d, exact",
     "players": ["QsQh", "8c7c", "random"], "board": "Jc9h2d", "method": "exact"},
    {"name": "AsKs vs QQ+,AKs,AKo, flop Jc9h2d, exact",
     "players": ["AsKs", "QQ+,AKs,AKo"], "board": "Jc9h2d", "method": "exact"},
    {"name": "226 combos vs QQ+,AKs,AKo, flop Jc9h2d, exact",
     "players": [RANGE_226, "QQ+,AKs,AKo"], "board": "Jc9h2d", "method": "exact"},
    {"name": "226 combos vs QQ+,AKs,AKo vs random, flop Jc9h2d, exact", "slow": True,
     "players": [RANGE_226, "QQ+,AKs,AKo", "random"], "board": "Jc9h2d", "method": "exact"},
    {"name": "QQ+,AKs vs JJ-99,AQo vs random, monotone flop 2c7c9c, exact (suit symmetry)",
     "players": ["QQ+,AKs", "JJ-99,AQo", "random"], "board": "2c7c9c", "method": "exact"},
    {"name": "AhAs vs KdKc vs QcQd, preflop, exact (matchups)",
     "players": ["AhAs", "KdKc", "QcQd"], "board": "", "method": "exact"},
    {"name": "AhAs vs KdKc vs random, preflop, exact (matchups by suit orbit)",
     "players": ["AhAs", "KdKc", "random"], "board": "", "method": "exact"},
    {"name": "22+,A2+,K2+ x3 vs random, river Qs7d2c5h9c, exact (runout in stripes)",
     "players": ["22+,A2+,K2+"] * 3 + ["random"], "board": "Qs7d2c5h9c", "method": "exact"},
    {"name": "Razz A 2 7 9 K Q vs A 3 8 J T 5, dead A, exact (rank classes)",
     "players": ["A 2 7 9 K Q", "A 3 8 J T 5"], "board": "", "dead": "A", "game": "razz",
     "method": "exact"},
    {"name": "QQ+,AKs vs JJ-99,AQs vs 88,AJs, preflop, exact (matchups)", "slow": True,
     "players": ["QQ+,AKs", "JJ-99,AQs", "88,AJs"], "board": "", "method": "exact"},
    {"name": "Omaha AsAhKsKh vs JdTd9c8c, preflop, exact",
     "players": ["AsAhKsKh", "JdTd9c8c"], "board": "", "game": "omaha", "method": "exact"},
    {"name": "Omaha hi/lo As2sKd3d vs AA**$ds, flop Qs7d2c, exact",
     "players": ["As2sKd3d", "AA**$ds"], "board": "Qs7d2c", "game": "omaha-hilo",
     "method": "exact"},
    {"name": "Stud AsKsQs vs 2h3h4h, third street, exact (sweep)",
     "players": ["AsKsQs", "2h3h4h"], "board": "", "game": "stud", "method": "exact"},
    {"name": "Stud hi/lo 3-way AsKsQsJs9c vs 2h3h4h5h7d6c vs 8d8c9d9hTsJc, exact (deals)",
     "players": ["AsKsQsJs9c", "2h3h4h5h7d6c", "8d8c9d9hTsJc"], "board": "",
     "game": "stud-hilo", "method": "exact"},
    {"name": "MC QQ+,AKs,AKo vs JJ-88,AQs+,AQo, 4M deals",
     "players": ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], "board": "", "method": "mc",
     "trials": 4_000_000},
    {"name": "MC Omaha AsAhKsKh vs random, 400k deals",
     "players": ["AsAhKsKh", "random"], "board": "", "game": "omaha", "method": "mc",
     "trials": 400_000},
    {"name": "MC AhAs vs 22 random (23-handed), 400k deals",
     "players": ["AhAs"] + ["random"] * 22, "board": "", "method": "mc", "trials": 400_000},
    {"name": "MC AhAs vs 16 random, 2,000 deals",
     "players": ["AhAs"] + ["random"] * 16, "board": "", "method": "mc", "trials": 2_000},
]  # fmt: skip


def _has_threads() -> bool:
    return "threads" in inspect.signature(pokerlab.equity).parameters


def _cpu_seconds(fn: Any) -> float:
    """CPU time of one call, every thread of the process included: on a machine shared with
    other work the wall time mostly measures waiting for a core, the CPU time does not."""
    started = time.process_time()
    fn()
    return time.process_time() - started


def run_spot(spot: dict[str, Any], threads: int | None, repeats: int) -> dict[str, Any]:
    kwargs: dict[str, Any] = {
        "board": spot["board"], "dead": spot.get("dead", ""), "game": spot.get("game", "holdem"),
        "method": spot["method"],
    }  # fmt: skip
    if spot["method"] == "mc":
        kwargs.update(trials=spot["trials"], seed=1)
    if threads is not None:
        kwargs["threads"] = threads
    try:
        seconds, result = best_of(lambda: pokerlab.equity(spot["players"], **kwargs), repeats,
                                  budget=30.0)  # fmt: skip
    except Exception as exc:
        return {"spot": spot["name"], "threads": threads, "error": f"{type(exc).__name__}: {exc}"}
    cpu = min(_cpu_seconds(lambda: pokerlab.equity(spot["players"], **kwargs)) for _ in range(2))
    row: dict[str, Any] = {
        "spot": spot["name"],
        "threads": threads or 1,
        "ms": seconds * 1e3,
        "cpu_ms": cpu * 1e3,
        "samples": result.samples,
        "equity": [round(p.equity, 6) for p in result.players[:3]],
    }
    if spot["method"] == "mc":
        row["deals_per_s"] = result.samples / seconds
    return row


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--threads", default=None, help="comma-separated thread counts")
    parser.add_argument("--slow", action="store_true", help="include the slow spots")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--only", default="", help="only the spots whose name contains this")
    parser.add_argument("--label", default="")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    cores = len(os.sched_getaffinity(0))
    if not _has_threads():
        counts: list[int | None] = [None]
    elif args.threads:
        counts = [int(x) for x in args.threads.split(",")]
    else:
        counts = [1, cores] if cores > 1 else [1]
    print(f"# {args.label} cpu: {cpu_model()}; cores available: {cores}; threads: {counts}; "
          f"python {sys.version.split()[0]}")  # fmt: skip
    rows = []
    for spot in SPOTS:
        if (spot.get("slow") and not args.slow) or args.only not in spot["name"]:
            continue
        for threads in counts:
            row = run_spot(spot, threads, args.repeats)
            rows.append(row)
            if "error" in row:
                print(f"{row['spot']:<72} t={threads}  {row['error'][:60]}", flush=True)
                continue
            rate = f"  {row['deals_per_s'] / 1e6:7.2f} M deals/s" if "deals_per_s" in row else ""
            print(f"{row['spot']:<72} t={row['threads']:<3} {row['ms']:10.1f} ms wall "
                  f"{row['cpu_ms']:10.1f} ms cpu{rate}  {row['equity']}", flush=True)  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"label": args.label, "cpu": cpu_model(), "cores": cores, "rows": rows},
                      f, indent=1)  # fmt: skip


if __name__ == "__main__":
    main()
