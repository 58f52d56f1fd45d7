"""Whether any deal is possible: a hand from each player's range, no card used twice.

``prepare`` refuses a problem with none (an :class:`~pokerlab.errors.EmptyRangeError`) before
any engine runs. Cheap bounds first (cards enough for the players whose ranges share the fewest
cards, then for each rank and suit), then a depth-first walk over the joint holdings: in Python
for a few steps (most problems find a deal at once, with no kernel to compile), then in the
kernel, which gives up past :data:`WALK_STEPS_IN_KERNEL` steps.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import RANK_PLURALS
from pokerlab.errors import EmptyRangeError, TooLargeError
from pokerlab.ranges._pattern_expand import popcount

if TYPE_CHECKING:
    from pokerlab.engine.problem import Problem

WALK_STEPS_IN_PYTHON = 10_000
"""Steps of the joint-holding walk tried in Python before the kernel takes over: almost every
problem finds a joint holding within a few steps, and then needs no kernel compiled for it."""
WALK_STEPS_IN_KERNEL = 300_000_000
"""Then at most this many in the kernel (about a second): past them the answer is unknown."""


def check_some_deal(problem: Problem) -> None:
    """Raise :class:`EmptyRangeError` when every joint holding uses some card twice, saying
    which rank or suit runs short where one does (:func:`card_shortage`)."""
    reason = why_no_deal(problem)
    if reason is not None:
        raise EmptyRangeError(f"no deal is possible: {reason}", field="players")


_TWICE = "every way of giving each player a hand from its range uses some card twice"


def why_no_deal(problem: Problem) -> str | None:
    """``None`` when some joint holding uses no card twice, else why none does. A
    :attr:`~Problem.dealt` player (a ``random`` hand) is left out: it takes any cards the others
    leave, and ``check_players`` has made sure the deck has enough (16 ``random`` hands cost 6
    ms of walking before)."""
    dealt = problem.dealt.tolist()  # Python bools: a numpy scalar per player costs more
    live = [p for p, d in enumerate(dealt) if not d]
    wide = [p for p in live if problem.sizes[p] > 1]
    masks = problem.combo_masks
    held = {p: masks[problem.offsets[p] : problem.offsets[p + 1]] for p in live}
    if len(wide) <= 1:  # one holding each but one player at most: no walk needed
        single = 0
        for p in live:
            if problem.sizes[p] == 1:
                mask = int(held[p][0])
                if single & mask:
                    return _shortage_or_twice(held, problem)
                single |= mask
        if not wide or not (held[wide[0]] & np.uint64(single)).all():
            return None  # some holding of the one wide player avoids the others' cards
        return _shortage_or_twice(held, problem)
    if not enough_cards(held):
        return _shortage_or_twice(held, problem)
    # fewest holdings first (prunes soonest); players of the same range side by side, so the
    # walk takes their holdings in increasing order only (any other order is a permutation)
    order = sorted(live, key=lambda p: (len(held[p]), int(held[p][0]), int(held[p][-1])))
    index = np.concatenate([np.arange(problem.offsets[p], problem.offsets[p + 1]) for p in order])
    offsets = np.zeros(len(order) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([problem.sizes[p] for p in order])
    same = np.array(
        [k > 0 and np.array_equal(held[p], held[order[k - 1]]) for k, p in enumerate(order)]
    )
    found = walk_in_python(masks[index], offsets, same, WALK_STEPS_IN_PYTHON)
    if found is not None:
        return None if found else _shortage_or_twice(held, problem)
    shortage = card_shortage(held, problem.known_mask)  # before the kernel's long walk
    if shortage is not None:
        return shortage
    from pokerlab.engine._exact import has_joint_holding

    index = least_demand_first(masks, index, offsets)
    answer = int(has_joint_holding(masks[index], offsets, same, WALK_STEPS_IN_KERNEL))
    if answer < 0:
        raise TooLargeError(
            "cannot tell quickly whether any deal is possible: the ranges overlap so much that "
            f"{WALK_STEPS_IN_KERNEL:,} steps of search found no hand for every player without "
            "some card twice; narrow the ranges",
            field="players",
        )
    return None if answer else _TWICE  # no rank or suit runs short (checked above)


def _shortage_or_twice(held: dict[int, NDArray[np.uint64]], problem: Problem) -> str:
    return card_shortage(held, problem.known_mask) or _TWICE


def least_demand_first(
    masks: NDArray[np.uint64], index: NDArray[np.int64], offsets: NDArray[np.int64]
) -> NDArray[np.int64]:
    """``index`` with each player's holdings reordered, the least contested first (their cards
    wanted least by all the ranges): holdings come in card order, so every range starts with
    its aces, and four players of ``AA**``, ``KK**``, ``QQ**`` and ``JJ**`` walked for more than
    300,000,000 steps, the first taking the aces the last needs. Players of the same range get
    the same order (their scores are equal), as the walk's increasing-order rule requires."""
    from pokerlab.engine._exact import card_demand_scores

    scores = card_demand_scores(masks[index], offsets)
    parts = [
        index[a:b][np.argsort(scores[a:b], kind="stable")]
        for a, b in itertools.pairwise(offsets.tolist())
    ]
    return np.concatenate(parts)


