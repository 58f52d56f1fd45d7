"""Exact equity: full enumeration of every weighted deal, using symmetry but no approximation.

* Empty board: matchup by matchup (each joint holding), with :func:`_exact.preflop_counts`
  (board rank multisets plus explicit flush boards) and a cache of matchups equal up to suits.
* Flop or turn or river given: board-major (:func:`_runouts.enumerate_runouts`): each runout
  evaluates every combo once, then the joint holdings compare precomputed strengths.

:func:`estimate_seconds` predicts the cost so ``method="auto"`` can choose and a forced exact run
that would take too long is refused with a clear message.
"""

from __future__ import annotations

import math
import threading

import numpy as np
from numpy.typing import NDArray

from pokerlab.engine import _exact, _generic, _preflop_table, _runouts, _stud_sweep
from pokerlab.engine._control import CancelLike, Chunker, ProgressCallback, check
from pokerlab.engine._showdown import RANK_KEY
from pokerlab.engine.problem import Problem
from pokerlab.evaluation._game_tables import load_game_values
from pokerlab.evaluation._kernels import CARD_KEY, CARD_MASK
from pokerlab.evaluation._tables import SLOT_BITS, load_high_tables
from pokerlab.games import Game

__all__ = ["enumerate_exact", "estimate_seconds"]

# Measured on the reference machine (benchmarks/bench_equity.py), deliberately rounded up.
_SECONDS_PER_PREFLOP_MATCHUP = 1.2e-3
_SECONDS_PER_EVAL = 4e-9
_SECONDS_PER_JOINT_HOLDING = 1e-8
_SECONDS_PER_TABLE_LOOKUP = 3e-7
_SECONDS_PER_GENERIC_EVAL = 5e-8
_SECONDS_PER_SWEPT_COMPLETION = 1e-6
_SECONDS_PER_KNOWN_HOLDING = 2e-9
_CACHE_CAPACITY = 1 << 18


def _uses_table(problem: Problem, use_table: bool = True) -> bool:
    """Whether the precomputed heads-up preflop table answers this problem."""
    return (
        use_table
        and problem.n_players == 2
        and len(problem.board) == 0
        and problem.dead_mask == 0
        and _preflop_table.DATA_FILE.exists()
    )


def _matchup_space(problem: Problem) -> int:
    return math.prod(problem.sizes)


def runouts(problem: Problem) -> int:
    to_come = 5 - len(problem.board)
    return math.comb(problem.unseen, to_come)


def deal_count(problem: Problem) -> int:
    """Deals an exact run of a non-hold'em game enumerates (joint holdings x completions),
    counting every joint holding as if it were valid."""
    game = problem.game
    space = _matchup_space(problem)
    if game.is_stud:
        unseen = 52 - bin(problem.dead_mask).count("1") - int(problem.held.sum())
        deals = 1
        for p in range(problem.n_players):
            missing = game.hole_cards - int(problem.held[p])
            deals *= math.comb(unseen, missing)
            unseen -= missing
        return space * deals
    return space * math.comb(problem.unseen, game.board_cards - len(problem.board))


def estimate_seconds(problem: Problem) -> float:
    """A rough upper estimate of the exact enumeration's single-core time (infinite when
    only Monte Carlo can answer: a dealt ``random`` hand in a board game)."""
    if problem.deals_hole_cards:
        return math.inf
    if _sweeps(problem):
        return _sweep_seconds(problem)
    if problem.game.name != "holdem":
        return _deal_seconds(problem)
    space = _matchup_space(problem)
    if len(problem.board) == 0 and _uses_table(problem):
        return space * _SECONDS_PER_TABLE_LOOKUP
    if len(problem.board) == 0:
        cached = problem.n_players <= _exact.CACHE_MAX_PLAYERS and space > 64
        unique = space / 8 if cached else space
        return unique * _SECONDS_PER_PREFLOP_MATCHUP * problem.n_players / 2
    n_runouts = runouts(problem)
    evals = n_runouts * len(problem.combos)
    return evals * _SECONDS_PER_EVAL + n_runouts * space * _SECONDS_PER_JOINT_HOLDING


_local = threading.local()


