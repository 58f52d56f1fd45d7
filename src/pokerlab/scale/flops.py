"""Equity of a hold'em hand or range on every flop: :func:`flop_report`.

Folding: a permutation of the four suits that maps every player's range (combos and weights)
and the dead cards onto themselves maps each flop to one with the same equities. Those
permutations form a group ``G`` (all 24 for ranges like ``AKs`` or ``QQ``; 6 for ``AhKh``, which
fixes hearts; 2 for ``AhKh`` against ``QdQc``); the flops fall into orbits under ``G`` and one
exact run per orbit answers all of them. With ``G`` all 24 permutations the 22,100 flops fold to
the familiar 1,755 classes; with a smaller ``G`` to more. Flops that use a dead card or a card of a
player's only hand are impossible and left out.

Weights: a flop's probability is proportional to the weight of the joint holdings it leaves
possible, which is the total weight of that flop's exact run (``counts[n, 0]``: joint holdings x
turn and river completions, the latter the same number on every flop). So the weighted mean of
the flop equities, with weight ``orbit size x total``, is the preflop equity (a test checks it).
"""

from __future__ import annotations

import csv
import time
from dataclasses import dataclass, field
from itertools import combinations, permutations
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._results import ArrayFields
from pokerlab.cards import cards_to_mask, format_cards, parse_cards
from pokerlab.errors import GameError
from pokerlab.ranges import Range
from pokerlab.ranges._combos import COMBO_INDEX
from pokerlab.scale.backends import make_backend

__all__ = ["FlopReport", "flop_cells", "flop_report", "suit_symmetries"]


def _mapped_cards(perm: tuple[int, ...]) -> NDArray[np.int64]:
    codes = np.arange(52, dtype=np.int64)
    mapped: NDArray[np.int64] = 4 * (codes // 4) + np.asarray(perm, dtype=np.int64)[codes % 4]
    return mapped


def suit_symmetries(ranges: list[Range], dead: int) -> list[NDArray[np.int64]]:
    """The card maps of the suit permutations that fix every range and the dead-card mask."""
    keep = []
    for perm in permutations(range(4)):
        cards = _mapped_cards(perm)
        if cards_to_mask(int(cards[c]) for c in range(52) if dead >> c & 1) != dead:
            continue
        fixed = True
        for r in ranges:
            dense = r.to_dense()
            images = COMBO_INDEX[cards[r.combos[:, 0]], cards[r.combos[:, 1]]]
            if not np.array_equal(dense[images], r.weights):
                fixed = False
                break
        if fixed:
            keep.append(cards)
    return keep


def flop_cells(task: tuple[list[str], str, list[str]]) -> list[tuple[float, float, float, float]]:
    """``(equity, win, tie, total weight)`` of player 1 on each flop (one backend task); a flop
    that leaves some range empty has total 0."""
    from pokerlab.engine.api import equity
    from pokerlab.errors import EmptyRangeError

    players, dead, flops = task
    out = []
    for flop in flops:
        try:
            r = equity(players, board=flop, dead=dead, method="exact")
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

    def write_csv(self, path: Path) -> None:
        with path.open("w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(["flop", "flops", "probability", "equity", "win", "tie"])
            for k, flop in enumerate(self.flops):
                out.writerow([flop, int(self.size[k]), repr(float(self.probability[k])),
                              repr(float(self.equity[k])), repr(float(self.win[k])),
                              repr(float(self.tie[k]))])  # fmt: skip


def _flop_classes(
    symmetries: list[NDArray[np.int64]], blocked: int
) -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Representative flops (``(k, 3)`` codes) and their class sizes."""
    flops = np.array(list(combinations(range(52), 3)), dtype=np.int64)
    masks = (np.int64(1) << flops).sum(axis=1)
    flops = flops[(masks & blocked) == 0] if blocked else flops
    keys = np.full(len(flops), np.iinfo(np.int64).max)
    for cards in symmetries:
        image = np.sort(cards[flops], axis=1)
        keys = np.minimum(keys, (image[:, 0] * 52 + image[:, 1]) * 52 + image[:, 2])
    _, first, size = np.unique(keys, return_index=True, return_counts=True)
    return flops[first], size


def flop_report(
    players: list[str],
    dead: str = "",
    *,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    chunk_size: int = 64,
    progress: Any = None,
) -> FlopReport:
    """Player 1's exact equity on every flop, folded as in the module notes, computed on a
    backend (as :func:`pokerlab.batch`). ``progress(done, total)`` as chunks finish."""
    started = time.perf_counter()
    if len(players) < 2:
        raise GameError("give a hand or range and at least one opponent", field="players")
    from pokerlab.engine.problem import prepare

    prepare(players, "", dead)  # the engine's own checks and messages, before any work
    ranges = [Range(p) for p in players]
    dead_mask = cards_to_mask(parse_cards(dead))
    blocked = dead_mask
    for r in ranges:
        if len(r) == 1:
            blocked |= cards_to_mask(int(c) for c in r.combos[0])
    symmetries = suit_symmetries(ranges, dead_mask)
    flops, size = _flop_classes(symmetries, blocked)
    texts = [format_cards(sorted(f.tolist(), reverse=True)) for f in flops]
    chunks = [texts[k : k + chunk_size] for k in range(0, len(texts), chunk_size)]
    values = np.zeros((len(texts), 4))
    done = 0
    with make_backend(backend, workers=workers, scheduler=scheduler,
                      local_cluster=local_cluster, client=client) as runner:  # fmt: skip
        tasks = ((k, flop_cells, (list(players), dead, chunk)) for k, chunk in enumerate(chunks))
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
        dead=format_cards(parse_cards(dead)),
        flops=tuple(texts[i] for i in pick),
        size=size[pick],
        probability=weight[pick] / weight.sum(),
        equity=values[pick, 0],
        win=values[pick, 1],
        tie=values[pick, 2],
        symmetries=len(symmetries),
        classes=len(texts),
        seconds=time.perf_counter() - started,
    )
