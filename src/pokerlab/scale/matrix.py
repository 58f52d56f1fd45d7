"""The exact 169x169 heads-up preflop class matrix: :func:`preflop_matrix` (hold'em; the short
deck's 81x81, its classes of sixes to aces).

Cell ``(i, j)`` is class ``i`` (``pokerlab.ranges.CLASS_NAMES``, grid order: ``AA``, ``AKs`` ...
``22``) against class ``j``: equity, win and tie of ``i``, from :func:`pokerlab.equity` on the two
class ranges (exact; in hold'em the engine answers each from its shipped table of heads-up
preflop matchups, in short deck it enumerates). Only the 169*170/2 = 14,365 cells with
``i <= j`` are computed (3,321 of 81 short-deck classes); the others follow heads-up:
``equity[j, i] = 1 - equity[i, j]``, ``win[j, i] = 1 - win[i, j] - tie[i, j]``,
``tie[j, i] = tie[i, j]`` (exact in arithmetic; the floats may differ from a direct run in the
last bit).
"""

from __future__ import annotations

import csv
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._results import ArrayFields
from pokerlab.cards import RANKS
from pokerlab.errors import GameError, RangeError, blame, list_argument, shorten
from pokerlab.games import get_game
from pokerlab.ranges import CLASS_NAMES
from pokerlab.scale.backends import SECONDS_PER_RUN, backend_sizes, make_backend

__all__ = ["PreflopMatrix", "game_classes", "matrix_cells", "preflop_matrix"]

Cell = tuple[int, int]


MatrixTask = tuple[list[str], str, list[Cell]]


def matrix_cells(task: MatrixTask) -> list[tuple[int, int, float, float, float]]:
    """``(i, j, equity, win, tie)`` of class ``names[i]`` against ``names[j]`` (one task: the
    class names, the game, the cells)."""
    from pokerlab.engine.api import equity

    names, game, cells = task
    out = []
    for i, j in cells:
        p = equity([names[i], names[j]], game=game, method="exact").players[0]
        out.append((i, j, p.equity, p.win, p.tie))
    return out


