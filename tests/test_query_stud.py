"""Stud, stud hi/lo and razz queries against a brute-force walk over every deal in plain Python.

The oracle deals each player its missing cards in order (every permutation, player after
player: equally likely, so averages equal those over unordered deals), evaluates hands with
tests/bruteforce.py (no pokerlab code) and weights a deal by the product of its holdings'
weights. The spots keep most of the deck dead so that every deal can be walked.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from bruteforce import _split_credit, best_high, showdown_values
from pokerlab import QueryError, equity, query
from pokerlab.cards import format_cards, parse_cards
from pokerlab.games import get_game
from pokerlab.ranges.pattern import PatternRange, pattern_card_count
from reference import weighted_aggregate

Hand = tuple[int, ...]
Deal = tuple[float, tuple[Hand, ...]]  # weight, each player's seven cards (known first)
Fn = Callable[[tuple[Hand, ...]], Any]

RAZZ_TYPES = ["paired", "K-low", "Q-low", "J-low", "T-low", "9-low", "8-low", "7-low", "6-low",
              "5-low", "4-low", "3-low"]  # fmt: skip
HIGH_TYPES = ["high card", "pair", "two pair", "three of a kind", "straight", "flush",
              "full house", "four of a kind", "straight flush"]  # fmt: skip


def cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def dead_but(keep: str) -> str:
    """Every card not in ``keep`` (the players' possible cards and the few left to deal)."""
    kept = set(cards(keep))
    return format_cards([c for c in range(52) if c not in kept])


def holdings(game: str, text: str) -> list[tuple[Hand, float]]:
    g = get_game(game)
    size = pattern_card_count(text, low_aces=g.low_aces)
    rng = PatternRange(text, size, low_aces=g.low_aces, percent=False)
    return [(tuple(int(c) for c in combo), float(w)) for combo, w in rng]


def completions(known: Sequence[Hand], left: list[int]) -> list[tuple[Hand, ...]]:
    """Every way to deal each player its missing cards in order, player after player."""
    if not known:
        return [()]
    out = []
    for extra in itertools.permutations(left, 7 - len(known[0])):
        rest = [c for c in left if c not in extra]
        out += [((*known[0], *extra), *more) for more in completions(known[1:], rest)]
    return out


def stud_deals(game: str, players: Sequence[str], dead: str) -> list[Deal]:
    dead_set = set(cards(dead))
    out: list[Deal] = []
    for joint in itertools.product(*(holdings(game, t) for t in players)):
        known = [c for h, _ in joint for c in h]
        if len(set(known)) != len(known) or dead_set & set(known):
            continue
        weight = math.prod(w for _, w in joint)
        deck = [c for c in range(52) if c not in dead_set and c not in known]
        out += [(weight, hands) for hands in completions([h for h, _ in joint], deck)]
    return out


@cache
def values(game: str, hand: frozenset[int]) -> tuple[Any, Any]:
    return showdown_values(game, sorted(hand), [])


def shares(game: str, hands: tuple[Hand, ...]) -> list[float]:
    return _split_credit(game, [values(game, frozenset(h)) for h in hands])[0]


def alone(xs: list[Any], p: int, better: Callable[[Any, Any], bool]) -> float:
    if xs[p] is None:
        return 0.0
    return float(all(q == p or xs[q] is None or better(xs[p], xs[q]) for q in range(len(xs))))


def wins_hi(game: str, hands: tuple[Hand, ...], p: int) -> float:
    return alone([values(game, frozenset(h))[0] for h in hands], p, lambda a, b: a > b)


def ties_hi(game: str, hands: tuple[Hand, ...], p: int) -> float:
    highs = [values(game, frozenset(h))[0] for h in hands]
    return float(highs[p] == max(highs) and highs.count(highs[p]) > 1)


def wins_lo(game: str, hands: tuple[Hand, ...], p: int) -> float:
    return alone([values(game, frozenset(h))[1] for h in hands], p, lambda a, b: a < b)


def high_type(hand: Sequence[int]) -> int:
    return _high_type(frozenset(hand))


@cache
def _high_type(hand: frozenset[int]) -> int:
    if len(hand) >= 5:
        return best_high(sorted(hand))[0]
    counts = sorted(Counter(c >> 2 for c in hand).values(), reverse=True)
    if counts[0] == 4:
        return 7
    if counts[0] == 3:
        return 3
    return 2 if counts[:2] == [2, 2] else 1 if counts[0] == 2 else 0


def razz_type(hand: Sequence[int]) -> int:
    lows = sorted({1 if c >> 2 == 12 else (c >> 2) + 2 for c in hand})
    need = min(5, len(hand))
    return 0 if len(lows) < need else 14 - lows[need - 1]


@cache
def completed_equity(game: str, known: tuple[Hand, ...], dead: frozenset[int]) -> list[float]:
    """Each player's pot share averaged over every ordered way to complete every hand."""
    used = {c for h in known for c in h} | dead
    deck = [c for c in range(52) if c not in used]
    total = [0.0] * len(known)
    runs = 0
    for hands in completions(known, deck):
        for i, s in enumerate(shares(game, hands)):
            total[i] += s
        runs += 1
    return [t / runs for t in total]


def by_street(hands: tuple[Hand, ...], street: int, held: Sequence[int]) -> tuple[Hand, ...]:
    """Every player's cards by ``street``: its known cards or its first ``street``."""
    return tuple(h[: max(street, k)] for h, k in zip(hands, held, strict=True))


def street_equity(game: str, street: int, held: Sequence[int], dead: frozenset[int],
                  p: int) -> Fn:  # fmt: skip
    return lambda h: completed_equity(game, by_street(h, street, held), dead)[p]


def sixth_equity(game: str, sixes: tuple[Hand, ...], dead: frozenset[int]) -> list[float]:
    return completed_equity(game, sixes, dead)


def stud_outs(game: str, hands: tuple[Hand, ...], held: Sequence[int], p: int, street: int,
              dead: frozenset[int]) -> float:  # fmt: skip
    """Cards p can get next after which p scoops on the next street against every next card
    of every other player still to get one (0 when p scoops already), walked card by card."""
    return outs_from(game, by_street(hands, street, held), tuple(held), p, street, dead)


@cache
def outs_from(game: str, now: tuple[Hand, ...], held: tuple[int, ...], p: int, street: int,
              dead: frozenset[int]) -> float:  # fmt: skip
    if shares(game, now)[p] == 1:
        return 0.0
    used = {c for h in now for c in h} | dead
    free = [c for c in range(52) if c not in used]
    others = [q for q in range(len(now)) if q != p and held[q] <= street]
    count = 0
    for c in free:
        rest = [x for x in free if x != c]
        sure = True
        for nexts in itertools.permutations(rest, len(others)):
            after = list(now)
            after[p] = (*now[p], c)
            for q, x in zip(others, nexts, strict=True):
                after[q] = (*now[q], x)
            if shares(game, tuple(after))[p] != 1:
                sure = False
                break
        count += sure
    return float(count)


def aggregate(spot: list[Deal], fn: Fn, kind: str, where: Fn | None = None) -> Any:
    rows = [(w, fn(h)) for w, h in spot if where is None or where(h)]
    return weighted_aggregate(rows, kind)


def check(game: str, players: Sequence[str], keep: str, checks: dict[str, tuple[str, Fn]],
          where: tuple[str, Fn] | None = None) -> Any:  # fmt: skip
    dead = dead_but(keep)
    spot = stud_deals(game, players, dead)
    items = ", ".join(f"{expr} as {name}" for name, (expr, _) in checks.items())
    text = (f"select {items} from game='{game}', hero='{players[0]}', villain='{players[1]}', "
            f"dead='{dead}'" + (f" where {where[0]}" if where else ""))  # fmt: skip
    r = query(text)
    assert r.method == "exact"
    for name, (expr, fn) in checks.items():
        kind = expr.split("(")[0]
        want = aggregate(spot, fn, kind, where[1] if where else None)
        got = r[name]
        assert got.stderr == 0.0 or kind == "histogram"
        if kind == "histogram":
            bars = {b.bucket: b.value for b in got.value}
            assert {k for k, v in bars.items() if v > 0} == set(want), name
            for label, share in want.items():
                assert bars[label] == pytest.approx(share, abs=1e-12), (name, label)
        elif isinstance(got.value, str):  # a min or max of a hand type: its name
            types = RAZZ_TYPES if game == "razz" else HIGH_TYPES
            assert got.value == types[int(want)], name
        else:
            assert got.value == pytest.approx(want, abs=1e-12), name
    return r


# --- stud ------------------------------------------------------------------------------------

STUD_FIFTH = ("Ah Kh Qh 7c 2d", "9s 9d Tc 5s 4s, 8s 8d Tc 5s 4s")
STUD_FIFTH_KEEP = "Ah Kh Qh 7c 2d 9s 9d 8s 8d Tc 5s 4s Jh Th 3h 9h 9c 8c Ac Kd 6s 3d"


Spot = tuple[tuple[str, str], str, dict[str, tuple[str, Fn]]]  # players, kept cards, checks


def stud_spot() -> Spot:
    g = "stud"
    dead = frozenset(cards(dead_but(STUD_FIFTH_KEEP)))
    checks: dict[str, tuple[str, Fn]] = {
        "re": ("avg(riverEquity(hero))", lambda h: shares(g, h)[0]),
        "se": ("avg(seventhEquity(villain))", lambda h: shares(g, h)[1]),
        "six": ("avg(sixthEquity(hero))",
                lambda h: sixth_equity(g, (h[0][:6], h[1][:6]), dead)[0]),
        "five": ("avg(fifthEquity(villain))", street_equity(g, 5, (5, 5), dead, 1)),
        "o5": ("max(outs(hero, fifth))", lambda h: stud_outs(g, h, (5, 5), 0, 5, dead)),
        "o6": ("avg(outs(hero, sixth))", lambda h: stud_outs(g, h, (5, 5), 0, 6, dead)),
        "o6m": ("max(outs(hero, sixth))", lambda h: stud_outs(g, h, (5, 5), 0, 6, dead)),
        "wh": ("count(winsHi(hero))", lambda h: wins_hi(g, h, 0)),
        "th": ("count(tiesHi(villain))", lambda h: ties_hi(g, h, 1)),
        "sc": ("count(scoops(villain))", lambda h: float(shares(g, h)[1] == 1)),
        "ht6": ("histogram(handType(hero, sixth))", lambda h: HIGH_TYPES[high_type(h[0][:6])]),
        "ht7": ("histogram(handType(villain, river))",
                lambda h: HIGH_TYPES[high_type(h[1])]),
        "ht5": ("max(handType(villain, fifth))", lambda h: high_type(h[1][:5])),
        "min": ("count(minHandType(hero, seventh, 'flush'))",
                lambda h: float(high_type(h[0]) >= 5)),
        "cmp": ("count(handType(villain, sixth) >= 'three of a kind')",
                lambda h: float(high_type(h[1][:6]) >= 3)),
        "ir": ("count(inRange(villain, '8s 8d Tc 5s 4s'))",
               lambda h: float(set(h[1][:5]) == set(cards("8s 8d Tc 5s 4s")))),
    }  # fmt: skip
    return STUD_FIFTH, STUD_FIFTH_KEEP, checks


def test_stud_functions_match_brute_force() -> None:
    g = "stud"
    _, _, checks = stud_spot()
    check(g, STUD_FIFTH, STUD_FIFTH_KEEP, checks)
    check(g, STUD_FIFTH, STUD_FIFTH_KEEP, {k: checks[k] for k in ("re", "six", "ht7", "wh")},
          ("handType(villain, sixth) < 'three of a kind'",
           lambda h: high_type(h[1][:6]) < 3))  # fmt: skip


def test_stud_early_streets_match_brute_force() -> None:
    g = "stud"
    players = ("Ks 7d 7h", "Qc Qd Jc Js 2c 2h")
    keep = "Ks 7d 7h Qc Qd Jc Js 2c 2h 7s Kd Kc 3s 4s 5s 6s 7c"
    r = check(g, players, keep, {
        "h3": ("histogram(handType(hero, third))", lambda h: HIGH_TYPES[high_type(h[0][:3])]),
        "h4": ("histogram(handType(hero, fourth))", lambda h: HIGH_TYPES[high_type(h[0][:4])]),
        "h5": ("avg(handType(hero, fifth) >= 'straight')",
               lambda h: float(high_type(h[0][:5]) >= 4)),
        "m4": ("count(minHandType(hero, fourth, 'two pair'))",
               lambda h: float(high_type(h[0][:4]) >= 2)),
        "re": ("avg(riverEquity(hero))", lambda h: shares(g, h)[0]),
    })  # fmt: skip
    # hero: fourth, fifth, then sixth and seventh as a set; villain: seventh
    assert r.deals == 8 * 7 * math.comb(6, 2) * 4


def test_stud_ties_match_brute_force() -> None:
    """Two broadway draws on one ten: ties are common."""
    g = "stud"
    players = ("As Kd Qc Jh", "Ac Ks Qd Jd")
    keep = "As Kd Qc Jh Ac Ks Qd Jd Th Tc 9s 8s 2c 3d 4h 5s"
    r = check(g, players, keep, {
        "th": ("count(tiesHi(hero))", lambda h: ties_hi(g, h, 0)),
        "tv": ("count(tiesHi(villain))", lambda h: ties_hi(g, h, 1)),
        "wh": ("count(winsHi(hero))", lambda h: wins_hi(g, h, 0)),
        "re": ("avg(riverEquity(villain))", lambda h: shares(g, h)[1]),
        "sc": ("count(scoops(hero))", lambda h: float(shares(g, h)[0] == 1)),
    })  # fmt: skip
    assert r["th"].value > 0.1


def test_stud_exact_equity_is_the_engines() -> None:
    players = ["As Ad 7c", "Kd Qd Jd"]
    dead = dead_but("As Ad 7c Kd Qd Jd Ac Ah 7h 7s Td 9d 2c 3c 4c 5h")
    want = equity(players, dead=dead, game="stud", method="exact").players[0].equity
    r = query(f"select avg(riverEquity(hero)) as eq from game='stud', hero='{players[0]}', "
              f"villain='{players[1]}', dead='{dead}'")  # fmt: skip
    assert r.method == "exact" and r["eq"].value == pytest.approx(want, abs=1e-12)


# --- razz ------------------------------------------------------------------------------------


def razz_spot() -> Spot:
    g = "razz"
    players = ("As 2d 5c 7h 9s", "3h 4h 6d Kc Ks, 3h 4h 6d Qc Qs")
    keep = "As 2d 5c 7h 9s 3h 4h 6d Kc Ks Qc Qs Ah 2h 3c 4c 5d 8c 8d Tc Jd 6s"
    dead = frozenset(cards(dead_but(keep)))
    return players, keep, {
        "re": ("avg(riverEquity(hero))", lambda h: shares(g, h)[0]),
        "six": ("avg(sixthEquity(villain))",
                lambda h: sixth_equity(g, (h[0][:6], h[1][:6]), dead)[1]),
        "five": ("avg(fifthEquity(hero))", street_equity(g, 5, (5, 5), dead, 0)),
        "o6": ("avg(outs(villain, sixth))", lambda h: stud_outs(g, h, (5, 5), 1, 6, dead)),
        "wl": ("count(winsLo(hero))", lambda h: wins_lo(g, h, 0)),
        "sc": ("count(scoops(villain))", lambda h: float(shares(g, h)[1] == 1)),
        "h7": ("histogram(handType(hero, seventh))", lambda h: RAZZ_TYPES[razz_type(h[0])]),
        "h6": ("histogram(handType(villain, sixth))",
               lambda h: RAZZ_TYPES[razz_type(h[1][:6])]),
        "h5": ("min(handType(villain, fifth))", lambda h: razz_type(h[1][:5])),
        "eight": ("count(handType(hero, seventh) >= '8-low')",
                  lambda h: float(razz_type(h[0]) >= RAZZ_TYPES.index("8-low"))),
        "m9": ("count(minHandType(villain, river, '9-low'))",
               lambda h: float(razz_type(h[1]) >= RAZZ_TYPES.index("9-low"))),
    }  # fmt: skip


def test_razz_functions_match_brute_force() -> None:
    players, keep, checks = razz_spot()
    check("razz", players, keep, checks, ("handType(villain, sixth) != 'paired'",
                                         lambda h: razz_type(h[1][:6]) != 0))  # fmt: skip


def test_razz_early_street_types() -> None:
    g = "razz"
    players = ("As 2d 2c", "3h 4h 6d 7c 8s 9s")
    keep = "As 2d 2c 3h 4h 6d 7c 8s 9s Ah 3c 4c 5d Kd Tc 6s"
    check(g, players, keep, {
        "h3": ("histogram(handType(hero, third))", lambda h: RAZZ_TYPES[razz_type(h[0][:3])]),
        "h4": ("histogram(handType(hero, fourth))", lambda h: RAZZ_TYPES[razz_type(h[0][:4])]),
        "h5": ("histogram(handType(hero, fifth))", lambda h: RAZZ_TYPES[razz_type(h[0][:5])]),
    })  # fmt: skip


# --- stud hi/lo ------------------------------------------------------------------------------

HILO = ("As 2d 3h 8c 9d", "Kd Kc 7s 6s 5h")
HILO_KEEP = "As 2d 3h 8c 9d Kd Kc 7s 6s 5h Ah 4c 4d 5c 6h 7d 9c Ks Qh Th"


def hilo_spot() -> Spot:
    g = "stud-hilo"
    dead = frozenset(cards(dead_but(HILO_KEEP)))
    return HILO, HILO_KEEP, {
        "re": ("avg(riverEquity(hero))", lambda h: shares(g, h)[0]),
        "six": ("avg(sixthEquity(hero))",
                lambda h: sixth_equity(g, (h[0][:6], h[1][:6]), dead)[0]),
        "five": ("avg(fifthEquity(hero))", street_equity(g, 5, (5, 5), dead, 0)),
        "o6": ("avg(outs(hero, sixth))", lambda h: stud_outs(g, h, (5, 5), 0, 6, dead)),
        "wh": ("count(winsHi(villain))", lambda h: wins_hi(g, h, 1)),
        "th": ("count(tiesHi(hero))", lambda h: ties_hi(g, h, 0)),
        "wl": ("count(winsLo(hero))", lambda h: wins_lo(g, h, 0)),
        "wlv": ("count(winsLo(villain))", lambda h: wins_lo(g, h, 1)),
        "sc": ("count(scoops(hero))", lambda h: float(shares(g, h)[0] == 1)),
        "ht": ("histogram(handType(hero, sixth))", lambda h: HIGH_TYPES[high_type(h[0][:6])]),
    }  # fmt: skip


def test_stud_hilo_functions_match_brute_force() -> None:
    g = "stud-hilo"
    _, _, checks = hilo_spot()
    check(g, HILO, HILO_KEEP, checks, ("winsLo(hero) or handType(hero, sixth) >= 'pair'",
          lambda h: wins_lo(g, h, 0) == 1 or high_type(h[0][:6]) >= 1))  # fmt: skip


SPOTS: dict[str, Callable[[], Spot]] = {"stud": stud_spot, "razz": razz_spot,
                                         "stud-hilo": hilo_spot}  # fmt: skip
DOCS = Path(__file__).resolve().parents[1] / "docs" / "query.md"


def documented_stud_examples() -> list[tuple[str, str, str]]:
    text = DOCS.read_text().split("### Stud examples checked by the tests", 1)[1]
    text = text.split("\n## ", 1)[0]
    return re.findall(r"^\| `([a-z-]+)` \| `(.+)` \| (.+) \|$", text, flags=re.M)


def test_documented_stud_examples() -> None:
    """Every stud example in docs/query.md: its documented value is the brute-force value (the
    other tests check the query's output against the same brute force)."""
    rows = documented_stud_examples()
    assert {g for g, _, _ in rows} == set(SPOTS) and len(rows) >= 12
    for game in SPOTS:
        players, keep, checks = SPOTS[game]()
        by_expr = dict(checks.values())
        spot = stud_deals(game, players, dead_but(keep))
        for g, expr, shown in rows:
            if g != game:
                continue
            kind = expr.split("(")[0]
            want = aggregate(spot, by_expr[expr], kind)
            if kind == "histogram":
                bars = dict(part.split(": ") for part in shown.split("; "))
                assert set(bars) == set(want), expr
                for label, share in want.items():
                    assert float(bars[label]) == pytest.approx(share, abs=5e-7), expr
            else:
                assert float(shown) == pytest.approx(want, abs=5e-7), expr


RAZZ_KEEP = "As 2d 5c 7h 3h 4h 6d Kc Qc Ah 2h 3c 4c 5d 8c 8d Tc Jd 6s 9s Ks Qs"


@pytest.mark.parametrize(
    ("game", "hero", "villain", "keep", "select", "where"),
    [
        ("stud-hilo", "As 2d 3h 8c", "Kd Kc 7s 6s, Qd Qc 7s 6s", HILO_KEEP + " Qd Qc",
         "avg(riverEquity(hero)) as eq, count(winsLo(hero)) as lo, avg(sixthEquity(villain)) "
         "as six", "handType(villain, sixth) >= 'two pair'"),
        ("razz", "As 2d 5c 7h", "3h 4h 6d Kc, 3h 4h 6d Qc", RAZZ_KEEP,
         "avg(riverEquity(villain)) as eq, count(scoops(hero)) as lo, avg(sixthEquity(hero)) "
         "as six", "handType(hero, sixth) <= '9-low'"),
        ("stud", "Ah Kh Qh 7c", "9s 9d Tc 5s, 8s 8d Tc 5s", STUD_FIFTH_KEEP,
         "avg(riverEquity(hero)) as eq, count(winsHi(villain)) as lo, "
         "avg(sixthEquity(villain)) as six", "handType(hero, sixth) < 'pair'"),
    ],
)  # fmt: skip
def test_monte_carlo_conditional_is_unbiased(game: str, hero: str, villain: str, keep: str,
                                             select: str, where: str) -> None:  # fmt: skip
    """Sampled with a where condition against the exact enumeration of the same spot: within
    four standard errors (fixed seed)."""
    text = (f"select {select} from game='{game}', hero='{hero}', villain='{villain}', "
            f"dead='{dead_but(keep)}' where {where}")  # fmt: skip
    exact = query(text)
    assert exact.method == "exact"
    mc = query(text, method="monte-carlo", trials=40_000, seed=5)
    assert mc.method == "monte-carlo" and 0 < mc.matched < mc.deals
    for name in ("eq", "lo", "six"):
        se = mc[name].stderr
        assert se is not None and se > 0
        assert abs(mc[name].value - exact[name].value) < 4 * se, name  # type: ignore[operator]


# --- street equities and outs ---------------------------------------------------------------


def held_counts(game: str, players: Sequence[str]) -> list[int]:
    g = get_game(game)
    return [pattern_card_count(t, low_aces=g.low_aces) for t in players]


def street_checks(game: str, players: Sequence[str], keep: str, streets: Sequence[int],
                  outs_streets: Sequence[int] = ()) -> dict[str, tuple[str, Fn]]:  # fmt: skip
    dead = frozenset(cards(dead_but(keep)))
    held = held_counts(game, players)
    names = {3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
    checks: dict[str, tuple[str, Fn]] = {}
    for s in streets:
        for p, who in enumerate(("hero", "villain")):
            checks[f"{names[s]}_{who}"] = (f"avg({names[s]}Equity({who}))",
                                           street_equity(game, s, held, dead, p))  # fmt: skip
    for s in outs_streets:
        for p, who in enumerate(("hero", "villain")):
            if held[p] <= s:
                checks[f"outs{s}_{who}"] = (
                    f"avg(outs({who}, {names[s]}))",
                    lambda h, p=p, s=s: stud_outs(game, h, held, p, s, dead),
                )
                checks[f"hist{s}_{who}"] = (
                    f"histogram(outs({who}, {names[s]}))",
                    lambda h, p=p, s=s: str(int(stud_outs(game, h, held, p, s, dead))),
                )
    return checks


def test_stud_street_equities_and_outs_match_brute_force() -> None:
    """Hero sees third street, villain (two holdings) sixth: every street equity, and outs."""
    g = "stud"
    players = ("Ks 7d 7h", "Qc Qd Jc Js 2c 2h, Qc Qd Jc Js 2c 3c")
    keep = "Ks 7d 7h Qc Qd Jc Js 2c 2h 3c 7s Kd Kc 3s 4s 5s 6s"
    checks = street_checks(g, players, keep, (3, 4, 5, 6), (5, 6))
    check(g, players, keep, checks)


def test_stud_street_equities_with_where() -> None:
    g = "stud"
    players = ("Ks 7d 7h", "Qc Qd Jc Js 2c 2h, Qc Qd Jc Js 2c 3c")
    keep = "Ks 7d 7h Qc Qd Jc Js 2c 2h 3c 7s Kd Kc 3s 4s 5s 6s"
    checks = street_checks(g, players, keep, (4, 5), (5,))
    check(g, players, keep, checks, ("handType(hero, fourth) >= 'three of a kind'",
                                     lambda h: high_type(h[0][:4]) >= 3))  # fmt: skip


def test_razz_street_equities_and_outs_match_brute_force() -> None:
    g = "razz"
    players = ("As 2d 5c 7h", "3h 4h 6d Kc Ks, 3h 4h 6d Qc Qs")
    keep = "As 2d 5c 7h 3h 4h 6d Kc Ks Qc Qs Ah 2h 8c 8d Tc 6s"
    check(g, players, keep, street_checks(g, players, keep, (4, 5, 6), (5, 6)))


HILO_DRAW = ("As 2s 3s 4s 8d", "Kd Kc 7c 6c 9h, Qd Qc 7c 6c 9h")
HILO_DRAW_KEEP = "As 2s 3s 4s 8d Kd Kc Qd Qc 7c 6c 9h 5s 5h Ts 8h Jh Td"


def test_stud_hilo_street_equities_and_outs_match_brute_force() -> None:
    """Hero has a made low and draws to a straight or flush for the high: its outs scoop."""
    g = "stud-hilo"
    players = HILO_DRAW
    r = check(g, players, HILO_DRAW_KEEP, street_checks(g, players, HILO_DRAW_KEEP, (4, 5, 6),
                                                         (5, 6)))  # fmt: skip
    assert r["outs5_hero"].value > 0


def test_stud_multiway_street_equities_and_outs() -> None:
    """Three players: the street equities come from the engine's walk over every deal (the
    sweep is heads-up only)."""
    g = "stud"
    players = ("As Ks Qs 2d 3d", "Ad Kd Qd 4c 4d", "Ac Kc Qc 5h 5d")
    keep = " ".join(players) + " Js Jd Jc 9h 2h 3h 6h"
    dead = frozenset(cards(dead_but(keep)))
    held = [5, 5, 5]
    names = ("hero", "villain", "other")
    checks: dict[str, tuple[str, Fn]] = {}
    for p, who in enumerate(names):
        checks[f"five_{who}"] = (f"avg(fifthEquity({who}))", street_equity(g, 5, held, dead, p))
        checks[f"six_{who}"] = (f"avg(sixthEquity({who}))", street_equity(g, 6, held, dead, p))
        checks[f"outs_{who}"] = (f"avg(outs({who}, fifth))",
                                 lambda h, p=p: stud_outs(g, h, held, p, 5, dead))  # fmt: skip
    spot = stud_deals(g, players, dead_but(keep))
    items = ", ".join(f"{expr} as {name}" for name, (expr, _) in checks.items())
    r = query(f"select {items} from game='stud', hero='{players[0]}', villain='{players[1]}', "
              f"other='{players[2]}', dead='{dead_but(keep)}'")  # fmt: skip
    assert r.method == "exact"
    for name, (_, fn) in checks.items():
        assert r[name].value == pytest.approx(aggregate(spot, fn, "avg"), abs=1e-12), name
    assert max(r[f"outs_{w}"].value for w in names) > 0  # type: ignore[type-var]


def test_stud_street_equities_average_to_the_equity() -> None:
    """Every street equity averages to the showdown equity (the engine's), exact."""
    players = ["As Ad 7c", "Kd Qd Jd"]
    dead = dead_but("As Ad 7c Kd Qd Jd Ac Ah 7h 7s Td 9d 2c 3c 4c 5h")
    want = equity(players, dead=dead, game="stud", method="exact").players[0].equity
    r = query("select avg(thirdEquity(hero)) as t, avg(fourthEquity(hero)) as f, "
              "avg(fifthEquity(hero)) as v, avg(sixthEquity(hero)) as s, min(thirdEquity(hero)) "
              f"as lo from game='stud', hero='{players[0]}', villain='{players[1]}', "
              f"dead='{dead}'")  # fmt: skip
    assert r.method == "exact"
    for name in ("t", "f", "v", "s", "lo"):
        assert r[name].value == pytest.approx(want, abs=1e-12), name


@pytest.mark.parametrize(
    ("game", "hero", "villain", "keep", "where"),
    [
        ("stud", "Ks 7d 7h", "Qc Qd Jc Js 2c 2h, Qc Qd Jc Js 2c 3c",
         "Ks 7d 7h Qc Qd Jc Js 2c 2h 3c 7s Kd Kc 3s 4s 5s 6s",
         "handType(hero, fourth) = 'pair'"),
        ("stud-hilo", *HILO_DRAW, HILO_DRAW_KEEP, "winsHi(villain)"),
    ],
)  # fmt: skip
def test_monte_carlo_street_equities_are_unbiased(game: str, hero: str, villain: str,
                                                  keep: str, where: str) -> None:  # fmt: skip
    """Sampled street equities and outs, with a where condition, against the exact
    enumeration of the same spot: within four standard errors (fixed seed)."""
    text = ("select avg(fourthEquity(hero)) as four, avg(fifthEquity(villain)) as five, "
            "avg(sixthEquity(villain)) as six, avg(outs(hero, sixth)) as outs "
            f"from game='{game}', hero='{hero}', villain='{villain}', dead='{dead_but(keep)}' "
            f"where {where}")  # fmt: skip
    exact = query(text)
    assert exact.method == "exact"
    mc = query(text, method="monte-carlo", trials=20_000, seed=11)
    assert mc.method == "monte-carlo" and 0 < mc.matched < mc.deals
    for name in ("four", "five", "six", "outs"):
        se = mc[name].stderr
        assert se is not None and se > 0, name
        assert abs(mc[name].value - exact[name].value) < 4 * se, name  # type: ignore[operator]


def test_stud_outs_documented_example() -> None:
    """docs/query.md: a flush draw against a pair has nine clean outs, against two pair none
    (each player's cards by fifth street are all known, so every deal has the same outs)."""
    spot = "from game='stud', hero='Ah Kh Qh 7h 2c', villain='Ks Kd 9c {} 4d'"
    for villain_card, want in (("8s", 9.0), ("9s", 0.0)):
        r = query("select avg(outs(hero, fifth)) as o, max(outs(villain, fifth)) as v "
                  + spot.format(villain_card), method="monte-carlo", trials=50, seed=1)  # fmt: skip
        assert (r["o"].value, r["o"].stderr, r["v"].value) == (want, 0.0, 0.0)


def test_sampled_street_equity_too_costly_is_refused() -> None:
    with pytest.raises(QueryError, match="thirdEquity: sampled, each deal's third-street "
                       "equity would evaluate") as info:  # fmt: skip
        query(
            "select avg(thirdEquity(hero)) from game='stud', hero='As Ad 7c', "
            "villain='Kd Qd Jd', other='2c 2d 9h'",
            trials=10,
        )
    assert "\n" not in str(info.value)


# --- errors ----------------------------------------------------------------------------------

SPOT = "from game='{g}', hero='As 2d 3h', villain='Kd Kc 7s'"


@pytest.mark.parametrize(
    ("game", "expr", "fragments"),
    [
        ("razz", "count(pairedBoard(fifth))",
         ["column 14", "pairedBoard: Razz has no community board"]),
        ("stud", "min(rankAt(board, 1))", ["rankAt: Seven-card stud has no community board"]),
        ("stud-hilo", "count(boardInRange('AK2'))", ["boardInRange: Seven-card stud hi/lo"]),
        ("stud", "avg(suitCount(sixth))", ["suitCount:", "no community board"]),
        ("stud", "count(nutHi(hero, sixth))", ["nutHi:", "no community board"]),
        ("stud", "count(hits(hero, fifth) = 'set')", ["hits:", "no community board"]),
        ("stud", "avg(flopEquity(hero))", ["flopEquity: Seven-card stud has no flop street",
                                           "sixthEquity, seventhEquity, riverEquity"]),
        ("razz", "avg(flopEquity(hero))", ["flopEquity: Razz has no flop street",
                                          "thirdEquity, fourthEquity"]),
        ("razz", "count(winsHi(hero))", ["winsHi: Razz has no high half", "winsLo or scoops"]),
        ("razz", "count(tiesHi(hero))", ["tiesHi: Razz has no high half"]),
        ("stud", "count(winsLo(hero))", ["winsLo: this game has no low half"]),
        ("stud", "avg(outs(hero, fourth))", ["outs: expected a street (fifth, sixth), got "
                                             "'fourth'"]),
        ("razz", "avg(outs(hero, seventh))", ["outs: expected a street (fifth, sixth)"]),
        ("stud", "avg(outs(villain, fifth)) from game='stud', hero='As 2d 3h', "
         "villain='Kd Kc 7s 7d 7h 2c'", ["outs: villain shows 6 known cards",
                                         "sixth street or later"]),
        ("stud", "count(handType(hero, flop) = 'pair')", ["expected a street (third, fourth"]),
        ("stud", "count(handType(hero, fifth) = 'flush draw')", ["draws are board draws"]),
        ("razz", "count(handType(hero, fifth) >= 'flush')", ["unknown hand type 'flush'",
                                                             "paired, K-low"]),
        ("stud", "count(handType(villain, third) = 'pair') from game='stud', hero='As 2d 3h', "
         "villain='Kd Kc 7s 7d'", ["villain shows 4 known cards", "fourth street or later"]),
        ("stud", "count(inRange(hero, 'AA')) from game='stud', hero='As 2d 3h', "
         "villain='Kd Kc 7s'", ["inRange: the range lists 2 cards", "known cards are 3"]),
    ],
)  # fmt: skip
def test_stud_errors_are_one_line(game: str, expr: str, fragments: list[str]) -> None:
    text = f"select {expr}" + ("" if " from " in expr else " " + SPOT.format(g=game))
    with pytest.raises(QueryError) as info:
        query(text, trials=10)
    message = str(info.value)
    assert "\n" not in message
    for fragment in fragments:
        assert fragment in message, message


def test_board_games_refuse_stud_streets() -> None:
    with pytest.raises(QueryError, match="fifthEquity: Texas Hold'em has no fifth street"):
        query("select avg(fifthEquity(hero)) from hero='AhAs', villain='KdKc'")
    with pytest.raises(QueryError, match="expected a street \\(flop, turn, river\\)"):
        query("select count(handType(hero, sixth) = 'pair') from hero='AhAs', villain='KdKc'")


def test_min_and_max_of_a_hand_type_are_named_lows_and_highs() -> None:
    """They printed the internal codes: razz's are ``14 - X``, so a 5-low showed as 9 (read as
    "9-low"); now the name, as a histogram bucket gives it."""
    players, keep, _ = razz_spot()
    text = (f"select min(handType(hero, seventh)) as worst, max(handType(hero, seventh)) as best, "
            f"histogram(handType(hero, seventh)) as lows from game='razz', hero='{players[0]}', "
            f"villain='{players[1]}', dead='{dead_but(keep)}'")  # fmt: skip
    r = query(text)
    lows = [b.bucket for b in r["lows"].value if b.value > 0]  # type: ignore[union-attr]
    assert (r["worst"].value, r["best"].value) == (lows[0], lows[-1]) == ("9-low", "5-low")
    named = {d["name"]: d["value"] for d in r.to_dict()["results"] if d["name"] != "lows"}
    assert named == {"worst": "9-low", "best": "5-low"}
    sampled = query(text, method="monte-carlo", trials=2000, seed=3)
    assert sampled["best"].value in RAZZ_TYPES and sampled["best"].stderr is None
    stud = query("select max(handType(hero, fifth)) as best from game='stud', "
                 f"hero='{STUD_FIFTH[0]}', villain='{STUD_FIFTH[1]}', "
                 f"dead='{dead_but(STUD_FIFTH_KEEP)}'")  # fmt: skip
    assert stud.to_dict()["results"][0]["value"] == "high card"  # A K Q 7 2 on fifth street


@pytest.mark.parametrize("game", ["stud", "stud-hilo", "razz"])
def test_spots_with_one_cache_key_have_one_equity(game: str) -> None:
    """Street equities are cached by ``spot_key``: the spot up to a renaming of suits in every
    hand and the dead cards at once (razz: up to every suit). Each random spot, renamed, gets
    its key and its equity to the last bit; a spot with one card of another rank gets another
    key (the cache would hand it a wrong equity)."""
    import numpy as np

    from pokerlab.analysis.query import _stud_kernels as S
    from pokerlab.engine._stud_sweep import spot_key
    from pokerlab.engine._tables import kernel_tables
    from pokerlab.evaluation.codes import HighEval

    g = get_game(game)
    tables = tuple(kernel_tables(g))  # the query runner's tables
    low_only = g.high == HighEval.NONE
    rng = np.random.default_rng(11)

    def key_and_equity(hands: list[list[int]], dead: list[int]) -> tuple[list[int], list[float]]:
        players = len(hands)
        cards_ = np.zeros((players, 7), np.uint8)
        lengths = np.array([len(h) for h in hands], np.int64)
        for p, h in enumerate(hands):
            cards_[p, : len(h)] = h
        mask = np.uint64(sum(1 << c for c in dead))
        key = np.zeros(players + 1, np.uint64)
        scratch = np.zeros((4, players + 1), np.int64), np.zeros(4, np.int64)
        spot_key(cards_, lengths, players, mask, low_only, key, *scratch)
        eq = np.zeros(players)
        S.street_equity(cards_, lengths, players, mask, int(g.high), int(g.low), g.split,
                        tables, eq)  # fmt: skip
        return [int(k) for k in key], eq.tolist()

    for trial in range(12):
        players, size = (2, 5) if trial % 2 else (3, 6)
        deck = rng.permutation(52).tolist()
        hands = [deck[p * size : (p + 1) * size] for p in range(players)]
        dead = deck[players * size : players * size + 3]
        key, eq = key_and_equity(hands, dead)
        if low_only:  # any suit per rank: a permutation of the four suits for each rank
            perms = [rng.permutation(4) for _ in range(13)]
            rename = [4 * (c >> 2) + int(perms[c >> 2][c & 3]) for c in range(52)]
        else:  # one permutation of the suits for every card
            perm = rng.permutation(4)
            rename = [4 * (c >> 2) + int(perm[c & 3]) for c in range(52)]
        renamed = key_and_equity([[rename[c] for c in h] for h in hands], [rename[c] for c in dead])
        assert renamed == (key, eq), (trial, hands, dead)
        used = deck[: players * size + 3]
        other = next(c for c in range(52) if c >> 2 != hands[0][-1] >> 2 and c not in used)
        changed = [h[:] for h in hands]
        changed[0][-1] = other
        assert key_and_equity(changed, dead)[0] != key, (trial, hands, dead)


def test_sampled_street_equities_do_not_depend_on_the_thread_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each thread keeps its own cache of street equities, filled in another order for another
    thread count; the results are the same to the last bit."""
    from pokerlab.analysis.query import runner

    monkeypatch.setattr(runner, "THREADS", 3)
    monkeypatch.setattr(runner, "MIN_SLICE", 50)
    text = ("select avg(fourthEquity(hero)) as four, avg(fifthEquity(villain)) as five "
            "from game='razz', hero='As2h3c', villain='(6-6-6-)', trials=1500, seed=8")  # fmt: skip
    runs = [query(text, threads=threads).results for threads in (1, 2, 3)]
    assert runs[0] == runs[1] == runs[2]


def test_a_query_with_no_stopping_rule_stops_within_its_default_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A stud street equity computed afresh for each deal costs up to a tenth of a second a
    deal, so the default 100,000 deals of ``sixthEquity`` four-handed ran for hours. With no
    stopping rule a query now samples 100,000 deals or 30 s, whichever comes first (here 0.5 s)."""
    from pokerlab.analysis.query import runner

    monkeypatch.setattr(runner, "DEFAULT_TIME_LIMIT", 0.5)
    text = ("select avg(sixthEquity(hero)) from game='stud-hilo', hero='As2s3s', "
            "villain='KsKdKh', v3='QQQ', seed=1")  # fmt: skip
    result = query(text)
    assert result.method == "monte-carlo" and result.stopped == "time"
    assert 0 < result.deals < runner.DEFAULT_TRIALS
    cheap = "select avg(riverEquity(hero)) from hero='AhAs', villain='KK', mc, seed=1"
    assert query(cheap).deals == (
        runner.DEFAULT_TRIALS  # a cheap query still samples its 100,000 deals
    )
