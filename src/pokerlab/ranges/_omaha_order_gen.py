"""Orderings of Omaha starting hands (4 and 5 cards) for "top x%" pattern ranges.

``python -m pokerlab.ranges._omaha_order_gen 4`` (or ``5``) writes
``_data/omaha4_order.npz`` (``omaha5_order.npz``); ``--check`` compares instead of writing.

Definition: the hands are grouped into suit-isomorphism classes (a hand and its images under the
24 relabellings of the suits, all equally strong); each class is ranked by its all-in Omaha high
equity against **one random hand** with a random five-card board, estimated by a seeded Monte Carlo
of ``deals`` deals per class (class ``k`` uses its own SplitMix64 stream seeded ``seed + k``, so
any entry can be recomputed alone). Ties in the estimate keep the classes in order of their
smallest card codes. The standard error of an entry is about ``0.5 / sqrt(deals)`` (a few tenths
of a percent): neighbours closer than that are in an order the noise decides, which moves a "top
x%" cut by a class or two at most.

The file holds, best first, each class's representative (its smallest sorted card codes), its
number of hands, the estimated equity and its index among the classes in key order (so its
stream, seed ``seed + index``, can be replayed).
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._jit import njit
from pokerlab.evaluation._game_kernels import omaha_high

__all__ = ["DEALS", "SEED", "canonical_classes", "class_equities", "data_file", "run"]

SEED = 20250101
DEALS = {4: 10_000, 5: 1_000}
_PERMS = np.array(list(itertools.permutations(range(4))), dtype=np.uint8)


def data_file(n_hole: int) -> Path:
    return Path(__file__).with_name("_data") / f"omaha{n_hole}_order.npz"


def canonical_keys(hands: NDArray[np.uint8]) -> NDArray[np.int64]:
    """For each row of card codes, the smallest sorted image under the 24 suit relabellings,
    packed 6 bits a card (first card highest)."""
    best = np.full(len(hands), np.iinfo(np.int64).max, dtype=np.int64)
    ranks, suits = hands & ~np.uint8(3), hands & np.uint8(3)
    for perm in _PERMS:
        image = np.sort(ranks | perm[suits], axis=1).astype(np.int64)
        key = np.zeros(len(hands), dtype=np.int64)
        for col in range(hands.shape[1]):
            key = (key << 6) | image[:, col]
        np.minimum(best, key, out=best)
    return best


def unpack(keys: NDArray[np.int64], n_hole: int) -> NDArray[np.uint8]:
    out = np.empty((len(keys), n_hole), dtype=np.uint8)
    for col in range(n_hole):
        out[:, n_hole - 1 - col] = (keys >> (6 * col)) & 63
    return out


def canonical_classes(n_hole: int) -> tuple[NDArray[np.uint8], NDArray[np.int64]]:
    """Every class's representative (sorted codes, in key order) and its number of hands."""
    hands = np.array(list(itertools.combinations(range(52), n_hole)), dtype=np.uint8)
    keys, counts = np.unique(canonical_keys(hands), return_counts=True)
    return unpack(keys, n_hole), counts.astype(np.int64)


@njit(cache=True)
def _next(state):  # type: ignore[no-untyped-def]
    state[0] += np.uint64(0x9E3779B97F4A7C15)
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def class_equities(reps, deals, seed, card_key, card_mask, multiplier, displace, values, out):  # type: ignore[no-untyped-def]
    """``out[k]`` = wins * 2 + ties of class ``reps[k]`` over ``deals`` deals against a random
    hand (halves of a pot)."""
    n_hole = reps.shape[1]
    deck = np.empty(52, dtype=np.uint8)
    villain = np.empty(n_hole, dtype=np.uint8)
    board = np.empty(5, dtype=np.uint8)
    state = np.zeros(1, dtype=np.uint64)
    for k in range(reps.shape[0]):
        hero = reps[k]
        state[0] = np.uint64(seed + k)
        n = 0
        for c in range(52):
            free = True
            for h in range(n_hole):
                if hero[h] == c:
                    free = False
            if free:
                deck[n] = c
                n += 1
        total = 0
        for _ in range(deals):
            for i in range(n_hole + 5):  # partial Fisher-Yates: the first n_hole + 5 cards
                j = i + np.int64(_next(state) % np.uint64(n - i))
                deck[i], deck[j] = deck[j], deck[i]
            for i in range(n_hole):
                villain[i] = deck[i]
            for i in range(5):
                board[i] = deck[n_hole + i]
            mine = omaha_high(hero, n_hole, board, card_key, card_mask, multiplier, displace,
                              values)  # fmt: skip
            theirs = omaha_high(villain, n_hole, board, card_key, card_mask, multiplier,
                                displace, values)  # fmt: skip
            if mine > theirs:
                total += 2
            elif mine == theirs:
                total += 1
        out[k] = total


def run(n_hole: int, reps: NDArray[np.uint8], deals: int, seed: int = SEED) -> NDArray[np.float64]:
    """Estimated equity of each representative against one random hand."""
    from pokerlab.evaluation import _kernels as EK
    from pokerlab.evaluation._game_tables import load_game_values
    from pokerlab.evaluation._tables import load_high_tables

    tables = load_high_tables()
    out = np.zeros(len(reps), dtype=np.int64)
    class_equities(
        np.ascontiguousarray(reps),
        deals,
        seed,
        EK.CARD_KEY,
        EK.CARD_MASK,
        np.uint64(tables.multiplier),
        tables.displace,
        load_game_values(),
        out,
    )
    return np.asarray(out / (2.0 * deals))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Generate an Omaha hand ordering.")
    parser.add_argument("n_hole", type=int, choices=(4, 5))
    parser.add_argument("--deals", type=int, default=None)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args(argv)
    deals = args.deals or DEALS[args.n_hole]
    start = time.perf_counter()
    reps, counts = canonical_classes(args.n_hole)
    equity = run(args.n_hole, reps, deals)
    order = np.lexsort((np.arange(len(reps)), -equity))
    print(f"{len(reps)} classes x {deals} deals in {time.perf_counter() - start:.1f} s",
          file=sys.stderr)  # fmt: skip
    path = data_file(args.n_hole)
    payload: dict[str, NDArray[Any]] = {
        "reps": reps[order],
        "counts": counts[order].astype(np.int32),
        "equity": equity[order],
        "index": order.astype(np.int32),
        "deals": np.array(deals),
        "seed": np.array(SEED),
    }
    if args.check:
        with np.load(path) as shipped:
            same = all(np.array_equal(shipped[k], v) for k, v in payload.items())
        print("identical" if same else "DIFFERS", file=sys.stderr)
        return 0 if same else 1
    np.savez_compressed(path, **payload)  # type: ignore[arg-type]
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