@dataclass(frozen=True, eq=False)
class PreflopMatrix(ArrayFields):
    """Equity, win and tie of each class (row) against each class (column), 169x169 each (81x81
    in short deck, or the classes asked for) in ``game``;
    ``jobs``: the exact runs it took; ``seconds``: wall time."""

    names: tuple[str, ...]
    game: str
    equity: NDArray[np.float64]
    win: NDArray[np.float64]
    tie: NDArray[np.float64]
    jobs: int
    seconds: float = field(compare=False)  # a timing, not part of the answer

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab matrix --json`` and the web API print exactly this): the
        fields, each matrix as a list of rows (row: the class, column: its opponent)."""
        return {
            "names": list(self.names),
            "game": self.game,
            "equity": self.equity.tolist(),
            "win": self.win.tolist(),
            "tie": self.tie.tolist(),
            "jobs": self.jobs,
            "seconds": self.seconds,
        }

    def csv_rows(self) -> Iterator[list[str]]:
        """A header and one row per ordered pair: ``hand, villain, equity, win, tie``
        (``pokerlab matrix`` writes them to a file or to standard output)."""
        yield ["hand", "villain", "equity", "win", "tie"]
        for i, a in enumerate(self.names):
            for j, b in enumerate(self.names):
                values = (self.equity[i, j], self.win[i, j], self.tie[i, j])
                yield [a, b, *(repr(float(v)) for v in values)]

    def write_csv(self, path: Path) -> None:
        """:meth:`csv_rows` as a CSV file."""
        with path.open("w", newline="", encoding="utf-8") as f:
            csv.writer(f).writerows(self.csv_rows())


def _work_seconds(names: list[str], game: str, cells: int) -> float:
    """Estimated seconds of one core for ``cells`` exact runs: the engine's estimate of the
    first class against the last (hold'em answers from its shipped table, short deck
    enumerates), per cell."""
    from pokerlab.engine.problem import prepare
    from pokerlab.engine.strategies import exact_strategy

    problem = prepare([names[0], names[-1]], "", "", game).with_unit_weights()
    strategy = exact_strategy(problem)
    run = strategy.estimate(problem) if strategy is not None else 0.0
    return cells * (run + SECONDS_PER_RUN)


def _class_name(name: object) -> str:
    """A class as :data:`CLASS_NAMES` writes it, whatever its case (ranges read ``aks``):
    ``aks`` is ``AKs``, ``qq`` is ``QQ``.

    >>> _class_name("aks"), _class_name(" qq "), _class_name("T9O")
    ('AKs', 'QQ', 'T9o')
    """
    if not isinstance(name, str):
        return repr(name)
    text = name.strip()
    return text[:2].upper() + text[2:].lower()


def game_classes(game: str = "holdem") -> tuple[str, ...]:
    """The two-card classes of ``game``'s deck, in grid order: all 169 in hold'em, the 81 of
    sixes to aces in short deck.

    >>> len(game_classes("shortdeck")), game_classes("shortdeck")[-1]
    (81, '66')
    """
    with blame("game"):
        spec = get_game(game)
    if spec.range_syntax != "holdem":
        raise GameError(f"{spec.title} has no two-card classes: the preflop matrix is for hold'em "
                        "and short deck", field="game")  # fmt: skip
    return tuple(name for name in CLASS_NAMES if RANKS.index(name[1]) >= spec.lowest_rank)


def preflop_matrix(
    names: list[str] | None = None,
    *,
    game: str = "holdem",
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    chunk_size: int = 128,
    progress: Any = None,
) -> PreflopMatrix:
    """The matrix of the module notes, its cells computed on a backend (as :func:`batch`);
    ``names``: a sub-matrix of these classes (default all of ``game``'s, :func:`game_classes`).
    ``progress(done, total)`` is called as chunks finish."""
    started = time.perf_counter()
    workers, local_cluster, _ = backend_sizes(workers, local_cluster, chunk_size)
    with blame("game"):
        spec = get_game(game)
    in_deck = game_classes(spec.name)
    if names is None:
        given: list[Any] = list(in_deck)
    else:
        given = list_argument(names, "names", "hand classes such as AA, AKs, AKo")
        if not given:
            raise RangeError("give at least one hand class (names is empty)", field="names")
    names = [_class_name(name) for name in given]
    for k, (typed, name) in enumerate(zip(given, names, strict=True)):
        if name not in CLASS_NAMES:
            raise RangeError(f"unknown hand class {shorten(repr(typed))}: use AA, AKs, AKo ... 22",
                             field=f"names.{k}")  # fmt: skip
        if name not in in_deck:
            raise RangeError(f"the hand class '{name}' is not in {spec.deck_text}",
                             field=f"names.{k}")  # fmt: skip
        if name in names[:k]:
            raise RangeError(f"the hand class '{name}' is listed twice", field=f"names.{k}")
    n = len(names)
    cells = [(i, j) for i in range(n) for j in range(i, n)]
    chunks = [cells[k : k + chunk_size] for k in range(0, len(cells), chunk_size)]
    equity = np.zeros((n, n))
    win = np.zeros((n, n))
    tie = np.zeros((n, n))
    done = 0
    work = _work_seconds(names, spec.name, len(cells))
    with make_backend(backend, workers=workers, scheduler=scheduler, local_cluster=local_cluster,
                      client=client, work_seconds=work) as runner:  # fmt: skip
        tasks = ((None, matrix_cells, (names, spec.name, chunk)) for chunk in chunks)
        for _, answers in runner.run(tasks):
            for i, j, e, w, t in answers:
                equity[i, j], win[i, j], tie[i, j] = e, w, t
                if i != j:
                    equity[j, i], win[j, i], tie[j, i] = 1.0 - e, 1.0 - w - t, t
            done += len(answers)
            if progress is not None:
                progress(done, len(cells))
    return PreflopMatrix(tuple(names), spec.name, equity, win, tie, len(cells),
                         time.perf_counter() - started)  # fmt: skip
