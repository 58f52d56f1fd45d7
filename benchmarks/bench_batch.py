"""``pokerlab batch`` against a plain loop: scaling over cores, Dask against local, overhead.

    python benchmarks/bench_batch.py [--spots 10000] [--repeats 5] [--json FILE]

The job: SPOTS flop spots (a hand against a range on a random flop, exact; seeded), each about
half a millisecond. Timed, each with its workers already started and warmed up on the same 200
spots (start-up, imports and numba cache loading are left out of every row alike: they are a
fixed cost per backend, not per spot, and the targets are about the per-spot machinery):

* ``loop``: ``pokerlab.equity(...).to_dict()`` in a Python loop in this process (one core);
* ``local 1`` and ``local 2``: the local backend with 1 and 2 worker processes;
* ``dask 2``: a Dask ``LocalCluster`` of 2 single-threaded worker processes.

The rows run interleaved, ``--repeats`` rounds of all four, so a change in the other load of a
shared machine hits every row alike; a fresh LocalCluster is started for each of its rows and
closed after it (an idle cluster's event loops would take CPU from the other rows). The local
pools are started before any cluster (a Dask nanny sets ``MALLOC_TRIM_THRESHOLD_`` and friends in
its parent's environment; ``dask_client`` now puts them back, but this order also holds for an
older pokerlab). Printed: the median
wall time and CPU time (this process and the workers, from ``/proc``: on a loaded machine the
wall-time ratios mostly measure the other load, the CPU ratios still show the cost of the batch
machinery). Ratios (issue 11 targets): ``local 2`` over ``local 1`` (>= 1.8x), ``dask 2``
against ``local 2`` (within 15 %, also the median of the rounds' own ratios), and the per-spot
overhead ``local 1`` over ``loop`` (<= 5 %). Also the wall time of ``pokerlab matrix`` (all
169 x 169 cells) on the local backend.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import pokerlab
from _common import cpu_model
from pokerlab.scale import LocalBackend, dask_client, run_jobs
from pokerlab.scale.backends import Backend, DaskBackend
from pokerlab.scale.jobs import Job
from pokerlab.scale.matrix import preflop_matrix

HANDS = ["AhKh", "QsQd", "9c8c", "AsTd", "7h7c", "KdJs"]
RANGES = ["QQ+,AK", "22+,A2s+,KTs+,QJs", "TT-66,AQ,KQs", "JJ+,AKs,76s"]


def spots(count: int, seed: int = 11) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    deck = [r + s for r in "23456789TJQKA" for s in "cdhs"]
    out: list[dict[str, Any]] = []
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


def timed(fn: Callable[[], Any], pids: list[int]) -> tuple[float, float]:
    """Wall time and CPU time (this process and ``pids``) of one call."""
    cpu = cpu_seconds(pids)
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started, cpu_seconds(pids) - cpu


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--spots", type=int, default=10_000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    os.environ["NUMBA_NUM_THREADS"] = "1"
    job_spots = spots(args.spots)
    jobs = [Job(i, s["id"], {k: v for k, v in s.items() if k != "id"}) for i, s in
            enumerate(job_spots)]  # fmt: skip
    warm = jobs[:200]
    print(f"CPU: {cpu_model()}, {os.cpu_count()} cores, workers single-threaded "
          f"(NUMBA_NUM_THREADS=1); load average before: {os.getloadavg()[0]:.2f}")  # fmt: skip
    print(f"{len(jobs):,} exact flop spots (hand vs range), median of {args.repeats} "
          f"interleaved rounds")  # fmt: skip

    def loop() -> None:
        for s in job_spots:
            pokerlab.equity(s["players"], board=s["board"]).to_dict()

    loop()  # warm-up
    walls: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    loads: list[float] = []

    def record(name: str, measured: tuple[float, float]) -> None:
        walls.setdefault(name, []).append(measured[0])
        cpus.setdefault(name, []).append(measured[1])

    def consume(backend: Backend) -> None:
        for _ in run_jobs(jobs, backend):
            pass

    pools = {workers: LocalBackend(workers) for workers in (1, 2)}
    for pool in pools.values():
        list(run_jobs(warm, pool))
    try:
        for _ in range(args.repeats):
            loads.append(os.getloadavg()[0])
            record("loop", timed(loop, []))
            for workers, pool in pools.items():
                record(f"local {workers}", timed(partial(consume, pool), pool.pids()))
            with DaskBackend(dask_client(local_cluster=2), owned=True) as backend:
                list(run_jobs(warm, backend))
                pids = list(backend.client.run(os.getpid).values())
                record("dask 2", timed(partial(consume, backend), pids))
    finally:
        for pool in pools.values():
            pool.__exit__(None, None, None)
    times = {name: statistics.median(values) for name, values in walls.items()}
    cpu = {name: statistics.median(values) for name, values in cpus.items()}
    print(f"  load average at the rounds' starts: {', '.join(f'{x:.1f}' for x in loads)}")
    print("  backend    wall s    spots/s    CPU s (this process + workers), medians")
    for name, seconds in times.items():
        print(f"  {name:<8} {seconds:8.2f} {len(jobs) / seconds:10,.0f} {cpu[name]:10.2f}")
    round_ratios = [d / w for d, w in zip(walls["dask 2"], walls["local 2"], strict=True)]
    print(f"  dask 2 / local 2 wall, each round: {', '.join(f'{x:.2f}' for x in round_ratios)}")
    ratios = {
        "local 2 / local 1 speed-up, wall (target >= 1.8)": times["local 1"] / times["local 2"],
        "dask 2 time / local 2 time, wall (target <= 1.15)": times["dask 2"] / times["local 2"],
        "dask 2 / local 2, median of the rounds' ratios": statistics.median(round_ratios),
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
            json.dump({"times": times, "cpu": cpu, "walls": walls, "cpus": cpus,
                       "loads": loads, "ratios": ratios, "matrix_seconds": matrix_seconds},
                      f, indent=2)  # fmt: skip


if __name__ == "__main__":
    main()
