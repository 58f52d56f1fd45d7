"""Compile every numba kernel ahead of use (``pokerlab warm``).

Kernels are compiled on first use and cached on disk (``cache=True``), so the first run of each
game or command after an install pays for its compilation once. :func:`warm` runs one tiny
computation down every path the commands take, so that every kernel is compiled (or loaded from
the cache) before a user waits for an answer.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable

import numpy as np

from pokerlab._signals import sigint_deferred
from pokerlab._threads import resolve_threads
from pokerlab.engine.methods import Method

__all__ = ["warm", "warm_tasks"]

Task = tuple[str, Callable[[], object]]

_QUERY_RUNS: tuple[tuple[str, Method, int | None, int | None], ...] = (
    ("Qh7c2d", "mc", 300, 1),
    ("Qh7c2d3s", "exact", None, None),
)
"""The hold'em queries that warm compiles: (board, method, trials, seed)."""


def warm_tasks() -> list[Task]:
    """``(label, run)`` pairs, one per distinct kernel path of the public API and the CLI."""
    from pokerlab import equity, equity_distribution, evaluate, evaluate_batch, hits, outs, query
    from pokerlab.analysis.bots import OptimalStrategy, round_robin
    from pokerlab.analysis.draw import advise
    from pokerlab.evaluation._kernels import ROW_CHUNK
    from pokerlab.evaluation.deuce7 import deuce7_batch
    from pokerlab.evaluation.low import a5_batch, eight_batch
    from pokerlab.evaluation.omaha import omaha_batch, omaha_low_batch
    from pokerlab.ranges import Range
    from pokerlab.ranges.pattern import PatternRange

    five = np.arange(5, dtype=np.uint8)[None, :]
    seven = np.arange(7, dtype=np.uint8)[None, :]

    def mc(players: list[str], game: str, board: str = "") -> Callable[[], object]:
        return lambda: equity(players, board=board, game=game, method="mc", trials=200, seed=1)

    def exact(players: list[str], game: str, board: str = "") -> Callable[[], object]:
        return lambda: equity(players, board=board, game=game, method="exact")

    return [
        (
            "hand evaluation",
            lambda: (
                evaluate("AsKsQsJsTs"),
                evaluate_batch(five),
                evaluate_batch(seven),
                # a batch long enough for the parallel kernel (two threads on any machine)
                evaluate_batch(np.repeat(seven, ROW_CHUNK + 1, axis=0), threads=2),
            ),
        ),
        (
            "low and Omaha evaluation",
            lambda: (
                a5_batch(five),
                eight_batch(seven),
                deuce7_batch(five),
                omaha_batch(five[:, :4], five + 8),
                omaha_low_batch(five[:, :4], five + 8),
            ),
        ),
        (
            "ranges",
            lambda: (
                len(Range("15%")),
                len(PatternRange("AA**$ds", 4)),
                # a wide range's mark-array kernels (ranges/_mask_kernels.py): completions,
                # a difference (listed), the last-item-wins merge, the codes; then every
                # holding of a macro (listed in order)
                PatternRange("AK****,AA****!AAA***@50", 6).holdings,
                PatternRange("$r", 4).holdings,
            ),
        ),
        ("hold'em exact, heads-up preflop", exact(["AhAs", "KdKc"], "holdem")),
        ("hold'em exact, multiway preflop", exact(["AhAs", "KdKc", "QsQh"], "holdem")),
        ("hold'em exact, postflop", exact(["AhAs", "KdKc"], "holdem", "Qh7c2d")),
        ("hold'em exact, ranges on a flop", exact(["QQ+,AK", "JJ-99,AQs"], "holdem", "Qh7c2d")),
        ("hold'em Monte Carlo", mc(["AhAs", "KdKc", "random"], "holdem")),
        ("hold'em outs", lambda: outs(["9h8h", "AsKd"], board="Th7c2h")),
        ("Omaha exact", exact(["AsAhKsKh", "JdTd9c8c"], "omaha", "Qs7d2c")),
        ("Omaha hi/lo exact", exact(["As2sKd3d", "JdTd9c8c"], "omaha-hilo", "Qs7d2c")),
        ("Omaha Monte Carlo", mc(["AsAhKsKh", "random"], "omaha")),
        ("Omaha hi/lo Monte Carlo", mc(["As2sKd3d", "random"], "omaha-hilo")),
        ("Omaha outs", lambda: outs(["AsAhKsKh", "JdTd9c8c"], board="Qs7d2c5h", game="omaha")),
        ("stud exact", exact(["AsAhKs2c3d4h", "QdQcJhJs9c8c"], "stud")),
        ("stud exact, third street (a matchup in two halves)", exact(["AsKsQs", "2h3h4h"], "stud")),
        ("stud exact, multiway", exact(["AsAhKs2c3d4h5s", "QdQcJhJs9c8c", "9s9d8d7h6h5c"], "stud")),
        ("stud exact, complete hands", exact(["AsAhKs2c3d4h5s", "QdQcJhJs9c8c7d"], "stud")),
        ("stud hi/lo exact", exact(["As2h3s4c5d6h", "QdQcJhJs9c8c"], "stud-hilo")),
        (
            "stud hi/lo exact, multiway",
            exact(["As2h3s4c5d6h7s", "QdQcJhJs9c8c", "9s9dTd7c6cTh"], "stud-hilo"),
        ),
        ("razz exact", exact(["As2h3s4c5d6h", "QdQcJhJs9c8c"], "razz")),
        ("razz exact, suitless (rank classes)", exact(["A 2 7 9 K Q", "3 4 8 J T 5"], "razz")),
        ("stud Monte Carlo", mc(["AsAhKs", "QdQcJh", "9s9c8d"], "stud")),
        ("stud hi/lo Monte Carlo", mc(["As2h3s", "QdQcJh", "9s9c8d"], "stud-hilo")),
        ("razz Monte Carlo", mc(["As2h3s", "QdQcJh", "9s9c8d"], "razz")),
        ("draw advice", lambda: advise("Jh Jd 7c 4s 2h")),
        (
            "draw advice vs opponents",
            lambda: (
                advise("Jh Jd 7c 4s 2h", vs=["AhAd7s4c2d"]),
                advise("Jh Jd 7c 4s 2h", vs=["random"], method="mc", trials=500, seed=1),
                advise("Jh Jd 7c 4s 2h", vs=["JJ***:rules"], method="mc", trials=500, seed=1),
            ),
        ),
        (  # the optimal bot computing (its table answers only its default settings)
            "draw bots",
            lambda: round_robin(
                [OptimalStrategy(trials=500, use_table=False), "rules", "random"], 20, seed=1
            ),
        ),
        (
            "range analytics",
            lambda: (
                hits("QQ+,AKs", "Qh7c2d"),
                hits("AA**", "Qh7c2d", game="omaha"),
                hits("random", "Qh7c2d", game="omaha", threads=2),  # its parallel kernel
                equity_distribution("QQ+,AKs", "JJ", "Qh7c2d3s"),
                equity_distribution("QQ", "JJ", "Qh7c2d", method="monte-carlo", trials=200, seed=1),
            ),
        ),
        (
            "queries",
            lambda: [
                query(
                    "select avg(riverEquity(h)), histogram(handType(h, flop)) "
                    f"from h='AhAs', v='KdKc', board='{board}'",
                    method=method,
                    trials=trials,
                    seed=seed,
                )
                for board, method, trials, seed in _QUERY_RUNS
            ],
        ),
        (
            "stud queries",
            lambda: [
                query(
                    f"select avg(riverEquity(h)), histogram(handType(h, seventh)) "
                    f"from game='{game}', h='As2d|3c', v='QhQs|Jd', trials=300, seed=1"
                )
                for game in ("stud", "stud-hilo", "razz")
            ],
        ),
    ]


