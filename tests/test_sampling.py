"""The Monte Carlo sampler draws joint holdings from exactly the distribution definitions.md
defines: a chi-square test on overlapping ranges passes for pokerlab's sampler, by its joint
table and by whole-draw rejection, and fails for the biased player-by-player sampler; the joint
table lists exactly the valid joint holdings; the integer and alias primitives are exact."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import numpy as np
import pytest

from pokerlab.engine import _sampling
from pokerlab.engine._joint_draw import JOINT_LIMIT, alias_tables, holding_draw
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


def _pokerlab_patterns(
    players: list[str], n: int, seed: int, joint_limit: int
) -> Counter[tuple[str, ...]]:
    problem = prepare(players)
    draw = holding_draw(problem.combo_masks, problem.offsets, problem.weights, joint_limit)
    assert (len(draw.joint_used) > 0) == (joint_limit > 0)
    out = np.zeros((n, problem.n_players), dtype=np.int64)
    state = _sampling.seed_state(seed)
    assert _sampling.sample_holdings(draw, np.uint64(0), n, state, out) >= 0
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


@pytest.mark.parametrize("joint_limit", [JOINT_LIMIT, 0], ids=["joint-table", "rejection"])
@pytest.mark.parametrize("spot", range(len(SPOTS)))
def test_joint_holdings_follow_the_defined_distribution(spot: int, joint_limit: int) -> None:
    players = SPOTS[spot]
    expected = _exact_pattern_probabilities(players)
    n = 200_000
    stat, df = _chi2(_pokerlab_patterns(players, n, 11 + spot, joint_limit), expected, n)
    assert stat < CHI2_999[df - 1], (stat, df)


@pytest.mark.parametrize(
    "players", [["AA,KK", "KK,QQ", "QQ,AA"], ["AKs,AA:0.5", "AA,KK", "AK"], ["AhAs", "KK", "AK"]]
)
def test_the_joint_table_lists_every_valid_joint_holding_with_its_weight(
    players: list[str],
) -> None:
    problem = prepare(players)
    draw = holding_draw(problem.combo_masks, problem.offsets, problem.weights)
    masks = problem.combo_masks.tolist()
    weights = problem.weights.tolist()
    ranges = [range(problem.offsets[p], problem.offsets[p + 1]) for p in range(len(players))]
    expected = {}
    for rows in itertools.product(*ranges):
        used = [masks[t] for t in rows]
        if sum(bin(m).count("1") for m in used) == bin(np.bitwise_or.reduce(used)).count("1"):
            expected[rows] = float(np.prod([weights[t] for t in rows]))
    listed = [tuple(r) for r in draw.joint_rows.tolist()]
    assert sorted(listed) == sorted(expected)
    for row, used in zip(listed, draw.joint_used.tolist(), strict=True):
        assert used == int(np.bitwise_or.reduce([masks[t] for t in row]))
    # the alias table reproduces the joint weights
    n = len(listed)
    implied = np.zeros(n)
    for col in range(n):
        implied[col] += draw.joint_prob[col] / n
        implied[draw.joint_alias[col]] += (1 - draw.joint_prob[col]) / n
    total = sum(expected.values())
    assert implied == pytest.approx([expected[r] / total for r in listed])


def test_tiny_weights_draw_like_their_ratios() -> None:
    """The joint weights are products of one weight per player: 1e-200 x 1e-200 would underflow
    to 0 for every joint holding (a uniform table, silently). The draw depends only on ratios."""
    problem = prepare(["AA,KK:0.5", "QQ,AKs:0.25"])
    masks, offsets, weights = problem.combo_masks, problem.offsets, problem.weights
    tiny = weights * 1e-200
    for limit in (None, 0):
        want, got = (
            holding_draw(masks, offsets, weights, limit),
            holding_draw(masks, offsets, tiny, limit),
        )
        for a, b in zip(want, got, strict=True):
            np.testing.assert_allclose(a, b, rtol=1e-12)


def test_the_joint_table_is_left_out_above_its_limit() -> None:
    problem = prepare(["AA,KK,QQ", "AA,KK,QQ"])  # 18 x 18 pairs, 6 x 5 conflicting per pair
    masks, offsets, weights = problem.combo_masks, problem.offsets, problem.weights
    assert len(holding_draw(masks, offsets, weights, 234).joint_used) == 234
    assert len(holding_draw(masks, offsets, weights, 233).joint_used) == 0
    assert len(holding_draw(masks, offsets, weights, 0).joint_used) == 0


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


def test_dealing_to_a_key_deals_the_cards_deal_cards_deals() -> None:
    """``deal_board`` (hold'em's fused board dealing, its generator in scalars) takes the same
    cards from the same random words as ``deal_cards``, and leaves the generator where
    ``deal_cards`` leaves it, so seeded results did not change when it came in."""
    from pokerlab.engine._tables import kernel_tables

    tables = kernel_tables()
    first, second = _sampling.seed_state(9), _sampling.seed_state(9)
    cards = np.zeros(5, dtype=np.int64)
    for trial in range(2_000):
        used = np.uint64((0x5A5A5 << (trial % 30)) & ((1 << 52) - 1))
        count = 1 + trial % 5
        after = _sampling.deal_cards(first, used, count, cards)
        got, key, mask, *words = _sampling.deal_board(
            *second, used, count, np.uint64(0), np.uint64(0), tables.card_key, tables.card_mask
        )
        second[:] = words  # the generator, held in scalars, moves on exactly as the array did
        assert got == after
        dealt = cards[:count].tolist()
        assert key == sum(int(tables.card_key[c]) for c in dealt) % (1 << 64)
        assert mask == int(np.bitwise_or.reduce([int(tables.card_mask[c]) for c in dealt]))
    assert first.tolist() == second.tolist()


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
