"""The exact strategies: full enumeration of every weighted deal, using symmetry but no
approximation. Each is a strategy of :mod:`pokerlab.engine.strategies` (``applies``,
``estimate``, ``run``) and returns a :class:`~pokerlab.engine.tally.Tally`.

* :class:`PreflopTable` and :class:`PreflopMatchups` (two hole cards, one high pot, empty
  board): matchup by matchup (each joint holding), the heads-up ones from the shipped table of
  exact results, the others by :func:`_exact.preflop_counts` (board rank multisets plus explicit
  flush boards) with a cache of matchups equal up to suits.
* :class:`BoardRunouts` (the same games, flop/turn/river given) and :class:`GameBoards` (any
  board game, hi/lo included): board-major: each runout evaluates every holding once, then the
  joint holdings compare precomputed values.
* :class:`StudSweep` (heads-up stud), :class:`StudKnownHands` (stud, complete hands) and
  :class:`StudDeals` (stud, every deal).

Every strategy runs in chunks fixed by the problem (:mod:`pokerlab.engine._parallel`; its
``chunks(work)`` builds them, from a :class:`~pokerlab.engine._parallel.Work`, here or on a
worker), on as many threads as the :class:`~pokerlab.engine._control.Control` allows or on the
workers of its client; the result is the same wherever the chunks run. :meth:`estimate` is a
rough single-core upper estimate (seconds) so ``method="auto"`` can choose and a forced exact run
that would take too long is refused.
"""

from __future__ import annotations

import functools
import itertools
import math
import threading
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import CARD_COUNT
from pokerlab.engine import _preflop_table
from pokerlab.engine._control import Control, StopFlag
from pokerlab.engine._parallel import Chunks, Work, chunk_bounds, chunks_wanted, over, run_chunks
from pokerlab.engine.problem import Problem
from pokerlab.engine.tally import (
    HI_SHARE,
    LO_SHARE,
    SCOOP,
    SHARE,
    SHARE_SQ,
    STATS,
    TIE,
    Tally,
    from_winner_counts,
)
from pokerlab.errors import CancelledError
from pokerlab.evaluation._tables import SLOT_BITS
from pokerlab.evaluation.codes import HighEval, kernel_high
from pokerlab.games import Game

if TYPE_CHECKING:
    from pokerlab.engine._tables import KernelTables

__all__ = [
    "EXACT_STRATEGIES",
    "BoardRunouts",
    "GameBoards",
    "PreflopMatchups",
    "PreflopTable",
    "StudDeals",
    "StudKnownHands",
    "StudSweep",
    "for_enumeration",
    "runout_seconds",
    "runout_stats",
]

# Measured on the reference machine (benchmarks/bench_equity.py), deliberately rounded up.
_SECONDS_PER_PREFLOP_MATCHUP = 1.0e-3  # Zen 4, 3- and 4-way spots (see _matchup_seconds)
_SECONDS_PER_SKIPPED_MATCHUP = 1e-8  # a preflop matchup looked at and skipped
# Hold'em on a board (BoardRunouts, PairRunouts), one scale: set when these kernels ran about
# 3x slower than now, they estimated 0.3-0.45x of the time taken on 1 thread by every spot over
# 10 ms of benchmarks/bench_estimates.py on an Intel Xeon, whose times here match Zen 4's
# (benchmarks/RESULTS.md); halved together, so that the choice between the two strategies
# (PairRunouts where it measured faster) stays as it was.
_SECONDS_PER_EVAL = 2e-9  # a combo's strength on a runout
_SECONDS_PER_PAIR_RUNOUT = 1.8e-10  # a pair of combos compared on one runout (_pairs)
_SECONDS_PER_PAIRS_RUN = 5e-5  # the rest of a PairRunouts run
_SECONDS_PER_JOINT_HOLDING = 5e-9  # a joint holding walked on a runout
_SECONDS_PER_SCANNED_COMBO = 5e-10  # the counted range's combos scanned per joint holding
_SECONDS_PER_COUNTED_HOLDING = 5e-8  # a joint holding against a counted range, sorted
_SECONDS_PER_SORTED_RUNOUT = 1.5e-5  # sorting a counted range once per runout
_SECONDS_PER_ORBIT_MAP = 5e-9  # a runout mapped by one suit symmetry (is it its orbit's first?)
_SECONDS_PER_KEPT_RUNOUT = 3e-8  # a runout that adds what its rank pattern's first one added
_PATTERN_WALKED_SHARE = 0.1  # of the runouts without a flush, those walked: their pattern's first
_PATTERN_MIN_SECONDS = 2e-4  # below this much runout work, runouts are not kept by rank pattern
_SECONDS_PER_TABLE_LOOKUP = 7e-8  # numpy lookups (random vs random: 0.12 s on Zen 3)
_SECONDS_PER_GENERIC_EVAL = 5e-8
_SECONDS_PER_RUNOUT = 3e-8  # the board games' enumeration (GameBoards)
_SECONDS_PER_HOLDING_EVAL = 3e-9
_SECONDS_PER_PAIR_READ = 1e-9  # Omaha: a holding's value is one read per pair of hole cards
_SECONDS_PER_CLASSED = 2e-9  # the widest player's holding, classed against a joint holding
_HOLDINGS_IN_CACHE = 500_000  # past about this many, a holding's reads miss the caches
_SECONDS_PER_AWARD = 7e-8  # a joint holding (or an outcome class) awarded its pot shares
_SECONDS_PER_SWEPT_COMPLETION = 1.5e-7  # a stud sweep's completion (benchmarks/bench_estimates.py)
_SPLIT_SWEEP_FACTOR = 3  # hi/lo stud sweeps evaluate both halves: measured 3.5x slower
_SECONDS_PER_KNOWN_HOLDING = 2e-9
_CACHE_CAPACITY = 1 << 18
_CACHE_BYTES = 32 << 20  # per thread


_Kernel = Callable[[int, int, bool, NDArray[np.float64]], int]
"""A kernel over runouts ``start..stop-1``: statistics into ``out``, returns the deals."""
_Part = tuple[NDArray[np.float64], int]
"""One chunk's partial result: its statistics (or winner counts) and its deals."""


def _heard(deals: int) -> int:
    """A kernel's ``deals``, or :class:`CancelledError` where it was stopped inside (returned
    -1 on reading its stop flag: see :class:`~pokerlab.engine._control.StopFlag`)."""
    if deals < 0:
        raise CancelledError("the computation was cancelled")
    return deals


class _Kernels(NamedTuple):
    exact: Any
    generic: Any
    runouts: Any
    stud_sweep: Any
    rank_key: NDArray[np.uint64]
    tables: Callable[..., KernelTables]


@functools.cache
def _kernels() -> _Kernels:
    """The kernel modules, imported on first use: importing them loads numba (about a second of
    CPU in a fresh process), which a heads-up preflop answer from the table never needs."""
    from pokerlab.engine import _exact, _generic, _runouts, _stud_sweep
    from pokerlab.engine._showdown import RANK_KEY
    from pokerlab.engine._tables import kernel_tables

    return _Kernels(_exact, _generic, _runouts, _stud_sweep, RANK_KEY, kernel_tables)


def _two_card_high(problem: Problem) -> bool:
    """Every player holds two known cards and one high hand takes the pot: what the hold'em
    kernels (``_exact``, ``_runouts``, ``_showdown``) compute, over the game's table (short
    deck's too: its left-out cards are dead cards to them)."""
    return problem.game.two_card_high and not problem.deals_hole_cards


def _space(problem: Problem) -> int:
    return math.prod(problem.sizes)


def _stats_of(counts: NDArray[np.float64]) -> NDArray[np.float64]:
    return from_winner_counts(counts)


# --- preflop: matchup by matchup -----------------------------------------------------------


class _ThreadScratch(threading.local):
    """Per-thread scratch of :func:`_exact.preflop_counts` (zeroed once, left zero by it)."""

    def __init__(self) -> None:
        slots = 1 << SLOT_BITS  # rank-only keys hash into these slots
        self.corr = np.zeros(slots, dtype=np.int64)
        self.touched = np.zeros(slots, dtype=np.int64)


_scratch = _ThreadScratch()


