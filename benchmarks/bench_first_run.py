"""First runs: CPU seconds of the first ``pokerlab equity`` of each game on an empty numba cache.

    PYTHONPATH=src python benchmarks/bench_first_run.py             # a few minutes
    PYTHONPATH=src python benchmarks/bench_first_run.py --games razz,stud --json out.json

Each spot runs as ``python -m pokerlab equity ...`` in a fresh subprocess with
``NUMBA_CACHE_DIR`` pointing at a temporary directory, so numba's ``cache=True`` kernels are
written there and nowhere else (numba's user-provided cache locator comes before the in-tree
``__pycache__`` one; the script checks that the directory fills). Three runs per spot:

* **cold**: an empty cache, as right after an install (the issue's target: at most 3 s for
  the first ``pokerlab equity AhAs KdKc``, at most 2 s for the first run of any other game);
* **after first**: a cache that holds only what ``pokerlab equity AhAs KdKc`` compiled (a
  newcomer's second command);
* **warm**: the same spot again, everything cached;
* with ``--after-warm``, **after warm**: a copy of a cache filled by one ``pokerlab warm``, as
  right after the README's Quickstart (which ends with it); the warm-up's own CPU and wall
  seconds are printed too.

Python's own bytecode is compiled first (``compileall`` of the pokerlab package measured, and
of ``--baseline``'s), and the runs may read and write ``.pyc`` files (``PYTHONDONTWRITEBYTECODE``
is dropped from their environment): ``pip install`` compiles a package's bytecode when it
installs it, so a user's first run does not compile pokerlab's 90-odd modules from source (0.3 s
of CPU on the Zen 3 machine, which earlier figures included where that variable was set).

Reported per run: user + system CPU seconds of the subprocess (``os.wait4``; the honest figure
on a shared machine, threads included), its wall time, and how many kernel specialisations it
compiled (``.nbc`` files it added to the cache). Each figure is the median of ``--runs`` runs.

``--baseline OLD/src`` also runs every cold run on an older checkout (its ``src`` folder put
first on ``PYTHONPATH``), alternating with this one, and prints old / new CPU ratios: on a
loaded machine compare within one run only.

    PYTHONPATH=src python benchmarks/bench_first_run.py --baseline /tmp/old/src

``--venv DIR`` measures pokerlab as the README's Quickstart installs it: a virtual environment in
``DIR`` (made with ``python -m venv`` when missing), this checkout ``pip install``-ed into it
each time, and the script run again by its Python without ``PYTHONPATH``. A development
environment differs from a user's: here ``scipy`` happened to be installed, and numba's BLAS check
imports ``scipy.linalg`` in every process that loads a kernel (0.2-0.3 s of CPU).

    python benchmarks/bench_first_run.py --venv /tmp/qsv --after-warm --runs 3
"""

from __future__ import annotations

import argparse
import compileall
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from _common import machine_info, machine_line

FIRST = ["AhAs", "KdKc"]
SPOTS: dict[str, list[str]] = {
    "holdem": FIRST,
    "holdem flop": ["AsKs", "QQ+,AKs", "--board", "Qh7c2d", "--dead", "3s"],
    "holdem 3-way": ["AhAs", "KdKc", "QsQh"],
    "holdem mc": ["QQ+,AKs", "JJ-88,AQs+", "random", "--mc", "--trials", "20000", "--seed", "1"],
    "omaha": ["--game", "omaha", "AsAhKsKh", "JdTd9c8c"],
    "omaha-hilo": ["--game", "omaha-hilo", "As2sKd3d", "JdTd9c8c", "--board", "Qs7d2c"],
    "omaha5": ["--game", "omaha5", "AsAhKsKh2c", "JdTd9c8c7c", "--board", "Qs7d2d"],
    "razz": ["--game", "razz", "As2h3s4c5d", "QdQcJhJs9c"],
    "stud": ["--game", "stud", "AsAhKs2c3d", "QdQcJhJs9c"],
    "stud-hilo": ["--game", "stud-hilo", "As2h3s4c5d6h", "QdQcJhJs9c8c"],
    "stud-hilo mc": [
        "--game",
        "stud-hilo",
        "As2d|3h",
        "KdKc|7s",
        "--mc",
        "--trials",
        "20000",
        "--seed",
        "1",
    ],
}
TARGETS = {"holdem": 3.0}
OTHER_TARGET = 2.0


