"""The ``optimal`` draw bot's choices at its default settings, for every hand class, shipped.

The bot (:class:`pokerlab.analysis.bots.OptimalStrategy`) keeps, for each suit-isomorphic class
of five-card hands, the choice with the best Monte Carlo equity against one random hand standing
pat: ``trials`` deals on a random stream seeded by the class and the bot's ``seed``. That answer
is a fixed function of the class, the game, ``trials`` and ``seed``, and at the defaults (40,000
deals, seed 0) computing it takes about 12 ms of CPU per class, so a 10,000-hand match spent a
minute learning some 9,600 classes. This module computes every one of the 134,459 classes of
both games once, by the bot's own kernel (:func:`_draw_kernels.best_against_random`) and seeds,
and ships the keep masks; the bot reads them instead of computing when its settings are the
defaults the table was built with. The generator is committed and deterministic (each class on
its own stream: the same for any thread count); a test recomputes a sample of entries.

    python -m pokerlab.analysis._optimal_table     # regenerate _data/optimal_draw.npz (~23 min
                                                   # on 2 cores)
"""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import Iterable, Sequence
from functools import cache
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

__all__ = ["DATA_FILE", "GAMES", "class_keys", "hand_classes", "load", "lookup", "write"]

DATA_FILE = Path(__file__).with_name("_data") / "optimal_draw.npz"
GAMES = ("high", "2-7")
_CHUNK = 2048


def class_keys(canons: Iterable[Sequence[int]]) -> NDArray[np.int64]:
    """:func:`~pokerlab.analysis.bots.class_number` of each canonical hand."""
    from pokerlab.analysis.bots import class_number

    return np.array([class_number(c) for c in canons], dtype=np.int64)


def hand_classes() -> NDArray[np.uint8]:
    """Every suit-isomorphism class of five-card hands as its canonical hand
    (:func:`~pokerlab.analysis.bots.canonical_hand` of all 2,598,960 hands: about a minute), in
    key order: 134,459 rows."""
    from pokerlab.analysis.bots import canonical_hand, class_number

    hands = itertools.combinations(range(52), 5)
    return np.array(sorted({canonical_hand(h)[0] for h in hands}, key=class_number), np.uint8)


def build(game: str, classes: NDArray[np.uint8], trials: int, seed: int) -> NDArray[np.uint8]:
    """The bot's keep mask of each class of ``classes`` in ``game``, computed."""
    from pokerlab.analysis.bots import OptimalStrategy

    bot = OptimalStrategy(trials=trials, seed=seed)
    keeps = np.empty(len(classes), dtype=np.uint8)
    started = time.perf_counter()
    for start in range(0, len(classes), _CHUNK):
        rows = [tuple(r) for r in classes[start : start + _CHUNK].tolist()]
        keeps[start : start + len(rows)] = bot.computed_keeps(game, rows)
        done = start + len(rows)
        elapsed = time.perf_counter() - started
        print(f"\r{game}: {done:,} / {len(classes):,} classes, {elapsed:.0f} s", end="",
              file=sys.stderr, flush=True)  # fmt: skip
    print(file=sys.stderr)
    return keeps


def write(path: Path = DATA_FILE) -> None:
    from pokerlab.analysis.bots import OptimalStrategy

    trials, seed = OptimalStrategy.DEFAULT_TRIALS, OptimalStrategy.DEFAULT_SEED
    classes = hand_classes()
    keeps = {game: build(game, classes, trials, seed) for game in GAMES}
    path.parent.mkdir(parents=True, exist_ok=True)
    arrays: dict[str, NDArray[np.integer]] = {f"keep_{game}": keeps[game] for game in GAMES}
    arrays["keys"] = class_keys(classes.tolist())
    arrays["settings"] = np.array([trials, seed], dtype=np.int64)
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]


@cache
def load() -> tuple[NDArray[np.int64], dict[str, NDArray[np.uint8]], int, int]:
    """The shipped table: sorted class keys, the keep masks per game, and the ``trials`` and
    ``seed`` they were computed with."""
    with np.load(DATA_FILE) as data:
        keeps = {game: data[f"keep_{game}"] for game in GAMES}
        trials, seed = data["settings"].tolist()
        return data["keys"], keeps, trials, seed


def lookup(game: str, canons: list[tuple[int, ...]], trials: int, seed: int) -> list[int] | None:
    """The shipped keep masks of canonical hands ``canons`` in ``game``, or ``None`` when the
    table was built with other settings (or is missing)."""
    if not DATA_FILE.exists():
        return None
    keys, keeps, table_trials, table_seed = load()
    if (trials, seed) != (table_trials, table_seed):
        return None
    wanted = class_keys(canons)
    at = np.searchsorted(keys, wanted)
    if not np.array_equal(keys[np.minimum(at, len(keys) - 1)], wanted):
        raise RuntimeError("a hand class is missing from the shipped table of optimal draws")
    found: list[int] = keeps[game][at].tolist()
    return found


if __name__ == "__main__":
    started = time.perf_counter()
    write()
    print(f"{len(load()[0]):,} hand classes in {time.perf_counter() - started:.0f} s")
