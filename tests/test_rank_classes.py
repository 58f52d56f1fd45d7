"""Razz by rank classes: joint holdings with the same ranks per player share one enumeration,
weighted by how many of them there are (and their weights). The answers must be those of the
holding-by-holding enumeration, deal counts included."""

from __future__ import annotations

import numpy as np
import pytest

from pokerlab import equity
from pokerlab.engine import _parallel
from pokerlab.engine.problem import prepare
from pokerlab.engine.rank_classes import RankClasses
from pokerlab.engine.strategies import exact_strategy

SPOTS = [
    # (players, dead): suitless hands against a known one, against each other (suitless dead
    # cards too), weights within a rank class, three-way
    (["As2d7c9hKdQs", "A 3 8 J T 5"], "Ah"),
    (["A 2 7 9 Kd Qs", "3 4 8 Jc Tc 5c"], "A 9"),
    (["As2d7c9hKd@30,A 2 7c 9h Kh@70,Ac2c7h9s5d", "(3-3-)JcT6Qc"], ""),
    (["As2d3c4h5s6d7c", "Ac2c3d4d5c7h8h", "K Q J T 9 8"], "7d"),
]


@pytest.mark.parametrize(("players", "dead"), SPOTS)
def test_rank_classes_answer_what_holding_by_holding_does(
    monkeypatch: pytest.MonkeyPatch, players: list[str], dead: str
) -> None:
    problem = prepare(players, dead=dead, game="razz").with_unit_weights()
    strategy = exact_strategy(problem)
    assert strategy is not None and strategy.name == "rank-classes"
    grouped = equity(players, dead=dead, game="razz", method="exact", threads=1)
    monkeypatch.setattr(RankClasses, "applies", lambda self, problem: False)
    whole = equity(players, dead=dead, game="razz", method="exact", threads=1)
    assert grouped.samples == whole.samples
    # the same weighted counts, summed in another order
    np.testing.assert_allclose(grouped.counts, whole.counts, rtol=1e-10)


def test_the_result_does_not_depend_on_the_thread_count(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)  # a chunk per class tuple
    players, dead = ["As2d7c9hKd@30,A 2 7c 9h Kh@70,Ac2c7h9s5d", "(3-3-)JcT6Qc"], ""
    problem = prepare(players, dead=dead, game="razz").with_unit_weights()
    chunks = RankClasses().chunks(_parallel.Work(problem, "rank-classes"))
    assert chunks.count is not None and chunks.count > 3
    one = equity(players, dead=dead, game="razz", method="exact", threads=1)
    two = equity(players, dead=dead, game="razz", method="exact", threads=2)
    assert one.samples == two.samples and np.array_equal(one.counts, two.counts)


def test_only_a_suit_blind_game_is_grouped_by_rank() -> None:
    """Stud and stud hi/lo count flushes: suits matter there."""
    for game in ("stud", "stud-hilo"):
        problem = prepare(["As2d7c9hKdQs", "Ac3c8cJcTh5h"], game=game)
        assert not RankClasses().applies(problem)
    # in razz, one holding per player has nothing to group
    assert not RankClasses().applies(prepare(["As2d7c9hKdQs", "Ac3c8cJcTh5h"], game="razz"))
