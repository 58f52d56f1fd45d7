"""Hold'em equity benchmark: the spots of the equity issue, pokerlab next to peers in one process.

    python benchmarks/bench_equity.py            # all spots (random vs random exact included)
    python benchmarks/bench_equity.py --quick    # skip the spots that take more than a few seconds
    python benchmarks/bench_equity.py --json out.json

Single core (NUMBA_NUM_THREADS=1), warm numba cache (one warm-up run per spot), best of several
repeats. eval7 runs where it can: its exact function only accepts complete boards, so it is looped
over every runout in Python (as its users must); phevaluator likewise per board.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numba
import numpy as np

import pokerlab
from _common import best_of, machine_line
from pokerlab.cards import format_cards, parse_cards

RANGE_226 = "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"


# --- peers: brute force over runouts ------------------------------------------------------


def eval7_hands_exact(hands: list[str], board: str) -> list[float]:
    """Equity of exact hands by looping eval7.evaluate over every runout."""
    import eval7

    holes = [[eval7.Card(str(c)) for c in parse_cards(h)] for h in hands]
    fixed = [eval7.Card(str(c)) for c in parse_cards(board)]
    used = {str(c) for h in hands for c in parse_cards(h)} | {str(c) for c in parse_cards(board)}
    deck = [eval7.Card(format_cards([c])) for c in range(52) if format_cards([c]) not in used]
    shares = [0.0] * len(hands)
    total = 0
    for rest in itertools.combinations(deck, 5 - len(fixed)):
        b = fixed + list(rest)
        values = [eval7.evaluate(h + b) for h in holes]
        best = max(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        total += 1
    return [s / total for s in shares]


def phevaluator_hands_exact(hands: list[str], board: str) -> list[float]:
    from phevaluator import evaluate_cards

    holes = [[str(c) for c in parse_cards(h)] for h in hands]
    fixed = [str(c) for c in parse_cards(board)]
    used = {c for h in holes for c in h} | set(fixed)
    deck = [format_cards([c]) for c in range(52) if format_cards([c]) not in used]
    shares = [0.0] * len(hands)
    total = 0
    for rest in itertools.combinations(deck, 5 - len(fixed)):
        b = fixed + list(rest)
        values = [evaluate_cards(*(h + b)) for h in holes]  # lower is better
        best = min(values)
        winners = [i for i, v in enumerate(values) if v == best]
        for i in winners:
            shares[i] += 1 / len(winners)
        total += 1
    return [s / total for s in shares]


def eval7_hand_vs_range_flop(hand: str, villain: str, board: str) -> float:
    """eval7's exact hand-vs-range, looped over every turn+river (it needs a complete board)."""
    import eval7

    hero = [eval7.Card(str(c)) for c in parse_cards(hand)]
    rng = eval7.HandRange(villain)
    fixed = [eval7.Card(str(c)) for c in parse_cards(board)]
    used = {str(c) for c in parse_cards(hand)} | {str(c) for c in parse_cards(board)}
    deck = [eval7.Card(format_cards([c])) for c in range(52) if format_cards([c]) not in used]
    total = 0.0
    count = 0
    for rest in itertools.combinations(deck, 5 - len(fixed)):
        total += eval7.py_hand_vs_range_exact(hero, rng, fixed + list(rest))
        count += 1
    return total / count


# --- the spots ----------------------------------------------------------------------------------


SPOTS: list[dict[str, Any]] = [
    {"name": "AhAs vs KdKc, exact preflop", "players": ["AhAs", "KdKc"], "board": "",
     "target_ms": 1.5, "ompeval_ms": 1.9, "peers": ["eval7", "phevaluator"]},
    {"name": "AsKs vs QQ+,AKs,AKo, exact preflop", "players": ["AsKs", "QQ+,AKs,AKo"],
     "board": "", "target_ms": 14, "ompeval_ms": "14-23"},
    {"name": "QQ+,AKs,AKo vs JJ-88,AQs+,AQo, exact", "players": ["QQ+,AKs,AKo",
     "JJ-88,AQs+,AQo"], "board": "", "target_ms": 33, "ompeval_ms": 49},
    {"name": "226-combo range vs QQ+,AKs,AKo, exact", "players": [RANGE_226, "QQ+,AKs,AKo"],
     "board": "", "target_ms": 1000, "ompeval_ms": 993, "slow": True},
    {"name": "QsQh vs 8c7c vs random on Jc9h2d, exact", "players": ["QsQh", "8c7c", "random"],
     "board": "Jc9h2d", "target_ms": 20, "peers": ["eval7-3way"]},
    {"name": "AsKs vs QQ+,AKs on Qh7c2d (flop), exact", "players": ["AsKs", "QQ+,AKs"],
     "board": "Qh7c2d", "target_ms": None, "peers": ["eval7-hvr"]},
    {"name": "random vs random, exact preflop", "players": ["random", "random"], "board": "",
     "target_ms": 60_000, "ompeval_ms": 98_000, "slow": True, "repeats": 1},
]  # fmt: skip


