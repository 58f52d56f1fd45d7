"""First runs on an empty numba cache compile only what the request runs, once (issue 17, item 2).

Each CLI run gets its own empty ``NUMBA_CACHE_DIR``; numba writes one ``.nbc`` file per compiled
specialisation of a ``cache=True`` kernel (``module.function-line.py311.N.nbc``, ``N`` counting
the specialisations), so the files say which kernels a run compiled and how many times each.
Speed is measured in benchmarks/bench_first_run.py, never here.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import numpy as np

SRC = str(Path(__file__).resolve().parents[1] / "src")


def run_cold(args: list[str], cache: Path) -> tuple[str, Counter[str]]:
    """``python -m pokerlab ARGS`` with an empty numba cache in ``cache``: its output and how
    many specialisations of each kernel it compiled."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "NO_COLOR": "1"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    done = subprocess.run(
        [sys.executable, "-m", "pokerlab", *args], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    kernels: Counter[str] = Counter()
    for path in cache.rglob("*.nbc"):
        match = re.fullmatch(r"(.+?)-\d+\.py\d+\.\d+\.nbc", path.name)
        assert match, path.name
        kernels[match.group(1)] += 1
    return done.stdout, kernels


def test_first_headsup_preflop_equity_compiles_nothing(tmp_path: Path) -> None:
    """The newcomer's first command answers from the shipped table by numpy lookups: no
    kernel compiled (nor loaded: see the next test)."""
    out, kernels = run_cold(["equity", "AhAs", "KdKc"], tmp_path)
    assert "81.255%" in out and "18.745%" in out
    assert kernels == Counter()


def test_headsup_preflop_equity_never_imports_numba() -> None:
    """``import numba`` and its first kernel load cost about a second of CPU, more than the
    rest of the run; a heads-up preflop answer, hands or ranges, needs neither."""
    code = (
        "import sys\n"
        "from pokerlab.cli import main\n"
        "try:\n"
        "    main(sys.argv[1:])\n"
        "finally:\n"
        "    print('numba loaded:', 'numba' in sys.modules, file=sys.stderr)\n"
    )
    env = {**os.environ, "NO_COLOR": "1"}
    env["PYTHONPATH"] = os.pathsep.join(p for p in (SRC, env.get("PYTHONPATH")) if p)
    for args in (["AhAs", "KdKc"], ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo", "--json"]):
        done = subprocess.run(
            [sys.executable, "-c", code, "equity", *args], env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        assert "numba loaded: False" in done.stderr, (args, done.stderr)
        assert "exact" in done.stdout


def test_a_cold_run_compiles_each_kernel_once(tmp_path: Path) -> None:
    """Three-way preflop hold'em runs the matchup kernel, its board counter and the pass that
    gathers matchups into suit orbits: one specialisation each, none of the helpers twice
    (literal 0/1 arguments used to give ``award``, ``credit`` and ``_canonical_id`` a second
    one), and not the counter of given boards that used to come with it (boards go to other
    strategies)."""
    out, kernels = run_cold(["equity", "AhAs", "KdKc", "QsQh"], tmp_path)
    assert "exact" in out
    assert kernels == Counter(
        {
            "_exact.matchup_orbits": 1,
            "_exact._orbit_id": 1,
            "_exact.enumerate_matchups": 1,
            "_exact.preflop_counts": 1,
            "_exact._canonical_id": 1,
            "_showdown.award": 1,
            "_showdown.credit": 1,
            "_kernels.table_index": 1,
        }
    )


def test_joint_holding_walk_in_python_matches_the_kernel() -> None:
    """``prepare`` checks that a deal exists by walking in Python first (no kernel to compile);
    on random crowded ranges it answers as the kernel does, and leaves it to the kernel when
    its steps run out; with each player's holdings reordered least contested first, too."""
    from pokerlab.engine._exact import has_joint_holding
    from pokerlab.engine._joint_holding import least_demand_first, walk_in_python

    rng = np.random.default_rng(5)
    answers = set()
    for _ in range(300):
        n = int(rng.integers(2, 5))
        sizes = rng.integers(0, 4, size=n)
        cards = rng.integers(0, 7, size=(int(sizes.sum()), 2))  # 7 cards: many conflicts
        masks = ((np.uint64(1) << cards[:, 0].astype(np.uint64))
                 | (np.uint64(1) << cards[:, 1].astype(np.uint64)))  # fmt: skip
        offsets = np.concatenate([[0], np.cumsum(sizes)]).astype(np.int64)
        if rng.random() < 0.5:  # the last player with the first's range: "same" players
            masks = np.concatenate([masks, masks[: sizes[0]]])
            offsets = np.append(offsets, offsets[-1] + sizes[0])
            n += 1
        plain = np.zeros(n, dtype=bool)
        expected = bool(has_joint_holding(masks, offsets, plain, 10**9))
        same = np.array([p > 0 and np.array_equal(masks[offsets[p - 1]:offsets[p]],
                                                  masks[offsets[p]:offsets[p + 1]])
                         for p in range(n)])  # fmt: skip
        assert bool(has_joint_holding(masks, offsets, same, 10**9)) is expected  # symmetry
        assert walk_in_python(masks, offsets, same, 10**6) is expected
        order = least_demand_first(masks, np.arange(len(masks)), offsets)
        assert bool(has_joint_holding(masks[order], offsets, same, 10**9)) is expected
        answers.add(expected)
        if len(masks):
            assert walk_in_python(masks, offsets, same, 0) is None
            assert has_joint_holding(masks, offsets, plain, 0) == -1  # out of steps
    assert answers == {True, False}
