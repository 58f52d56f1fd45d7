"""An empty board enumerated board by board (``BoardRunouts`` over every five-card board)
counts what the matchup-by-matchup enumeration counts, and runs where its estimate is lower:
ranges against ``random`` hands three or more ways, whose matchups run to millions (QQ+,AKs,AKo
vs JJ-88,AQs+,AQo vs random: 45 s by matchups, 7.5 s by boards on one Intel Xeon core)."""

from __future__ import annotations

import numpy as np
import pytest

from bruteforce import holdem_equity
from pokerlab import equity
from pokerlab.cards import parse_cards
from pokerlab.engine._control import Control
from pokerlab.engine.exact import BoardRunouts, PreflopMatchups
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.engine.tally import SHARE
from pokerlab.ranges import Range

SPOTS = [
    # (players, dead, game): every one run by both strategies
    (["AhAs", "KK", "random"], "", "shortdeck"),
    (["AhKh", "QQ:0.5,JJ", "random"], "", "shortdeck"),  # weights: walked, not counted
    (["AK", "QQ", "JJ"], "", "shortdeck"),
    (["AA", "KK"], "2c", "holdem"),  # a dead card: no suit symmetry but one swap
    (["AA,KK:0.5", "QQ", "AKs,T9s"], "", "holdem"),
]


@pytest.mark.parametrize(("players", "dead", "game"), SPOTS)
def test_board_runouts_count_what_the_matchups_count_preflop(
    players: list[str], dead: str, game: str
) -> None:
    problem = prepare(players, dead=dead, game=game)
    boards = BoardRunouts().run(problem, Control())
    matchups = PreflopMatchups().run(problem, Control())
    assert boards.deals == matchups.deals > 0
    np.testing.assert_allclose(boards.stats, matchups.stats, rtol=1e-12)  # weights: rounding


@pytest.mark.parametrize(
    ("texts", "below"),
    [
        (["AhKh", "QQ:0.5,KK", "random"], "Q"),  # random counted by rank pairs and sorted
        (["AhKh", "QQ,JJ", "AsKs:0.5,AdKd"], "J"),  # a weighted range walked, QQ,JJ counted
        (["AhKh:0.3,AdQd", "QQ:0.5,JJ", "AsKs,AcKc"], "J"),  # every range walked
    ],
)
def test_preflop_board_runouts_match_the_brute_force(texts: list[str], below: str) -> None:
    """Every board after the players' holdings, scored by the tests' own evaluator
    (``bruteforce``), against the board walk forced on the spot. Every card below ``below`` is
    dead, so the brute force has a few hundred boards per joint holding at most."""
    ranks = "23456789TJQKA"
    dead = "".join(f"{r}{s}" for r in ranks[: ranks.index(below)] for s in "cdhs")
    dead_codes = {int(c) for c in parse_cards(dead)}
    holdings = [
        [
            (tuple(int(c) for c in combo), w)
            for combo, w in Range(text)
            if not {int(c) for c in combo} & dead_codes
        ]
        for text in texts
    ]
    want, _ = holdem_equity(holdings, [], sorted(dead_codes))
    problem = prepare(texts, dead=dead)
    tally = BoardRunouts().run(problem, Control())
    got = tally.stats[:3, SHARE] / tally.stats[3, 0]
    assert got.tolist() == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "strategy"),
    [
        (["QQ+,AKs,AKo", "JJ-88,AQs+,AQo", "random"], "board-runouts"),
        (["AhAs", "random", "random"], "board-runouts"),
        (["QQ+", "JJ+", "AK", "random"], "board-runouts"),
        (["AhAs", "KdKc", "QsQh"], "preflop-matchups"),  # a few matchups: each at once
        # closed under rank pairs: runouts of one rank pattern reused (4.5 s against 8.5 s)
        (["AhAs", "QQ+,AK", "random"], "board-runouts"),
        (["AhAs", "QQ+,AKs", "random"], "preflop-matchups"),  # AKs: every runout walked
        (["AhKh", "random"], "preflop-matchups"),  # heads-up: the shipped table's, by matchup
    ],
)
def test_an_empty_board_runs_the_strategy_estimated_quicker(
    players: list[str], strategy: str
) -> None:
    problem = prepare(players, dead="3c") if len(players) == 2 else prepare(players)
    chosen = exact_strategy(problem)
    assert chosen is not None and chosen.name == strategy
    other = PreflopMatchups() if strategy == "board-runouts" else BoardRunouts()
    assert chosen.estimate(problem) < other.estimate(problem)


def test_a_three_way_range_spot_preflop_is_exact_and_weighs_every_board() -> None:
    """Short deck, where it takes a tenth of a second: the equities sum to 1, and the deals
    are the joint holdings times the boards each leaves."""
    result = equity(["AhAs", "KK", "random"], game="shortdeck", method="exact")
    assert result.method == "exact"
    assert sum(p.equity for p in result.players) == pytest.approx(1, abs=1e-12)
    assert (
        result.samples
        == BoardRunouts().run(prepare(["AhAs", "KK", "random"], game="shortdeck"), Control()).deals
    )