def run_spot(spot: dict[str, Any]) -> dict[str, Any]:
    players, board = spot["players"], spot["board"]
    repeats = spot.get("repeats", 7)
    seconds, result = best_of(
        lambda: pokerlab.equity(players, board=board, method="exact"), repeats, budget=20.0
    )
    row: dict[str, Any] = {
        "spot": spot["name"],
        "pokerlab_ms": seconds * 1e3,
        "deals": result.samples,
        "equity": [round(p.equity, 6) for p in result.players],
        "target_ms": spot.get("target_ms"),
        "ompeval_ms": spot.get("ompeval_ms"),
    }
    if not board and len(players) == 2:
        # Heads-up preflop answers come from the shipped table of exact results; time the engine
        # enumerating the same spot from scratch too, so the table is not the only figure.
        from pokerlab.engine._control import Control
        from pokerlab.engine.exact import PreflopMatchups
        from pokerlab.engine.problem import prepare

        problem = prepare(players, "", "", "holdem")
        control = Control(threads=1)
        engine_s, _ = best_of(lambda: PreflopMatchups().run(problem, control), repeats)
        row["engine_no_table_ms"] = engine_s * 1e3
    for peer in spot.get("peers", []):
        if peer == "eval7":
            t, eq = best_of(lambda: eval7_hands_exact(players, board), 1, warm=False)
        elif peer == "phevaluator":
            t, eq = best_of(lambda: phevaluator_hands_exact(players, board), 1, warm=False)
        elif peer == "eval7-3way":
            # eval7 cannot enumerate a range here; loop over the random hand's combos instead
            t, eq = best_of(lambda: _eval7_three_way(players, board), 1, warm=False)
        elif peer == "eval7-hvr":
            t, eq = best_of(
                lambda: [eval7_hand_vs_range_flop(players[0], players[1], board)], 1, warm=False
            )
        else:
            continue
        row[f"{peer}_ms"] = t * 1e3
        row[f"{peer}_equity"] = [round(float(x), 6) for x in eq]
        row[f"ratio_{peer}"] = t / seconds
    return row


def _eval7_three_way(players: list[str], board: str) -> list[float]:
    import eval7

    hands = players[:2]
    used = {str(c) for h in hands for c in parse_cards(h)} | {str(c) for c in parse_cards(board)}
    deck = [format_cards([c]) for c in range(52) if format_cards([c]) not in used]
    fixed = [eval7.Card(str(c)) for c in parse_cards(board)]
    holes = [[eval7.Card(str(c)) for c in parse_cards(h)] for h in hands]
    shares = [0.0, 0.0, 0.0]
    total = 0
    for v in itertools.combinations(deck, 2):
        villain = [eval7.Card(c) for c in v]
        rest_deck = [eval7.Card(c) for c in deck if c not in v]
        for rest in itertools.combinations(rest_deck, 2):
            b = fixed + list(rest)
            values = [eval7.evaluate(h + b) for h in (*holes, villain)]
            best = max(values)
            winners = [i for i, x in enumerate(values) if x == best]
            for i in winners:
                shares[i] += 1 / len(winners)
            total += 1
    return [s / total for s in shares]


def monte_carlo_rate() -> dict[str, Any]:
    players = ["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"]
    n = 5_000_000
    seconds, _result = best_of(lambda: pokerlab.equity(players, method="mc", trials=n, seed=1), 3)
    row: dict[str, Any] = {
        "spot": "Monte Carlo, heads-up range vs range (5M deals)",
        "pokerlab_ms": seconds * 1e3,
        "pokerlab_hands_per_s": n / seconds,
        "target_hands_per_s": 34e6,
    }
    import eval7

    hero = [eval7.Card("As"), eval7.Card("Ks")]
    villain = eval7.HandRange("QQ+,AKs,AKo")
    m = 200_000
    t, _ = best_of(lambda: eval7.py_hand_vs_range_monte_carlo(hero, villain, [], m), 1, warm=False)
    row["eval7_hand_vs_range_mc_hands_per_s"] = m / t
    return row


def outs_rate() -> dict[str, Any]:
    seconds, _ = best_of(lambda: pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h"), 20)
    return {"spot": "flop outs report, two hands", "pokerlab_ms": seconds * 1e3, "target_ms": 10}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the slow spots")
    parser.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args()
    print(f"{machine_line(os.environ['NUMBA_NUM_THREADS'])}; numba {numba.__version__}, "
          f"numpy {np.__version__}")  # fmt: skip
    rows = []
    for spot in SPOTS:
        if args.quick and spot.get("slow"):
            continue
        row = run_spot(spot)
        rows.append(row)
        line = f"{row['spot']:<48} {row['pokerlab_ms']:>10.2f} ms"
        if "engine_no_table_ms" in row:
            line += f" (no table: {row['engine_no_table_ms']:.2f} ms)"
        if row.get("target_ms"):
            line += f"  (target <= {row['target_ms']} ms, OMPEval {row.get('ompeval_ms', '-')})"
        for key, value in row.items():
            if key.startswith("ratio_"):
                line += f"  {key[6:]}: {row[key[6:] + '_ms']:.0f} ms = {value:.0f}x slower"
        print(line, flush=True)
    mc = monte_carlo_rate()
    rows.append(mc)
    print(f"{mc['spot']:<48} {mc['pokerlab_hands_per_s'] / 1e6:>10.1f} M deals/s "
          f"(target >= 34 M/s); eval7 hand-vs-range MC "
          f"{mc['eval7_hand_vs_range_mc_hands_per_s'] / 1e6:.2f} M/s")  # fmt: skip
    outs = outs_rate()
    rows.append(outs)
    print(f"{outs['spot']:<48} {outs['pokerlab_ms']:>10.2f} ms  (target <= 10 ms)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)


if __name__ == "__main__":
    main()
