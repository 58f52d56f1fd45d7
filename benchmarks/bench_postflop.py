"""Postflop and multiway exact enumeration before and after, alternating in one run (issue 10).

    python benchmarks/bench_postflop.py --old /tmp/old/src          # A/B against an old checkout
    python benchmarks/bench_postflop.py --old /tmp/old/src --slow   # with the 226-combo spot
    python benchmarks/bench_postflop.py                             # this checkout alone

``--old`` is the ``src`` folder of an older checkout (``git archive <commit> src | tar -x -C
/tmp/old``). Each round runs every spot once per version, alternating old/new in fresh
processes (so a burst of load from other work hits both), each process timing ``--calls``
calls of ``pokerlab.equity`` after ``--warm`` untimed calls (default 1); the table gives
the medians over the rounds of the per-process medians, wall and process CPU time (every
thread), and the new/old ratio (the slow spot: one round of one call). The
two versions' results are checked equal. Prints the CPU model, the cores and the thread count;
on a loaded machine compare the ratios and the CPU column.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path
from typing import Any

from _common import machine_line

RANGE_226 = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"
SPOTS: dict[str, tuple[list[str], str, bool]] = {
    "QsQh vs 8c7c vs random, flop Jc9h2d": (["QsQh", "8c7c", "random"], "Jc9h2d", False),
    "AsKs vs QQ+,AKs,AKo, flop Jc9h2d": (["AsKs", "QQ+,AKs,AKo"], "Jc9h2d", False),
    "226 combos vs QQ+,AKs,AKo, flop Jc9h2d": ([RANGE_226, "QQ+,AKs,AKo"], "Jc9h2d", False),
    "QQ+,AKs vs JJ-99,AQo vs random, flop 2c7c9c": (
        ["QQ+,AKs", "JJ-99,AQo", "random"], "2c7c9c", False),
    "226 combos vs QQ+,AKs,AKo vs random, flop Jc9h2d": (
        [RANGE_226, "QQ+,AKs,AKo", "random"], "Jc9h2d", True),
}  # fmt: skip

_CHILD = """
import json, statistics, sys, time
import pokerlab
players, board, threads, calls, warm, warm_calls = json.loads(sys.argv[1])
kw = dict(board=board, method="exact", threads=threads)
for _ in range(warm_calls):
    r = pokerlab.equity(warm or players, **kw)
wall, cpu = [], []
for _ in range(calls):
    t, c = time.perf_counter(), time.process_time()
    r = pokerlab.equity(players, **kw)
    wall.append(time.perf_counter() - t)
    cpu.append(time.process_time() - c)
print(json.dumps({"wall": statistics.median(wall), "cpu": statistics.median(cpu),
                  "counts": r.counts.tolist(), "samples": r.samples}))
"""


def _measure(
    src: str, players: list[str], board: str, threads: int, calls: int, slow: bool, warm_calls: int
) -> Any:
    """One process: ``warm_calls`` warm-up calls (for a slow spot, of a small spot of the same
    shape, which loads the same compiled kernel), then the median of ``calls`` timed calls."""
    env = dict(os.environ, PYTHONPATH=src)
    warm = ["QsQh", "8c7c", "random"] if slow else None
    arg = json.dumps([players, board, threads, calls, warm, max(1, warm_calls)])
    out = subprocess.run([sys.executable, "-c", _CHILD, arg], env=env, check=True,
                         capture_output=True, text=True).stdout  # fmt: skip
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--old", default=None, help="src folder of the older checkout")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20, help="timed calls per process")
    parser.add_argument("--warm", type=int, default=1,
                        help="untimed calls first (the interpreter and caches warm up over "
                             "a few hundred calls of a small spot)")  # fmt: skip
    parser.add_argument("--threads", default="1", help="comma-separated thread counts")
    parser.add_argument("--slow", action="store_true", help="include the 226-combo 3-way spot")
    parser.add_argument("--only", default="")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    new_src = str(Path(__file__).resolve().parent.parent / "src")
    versions = [("old", args.old), ("new", new_src)] if args.old else [("new", new_src)]
    counts = [int(x) for x in args.threads.split(",")]
    print(machine_line(args.threads))
    rows = []
    for name, (players, board, slow) in SPOTS.items():
        if (slow and not args.slow) or args.only not in name:
            continue
        for threads in counts:
            calls = 1 if slow else args.calls
            got: dict[str, list[Any]] = {v: [] for v, _ in versions}
            for _ in range(1 if slow else args.rounds):
                for version, src in versions:
                    got[version].append(
                        _measure(src, players, board, threads, calls, slow, args.warm)
                    )
            row: dict[str, Any] = {"spot": name, "threads": threads}
            for version, _ in versions:
                row[f"{version}_wall_ms"] = 1e3 * statistics.median(x["wall"] for x in got[version])
                row[f"{version}_cpu_ms"] = 1e3 * statistics.median(x["cpu"] for x in got[version])
            if args.old:
                same = all(a["counts"] == b["counts"] and a["samples"] == b["samples"]
                           for a, b in zip(got["old"], got["new"], strict=True))  # fmt: skip
                row["same_counts"] = same
                row["ratio_wall"] = row["old_wall_ms"] / row["new_wall_ms"]
                row["ratio_cpu"] = row["old_cpu_ms"] / row["new_cpu_ms"]
                print(f"{name:<52} t={threads}  old {row['old_wall_ms']:10.3f} ms wall "
                      f"{row['old_cpu_ms']:10.3f} cpu | new {row['new_wall_ms']:9.3f} ms wall "
                      f"{row['new_cpu_ms']:9.3f} cpu | {row['ratio_wall']:6.1f}x wall "
                      f"{row['ratio_cpu']:6.1f}x cpu  same counts: {same}", flush=True)  # fmt: skip
            else:
                print(f"{name:<52} t={threads}  {row['new_wall_ms']:10.3f} ms wall "
                      f"{row['new_cpu_ms']:10.3f} ms cpu", flush=True)  # fmt: skip
            rows.append(row)
    print(machine_line(args.threads))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))


if __name__ == "__main__":
    main()
