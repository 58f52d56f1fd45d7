"""High-hand evaluator throughput: pokerlab next to eval7 and phevaluator, in one process.

    python benchmarks/bench_evaluator.py                  # about 10 s
    python benchmarks/bench_evaluator.py --json out.json  # also dump the rows as JSON
    python benchmarks/bench_evaluator.py --quick          # smaller samples, fewer repeats

Warm numba cache (one warm-up call first), best of several repeats. The rows are single-thread
figures (``threads=1``); then a thread-scaling table of ``evaluate_batch`` (uint8 and int64
codes) on 1 thread and every available core. Two patterns:

* random hands: a fixed-seed array of 1,000,000 random 7-card hands. pokerlab's public
  ``evaluate_batch`` runs over the whole array, validating every row (the default) and trusting
  them (``check=False``); eval7 (``eval7.evaluate`` on prebuilt Card lists) and phevaluator
  (``evaluate_cards`` on card codes, its fastest input: its integer encoding equals pokerlab's)
  are called per hand from Python on a 200,000-hand subsample, as their users call them.
* enumeration: one fixed hole-card pair and every 5-card board of the remaining 50 cards
  (2,118,760 boards). pokerlab's ``strength_histogram`` kernel adds each board card to the fixed
  pair's additive key; the peers evaluate ``hole + board`` per board from Python (the full loop
  for eval7 if it projects under 30 s, else a subsample; a subsample for phevaluator).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import math
import platform
import time
from typing import Any

import numba
import numpy as np
from numpy.typing import NDArray

import pokerlab
from _common import best_time, machine_info, machine_line, scaling_table
from pokerlab.cards import Card, parse_cards
from pokerlab.evaluation import _kernels as K
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation import evaluate_batch

SEED = 20240607
HOLE = "AhKd"


@numba.njit(cache=True)
def _five_card_walk(  # type: ignore[no-untyped-def]  # a numba kernel: typed when compiled
    fixed_key, fixed_mask, free, card_key, card_mask, mult, displace, values, hist, store
):
    """The 5-card board walk written plainly, as references for ``strength_histogram``: with
    ``store``, one histogram, ``hist[v] += 1`` per board (issue 10 found this bound by
    store-to-load forwarding on an AMD EPYC when consecutive boards hit one bin); without, the
    strengths summed (no stores: the ceiling for a walk that evaluates every board, which
    ``strength_histogram`` no longer does where no flush can come)."""
    n = free.shape[0]
    total = 0
    for a in range(n):
        k1 = fixed_key + card_key[free[numba.uint64(a)]]
        m1 = fixed_mask | card_mask[free[numba.uint64(a)]]
        for b in range(a + 1, n):
            k2 = k1 + card_key[free[numba.uint64(b)]]
            m2 = m1 | card_mask[free[numba.uint64(b)]]
            for c in range(b + 1, n):
                k3 = k2 + card_key[free[numba.uint64(c)]]
                m3 = m2 | card_mask[free[numba.uint64(c)]]
                for d in range(c + 1, n):
                    k4 = k3 + card_key[free[numba.uint64(d)]]
                    m4 = m3 | card_mask[free[numba.uint64(d)]]
                    for e in range(d + 1, n):
                        x = free[numba.uint64(e)]
                        v = values[K.table_index(k4 + card_key[x], m4 | card_mask[x], mult,
                                                 displace)]  # fmt: skip
                        if store:
                            hist[v] += 1
                        else:
                            total += v
    return total


def machine() -> dict[str, Any]:
    import eval7
    import phevaluator

    versions = {"python": platform.python_version(), "numpy": np.__version__}
    versions |= {"numba": numba.__version__, "pokerlab": pokerlab.__version__}
    versions["eval7"] = getattr(eval7, "__version__", "?")
    versions["phevaluator"] = getattr(phevaluator, "__version__", "?")
    try:
        from importlib.metadata import version

        versions["eval7"] = version("eval7")
        versions["phevaluator"] = version("phevaluator")
    except Exception:
        pass
    return machine_info("1 (rows), 1 and all cores (scaling)") | {"versions": versions}


def random_hands(n: int, k: int, seed: int) -> NDArray[np.uint8]:
    """``n`` uniformly random ``k``-card hands: rows of uniform codes, rows with a repeat
    rejected."""
    rng = np.random.default_rng(seed)
    kept: list[NDArray[np.uint8]] = []
    have = 0
    while have < n:
        draw = rng.integers(0, 52, size=(2 * (n - have) + 64, k), dtype=np.uint8)
        ok = (np.diff(np.sort(draw, axis=1), axis=1) != 0).all(axis=1)
        kept.append(draw[ok])
        have += int(ok.sum())
    return np.ascontiguousarray(np.concatenate(kept)[:n])


def row(name: str, pattern: str, n: int, seconds: float, note: str = "") -> dict[str, Any]:
    return {
        "name": name,
        "pattern": pattern,
        "evals": n,
        "seconds": seconds,
        "evals_per_s": n / seconds,
        "note": note,
    }


def bench_random(n: int, sub: int, repeats: int) -> list[dict[str, Any]]:
    import eval7
    from phevaluator import evaluate_cards

    hands = random_hands(n, 7, SEED)
    rows = []

    narrow = best_time(lambda: evaluate_batch(hands, threads=1), repeats)
    rows.append(row("pokerlab evaluate_batch", "random 7-card", n, narrow, "validation included"))

    wide = hands.astype(np.int64)
    seconds = best_time(lambda: evaluate_batch(wide, threads=1), repeats)
    rows.append(row("pokerlab evaluate_batch (int64 input)", "random 7-card", n, seconds,
                    f"validation included; {seconds / narrow:.2f}x the uint8 time"))  # fmt: skip

    seconds = best_time(lambda: evaluate_batch(hands, check=False, threads=1), repeats)
    rows.append(row("pokerlab evaluate_batch(check=False)", "random 7-card", n, seconds,
                    "rows trusted, not validated"))  # fmt: skip

    small = hands[:sub].tolist()
    deck7 = [eval7.Card(str(Card(c))) for c in range(52)]
    prebuilt = [[deck7[c] for c in h] for h in small]
    evaluate7 = eval7.evaluate

    def run_eval7() -> None:
        for h in prebuilt:
            evaluate7(h)

    seconds = best_time(run_eval7, max(1, repeats // 2))
    rows.append(row("eval7 evaluate (per hand)", "random 7-card", sub, seconds))

    names = [str(Card(c)) for c in range(52)]
    assert all(evaluate_cards(*h) == evaluate_cards(*(names[c] for c in h)) for h in small[:1000])

    def run_ph() -> None:
        for h in small:
            evaluate_cards(*h)

    seconds = best_time(run_ph, max(1, repeats // 2))
    rows.append(row("phevaluator evaluate_cards (per hand)", "random 7-card", sub, seconds))

    few = [parse_cards(h) for h in small[: sub // 10]]
    evaluate = pokerlab.evaluate

    def run_single() -> None:
        for h in few:
            evaluate(h)

    seconds = best_time(run_single, 1)
    rows.append(
        row("pokerlab evaluate (per hand)", "random 7-card", len(few), seconds, "pure Python")
    )
    return rows


def bench_enumeration(board_sub: int, repeats: int, full_budget: float) -> list[dict[str, Any]]:
    import eval7
    from phevaluator import evaluate_cards

    hole = [int(c) for c in parse_cards(HOLE)]
    rest = np.array([c for c in range(52) if c not in hole], dtype=np.uint8)
    n_boards = math.comb(len(rest), 5)
    tables = T.load_high_tables()
    fixed_key = K.EMPTY_KEY + K.CARD_KEY[hole[0]] + K.CARD_KEY[hole[1]]
    fixed_mask = K.CARD_MASK[hole[0]] | K.CARD_MASK[hole[1]]
    hist = np.zeros(1 << 16, np.int64)

    def kernel() -> None:
        hist[:] = 0
        count = K.strength_histogram(
            fixed_key,
            fixed_mask,
            rest,
            5,
            K.CARD_KEY,
            K.CARD_MASK,
            np.uint64(tables.multiplier),
            tables.displace,
            tables.values,
            hist,
        )
        assert count == n_boards

    rows = []
    seconds = best_time(kernel, repeats * 4)
    rows.append(row("pokerlab strength_histogram", f"{HOLE} + all boards", n_boards, seconds,
                    "one thread (a serial kernel), runs of equal strengths counted"))  # fmt: skip
    args = (fixed_key, fixed_mask, rest, K.CARD_KEY, K.CARD_MASK, np.uint64(tables.multiplier),
            tables.displace, tables.values, hist)  # fmt: skip
    for store, what in ((True, "one histogram, hist[v] += 1"),
                        (False, "strengths summed, every board evaluated")):  # fmt: skip
        ref = best_time(functools.partial(_five_card_walk, *args, store), repeats * 4)
        rows.append(row(f"reference walk: {what}", f"{HOLE} + all boards", n_boards, ref,
                        f"strength_histogram at {ref / seconds:.2f}x its rate"))  # fmt: skip

    # Peers: every `step`-th board (a spread-out subsample), or the full loop.
    step = max(1, n_boards // board_sub)
    boards = list(itertools.islice(itertools.combinations(rest.tolist(), 5), 0, None, step))
    deck7 = [eval7.Card(str(Card(c))) for c in range(52)]
    hole7 = [deck7[c] for c in hole]
    boards7 = [[deck7[c] for c in b] for b in boards]
    evaluate7 = eval7.evaluate

    def run_eval7(bs: list[list[Any]]) -> None:
        for b in bs:
            evaluate7(hole7 + b)

    seconds = best_time(lambda: run_eval7(boards7), 1)
    rows.append(row("eval7 evaluate (per board)", f"{HOLE} + every {step}th board",
                    len(boards7), seconds))  # fmt: skip
    if seconds / len(boards7) * n_boards < full_budget:
        del boards7
        rest7 = [deck7[c] for c in rest.tolist()]
        started = time.perf_counter()
        for b in itertools.combinations(rest7, 5):
            evaluate7(hole7 + list(b))
        seconds = time.perf_counter() - started
        rows.append(row("eval7 evaluate (per board, full loop)", f"{HOLE} + all boards",
                        n_boards, seconds, "boards from itertools.combinations"))  # fmt: skip

    h0, h1 = hole

    def run_ph() -> None:
        for b in boards:
            evaluate_cards(h0, h1, *b)

    seconds = best_time(run_ph, 1)
    rows.append(row("phevaluator evaluate_cards (per board)", f"{HOLE} + every {step}th board",
                    len(boards), seconds))  # fmt: skip
    return rows


def print_table(rows: list[dict[str, Any]]) -> None:
    by_pattern: dict[str, float] = {}
    for r in rows:
        if r["name"].startswith("pokerlab") and "per hand" not in r["name"]:
            by_pattern.setdefault(r["pattern"].split()[0], r["evals_per_s"])
    print(
        f"{'':40} {'pattern':30} {'evals':>10} {'seconds':>9} {'M evals/s':>10} {'pokerlab/x':>10}"
    )
    for r in rows:
        ours = by_pattern.get(r["pattern"].split()[0])
        ratio = "" if r["name"].startswith("pokerlab") or ours is None else (
            f"{ours / r['evals_per_s']:.1f}x"
        )  # fmt: skip
        print(f"{r['name']:40} {r['pattern']:30} {r['evals']:>10,} {r['seconds']:>9.4f} "
              f"{r['evals_per_s'] / 1e6:>10.2f} {ratio:>10}")  # fmt: skip
    print("pokerlab/x: the first pokerlab row of the same pattern (evaluate_batch for random "
          "hands, strength_histogram for the enumeration) over that row's rate.")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    parser.add_argument("--quick", action="store_true", help="smaller samples, fewer repeats")
    args = parser.parse_args()

    info = machine()
    v = info["versions"]
    print(machine_line("1 (rows), 1 and all cores (scaling)"))
    print(f"numpy {v['numpy']}, numba {v['numba']}, eval7 {v['eval7']}, "
          f"phevaluator {v['phevaluator']}")  # fmt: skip
    if args.quick:
        rows = bench_random(200_000, 50_000, 3) + bench_enumeration(50_000, 3, 0.0)
    else:
        rows = bench_random(1_000_000, 200_000, 7) + bench_enumeration(200_000, 5, 30.0)
    print_table(rows)
    hands = random_hands(200_000 if args.quick else 1_000_000, 7, SEED)
    wide = hands.astype(np.int64)
    scaling = scaling_table(
        "evaluate_batch, uint8 codes",
        lambda t: evaluate_batch(hands, threads=t),
        len(hands),
        "hands",
    )
    scaling += scaling_table(
        "evaluate_batch, int64 codes",
        lambda t: evaluate_batch(wide, threads=t),
        len(hands),
        "hands",
    )
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": info, "rows": rows, "scaling": scaling}, f, indent=2)
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
