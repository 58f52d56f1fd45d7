"""Slow, obviously-correct equity oracles for the tests: walk every deal in plain Python.

The hand evaluator here is written from the rules in ../shared/definitions.md and shares no
code or table with pokerlab: a 5-card hand becomes a comparable tuple (category, tie-breaking
ranks); more cards take the best 5-card subset.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence

Cards = Sequence[int]  # card codes: 4 * rank + suit


def rank5(cards: Cards) -> tuple[int, ...]:
    """(category 0..8, tie-break ranks...) of exactly five cards; larger is better."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
            straight_top = 3
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    by_group = tuple(r for r, _ in groups)
    shape = tuple(n for _, n in groups)
    if straight_top >= 0 and flush:
        return (8, straight_top)
    if shape == (4, 1):
        return (7, *by_group)
    if shape == (3, 2):
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight_top >= 0:
        return (4, straight_top)
    if shape == (3, 1, 1):
        return (3, *by_group)
    if shape == (2, 2, 1):
        return (2, *by_group)
    if shape == (2, 1, 1, 1):
        return (1, *by_group)
    return (0, *ranks)


def best_high(cards: Cards) -> tuple[int, ...]:
    """Best five-card high hand among ``cards`` (5 or more)."""
    return max(rank5(five) for five in itertools.combinations(cards, 5))


def _credit(values: list[tuple[int, ...]], shares: list[float]) -> None:
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    for i in winners:
        shares[i] += 1 / len(winners)


def holdem_equity(
    holdings: Sequence[Sequence[tuple[Cards, float]]], board: Cards, dead: Cards
) -> tuple[list[float], float]:
    """Exact hold'em equity of weighted holdings per player: every joint holding with no shared
    card, weighted by its weight product, times every board completion. Returns the expected
    shares and the total weight."""
    known = set(board) | set(dead)
    shares = [0.0] * len(holdings)
    total = 0.0
    for joint in itertools.product(*holdings):
        cards = [c for combo, _ in joint for c in combo]
        if len(set(cards)) != len(cards) or known & set(cards):
            continue
        weight = 1.0
        for _, w in joint:
            weight *= w
        deck = [c for c in range(52) if c not in known and c not in cards]
        for rest in itertools.combinations(deck, 5 - len(board)):
            full = [*board, *rest]
            local = [0.0] * len(holdings)
            _credit([best_high([*combo, *full]) for combo, _ in joint], local)
            for i, s in enumerate(local):
                shares[i] += weight * s
            total += weight
    return [s / total for s in shares], total


def stud_equity(hands: Sequence[Cards], dead: Cards) -> tuple[list[float], int]:
    """Exact seven-card stud high equity of known cards: every way to deal each player its
    missing cards, player after player."""
    used = {c for h in hands for c in h} | set(dead)
    deck = [c for c in range(52) if c not in used]
    shares = [0.0] * len(hands)
    deals = 0

    def deal(p: int, left: list[int], finished: list[list[int]]) -> None:
        nonlocal deals
        if p == len(hands):
            _credit([best_high(h) for h in finished], shares)
            deals += 1
            return
        for extra in itertools.combinations(left, 7 - len(hands[p])):
            rest = [c for c in left if c not in extra]
            deal(p + 1, rest, [*finished, [*hands[p], *extra]])

    deal(0, deck, [])
    return [s / deals for s in shares], deals
