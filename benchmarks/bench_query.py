"""Query language timings, each beside pokerlab.equity on the same spot (same run, so the ratio
survives a loaded machine).

    python benchmarks/bench_query.py

Warm numba cache (one untimed call first), best of several runs. The issue's targets: a heads-up
flop query with three aggregates, exact (990 runouts): <= 50 ms; the same spot sampled to 10^6
deals: <= 2 s on 2 cores. The feature kernel runs on every available core (the deal sampler and
the exact enumerator on one); thread-scaling tables (1 thread and every core) of the exact
ranges spot and the sampled flop spot end the run.
"""

from __future__ import annotations

import argparse

import pokerlab
from _common import available_cores, best_of, machine_line, scaling_table

SPOT = "from hero='AhKh', villain='QcQd', board='Ts9h2h'"
THREE = ("select avg(riverEquity(hero)), count(winsHi(hero)), "
         "histogram(handType(hero, river)) ")  # fmt: skip
RANGES = ("select avg(turnEquity(hero)), count(outs(hero, turn) >= 8), "
          "histogram(handType(villain, river)) from hero='AhKh', villain='QQ+,AKo,JTs', "
          "board='Ts9h2h'")  # fmt: skip
PREFLOP = "select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc'"
HITS = ("select count(hits(hero, flop) >= 'top pair'), count(hits(hero, turn) = 'flush draw'), "
        "histogram(hits(villain, flop)) from hero='AhKh', villain='QQ+,AKo,JTs'")  # fmt: skip
HAND_TYPES = ("select count(handType(hero, flop) >= 'pair'), count(handType(hero, turn) = "
              "'flush'), histogram(handType(villain, flop)) from hero='AhKh', "
              "villain='QQ+,AKo,JTs'")  # fmt: skip
MC_DEALS = 1_000_000
STUD_FIFTH = ("select avg(riverEquity(hero)), count(winsHi(hero)), "
              "histogram(handType(hero, seventh)) from game='stud', hero='AsAd Kc 7h 2d', "
              "villain='Qs Qd Jc Th 9d'")  # fmt: skip
STUD_HILO = ("select avg(riverEquity(hero)), count(winsLo(hero)), "
             "histogram(handType(villain, fifth)) from game='stud-hilo', hero='As2d|3h', "
             "villain='KdKc|7s'")  # fmt: skip
RAZZ_SIXTH = ("select avg(sixthEquity(hero)), count(handType(hero, seventh) >= '8-low') "
              "from game='razz', hero='As2d3c Kh 7d', villain='4h5h6d Qc 9c'")  # fmt: skip
STUD_STREETS = ("select avg(fifthEquity(hero)), avg(sixthEquity(hero)), avg(outs(hero, fifth)) "
                "from game='stud', hero='AsAd Kc 7h 2d', villain='Qs Qd Jc Th 9d'")  # fmt: skip
RAZZ_RANGE = ("select avg(thirdEquity(hero)), avg(fourthEquity(hero)) from game='razz', "
              "hero='As2h3c', villain='(5-5-5-)'")  # fmt: skip
STUD_RANGE = "select avg(thirdEquity(hero)) from game='stud', hero='AsAh2c', villain='KK*'"
STUD_THIRD = ("select avg(thirdEquity(hero)), avg(fifthEquity(hero)), avg(outs(hero, sixth)) "
              "from game='stud', hero='As Ad 7c', villain='Kd Qd Jd'")  # fmt: skip


def line(label: str, seconds: float, deals: int, versus: float | None = None) -> None:
    rate = deals / seconds / 1e6
    ratio = f"  {seconds / versus:6.1f}x equity()" if versus else ""
    print(f"{label:<52} {seconds * 1e3:9.1f} ms  {deals:>10,} deals  {rate:6.2f} M/s{ratio}")