def run_once(
    args: list[str], cache_dir: Path, src: str | None = None, command: str = "equity"
) -> dict[str, float]:
    """CPU (user + system) and wall seconds of one ``python -m pokerlab COMMAND`` subprocess
    (pokerlab from ``src`` when given), and the kernel specialisations it added to
    ``cache_dir``."""
    before = len(list(cache_dir.rglob("*.nbc")))
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache_dir), "NO_COLOR": "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as installed: bytecode compiled once (main)
    if src is not None:
        env["PYTHONPATH"] = os.pathsep.join(p for p in (src, env.get("PYTHONPATH")) if p)
    argv = [sys.executable, "-m", "pokerlab", command, *args]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        started = time.perf_counter()
        pid = subprocess.Popen(argv, env=env, stdout=out, stderr=err).pid
        _, status, usage = os.wait4(pid, 0)
        wall = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise SystemExit(f"{' '.join(argv)} failed:\n{err.read().decode()}")
    compiled = len(list(cache_dir.rglob("*.nbc"))) - before
    return {"cpu": usage.ru_utime + usage.ru_stime, "wall": wall, "compiled": compiled}


def _package_dir(src: str | None) -> str:
    """The pokerlab package a run imports: ``src``'s, or the one this Python finds."""
    if src is not None:
        return str(Path(src) / "pokerlab")
    spec = importlib.util.find_spec("pokerlab")
    if spec is None or spec.origin is None:
        raise SystemExit("pokerlab is not importable: install it or set PYTHONPATH=src")
    return str(Path(spec.origin).parent)


def median_of(rows: list[dict[str, float]]) -> dict[str, float]:
    return {key: statistics.median(r[key] for r in rows) for key in rows[0]}


def measure(
    name: str, args: list[str], runs: int, root: Path, baseline: str | None, warmed: Path | None
) -> dict[str, Any]:
    cold, after, warm, old, after_warm = [], [], [], [], []
    for i in range(runs):
        if warmed is not None:
            copy = root / f"{name}-after-warm{i}"
            shutil.copytree(warmed, copy)
            after_warm.append(run_once(args, copy))
        if baseline is not None:
            fresh = root / f"{name}-old{i}"
            fresh.mkdir()
            old.append(run_once(args, fresh, baseline))
        fresh = root / f"{name}-cold{i}"
        fresh.mkdir()
        cold.append(run_once(args, fresh))
        warm.append(run_once(args, fresh))
        primed = root / f"{name}-after{i}"
        primed.mkdir()
        run_once(FIRST, primed)
        after.append(run_once(args, primed))
    row = {"spot": name, "args": args, "cold": median_of(cold), "after_first": median_of(after),
           "warm": median_of(warm)}  # fmt: skip
    if old:
        row["baseline_cold"] = median_of(old)
    if after_warm:
        row["after_warm"] = median_of(after_warm)
    return row


REPO = Path(__file__).resolve().parents[1]