def _preflop_scratch() -> tuple[NDArray[np.int64], NDArray[np.int64]]:
    """Per-thread scratch of :func:`_exact.preflop_counts` (zeroed once, left zero by it)."""
    if not hasattr(_local, "scratch"):
        slots = 1 << SLOT_BITS  # rank-only keys hash into these slots
        _local.scratch = (np.zeros(slots, dtype=np.int64), np.zeros(slots, dtype=np.int64))
    return _local.scratch  # type: ignore[no-any-return]


def _tables(game: Game | None = None) -> tuple[np.uint64, NDArray[np.uint32], NDArray[np.uint16]]:
    """The evaluators' tables; for a game with an Omaha or a low evaluator, ``values`` is the
    combined table of ``evaluation._game_tables`` (built on first use), else the high one."""
    t = load_high_tables()
    if game is not None and (game.hi_code == _generic.HI_OMAHA or game.lo_code != _generic.LO_NONE):
        return np.uint64(t.multiplier), t.displace, load_game_values()
    return np.uint64(t.multiplier), t.displace, t.values


_NO_IDS = np.zeros(0, dtype=np.int64)
_NO_COUNTS = np.zeros((0, 3), dtype=np.int64)


def _preflop(
    problem: Problem, progress: ProgressCallback | None, cancel: CancelLike, use_table: bool
) -> tuple[NDArray[np.float64], int]:
    n = problem.n_players
    space = _matchup_space(problem)
    use_cache = n <= _exact.CACHE_MAX_PLAYERS
    capacity = min(_CACHE_CAPACITY, space) if use_cache else 1
    table = 1 << max(1, (2 * capacity - 1).bit_length())
    cache_keys = np.full(table, -1, dtype=np.int64)
    cache_rows = np.zeros(table, dtype=np.int64)
    store = np.zeros((capacity, n + 1, n), dtype=np.int64)
    stored = np.zeros(1, dtype=np.int64)
    acc = np.zeros((n + 1, n), dtype=np.float64)
    totals = np.zeros(3, dtype=np.int64)
    mult, displace, values = _tables()
    corr, touched = _preflop_scratch()
    use_pre = _uses_table(problem, use_table)
    pre_ids, pre_counts = _preflop_table.load() if use_pre else (_NO_IDS, _NO_COUNTS)
    done = 0
    chunker = Chunker(first=16)

    def run(size: int) -> None:
        _exact.enumerate_matchups(
            problem.combos, problem.offsets, problem.weights, problem.board,
            np.uint64(problem.dead_mask), done, done + size, use_cache, cache_keys, cache_rows,
            store, stored, acc, totals, corr, touched, use_pre, pre_ids, pre_counts, CARD_KEY,
            CARD_MASK, RANK_KEY, _exact.CHOOSE, mult, displace, values,
        )  # fmt: skip

    while done < space:
        size = min(chunker.size, space - done)
        chunker.timed(run, size)
        done += size
        check(cancel, progress, done / space)
    return acc, int(totals[0])


def _postflop(
    problem: Problem, progress: ProgressCallback | None, cancel: CancelLike
) -> tuple[NDArray[np.float64], int]:
    n = problem.n_players
    # The walk over joint holdings prunes soonest with the smallest ranges first.
    order = np.argsort(problem.sizes, kind="stable")
    parts = [problem.combos[problem.offsets[p] : problem.offsets[p + 1]] for p in order]
    wparts = [problem.weights[problem.offsets[p] : problem.offsets[p + 1]] for p in order]
    combos = np.ascontiguousarray(np.concatenate(parts))
    weights = np.concatenate(wparts)
    offsets = np.zeros(n + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(x) for x in parts])
    out = np.zeros((1, n + 1, n), dtype=np.float64)
    totals = np.zeros(2, dtype=np.int64)
    mult, displace, values = _tables()
    skip = problem.dead_mask | problem.held_mask
    total = math.comb(52 - len(problem.board) - bin(skip).count("1"), 5 - len(problem.board))
    done = 0
    chunker = Chunker(first=8)

    def run(size: int) -> None:
        _runouts.enumerate_runouts(
            combos, offsets, weights, problem.board, np.uint64(skip), done, done + size, False,
            out, totals, CARD_KEY, CARD_MASK, mult, displace, values,
        )  # fmt: skip

    while done < total:
        size = min(chunker.size, total - done)
        chunker.timed(run, size)
        done += size
        check(cancel, progress, done / total)
    # back to the caller's player order
    acc = out[0]
    result = np.zeros_like(acc)
    result[n, 0] = acc[n, 0]
    result[order] = acc[:n]
    return result, int(totals[0])