def main() -> None:
    argparse.ArgumentParser(description=" ".join(__doc__.split("\n\n")[0].split())).parse_args()
    print(machine_line(f"{available_cores()} (rows), 1 and {available_cores()} (scaling)"))
    t_eq, _ = best_of(lambda: pokerlab.equity(["AhKh", "QcQd"], board="Ts9h2h"), 20)
    t, r = best_of(lambda: pokerlab.query(THREE + SPOT), 20)
    line("exact flop, 3 aggregates (target <= 50 ms)", t, r.deals, t_eq)
    t, r_ranges = best_of(lambda: pokerlab.query(RANGES), 5)
    line("exact flop, ranges, turn equity + outs + histogram", t, r_ranges.deals)
    t_eq, _ = best_of(
        lambda: pokerlab.equity(["AhKh", "QcQd"], board="Ts9h2h", method="mc", trials=MC_DEALS,
                                seed=1), 3)  # fmt: skip
    t, r = best_of(lambda: pokerlab.query(THREE + SPOT, method="mc", trials=MC_DEALS, seed=1), 3)
    line("sampled flop, 3 aggregates, 10^6 deals (target <= 2 s)", t, r.deals, t_eq)
    t_cat, _ = best_of(lambda: pokerlab.query(HAND_TYPES, trials=MC_DEALS, seed=1), 3)
    t, r = best_of(lambda: pokerlab.query(HITS, trials=MC_DEALS, seed=1), 3)
    line("sampled preflop, 3 board-hit aggregates, 10^6 deals", t, r.deals)
    line("  the same with handType instead of hits", t_cat, r.deals)
    print(f"  hits vs handType: {t / t_cat:.2f}x")
    t_eq, _ = best_of(lambda: pokerlab.equity(["AhAs", "KdKc"]), 3)
    t, r = best_of(lambda: pokerlab.query(PREFLOP), 3)
    line("exact preflop AhAs vs KdKc (contract example)", t, r.deals, t_eq)
    stud()
    scaling_table("exact flop, ranges (above)", lambda n: pokerlab.query(RANGES, threads=n),
                  r_ranges.deals, "deals", repeats=5)  # fmt: skip
    sampled = THREE + SPOT
    scaling_table("sampled flop, 3 aggregates, 10^6 deals",
                  lambda n: pokerlab.query(sampled, method="mc", trials=MC_DEALS, seed=1,
                                           threads=n), MC_DEALS, "deals")  # fmt: skip


def stud() -> None:
    """Stud games: the exact enumerator and the sampler with a stud feature kernel."""
    t_eq, _ = best_of(lambda: pokerlab.equity(["AsAd Kc 7h 2d", "Qs Qd Jc Th 9d"], game="stud",
                                              method="exact"), 3)  # fmt: skip
    t, r = best_of(lambda: pokerlab.query(STUD_FIFTH), 3)
    line("exact stud, fifth street, 3 aggregates", t, r.deals, t_eq)
    t_eq, _ = best_of(lambda: pokerlab.equity(["As2d|3h", "KdKc|7s"], game="stud-hilo",
                                              method="mc", trials=MC_DEALS, seed=1), 3)  # fmt: skip
    t, r = best_of(lambda: pokerlab.query(STUD_HILO, trials=MC_DEALS, seed=1), 3)
    line("sampled stud hi/lo, third street, 3 aggregates, 10^6", t, r.deals, t_eq)
    t, r = best_of(lambda: pokerlab.query(RAZZ_SIXTH, method="mc", trials=100_000, seed=1), 3)
    line("sampled razz fifth street, sixthEquity (a sweep a deal), 10^5", t, r.deals)
    t, r = best_of(lambda: pokerlab.query(STUD_STREETS), 3)
    line("exact stud fifth street: fifth/sixthEquity, outs", t, r.deals)
    t, r = best_of(lambda: pokerlab.query(STUD_THIRD, trials=10_000, seed=1), 3)
    line("sampled stud third street: third/fifthEquity, outs, 10^4", t, r.deals)
    # a range against a hand: each deal's spot is a holding of the range (cached by its key)
    t, r = best_of(lambda: pokerlab.query(RAZZ_RANGE, trials=2_000, seed=1), 3)
    line("sampled razz, villain a range: third/fourthEquity, 2,000", t, r.deals)
    t, r = best_of(lambda: pokerlab.query(STUD_RANGE, trials=600, seed=1), 1)
    line("sampled stud, villain KK*: thirdEquity, 600", t, r.deals)


if __name__ == "__main__":
    main()
