"""The board-runout kernel counts the widest evenly weighted range instead of walking it
(``engine/_runouts.py``): a ``random`` hand by rank pair, a few walked joint holdings by a scan
of the counted combos, many by sorted strengths with per-card inclusion-exclusion. Each way must
give exactly the integer counts of the plain walk (the counting switched off), on boards where
flushes need two, one or no card of the long suit, with dead cards, symmetric ranges and ranges
that always hold a card; and a ``random`` hand must match the plain-Python brute force."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from bruteforce import holdem_equity
from pokerlab import equity
from pokerlab.cards import parse_cards
from pokerlab.engine import exact
from pokerlab.engine._control import Control
from pokerlab.engine.problem import prepare

SPOTS = [
    (["QsQh", "8c7c", "random"], "Jc9h2d", ""),  # random by rank pair, flop
    (["AsKs", "QQ+,AKs,AKo"], "Jc9h2d", ""),  # a range scanned
    (["AhAs", "random"], "Kh7h2c9h", ""),  # three hearts on some rivers: two make a flush
    (["5h4h", "KK", "random"], "Kh7h2h9h", ""),  # four hearts: one heart makes a flush
    (["AhAs", "random"], "Kh7h2h3h4h", ""),  # five hearts on the board
    (["AsAd", "KhKd", "random", "QcJc"], "2s3s4h", "Tc"),  # three walked hands, a dead card
    (["AKs,QQ", "random"], "Qh7h2c5h", ""),  # ten joint holdings: sorted
    (["QQ+,AKs", "JJ-99", "random"], "2c7c9c5d", ""),  # sorted, monotone flop (symmetry)
    (["AsKs,AsQs", "random"], "Jc9h2d7s", ""),  # every combo holds As: a skipped card
    (["TT+,AK", "KK,87s", "JJ-88"], "9h8h2h", "3c"),  # sorted, the last a range
    (["random", "2c2d"], "AhKhQh3s", ""),
    (["AK:0.5,QQ", "JJ,TT:0.25", "99,88,77,66,55"], "Ts9d4c", ""),  # weighted walk, counted last
]


def _walked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(exact, "_counts_last", lambda problem: False)


@pytest.mark.parametrize(("players", "board", "dead"), SPOTS)
def test_counting_equals_the_walk(
    players: list[str], board: str, dead: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    counted = equity(players, board=board, dead=dead, method="exact", threads=1)
    two = equity(players, board=board, dead=dead, method="exact", threads=2)
    with monkeypatch.context() as m:
        _walked(m)
        walked = equity(players, board=board, dead=dead, method="exact", threads=1)
    assert counted.samples == walked.samples == two.samples
    assert np.array_equal(counted.counts, walked.counts)
    assert np.array_equal(counted.counts, two.counts)


def _random_combos(used: set[int]) -> list[tuple[tuple[int, ...], float]]:
    cards = [c for c in range(52) if c not in used]
    return [(pair, 1.0) for pair in itertools.combinations(cards, 2)]


@pytest.mark.parametrize(
    ("hands", "board"),
    [
        (["AhAs"], "Kh7h2c9h3d"),  # no flush possible
        (["5h4h"], "Kh7h2h9c3d"),  # three hearts
        (["QdJd", "8s8c"], "Kd7d2d9d3c"),  # four diamonds
        (["AhKd"], "9s8s7s6s2s"),  # five spades
    ],
)
def test_random_hand_matches_brute_force(hands: list[str], board: str) -> None:
    board_cards = [int(c) for c in parse_cards(board)]
    known = [tuple(int(c) for c in parse_cards(h)) for h in hands]
    used = set(board_cards) | {c for h in known for c in h}
    holdings = [[(h, 1.0)] for h in known] + [_random_combos(used)]
    want, _ = holdem_equity(holdings, board_cards, [])
    got = equity([*hands, "random"], board=board, method="exact", threads=1)
    assert [p.equity for p in got.players] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "board"),
    [(["AhKh", "random"], "Qh7h2c"), (["AhKh", "QQ+,AKs,AKo", "random"], "Qh7h2c9d")],
)
def test_counting_equals_the_walk_per_runout(
    players: list[str], board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = prepare(players, board)
    counted = exact.runout_stats(problem, Control(threads=1))
    with monkeypatch.context() as m:
        _walked(m)
        walked = exact.runout_stats(problem, Control(threads=1))
    assert np.array_equal(counted, walked)
