"""Equity of a hand or range on every flop of a flop game (hold'em, short deck, Omaha and its
hi/lo and 5- and 6-card forms): :func:`flop_report`.

Folding: a permutation of the four suits that maps every player's range (combos and weights)
and the dead cards onto themselves maps each flop to one with the same equities. Those
permutations form a group ``G`` (all 24 for ranges like ``AKs`` or ``QQ``; 6 for ``AhKh``, which
fixes hearts; 2 for ``AhKh`` against ``QdQc``), the engine's own
(:func:`pokerlab.engine.exact.suit_symmetries`, with the identity); the flops fall into orbits
under ``G`` and one exact run per orbit answers all of them. With ``G`` all 24 permutations the
22,100 flops fold to the familiar 1,755 classes (the short deck's 7,140 to 573); with a smaller
``G`` to more. Flops that use a dead card, a card out of the game's deck or a card some player
holds in every holding are impossible and left out.

Weights: a flop's probability is proportional to the weight of the joint holdings it leaves
possible, which is the total weight of that flop's exact run (``counts[n, 0]``: joint holdings x
turn and river completions, the latter the same number on every flop). So the weighted mean of
the flop equities, with weight ``orbit size x total``, is the preflop equity (a test checks it).
"""

from __future__ import annotations

import csv
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._results import ArrayFields
from pokerlab.cards import format_cards
from pokerlab.engine.limits import estimate_text
from pokerlab.errors import EmptyRangeError, GameError, TooLargeError
from pokerlab.scale.backends import SECONDS_PER_RUN, backend_sizes, make_backend

__all__ = ["RAISE_MAX_SECONDS", "FlopReport", "flop_cells", "flop_report"]

RAISE_MAX_SECONDS = "raise max_seconds (--max-seconds) to run it"
"""A remedy of a flop report refused over its ``max_seconds`` (a server's requests have a
``time_limit`` instead)."""

FlopTask = tuple[list[str], str, str, list[str]]


def flop_cells(task: FlopTask) -> list[tuple[float, float, float, float]]:
    """``(equity, win, tie, total weight)`` of player 1 on each flop (one backend task:
    players, dead cards, game, flops); a flop that leaves some range empty has total 0."""
    from pokerlab.engine.api import equity

    players, dead, game, flops = task
    out = []
    for flop in flops:
        try:
            r = equity(players, board=flop, dead=dead, game=game, method="exact")
        except EmptyRangeError:
            out.append((0.0, 0.0, 0.0, 0.0))
            continue
        p = r.players[0]
        out.append((p.equity, p.win, p.tie, float(r.counts[-1, 0])))
    return out


@dataclass(frozen=True, eq=False)
class FlopReport(ArrayFields):
    """Player 1's equity per flop class, sorted by equity (highest first).

    ``flops``: a representative flop of each class; ``size``: the flops in its class;
    ``probability``: the chance of a flop of that class (sums to 1); ``equity``, ``win``,
    ``tie``: player 1's, exact on that flop. ``symmetries``: the order of the suit group;
    ``classes``: the flop classes, impossible ones (a range left empty) included.
    """

    players: tuple[str, ...]
    dead: str
    game: str
    flops: tuple[str, ...]
    size: NDArray[np.int64]
    probability: NDArray[np.float64]
    equity: NDArray[np.float64]
    win: NDArray[np.float64]
    tie: NDArray[np.float64]
    symmetries: int
    classes: int
    seconds: float = field(compare=False)  # a timing, not part of the answer

    @property
    def mean_equity(self) -> float:
        """The probability-weighted mean of the flop equities: the preflop equity."""
        return float(np.dot(self.probability, self.equity))

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab flops --json`` and the web API print exactly this): the
        fields, arrays as lists, and :attr:`mean_equity`."""
        return {
            "players": list(self.players),
            "dead": self.dead,
            "game": self.game,
            "flops": list(self.flops),
            "size": self.size.tolist(),
            "probability": self.probability.tolist(),
            "equity": self.equity.tolist(),
            "win": self.win.tolist(),
            "tie": self.tie.tolist(),
            "symmetries": self.symmetries,
            "classes": self.classes,
            "mean_equity": self.mean_equity,
            "seconds": self.seconds,
        }

    def csv_rows(self) -> Iterator[list[str | int]]:
        """A header and one row per flop class (``pokerlab flops`` writes them to a file or to
        standard output)."""
        yield ["flop", "flops", "probability", "equity", "win", "tie"]
        for k, flop in enumerate(self.flops):
            yield [flop, int(self.size[k]), repr(float(self.probability[k])),
                   repr(float(self.equity[k])), repr(float(self.win[k])),
                   repr(float(self.tie[k]))]  # fmt: skip

    def write_csv(self, path: Path) -> None:
        with path.open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(self.csv_rows())


def _flop_classes(
    symmetries: NDArray[np.uint8], blocked: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Representative flops (``(k, 3)`` codes, of the cards not ``blocked``) and their class
    sizes, under the identity and the card maps ``symmetries``."""
    free = [c for c in range(52) if not blocked >> c & 1]
    flops = np.array(list(combinations(free, 3)), dtype=np.int64).reshape(-1, 3)
    keys = np.full(len(flops), np.iinfo(np.int64).max)
    for cards in [np.arange(52, dtype=np.int64), *symmetries.astype(np.int64)]:
        image = np.sort(cards[flops], axis=1)
        keys = np.minimum(keys, (image[:, 0] * 52 + image[:, 1]) * 52 + image[:, 2])
    _, first, size = np.unique(keys, return_index=True, return_counts=True)
    return flops[first], size


