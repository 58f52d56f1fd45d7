"""``pokerlab batch`` against a plain loop: scaling over cores, Dask against local, overhead.

    python benchmarks/bench_batch.py [--spots 10000] [--json FILE]

The job: SPOTS flop spots (a hand against a range on a random flop, exact; seeded), each about
half a millisecond. Timed, each with its workers already started and warmed up:

* ``loop``: ``pokerlab.equity(...).to_dict()`` in a Python loop in this process (one core);
* ``local 1`` and ``local 2``: the local backend with 1 and 2 worker processes;
* ``dask 2``: a Dask ``LocalCluster`` of 2 single-threaded worker processes.

Each row also gives the CPU time of this process and the workers (from ``/proc``): on a loaded
machine the wall-time ratios mostly measure the other load, the CPU ratios still show the cost
of the batch machinery. Printed ratios (issue 11 targets): ``local 2`` over ``local 1``
(>= 1.8x), ``dask 2`` against
``local 2`` (within 15 %), and the per-spot overhead ``local 1`` over ``loop`` (<= 5 %). Also the
wall time of ``pokerlab matrix`` (all 169 x 169 cells) on the local backend.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import time
from collections.abc import Callable
from typing import Any

import pokerlab
from _common import cpu_model
from pokerlab.scale import LocalBackend, dask_client, run_jobs
from pokerlab.scale.backends import DaskBackend
from pokerlab.scale.jobs import Job
from pokerlab.scale.matrix import preflop_matrix

HANDS = ["AhKh", "QsQd", "9c8c", "AsTd", "7h7c", "KdJs"]
RANGES = ["QQ+,AK", "22+,A2s+,KTs+,QJs", "TT-66,AQ,KQs", "JJ+,AKs,76s"]


def spots(count: int, seed: int = 11) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    out = []
    while len(out) < count:
        hand = rng.choice(HANDS)
        flop = rng.sample([c for c in deck if c not in (hand[:2], hand[2:])], 3)
        out.append({"id": len(out), "players": [hand, rng.choice(RANGES)], "board": "".join(flop)})
    return out


def cpu_seconds(pids: list[int]) -> float:
    """CPU time (user + system) of this process and of the processes ``pids`` so far."""
    tick = os.sysconf("SC_CLK_TCK")
    total = time.process_time()
    for pid in pids:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def timed(fn: Callable[[], Any], repeats: int, pids: list[int]) -> tuple[float, float]:
    """Best wall time and best CPU time (this process and ``pids``) of ``repeats`` calls."""
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeats):
        cpu = cpu_seconds(pids)
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
        best_cpu = min(best_cpu, cpu_seconds(pids) - cpu)
    return best, best_cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spots", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    os.environ["NUMBA_NUM_THREADS"] = "1"
    job_spots = spots(args.spots)
    jobs = [Job(i, s["id"], {k: v for k, v in s.items() if k != "id"}) for i, s in
            enumerate(job_spots)]  # fmt: skip
    warm = jobs[:200]
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores, workers single-threaded "
          f"(NUMBA_NUM_THREADS=1); load average before: {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"{len(jobs):,} exact flop spots (hand vs range), best of {args.repeats}")

    def loop() -> None:
        for s in job_spots:
            pokerlab.equity(s["players"], board=s["board"]).to_dict()

    loop()  # warm-up
    times: dict[str, float] = {}
    cpu: dict[str, float] = {}
    times["loop"], cpu["loop"] = timed(loop, args.repeats, [])
    for workers in (1, 2):
        with LocalBackend(workers) as backend:
            list(run_jobs(warm, backend))
            pids = list(backend.pids())
            name = f"local {workers}"
            times[name], cpu[name] = timed(lambda b=backend: list(run_jobs(jobs, b)),
                                           args.repeats, pids)  # fmt: skip
    with DaskBackend(dask_client(local_cluster=2), owned=True) as backend:
        list(run_jobs(warm, backend))
        pids = list(backend.client.run(os.getpid).values())
        times["dask 2"], cpu["dask 2"] = timed(lambda: list(run_jobs(jobs, backend)),
                                               args.repeats, pids)  # fmt: skip
    print("  backend    wall s    spots/s    CPU s (this process + workers)")
    for name, seconds in times.items():
        print(f"  {name:<8} {seconds:8.2f} {len(jobs) / seconds:10,.0f} {cpu[name]:10.2f}")
    ratios = {
        "local 2 / local 1 speed-up, wall (target >= 1.8)": times["local 1"] / times["local 2"],
        "dask 2 time / local 2 time, wall (target <= 1.15)": times["dask 2"] / times["local 2"],
        "per-spot overhead, local 1 over loop, wall (target <= 5 %)": (
            times["local 1"] / times["loop"] - 1
        ),
        "per-spot overhead, local 1 over loop, CPU": cpu["local 1"] / cpu["loop"] - 1,
        "dask 2 CPU / local 2 CPU": cpu["dask 2"] / cpu["local 2"],
    }
    for name, value in ratios.items():
        print(f"  {name}: {value:.3f}")
    started = time.perf_counter()
    matrix = preflop_matrix()
    matrix_seconds = time.perf_counter() - started
    cores = os.cpu_count() or 1
    print(f"  pokerlab matrix: {matrix.jobs:,} exact runs in {matrix_seconds:.1f} s on {cores} "
          f"local workers (incl. starting them); 64 cores: about "
          f"{matrix_seconds * cores / 64:.1f} s of compute plus start-up")  # fmt: skip
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"times": times, "cpu": cpu, "ratios": ratios,
                       "matrix_seconds": matrix_seconds}, f, indent=2)  # fmt: skip


if __name__ == "__main__":
    main()
