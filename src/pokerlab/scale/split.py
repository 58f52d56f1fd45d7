"""One big job split into independent parts: :func:`distributed_equity`.

Exact (hold'em):
The exact answer is a sum over joint holdings (one combo per player, no card twice) of the
product of the combos' weights times each board completion's showdown. Partition the holdings of
one player (the one with the most) into disjoint parts: each joint holding falls in exactly one
part, so the raw counts of :attr:`EquityResult.counts` (un-normalised weighted sums: wins, ties
by size, total) of the parts add up to the counts of the whole, and so do the deals enumerated.
The part results are added in part order and the statistics derived from the sum by the engine's
own :func:`~pokerlab.engine.tally.player_stats`.

Exactness: with whole-number weights (every range without ``:w`` weights) every count is an
integer below 2^53, so the sum is the same bits as the one-machine run whatever the order; with
fractional weights the parts' sums are rounded in another order and the result may differ from
the one-machine run in the last bits of a float (about 1e-16 relative).

Monte Carlo (every game): ``trials`` deals split into seeded parts (seeds spawned from ``seed`` by
:class:`numpy.random.SeedSequence`), each an independent unbiased run of the engine; their raw
counts add up like one longer run's, and the standard error follows from the sum. The number of
parts depends only on ``trials`` (or is given), so the answer is the same on every backend for
the same ``seed``; it is not the same stream as ``pokerlab.equity(..., seed=seed)`` on one
machine (a different, equally valid sample).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from itertools import pairwise
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import Card
from pokerlab.engine.api import equity
from pokerlab.engine.problem import PlayerInput, Problem, prepare
from pokerlab.engine.result import EquityResult, PlayerEquity
from pokerlab.engine.tally import player_stats
from pokerlab.errors import EmptyRangeError, GameError
from pokerlab.ranges import Range
from pokerlab.scale.backends import make_backend

__all__ = ["distributed_equity", "run_part", "run_sampled_part"]

MC_PART_TRIALS = 250_000
"""Monte Carlo deals per part by default (at most 256 parts)."""

Part = tuple[list[Any], int, str, str]  # players (the split one as (combos, weights)), index,
# board, dead


def run_part(part: Part) -> tuple[NDArray[np.float64] | None, int]:
    """Exact raw counts and deals of one part; ``(None, 0)`` when the part's holdings leave no
    possible deal (every one of them shares a card with every holding of someone else)."""
    players, split, board, dead = part
    combos, weights = players[split]
    players = list(players)
    players[split] = Range(combos, weights)
    try:
        result = equity(players, board=board, dead=dead, method="exact")
    except EmptyRangeError:
        return None, 0
    return result.counts, result.samples


def run_sampled_part(
    task: tuple[list[Any], str, str, str, int, int],
) -> tuple[NDArray[np.float64], int]:
    """Raw counts and deals of ``trials`` Monte Carlo deals with ``seed``."""
    players, board, dead, game, trials, seed = task
    result = equity(players, board=board, dead=dead, game=game, method="monte-carlo",
                    trials=trials, seed=seed)  # fmt: skip
    return result.counts, result.samples


def _parts(size: int, count: int) -> list[slice]:
    count = max(1, min(count, size))
    edges = np.linspace(0, size, count + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in pairwise(edges)]


def distributed_equity(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str = "holdem",
    method: str = "exact",
    *,
    trials: int | None = None,
    seed: int | None = None,
    parts: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
) -> EquityResult:
    """The equity of :func:`pokerlab.equity` computed in ``parts`` independent parts on a
    backend (as :func:`pokerlab.batch`: local processes or Dask), merged as the module notes
    say: ``method="exact"`` (``"auto"`` too) in hold'em, split by holdings (default 4 parts per
    worker); ``method="monte-carlo"`` (``"mc"``) in any game, ``trials`` deals in seeded parts
    (default one per 250,000 deals).

    >>> r = distributed_equity(["AhAs", "KK,QQ", "JTs"], board="Td9c2h", workers=1, parts=3)
    >>> one = equity(["AhAs", "KK,QQ", "JTs"], board="Td9c2h", method="exact")
    >>> r.players == one.players, r.samples == one.samples, bool((r.counts == one.counts).all())
    (True, True, True)
    """
    started = time.perf_counter()
    backend_args: dict[str, Any] = dict(
        backend=backend, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
        client=client,
    )  # fmt: skip
    if method in ("monte-carlo", "mc"):
        return _sampled(players, board, dead, game, trials, seed, parts, backend_args, started)
    if method not in ("exact", "auto"):
        raise GameError(f"unknown method '{method}': use exact or monte-carlo", field="method")
    if game != "holdem":
        raise GameError(f"an exact job is split over machines in hold'em only, not '{game}'",
                        field="game")  # fmt: skip
    problem = prepare(players, board, dead, "holdem")
    if problem.deals_hole_cards:
        raise GameError("a 'random' hand is only dealt by Monte Carlo, not split exactly")
    split = int(np.argmax(problem.sizes))
    rows = slice(int(problem.offsets[split]), int(problem.offsets[split + 1]))
    combos = np.ascontiguousarray(problem.combos[rows, :2])
    weights = problem.weights[rows]
    board_text, dead_text = problem.board_text, problem.dead_text
    originals = [p.to_string() if isinstance(p, Range) else p for p in players]  # picklable
    with make_backend(**backend_args) as runner:
        pieces = _parts(len(combos), parts if parts is not None else 4 * runner.workers)
        tasks = []
        for k, piece in enumerate(pieces):
            part_players: list[Any] = list(originals)
            part_players[split] = (combos[piece], weights[piece])
            tasks.append((k, run_part, (part_players, split, board_text, dead_text)))
        answers = dict(runner.run(tasks))
    counts: NDArray[np.float64] | None = None
    samples = 0
    for k in range(len(pieces)):  # a fixed order: the same sum on every backend
        part_counts, part_samples = answers[k]
        if part_counts is not None:
            counts = part_counts.copy() if counts is None else counts + part_counts
            samples += part_samples
    assert counts is not None  # prepare() found a possible deal
    return _result(problem, counts, samples, False, started)


def _result(
    problem: Problem, counts: NDArray[np.float64], samples: int, sampled: bool, started: float
) -> EquityResult:
    """The merged counts as the engine's result (the statistics by the engine's functions)."""
    game = problem.game
    stats = player_stats(counts, sampled, game.split)
    scoops = [st.win if game.split else None for st in stats]
    rows = zip(problem.inputs, stats, problem.range_sizes, scoops, strict=True)
    return EquityResult(
        players=tuple(
            PlayerEquity(
                text, st.equity, st.win, st.tie, st.tie_equity, st.stderr, size, st.hi, st.lo, scoop
            )
            for text, st, size, scoop in rows
        ),
        method="monte-carlo" if sampled else "exact",
        samples=samples,
        seconds=time.perf_counter() - started,
        game=game.name,
        board=problem.board_text,
        dead=problem.dead_text,
        stopped="trials" if sampled else "complete",
        counts=counts,
    )


def _sampled(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card],
    dead: str | Sequence[int | str | Card],
    game: str,
    trials: int | None,
    seed: int | None,
    parts: int | None,
    backend_args: dict[str, Any],
    started: float,
) -> EquityResult:
    problem = prepare(players, board, dead, game)
    if trials is None or trials < 1:
        raise GameError("a split Monte Carlo run needs a number of deals (trials)",
                        field="trials")  # fmt: skip
    count = parts if parts is not None else min(256, -(-trials // MC_PART_TRIALS))
    count = max(1, min(count, trials))
    seeds = [int(s.generate_state(1, np.uint64)[0] >> np.uint64(1))
             for s in np.random.SeedSequence(seed).spawn(count)]  # fmt: skip
    sizes = [trials // count + (k < trials % count) for k in range(count)]
    inputs = [p.to_string() if isinstance(p, Range) else p for p in players]  # picklable
    board_text, dead_text = problem.board_text, problem.dead_text
    tasks = [(k, run_sampled_part, (inputs, board_text, dead_text, game, sizes[k], seeds[k]))
             for k in range(count)]  # fmt: skip
    with make_backend(**backend_args) as runner:
        answers = dict(runner.run(tasks))
    counts = answers[0][0].copy()
    for k in range(1, count):  # a fixed order: the same sum on every backend
        counts += answers[k][0]
    samples = sum(answers[k][1] for k in range(count))
    return _result(problem, counts, samples, True, started)