def _work_seconds(players: list[str], dead: str, game: str, flops: list[str]) -> float:
    """Estimated seconds of one core for the exact runs of ``flops``: the engine's estimate
    (:func:`~pokerlab.engine.exact.runout_seconds`) of the first possible one, per flop."""
    from pokerlab.engine.exact import runout_seconds
    from pokerlab.engine.problem import prepare

    for flop in flops[:32]:
        try:
            problem = prepare(players, flop, dead, game).with_unit_weights()
        except EmptyRangeError:
            continue
        return len(flops) * (runout_seconds(problem) + SECONDS_PER_RUN)
    return len(flops) * SECONDS_PER_RUN


def flop_report(
    players: list[str],
    dead: str = "",
    *,
    game: str = "holdem",
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    chunk_size: int = 64,
    progress: Any = None,
    max_seconds: float | None = None,
) -> FlopReport:
    """Player 1's exact equity on every flop of ``game``, folded as in the module notes,
    computed on a backend (as :func:`pokerlab.batch`). ``progress(done, total)`` as chunks
    finish. A report estimated at more than ``max_seconds`` of one core (default
    :data:`~pokerlab.engine.api.MAX_EXACT_SECONDS`, on any backend) is refused at once
    (:class:`~pokerlab.errors.TooLargeError`), as an exact :func:`pokerlab.equity` run is."""
    started = time.perf_counter()
    if len(players) < 2:
        raise GameError("give a hand or range and at least one opponent", field="players")
    from pokerlab.engine.api import MAX_EXACT_SECONDS
    from pokerlab.engine.exact import suit_symmetries
    from pokerlab.engine.limits import check_seconds
    from pokerlab.engine.problem import prepare

    workers, local_cluster, _ = backend_sizes(workers, local_cluster, chunk_size)
    if max_seconds is None:
        max_seconds = MAX_EXACT_SECONDS
    else:
        check_seconds(max_seconds, "max_seconds")

    problem = prepare(players, "", dead, game)  # the engine's checks and messages, first
    spec = problem.game
    if 3 not in spec.board_sizes:
        raise GameError(f"{spec.title} has no flop: flop reports are for hold'em, short deck "
                        "and the Omaha games", field="game")  # fmt: skip
    symmetries = suit_symmetries(problem)
    flops, size = _flop_classes(symmetries, problem.known_mask | problem.held_mask)
    texts = [format_cards(sorted(f.tolist(), reverse=True)) for f in flops]
    work = _work_seconds(list(players), dead, spec.name, texts)
    if work > max_seconds:
        raise TooLargeError(
            f"this flop report is too large: about {estimate_text(work)} of one core for "
            f"{len(texts):,} flop classes, over the limit of {max_seconds:g} s",
            field="max_seconds",
            remedies=("narrow the ranges", RAISE_MAX_SECONDS),
        )
    chunks = [texts[k : k + chunk_size] for k in range(0, len(texts), chunk_size)]
    values = np.zeros((len(texts), 4))
    done = 0
    with make_backend(backend, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
                      client=client, work_seconds=work) as runner:  # fmt: skip
        tasks = ((k, flop_cells, (list(players), dead, spec.name, chunk))
                 for k, chunk in enumerate(chunks))  # fmt: skip
        for k, answers in runner.run(tasks):
            values[k * chunk_size : k * chunk_size + len(answers)] = answers
            done += len(answers)
            if progress is not None:
                progress(done, len(texts))
    weight = size * values[:, 3]
    keep = weight > 0
    order = np.argsort(-values[keep, 0], kind="stable")
    pick = np.flatnonzero(keep)[order]
    return FlopReport(
        players=tuple(players),
        dead=problem.dead_text,
        game=spec.name,
        flops=tuple(texts[i] for i in pick),
        size=size[pick],
        probability=weight[pick] / weight.sum(),
        equity=values[pick, 0],
        win=values[pick, 1],
        tie=values[pick, 2],
        symmetries=1 + len(symmetries),
        classes=len(texts),
        seconds=time.perf_counter() - started,
    )
