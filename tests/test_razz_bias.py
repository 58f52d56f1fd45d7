"""The razz bias of the old simulator, reproduced and caught.

``(3-2-)45678`` vs ``A345678`` in razz: the hero's two downcards are "3 or lower" and "2 or lower"
with distinct ranks, his upcards 4 5 6 7 8; the villain holds A 3 4 5 6 7 8. Left in the deck
below 4: three aces, four deuces, three treys. As *sets* of cards the hero's downcards are
A2 (12 ways, the hero wins: 6-5-4-2-A), A3 (9 ways, a tie) or 23 (12 ways, he loses): 33 holdings,
equity exactly 50 %, and ``(3-3-)`` is the same 33 sets.

A naive sampler that picks each downcard's rank in the order the pattern lists them, drawing the
card again when it pairs an earlier one, gets A2 with probability 2/3 (a first ace forces the
deuce, a first deuce forces the ace) and so reports 66.67 % wins. Enumerated in that order (first
card from the ten cards <= 3, then a card <= 2 of another rank) the same bias shows as the old
45 hands: 24 win, 12 lose, 9 tie (66.67 % of the pots that do not tie). pokerlab's sampler and its
exact engine give 50 % for both spellings; a chi-square test on the drawn downcards passes for
pokerlab's sampler and fails for the naive one.
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

import pokerlab
from pokerlab.engine import _sampling
from pokerlab.engine._joint_draw import holding_draw
from pokerlab.engine.problem import prepare

VILLAIN = "A345678"
UPCARDS = "45678"
RANKS = "A23456789TJQK"
CHI2_999_DF2 = 13.82  # upper 0.1 % point of the chi-square distribution with 2 degrees of freedom
# the exact distribution of the hero's downcard ranks: 12, 9 and 12 of the 33 holdings
EXACT = {"A2": 12 / 33, "A3": 9 / 33, "23": 12 / 33}
OUTCOME = {"A2": "win", "A3": "tie", "23": "lose"}


def _left_below_four() -> dict[str, int]:
    """Cards of each rank A, 2, 3 still in the deck (the villain holds an ace and a trey)."""
    return {"A": 3, "2": 4, "3": 3}


def _naive_downcards(spans: list[str], rng: random.Random) -> str:
    """The old simulator's method: each downcard's rank in order, uniformly from its span; a
    rank that pairs an earlier downcard is drawn again."""
    chosen: list[str] = []
    for span in spans:
        rank = rng.choice(span)
        while rank in chosen:
            rank = rng.choice(span)
        chosen.append(rank)
    return "".join(sorted(chosen, key=RANKS.index))


def _naive_enumeration(spans: list[str]) -> Counter[str]:
    """Every ordered choice of cards, one per listed downcard (the old 45 hands)."""
    left = _left_below_four()
    hands: Counter[str] = Counter()
    for first in spans[0]:
        for second in spans[1]:
            if first != second:
                key = "".join(sorted(first + second, key=RANKS.index))
                hands[OUTCOME[key]] += left[first] * left[second]
    return hands


def _pokerlab_downcards(hero: str, n: int, seed: int) -> Counter[str]:
    problem = prepare([hero, VILLAIN], game="razz")
    draw = holding_draw(problem.combo_masks, problem.offsets, problem.weights)
    out = np.zeros((n, 2), dtype=np.int64)
    state = _sampling.seed_state(seed)
    assert _sampling.sample_holdings(draw, np.uint64(0), n, state, out) >= 0
    drawn: Counter[str] = Counter()
    for row in problem.combos[out[:, 0]].tolist():
        low = sorted({c >> 2 for c in row} - {2, 3, 4, 5, 6})  # ranks below 4 (code 12 = ace)
        drawn["".join(RANKS[(r + 1) % 13] for r in sorted(low, key=lambda r: (r + 1) % 13))] += 1
    return drawn


def _chi2(drawn: Counter[str], n: int) -> float:
    assert set(drawn) <= set(EXACT)
    return sum((drawn[k] - n * p) ** 2 / (n * p) for k, p in EXACT.items())


def test_the_naive_sampler_reproduces_the_old_66_67_percent() -> None:
    rng = random.Random(12)
    n = 60_000
    drawn = Counter(_naive_downcards(["A23", "A2"], rng) for _ in range(n))
    wins = drawn["A2"] / n
    assert abs(wins - 2 / 3) < 4 * np.sqrt(2 / 3 * (1 / 3) / n)  # 66.67 % wins
    hands = _naive_enumeration(["A23", "A2"])
    assert hands == {"win": 24, "lose": 12, "tie": 9}  # the old 45 hands
    assert hands["win"] / (hands["win"] + hands["lose"]) == pytest.approx(2 / 3)
    # listed the other way, (3-3-) is symmetric: the same enumeration gives exactly 50 %
    same = _naive_enumeration(["A23", "A23"])
    assert same["win"] == same["lose"]


@pytest.mark.parametrize("hero", ["(3-2-)45678", "(3-3-)45678"])
def test_pokerlab_gives_50_percent_for_both_spellings(hero: str) -> None:
    exact = pokerlab.equity([hero, VILLAIN], game="razz", method="exact")
    assert exact.players[0].equity == pytest.approx(0.5, abs=1e-12)
    assert exact.players[0].win == pytest.approx(12 / 33)
    assert exact.players[0].tie == pytest.approx(9 / 33)
    mc = pokerlab.equity([hero, VILLAIN], game="razz", method="mc", trials=40_000, seed=9)
    assert abs(mc.players[0].equity - 0.5) < 4 * mc.players[0].stderr


@pytest.mark.parametrize("hero", ["(3-2-)45678", "(3-3-)45678"])
def test_the_unbiasedness_test_passes_pokerlab_and_catches_the_naive_sampler(hero: str) -> None:
    n = 40_000
    assert _chi2(_pokerlab_downcards(hero, n, seed=21), n) < CHI2_999_DF2
    spans = ["A23", "A2"] if "3-2-" in hero else ["A23", "A23"]
    rng = random.Random(21)
    naive = Counter(_naive_downcards(spans, rng) for _ in range(n))
    assert _chi2(naive, n) > 10 * CHI2_999_DF2
