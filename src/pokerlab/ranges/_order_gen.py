"""Generator of the shipped hand orderings: ``python -m pokerlab.ranges._order_gen [--short
[--straights]]``.

The 169 hold'em classes are ranked by all-in equity against three random hands (the definition
PokerStove popularised for its "top x%" slider), estimated by a seeded Monte Carlo run in
:func:`pokerlab.ranges._kernels.class_shares` over the project's own evaluator. ``--short`` ranks
the 81 classes of short-deck hold'em the same way: the hands and the board dealt from the 36 cards
six to ace, evaluated by short-deck rules (``_data/shortdeck_order.txt``); ``--short --straights``
by its other rule, a straight over trips (``_data/shortdeck_straights_order.txt``). The run is split
into ``chunks`` independent streams; the per-chunk estimates give the standard errors (batch means)
of each equity and of the difference between neighbours in the ordering. The output is
deterministic: same arguments, same file, whatever the number of threads.

Options: ``--seed``, ``--chunks``, ``--deals`` (per chunk), ``--output`` (default: the shipped
``_data/holdem_order.txt``, or ``_data/shortdeck_order.txt`` with ``--short``), ``--check``
(compare with the shipped file instead of writing).
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_NAMES, CLASS_OF_PAIR

DATA_FILE = Path(__file__).with_name("_data") / "holdem_order.txt"
SHORT_DATA_FILE = DATA_FILE.with_name("shortdeck_order.txt")
STRAIGHTS_DATA_FILE = DATA_FILE.with_name("shortdeck_straights_order.txt")
SHORT_FIRST_CARD = 16  # the six of clubs: the short deck is cards 16..51
SEED = 20240601
CHUNKS = 64
DEALS = 1_000_000


@dataclass(frozen=True)
class OrderingRun:
    """Raw result of a run: ``share[k, c]`` (twelfths of a pot) and ``count[k, c]`` showdowns
    per chunk ``k`` and class ``c`` (grid order); ``short``: dealt from the short deck (its
    classes with a card below the six have no showdown and are left out of :meth:`order`);
    ``straights``: by the short deck's other rule, a straight over trips."""

    seed: int
    chunks: int
    deals: int
    share: NDArray[np.int64]
    count: NDArray[np.int64]
    short: bool = False
    straights: bool = False

    @property
    def classes(self) -> NDArray[np.int64]:
        """The classes the run dealt (grid indices): all 169, or the short deck's 81."""
        return np.flatnonzero(self.count.sum(axis=0) > 0)

    @property
    def equity(self) -> NDArray[np.float64]:
        """Estimated equity of each class (NaN for a class never dealt)."""
        with np.errstate(invalid="ignore"):
            return np.asarray(self.share.sum(axis=0) / (12.0 * self.count.sum(axis=0)))

    def chunk_equity(self) -> NDArray[np.float64]:
        """Equity estimate of each class within each chunk, shape ``(chunks, 169)``."""
        with np.errstate(invalid="ignore"):
            return np.asarray(self.share / (12.0 * self.count))

    @property
    def stderr(self) -> NDArray[np.float64]:
        """Standard error of :attr:`equity` (batch means over the chunks)."""
        per_chunk = self.chunk_equity()
        return np.asarray(per_chunk.std(axis=0, ddof=1) / np.sqrt(self.chunks))

    def order(self) -> NDArray[np.int64]:
        """Class indices (of those dealt) from the best equity down (ties, if any, in grid
        order)."""
        dealt = self.classes
        return np.asarray(dealt[np.lexsort((dealt, -self.equity[dealt]))])


def run(
    seed: int = SEED,
    chunks: int = CHUNKS,
    deals: int = DEALS,
    short: bool = False,
    straights: bool = False,
) -> OrderingRun:
    """Run the Monte Carlo (``chunks * deals`` deals in all), of the short deck if ``short``
    (by its other rule, a straight over trips, if ``straights``)."""
    from pokerlab.evaluation import _kernels as EK
    from pokerlab.evaluation._tables import load_high_tables
    from pokerlab.evaluation.short_deck import short_deck_values
    from pokerlab.ranges._kernels import class_shares

    tables = load_high_tables()
    share = np.zeros((chunks, len(CLASS_NAMES)), dtype=np.int64)
    count = np.zeros((chunks, len(CLASS_NAMES)), dtype=np.int64)
    class_shares(
        np.uint64(seed),
        chunks,
        deals,
        CLASS_OF_PAIR,
        SHORT_FIRST_CARD if short else 0,
        EK.CARD_KEY,
        EK.CARD_MASK,
        np.uint64(tables.multiplier),
        tables.displace,
        short_deck_values(straights) if short else tables.values,
        share,
        count,
    )
    return OrderingRun(seed, chunks, deals, share, count, short, short and straights)