class _MatchupCache:
    """One thread's cache of matchup counts under their canonical suit relabelling."""

    def __init__(self, n: int, space: int, enabled: bool) -> None:
        capacity = min(_CACHE_CAPACITY, space, _CACHE_BYTES // (8 * (n + 1) * n)) if enabled else 1
        table = 1 << max(1, (2 * capacity - 1).bit_length())
        self.keys = np.full(table, -1, dtype=np.int64)
        self.rows = np.zeros(table, dtype=np.int64)
        self.store = np.zeros((capacity, n + 1, n), dtype=np.int64)
        self.stored = np.zeros(1, dtype=np.int64)


def dead_preserving_suit_maps(dead_mask: int) -> NDArray[np.int64]:
    """The suit permutations (row ``g`` maps suit ``s`` to ``[g, s]``; the identity first)
    that map the dead cards onto themselves: preflop, those under which a matchup's counts
    are its image's."""
    dead = [c for c in range(52) if dead_mask >> c & 1]
    maps = [
        perm
        for perm in itertools.permutations(range(4))
        if all(dead_mask >> (4 * (c >> 2) + perm[c & 3]) & 1 for c in dead)
    ]
    return np.array(maps, dtype=np.int64).reshape(-1, 4)


ORBIT_PASS_MAX = 20_000_000
"""Most matchups gathered into suit orbits before any is enumerated (about a second of one
core); a larger space is cut into chunks of matchups, each thread caching its own orbits."""


def _matchup_orbits(
    problem: Problem, perms: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.float64], NDArray[np.int64]]:
    """Every suit orbit of the valid matchups, in the order of its first matchup's index: that
    index, the orbit's summed weight and its number of matchups (``_exact.matchup_orbits``)."""
    kernels = _kernels()
    space = _space(problem)
    # about the estimate's classes (the maps that keep every range too; a guess too small
    # walks the space again with a larger table)
    guess = space * _disjoint_share(problem) / (1 + len(suit_symmetries(problem)))
    slots = 1 << max(4, math.ceil(math.log2(4 * guess + 1)))
    while True:
        ids = np.full(slots, -1, dtype=np.int64)
        wsum = np.zeros(slots, dtype=np.float64)
        count = np.zeros(slots, dtype=np.int64)
        first = np.zeros(slots, dtype=np.int64)
        found = kernels.exact.matchup_orbits(
            problem.combos, problem.offsets, problem.weights, np.uint64(problem.dead_mask), 0,
            space, perms, ids, wsum, count, first,
        )  # fmt: skip
        if found >= 0:
            break
        slots *= 4
    used = np.flatnonzero(ids >= 0)
    order = used[np.argsort(first[used], kind="stable")]
    return first[order], wsum[order], count[order]


def matchup_chunks(problem: Problem) -> Chunks[_Part]:
    """Weighted counts of every matchup. Up to :data:`ORBIT_PASS_MAX` matchups (and players the
    orbit ids can pack), the matchups are first gathered into suit orbits and the chunks are
    runs of orbits, one matchup of each enumerated and weighted by its orbit's weight: each
    orbit is enumerated once whatever the thread count (per-thread caches enumerated an orbit
    once per thread, and two threads ran slower than one). Otherwise chunks of the mixed-radix
    matchup index, each thread caching the orbits it has seen."""
    kernels = _kernels()
    n = problem.n_players
    space = _space(problem)
    use_cache = n <= kernels.exact.CACHE_MAX_PLAYERS
    perms = dead_preserving_suit_maps(problem.dead_mask)
    tables = kernels.tables(problem.game)
    caches: dict[int, _MatchupCache] = {}
    if use_cache and space <= ORBIT_PASS_MAX:
        firsts, wsums, counts = _matchup_orbits(problem, perms)
        ones = np.ones(len(problem.weights))
        no_perms = perms[:0]

        def run_orbits(start: int, stop: int) -> _Part:
            cache = caches.get(threading.get_ident())
            if cache is None:
                cache = caches[threading.get_ident()] = _MatchupCache(n, space, False)
            acc = np.zeros((n + 1, n), dtype=np.float64)
            one = np.zeros((n + 1, n), dtype=np.float64)
            totals = np.zeros(3, dtype=np.int64)
            deals = 0
            for k in range(start, stop):
                index = int(firsts[k])
                one[...] = 0.0
                totals[...] = 0
                kernels.exact.enumerate_matchups(
                    problem.combos, problem.offsets, ones, np.uint64(problem.dead_mask), index,
                    index + 1, False, no_perms, cache.keys, cache.rows, cache.store, cache.stored,
                    one, totals, _scratch.corr, _scratch.touched, kernels.rank_key,
                    kernels.exact.CHOOSE, tables,
                )  # fmt: skip
                acc += wsums[k] * one
                deals += int(counts[k]) * int(totals[0])
            return acc, deals

        return over(run_orbits, chunk_bounds(len(firsts), _matchup_seconds(problem)))

    def run(start: int, stop: int) -> _Part:
        cache = caches.get(threading.get_ident())
        if cache is None:
            cache = caches[threading.get_ident()] = _MatchupCache(n, space, use_cache)
        acc = np.zeros((n + 1, n), dtype=np.float64)
        totals = np.zeros(3, dtype=np.int64)
        kernels.exact.enumerate_matchups(
            problem.combos, problem.offsets, problem.weights, np.uint64(problem.dead_mask), start,
            stop, use_cache, perms, cache.keys, cache.rows, cache.store, cache.stored, acc, totals,
            _scratch.corr, _scratch.touched, kernels.rank_key, kernels.exact.CHOOSE, tables,
        )  # fmt: skip
        return acc, int(totals[0])

    return over(run, chunk_bounds(space, _matchup_seconds(problem)))


def table_chunks(problem: Problem) -> Chunks[_Part]:
    """Weighted counts of every heads-up matchup from the shipped table (numpy lookups)."""

    def run(start: int, stop: int) -> _Part:
        return _preflop_table.lookup(problem.combos, problem.offsets, problem.weights,
                                     problem.combo_masks, start, stop)  # fmt: skip

    return over(run, chunk_bounds(_space(problem), _table_seconds(problem)))


class _Chunked(Protocol):
    name: str

    def chunks(self, work: Work) -> Chunks[_Part]: ...


def _summed(
    strategy: _Chunked,
    problem: Problem,
    control: Control,
    shape: tuple[int, ...],
    winner_counts: bool,
    stop: NDArray[np.uint8] | None = None,
) -> Tally:
    """Run the strategy's chunks of ``problem`` (here or on the client's workers) and add their
    partial results up in chunk order; ``stop``: the flag the chunks' kernels read (see
    :class:`~pokerlab.engine._parallel.Work`)."""
    work = Work(problem, strategy.name) if stop is None else Work(problem, strategy.name, stop=stop)
    total = np.zeros(shape, dtype=np.float64)
    deals = [0]

    def merge(part: _Part) -> None:
        total[...] += part[0]
        deals[0] += part[1]

    run_chunks(strategy.chunks(work), control, merge, work)
    stats = _stats_of(total) if winner_counts else total
    return Tally(stats, deals[0], sampled=False)


def _winner_shape(problem: Problem) -> tuple[int, int]:
    return (problem.n_players + 1, problem.n_players)


def _stats_shape(problem: Problem) -> tuple[int, int]:
    return (problem.n_players + 1, STATS)


def _table_seconds(problem: Problem) -> float:
    return _space(problem) * _SECONDS_PER_TABLE_LOOKUP


