"""The engine as an ordered list of strategies.

A strategy answers one kind of problem: ``applies(problem)`` says whether it can,
``estimate(problem)`` how long it would take on one core (seconds; infinite for Monte Carlo,
which stops when told to), and ``run(problem, control)`` computes a
:class:`~pokerlab.engine.tally.Tally` in the one result layout of :mod:`pokerlab.engine.tally`.
``chunks(work)`` are the fixed chunks ``run`` merges (:mod:`pokerlab.engine._parallel`); a
worker of a client rebuilds them from the :class:`~pokerlab.engine._parallel.Work` and runs some
of them (:func:`run_work`).
The exact strategies are tried in the order of :data:`STRATEGIES` (the first that applies
runs): :class:`~pokerlab.engine.rank_classes.RankClasses`, then
:data:`~pokerlab.engine.exact.EXACT_STRATEGIES`;
:class:`~pokerlab.engine.montecarlo.MonteCarlo` applies to everything. No strategy names a
game: each asks what the game evaluates (:mod:`pokerlab.evaluation.codes`) and how its cards
are dealt.

>>> from pokerlab.engine.problem import prepare
>>> exact_strategy(prepare(["AsKs", "QQ"], board="Qh7c2d")).name
'board-runouts'
>>> exact_strategy(prepare(["AsKsQdJd", "random"], game="omaha")) is None
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Protocol

from pokerlab.engine._control import Control
from pokerlab.engine._parallel import Chunks, Work
from pokerlab.engine.exact import EXACT_STRATEGIES
from pokerlab.engine.montecarlo import MonteCarlo
from pokerlab.engine.problem import Problem
from pokerlab.engine.rank_classes import RankClasses
from pokerlab.engine.tally import Tally

__all__ = ["MONTE_CARLO", "STRATEGIES", "Strategy", "exact_strategy", "run_work"]


class Strategy(Protocol):
    name: str

    def applies(self, problem: Problem) -> bool: ...

    def estimate(self, problem: Problem) -> float: ...

    def run(self, problem: Problem, control: Control) -> Tally: ...

    def chunks(self, work: Work) -> Chunks[Any]: ...


MONTE_CARLO: Strategy = MonteCarlo()
STRATEGIES: tuple[Strategy, ...] = (RankClasses(), *EXACT_STRATEGIES)
"""The exact strategies in the order they are tried: rank classes (suit-blind stud, where
they group joint holdings) before those that enumerate holding by holding."""


def exact_strategy(problem: Problem) -> Strategy | None:
    """The first exact strategy that applies, or ``None`` (a dealt ``random`` hand in a board
    game with more than two hole cards, or stud's shared seventh card: only Monte Carlo
    answers them)."""
    if problem.shared_card:  # every exact stud kernel deals each player seven cards of its own
        return None
    strategy: Strategy
    for strategy in STRATEGIES:
        if strategy.applies(problem):
            return strategy
    return None


_RECENT_RUNS = 4
_recent: OrderedDict[str, Chunks[Any]] = OrderedDict()
_recent_lock = threading.Lock()


def run_work(work: Work, start: int, stop: int) -> list[Any]:
    """The partial results of chunks ``start..stop-1`` of ``work`` (a task on a worker of a
    client), each as the strategy's own run would compute it; the chunks are built once per
    run and process (kept for the last few runs)."""
    with _recent_lock:
        chunks = _recent.get(work.key)
        if chunks is None:
            strategy = _strategy_named(work.strategy)
            chunks = _recent[work.key] = strategy.chunks(work)
            while len(_recent) > _RECENT_RUNS:
                _recent.popitem(last=False)
        else:
            _recent.move_to_end(work.key)
    return [chunks.run(index) for index in range(start, stop)]


def _strategy_named(name: str) -> Strategy:
    strategy: Strategy
    for strategy in (*STRATEGIES, MONTE_CARLO):
        if strategy.name == name:
            return strategy
    raise ValueError(f"no strategy named '{name}' (a worker with another pokerlab version?)")
