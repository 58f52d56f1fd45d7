"""One job over many machines: ``pokerlab.equity(..., client=...)`` against the same job on
this process's threads.

    python benchmarks/bench_split.py [--json FILE]

Two jobs, each timed (best of 3, after a warm-up run that also starts the workers' numba):

* exact: a 3-way hold'em flop spot of ranges (board-major enumeration, a few seconds);
* Monte Carlo: 20,000,000 seeded deals of a 3-way range spot on the turn.

Rows: ``threads 1``, ``threads N`` (every available core), and ``dask N``: a Dask
``LocalCluster`` of N single-threaded worker processes on this machine (the chunks travel to
the workers and their partial counts back). Each row checks that its counts are the bits of
the ``threads 1`` row; the ratio ``dask N / threads N`` is the cost of the cluster machinery on
one machine (what a real cluster adds on top: the network).
"""

from __future__ import annotations

import argparse
import functools
import json
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import pokerlab
from _common import available_cores, machine_line
from pokerlab.scale import dask_client

JOBS: list[tuple[str, dict[str, Any]]] = [
    ("exact 3-way flop", dict(players=["AK,AQ,KQ,AJ", "22+,A2s+", "KQs,QJs,JTs,T9s,98s"],
                              board="Td9c2h", method="exact")),
    ("mc 20M deals", dict(players=["AhKh", "QQ+,AK", "JTs,99,88"], board="Td9c2h3s",
                          method="mc", trials=20_000_000, seed=1)),
]  # fmt: skip


def best(fn: Callable[[], pokerlab.EquityResult], repeats: int = 3) -> tuple[float, Any]:
    result = fn()  # warm-up
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - started)
    return min(times), result


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    cores = available_cores()
    print(machine_line(f"1 and {cores}; dask: {cores} worker processes of 1 thread"))
    client = dask_client(local_cluster=cores)
    rows = []
    try:
        for name, job in JOBS:
            base_s, base = best(functools.partial(pokerlab.equity, **job, threads=1))
            many_s, many = best(functools.partial(pokerlab.equity, **job, threads=cores))
            dask_s, dask = best(functools.partial(pokerlab.equity, **job, client=client))
            same = all(np.array_equal(base.counts, r.counts) for r in (many, dask))
            print(f"{name}: {base.samples:,} deals; same bits on every row: {same}")
            for label, seconds in (("threads 1", base_s), (f"threads {cores}", many_s),
                                   (f"dask {cores}", dask_s)):  # fmt: skip
                print(f"  {label:>10} {seconds:8.3f} s  {base_s / seconds:5.2f}x of threads 1")
            print(f"  dask {cores} / threads {cores}: {dask_s / many_s:.2f}")
            rows.append({"job": name, "threads_1": base_s, f"threads_{cores}": many_s,
                         f"dask_{cores}": dask_s, "same_bits": same})  # fmt: skip
    finally:
        cluster = getattr(client, "pokerlab_owned_cluster", None)
        client.close()
        if cluster is not None:
            cluster.close()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