def enumerate_exact(
    problem: Problem,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
    use_table: bool = True,
) -> tuple[NDArray[np.float64], int]:
    """Hold'em: weighted counts (layout of ``_showdown``) over every deal, and the number of
    deals. ``use_table=False`` ignores the precomputed heads-up preflop table
    (``_preflop_table``) and enumerates every matchup (for tests and benchmarks of the engine
    itself). Other games: see :func:`enumerate_game`."""
    if len(problem.board) == 0:
        return _preflop(problem, progress, cancel, use_table)
    return _postflop(problem, progress, cancel)


def _sweep_seconds(problem: Problem) -> float:
    unseen = 52 - bin(problem.dead_mask).count("1") - int(problem.held.sum())
    per_matchup = sum(math.comb(unseen, 7 - int(h)) for h in problem.held)
    return _matchup_space(problem) * per_matchup * _SECONDS_PER_SWEPT_COMPLETION


def _deal_seconds(problem: Problem) -> float:
    game = problem.game
    if game.is_stud and bool((problem.held == game.hole_cards).all()):
        # enumerate_known_hands: one pass over the last player's holdings per prefix
        return _matchup_space(problem) * _SECONDS_PER_KNOWN_HOLDING
    if not game.is_stud:
        # enumerate_boards: per runout, every holding evaluated once, then the joint walk
        n_runouts = math.comb(problem.unseen, game.board_cards - len(problem.board))
        per_runout = len(problem.combos) * _SECONDS_PER_GENERIC_EVAL
        return n_runouts * (per_runout + _matchup_space(problem) * _SECONDS_PER_JOINT_HOLDING)
    return deal_count(problem) * problem.n_players * _SECONDS_PER_GENERIC_EVAL


def _sweeps(problem: Problem) -> bool:
    """Heads-up stud, where the subset sweep (matchup by matchup) is cheaper than walking the
    deals (it is not when the hands are nearly complete and the ranges large)."""
    if not (problem.game.is_stud and problem.n_players == 2):
        return False
    return _sweep_seconds(problem) < _deal_seconds(problem)


def _split_shares(h: int, lo: int) -> tuple[float, float, float]:
    """Player 1's (pot share, high part, low part) in a deal of high outcome ``h`` and low
    outcome ``lo`` (classes of ``_stud_sweep``)."""
    sweep = _stud_sweep
    hi_share = {sweep.WIN: 1.0, sweep.TIE: 0.5, sweep.LOSS: 0.0}[h]
    if lo == sweep.NO_LOW:
        return hi_share, hi_share, 0.0
    lo_share = {sweep.WIN: 1.0, sweep.TIE: 0.5, sweep.LOSS: 0.0}[lo]
    return (hi_share + lo_share) / 2, hi_share / 2, lo_share / 2


_MIRROR = {_stud_sweep.WIN: _stud_sweep.LOSS, _stud_sweep.LOSS: _stud_sweep.WIN}


def _credit_split(counts: NDArray[np.int64], w: float, stats: NDArray[np.float64]) -> None:
    """Both players' statistics from the split sweep's outcome counts."""
    for h in range(3):
        for lo in range(4):
            c = float(counts[h, lo])
            if c == 0:
                continue
            for p, (hh, ll) in enumerate([(h, lo), (_MIRROR.get(h, h), _MIRROR.get(lo, lo))]):
                share, hi_part, lo_part = _split_shares(hh, ll)
                stats[p, _generic.SHARE] += w * c * share
                stats[p, _generic.SHARE_SQ] += w * c * share * share
                stats[p, _generic.SCOOP] += w * c * (share == 1.0)
                stats[p, _generic.TIE] += w * c * (0.0 < share < 1.0)
                stats[p, _generic.HI_SHARE] += w * c * hi_part
                stats[p, _generic.LO_SHARE] += w * c * lo_part


