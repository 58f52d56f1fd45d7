"""The heads-up flop strategy that compares combos pair by pair (``engine/_pairs.py``,
:class:`~pokerlab.engine.exact.PairRunouts`) against the board-runout strategy it stands in for,
against the plain-Python brute force, and across thread counts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bruteforce import holdem_equity
from pokerlab import equity
from pokerlab.cards import parse_cards
from pokerlab.engine import _parallel
from pokerlab.engine._control import Control
from pokerlab.engine.exact import BoardRunouts, PairRunouts
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.ranges import Range

SPOTS = [
    (["QQ+,AK", "random"], "Jc9h2d", "", "holdem"),
    (["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AK"], "Jc9h2d", "", "holdem"),
    (["AK:0.5,QQ,JJ:0.25,T9s", "random"], "Th9h2h", "", "holdem"),  # weights, monotone flop
    (["AsKs,AsQs,AsJs", "KK+,AQ+:0.7"], "Ah7d2c", "3c4c", "holdem"),  # a card every combo holds
    (["77+,A9s+", "random"], "Kh8d6c", "", "shortdeck"),
    (["random", "22"], "AhKhQd", "", "holdem"),
]


@pytest.mark.parametrize(("players", "board", "dead", "game"), SPOTS)
def test_pairs_count_what_the_board_runouts_count(
    players: list[str], board: str, dead: str, game: str
) -> None:
    problem = prepare(players, board, dead, game)
    pairs = PairRunouts().run(problem, Control())
    runouts = BoardRunouts().run(problem, Control())
    assert pairs.deals == runouts.deals > 0
    np.testing.assert_allclose(pairs.stats, runouts.stats, rtol=1e-12)  # 0.7 weights: rounding


def test_pairs_match_the_brute_force() -> None:
    board = [int(c) for c in parse_cards("Jc9h2d")]
    texts = ["AhAs,KhKs,QdQc", "JJ,T9s:0.5,98s"]
    holdings = [
        [
            (tuple(int(c) for c in combo), w)
            for combo, w in Range(text)
            if not {int(c) for c in combo} & set(board)
        ]
        for text in texts
    ]
    want, _ = holdem_equity(holdings, board, [])
    assert exact_strategy(prepare(texts, "Jc9h2d")).name == "board-pairs"
    got = equity(texts, board="Jc9h2d", method="exact")
    assert [p.equity for p in got.players] == pytest.approx(want, abs=1e-12)


def test_pairs_run_where_they_are_faster() -> None:
    """Ranges against ranges or a random hand on a flop; not a single hand (a pair of combos
    costs the runout listing), not random against random (the counted walk is faster there),
    not a turn or river (too few runouts to compare 16 at a time), not ranges closed under
    rank pairs against ``random`` (the board walk reuses a runout per rank pattern: 1.4-3x
    faster there)."""
    assert exact_strategy(prepare(["QQ+,AKs", "random"], "Jc9h2d")).name == "board-pairs"
    # closed under rank pairs (AK: suited and offsuit): runouts of one rank pattern reused
    assert exact_strategy(prepare(["QQ+,AK", "random"], "Jc9h2d")).name == "board-runouts"
    assert exact_strategy(prepare(["22+,A2s+,KTo+", "QQ+,AK"], "Jc9h2d")).name == "board-pairs"
    assert exact_strategy(prepare(["AhAs", "KdKc"], "Jc9h2d")).name == "board-runouts"
    assert exact_strategy(prepare(["random", "random"], "Jc9h2d")).name == "board-runouts"
    assert exact_strategy(prepare(["QQ+,AK", "random"], "Jc9h2d5s")).name == "board-runouts"
    assert exact_strategy(prepare(["QQ+", "JJ", "random"], "Jc9h2d")).name == "board-runouts"


def test_pairs_are_the_same_bits_on_any_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    players, board = ["22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "QQ+,AK:0.5"], "Jc9h2d"
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-4)  # many chunks
    one = equity(players, board=board, method="exact", threads=1)
    two = equity(players, board=board, method="exact", threads=2)
    assert PairRunouts().applies(prepare(players, board))
    chunks = PairRunouts().chunks(_parallel.Work(prepare(players, board), "board-pairs"))
    assert chunks.count is not None and chunks.count > 4
    assert one.samples == two.samples
    assert np.array_equal(one.counts, two.counts)


@pytest.mark.parametrize(
    ("players", "board", "orbits"),
    [
        (["QQ+,AK", "random"], "Jc9c2c", 6),  # any permutation of d, h, s
        (["QQ+,AK:0.5,T9s", "JJ-99,AQs"], "Jc9c2d", 2),  # h and s swap
        (["AsKs,QQ", "random"], "Jc9c2d", 1),  # spades fixed: nothing to swap
    ],
)
def test_pairs_on_one_runout_per_orbit_count_every_runout(
    players: list[str], board: str, orbits: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One runout per orbit of the suit symmetries, counted as often as its orbit holds, gives
    the counts of every runout; the orbits hold every runout once."""
    from pokerlab.engine import exact

    problem = prepare(players, board)
    assert 1 + len(exact.suit_symmetries(problem)) == orbits
    monkeypatch.setattr(exact, "_SYMMETRY_SECONDS", math.inf)  # no symmetry
    every = PairRunouts().run(problem, Control())
    monkeypatch.setattr(exact, "_SYMMETRY_SECONDS", 0.0)  # symmetry whatever the estimate
    deck = np.array([c for c in range(52) if not (problem.known_mask >> c) & 1], dtype=np.uint8)
    first, second = np.triu_indices(len(deck), 1)
    runouts = np.stack((deck[first], deck[second]), axis=1)
    kept, size = exact._runout_orbits(runouts, exact.suit_symmetries(problem))
    assert int(size.sum()) == len(runouts)
    assert (len(kept) < len(runouts)) == (orbits > 1)
    assert np.all(np.diff(size.astype(np.int64)) >= 0)  # one run per orbit size
    folded = PairRunouts().run(problem, Control())
    assert folded.deals == every.deals
    np.testing.assert_allclose(folded.stats, every.stats, rtol=1e-13)
