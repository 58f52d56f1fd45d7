"""Generators of two shipped hold'em "top x%" orderings, computed exactly with pokerlab's engine.

``python -m pokerlab.analysis.orderings vs1`` writes ``ranges/_data/holdem_order_vs1.txt``,
``python -m pokerlab.analysis.orderings sc`` writes ``ranges/_data/holdem_order_sc.txt``
(``--check`` compares instead of writing). They live here, not in :mod:`pokerlab.ranges`,
because they use the equity engine (a layer below ranges may not import it); the ranges only
read the data files.

``vs1``: all-in preflop equity of each class against one random hand, exact: the engine's
heads-up preflop enumeration of the class against ``random``.

``sc``: the Sklansky–Chubukov number of each class. The hero, in the small blind (0.5 big blind
posted), moves all in for ``S`` big blinds (his whole stack, blind included) and *shows his hand*;
the big blind (1 posted, covering) calls exactly with the hands whose exact heads-up equity
against the shown hand is above 50 % (the hands that are ahead) and folds the rest. With ``p`` the
share of the big blind's possible combos (the 1,225 without a card of the hero's) that call and
``E`` the hero's exact equity against those calling combos, shoving is worth
``(1 - p)(S + 1) + p * 2S * E`` against ``S - 0.5`` for folding, so it is at least as good up to

    S = (1.5 - p) / (p (1 - 2E))        (infinite when nothing calls: aces)

big blinds: the largest stack at which the shove is not a mistake even against a player who sees
the hand. Classes are ordered by that number, largest first (ties: grid order). Each class is
computed for one representative combo (every combo of a class gives the same number, up to a
relabelling of suits); the calling combos are grouped by the suit relabellings that fix the
hero's combo, so each distinct matchup is computed once.
"""

from __future__ import annotations

import argparse
import itertools
import math
import sys
import time
from pathlib import Path

from pokerlab.cards import format_cards
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_NAMES, COMBOS

__all__ = ["ORDER_FILES", "render", "sklansky_chubukov", "vs_one_random"]

_DATA = Path(__file__).resolve().parents[1] / "ranges" / "_data"
ORDER_FILES = {"vs1": _DATA / "holdem_order_vs1.txt", "sc": _DATA / "holdem_order_sc.txt"}
_PERMUTATIONS = list(itertools.permutations(range(4)))


def vs_one_random(name: str) -> float:
    """Exact all-in equity of a class against one random hand.

    >>> round(vs_one_random("AA"), 4)
    0.852
    """
    from pokerlab.engine.api import equity

    return float(equity([name, "random"], method="exact").players[0].equity)


def _relabel(card: int, perm: tuple[int, ...]) -> int:
    return card - card % 4 + perm[card % 4]


def sklansky_chubukov(name: str) -> tuple[float, float, float]:
    """``(S, p, E)`` of a class: its Sklansky–Chubukov number in big blinds (``math.inf`` when
    no hand calls), the share of combos that call and the hero's equity against them."""
    from pokerlab.engine.api import equity

    hero = tuple(int(c) for c in COMBOS[CLASS_COMBOS[CLASS_NAMES.index(name)][0]])
    fixing = [p for p in _PERMUTATIONS
              if sorted(_relabel(c, p) for c in hero) == sorted(hero)]  # fmt: skip
    orbits: dict[tuple[int, ...], int] = {}
    for combo in COMBOS.tolist():
        if set(combo) & set(hero):
            continue
        key = min(tuple(sorted((_relabel(c, p) for c in combo), reverse=True)) for p in fixing)
        orbits[key] = orbits.get(key, 0) + 1
    calls = total = 0
    hero_share = 0.0
    hero_text = format_cards(hero)
    for villain, size in orbits.items():
        total += size
        e = float(equity([hero_text, format_cards(villain)], method="exact").players[0].equity)
        if e < 0.5:  # the big blind is ahead and calls
            calls += size
            hero_share += size * e
    if calls == 0:
        return math.inf, 0.0, 0.0
    p = calls / total
    e_call = hero_share / calls
    return (1.5 - p) / (p * (1.0 - 2.0 * e_call)), p, e_call


def render(kind: str, values: dict[str, float]) -> str:
    """The data file: header, then ``rank class combos value`` best first (ties: grid order)."""
    order = sorted(range(len(CLASS_NAMES)), key=lambda c: (-values[CLASS_NAMES[c]], c))
    what = {
        "vs1": "exact all-in equity against one random hand",
        "sc": "Sklansky-Chubukov number in big blinds (see pokerlab.analysis.orderings)",
    }[kind]
    lines = [
        f"# pokerlab hold'em starting-hand ordering '{kind}': {what}",
        f"# generator: python -m pokerlab.analysis.orderings {kind}",
        "# columns: rank class combos value",
    ]
    for rank, c in enumerate(order, start=1):
        value = values[CLASS_NAMES[c]]
        text = "inf" if math.isinf(value) else f"{value:.6f}"
        lines.append(f"{rank} {CLASS_NAMES[c]} {len(CLASS_COMBOS[c])} {text}")
    return "\n".join(lines) + "\n"


def compute(kind: str) -> dict[str, float]:
    """Every class's value for the ordering ``kind`` (``vs1`` or ``sc``)."""
    if kind == "vs1":
        return {name: vs_one_random(name) for name in CLASS_NAMES}
    return {name: sklansky_chubukov(name)[0] for name in CLASS_NAMES}


def main(argv: list[str] | None = None) -> int:
    """Command-line entry point; returns the exit status."""
    parser = argparse.ArgumentParser(description="Generate a shipped hold'em ordering.")
    parser.add_argument("kind", choices=sorted(ORDER_FILES))
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    path = args.output or ORDER_FILES[args.kind]
    start = time.perf_counter()
    text = render(args.kind, compute(args.kind))
    print(f"computed in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    if args.check:
        same = path.read_text(encoding="utf-8") == text
        print("identical to " + str(path) if same else "DIFFERS", file=sys.stderr)
        return 0 if same else 1
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
