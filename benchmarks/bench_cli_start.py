"""Start-up cost: wall time of short pokerlab processes, with a cold and a warm numba cache.

    python benchmarks/bench_cli_start.py                  # about a minute
    python benchmarks/bench_cli_start.py --runs 5 --json out.json

Each command runs as a fresh subprocess; its wall time includes the interpreter start. "cold"
gives every run its own empty ``NUMBA_CACHE_DIR`` (numba compiles every kernel the command uses);
"warm" shares one directory filled by a first untimed run. Reported: the median (and min/max) of
``--runs`` runs.

``pokerlab eval`` evaluates in plain Python and never imports numba, so its cold and warm times
should match; the ``evaluate_batch`` one-liner is the cost a kernel-running command pays.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import machine_info, machine_line


def pokerlab_script() -> str:
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        candidate = Path(folder) / "pokerlab"
        if candidate.is_file():
            return str(candidate)
    found = shutil.which("pokerlab")
    if found is None:
        raise SystemExit("the pokerlab console script is not installed (pip install -e .)")
    return found


BATCH = (
    "import numpy as np, pokerlab; "
    "assert pokerlab.evaluate_batch(np.array([[51, 47, 43, 39, 35]]))[0] == 8 << 12 | 10"
)


def commands() -> dict[str, list[str]]:
    return {
        "python -c pass (interpreter baseline)": [sys.executable, "-c", "pass"],
        "python -c 'import pokerlab'": [sys.executable, "-c", "import pokerlab"],
        "pokerlab eval As Ks Qs Js Ts": [pokerlab_script(), "eval", "As", "Ks", "Qs", "Js", "Ts"],
        "python -c 'pokerlab.evaluate_batch(...)'": [sys.executable, "-c", BATCH],
    }


def time_once(argv: list[str], cache_dir: str) -> float:
    env = {**os.environ, "NUMBA_CACHE_DIR": cache_dir, "NO_COLOR": "1"}
    started = time.perf_counter()
    done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"{argv} failed ({done.returncode}):\n{done.stderr}")
    return seconds


def summary(times: list[float]) -> dict[str, Any]:
    return {
        "median": statistics.median(times),
        "min": min(times),
        "max": max(times),
        "runs": len(times),
    }


def measure(name: str, argv: list[str], runs: int, cold_runs: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="pokerlab-numba-") as root:
        cold = []
        for i in range(cold_runs):
            fresh = os.path.join(root, f"cold{i}")
            os.mkdir(fresh)
            cold.append(time_once(argv, fresh))
        warm_dir = os.path.join(root, "warm")
        os.mkdir(warm_dir)
        time_once(argv, warm_dir)  # fills the cache
        warm = [time_once(argv, warm_dir) for _ in range(runs)]
    return {"command": name, "cold": summary(cold), "warm": summary(warm)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10, help="warm runs per command (10)")
    parser.add_argument("--cold-runs", type=int, default=3, help="cold runs per command (3)")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()

    print(f"{machine_line('1 per command (start-up only)')}; {sys.executable}")
    rows = [measure(name, argv, args.runs, args.cold_runs) for name, argv in commands().items()]
    spread = f"{'(min-max)':>14}"
    print(f"{'command':44} {'cold median':>12} {spread} {'warm median':>12} {spread}")
    for r in rows:
        c, w = r["cold"], r["warm"]
        print(f"{r['command']:44} {c['median']:>11.3f}s {c['min']:>6.3f}-{c['max']:<6.3f}s "
              f"{w['median']:>11.3f}s {w['min']:>6.3f}-{w['max']:<6.3f}s")  # fmt: skip
    print(f"cold: {args.cold_runs} runs, each with an empty NUMBA_CACHE_DIR; warm: {args.runs} "
          "runs sharing a filled one.")  # fmt: skip
    if args.json:
        info = machine_info("1 per command (start-up only)")
        with open(args.json, "w") as f:
            json.dump({"machine": info, "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
