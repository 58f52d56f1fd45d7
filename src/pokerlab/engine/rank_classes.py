"""Exact stud where suits never matter (razz): one enumeration per tuple of rank classes.

In a suit-blind game (:attr:`~pokerlab.games.Game.suit_blind`: A-5 low decides the whole pot)
a deal's outcome depends only on the ranks of each player's cards, and the cards left to deal
matter only by how many of each rank are left, which the ranks of the known cards (and the dead
cards, the same in every deal) decide. So every joint holding whose players hold the same rank
multisets (their *rank classes*) has the same outcome counts. This strategy walks the joint
holdings once, adding each one's weight to its tuple of rank classes, then enumerates one
representative joint holding per tuple with the strategy that would have run the whole problem
(:data:`~pokerlab.engine.exact.EXACT_STRATEGIES`), and weighs its counts. Suitless hands
(``A 2 7 9 K Q`` against ``A 3 8 J T 5``: 3,072 x 3,072 holdings, one tuple) took 98 s and
now take one enumeration.
"""

from __future__ import annotations

import dataclasses
import math
from typing import Protocol

import numpy as np
from numpy.typing import NDArray

from pokerlab.engine._control import Control
from pokerlab.engine._parallel import Chunks, Work, chunk_bounds, over
from pokerlab.engine.exact import EXACT_STRATEGIES, _Part, _stats_shape, _summed
from pokerlab.engine.problem import Problem
from pokerlab.engine.tally import Tally

__all__ = ["RankClasses"]

MAX_KEYS = 1 << 20
"""Most tuples of rank classes (the product of the players' class counts) kept in the walk's
arrays (8 bytes each, twice, plus a holding per player)."""
MAX_WALK = 200_000_000
"""Most joint holdings (the product of the range sizes) walked: about a second."""
_SECONDS_PER_WALKED = 4e-9  # a joint holding walked and keyed (numba)
_SECONDS_PER_CLASS_RUN = 1e-4  # a representative's problem built and its strategy set up


class _Exact(Protocol):
    def applies(self, problem: Problem) -> bool: ...

    def estimate(self, problem: Problem) -> float: ...

    def run(self, problem: Problem, control: Control) -> Tally: ...


def _rank_classes(problem: Problem) -> tuple[NDArray[np.int64], list[int]]:
    """Per holding (row of ``problem.combos``), the index of its known cards' rank multiset
    among its player's (in increasing order), and each player's number of classes."""
    found = problem.memo.get("rank_classes")
    if found is None:
        class_of = np.empty(len(problem.combos), dtype=np.int64)
        counts = []
        for p in range(problem.n_players):
            a, b = int(problem.offsets[p]), int(problem.offsets[p + 1])
            k = int(problem.held[p])
            ranks = np.sort(problem.combos[a:b, :k] >> 2, axis=1).astype(np.int64)
            keys = ranks @ (13 ** np.arange(k, dtype=np.int64))
            classes, class_of[a:b] = np.unique(keys, return_inverse=True)
            counts.append(len(classes))
        found = problem.memo["rank_classes"] = (class_of, counts)
    return found


def _single(problem: Problem, rows: NDArray[np.int64]) -> Problem:
    """``problem`` with player ``p`` holding only row ``rows[p]``, of weight 1."""
    n = problem.n_players
    return dataclasses.replace(
        problem,
        combos=np.ascontiguousarray(problem.combos[rows]),
        offsets=np.arange(n + 1, dtype=np.int64),
        weights=np.ones(n),
        dealt=np.zeros(n, dtype=np.bool_),
        combo_masks=problem.combo_masks[rows],
        uniform=(True,) * n,
    )


def _whole_strategy(problem: Problem) -> _Exact:
    """The strategy that enumerates ``problem`` holding by holding."""
    strategy: _Exact = next(s for s in EXACT_STRATEGIES if s.applies(problem))
    return strategy


class RankClasses:
    """Suit-blind stud: the joint holdings grouped by their players' rank classes, one
    enumeration per group (module docstring)."""

    name = "rank-classes"

    def applies(self, problem: Problem) -> bool:
        game = problem.game
        if not (game.is_stud and game.suit_blind) or problem.n_players < 2:
            return False
        _, counts = _rank_classes(problem)
        if math.prod(counts) > MAX_KEYS or math.prod(problem.sizes) > MAX_WALK:
            return False
        return self.estimate(problem) < _whole_strategy(problem).estimate(problem) / 2

    def estimate(self, problem: Problem) -> float:
        _, counts = _rank_classes(problem)
        joint = math.prod(problem.sizes)
        first = np.asarray(problem.offsets[:-1], dtype=np.int64)
        one = _single(problem, first)  # any representative: its shape sets its time
        per_class = _whole_strategy(one).estimate(one) + _SECONDS_PER_CLASS_RUN
        return joint * _SECONDS_PER_WALKED + min(math.prod(counts), joint) * per_class

    def _walk(
        self, problem: Problem
    ) -> tuple[NDArray[np.float64], NDArray[np.int64], NDArray[np.int64]]:
        """Per tuple of rank classes that some joint holding has (in key order): the weight of
        its joint holdings, their number and the first one's rows."""
        from pokerlab.engine._rank_walk import joint_rank_classes

        class_of, counts = _rank_classes(problem)
        n = problem.n_players
        strides = np.ones(n, dtype=np.int64)
        strides[1:] = np.cumprod(counts[:-1])
        keys = math.prod(counts)
        total_w = np.zeros(keys, dtype=np.float64)
        total_n = np.zeros(keys, dtype=np.int64)
        first = np.zeros((keys, n), dtype=np.int64)
        base = np.uint64(problem.dead_mask)
        joint_rank_classes(problem.offsets, problem.combo_masks, problem.weights, class_of,
                           strides, base, total_w, total_n, first)  # fmt: skip
        seen = np.flatnonzero(total_n)
        return total_w[seen], total_n[seen], first[seen]

    def chunks(self, work: Work) -> Chunks[_Part]:
        """Weighted counts of runs of tuples of rank classes, each enumerated on one thread."""
        problem = work.problem
        weights, numbers, firsts = self._walk(problem)
        shape = _stats_shape(problem)

        # every representative has the shape of the first: one strategy runs them all
        whole = _whole_strategy(_single(problem, firsts[0])) if len(firsts) else None

        def run(start: int, stop: int) -> _Part:
            stats = np.zeros(shape, dtype=np.float64)
            deals = 0
            for i in range(start, stop):
                one = _single(problem, firsts[i])
                assert whole is not None  # a chunk holds some representative
                tally = whole.run(one, Control())
                stats += weights[i] * tally.stats
                deals += int(numbers[i]) * tally.deals
            return stats, deals

        return over(run, chunk_bounds(len(weights), self.estimate(problem)))

    def run(self, problem: Problem, control: Control) -> Tally:
        return _summed(self, problem, control, _stats_shape(problem), winner_counts=False)