def neighbour_z(result: OrderingRun) -> NDArray[np.float64]:
    """For each neighbouring pair in the ordering, the gap in units of its standard error
    (paired over the chunks, so the common random numbers are accounted for)."""
    per_chunk = result.chunk_equity()
    order = result.order()
    diffs = per_chunk[:, order[:-1]] - per_chunk[:, order[1:]]
    se = diffs.std(axis=0, ddof=1) / np.sqrt(result.chunks)
    gap = result.equity[order[:-1]] - result.equity[order[1:]]
    return np.asarray(gap / se)


def render(result: OrderingRun) -> str:
    """The data file's text."""
    game = "short-deck hold'em (36 cards, six to ace)" if result.short else "hold'em"
    if result.straights:
        game += ", a straight over trips,"
    flags = " --short" * result.short + " --straights" * result.straights
    lines = [
        f"# pokerlab {game} starting-hand ordering: all-in equity against three random hands",
        f"# generator: python -m pokerlab.ranges._order_gen{flags}"
        f" --seed {result.seed} "
        f"--chunks {result.chunks} --deals {result.deals}"
        f" ({result.chunks * result.deals} deals, SplitMix64 streams)",
        "# columns: rank class combos equity stderr showdowns",
    ]
    equity, stderr = result.equity, result.stderr
    showdowns = result.count.sum(axis=0)
    for rank, c in enumerate(result.order().tolist(), start=1):
        lines.append(
            f"{rank} {CLASS_NAMES[c]} {len(CLASS_COMBOS[c])} {equity[c]:.6f} {stderr[c]:.6f} "
            f"{showdowns[c]}"
        )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=SEED)
    parser.add_argument("--chunks", type=int, default=CHUNKS)
    parser.add_argument("--deals", type=int, default=DEALS, help="deals per chunk")
    parser.add_argument("--output", type=Path, help="default: the shipped file")
    parser.add_argument("--short", action="store_true", help="short-deck hold'em's 81 classes")
    parser.add_argument("--straights", action="store_true",
                        help="with --short: by its other rule, a straight over trips")  # fmt: skip
    parser.add_argument("--check", action="store_true", help="compare with --output, write nothing")
    args = parser.parse_args(argv)
    if args.straights and not args.short:
        parser.error("--straights ranks the short deck: give --short too")
    shipped = STRAIGHTS_DATA_FILE if args.straights else SHORT_DATA_FILE
    args.output = args.output or (shipped if args.short else DATA_FILE)
    start = time.perf_counter()
    result = run(args.seed, args.chunks, args.deals, args.short, args.straights)
    elapsed = time.perf_counter() - start
    z = neighbour_z(result)
    order = result.order()
    print(f"{args.chunks * args.deals} deals in {elapsed:.1f} s", file=sys.stderr)
    dealt = result.classes
    print(
        f"showdowns per class: {result.count.sum(axis=0)[dealt].min()} .. "
        f"{result.count.sum(axis=0)[dealt].max()}; stderr of an equity: "
        f"{result.stderr[dealt].min():.6f} .. {result.stderr[dealt].max():.6f}",
        file=sys.stderr,
    )
    close = [
        f"{CLASS_NAMES[order[i]]}/{CLASS_NAMES[order[i + 1]]} (z={z[i]:.1f})"
        for i in np.flatnonzero(z < 3).tolist()
    ]
    print(
        f"neighbours closer than 3 standard errors: {len(close)}: {', '.join(close)}",
        file=sys.stderr,
    )
    text = render(result)
    if args.check:
        same = args.output.read_text() == text
        print("identical to " + str(args.output) if same else "DIFFERS", file=sys.stderr)
        return 0 if same else 1
    args.output.parent.mkdir(parents=True, exist_ok=True)
    args.output.write_text(text)
    print(f"wrote {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
