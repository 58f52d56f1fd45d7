"""One big exact hold'em job split into independent parts: :func:`distributed_equity`.

The exact answer is a sum over joint holdings (one combo per player, no card twice) of the
product of the combos' weights times each board completion's showdown. Partition the holdings of
one player (the one with the most) into disjoint parts: each joint holding falls in exactly one
part, so the raw counts of :attr:`EquityResult.counts` (un-normalised weighted sums: wins, ties
by size, total) of the parts add up to the counts of the whole, and so do the deals enumerated.
The part results are added in part order and the statistics derived from the sum by the engine's
own :func:`~pokerlab.engine.result.player_stats`.

Exactness: with whole-number weights (every range without ``:w`` weights) every count is an
integer below 2^53, so the sum is the same bits as the one-machine run whatever the order; with
fractional weights the parts' sums are rounded in another order and the result may differ from
the one-machine run in the last bits of a float (about 1e-16 relative).
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
from pokerlab.engine.problem import PlayerInput, prepare
from pokerlab.engine.result import EquityResult, PlayerEquity, player_stats
from pokerlab.errors import EmptyRangeError, GameError
from pokerlab.ranges import Range
from pokerlab.scale.backends import make_backend

__all__ = ["distributed_equity", "run_part"]

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


def _parts(size: int, count: int) -> list[slice]:
    count = max(1, min(count, size))
    edges = np.linspace(0, size, count + 1).round().astype(int)
    return [slice(int(a), int(b)) for a, b in pairwise(edges)]


def distributed_equity(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str = "holdem",
    *,
    parts: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
) -> EquityResult:
    """The exact hold'em equity of :func:`pokerlab.equity`, computed in ``parts`` independent
    parts (default: 4 per worker) on a backend (as :func:`pokerlab.batch`: local processes or
    Dask) and merged exactly (see the module notes).

    >>> r = distributed_equity(["AhAs", "KK,QQ", "JTs"], board="Td9c2h", workers=1, parts=3)
    >>> one = equity(["AhAs", "KK,QQ", "JTs"], board="Td9c2h", method="exact")
    >>> r.players == one.players, r.samples == one.samples, bool((r.counts == one.counts).all())
    (True, True, True)
    """
    started = time.perf_counter()
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
    with make_backend(backend, workers=workers, scheduler=scheduler,
                      local_cluster=local_cluster, client=client) as runner:  # fmt: skip
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
    stats = player_stats(counts, sampled=False)
    return EquityResult(
        players=tuple(
            PlayerEquity(text, s.equity, s.win, s.tie, s.tie_equity, s.stderr, size)
            for text, s, size in zip(problem.inputs, stats, problem.range_sizes, strict=True)
        ),
        method="exact",
        samples=samples,
        seconds=time.perf_counter() - started,
        game="holdem",
        board=board_text,
        dead=dead_text,
        stopped="complete",
        counts=counts,
    )