def rerun_in_venv(venv: Path) -> None:
    """Install this checkout into the virtual environment ``venv`` (made when missing) and run
    this script again there, without ``--venv`` and ``PYTHONPATH``; does not return."""
    python = venv / "bin" / "python"
    if not python.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(python), "-m", "pip", "install", "-q", str(REPO)], check=True)
    argv, skip = [], False
    for arg in sys.argv[1:]:
        if skip or arg.startswith("--venv="):
            skip = False
            continue
        if arg == "--venv":
            skip = True
            continue
        argv.append(arg)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    os.execve(python, [str(python), str(Path(__file__).resolve()), *argv], env)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=1, help="runs per spot and cache state (1)")
    parser.add_argument("--games", help=f"comma-separated spots (default all: {', '.join(SPOTS)})")
    parser.add_argument("--baseline", metavar="SRC", help="an older checkout's src folder")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument(
        "--after-warm", action="store_true", help="also run each spot after one `pokerlab warm`"
    )
    parser.add_argument(
        "--venv", metavar="DIR", help="measure in a virtual environment as the Quickstart makes"
    )
    args = parser.parse_args()
    if args.venv:
        rerun_in_venv(Path(args.venv))
    names = args.games.split(",") if args.games else list(SPOTS)
    unknown = [n for n in names if n not in SPOTS]
    if unknown:
        raise SystemExit(f"unknown spot(s) {', '.join(unknown)}: use {', '.join(SPOTS)}")

    for package in (_package_dir(None), _package_dir(args.baseline)):
        compileall.compile_dir(package, quiet=1)  # as `pip install` does
    line = machine_line("default (every core)").replace("clock: wall", "clock: CPU (user+system)")
    print(f"{line}; {sys.executable}")
    rows = []
    with tempfile.TemporaryDirectory(prefix="pokerlab-first-run-") as tmp:
        warmed = None
        if args.after_warm:
            warmed = Path(tmp) / "warmed"
            warmed.mkdir()
            w = run_once([], warmed, command="warm")
            print(f"  pokerlab warm, empty cache: {w['cpu']:.1f} s CPU, {w['wall']:.1f} s wall, "
                  f"{w['compiled']:.0f} kernels", flush=True)  # fmt: skip
        for name in names:
            rows.append(measure(name, SPOTS[name], args.runs, Path(tmp), args.baseline, warmed))
            r = rows[-1]
            print(f"  measured {name}: cold {r['cold']['cpu']:.2f} s CPU", flush=True)
    if len(rows) > 1 and not any(r["cold"]["compiled"] for r in rows):
        raise SystemExit("no cold run cached a kernel: is NUMBA_CACHE_DIR honoured?")
    head = (f"{'spot':14} {'target':>7} {'cold CPU':>9} {'wall':>6} {'kernels':>8} "
            f"{'after-first CPU':>16} {'kernels':>8} {'warm CPU':>9} {'wall':>6}")  # fmt: skip
    print(head)
    for r in rows:
        c, a, w = r["cold"], r["after_first"], r["warm"]
        target = TARGETS.get(r["spot"], OTHER_TARGET)
        print(f"{r['spot']:14} {target:>6.1f}s {c['cpu']:>8.2f}s {c['wall']:>5.1f}s "
              f"{c['compiled']:>8.0f} {a['cpu']:>15.2f}s {a['compiled']:>8.0f} "
              f"{w['cpu']:>8.2f}s {w['wall']:>5.1f}s")  # fmt: skip
    print("kernels: specialisations compiled (.nbc files added to the cache); "
          f"medians of {args.runs} run(s); spots: pokerlab equity ...")  # fmt: skip
    if args.baseline:
        print(f"baseline {args.baseline}, cold cache, in the same run:")
        print(f"  {'spot':14} {'old CPU':>8} {'kernels':>8} {'new CPU':>8} {'kernels':>8} "
              f"{'old/new':>8}")  # fmt: skip
        for r in rows:
            o, c = r["baseline_cold"], r["cold"]
            print(f"  {r['spot']:14} {o['cpu']:>7.2f}s {o['compiled']:>8.0f} {c['cpu']:>7.2f}s "
                  f"{c['compiled']:>8.0f} {o['cpu'] / c['cpu']:>7.1f}x")  # fmt: skip
    if args.after_warm:
        print("after one `pokerlab warm` (a copy of its cache per spot), as after the Quickstart:")
        print(f"  {'spot':14} {'target':>7} {'CPU':>7} {'wall':>6} {'kernels':>8}")
        for r in rows:
            w, target = r["after_warm"], TARGETS.get(r["spot"], OTHER_TARGET)
            print(f"  {r['spot']:14} {target:>6.1f}s {w['cpu']:>6.2f}s {w['wall']:>5.1f}s "
                  f"{w['compiled']:>8.0f}")  # fmt: skip
    for r in rows:
        print(f"  {r['spot']:14} {' '.join(r['args'])}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": machine_info("default"), "rows": rows}, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