def _run_task(index: int) -> int:
    """Run task ``index`` of :func:`warm_tasks` (in a worker process); returns the index."""
    warm_tasks()[index][1]()
    return index


def warm(
    progress: Callable[[int, int, str], object] | None = None, processes: int | None = None
) -> int:
    """Run every task of :func:`warm_tasks`; ``progress(done, total, label)`` is called as tasks
    finish and once at the end. Returns the number of tasks.

    Compiling holds the interpreter, so the tasks run in ``processes`` worker processes (default:
    every core, :func:`~pokerlab._threads.available_cores`), which share numba's on-disk cache.
    Two processes that save overloads of one kernel at once would race on its cache index (an
    entry dropped, or a signature mapped to the other's code); :mod:`pokerlab._jit` locks the
    index around each save and load. A last pass in this process runs every task again: it loads
    what is cached and compiles anything a worker could not save (a full disk, say).
    """
    workers = resolve_threads(processes, "processes")
    tasks = warm_tasks()
    total = len(tasks)
    workers = min(workers, total)
    if workers > 1:
        context = multiprocessing.get_context("spawn")  # a fork would copy numba's threads
        if progress is not None:
            progress(0, total, f"{workers} processes")
        # leaving the block, by an error or Ctrl-C too, terminates the workers at once
        with sigint_deferred():  # the workers never hear Ctrl-C (one printed its traceback)
            pool = context.Pool(workers)
        with pool:
            finished = pool.imap_unordered(_run_task, range(total))
            for done, index in enumerate(finished, 1):
                if progress is not None:
                    progress(done, total, tasks[index][0])
        if progress is not None:
            progress(total, total, "checking the cache")
    for i, (label, run) in enumerate(tasks):
        if progress is not None and workers == 1:
            progress(i, total, label)
        run()
    if progress is not None:
        progress(total, total, "done")
    return total
