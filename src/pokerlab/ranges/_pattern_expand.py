"""Expansion of parsed pattern ranges (:mod:`pokerlab.ranges._pattern_parse`) into holdings.

A holding of ``size`` cards is a 64-bit mask (bit ``code`` per card). A set of holdings is
either :class:`Masks` (a sorted array of distinct masks) or :class:`Lazy`: every holding that
avoids the cards of ``dead`` and satisfies a predicate (``None`` for "every holding"), which is
how ``random`` and macro-only patterns stay unexpanded until something forces them.

How a pattern expands
---------------------
The constrained cards of a pattern (everything but a bare ``*``) are assigned concrete cards one
pattern card at a time, most constrained first, vectorised over all partial assignments. A
partial assignment's *state* is the set of cards used, the suit bound to each suit variable, the
rank bound to each rank variable and the ranks used in each no-pair group; states are
deduplicated at every step, so the order in which a pattern lists its cards changes nothing (and
interchangeable cards are not enumerated in every order). The distinct card sets found are then
completed with every choice of the ``size - k`` free cards from the rest of the deck, the
pattern's macros filter the result and duplicates (a holding matched in two ways) are dropped.
Where the candidates are many next to the ``C(52, size)`` possible holdings, the completion and
the union of large sets write marks into an array of one entry per possible holding and read
it back in order (:mod:`pokerlab.ranges._mask_kernels`, in parallel: no sort, duplicates cost
nothing); smaller sets are sorted.
Work is bounded: more than :data:`MAX_HOLDINGS` distinct holdings, or a candidate count far above
it, raises :class:`~pokerlab.errors.TooLargeError` before memory runs out.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._threads import asked_threads
from pokerlab.cards import RANKS
from pokerlab.errors import EmptyRangeError, TooLargeError
from pokerlab.ranges._pattern_parse import (
    ALL_RANKS,
    CardPattern,
    Group,
    Node,
    Percent,
    Term,
    chain,
    shorten,
    suit_rule,
)

__all__ = [
    "MAX_HOLDINGS",
    "Lazy",
    "Masks",
    "SetValue",
    "codes_of_masks",
    "dense",
    "descending_codes",
    "difference",
    "evaluate",
    "intersect",
    "last_wins",
    "materialise",
    "popcount",
    "sorted_unique",
    "union",
]

Pred = Callable[[NDArray[np.uint64]], NDArray[np.bool_]]

#: The most holdings a pattern range materialises (arrays of this many holdings are ~100 MB).
MAX_HOLDINGS = 5_000_000
_ENUM_LIMIT = 3_000_000  # the most holdings enumerated to filter by a macro (C(52, 5) fits)
_MAX_ROWS = 40_000_000  # the most candidate holdings generated for one pattern
_MAX_STATES = 20_000_000  # the most partial assignments extended at one step
_CHUNK = 1 << 20
_STATE_CHUNK = 1 << 16  # partial assignments extended at once ((n, 52) temporaries)

_CODES = np.arange(52, dtype=np.int64)
_BIT = np.left_shift(np.uint64(1), _CODES.astype(np.uint64))
_CARD_RANK = _CODES >> 2
_CARD_SUIT = _CODES & 3
_SUIT_MASKS = [np.uint64(sum(1 << (4 * r + s) for r in range(len(RANKS)))) for s in range(4)]

#: Mark arrays (one entry per possible holding) are used up to 6 cards (20,358,520 entries) ...
_DENSE_MAX = math.comb(52, 6)
#: ... for sets of at least 1/16 as many candidate holdings (below, sorting them is cheaper) ...
_DENSE_SHARE = 16
#: ... and from a million on (below, a parallel start on a busy machine costs more than sorting).
_DENSE_MIN = 1 << 20
_PARALLEL_MIN = 1 << 18  # masks under which a kernel runs on one thread (4 chunks)
_MARK_VALUES = 1 << 16  # uint16 marks: 0 (absent) and up to 65,535 items of a range


def popcount(x: NDArray[np.uint64]) -> NDArray[np.int64]:
    counter = getattr(np, "bitwise_count", None)
    if counter is not None:
        return np.asarray(counter(x), dtype=np.int64)
    x = x - ((x >> np.uint64(1)) & np.uint64(0x5555555555555555))
    x = (x & np.uint64(0x3333333333333333)) + ((x >> np.uint64(2)) & np.uint64(0x3333333333333333))
    x = (x + (x >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return ((x * np.uint64(0x0101010101010101)) >> np.uint64(56)).astype(np.int64)


def sorted_unique(x: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The distinct values of ``x``, ascending (sort-based: faster than ``np.unique`` here)."""
    s = np.sort(x, kind="stable")  # radix-like timsort: ~2x on runs of sorted parts
    if len(s) < 2:
        return s
    keep = np.empty(len(s), dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    return s[keep]


def _unique_rows(columns: list[NDArray[np.int64]]) -> NDArray[np.intp]:
    """Indices of one row per distinct row of the given columns."""
    order = np.lexsort(columns[::-1]) if len(columns) > 1 else np.argsort(columns[0])
    keep = np.ones(len(order), dtype=bool)
    if len(order) > 1:
        same = np.ones(len(order) - 1, dtype=bool)
        for col in columns:
            s = col[order]
            same &= s[1:] == s[:-1]
        keep[1:] = ~same
    return order[keep]


# --- set values ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Lazy:
    """Every holding avoiding ``dead`` (a card mask) that satisfies ``pred`` (None: all)."""

    pred: Pred | None
    dead: int


class Masks:
    """An explicit set of holdings: sorted, distinct 64-bit masks (:attr:`masks`), given as
    such or as a mark array of ``size``-card holdings (:attr:`marks`: one bool per possible
    holding, by colex rank; see :mod:`pokerlab.ranges._mask_kernels`) listed on first use, so
    that a range's items that are never intersected or subtracted are listed only once, all
    together (:func:`last_wins`)."""

    __slots__ = ("_masks", "count", "marks", "size")

    def __init__(
        self,
        masks: NDArray[np.uint64] | None = None,
        *,
        marks: NDArray[np.bool_] | None = None,
        size: int = 0,
    ) -> None:
        self._masks = masks
        self.marks = marks
        self.size = size
        if masks is not None:
            self.count = len(masks)
        else:
            assert marks is not None
            self.count = int(np.count_nonzero(marks))

    def __len__(self) -> int:
        return self.count

    @property
    def masks(self) -> NDArray[np.uint64]:
        if self._masks is None:
            assert self.marks is not None
            self._masks = _read_marks(self.marks.view(np.uint8).astype(np.uint16), self.size)[0]
            self.marks = None
        return self._masks


SetValue = Lazy | Masks


def _frozen(x: NDArray[Any]) -> NDArray[Any]:
    """``x`` as a read-only C-contiguous array: the one array type the kernels are compiled
    for, whoever calls them (a writable and a read-only array are two numba types)."""
    view = np.ascontiguousarray(x).view()
    view.flags.writeable = False
    return view


def _kernels() -> Any:
    """:mod:`pokerlab.ranges._mask_kernels`, imported on first use (``import pokerlab`` loads no
    numba), or ``None`` where numba's JIT is off: their loops would run as Python, so the numpy
    ways (sorting) are taken instead."""
    from numba import config

    if getattr(config, "DISABLE_JIT", False):
        return None
    from pokerlab.ranges import _mask_kernels

    return _mask_kernels


def _threads_for(items: int) -> AbstractContextManager[object]:
    """The threads a kernel with ``items`` masks of work runs on: those the public call was
    given (:data:`pokerlab._threads.asked_threads`; none given: numba's count), and where it has
    a few chunks of work, this thread alone: a parallel start waits for every thread of the
    pool, which on a busy machine cost more than the work (a 4-card range's 3.6 ms took 7.8 ms
    on 2 threads with the other core taken). The output is the same for any count."""
    count = 1 if items < _PARALLEL_MIN else asked_threads.get()
    if count is None:
        return nullcontext()
    from pokerlab.evaluation._parallel import numba_threads

    return numba_threads(count)


def dense(count: int, size: int) -> bool:
    """Whether ``count`` candidate holdings of ``size`` cards are listed through a mark array."""
    total = math.comb(52, size)
    return (
        size >= 2
        and total <= _DENSE_MAX
        and count >= _DENSE_MIN
        and count * _DENSE_SHARE >= total
        and _kernels() is not None
    )


_ONE_WEIGHT = np.ones(2, dtype=np.float64)
_ONE_WEIGHT.flags.writeable = False


def _read_marks(
    marks: NDArray[np.uint16], size: int, table: NDArray[np.float64] = _ONE_WEIGHT
) -> tuple[NDArray[np.uint64], NDArray[np.float64]]:
    """The holdings of ``size`` cards with a non-zero mark, ascending, and each one's weight
    ``table[mark]``."""
    with _threads_for(len(marks)):
        masks, weights = _kernels().marked_masks(marks, np.int64(size), _frozen(table))
    return masks, weights


def _stamp(marks: NDArray[np.uint16], masks: NDArray[np.uint64], value: int) -> None:
    """Mark each holding of ``masks`` (distinct) with ``value``."""
    with _threads_for(len(masks)):
        _kernels().stamp(marks, _frozen(masks.astype(np.uint64, copy=False)), np.uint16(value))


def _distinct(parts: list[NDArray[np.uint64]], size: int) -> NDArray[np.uint64]:
    """The distinct masks of ``parts`` (each of ``size`` cards, sorted and distinct), ascending."""
    if len(parts) == 1:
        return parts[0]
    if not dense(sum(len(p) for p in parts), size):
        return sorted_unique(np.concatenate(parts))
    marks = np.zeros(math.comb(52, size), dtype=np.uint16)
    for part in parts:
        _stamp(marks, part, 1)
    return _read_marks(marks, size)[0]


def last_wins(
    values: list[Masks], weights: list[float], size: int
) -> tuple[NDArray[np.uint64], NDArray[np.float64]] | None:
    """The distinct holdings of ``values`` (sets of ``size`` cards), ascending, each with the
    weight of the last set that holds it, weight-0 ones dropped; ``None`` where a mark array
    does not pay (the caller sorts). Each set marks its holdings with its number (the later
    number overwrites), a weight-0 set with 0; an unread mark array is overlaid whole."""
    if not values or len(values) >= _MARK_VALUES or not dense(sum(len(v) for v in values), size):
        return None
    marks = np.zeros(math.comb(52, size), dtype=np.uint16)
    for j, (value, weight) in enumerate(zip(values, weights, strict=True), 1):
        mark = j if weight > 0 else 0
        if value.marks is None:
            _stamp(marks, value.masks, mark)
        else:
            with _threads_for(len(marks)):
                _kernels().overlay(marks, _frozen(value.marks), np.uint16(mark))
    table = np.zeros(len(values) + 1, dtype=np.float64)
    table[1:] = weights
    return _read_marks(marks, size, table)


def _member(a: NDArray[np.uint64], b: NDArray[np.uint64]) -> NDArray[np.bool_]:
    """Which masks of ``a`` are in ``b`` (``b`` sorted)."""
    if not len(b):
        return np.zeros(len(a), dtype=np.bool_)
    at = np.searchsorted(b, a)
    np.minimum(at, len(b) - 1, out=at)
    return np.asarray(b[at] == a)


def _avoiding(masks: NDArray[np.uint64], dead: int) -> NDArray[np.bool_]:
    return np.asarray((masks & np.uint64(dead)) == 0)


def _apply(value: Lazy, masks: NDArray[np.uint64]) -> NDArray[np.uint64]:
    """The masks among ``masks`` that belong to ``value``."""
    keep = _avoiding(masks, value.dead)
    if value.pred is not None:
        keep &= value.pred(masks)
    return masks[keep]


_SMALL_COMBINATIONS: dict[tuple[int, int], NDArray[np.uint8]] = {}


def _combinations(n: int, m: int) -> NDArray[np.uint8]:
    """All ``m``-subsets of ``range(n)`` as rows of increasing indices, lexicographic order
    (the small tables are kept)."""
    key = (n, m)
    if key in _SMALL_COMBINATIONS:
        return _SMALL_COMBINATIONS[key]
    table = _build_combinations(n, m)
    if len(table) <= 300_000:
        _SMALL_COMBINATIONS[key] = table
    return table


def _colex(lexicographic: NDArray[np.uint8], n: int) -> NDArray[np.uint8]:
    """The ``m``-subsets of ``range(n)`` of a :func:`_combinations` table in colex order
    (ascending as masks), each row ascending: reading each index ``i`` as ``n - 1 - i`` turns
    the lexicographic order into the reverse of the colex order."""
    return (np.uint8(n - 1) - lexicographic)[::-1, ::-1]


def _build_combinations(n: int, m: int) -> NDArray[np.uint8]:
    if m == 0:
        return np.zeros((1, 0), dtype=np.uint8)
    cur = np.arange(n - m + 1, dtype=np.uint8)[:, None]
    for j in range(1, m):
        last = cur[:, -1].astype(np.int64)
        counts = (n - (m - j)) - last  # room left for the remaining m - j picks
        counts = np.maximum(counts, 0)
        rows = np.repeat(np.arange(len(cur)), counts)
        starts = np.repeat(np.cumsum(counts) - counts, counts)
        new = last[rows] + 1 + (np.arange(int(counts.sum())) - starts)
        cur = np.column_stack([cur[rows], new.astype(np.uint8)])
    cur.flags.writeable = False
    return cur


def materialise(value: SetValue, size: int) -> NDArray[np.uint64]:
    """The sorted masks of a set value; raises :class:`TooLargeError` past the limits."""
    if isinstance(value, Masks):
        return value.masks
    avail = np.array([c for c in range(52) if not value.dead >> c & 1], dtype=np.int64)
    total = math.comb(len(avail), size)
    if value.pred is None and total > MAX_HOLDINGS:
        raise TooLargeError(
            f"{total:,} holdings of {size} cards: at most {MAX_HOLDINGS:,} can be listed; "
            f"narrow the range with card patterns (e.g. AA{'*' * (size - 2)})"
        )
    if value.pred is not None and total > _ENUM_LIMIT:
        raise TooLargeError(
            f"a macro alone would filter all {total:,} holdings of {size} cards (at most "
            f"{_ENUM_LIMIT:,} are enumerated); intersect it with card patterns, e.g. AA:$ds"
        )
    kernels = _kernels()
    result: NDArray[np.uint64]
    if kernels is None:
        result = _materialise_sorted(avail, size, value.pred)
    else:  # ascending as listed, so no sort
        with _threads_for(total):
            result = kernels.colex_masks(_frozen(avail.astype(np.uint8)), np.int64(size))
        if value.pred is not None:
            result = _filtered(result, value.pred)
    if len(result) > MAX_HOLDINGS:
        raise TooLargeError(f"{len(result):,} holdings: at most {MAX_HOLDINGS:,} are materialised")
    return result


def _materialise_sorted(
    avail: NDArray[np.int64], size: int, pred: Pred | None
) -> NDArray[np.uint64]:
    """Every mask of ``size`` of the ``avail`` cards that satisfies ``pred``, ascending (numpy:
    listed, filtered, sorted)."""
    combos = _combinations(len(avail), size)
    out: list[NDArray[np.uint64]] = []
    for lo in range(0, len(combos), _CHUNK):
        part = combos[lo : lo + _CHUNK]
        masks = np.zeros(len(part), dtype=np.uint64)
        for j in range(size):
            masks |= _BIT[avail[part[:, j]]]
        out.append(masks if pred is None else masks[pred(masks)])
    return np.sort(np.concatenate(out)) if out else np.zeros(0, dtype=np.uint64)


def _filtered(masks: NDArray[np.uint64], pred: Pred) -> NDArray[np.uint64]:
    """The masks that satisfy ``pred``, in their order (tested a chunk at a time: a macro's
    temporaries are several times the masks' size)."""
    keep = np.concatenate(
        [pred(masks[lo : lo + _CHUNK]) for lo in range(0, len(masks), _CHUNK)]
        or [np.zeros(0, dtype=np.bool_)]
    )
    return np.asarray(masks[keep], dtype=np.uint64)


def union(values: list[SetValue], size: int) -> SetValue:
    """``a , b , ...``."""
    for x in values:
        if isinstance(x, Lazy) and x.pred is None and all(_within(y, x.dead) for y in values):
            return x
    return Masks(_distinct([materialise(v, size) for v in values], size))


def _within(value: SetValue, dead: int) -> bool:
    """Whether every holding of ``value`` avoids ``dead``."""
    if isinstance(value, Masks):
        return bool(_avoiding(value.masks, dead).all())
    return dead & ~value.dead == 0


def _and(p: Pred | None, q: Pred | None) -> Pred | None:
    if p is None or q is None:
        return p if q is None else q
    return lambda m: p(m) & q(m)


def intersect(a: SetValue, b: SetValue) -> SetValue:
    """``a : b``."""
    if isinstance(a, Lazy) and isinstance(b, Lazy):
        return Lazy(_and(a.pred, b.pred), a.dead | b.dead)
    if isinstance(a, Lazy):
        a, b = b, a
    assert isinstance(a, Masks)
    if isinstance(b, Lazy):
        return Masks(_apply(b, a.masks))
    return Masks(a.masks[_member(a.masks, b.masks)])


def difference(a: SetValue, b: SetValue, size: int) -> SetValue:
    """``a ! b``."""
    if isinstance(b, Lazy):
        if isinstance(a, Masks):
            inside = _avoiding(a.masks, b.dead)
            if b.pred is not None:
                inside &= b.pred(a.masks)
            return Masks(a.masks[~inside])
        keep, drop, dead = a.pred, b.pred, b.dead

        def pred(m: NDArray[np.uint64]) -> NDArray[np.bool_]:
            inside = _avoiding(m, dead)
            if drop is not None:
                inside &= drop(m)
            return ~inside if keep is None else keep(m) & ~inside

        return Lazy(pred, a.dead)
    left = materialise(a, size)
    return Masks(left[~_member(left, b.masks)])


# --- macros --------------------------------------------------------------------------------


def _small_popcount(x: NDArray[np.uint64]) -> NDArray[np.integer[Any]]:
    """Set bits per mask, as numpy's ``bitwise_count`` gives them (``uint8``: a suit count)."""
    counter = getattr(np, "bitwise_count", None)
    return popcount(x) if counter is None else np.asarray(counter(x))


def _sorted_counts(
    cols: list[NDArray[np.integer[Any]]],
) -> list[NDArray[np.integer[Any]]]:
    """Four columns of suit counts sorted into descending order row by row, by the five
    compare-exchanges of a sorting network (elementwise: no ``(n, 4)`` array to sort; the
    sort and its stacking were 60 % of a macro's time)."""
    a, b, c, d = cols
    a, b = np.maximum(a, b), np.minimum(a, b)
    c, d = np.maximum(c, d), np.minimum(c, d)
    a, c = np.maximum(a, c), np.minimum(a, c)
    b, d = np.maximum(b, d), np.minimum(b, d)
    b, c = np.maximum(b, c), np.minimum(b, c)
    return [a, b, c, d]


def _macro_pred(names: tuple[str, ...]) -> Pred | None:
    if not names:
        return None
    suit_names = [n for n in names if n != "np"]
    no_pair = "np" in names

    def pred(masks: NDArray[np.uint64]) -> NDArray[np.bool_]:
        keep = np.ones(len(masks), dtype=np.bool_)
        if suit_names:
            cols = _sorted_counts([_small_popcount(masks & s) for s in _SUIT_MASKS])
            for name in suit_names:
                keep &= np.asarray(suit_rule(name, *cols), dtype=np.bool_)
        if no_pair:
            for r in range(len(RANKS)):
                nibble = (masks >> np.uint64(4 * r)) & np.uint64(15)
                keep &= (nibble & (nibble - np.uint64(1))) == 0
        return keep

    return pred


# --- patterns ------------------------------------------------------------------------------


def _allowed(card: CardPattern, named_ranks: int, named_suits: int) -> NDArray[np.bool_]:
    """The cards that ``card`` may be on its own (before variables and groups bind)."""
    ranks = ALL_RANKS & ~named_ranks if card.rank_var >= 0 else card.ranks
    if card.suit >= 0:
        suits = 1 << card.suit
    elif card.suit_var >= 0:
        suits = 15 & ~named_suits
    else:
        suits = 15
    rank_ok = ((ranks >> _CARD_RANK) & 1) == 1
    suit_ok = ((suits >> _CARD_SUIT) & 1) == 1
    return np.asarray(rank_ok & suit_ok)


class _States:
    """Partial assignments, one row each: used cards, suit per suit variable (-1 unbound), rank
    per rank variable (-1 unbound), ranks used per no-pair group (bit mask)."""

    def __init__(
        self,
        used: NDArray[np.uint64],
        sv: NDArray[np.int8],
        rv: NDArray[np.int8],
        gm: NDArray[np.int32],
    ) -> None:
        self.used, self.sv, self.rv, self.gm = used, sv, rv, gm

    def __len__(self) -> int:
        return len(self.used)

    def take(self, rows: NDArray[np.intp]) -> _States:
        return _States(self.used[rows], self.sv[rows], self.rv[rows], self.gm[rows])

    def unique(self) -> _States:
        sv = self.sv.astype(np.int64) + 1
        packed = self.used | (
            (sv[:, 0] | sv[:, 1] << 3 | sv[:, 2] << 6 | sv[:, 3] << 9).astype(np.uint64)
            << np.uint64(52)
        )
        columns = [packed.view(np.int64)]
        if (self.rv >= 0).any():
            columns.extend(self.rv.astype(np.int64).T)
        columns.extend(self.gm.astype(np.int64).T)
        rows = _unique_rows(columns)
        return self.take(rows)


def _extend(states: _States, card: CardPattern, allowed: NDArray[np.bool_]) -> _States:
    """Every way to assign one more pattern card to a concrete card, from every state."""
    n = len(states)
    cand = np.broadcast_to(allowed, (n, 52)).copy()
    cand &= ((states.used[:, None] >> _CODES.astype(np.uint64)) & np.uint64(1)) == 0
    if card.suit_var >= 0:
        bound = states.sv[:, card.suit_var].astype(np.int64)
        others = np.delete(states.sv, card.suit_var, axis=1).astype(np.int64)
        taken = np.zeros((n, 4), dtype=bool)
        for col in others.T:
            taken[np.flatnonzero(col >= 0), col[col >= 0]] = True
        ok_unbound = ~taken[:, _CARD_SUIT]
        ok_bound = _CARD_SUIT[None, :] == bound[:, None]
        cand &= np.where((bound >= 0)[:, None], ok_bound, ok_unbound)
    if card.rank_var >= 0:
        bound = states.rv[:, card.rank_var].astype(np.int64)
        others = np.delete(states.rv, card.rank_var, axis=1).astype(np.int64)
        taken = np.zeros((n, len(RANKS)), dtype=bool)
        for col in others.T:
            taken[np.flatnonzero(col >= 0), col[col >= 0]] = True
        ok_unbound = ~taken[:, _CARD_RANK]
        ok_bound = _CARD_RANK[None, :] == bound[:, None]
        cand &= np.where((bound >= 0)[:, None], ok_bound, ok_unbound)
    if card.group >= 0:
        used_ranks = states.gm[:, card.group].astype(np.int64)
        cand &= ((used_ranks[:, None] >> _CARD_RANK[None, :]) & 1) == 0
    rows, cards = np.nonzero(cand)
    new = states.take(rows)
    new.used = new.used | _BIT[cards]
    if card.suit_var >= 0:
        new.sv = new.sv.copy()
        new.sv[:, card.suit_var] = _CARD_SUIT[cards]
    if card.rank_var >= 0:
        new.rv = new.rv.copy()
        new.rv[:, card.rank_var] = _CARD_RANK[cards]
    if card.group >= 0:
        new.gm = new.gm.copy()
        new.gm[:, card.group] |= (1 << _CARD_RANK[cards]).astype(np.int32)
    return new


def _assignments(term: Term, cards: list[CardPattern]) -> NDArray[np.uint64]:
    """Distinct sets of concrete cards the constrained ``cards`` of ``term`` can take."""
    named_ranks = 0
    named_suits = 0
    for c in term.cards:
        if c.single_rank:
            named_ranks |= c.ranks
        if c.suit >= 0:
            named_suits |= 1 << c.suit
    allowed = [_allowed(c, named_ranks, named_suits) for c in cards]
    order = sorted(range(len(cards)), key=lambda i: int(allowed[i].sum()))
    groups = max((c.group for c in cards), default=-1) + 1
    states = _States(
        np.zeros(1, dtype=np.uint64),
        np.full((1, 4), -1, dtype=np.int8),
        np.full((1, 4), -1, dtype=np.int8),
        np.zeros((1, groups), dtype=np.int32),
    )
    for i in order:
        if len(states) * int(allowed[i].sum()) > _MAX_STATES:
            raise TooLargeError(
                f"the pattern '{shorten(term.text)}' at character {term.position} is too complex "
                f"to expand (over {_MAX_STATES:,} partial assignments); simplify it"
            )
        parts = [
            _extend(
                states.take(np.arange(lo, min(lo + _STATE_CHUNK, len(states)))),
                cards[i],
                allowed[i],
            )
            for lo in range(0, len(states), _STATE_CHUNK)
        ]
        merged = _States(
            np.concatenate([p.used for p in parts]),
            np.concatenate([p.sv for p in parts]),
            np.concatenate([p.rv for p in parts]),
            np.concatenate([p.gm for p in parts]),
        )
        states = merged.unique()
        if not len(states):
            break
    return sorted_unique(states.used)


def _complete(term: Term, sets: NDArray[np.uint64], k: int, size: int, pred: Pred | None) -> Masks:
    """Every holding made of one of ``sets`` (``k`` cards each) plus ``size - k`` other cards,
    filtered by ``pred``."""
    m = size - k
    if m == 0:
        return Masks(sets if pred is None else sets[pred(sets)])
    per_set = math.comb(52 - k, m)
    rows = len(sets) * per_set
    at_least = rows // min(math.comb(size, k), len(sets))
    where = f"the pattern '{shorten(term.text)}' at character {term.position}"
    if pred is None and at_least > MAX_HOLDINGS:
        raise TooLargeError(
            f"{where} matches at least {at_least:,} holdings of {size} cards: pokerlab "
            f"materialises at most {MAX_HOLDINGS:,}; narrow the pattern"
        )
    if rows > _MAX_ROWS:
        raise TooLargeError(
            f"{where} would generate {rows:,} candidate holdings of {size} cards (at most "
            f"{_MAX_ROWS:,}); narrow the pattern"
        )
    combos = _combinations(52 - k, m)
    if dense(rows, size):
        result = _complete_marked(sets, combos, size, pred)
    else:
        result = Masks(_complete_sorted(sets, combos, size, pred, where))
    if len(result) > MAX_HOLDINGS:
        raise TooLargeError(
            f"{where} matches {len(result):,} holdings of {size} cards: pokerlab materialises "
            f"at most {MAX_HOLDINGS:,}; narrow the pattern"
        )
    return result


def _free_cards(sets: NDArray[np.uint64]) -> NDArray[np.intp]:
    """``(len(sets), 52 - k)``: the codes of the cards not in each set, ascending."""
    free = ((sets[:, None] >> _CODES.astype(np.uint64)) & np.uint64(1)) == 0
    return np.nonzero(free)[1].reshape(len(sets), -1)


def _complete_marked(
    sets: NDArray[np.uint64], combos: NDArray[np.uint8], size: int, pred: Pred | None
) -> Masks:
    """:func:`_complete` through a mark array: every completion marked (in parallel), read back
    in order when listed; with a macro, read now and filtered (the same set as filtering first:
    a macro looks at the holding alone)."""
    marks = np.zeros(math.comb(52, size), dtype=np.bool_)
    table = _frozen(_colex(combos, 52 - int(popcount(sets[:1])[0])))
    kernels = _kernels()
    for lo in range(0, len(sets), _STATE_CHUNK):  # (sets, 52) temporaries
        base = sets[lo : lo + _STATE_CHUNK]
        avail = _free_cards(base).astype(np.uint8)
        with _threads_for(len(base) * len(table)):
            kernels.stamp_completions(marks, _frozen(base), _frozen(avail), table)
    result = Masks(marks=marks, size=size)
    return result if pred is None else Masks(_filtered(result.masks, pred))


def _complete_sorted(
    sets: NDArray[np.uint64],
    combos: NDArray[np.uint8],
    size: int,
    pred: Pred | None,
    where: str,
) -> NDArray[np.uint64]:
    """:func:`_complete` by sorting the completions, a batch of sets at a time."""
    m = combos.shape[1]
    per_set = len(combos)
    batch = max(1, _CHUNK // per_set)
    found: list[NDArray[np.uint64]] = []
    kept = 0
    for lo in range(0, len(sets), batch):
        base = sets[lo : lo + batch]
        avail = _free_cards(base)
        for c_lo in range(0, per_set, _CHUNK):
            part = combos[c_lo : c_lo + _CHUNK]
            masks = np.broadcast_to(base[:, None], (len(base), len(part))).copy()
            for j in range(m):
                masks |= _BIT[avail[:, part[:, j]]]
            flat = masks.ravel()
            if pred is not None:
                flat = flat[pred(flat)]
            flat = sorted_unique(flat)
            kept += len(flat)
            if kept > 8 * MAX_HOLDINGS:
                raise TooLargeError(
                    f"{where} matches too many holdings of {size} cards (at most "
                    f"{MAX_HOLDINGS:,} are materialised); narrow the pattern"
                )
            found.append(flat)
    return sorted_unique(np.concatenate(found)) if found else np.zeros(0, dtype=np.uint64)


def _groups_distinct(cards: list[CardPattern]) -> bool:
    """Whether the exact ``cards`` of each no-pair group have distinct ranks."""
    seen: set[tuple[int, int]] = set()
    for card in cards:
        if card.group >= 0:
            key = (card.group, int(_CARD_RANK[card.exact_card]))
            if key in seen:
                return False
            seen.add(key)
    return True


def _term(term: Term, size: int, source: str) -> SetValue:
    pred = _macro_pred(term.macros)
    cards = [c for c in term.cards if not c.is_free]
    if term.is_random_word or not cards:
        return Lazy(pred, 0)
    exact = [c.exact_card for c in cards]
    if min(exact) >= 0:  # only exact cards (distinct: the parser checked)
        sets = np.array([sum(1 << c for c in exact)], dtype=np.uint64)
        if not _groups_distinct(cards):  # (AsAh): a no-pair group of a pair
            sets = sets[:0]
    else:
        sets = _assignments(term, cards)
    value = _complete(term, sets, len(cards), size, pred) if len(sets) else Masks(sets)
    if not len(value):
        raise EmptyRangeError(
            f"invalid range '{shorten(source)}' at character {term.position}: the pattern "
            f"'{shorten(term.text)}' matches no holding of {size} cards"
        )
    return value


def evaluate(
    node: Node, size: int, source: str, memo: dict[tuple[str, str], SetValue] | None = None
) -> SetValue:
    """The set of holdings of an expression tree (``source`` is the text, for errors).
    ``memo``: the sets of the expressions already evaluated in this range, by their canonical
    text, so that a sub-expression written many times is expanded once (``AA`` written 25,000
    times took a minute)."""
    if memo is None:
        memo = {}
    key = (type(node).__name__, node.text)
    known = memo.get(key)
    if known is None:
        known = memo[key] = _evaluate(node, size, source, memo)
    return known


def _evaluate(
    node: Node, size: int, source: str, memo: dict[tuple[str, str], SetValue]
) -> SetValue:
    if isinstance(node, Term):
        return _term(node, size, source)
    if isinstance(node, Percent):
        from pokerlab.ranges._omaha_order import top_masks

        return Masks(
            top_masks(size, node.high)
            if node.low == 0
            else np.setdiff1d(top_masks(size, node.high), top_masks(size, node.low))
        )
    if isinstance(node, Group):  # a part written twice adds nothing to the union
        parts = {part.text: part for part in node.parts}.values()
        return union([evaluate(part, size, source, memo) for part in parts], size)
    first, steps = chain(node)  # the operands of a chain are never chains themselves
    left = evaluate(first, size, source, memo)
    # a step taken before changes nothing when taken again (a set already within b stays so
    # after it loses c; one without c gains none by intersecting): ``a:b!c:b`` is ``a:b!c``
    done = {(":", first.text)}
    for step in steps:
        if (step.op, step.right.text) in done:
            continue
        done.add((step.op, step.right.text))
        card = step.removed_card  # "! As" drops the holdings with the ace of spades
        if card >= 0:
            if isinstance(left, Lazy):
                left = Lazy(left.pred, left.dead | 1 << card)
            else:
                left = Masks(left.masks[_avoiding(left.masks, 1 << card)])
            continue
        right = evaluate(step.right, size, source, memo)
        left = intersect(left, right) if step.op == ":" else difference(left, right, size)
    return left


def codes_of_masks(masks: NDArray[np.uint64], size: int) -> NDArray[np.uint8]:
    """``(n, size)`` card codes of the masks, each row in descending order: the lowest card
    bit taken off ``size`` times (its code is the exponent of the power of two, exact in a
    float), 10-20x faster than unpacking the bits (0.37 s for 6-card Omaha's 1,237,792
    ``AA****`` holdings before, 0.03 s after)."""
    out = np.empty((len(masks), size), dtype=np.uint8)
    for lo in range(0, len(masks), _CHUNK):
        rest = np.array(masks[lo : lo + _CHUNK], dtype=np.uint64)
        for column in range(size - 1, -1, -1):
            low = rest & (~rest + np.uint64(1))
            out[lo : lo + len(rest), column] = np.frexp(low.astype(np.float64))[1] - 1
            rest ^= low
    return out


def descending_codes(asc: NDArray[np.uint64], size: int) -> NDArray[np.uint8]:
    """:func:`codes_of_masks` of the ascending masks ``asc`` in reverse (descending) order, by
    a parallel kernel (the numpy way took 0.26 s for 8.2 M 6-card holdings)."""
    kernels = _kernels()
    if kernels is None:
        return codes_of_masks(asc[::-1], size)
    out = np.empty((len(asc), size), dtype=np.uint8)
    with _threads_for(len(asc)):
        kernels.mask_codes(_frozen(asc.astype(np.uint64, copy=False)), out)
    return out
