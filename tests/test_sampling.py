"""The Monte Carlo sampler draws joint holdings from exactly the distribution definitions.md
defines: a chi-square test on overlapping ranges passes for pokerlab's sampler and fails for the
biased player-by-player sampler, and the integer and alias primitives are exact."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from pokerlab.engine import _sampling
from pokerlab.engine.montecarlo import alias_tables
from pokerlab.engine.problem import prepare

# Upper 0.1 % points of the chi-square distribution, df = 1..10 (standard tables).
CHI2_999 = (10.83, 13.82, 16.27, 18.47, 20.52, 22.46, 24.32, 26.12, 27.88, 29.59)
SPOTS = [
    ["AA,KK", "KK,QQ", "QQ,AA"],
    ["AA,KK:0.3", "KK,QQ:0.5", "QQ,AA"],
    ["AKs,AA", "AA,KK", "AK"],
]


def _class_of(combo: tuple[int, int]) -> str:
    ranks = "23456789TJQKA"
    a, b = sorted(combo, reverse=True)
    name = ranks[a >> 2] + ranks[b >> 2]
    if a >> 2 != b >> 2:
        name += "s" if a & 3 == b & 3 else "o"
    return name


def _exact_pattern_probabilities(players: list[str]) -> dict[tuple[str, ...], float]:
    """P(joint class pattern) by enumerating every valid joint holding with its weight."""
    problem = prepare(players)
    parts = [
        list(
            zip(
                problem.combos[problem.offsets[p] : problem.offsets[p + 1]].tolist(),
                problem.weights[problem.offsets[p] : problem.offsets[p + 1]].tolist(),
                strict=True,
            )
        )
        for p in range(problem.n_players)
    ]
    mass: Counter[tuple[str, ...]] = Counter()
    for joint in itertools.product(*parts):
        cards = [c for combo, _ in joint for c in combo]
        if len(set(cards)) != len(cards):
            continue
        weight = float(np.prod([w for _, w in joint]))
        mass[tuple(_class_of(tuple(combo)) for combo, _ in joint)] += weight
    total = sum(mass.values())
    return {k: v / total for k, v in mass.items()}


def _chi2(observed: Counter[tuple[str, ...]], expected: dict[tuple[str, ...], float], n: int
          ) -> tuple[float, int]:  # fmt: skip
    assert set(observed) <= set(expected), "a sampled pattern is impossible"
    stat = sum((observed[k] - n * p) ** 2 / (n * p) for k, p in expected.items())
    return stat, len(expected) - 1


def _pokerlab_patterns(players: list[str], n: int, seed: int) -> Counter[tuple[str, ...]]:
    problem = prepare(players)
    prob, alias = alias_tables(problem.weights, problem.offsets)
    out = np.zeros((n, problem.n_players), dtype=np.int64)
    state = _sampling.seed_state(seed)
    assert (
        _sampling.sample_holdings(
            problem.combos, problem.offsets, prob, alias, np.uint64(0), n, state, out
        )
        >= 0
    )
    combos = problem.combos.tolist()
    return Counter(tuple(_class_of(tuple(combos[t])) for t in row) for row in out.tolist())


def _player_by_player_patterns(players: list[str], n: int, seed: int) -> Counter[tuple[str, ...]]:
    """The biased method definitions.md warns about: each player from what is left."""
    problem = prepare(players)
    rng = random.Random(seed)
    parts = [
        list(zip(problem.combos[problem.offsets[p] : problem.offsets[p + 1]].tolist(),
                 problem.weights[problem.offsets[p] : problem.offsets[p + 1]].tolist(),
                 strict=True))
        for p in range(problem.n_players)
    ]  # fmt: skip
    seen: Counter[tuple[str, ...]] = Counter()
    while sum(seen.values()) < n:
        used: set[int] = set()
        joint = []
        for part in parts:
            left = [(c, w) for c, w in part if not used & set(c)]
            if not left:
                break
            combo = rng.choices([c for c, _ in left], weights=[w for _, w in left])[0]
            used |= set(combo)
            joint.append(combo)
        else:
            seen[tuple(_class_of(tuple(c)) for c in joint)] += 1
    return seen


@pytest.mark.parametrize("spot", range(len(SPOTS)))
def test_joint_holdings_follow_the_defined_distribution(spot: int) -> None:
    players = SPOTS[spot]
    expected = _exact_pattern_probabilities(players)
    n = 200_000
    stat, df = _chi2(_pokerlab_patterns(players, n, seed=11 + spot), expected, n)
    assert stat < CHI2_999[df - 1], (stat, df)


def test_player_by_player_sampling_fails_the_same_test() -> None:
    players = SPOTS[0]
    expected = _exact_pattern_probabilities(players)
    n = 60_000
    stat, df = _chi2(_player_by_player_patterns(players, n, seed=5), expected, n)
    assert stat > 10 * CHI2_999[df - 1], (stat, df)


def test_below_is_uniform_and_in_range() -> None:
    state = _sampling.seed_state(3)
    draws = [int(_sampling.below(state, 52)) for _ in range(52_000)]
    assert min(draws) == 0 and max(draws) == 51
    counts = np.bincount(draws, minlength=52)
    stat = float(((counts - 1000) ** 2 / 1000).sum())
    assert stat < 100  # df 51: the 0.1 % point is about 87.97; generous margin


def test_dealt_cards_are_distinct_and_avoid_used_cards() -> None:
    state = _sampling.seed_state(4)
    cards = np.zeros(5, dtype=np.int64)
    used = np.uint64((1 << 20) - 1)
    seen = np.zeros(52, dtype=np.int64)
    for _ in range(20_000):
        _sampling.deal_cards(state, used, 5, cards)
        assert len(set(cards.tolist())) == 5 and min(cards) >= 20
        seen[cards] += 1
    expected = 20_000 * 5 / 32
    assert np.all(np.abs(seen[20:] - expected) < 6 * np.sqrt(expected))


def test_alias_tables_reproduce_weights() -> None:
    weights = np.array([1.0, 3.0, 0.5, 2.5, 1.0, 7.0, 1.0])
    offsets = np.array([0, 2, 7])
    prob, alias = alias_tables(weights, offsets)
    for p in range(2):
        lo, hi = offsets[p], offsets[p + 1]
        n = hi - lo
        implied = np.zeros(n)
        for col in range(n):
            implied[col] += prob[lo + col] / n
            implied[alias[lo + col]] += (1 - prob[lo + col]) / n
        assert implied == pytest.approx(weights[lo:hi] / weights[lo:hi].sum())
