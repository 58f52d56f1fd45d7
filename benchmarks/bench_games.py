"""Omaha, stud, razz and short-deck benchmark: the targets of the games issue.

    python benchmarks/bench_games.py            # everything
    python benchmarks/bench_games.py --quick    # fewer hands and Monte Carlo deals
    python benchmarks/bench_games.py --json out.json

* Omaha high evaluation (two hole + three board, 60 combinations per 4-card hand): pokerlab's
  kernel on random hands next to phevaluator's ``evaluate_omaha_cards`` called per hand from
  Python (its users' way; its C library is faster), plus 5- and 6-card Omaha and the Omaha-8 low.
* Short-deck evaluation of random 7-card hands of the 36-card deck: ``short_deck_batch`` next
  to ``evaluate_batch`` on the same rows (the same kernel over another table) and pokerkit's
  ``ShortDeckHoldemHand.from_game`` per hand (the only peer with short-deck rules).
* Exact heads-up equities: ``AsAhKsKh`` vs ``JdTd9c8c`` Omaha preflop (1,086,008 boards), an
  Omaha hi/lo preflop spot, razz, stud and stud hi/lo from third street.
* Monte Carlo deals per second in every game (heads-up, exact hands, preflop / third street).

The rows are single-core figures (``threads=1``; the Omaha evaluation kernels are serial),
warm numba cache (one untimed warm-up call per spot), best of several repeats, fixed seeds.
Then thread-scaling tables (1 thread and every available core) of an exact Omaha spot, an
exact stud spot and Omaha Monte Carlo.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from typing import Any

import numba
import numpy as np

import pokerlab
from _common import available_cores, best_of, machine_info, machine_line, scaling_table
from pokerlab.errors import TooLargeError


def random_deals(n: int, k: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.argsort(rng.random((n, 52)), axis=1)[:, :k].astype(np.uint8)


def bench_omaha_eval(n: int, n_peer: int) -> list[dict[str, Any]]:
    from pokerlab.evaluation import _game_kernels as K
    from pokerlab.evaluation._game_tables import load_game_values
    from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK
    from pokerlab.evaluation._tables import load_high_tables
    from pokerlab.evaluation.omaha import omaha_batch, omaha_low_batch

    t = load_high_tables()
    mult, displace, values = np.uint64(t.multiplier), t.displace, load_game_values()
    rows = []
    for n_hole in (4, 5, 6):
        deals = random_deals(n, n_hole + 5, seed=n_hole)
        hole = np.ascontiguousarray(deals[:, :n_hole])
        board = np.ascontiguousarray(deals[:, n_hole:])
        out = np.empty(n, dtype=np.uint16)

        def kernel(
            hole: np.ndarray = hole, board: np.ndarray = board, k: int = n_hole,
            out: np.ndarray = out,
        ) -> None:  # fmt: skip
            K.omaha_high_rows(hole, k, board, CARD_KEY, CARD_MASK, mult, displace, values, out)

        sec, _ = best_of(kernel, 5)
        rows.append({"what": f"Omaha high, {n_hole} hole cards, raw kernel", "hands": n,
                     "per_s": n / sec})  # fmt: skip
        if n_hole == 4:
            sec, ours = best_of(functools.partial(omaha_batch, hole, board), 5)
            rows.append({"what": "Omaha high, 4 hole cards, omaha_batch (validates input)",
                         "hands": n, "per_s": n / sec})  # fmt: skip
            sec, _ = best_of(functools.partial(omaha_low_batch, hole, board), 5)
            rows.append({"what": "Omaha 8-or-better low, 4 hole cards, omaha_low_batch",
                         "hands": n, "per_s": n / sec})  # fmt: skip
            try:
                import phevaluator
            except ImportError:
                continue
            cards = [([int(c) for c in b], [int(c) for c in h])
                     for h, b in zip(hole[:n_peer], board[:n_peer], strict=True)]  # fmt: skip
            peer = phevaluator.evaluate_omaha_cards

            def run_peer(peer: Any = peer, cards: list[Any] = cards) -> list[int]:
                return [peer(*b, *h) for b, h in cards]

            sec, ranks = best_of(run_peer, 3)
            # same order: phevaluator's rank 1 is the best hand, our strength is larger-better
            order = np.lexsort((np.array(ranks),))
            assert (np.diff(ours[:n_peer][order].astype(np.int64)) <= 0).all()
            rows.append({"what": "Omaha high, 4 hole cards, phevaluator per hand from Python",
                         "hands": n_peer, "per_s": n_peer / sec})  # fmt: skip
    return rows


def bench_short_deck_eval(n: int, n_peer: int) -> list[dict[str, Any]]:
    from pokerlab.evaluation import evaluate_batch, short_deck_batch

    rng = np.random.default_rng(36)
    rows_ = (np.argsort(rng.random((n, 36)), axis=1)[:, :7] + 16).astype(np.uint8)
    rows: list[dict[str, Any]] = []
    for what, fn in (
        ("short_deck_batch, 7 cards (validates input)", short_deck_batch),
        ("evaluate_batch on the same rows (full-deck ranking)", evaluate_batch),
    ):
        sec, _ = best_of(functools.partial(fn, rows_, threads=1), 5)
        rows.append({"what": what, "per_s": n / sec})
    try:
        from pokerkit import ShortDeckHoldemHand
    except ImportError:
        return rows
    texts = [pokerlab.cards.format_cards(r.tolist()) for r in rows_[:n_peer]]

    def run_peer() -> None:
        for t in texts:
            ShortDeckHoldemHand.from_game(t[:4], t[4:])

    sec, _ = best_of(run_peer, 1)
    rows.append({"what": "pokerkit ShortDeckHoldemHand.from_game, per hand", "per_s": n_peer / sec})
    return rows


EXACT_SPOTS: list[tuple[str, str, list[str], str]] = [
    ("Omaha preflop AsAhKsKh vs JdTd9c8c (target <= 0.3 s)", "omaha",
     ["AsAhKsKh", "JdTd9c8c"], ""),
    ("Omaha hi/lo preflop As2sKd3d vs JhTh9c8c (target <= 1 s)", "omaha-hilo",
     ["As2sKd3d", "JhTh9c8c"], ""),
    ("5-card Omaha preflop AsAhKsKh2c vs JdTd9c8c7s", "omaha5",
     ["AsAhKsKh2c", "JdTd9c8c7s"], ""),
    ("razz third street As2d3h vs 4c5c6s (target <= 2 s)", "razz", ["As2d3h", "4c5c6s"], ""),
    ("razz (3-3-)45678 vs A345678 (49,152 x 16,384 holdings)", "razz",
     ["(3-3-)45678", "A345678"], ""),
    ("stud third street AsAh7c vs KdKc2s (target <= 2 s)", "stud", ["AsAh7c", "KdKc2s"], ""),
    ("stud hi/lo third street As2d3h vs KdKc7s (target <= 2 s)", "stud-hilo",
     ["As2d3h", "KdKc7s"], ""),
    ("stud hi/lo fifth street As2d3h9c4d vs KdKc7s5h5c", "stud-hilo",
     ["As2d3h9c4d", "KdKc7s5h5c"], ""),
    ("short-deck preflop AhKh vs QsQd (201,376 boards)", "shortdeck", ["AhKh", "QsQd"], ""),
    ("short-deck preflop AK vs QQ,JJ (16 x 12 combos)", "shortdeck", ["AK", "QQ,JJ"], ""),
    ("short-deck flop AK vs 22+ vs random, Jh9h6c", "shortdeck", ["AK", "22+", "random"],
     "Jh9h6c"),
]  # fmt: skip


def bench_exact() -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for label, game, players, board in EXACT_SPOTS:
        try:
            run = functools.partial(pokerlab.equity, players, board=board, game=game,
                                    method="exact", threads=1)  # fmt: skip
            sec, r = best_of(run, 3)
        except TooLargeError as exc:
            rows.append({"what": label, "seconds": None, "note": str(exc)})
            continue
        rows.append({"what": label, "seconds": sec, "deals": r.samples,
                     "equity": [round(p.equity, 6) for p in r.players]})  # fmt: skip
    return rows


MC_SPOTS: list[tuple[str, list[str]]] = [
    ("omaha", ["AsAhKsKh", "JdTd9c8c"]),
    ("omaha5", ["AsAhKsKh2c", "JdTd9c8c7s"]),
    ("omaha6", ["AsAhKsKh2c3c", "JdTd9c8c7s6s"]),
    ("omaha-hilo", ["As2sKd3d", "JhTh9c8c"]),
    ("omaha5-hilo", ["As2sKd3d4c", "JhTh9c8c7c"]),
    ("stud", ["AsAh7c", "KdKc2s"]),
    ("stud-hilo", ["As2d3h", "KdKc7s"]),
    ("razz", ["As2d3h", "4c5c6s"]),
    ("shortdeck", ["AhKh", "QsQd"]),
]


def bench_mc(trials: int) -> list[dict[str, Any]]:
    rows = []
    for game, players in MC_SPOTS:
        run = functools.partial(pokerlab.equity, players, game=game, method="mc",
                                trials=trials, seed=1, threads=1)  # fmt: skip
        sec, r = best_of(run, 3)
        rows.append({"what": f"Monte Carlo {game} {' vs '.join(players)} (target >= 5 M/s)",
                     "deals": r.samples, "per_s": r.samples / sec})  # fmt: skip
    return rows


def bench_scaling(trials: int) -> list[dict[str, Any]]:
    """Thread-scaling tables (printed as they run): exact Omaha and stud, Omaha Monte Carlo."""
    rows: list[dict[str, Any]] = []
    for name, game, players, kwargs in (
        ("Omaha preflop AsAhKsKh vs JdTd9c8c, exact", "omaha", ["AsAhKsKh", "JdTd9c8c"],
         {"method": "exact"}),
        ("stud third street AsAh7c vs KdKc2s, exact", "stud", ["AsAh7c", "KdKc2s"],
         {"method": "exact"}),
        (f"Omaha AsAhKsKh vs JdTd9c8c, Monte Carlo, {trials:,} deals", "omaha",
         ["AsAhKsKh", "JdTd9c8c"], {"method": "mc", "trials": trials, "seed": 1}),
    ):  # fmt: skip
        first = pokerlab.equity(players, game=game, threads=1, **kwargs)

        def run(threads: int, game: str = game, players: list[str] = players,
                kwargs: dict[str, Any] = kwargs) -> None:  # fmt: skip
            pokerlab.equity(players, game=game, threads=threads, **kwargs)

        rows += scaling_table(name, run, first.samples, "deals")
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and deals")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()
    n = 1_000_000 if args.quick else 4_000_000
    threads = f"1 (rows), 1 and {available_cores()} (scaling)"
    print(machine_line(threads))
    results: dict[str, Any] = {
        "machine": dict(machine_info(threads))
        | {"numpy": np.__version__, "numba": numba.__version__, "load_average": os.getloadavg()},
        "omaha_eval": bench_omaha_eval(n, 50_000 if args.quick else 200_000),
        "short_deck_eval": bench_short_deck_eval(n, 5_000 if args.quick else 20_000),
        "exact": bench_exact(),
        "monte_carlo": bench_mc(1_000_000 if args.quick else 4_000_000),
        "scaling": bench_scaling(1_000_000 if args.quick else 4_000_000),
    }
    m = results["machine"]
    print(f"CPU {m['cpu']} ({m['cores_online']} cores), load average {m['load_average']}")
    print(f"python {m['python']}, numpy {m['numpy']}, numba {m['numba']}; rows on one core\n")
    peer = next((r["per_s"] for r in results["omaha_eval"] if "phevaluator" in r["what"]), None)
    for r in results["omaha_eval"]:
        ratio = f"  ({r['per_s'] / peer:.1f}x phevaluator)" if peer else ""
        print(f"{r['what']:<62} {r['per_s'] / 1e6:8.2f} M hands/s{ratio}")
    print()
    short = results["short_deck_eval"]
    for r in short:
        ratio = (
            f"  (short_deck_batch: {short[0]['per_s'] / r['per_s']:,.2f}x this)"
            if r is not short[0]
            else ""
        )
        print(f"{r['what']:<62} {r['per_s'] / 1e6:8.3f} M hands/s{ratio}")
    print()
    for r in results["exact"]:
        if r["seconds"] is None:
            print(f"{r['what']:<62}  refused: {r['note']}")
        else:
            print(f"{r['what']:<62} {r['seconds']:8.3f} s  {r['deals']:,} deals  "
                  f"equity {r['equity']}")  # fmt: skip
    print()
    for r in results["monte_carlo"]:
        print(f"{r['what']:<62} {r['per_s'] / 1e6:8.2f} M deals/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