def _stud_heads_up(problem: Problem, stats: NDArray[np.float64], totals: NDArray[np.int64]) -> None:
    """Exact heads-up stud by :func:`_stud_sweep.heads_up_sweep`, matchup by matchup."""
    game = problem.game
    mult, displace, values = _tables(game)
    masks = problem.combo_masks
    n1, n2 = int(problem.held[0]), int(problem.held[1])
    for a in range(problem.offsets[0], problem.offsets[1]):
        for b in range(problem.offsets[1], problem.offsets[2]):
            if masks[a] & masks[b]:
                continue
            used = int(masks[a] | masks[b]) | problem.dead_mask
            deck = np.array([c for c in range(52) if not used >> c & 1], dtype=np.uint8)
            w = float(problem.weights[a] * problem.weights[b])
            args = (
                problem.combos[a], n1, problem.combos[b], n2, deck, len(deck), game.hole_cards,
                game.hi_code, game.lo_code, _stud_sweep.BINOM, CARD_KEY, CARD_MASK, mult,
                displace, values,
            )  # fmt: skip
            if game.split:
                counts, deals = _stud_sweep.heads_up_split_sweep(*args)
                _credit_split(counts, w, stats)
                stats[2, 0] += w * deals
                totals[0] += deals
                continue
            wins, ties, deals = _stud_sweep.heads_up_sweep(*args)
            losses = deals - wins - ties
            stats[0, _generic.SHARE] += w * (wins + ties / 2)
            stats[1, _generic.SHARE] += w * (losses + ties / 2)
            stats[0, _generic.SHARE_SQ] += w * (wins + ties / 4)
            stats[1, _generic.SHARE_SQ] += w * (losses + ties / 4)
            stats[0, _generic.SCOOP] += w * wins
            stats[1, _generic.SCOOP] += w * losses
            stats[0:2, _generic.TIE] += w * ties
            stats[2, 0] += w * deals
            totals[0] += deals


def enumerate_game(
    problem: Problem,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
) -> tuple[NDArray[np.float64], int]:
    """Any game, through the game-agnostic kernels: split-pot statistics (layout of
    ``_generic``) over every deal, and the number of deals."""
    game = problem.game
    n = problem.n_players
    stats = np.zeros((n + 1, _generic.STATS), dtype=np.float64)
    totals = np.zeros(2, dtype=np.int64)
    mult, displace, values = _tables(game)
    if _sweeps(problem):
        _stud_heads_up(problem, stats, totals)
        check(cancel, progress, 1.0)
        return stats, int(totals[0])
    if game.is_stud and bool((problem.held == game.hole_cards).all()):
        _generic.enumerate_known_hands(
            problem.combos, problem.held, problem.offsets, problem.weights,
            np.uint64(problem.dead_mask), game.hole_cards, game.hi_code, game.lo_code, game.split,
            stats, totals, CARD_KEY, CARD_MASK, mult, displace, values,
        )  # fmt: skip
        check(cancel, progress, 1.0)
        return stats, int(totals[0])
    if game.is_stud:
        _generic.enumerate_stud_deals(
            problem.combos, problem.held, problem.offsets, problem.weights,
            np.uint64(problem.dead_mask), game.hole_cards, game.hi_code, game.lo_code,
            game.split, stats, totals, CARD_KEY, CARD_MASK, mult, displace, values,
        )  # fmt: skip
        check(cancel, progress, 1.0)
        return stats, int(totals[0])
    skip = problem.dead_mask | problem.held_mask
    to_come = game.board_cards - len(problem.board)
    total = math.comb(52 - len(problem.board) - bin(skip).count("1"), to_come)
    done = 0
    chunker = Chunker(first=64)

    def run(size: int) -> None:
        _generic.enumerate_boards(
            problem.combos, problem.held, problem.offsets, problem.weights, problem.board,
            np.uint64(skip), done, done + size, game.hi_code, game.lo_code, game.split, False,
            stats[None], totals, CARD_KEY, CARD_MASK, mult, displace, values,
        )  # fmt: skip

    while done < total:
        size = min(chunker.size, total - done)
        chunker.timed(run, size)
        done += size
        check(cancel, progress, done / total)
    return stats, int(totals[0])