def _matchup_seconds(problem: Problem) -> float:
    """Each matchup the cache has not seen (one per class of suit-isomorphic matchups) costs a
    full enumeration of the boards. How many classes the space holds depends on how many suit
    permutations map every range onto itself (``g``, identity included): about ``space / g``
    (24 for suit-blind ranges, 4 with a fixed AsAh, 2 with AcKd): the cache keys a matchup by
    its orbit under those maps (``_exact._orbit_id``). On seven 3- and 4-way spots on Zen 4
    the time taken was 0.58-1.6x this estimate, with no trend in ``g``;
    ``space / g ** 0.75``, fitted earlier on Zen 3, estimated the suit-blind 4-way spots 2x
    high (``QQ+`` x4: 2.0 s, taking 1.0 s, so ``auto`` sampled it). A flat ``space / 8`` made
    ``AcKd`` vs ``random`` vs ``QQ`` look like 1.7 s where it takes 6.8, so ``auto``
    enumerated it. Only matchups that share no card are enumerated (:func:`_disjoint_share`):
    ``AA,KK`` x4 has 20,736 matchups of which 216 are possible, and was estimated at 4.6 s
    where it takes 0.03. Small spaces are enumerated by orbit too: ``AA`` vs ``66`` (36
    matchups, 24 symmetries) in short deck takes 1.4 ms, which counting every matchup had
    estimated at 36 ms."""
    kernels = _kernels()
    space = _space(problem)
    skipped = space * _SECONDS_PER_SKIPPED_MATCHUP
    per_matchup = _SECONDS_PER_PREFLOP_MATCHUP * problem.n_players / 2 * _deck_share(problem)
    seconds = space * _disjoint_share(problem) * per_matchup
    if problem.n_players > kernels.exact.CACHE_MAX_PLAYERS:  # no orbits: every matchup
        return skipped + seconds
    return skipped + seconds / (1 + len(suit_symmetries(problem)))


def _deck_share(problem: Problem) -> float:
    """A matchup's boards in the game's deck over those in the full deck, which the per-matchup
    constant was measured on: short deck's 36 cards leave a three-way matchup 142,506 boards
    of 1,370,754, and its matchups ran 5-14x under an estimate that priced full-deck boards
    (``benchmarks/bench_preflop.py``), so ``auto`` sampled short-deck spots it enumerates in
    well under its budget."""
    cards = 2 * problem.n_players
    removed = CARD_COUNT - problem.game.deck_size
    return math.comb(problem.unseen - cards, 5) / math.comb(problem.unseen + removed - cards, 5)


_SHARE_SAMPLES = 4096


def _disjoint_share(problem: Problem) -> float:
    """The share of joint holdings (one holding per player, every combination) in which no
    two players share a card, from :data:`_SHARE_SAMPLES` drawn uniformly with a fixed seed
    (so the estimate is a function of the problem); never below one in that many, so a share
    too small to see is overestimated rather than taken for 0."""
    share = problem.memo.get("disjoint_share")
    if share is None:
        rng = np.random.default_rng(0)
        masks = problem.combo_masks
        used = np.zeros(_SHARE_SAMPLES, dtype=np.uint64)
        disjoint = np.ones(_SHARE_SAMPLES, dtype=bool)
        for p in range(problem.n_players):
            picked = masks[rng.integers(problem.offsets[p], problem.offsets[p + 1], _SHARE_SAMPLES)]
            disjoint &= (used & picked) == 0
            used |= picked
        share = problem.memo["disjoint_share"] = max(float(disjoint.mean()), 1 / _SHARE_SAMPLES)
    return float(share)


class PreflopTable:
    """Heads-up, empty board, no dead cards: the shipped table of every heads-up preflop matchup
    (:mod:`_preflop_table`), one lookup per matchup in numpy (no kernel: the first answer after
    an install loads no numba)."""

    name = "preflop-table"

    def applies(self, problem: Problem) -> bool:
        return (
            _two_card_high(problem)
            and problem.game.high == HighEval.BEST5  # the table holds full-deck matchups
            and problem.n_players == 2
            and len(problem.board) == 0
            and problem.dead_mask == 0
            and _preflop_table.DATA_FILE.exists()
        )

    def estimate(self, problem: Problem) -> float:
        return _table_seconds(problem)

    def chunks(self, work: Work) -> Chunks[_Part]:
        return table_chunks(work.problem)

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _winner_shape(problem)
        return _summed(self, problem, control, shape, winner_counts=True)


class PreflopMatchups:
    """Empty board: every matchup's boards by board rank multisets and flush boards, where
    that is estimated quicker than :class:`BoardRunouts`' walk of every five-card board (a few
    known hands, narrow ranges; :func:`_preflop_by_runouts`)."""

    name = "preflop-matchups"

    def applies(self, problem: Problem) -> bool:
        return (
            _two_card_high(problem) and len(problem.board) == 0 and not _preflop_by_runouts(problem)
        )

    def estimate(self, problem: Problem) -> float:
        return _matchup_seconds(problem)

    def chunks(self, work: Work) -> Chunks[_Part]:
        return matchup_chunks(work.problem)

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _winner_shape(problem)
        return _summed(self, problem, control, shape, winner_counts=True)


# --- board-major: every runout --------------------------------------------------------------


_NO_SYMMETRY = np.zeros((0, 52), dtype=np.uint8)
_SYMMETRY_SECONDS = 0.02


def suit_symmetries(problem: Problem) -> NDArray[np.uint8]:
    """The suit permutations, identity left out, that map the board, the dead cards and every
    player's weighted range onto themselves, as card maps (one row of 52 per permutation).
    Runouts related by one of them give the same tally (the evaluators never look at which
    suit a card has, only at which cards share one), so the board-major strategies enumerate
    one runout per orbit (``_walk.orbit_size``). AsAhKsKh vs JdTd9c8c: spades and hearts swap.

    >>> from pokerlab.engine.problem import prepare
    >>> len(suit_symmetries(prepare(["AsAhKsKh", "JdTd9c8c"], game="omaha")))
    1

    Found once per problem (``Problem.memo``): the estimate and the run both ask.
    """
    found = problem.memo.get("suit_symmetries")
    if found is None:
        found = problem.memo["suit_symmetries"] = _find_suit_symmetries(problem)
    return found


def _find_suit_symmetries(problem: Problem) -> NDArray[np.uint8]:
    fixed_cards = {int(c) for c in problem.board}
    fixed_cards |= {c for c in range(52) if problem.dead_mask >> c & 1}
    perms = [
        perm
        for perm in itertools.permutations(range(4))
        if perm != (0, 1, 2, 3)
        and all(4 * (c >> 2) + perm[c & 3] in fixed_cards for c in fixed_cards)
    ]  # those that map the board and the dead cards onto themselves
    if not perms:
        return _NO_SYMMETRY
    masks = problem.combo_masks
    codes = np.arange(52)
    found = []
    for perm in perms:
        card_map = (4 * (codes >> 2) + np.array(perm)[codes & 3]).astype(np.uint8)
        if all(_range_maps_onto_itself(problem, p, masks, card_map)
               for p in range(problem.n_players)):  # fmt: skip
            found.append(card_map)
    return np.array(found, dtype=np.uint8).reshape(-1, 52)


def _symmetries_if_worth_it(problem: Problem, seconds: float) -> NDArray[np.uint8]:
    """:func:`suit_symmetries` when the enumeration is estimated (``seconds``, before
    symmetry) to take long enough to repay finding them (a millisecond of Python, up to a
    tenth of a second for wide ranges), else none."""
    return suit_symmetries(problem) if seconds > _SYMMETRY_SECONDS else _NO_SYMMETRY


def _orbits(problem: Problem, seconds: float) -> float:
    """``seconds`` of enumerating every runout, cut to one runout per orbit of the suit
    symmetries the run will use (about one in ``1 + len(symmetries)``), plus the test of every
    runout under each symmetry (is it its orbit's first?): short deck's ``AA`` vs ``66`` took
    16 ms board by board, nearly all of it that test, and was estimated at 1.1 ms."""
    maps = len(_symmetries_if_worth_it(problem, seconds))
    return _runout_total(problem) * maps * _SECONDS_PER_ORBIT_MAP + seconds / (1 + maps)


def _range_maps_onto_itself(
    problem: Problem, p: int, masks: NDArray[np.uint64], card_map: NDArray[np.uint8]
) -> bool:
    rows = slice(int(problem.offsets[p]), int(problem.offsets[p + 1]))
    held = int(problem.held[p])
    images = np.zeros(rows.stop - rows.start, dtype=np.uint64)
    for j in range(held):
        images |= np.uint64(1) << card_map[problem.combos[rows, j]].astype(np.uint64)
    weights = problem.weights[rows]
    before = np.lexsort((weights, masks[rows]))
    after = np.lexsort((weights, images))
    return bool(
        np.array_equal(masks[rows][before], images[after])
        and np.array_equal(weights[before], weights[after])
    )