def enough_cards(rows: dict[int, NDArray[np.uint64]]) -> bool:
    """Hall's condition on prefixes: the players whose holdings use the fewest distinct cards,
    taken together, must have cards enough for a hand each (eleven players of
    ``AA,KK,QQ,JJ,TT`` share 20 cards for 22: the walk took two minutes to find none)."""
    if any(len(r) == 0 for r in rows.values()):
        return False
    unions = {p: int(np.bitwise_or.reduce(r)) for p, r in rows.items()}
    cards = {p: int(r[0]).bit_count() for p, r in rows.items()}
    have, need = 0, 0
    for p in sorted(rows, key=lambda q: unions[q].bit_count()):
        have |= unions[p]
        need += cards[p]
        if have.bit_count() < need:
            return False
    return True


_GROUPS = [
    *((name, sum(1 << (4 * rank + suit) for suit in range(4))) for rank, name in
      enumerate(RANK_PLURALS)),
    *((name, sum(1 << (4 * rank + suit) for rank in range(13))) for suit, name in
      enumerate(("clubs", "diamonds", "hearts", "spades"))),
]  # fmt: skip
"""Each rank's four cards and each suit's thirteen, with their names."""


def card_shortage(rows: dict[int, NDArray[np.uint64]], known: int) -> str | None:
    """Why no deal is possible, when the ranges need more cards of one rank or suit than are
    left (``known``: the board and dead cards): every hand of ``KK**`` holds two kings, so
    three such players need six (the walk searched 300,000,000 steps and could not tell).
    ``None`` when every rank and suit has cards enough (a deal may still be impossible)."""
    for name, group in _GROUPS:
        need = {p: int(popcount(r & np.uint64(group)).min()) for p, r in rows.items()}
        left = (group & ~known).bit_count()
        total = sum(need.values())
        if total > left:
            by_count: dict[int, list[int]] = {}
            for p, k in need.items():
                if k:
                    by_count.setdefault(k, []).append(p + 1)
            parts = ", ".join(
                f"{k} in every hand of {_players(ps)}" for k, ps in sorted(by_count.items(),
                                                                          reverse=True)
            )  # fmt: skip
            return f"the ranges need at least {total} {name} ({parts}) and {left} are left"
    return None


def _players(numbers: list[int]) -> str:
    """``player 2``, ``players 2 and 3``, ``players 2, 3 and 4``."""
    if len(numbers) == 1:
        return f"player {numbers[0]}"
    return "players " + ", ".join(map(str, numbers[:-1])) + f" and {numbers[-1]}"


def walk_in_python(
    masks: NDArray[np.uint64], offsets: NDArray[np.int64], same: NDArray[np.bool_], steps: int
) -> bool | None:
    """The depth-first walk of ``_exact.has_joint_holding`` for at most ``steps`` steps: whether
    some joint holding uses no card twice, or ``None`` when the steps ran out first."""
    n = len(offsets) - 1
    size = [int(offsets[p + 1] - offsets[p]) for p in range(n)]
    pos = [-1] * n  # position within the player's holdings
    used = [0] * (n + 1)
    p = 0
    for _ in range(steps):
        pos[p] += 1
        if pos[p] >= size[p]:
            p -= 1
            if p < 0:
                return False
            continue
        m = int(masks[offsets[p] + pos[p]])
        if m & used[p]:
            continue
        used[p + 1] = used[p] | m
        if p + 1 == n:
            return True
        p += 1
        pos[p] = pos[p - 1] if same[p] else -1  # the same range: later holdings only
    return None
