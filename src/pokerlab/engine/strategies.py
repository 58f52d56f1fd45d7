"""The engine as an ordered list of strategies.

A strategy answers one kind of problem: ``applies(problem)`` says whether it can,
``estimate(problem)`` how long it would take on one core (seconds; infinite for Monte Carlo,
which stops when told to), and ``run(problem, control)`` computes a
:class:`~pokerlab.engine.tally.Tally` in the one result layout of :mod:`pokerlab.engine.tally`.
The exact strategies are tried in the order of :data:`~pokerlab.engine.exact.EXACT_STRATEGIES`
(the first that applies runs); :class:`~pokerlab.engine.montecarlo.MonteCarlo` applies to
everything. No strategy names a game: each asks what the game evaluates
(:mod:`pokerlab.evaluation.codes`) and how its cards are dealt.

>>> from pokerlab.engine.problem import prepare
>>> exact_strategy(prepare(["AsKs", "QQ"], board="Qh7c2d")).name
'board-runouts'
>>> exact_strategy(prepare(["AsKsQdJd", "random"], game="omaha")) is None
True
"""

from __future__ import annotations

from typing import Protocol

from pokerlab.engine._control import Control
from pokerlab.engine.exact import EXACT_STRATEGIES
from pokerlab.engine.montecarlo import MonteCarlo
from pokerlab.engine.problem import Problem
from pokerlab.engine.tally import Tally

__all__ = ["MONTE_CARLO", "Strategy", "exact_strategy"]


class Strategy(Protocol):
    name: str

    def applies(self, problem: Problem) -> bool: ...

    def estimate(self, problem: Problem) -> float: ...

    def run(self, problem: Problem, control: Control) -> Tally: ...


MONTE_CARLO: Strategy = MonteCarlo()


def exact_strategy(problem: Problem) -> Strategy | None:
    """The first exact strategy that applies, or ``None`` (a dealt ``random`` hand in a board
    game with more than two hole cards: only Monte Carlo answers it)."""
    strategy: Strategy
    for strategy in EXACT_STRATEGIES:
        if strategy.applies(problem):
            return strategy
    return None
