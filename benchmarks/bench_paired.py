"""Paired before/after timings: an older checkout against this one, call by call, in turn.

    PYTHONPATH=src python benchmarks/bench_paired.py --old /tmp/old/src           # ~5 minutes
    PYTHONPATH=src python benchmarks/bench_paired.py --old /tmp/old/src --rounds 3 --only stud

On a machine whose speed drifts (a shared host: the same call 1.5-2x slower for a minute at a
time), two runs taken minutes apart compare the drift, not the code. Here the old code (``--old``:
a checkout's ``src`` folder, e.g. from ``git worktree add /tmp/old <commit>``) and this one run
in two long-lived worker processes that take turns on the same call, round after round; each
round times the call a fixed number of times in each worker. Reported per call: each side's best
time over the rounds and the **median of the rounds' old/new ratios**, the figure to quote. The
workers are warmed first (their numba kernels compiled or loaded), and both answers must agree
(the same equities, the same strengths) or the script stops.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

from _common import machine_line

# name: (kind, arguments, calls per round)
CALLS: dict[str, tuple[str, dict[str, Any], int]] = {
    "AsKs vs QQ+,AKs,AKo, flop": (
        "equity", {"players": ["AsKs", "QQ+,AKs,AKo"], "board": "Jc9h2d"}, 200),
    "QQ+,AK vs random, flop, 1 thread": (
        "equity", {"players": ["QQ+,AK", "random"], "board": "Jc9h2d", "threads": 1}, 20),
    "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+ vs QQ+,AK, flop, 1 thread": (
        "equity", {"players": ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AK"],
                   "board": "Jc9h2d", "threads": 1}, 20),
    "AsKs vs QhQd, turn": ("equity", {"players": ["AsKs", "QhQd"], "board": "Jc9h2d3s"}, 200),
    "AhAs vs KdKc, preflop": ("equity", {"players": ["AhAs", "KdKc"]}, 200),
    "QQ+,AKs,AKo vs JJ-88,AQs+,AQo, preflop": (
        "equity", {"players": ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]}, 200),
    "random vs random, preflop": ("equity", {"players": ["random", "random"]}, 3),
    "QsQh vs 8c7c vs random, flop": (
        "equity", {"players": ["QsQh", "8c7c", "random"], "board": "Jc9h2d"}, 50),
    "Omaha, river": (
        "equity",
        {"players": ["AsAhKsKh", "JdTd9c8c"], "board": "Qs7d2c3h4d", "game": "omaha"}, 200),
    "Omaha preflop, exact, 1 thread": (
        "equity", {"players": ["AsAhKsKh", "JdTd9c8c"], "game": "omaha", "method": "exact",
                   "threads": 1}, 3),
    "Omaha hi/lo vs AA**$ds, flop, 1 thread": (
        "equity", {"players": ["As2sKd3d", "AA**$ds"], "board": "Qs7d2c", "game": "omaha-hilo",
                   "threads": 1}, 20),
    "stud hi/lo 3-way, deal by deal, 1 thread": (
        "equity", {"players": ["AsKsQsJs9c", "2h3h4h5h7d6c", "8d8c9d9hTsJc"], "game": "stud-hilo",
                   "method": "exact", "threads": 1}, 3),
    "MC QQ+,AKs,AKo vs JJ-88,AQs+,AQo, 2M deals, 1 thread": (
        "equity", {"players": ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], "method": "mc",
                   "trials": 2_000_000, "seed": 1, "threads": 1}, 3),
    "MC QQ+,AKs,AKo vs JJ-88,AQs+,AQo, 2M deals, 2 threads": (
        "equity", {"players": ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], "method": "mc",
                   "trials": 2_000_000, "seed": 1, "threads": 2}, 3),
    "stud third street, 1 thread": (
        "equity", {"players": ["AsKsQs", "2h3h4h"], "game": "stud", "threads": 1}, 5),
    "stud third street, 2 threads": (
        "equity", {"players": ["AsKsQs", "2h3h4h"], "game": "stud", "threads": 2}, 5),
    "distribution 22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+ vs random, flop, 1 thread": (
        "distribution", {"players": ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "random"],
                         "board": "Jc9h2d"}, 5),
    "evaluate_batch, 1,000,000 rows, uint8": ("batch", {"dtype": "uint8"}, 3),
    "evaluate_batch, 1,000,000 rows, int64": ("batch", {"dtype": "int64"}, 3),
}  # fmt: skip


def worker() -> None:
    """Read ``name`` lines; answer each with ``[median seconds of its calls, answer]``."""
    import numpy as np

    import pokerlab

    rng = np.random.default_rng(1)
    rows = np.argsort(rng.random((1_000_000, 52)), axis=1)[:, :7]
    batches = {dtype: rows.astype(dtype) for dtype in ("uint8", "int64")}

    def call(kind: str, args: dict[str, Any]) -> Any:
        if kind == "batch":
            out = pokerlab.evaluate_batch(batches[args["dtype"]], threads=1)
            return int(out.astype(np.int64).sum())
        if kind == "distribution":
            hero, *villains = args["players"]
            found = pokerlab.equity_distribution(hero, villains, board=args["board"], threads=1)
            return [round(float(e), 12) for e in found.players[0].equities]
        options = {"method": "exact", "threads": 1, **args}
        players = options.pop("players")
        return [round(p.equity, 12) for p in pokerlab.equity(players, **options).players]

    for kind, args, _ in CALLS.values():
        call(kind, args)
    print("ready", flush=True)
    for line in sys.stdin:
        kind, args, calls = CALLS[line.strip()]
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            answer = call(kind, args)
            times.append(time.perf_counter() - started)
        print(json.dumps([statistics.median(times), answer]), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", required=True, metavar="SRC", help="an older checkout's src")
    parser.add_argument("--rounds", type=int, default=7, help="rounds of every call (7)")
    parser.add_argument("--only", help="only the calls whose name contains this")
    args = parser.parse_args()
    names = [n for n in CALLS if args.only is None or args.only in n]
    if not names:
        raise SystemExit(f"no call matches {args.only!r}: {', '.join(CALLS)}")
    print(machine_line("1 (2 for the row that says so)"))

    def start(src: str | None) -> subprocess.Popen[str]:
        env = dict(os.environ)
        if src is not None:
            env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
        process = subprocess.Popen(
            [sys.executable, __file__, "--worker"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env,
        )  # fmt: skip
        assert process.stdin is not None and process.stdout is not None
        if process.stdout.readline().strip() != "ready":
            raise SystemExit(f"the worker for {src or 'this checkout'} did not start")
        return process

    def ask(process: subprocess.Popen[str], name: str) -> tuple[float, Any]:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(name + "\n")
        process.stdin.flush()
        seconds, answer = json.loads(process.stdout.readline())
        return float(seconds), answer

    old, new = start(args.old), start(None)
    pairs: dict[str, list[tuple[float, float]]] = {name: [] for name in names}
    for _ in range(args.rounds):
        for name in names:
            (t_old, a_old), (t_new, a_new) = ask(old, name), ask(new, name)
            if a_old != a_new:
                raise SystemExit(f"{name}: the answers differ: old {a_old}, new {a_new}")
            pairs[name].append((t_old, t_new))
    for process in (old, new):
        assert process.stdin is not None
        process.stdin.close()
        process.wait()
    print(f"old: {args.old}; new: this checkout; {args.rounds} rounds, each call's median")
    print(f"{'call':42} {'old best':>10} {'new best':>10} {'old/new':>8}  rounds")
    for name, rows in pairs.items():
        ratios = [a / b for a, b in rows]
        best_old, best_new = min(a for a, _ in rows), min(b for _, b in rows)
        each = " ".join(f"{r:.2f}" for r in ratios)
        print(f"{name:42} {_ms(best_old):>10} {_ms(best_new):>10} "
              f"{statistics.median(ratios):>7.2f}x  {each}")  # fmt: skip


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.3f} ms"


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main()