def _counts_last(problem: Problem) -> bool:
    """Whether the widest range (the last in the walk order of :class:`BoardRunouts`) weighs
    all its combos the same, so ``_runouts`` counts its combos instead of walking them."""
    return problem.uniform[problem.size_order[-1]]


def _keeps_patterns(problem: Problem) -> bool:
    """Whether :class:`BoardRunouts` reuses a runout per rank pattern (``_runouts``): where
    every player is one known hand or a range closed under rank pairs
    (:func:`_ranges_closed_under_rank_pairs`), a runout on which no flush can be made adds what
    any other of its rank pattern adds. Not below :data:`_PATTERN_MIN_SECONDS` of work, where
    finding out (20-40 us) costs more than it saves."""
    choice = problem.memo.get("keeps_patterns")
    if choice is None:
        worth_it = BoardRunouts().runout_seconds(problem) >= _PATTERN_MIN_SECONDS
        choice = worth_it and _ranges_closed_under_rank_pairs(problem)
        problem.memo["keeps_patterns"] = choice
    return bool(choice)


def _ranges_closed_under_rank_pairs(problem: Problem) -> bool:
    """Whether every player is one known hand or a range closed under rank pairs: with any
    combo of two ranks, every other combo of those ranks that the board, dead and known cards
    leave, at the same weight (``random``, pairs, ``AK``; not ``AKs``)."""
    free = problem.free_mask
    left = np.array([(free >> (4 * r) & 0xF).bit_count() for r in range(13)], dtype=np.int64)
    for p, size in enumerate(problem.sizes):
        if size == 1:
            continue
        rows = slice(int(problem.offsets[p]), int(problem.offsets[p + 1]))
        ranks = problem.combos[rows, :2].astype(np.int64) >> 2
        low, high = ranks.min(axis=1), ranks.max(axis=1)
        pair = 13 * low + high
        held = np.bincount(pair, minlength=169)
        present = np.flatnonzero(held)
        a, b = left[present // 13], left[present % 13]
        possible = np.where(present // 13 == present % 13, a * (a - 1) // 2, a * b)
        if not np.array_equal(held[present], possible):
            return False
        if not problem.uniform[p]:  # one weight per rank pair
            order = np.argsort(pair, kind="stable")
            same = pair[order][1:] == pair[order][:-1]
            weights = problem.weights[rows][order]
            if not np.array_equal(weights[1:][same], weights[:-1][same]):
                return False
    return True


def _no_flush_share(problem: Problem) -> float:
    """The share of runouts whose board has at most two cards of each suit (no flush)."""
    unseen = [(problem.free_mask & (0x1111111111111 << s)).bit_count() for s in range(4)]
    on_board = [sum(1 for c in problem.board.tolist() if c & 3 == s) for s in range(4)]
    to_come = problem.game.board_cards - len(problem.board)
    ways = 0
    for split in itertools.product(*(range(max(0, 3 - b)) for b in on_board)):
        if sum(split) == to_come:
            ways += math.prod(math.comb(u, x) for u, x in zip(unseen, split, strict=True))
    return ways / math.comb(sum(unseen), to_come)


def _runout_total(problem: Problem) -> int:
    return math.comb(problem.free_mask.bit_count(), problem.game.board_cards - len(problem.board))


def _stripes(seconds: float, runouts: int, striped: int) -> int:
    """Units per runout of a board enumeration estimated at ``seconds``: with fewer runouts
    (a river: one) than chunks wanted, each is cut into runs of one player's ``striped``
    holdings, so a long river run still uses every core, reports progress and stops."""
    return max(1, min(-(-chunks_wanted(seconds) // runouts), striped))


class BoardRunouts:
    """Two hole cards, one high pot, a flop, turn or river given, or an empty board where this
    is estimated quicker than :class:`PreflopMatchups` (:func:`_preflop_by_runouts`): per
    runout every combo is evaluated once, then the joint holdings compare strengths
    (``_runouts``)."""

    name = "board-runouts"

    def applies(self, problem: Problem) -> bool:
        return _two_card_high(problem) and (len(problem.board) > 0 or _preflop_by_runouts(problem))

    def estimate(self, problem: Problem) -> float:
        return _orbits(problem, self.run_seconds(problem))

    def run_seconds(self, problem: Problem) -> float:
        """The estimate of a run, before suit symmetry: :meth:`runout_seconds`, less the runouts
        that add what the first of their rank pattern added (``_runouts``: where every range is
        closed under rank pairs, those on which no flush can be made, about 60 % preflop; the
        first of each pattern in a chunk is walked, about a tenth of them preflop). Kept in the
        problem's memo: the choice of a strategy and the run ask for it several times."""
        seconds = problem.memo.get("board_run_seconds")
        if seconds is None:
            seconds = self.runout_seconds(problem)
            if _keeps_patterns(problem):
                kept = _runout_total(problem) * _no_flush_share(problem)
                walked = _PATTERN_WALKED_SHARE * kept
                seconds = seconds * (1 - (kept - walked) / _runout_total(problem)) + (
                    kept * _SECONDS_PER_KEPT_RUNOUT
                )
            problem.memo["board_run_seconds"] = seconds
        return float(seconds)

    def runout_seconds(self, problem: Problem) -> float:
        """The estimate of every runout walked, before suit symmetry (that of
        :meth:`by_runout`)."""
        kernels = _kernels()
        n_runouts = math.comb(problem.unseen, 5 - len(problem.board))
        sizes = sorted(problem.sizes)
        per_runout = len(problem.combos) * _SECONDS_PER_EVAL
        if _counts_last(problem):  # as the kernel does (``_runouts``)
            walked = math.prod(sizes[:-1])
            if walked > kernels.runouts.SCAN_MAX_JOINT:
                per_runout += _SECONDS_PER_SORTED_RUNOUT + walked * _SECONDS_PER_COUNTED_HOLDING
            else:
                scanned = sizes[-1] * _SECONDS_PER_SCANNED_COMBO
                per_runout += walked * (_SECONDS_PER_JOINT_HOLDING + scanned)
        else:
            per_runout += math.prod(sizes) * _SECONDS_PER_JOINT_HOLDING
        return n_runouts * per_runout

    def _kernel(
        self, problem: Problem, sym: NDArray[np.uint8], flag: NDArray[np.uint8], stripes: int = 1
    ) -> tuple[_Kernel, list[int]]:
        """The kernel over units (``stripes`` per runout), and the player order it walks in:
        the walk over joint holdings prunes soonest with the smallest ranges first, and the
        last is counted when it can be (:func:`_counts_last`). It reads ``flag`` once per
        runout (:func:`_heard`)."""
        kernels = _kernels()
        order = problem.size_order
        combos, offsets, weights = problem.reordered(order)
        skip = np.uint64(problem.dead_mask | problem.held_mask)
        tables = kernels.tables(problem.game)
        counted = _counts_last(problem)
        dealt = bool(problem.dealt[order[-1]])
        by_pattern = _keeps_patterns(problem)
        dense = strength_classes(problem.game)

        def kernel(start: int, stop: int, by_runout: bool, out: NDArray[np.float64]) -> int:
            totals = np.zeros(2, dtype=np.int64)
            kernels.runouts.enumerate_runouts(
                combos, offsets, weights, problem.board, skip, start, stop, stripes, by_runout,
                sym, counted, dealt, by_pattern, kernels.rank_key, dense, out, totals, tables, flag,
            )  # fmt: skip
            return _heard(int(totals[0]))

        return kernel, order

    def chunks(self, work: Work) -> Chunks[_Part]:
        """Winner counts of chunks of runouts, players in the order of ``_kernel``."""
        problem = work.problem
        shape = (1, *_winner_shape(problem))
        seconds = self.run_seconds(problem)
        runouts = _runout_total(problem)
        sizes = sorted(problem.sizes)  # the last walked player's combos are striped
        stripes = _stripes(seconds, runouts, sizes[-2] if _counts_last(problem) else sizes[-1])
        sym = _symmetries_if_worth_it(problem, seconds)
        kernel, _ = self._kernel(problem, sym, work.stop, stripes)

        def run(start: int, stop: int) -> _Part:
            out = np.zeros(shape, dtype=np.float64)
            deals = kernel(start, stop, False, out)
            return out[0], deals

        return over(run, chunk_bounds(runouts * stripes, seconds))

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _winner_shape(problem)
        with StopFlag(control.cancel, None) as stop:  # a chunk may walk runouts for 0.5 s
            tally = _summed(self, problem, control, shape, winner_counts=False, stop=stop.flag)
        order = problem.size_order  # as _kernel walks them
        return Tally(_stats_of(_unorder(tally.stats, order)), tally.deals, sampled=False)

    def by_runout(self, problem: Problem, control: Control) -> NDArray[np.float64]:
        n = problem.n_players
        total = _runout_total(problem)
        out = np.zeros((total, n + 1, n), dtype=np.float64)
        bounds = chunk_bounds(total, self.runout_seconds(problem))
        with StopFlag(control.cancel, None) as stop:
            kernel, order = self._kernel(problem, _NO_SYMMETRY, stop.flag)
            chunks = over(lambda a, b: kernel(a, b, True, out[a:b]), bounds)
            run_chunks(chunks, replace(control, client=None), lambda _: None)  # into `out`
        return _stats_of(_unorder(out, order))


def _preflop_by_runouts(problem: Problem) -> bool:
    """Whether an empty board is enumerated board by board (:class:`BoardRunouts`: 2.6 million
    five-card boards, fewer by suit symmetry, each combo evaluated once per board) rather than
    matchup by matchup (:class:`PreflopMatchups`, each matchup's boards at once): where its
    estimate is lower, as with ranges against ``random`` hands three or more ways, whose
    matchups run to millions."""
    if len(problem.board) > 0:
        return False
    choice = problem.memo.get("preflop_by_runouts")
    if choice is None:
        by_boards, by_matchups = BoardRunouts().estimate(problem), _matchup_seconds(problem)
        choice = problem.memo["preflop_by_runouts"] = by_boards < by_matchups
    return bool(choice)


def _by_ranks(problem: Problem) -> bool:
    """Whether :class:`BoardRunouts`' kernel counts a dealt ``random`` hand by rank pairs
    against a few walked holdings (``_runouts``: at most ``SCAN_MAX_JOINT``): 0.6-1.4 ms for a
    hand or a pair against ``random`` on a flop, several times below its estimate, which
    prices a scan of the random hand's combos."""
    last = problem.size_order[-1]
    walked = math.prod(sorted(problem.sizes)[:-1])
    return (
        _counts_last(problem)
        and bool(problem.dealt[last])
        and walked <= _kernels().runouts.SCAN_MAX_JOINT
    )


class PairRunouts:
    """Heads-up, two hole cards, one high pot, a flop given: per runout every combo of both
    players is evaluated once, then every pair of combos that share no card compares its two
    rows of strengths, 16 runouts at a time (``_pairs``), one runout per orbit of the suit
    symmetries. It runs where its estimate is below :class:`BoardRunouts`' (which counts the
    wider range by sorting it per runout): ranges of tens to hundreds of combos against each
    other or a ``random`` hand, 2-5x faster there, and weighted ranges, which board runouts
    walk pair by pair (7-14x); ``random`` against wide ranges and a hand or two against anything
    go to :class:`BoardRunouts`."""

    name = "board-pairs"

    def applies(self, problem: Problem) -> bool:
        return (
            _two_card_high(problem)
            and problem.n_players == 2
            and len(problem.board) == 3
            and not _by_ranks(problem)
            and self.estimate(problem) < BoardRunouts().estimate(problem)
        )

    def estimate(self, problem: Problem) -> float:
        return _SECONDS_PER_PAIRS_RUN + _orbits(problem, self.runout_seconds(problem))

    def runout_seconds(self, problem: Problem) -> float:
        """The estimate of every runout, before suit symmetry."""
        pairs = problem.sizes[0] * problem.sizes[1]
        per_runout = len(problem.combos) * _SECONDS_PER_EVAL + pairs * _SECONDS_PER_PAIR_RUNOUT
        return _runout_total(problem) * per_runout

    def chunks(self, work: Work) -> Chunks[_Part]:
        """Winner counts of chunks of runouts (a chunk's strengths held for its pair loop), one
        runout per orbit of the suit symmetries, counted as many times as its orbit holds."""
        from pokerlab.engine import _pairs
        from pokerlab.evaluation import _kernels as K

        problem = work.problem
        tables = _kernels().tables(problem.game)
        board = problem.board.tolist()
        skip = problem.known_mask | problem.held_mask
        deck = np.array([c for c in range(52) if not skip >> c & 1], dtype=np.uint8)
        first, second = np.triu_indices(len(deck), 1)  # the flop's runouts: two cards
        runouts = np.stack((deck[first], deck[second]), axis=1)
        sym = _symmetries_if_worth_it(problem, self.runout_seconds(problem))
        runouts, orbit = _runout_orbits(runouts, sym)
        board_key = np.uint64(int(K.EMPTY_KEY) + sum(int(K.CARD_KEY[c]) for c in board))
        board_mask = np.uint64(np.bitwise_or.reduce(K.CARD_MASK[board]))
        rows = [slice(int(problem.offsets[p]), int(problem.offsets[p + 1])) for p in range(2)]
        combos = [np.ascontiguousarray(problem.combos[r, :2]) for r in rows]
        masks = [problem.combo_masks[r] for r in rows]
        weights = [problem.weights[r] for r in rows]
        shape = _winner_shape(problem)

        def run(start: int, stop: int) -> _Part:
            out = np.zeros(shape, dtype=np.float64)
            deals = _pairs.pair_chunk(
                combos[0], combos[1], masks[0], masks[1], weights[0], weights[1], board_key,
                board_mask, runouts, orbit, start, stop, K.CARD_KEY, K.CARD_MASK, tables.mult,
                tables.displace, tables.values, out,
            )  # fmt: skip
            return out, int(deals)

        # a flop leaves at most C(49, 2) runouts: the orbits sum within the 16-bit sums
        return over(run, chunk_bounds(len(runouts), self.estimate(problem)))

    def run(self, problem: Problem, control: Control) -> Tally:
        return _summed(self, problem, control, _winner_shape(problem), winner_counts=True)


def _runout_orbits(
    runouts: NDArray[np.uint8], sym: NDArray[np.uint8]
) -> tuple[NDArray[np.uint8], NDArray[np.uint16]]:
    """The runouts (rows of two cards, each row ascending) that come first in their orbit
    under the card maps ``sym`` (identity left out; they form a group with it), and each one's
    orbit size, by ascending size (``_pairs.pair_chunk`` sums each size as one run)."""
    if len(sym) == 0:
        return runouts, np.ones(len(runouts), dtype=np.uint16)
    images = np.sort(sym[:, runouts], axis=2).astype(np.int64)  # (maps, runouts, 2)
    own = runouts.astype(np.int64)
    codes = np.vstack(
        (own[None, :, 0] * 52 + own[None, :, 1], images[:, :, 0] * 52 + images[:, :, 1])
    )
    first = codes[0] == codes.min(axis=0)
    size = (1 + (np.diff(np.sort(codes, axis=0), axis=0) != 0).sum(axis=0))[first]
    by_size = np.argsort(size, kind="stable")
    return np.ascontiguousarray(runouts[first][by_size]), size[by_size].astype(np.uint16)


@functools.cache
def strength_classes(game: Game) -> NDArray[np.int64]:
    """``dense[v]``: the place of high-hand strength ``v`` among the strengths of ``game``'s
    table (0 = the weakest; the hand classes and the table's empty slots), for ``_runouts``."""
    values = np.unique(_kernels().tables(game).values)
    dense = np.zeros(int(values[-1]) + 1, dtype=np.int64)
    dense[values] = np.arange(len(values))
    return dense


def _unorder(counts: NDArray[np.float64], order: list[int]) -> NDArray[np.float64]:
    """Winner counts or statistics (rows ``0..n-1`` the players walked in ``order``, row ``n``
    the totals) back in the caller's player order."""
    if all(p == i for i, p in enumerate(order)):
        return counts
    n = len(order)
    out = np.empty_like(counts)
    out[..., n, :] = counts[..., n, :]
    out[..., order, :] = counts[..., :n, :]
    return out


class GameBoards:
    """Any board game (Omaha, hi/lo splits): per runout every holding is evaluated once by the
    game's evaluators, then the joint holdings share the pot (``_generic.enumerate_boards``)."""

    name = "game-boards"

    def applies(self, problem: Problem) -> bool:
        kernels = _kernels()
        game = problem.game
        return (
            not game.is_stud
            and not problem.deals_hole_cards
            and kernels.generic.board_evaluators(kernel_high(game.high), int(game.low))
        )

    def estimate(self, problem: Problem) -> float:
        return _orbits(problem, self.runout_seconds(problem))

    def runout_seconds(self, problem: Problem) -> float:
        """The estimate of every runout, before suit symmetry (that of :meth:`by_runout`).
        Per runout (those of the cards no player always holds): every holding evaluated
        (Omaha: a read per pair of its hole cards), then every joint holding of all players but
        the widest, each against the widest player's holdings (``_generic``); heads-up with
        unit weights counts the holdings instead. A dealt ``random`` hand counts as the
        holdings it lists (:func:`for_enumeration`), so the estimate comes before the list."""
        game = problem.game
        pairs = math.comb(game.hole_cards, 2) if game.high == HighEval.OMAHA else 10
        per_holding = _SECONDS_PER_HOLDING_EVAL + pairs * _SECONDS_PER_PAIR_READ
        sizes = sorted(problem.range_sizes)
        # millions of holdings outgrow the caches: each costs more (a random 6-card Omaha hand
        # on a turn with dead cards, 2.3 M holdings: 4.8x the in-cache cost)
        per_holding *= 1 + sum(sizes) / _HOLDINGS_IN_CACHE
        per_runout = _SECONDS_PER_RUNOUT + sum(sizes) * per_holding
        if problem.n_players == 2 and all(problem.uniform):  # counted by outcome class
            per_runout += sizes[0] * sizes[1] * _SECONDS_PER_CLASSED  # (``count_heads_up``)
        elif sizes[-1] <= _kernels().generic.FEW_HOLDINGS:
            per_runout += math.prod(sizes) * _SECONDS_PER_AWARD
        else:
            walked = math.prod(sizes[:-1])
            per_runout += walked * (_SECONDS_PER_AWARD + sizes[-1] * _SECONDS_PER_CLASSED)
        return _runout_total(problem) * per_runout

    def _kernel(
        self, problem: Problem, sym: NDArray[np.uint8], flag: NDArray[np.uint8], stripes: int = 1
    ) -> _Kernel:
        """The kernel over units (``stripes`` per runout), players in ``problem.size_order``:
        the walk prunes soonest with the smallest ranges first, and the last (widest) range is
        summed by outcome class per joint holding of the others
        (``_generic.award_last_by_outcome``); its statistics come back in that order
        (:func:`_unorder`). It reads ``flag`` once per runout (:func:`_heard`)."""
        kernels = _kernels()
        game = problem.game
        skip = np.uint64(problem.dead_mask | problem.held_mask)
        tables = kernels.tables(game)
        walked = problem.permuted(problem.size_order)
        combos, offsets, weights, held = walked.combos, walked.offsets, walked.weights, walked.held
        holdings = kernels.generic.board_holdings(
            combos, held, offsets, kernel_high(game.high), tables[0], tables[1]
        )

        def kernel(start: int, stop: int, by_runout: bool, out: NDArray[np.float64]) -> int:
            totals = np.zeros(2, dtype=np.int64)
            kernels.generic.enumerate_boards(
                combos, held, offsets, weights, holdings, problem.board, skip, start, stop, stripes,
                kernel_high(game.high), int(game.low), game.split, by_runout, sym, out, totals,
                tables, flag,
            )  # fmt: skip
            return _heard(int(totals[0]))

        return kernel

    def chunks(self, work: Work) -> Chunks[_Part]:
        """Statistics of chunks of runouts, players in ``problem.size_order``."""
        problem = work.problem
        shape = (1, *_stats_shape(problem))
        seconds = self.runout_seconds(problem)
        runouts = _runout_total(problem)
        stripes = _stripes(seconds, runouts, max(problem.sizes))  # the widest is striped
        sym = _symmetries_if_worth_it(problem, seconds)
        kernel = self._kernel(problem, sym, work.stop, stripes)

        def run(start: int, stop: int) -> _Part:
            out = np.zeros(shape, dtype=np.float64)
            deals = kernel(start, stop, False, out)
            return out[0], deals

        return over(run, chunk_bounds(runouts * stripes, seconds))

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _stats_shape(problem)
        with StopFlag(control.cancel, None) as stop:  # a chunk may walk runouts for 0.3 s
            tally = _summed(self, problem, control, shape, winner_counts=False, stop=stop.flag)
        return Tally(_unorder(tally.stats, problem.size_order), tally.deals, sampled=False)

    def by_runout(self, problem: Problem, control: Control) -> NDArray[np.float64]:
        n = problem.n_players
        total = _runout_total(problem)
        out = np.zeros((total, n + 1, STATS), dtype=np.float64)
        bounds = chunk_bounds(total, self.runout_seconds(problem))
        with StopFlag(control.cancel, None) as stop:
            kernel = self._kernel(problem, _NO_SYMMETRY, stop.flag)
            chunks = over(lambda a, b: kernel(a, b, True, out[a:b]), bounds)
            run_chunks(chunks, replace(control, client=None), lambda _: None)  # into `out`
        return _unorder(out, problem.size_order)


def runout_seconds(problem: Problem) -> float:
    """The estimated seconds of one core for :func:`runout_stats` of ``problem`` (or of
    :func:`for_enumeration`'s list of its ``random`` hands): every runout, without the suit
    symmetries an equity run skips runouts by; ``math.inf`` where it does not apply."""
    if problem.deals_hole_cards:
        return GameBoards().runout_seconds(problem)
    strategy = _runout_strategy(problem)
    return math.inf if strategy is None else strategy.runout_seconds(problem)


def _runout_strategy(problem: Problem) -> BoardRunouts | GameBoards | None:
    """The board-major strategy that enumerates ``problem`` runout by runout, if one does."""
    for strategy in (BoardRunouts(), GameBoards()):
        if strategy.applies(problem):
            return strategy
    return None


def for_enumeration(problem: Problem, limit: float = math.inf) -> Problem | None:
    """The problem the exact strategies enumerate: ``problem``, or where a board game deals a
    ``random`` hand (Omaha keeps it as one empty holding, which only Monte Carlo deals), the
    same with those hands listed as every holding of the cards left
    (:meth:`~pokerlab.engine.problem.Problem.listing_random_hands`: 148,995 on an Omaha flop
    against a known hand; more than 5,000,000 is a :class:`~pokerlab.errors.TooLargeError`).
    ``None`` when the enumeration of the list is estimated over ``limit`` seconds, found
    before listing (up to a second), so an ``auto`` run that will sample does not list: the
    list is suit-blind, so the problem keeps the suit symmetries it has without it."""
    if not problem.deals_hole_cards:
        return problem
    if _orbits(problem, runout_seconds(problem)) > limit:
        return None
    return problem.listing_random_hands()


def runout_stats(problem: Problem, control: Control) -> NDArray[np.float64]:
    """Per runout (every completion of the board, in lexicographic order of the unseen cards
    that no player holds in all its holdings), the tally in the engine's one layout: stacked
    ``(runouts, n + 1, STATS)``. For :mod:`pokerlab.analysis.outs`."""
    strategy = _runout_strategy(problem)
    if strategy is None:  # prepare()'s and outs()'s job
        raise ValueError("runouts need a board game with every player's holdings")
    return strategy.by_runout(problem, control)


# --- stud -----------------------------------------------------------------------------------


def _stud_unseen(problem: Problem) -> int:
    return 52 - bin(problem.dead_mask).count("1") - int(problem.held.sum())


def _swept_completions(problem: Problem) -> int:
    """Completions a heads-up stud sweep evaluates per matchup (both players')."""
    unseen = _stud_unseen(problem)
    return sum(math.comb(unseen, problem.game.hole_cards - int(h)) for h in problem.held)


def _sweep_seconds(problem: Problem) -> float:
    per_completion = _SECONDS_PER_SWEPT_COMPLETION
    per_completion *= _SPLIT_SWEEP_FACTOR if problem.game.split else 1
    return _swept_spots(problem) * _swept_completions(problem) * per_completion


_COUNTED_SPOTS_MAX = 1_000_000
"""Heads-up stud matchups up to which the estimate counts the distinct spots the sweep runs
(about 0.1 s at most); past it, every matchup counts."""
_swept_spot_counts: dict[int, int] = {}


def _swept_spots(problem: Problem) -> int:
    """Sweeps a heads-up stud run makes: one per distinct ``spot_key`` (:class:`_SpotOutcomes`),
    counted once per problem where there are at most :data:`_COUNTED_SPOTS_MAX` matchups. Razz
    counts every matchup: its suitless spots are :class:`RankClasses`'s to group (chosen on
    the estimates as before)."""
    space = _space(problem)
    low_only = problem.game.high == HighEval.NONE
    if problem.n_players != 2 or space > _COUNTED_SPOTS_MAX or low_only:
        return space
    found = _swept_spot_counts.get(id(problem))
    if found is None:
        from pokerlab.engine._stud_sweep import spot_hashes

        hashes = spot_hashes(
            problem.combos, int(problem.offsets[0]), problem.sizes[0], int(problem.offsets[1]),
            problem.sizes[1], problem.held, problem.combo_masks, np.uint64(problem.dead_mask),
        )  # fmt: skip
        found = _swept_spot_counts[id(problem)] = max(1, len(np.unique(hashes)))
        weakref.finalize(problem, _swept_spot_counts.pop, id(problem), None)
    return found


def _known_seconds(problem: Problem) -> float:
    return _space(problem) * _SECONDS_PER_KNOWN_HOLDING


def _stud_deal_count(problem: Problem) -> int:
    unseen = _stud_unseen(problem)
    deals = 1
    for p in range(problem.n_players):
        missing = problem.game.hole_cards - int(problem.held[p])
        deals *= math.comb(unseen, missing)
        unseen -= missing
    return _space(problem) * deals


def _deal_seconds(problem: Problem) -> float:
    """Deal by deal (``_generic.enumerate_stud_deals``): about one hand valued per deal (a
    player's hand is valued once for all the deals of the players after it, so the last dealt
    player's dominate) and an award among ``n`` players, priced at a quarter of a valuation
    each (a 3-way stud hi/lo spot: 36 ms taken, 54 ms estimated on an Intel Xeon)."""
    per_deal = 1.0 + 0.25 * problem.n_players
    return _stud_deal_count(problem) * per_deal * _SECONDS_PER_GENERIC_EVAL


def _complete(problem: Problem) -> bool:
    return bool((problem.held == problem.game.hole_cards).all())


def _stud_walk(
    problem: Problem, call: Callable[[int, int, NDArray[np.float64], NDArray[np.int64]], None],
    seconds: float, stripes: int = 0,
) -> Chunks[_Part]:  # fmt: skip
    """A stud kernel, ``call(start, stop, stats, totals)``, over chunks of player 0's holdings;
    with ``stripes``, of ``stripes`` units per holding (``_generic.enumerate_stud_deals``: each
    an equal run of the first dealt player's choices of cards), so a known first hand still
    makes as many chunks as its time needs."""
    n = problem.n_players
    units = problem.sizes[0] * max(stripes, 1)

    def run(start: int, stop: int) -> _Part:
        stats = np.zeros((n + 1, STATS), dtype=np.float64)
        totals = np.zeros(2, dtype=np.int64)
        call(start, stop, stats, totals)
        return stats, int(totals[0])

    return over(run, chunk_bounds(units, seconds))


def _deal_stripes(problem: Problem, seconds: float) -> int:
    """Units per holding of player 0 for ``enumerate_stud_deals``: enough for the chunks that
    ``seconds`` call for, at most the first dealt player's choices of cards."""
    holdings = int(problem.sizes[0])
    wanted = chunks_wanted(seconds)
    if holdings >= wanted:
        return 1
    dealt = next(int(h) for h in problem.held if h < problem.game.hole_cards)
    choices = math.comb(_stud_unseen(problem), problem.game.hole_cards - dealt)
    return max(1, min(math.ceil(wanted / holdings), choices))


class StudSweep:
    """Heads-up stud, matchup by matchup, by the inclusion-exclusion sweep of ``_stud_sweep``
    (only where it is cheaper than walking the deals)."""

    name = "stud-sweep"

    def applies(self, problem: Problem) -> bool:
        if not (problem.game.is_stud and problem.n_players == 2):
            return False
        other = _known_seconds(problem) if _complete(problem) else _deal_seconds(problem)
        return _sweep_seconds(problem) < other

    def estimate(self, problem: Problem) -> float:
        return _sweep_seconds(problem)

    def chunks(self, work: Work) -> Chunks[_Part]:
        kernels = _kernels()
        sweep = kernels.stud_sweep
        problem = work.problem
        game = problem.game
        tables = kernels.tables(game)
        masks = problem.combo_masks
        first, second = problem.sizes
        n1, n2 = int(problem.held[0]), int(problem.held[1])
        parts = 2 if _halves_matchups(problem) else 1
        shared = _SharedInputs(parts)
        spots = _SpotOutcomes(problem)

        def run(start: int, stop: int) -> _Part:
            stats = np.zeros((3, STATS), dtype=np.float64)
            deals = 0
            for unit in range(start, stop):
                index, half = divmod(unit, parts)
                a = int(problem.offsets[0]) + index // second
                b = int(problem.offsets[1]) + index % second
                if masks[a] & masks[b]:
                    continue
                used = int(masks[a] | masks[b]) | problem.dead_mask
                deck = np.array([c for c in range(52) if not used >> c & 1], dtype=np.uint8)
                w = float(problem.weights[a] * problem.weights[b])
                hands = (problem.combos[a], n1, problem.combos[b], n2, deck, len(deck),
                         game.hole_cards, kernel_high(game.high), int(game.low))  # fmt: skip
                args = (*hands, sweep.BINOM, tables)
                if game.split:
                    split_sweep = functools.partial(sweep.heads_up_split_sweep, *args, work.stop)
                    counts, count = spots.get(a, b, split_sweep)
                    _credit_split(counts, w, stats)
                elif parts == 1:
                    whole_sweep = functools.partial(sweep.heads_up_sweep, *args, work.stop)
                    wins, ties, count = spots.get(a, b, whole_sweep)
                    _credit_single(int(wins), int(ties), int(count), w, stats)
                else:
                    completions = functools.partial(
                        sweep.heads_up_completions, *hands, tables, work.stop
                    )
                    listed = functools.partial(_whole, completions, work)
                    sub1, val1, sub2, val2 = shared.get(index, listed)
                    wins, ties, count = sweep.heads_up_sweep_part(
                        sub1, val1, game.hole_cards - n1, sub2, val2, game.hole_cards - n2,
                        len(deck), sweep.BINOM, sweep.LOWER + half, work.stop,
                    )  # fmt: skip
                    _credit_single(int(wins), int(ties), _heard(int(count)), w, stats)
                stats[2, 0] += w * count
                deals += int(count)
            return stats, deals

        return over(run, chunk_bounds(first * second * parts, self.estimate(problem)))

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _stats_shape(problem)
        with StopFlag(control.cancel, None) as stop:  # a sweep (or half of one) takes seconds
            return _summed(self, problem, control, shape, winner_counts=False, stop=stop.flag)


def _whole(compute: Callable[[], Any], work: Work) -> Any:
    """``compute()``, a kernel that ``work.stop`` cuts short, or :class:`CancelledError` once
    that flag is set (then its answer may be partial: never kept, never read)."""
    answer = compute()
    if work.stop[0]:
        raise CancelledError("the computation was cancelled")
    return answer


class _SpotOutcomes:
    """The outcome counts of each heads-up stud matchup, shared by every matchup with the same
    ``_stud_sweep.spot_key`` (the same spot up to a renaming of suits; in razz up to every
    suit): ``KK*`` against ``AA*`` sweeps about one matchup in twenty. Counts are integers
    that equal spots share exactly, so no result depends on which matchup swept first, nor on
    the threads (which share the table; two may sweep one spot at once, harmlessly)."""

    def __init__(self, problem: Problem) -> None:
        self.problem = problem
        self.low_only = problem.game.high == HighEval.NONE
        self.known: dict[tuple[int, ...], Any] = {}

    def get(self, a: int, b: int, sweep: Callable[[], Any]) -> Any:
        """Holdings ``a`` and ``b``'s counts: those of an equal spot, or ``sweep()``'s."""
        from pokerlab.engine._stud_sweep import matchup_key, matchup_scratch

        problem = self.problem
        key = np.zeros(3, dtype=np.uint64)
        matchup_key(problem.combos, a, b, problem.held, np.uint64(problem.dead_mask),
                    self.low_only, key, matchup_scratch())  # fmt: skip
        spot = tuple(key.tolist())
        found = self.known.get(spot)
        if found is None:
            found = sweep()
            _heard(int(found[-1]))  # stopped inside (a sweep's deals -1): nothing to keep
            self.known[spot] = found
        return found


class _SharedInputs:
    """Each matchup's sweep inputs, computed by the first of its ``parts`` halves to ask (the
    other waits for them rather than computing them again: a fifth of a whole sweep) and
    dropped once every half has had them. Halves run on other processes (a cluster) compute
    their own."""

    def __init__(self, parts: int) -> None:
        self.parts = parts
        self.guard = threading.Lock()
        self.entries: dict[int, tuple[threading.Lock, list[Any]]] = {}
        self.served: dict[int, int] = {}

    def get(self, index: int, compute: Callable[[], Any]) -> Any:
        with self.guard:
            lock, box = self.entries.setdefault(index, (threading.Lock(), []))
        with lock:
            if not box:
                box.append(compute())
        with self.guard:
            self.served[index] = self.served.get(index, 0) + 1
            if self.served[index] == self.parts:
                del self.entries[index], self.served[index]
        return box[0]


_HALVED_MAX_MATCHUPS = 8
_HALVED_MIN_COMPLETIONS = 50_000


def _halves_matchups(problem: Problem) -> bool:
    """Whether the stud sweep runs each matchup as two halves that can run at once
    (``_stud_sweep.LOWER``/``UPPER``): a single-pot game with few matchups (else the matchups
    fill the cores) and big sweeps (third street: each half repeats the completions' values,
    a fifth of a whole sweep, so small sweeps stay whole). A function of the problem only."""
    if problem.game.split or _space(problem) > _HALVED_MAX_MATCHUPS:
        return False
    return _swept_completions(problem) >= _HALVED_MIN_COMPLETIONS


def _credit_single(wins: int, ties: int, deals: int, w: float, stats: NDArray[np.float64]) -> None:
    for p, won in enumerate([wins, deals - wins - ties]):
        stats[p, SHARE] += w * (won + ties / 2)
        stats[p, SHARE_SQ] += w * (won + ties / 4)
        stats[p, SCOOP] += w * won
        stats[p, TIE] += w * ties
        stats[p, HI_SHARE] += w * (won + ties / 2)


def _split_shares(h: int, lo: int) -> tuple[float, float, float]:
    """Player 1's (pot share, high part, low part) in a deal of high outcome ``h`` and low
    outcome ``lo`` (classes of ``_stud_sweep``)."""
    sweep = _kernels().stud_sweep
    hi_share = {sweep.WIN: 1.0, sweep.TIE: 0.5, sweep.LOSS: 0.0}[h]
    if lo == sweep.NO_LOW:
        return hi_share, hi_share, 0.0
    lo_share = {sweep.WIN: 1.0, sweep.TIE: 0.5, sweep.LOSS: 0.0}[lo]
    return (hi_share + lo_share) / 2, hi_share / 2, lo_share / 2


def _credit_split(counts: NDArray[np.int64], w: float, stats: NDArray[np.float64]) -> None:
    """Both players' statistics from the split sweep's outcome counts."""
    sweep = _kernels().stud_sweep
    mirror = {sweep.WIN: sweep.LOSS, sweep.LOSS: sweep.WIN}
    for h in range(3):
        for lo in range(4):
            c = float(counts[h, lo])
            if c == 0:
                continue
            for p, (hh, ll) in enumerate([(h, lo), (mirror.get(h, h), mirror.get(lo, lo))]):
                share, hi_part, lo_part = _split_shares(hh, ll)
                stats[p, SHARE] += w * c * share
                stats[p, SHARE_SQ] += w * c * share * share
                stats[p, SCOOP] += w * c * (share == 1.0)
                stats[p, TIE] += w * c * (0.0 < share < 1.0)
                stats[p, HI_SHARE] += w * c * hi_part
                stats[p, LO_SHARE] += w * c * lo_part


class StudKnownHands:
    """Stud with every holding complete (seven known cards): each holding evaluated once; the
    last player's holdings summed by class of equal value (``_generic.enumerate_known_hands``)."""

    name = "stud-known-hands"

    def applies(self, problem: Problem) -> bool:
        return problem.game.is_stud and _complete(problem)

    def estimate(self, problem: Problem) -> float:
        return _known_seconds(problem)

    @staticmethod
    def _order(problem: Problem) -> list[int]:
        """The widest range last (summed by class), the next widest first (the chunks' runs):
        with one known hand first, the whole walk was one chunk (one core, no progress)."""
        by_size = problem.size_order
        return [by_size[-2], *by_size[:-2], by_size[-1]]

    def chunks(self, work: Work) -> Chunks[_Part]:
        """Statistics of runs of the first player's holdings, players in :meth:`_order`; the
        holdings' values and the last player's classes are found once, not per chunk."""
        kernels = _kernels()
        problem = work.problem.permuted(self._order(work.problem))
        game = problem.game
        classes = kernels.generic.known_hand_classes(
            problem.combos, problem.held, problem.offsets, game.hole_cards, kernel_high(game.high),
            int(game.low), kernels.tables(game),
        )  # fmt: skip
        dead = np.uint64(problem.dead_mask)

        def call(start: int, stop: int, stats: NDArray[np.float64], totals: Any) -> None:
            kernels.generic.enumerate_known_hands(
                problem.offsets, problem.combo_masks, problem.weights, dead, start, stop,
                *classes, game.split, stats, totals,
            )  # fmt: skip

        return _stud_walk(problem, call, self.estimate(problem))

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _stats_shape(problem)
        tally = _summed(self, problem, control, shape, winner_counts=False)
        return Tally(_unorder(tally.stats, self._order(problem)), tally.deals, sampled=False)


class StudDeals:
    """Stud: every joint holding and every way to deal each player's missing cards."""

    name = "stud-deals"

    def applies(self, problem: Problem) -> bool:
        return problem.game.is_stud

    def estimate(self, problem: Problem) -> float:
        return _deal_seconds(problem)

    def chunks(self, work: Work) -> Chunks[_Part]:
        kernels = _kernels()
        problem = work.problem
        game = problem.game
        seconds = self.estimate(problem)
        stripes = _deal_stripes(problem, seconds)
        tables = kernels.tables(game)
        dead = np.uint64(problem.dead_mask)

        def call(start: int, stop: int, stats: NDArray[np.float64], totals: Any) -> None:
            kernels.generic.enumerate_stud_deals(
                problem.combos, problem.held, problem.offsets, problem.combo_masks,
                problem.weights, dead, start, stop, stripes, game.hole_cards,
                kernel_high(game.high), int(game.low), game.split, stats, totals, tables,
            )  # fmt: skip

        return _stud_walk(problem, call, seconds, stripes)

    def run(self, problem: Problem, control: Control) -> Tally:
        shape = _stats_shape(problem)
        return _summed(self, problem, control, shape, winner_counts=False)


EXACT_STRATEGIES = (
    PreflopTable(),
    PreflopMatchups(),
    PairRunouts(),
    BoardRunouts(),
    GameBoards(),
    StudSweep(),
    StudKnownHands(),
    StudDeals(),
)
"""The exact strategies, in order of preference: the first that applies runs."""
