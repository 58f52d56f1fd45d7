"""Run a query: enumerate every deal (exact) or sample deals without bias (Monte Carlo), compute
the features in the kernel a chunk of deals at a time, and fold the select/where expressions
(numpy over the chunk's feature matrix) into the aggregates.

>>> r = query("select avg(riverEquity(hero)) from game='holdem', hero='AhAs', villain='KdKc'")
>>> r.method, r.deals, round(r.results[0].value, 7)
('exact', 1712304, 0.8125549)
"""

from __future__ import annotations

import dataclasses
import functools
import math
import re
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_whole, tenths
from pokerlab._threads import available_cores, resolve_threads, threads_asked
from pokerlab.analysis.board_categories import MADE
from pokerlab.analysis.query._kinds import EQUITY as K_EQUITY
from pokerlab.analysis.query._kinds import HAND_CAT as K_HAND_CAT
from pokerlab.analysis.query._kinds import OUTS as K_OUTS
from pokerlab.analysis.query.compiler import (
    HAND_TYPES,
    RANK_LETTERS,
    STREETS,
    Compiled,
    _suggest,
    compile_query,
)
from pokerlab.analysis.query.result import AggregateResult, Bucket, QueryResult
from pokerlab.analysis.query.syntax import Query, Source, parse
from pokerlab.engine._control import (
    CancelLike,
    StopFlag,
    check_callbacks,
    check_seed,
    fresh_seed,
    is_cancelled,
    nothing_sampled,
)
from pokerlab.engine.limits import COUNTABLE_TRIALS, check_sampling, check_seconds
from pokerlab.engine.methods import Method, read_method
from pokerlab.engine.problem import Problem, prepare
from pokerlab.engine.tally import StopReason
from pokerlab.errors import (
    CancelledError,
    EmptyRangeError,
    GameError,
    PokerlabError,
    QueryError,
    RangeError,
    TooLargeError,
    flag_argument,
)
from pokerlab.evaluation.codes import HighEval, LowEval, kernel_high
from pokerlab.evaluation.short_deck import category_order
from pokerlab.games import Game
from pokerlab.ranges import Range
from pokerlab.ranges.pattern import PatternRange, pattern_card_count, without_updown_bars

__all__ = [
    "AUTO_EXACT_DEALS",
    "CHUNK",
    "DEFAULT_TIME_LIMIT",
    "DEFAULT_TRIALS",
    "MAX_EXACT_DEALS",
    "query",
]

AUTO_EXACT_DEALS = 3_000_000
"""Without a method in the query, it is exact when it has at most this many deals."""
MAX_EXACT_DEALS = 60_000_000
"""A query forced ``exact`` with more deals than this is refused (:class:`TooLargeError`)."""
DEFAULT_TRIALS = 100_000
"""Deals sampled when the query names no ``trials``, ``stderr`` or ``time``..."""
DEFAULT_TIME_LIMIT = 30.0
"""...within at most this many seconds (a stud street equity computed afresh for each deal
costs up to a tenth of a second a deal: 100,000 deals of ``sixthEquity`` four-handed ran for
hours); also the seconds a run aiming only at a standard error may take."""
CHUNK = 1 << 16
"""Deals per kernel call (features of a chunk are one ``(features, CHUNK)`` matrix)."""
MAX_EQUITY_WORK = 30_000_000
"""A sampled stud query refuses a street equity one computation of which would evaluate more
completions than this (heads-up the engine's sweep over each player's completions, multiway its
walk over every deal)."""
CHUNK_WORK = 1 << 22
"""Sampled stud deals whose street equity changes from deal to deal come in chunks of about
this many completions evaluated (so time limits and cancelling are heard)."""
MAX_BUCKETS = 200
MAX_REJECTS = 20_000_000
"""A sampled run gives up (:class:`EmptyRangeError`) after this many joint draws in a row
that used some card twice (as the equity engine's sampler does)."""
THREADS = min(available_cores(), 8)
"""Most threads that compute a chunk's features (the results do not depend on it): every
available core (the rule of :func:`pokerlab._threads.available_cores`), at most 8."""
MIN_SLICE = 4096

_SETTINGS = ("game", "board", "dead", "trials", "stderr", "time", "seed", "exact", "method")
_RESERVED = {*STREETS, "board", "mc", "montecarlo"}
_BARE_METHODS = ("exact", "mc", "montecarlo")
"""The methods also written alone, as a word of the ``from`` clause."""


@dataclass
class _Request:
    game: str = "holdem"
    board: str = ""
    dead: str = ""
    players: list[tuple[str, str]] = field(default_factory=list)
    method: str = "auto"
    trials: int | None = None
    stderr: float | None = None
    time_limit: float | None = None
    seed: int | None = None
    places: dict[str, str] = field(default_factory=dict)
    """Where the spot's inputs were written, by the field an error names (``board``,
    ``players.1``), as an error leads with it: ``column 40: board``, a player's ``column 31``
    (its messages name the player)."""


def _number(value: float | str | None, key: str, at: str) -> float:
    if not isinstance(value, float) or value <= 0:
        raise QueryError(f"{at}: {key} expects a positive number")
    return value


TEXT_SEED_MAX = 2**53 - 1
"""The largest seed a query's text may give: its numbers are read as floats, whole numbers
exactly up to here (one past it may be a larger number rounded); the ``seed=`` keyword, as
``pokerlab.equity``'s, takes any whole number 0 or more."""


def _integer(value: float | str | None, key: str, at: str, least: int, most: int) -> int:
    """``value`` as a whole number in ``least..most``; the message names ``most`` only to a
    value past it (``trials=0`` was told "from 1 to 4,611,686,018,427,387,904", a bound far
    beyond the CLI's own cap)."""
    whole = isinstance(value, float) and value.is_integer()
    if isinstance(value, float) and value > most:  # 400 digits read as inf: too large, too
        raise QueryError(f"{at}: {key} expects a whole number from {least} to {most:,}")
    if not whole or value < least:  # type: ignore[operator]
        raise QueryError(f"{at}: {key} expects a whole number, {least} or more")
    return int(value)  # type: ignore[arg-type]


def _method_of(s: Source, at: str) -> str:
    """The method a ``from`` item sets: ``exact``, ``mc``/``montecarlo`` or ``method='...'``."""
    if s.value is None:
        return read_method(s.key)
    if not isinstance(s.value, str):
        raise QueryError(f"{at}: method expects a quoted value")
    return _read_method(s.value, f"{at}: ")


def _read_method(value: object, at: str = "") -> str:
    """``value`` read as every entry point reads a method (:func:`read_method`), its refusal a
    :class:`QueryError` (``at`` says where in the text)."""
    try:
        return read_method(value)
    except GameError as exc:
        raise QueryError(f"{at}{exc}", field="method") from None


def _spelling(s: Source) -> str:
    """A method setting as written: ``'mc'`` or ``method='exact'``."""
    return f"'{s.key}'" if s.value is None else f"{s.key}='{s.value}'"


def _check_exact(r: _Request) -> None:
    """Refuse Monte Carlo settings on an exact query, from its text or from the keywords that
    override it (an exact run would ignore them)."""
    if r.method == "exact":
        rules = {"trials": r.trials, "stderr": r.stderr, "time": r.time_limit, "seed": r.seed}
        given = [k for k, v in rules.items() if v is not None]
        if given:
            where = r.places.get(given[0])  # given in the text (not by a keyword): its column
            raise QueryError(f"{'' if where is None else f'{where}: '}{', '.join(given)} "
                             f"set{'s' if len(given) == 1 else ''} Monte Carlo; an exact query "
                             f"would ignore {'it' if len(given) == 1 else 'them'}",
                             field="time_limit" if given[0] == "time" else given[0])  # fmt: skip


def _request(q: Query) -> _Request:
    """The spot and the settings of the ``from`` clause. Each setting is given once: a repeated
    one, or two ways of choosing the method (``exact``, ``mc``, ``method='...'``), is refused
    with the columns of both."""
    r = _Request()
    seen: dict[str, Source] = {}  # setting -> where it was first given
    for s in q.sources:
        key = s.key.lower()
        at = q.at(s)
        setting = "method" if key in _BARE_METHODS else key
        if s.value is None and setting != "method":
            raise QueryError(f"{at}: '{s.key}' needs a value ({s.key}='...') unless it is exact or "
                             "mc")  # fmt: skip
        if s.value is not None and key in _BARE_METHODS:
            raise QueryError(f"{at}: '{s.key}' takes no value; write it alone, or "
                             f"method='{key}'")  # fmt: skip
        if setting in _SETTINGS and setting in seen:
            first = seen[setting]
            if setting != "method":
                raise QueryError(f"{at}: '{s.key}' is set twice (first at {q.at(first)}); give "
                                 "each setting once")  # fmt: skip
            if _method_of(first, q.at(first)) != _method_of(s, at):
                raise QueryError(f"{at}: {_spelling(s)} and {_spelling(first)} ({q.at(first)}) "
                                 "exclude each other")  # fmt: skip
            raise QueryError(f"{at}: {_spelling(s)} sets the method again ({_spelling(first)}, "
                             f"{q.at(first)}); give it once")  # fmt: skip
        if setting in _SETTINGS:
            seen[setting] = s
        if key in ("trials", "stderr", "time", "seed"):  # where a refusal of it points
            r.places[key] = at
        if setting == "method":
            r.method = _method_of(s, at)
        elif key in ("game", "board", "dead"):
            if not isinstance(s.value, str):
                raise QueryError(f"{at}: {key} expects a quoted value")
            setattr(r, key, s.value)
            r.places[key] = f"{at}: {key}"  # the setting named: "column 40: board: ..."
        elif key == "trials":
            r.trials = _integer(s.value, key, at, 1, COUNTABLE_TRIALS)
        elif key == "stderr":
            r.stderr = _number(s.value, key, at)
            if r.stderr >= 1:  # a share of the pot: 0.001, not 5
                raise QueryError(f"{at}: {key} must be below 1 (0.001 is 0.1%), got {s.value:g}")
        elif key == "time":
            r.time_limit = _number(s.value, key, at)
        elif key == "seed":
            r.seed = _integer(s.value, key, at, 0, TEXT_SEED_MAX)
        elif isinstance(s.value, str):
            if any(s.key == n for n, _ in r.players):
                raise QueryError(f"{at}: '{s.key}' names two players")
            if key in _RESERVED:
                raise QueryError(f"{at}: '{s.key}' cannot name a player")
            r.places[f"players.{len(r.players)}"] = at
            r.places.setdefault("players", at)  # the players as a whole: where they begin
            r.players.append((s.key, s.value))
        else:
            raise QueryError(
                f"{at}: unknown setting '{s.key}'{_suggest(s.key, _SETTINGS)}; a player's hand "
                f"or range goes in quotes ({s.key}='...')"
            )
    if not r.players:
        raise QueryError("the query names no player: add e.g. hero='AhKh' to 'from'")
    return r


# --- deals -----------------------------------------------------------------------------------


def _joint_holdings(problem: Problem, limit: int) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """Every joint holding with no card twice (combo indices per player) and its weight;
    empty arrays when there are more than ``limit`` (or, for the first players, 4 ``limit``).
    Pairs are tested :data:`_PAIR_BLOCK` at a time and counted before they are listed: an Omaha
    hand against ``random`` on the river listed 2.3e8 pairs (7.8 GB) before it was refused."""
    masks = problem.combo_masks
    off = problem.offsets
    idx = np.arange(off[0], off[1], dtype=np.int64)[:, None]
    used = masks[idx[:, 0]]
    weight = problem.weights[idx[:, 0]]
    none = np.zeros((0, problem.n_players), dtype=np.int64), np.zeros(0)
    for p in range(1, problem.n_players):
        nxt = np.arange(off[p], off[p + 1], dtype=np.int64)
        cap = limit if p == problem.n_players - 1 else 4 * limit
        step = max(1, _PAIR_BLOCK // max(len(nxt), 1))
        blocks = [slice(lo, lo + step) for lo in range(0, len(idx), step)]
        if len(idx) * len(nxt) > cap:  # else no count can pass the cap
            count = 0
            for rows in blocks:
                count += int(np.count_nonzero((used[rows, None] & masks[nxt][None, :]) == 0))
                if count > cap:
                    return none
        firsts, seconds = [], []
        for rows in blocks:
            a, b = np.nonzero((used[rows, None] & masks[nxt][None, :]) == 0)
            firsts.append(a + rows.start)
            seconds.append(b)
        a, b = np.concatenate(firsts), np.concatenate(seconds)
        idx = np.concatenate([idx[a], nxt[b][:, None]], axis=1)
        used = used[a] | masks[nxt[b]]
        weight = weight[a] * problem.weights[nxt[b]]
    return np.ascontiguousarray(idx), weight


_PAIR_BLOCK = 1 << 22
"""Pairs of holdings :func:`_joint_holdings` tests at once (a 4 MB boolean block)."""


def _completion_table(n: int, stages: list[int]) -> NDArray[np.uint8]:
    """Board completions as positions in an ``n``-card deck: stage by stage, each stage an
    unordered set of cards, earlier stages varying slowest (so deals that share a flop, or a
    turn, come one after another)."""
    from pokerlab.analysis.query import _kernels as K

    table = np.zeros((1, 0), dtype=np.uint8)
    for k in stages:
        left = n - table.shape[1]
        free = np.ones((len(table), n), dtype=bool)
        rows = np.arange(len(table))[:, None]
        free[rows, table] = False
        rest = np.nonzero(free)[1].reshape(len(table), left).astype(np.uint8)
        comb = K.combination_table(left, k)
        table = np.concatenate(
            [np.repeat(table, len(comb), axis=0), rest[:, comb].reshape(-1, k)], axis=1
        )
    return np.ascontiguousarray(table)


def _stages(board_size: int, streets: set[int]) -> list[int]:
    cuts = sorted({s for s in streets if board_size < s < 5} | {5})
    stages, last = [], board_size
    for c in cuts:
        if c > last:
            stages.append(c - last)
            last = c
    return stages


@dataclass(frozen=True)
class _Layout:
    """Where a deal's dealt cards go: ``stages`` (sizes of the unordered card sets the exact
    enumeration deals one after another) and, in stud, ``pos[p, j]`` = the column of player
    ``p``'s ``j``-th dealt card (street order) in a deal's row of dealt cards (``width``) and
    ``cut[s]`` = how many stages deal every player's cards to street ``s`` (a street some
    function looks at)."""

    stages: list[int]
    width: int
    pos: NDArray[np.int64]
    cut: dict[int, int] = field(default_factory=dict)


def _layout(problem: Problem, compiled: Compiled, names: list[str]) -> _Layout:
    """Board games: the board's missing cards, one stage per street a feature looks at. Stud:
    every player's missing cards, street by street (all players' cards up to one street a
    feature looks at, then up to the next ...), so deals that agree up to a street come one
    after another; a street before a player's known cards is refused for ``handType`` and
    ``outs``."""
    game = problem.game
    if not game.is_stud:
        b = len(problem.board)
        return _Layout(_stages(b, compiled.streets), 5, np.zeros((1, 1), dtype=np.int64))
    held = [int(h) for h in problem.held]
    for kind, p, s, _ in compiled.spec:
        if kind in (K_HAND_CAT, K_OUTS) and s < held[p]:
            fn = "handType" if kind == K_HAND_CAT else "outs"
            raise QueryError(
                f"{fn}: {names[p]} shows {held[p]} known cards (their order is not "
                f"given), so the hand on a street before its {held[p]}th card is unknown; ask "
                f"about {_street_name(max(held[p], 3))} street or later"
            )
    cuts = sorted({s for s in compiled.streets if 3 <= s < game.hole_cards} | {game.hole_cards})
    pos = np.zeros((problem.n_players, game.hole_cards), dtype=np.int64)
    last = list(held)
    stages: list[int] = []
    cut: dict[int, int] = {}
    column = 0
    for c in cuts:
        for p in range(problem.n_players):
            if c > last[p]:
                stages.append(c - last[p])
                for j in range(last[p] - held[p], c - held[p]):
                    pos[p, j] = column
                    column += 1
                last[p] = c
        cut[c] = len(stages)
    return _Layout(stages, column, pos, cut)


def _street_name(cards: int) -> str:
    return {3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh"}[cards]


def _early_equities(problem: Problem, compiled: Compiled) -> list[int]:
    """Stud: the streets before seventh of the query's street equities."""
    if not problem.game.is_stud:
        return []
    return sorted({s for kind, _, s, _ in compiled.spec if kind == K_EQUITY and s < 7})


def _equity_group(problem: Problem, compiled: Compiled, layout: _Layout, n_unseen: int) -> int:
    """Exact stud runs: how many consecutive deals share every player's cards by the earliest
    street of a street equity (0 when there is none)."""
    streets = _early_equities(problem, compiled)
    if not streets:
        return 0
    left = n_unseen - int(problem.held.sum())
    group = 1
    for i, k in enumerate(layout.stages):
        if i >= layout.cut[streets[0]]:
            group *= math.comb(left, k)
        left -= k
    return group


def _equity_work(problem: Problem, street: int, n_unseen: int) -> tuple[int, bool]:
    """A stud street equity on ``street``: the completions one computation of it evaluates
    (heads-up: every player's, each with its subsets, as the sweep counts them; multiway: every
    deal, each player's hand) and whether it changes from deal to deal (dealt cards or a range
    among the cards it looks at)."""
    held = [int(h) for h in problem.held]
    lengths = [max(street, h) for h in held]
    left = n_unseen - sum(lengths)
    missing = [problem.game.hole_cards - m for m in lengths]
    if len(held) == 2:
        work = sum(math.comb(left, k) << k for k in missing)
    else:
        work = len(held)
        for k in missing:
            work *= math.comb(left, k)
            left -= k
    varies = lengths != held or any(int(size) > 1 for size in problem.sizes)
    return work, varies


def _sampled_chunk(problem: Problem, compiled: Compiled, n_unseen: int) -> int:
    """Deals per chunk of a sampled run: fewer when a stud street equity is computed afresh for
    most deals; refuses one that one deal could not afford (:data:`MAX_EQUITY_WORK`)."""
    chunk = CHUNK
    for street in _early_equities(problem, compiled):
        work, varies = _equity_work(problem, street, n_unseen)
        name = _street_name(street)
        if work > MAX_EQUITY_WORK:
            raise QueryError(
                f"{name}Equity: sampled, each deal's {name}-street equity would evaluate "
                f"{work:,} completions (more than {MAX_EQUITY_WORK:,}); ask about a later "
                "street, or shrink the spot (fewer players, dead cards) so it runs exact"
            )
        if varies:
            chunk = min(chunk, max(16, CHUNK_WORK // work))
    return chunk


# --- aggregation -----------------------------------------------------------------------------


@dataclass
class _Fold:
    """Running sums of one select item over the deals seen so far."""

    aggregate: str
    type: str
    hand_types: tuple[str, ...] = HAND_TYPES
    sw: float = 0.0  # sum of weights of matched deals
    swx: float = 0.0
    swx2: float = 0.0
    lo: float = math.inf
    hi: float = -math.inf
    buckets: dict[float, float] = field(default_factory=dict)
    count_scale: float = 1.0  # what the weights were divided by (the reported count undoes it)

    def add(self, x: NDArray[np.float64], w: NDArray[np.float64]) -> None:
        if len(x) == 0:
            return
        if self.aggregate == "histogram":
            keys = self._bucket_keys(x)
            small = keys.min() >= 0 and keys.max() < 4096 and (keys == np.floor(keys)).all()
            if small:  # hand types, ranks, flags, equity bins, counts: no sort needed
                sums = np.bincount(keys.astype(np.int64), weights=w)
                uniq = np.nonzero(sums)[0].astype(np.float64)
                sums = sums[sums != 0]
            else:
                uniq, inv = np.unique(keys, return_inverse=True)
                sums = np.bincount(inv, weights=w, minlength=len(uniq))
            for k, s in zip(uniq.tolist(), sums.tolist(), strict=True):
                self.buckets[k] = self.buckets.get(k, 0.0) + s
            if len(self.buckets) > MAX_BUCKETS:
                raise QueryError(
                    f"histogram: more than {MAX_BUCKETS} distinct values; histogram a coarser "
                    "expression"
                )
        wx = w * x  # not w @ x: a BLAS call measured 50x slower on a loaded machine
        self.sw += float(w.sum())
        self.swx += float(wx.sum())
        self.swx2 += float((wx * x).sum())
        self.lo = min(self.lo, float(x.min()))
        self.hi = max(self.hi, float(x.max()))

    def _bucket_keys(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        if self.type == "unit":
            return tenths(x).astype(np.float64)
        return x

    def _label(self, key: float) -> str:
        if self.type == "unit":
            return f"{key / 10:.1f}-{(key + 1) / 10:.1f}"
        if self.type == "bool":
            return "true" if key else "false"
        if self.type == "cat":
            return self.hand_types[int(key)]
        if self.type == "hit":
            return MADE[int(key)].name
        if self.type == "rank":
            return RANK_LETTERS[int(key) - 2]
        return str(int(key)) if float(key).is_integer() else f"{key:g}"

    def _se(self, sw: float, swx: float, swx2: float, n: int, matched: int) -> float | None:
        if matched < 2 or sw <= 0:
            return None  # one deal (sampled, or passing where): no spread to estimate
        spread = max(swx2 - swx * swx / sw, 0.0)
        return math.sqrt(spread * n / (n - 1)) / sw

    def result(self, name: str, sampled: bool, n: int, matched: int) -> AggregateResult:
        """The aggregate over ``n`` deals, ``matched`` of them passing ``where``."""
        agg = self.aggregate
        if self.sw <= 0:
            return AggregateResult(name, agg, None, None if sampled else 0.0)
        if agg == "histogram":
            if self.type == "unit":
                for k in range(10):
                    self.buckets.setdefault(float(k), 0.0)
            if self.type == "bool":
                for key in (0.0, 1.0):
                    self.buckets.setdefault(key, 0.0)
            bars: list[Bucket] = []
            for key in sorted(self.buckets):
                c = self.buckets[key]
                se = self._se(self.sw, c, c, n, matched) if sampled else 0.0
                bars.append(Bucket(self._label(key), c / self.sw, se))
            return AggregateResult(name, agg, bars, None)
        if agg in ("min", "max"):
            v = self.lo if agg == "min" else self.hi
            shown: float | str = self._label(v) if self.type == "cat" else v  # a name, as a bar
            return AggregateResult(name, agg, shown, None if sampled else 0.0)
        value = self.swx / self.sw
        se = self._se(self.sw, self.swx, self.swx2, n, matched) if sampled else 0.0
        count = self.swx * self.count_scale if agg == "count" else None
        return AggregateResult(name, agg, value, se, count)


# --- running ---------------------------------------------------------------------------------


_EqState = tuple[NDArray[np.uint64], NDArray[np.float64], NDArray[np.bool_]]
STREET_CACHE_SLOTS = 4096
"""Stud street equities kept per street and thread (a power of two): each slot holds the last
spot whose key hashed there (``_stud_kernels.spot_key``)."""


@dataclass
class _Tables:
    """The kernel's lookup tables; in stud also each thread's cache of street equities
    (``eq_state``, kept from chunk to chunk) and ``group``: in an exact run with a
    street equity before seventh street, how many consecutive deals share the cards it looks at
    (slices are cut between such groups, so each is computed once)."""

    spec: NDArray[np.int64]
    in_range: NDArray[np.uint8]
    board_sets: NDArray[np.uint64]
    set_offsets: NDArray[np.int64]
    layout: _Layout
    eq_state: list[_EqState] = field(default_factory=list)
    group: int = 0
    min_slice: int = MIN_SLICE


def _tables(compiled: Compiled, problem: Problem, layout: _Layout) -> _Tables:
    masks = problem.combo_masks
    rows = []
    places = compiled.range_places
    for text, p, at in zip(compiled.ranges, compiled.range_players, places, strict=True):
        game = problem.game
        try:
            if game.is_stud:  # the player's known cards
                known = without_updown_bars(text, stud=True)
                size = int(problem.held[p])
                listed = pattern_card_count(known, low_aces=game.low_aces)
                if listed != size:
                    raise QueryError(f"{at}: inRange: the range lists {listed} cards; the "
                                     f"player's known cards are {size}")  # fmt: skip
                held = game.pattern_range(known, size).masks
            elif game.range_syntax == "holdem":
                rng = Range(text)
                held = np.zeros(len(rng.combos), dtype=np.uint64)
                for j in range(rng.combos.shape[1]):
                    held |= np.uint64(1) << rng.combos[:, j].astype(np.uint64)
                held = held[rng.weights > 0]
            else:
                held = game.pattern_range(text).masks
        except RangeError as exc:
            raise QueryError(f"{at}: inRange: {exc}") from None
        row = np.isin(masks, held).astype(np.uint8)
        rows.append(row)
    in_range = np.array(rows, dtype=np.uint8) if rows else np.zeros((1, 1), dtype=np.uint8)
    sets, offsets = [], [0]
    for text in compiled.board_patterns:
        try:
            pat = PatternRange(text, pattern_card_count(text))
        except RangeError as exc:
            raise QueryError(f"boardInRange: {exc}") from None
        sets.append(np.unique(pat.masks))
        offsets.append(offsets[-1] + len(sets[-1]))
    board_sets = np.concatenate(sets) if sets else np.zeros(1, dtype=np.uint64)
    spec = np.array(compiled.spec, dtype=np.int64).reshape(-1, 4)
    n = problem.n_players
    slots = STREET_CACHE_SLOTS if problem.game.is_stud else 1
    state = [(np.zeros((4, slots, n + 1), dtype=np.uint64), np.zeros((4, slots, n)),
              np.zeros((4, slots), dtype=np.bool_)) for _ in range(THREADS)]  # fmt: skip
    return _Tables(spec, np.ascontiguousarray(in_range), board_sets.astype(np.uint64),
                   np.array(offsets, dtype=np.int64), layout, state)  # fmt: skip


def _features(
    tables: _Tables,
    problem: Problem,
    hold: NDArray[np.int64],
    boards: NDArray[np.uint8],
    threads: int = THREADS,
    first: int = 0,
) -> NDArray[np.float64]:
    """Every feature of the deals ``hold``/``boards`` (deals ``first..`` of an exact run)."""
    from pokerlab.analysis import _hits_kernels as H
    from pokerlab.analysis.query import _kernels as K
    from pokerlab.engine._tables import kernel_tables

    game = problem.game
    omaha = game.high == HighEval.OMAHA
    eight = game.low != LowEval.NONE
    card_key, card_mask, mult, displace, values = kernel_tables(game)
    # deals by features: a slice of deals is C-contiguous however the deals are split between
    # threads, so each kernel compiles one overload (column slices of features by deals would be
    # contiguous only when one thread takes them all)
    out = np.zeros((len(hold), len(tables.spec)), dtype=np.float64)

    def run(lo: int, hi: int, slot: int) -> None:
        if game.is_stud:
            from pokerlab.analysis.query._stud_kernels import stud_features

            stud_features(hold[lo:hi], boards[lo:hi], tables.spec, problem.combos, problem.held,
                          tables.layout.pos, tables.in_range, np.uint64(problem.dead_mask),
                          kernel_high(game.high), int(game.low), game.split,
                          game.high == HighEval.NONE, kernel_tables(game),
                          *tables.eq_state[slot], out[lo:hi])  # fmt: skip
            return
        K.deal_features(hold[lo:hi], boards[lo:hi], tables.spec, problem.combos,
                        tables.in_range, tables.board_sets, tables.set_offsets,
                        np.uint64(problem.dead_mask), omaha, eight, card_key, card_mask,
                        mult, displace, values, _levels(game), *H.hit_tables(game),
                        out[lo:hi])  # fmt: skip

    n = len(hold)
    parts = min(threads, THREADS, max(1, n // tables.min_slice))
    cuts = [n * i // parts for i in range(parts + 1)]
    if tables.group > 1:  # whole groups per slice
        g = tables.group
        cuts = sorted({0, n, *(min(n, -(-(first + c) // g) * g - first) for c in cuts[1:-1])})
    if len(cuts) == 2:
        run(0, n, 0)
    else:
        list(_pool().map(run, cuts[:-1], cuts[1:], range(len(cuts) - 1)))
        # the next chunk's first slice goes on from where this chunk's last slice stopped
        last, state = len(cuts) - 2, tables.eq_state
        state[0], state[last] = state[last], state[0]
    return np.ascontiguousarray(out.T)  # features by deals, as the folds read them


@functools.cache
def _pool() -> ThreadPoolExecutor:
    return ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="pokerlab-query")


@functools.cache
def _levels(game: Game) -> NDArray[np.int64]:
    """The place of each usual hand category (0..8) on the scale of ``game``'s strengths: the
    category itself, but in short deck its place in that game's order."""
    order = category_order(game.high)
    levels = np.empty(len(order), dtype=np.int64)
    levels[[int(category) for category in order]] = np.arange(len(order))
    return levels


def _fold_chunk(
    compiled: Compiled, folds: list[_Fold], feats: NDArray[np.float64], w: NDArray[np.float64]
) -> int:
    """Fold one chunk into the running sums; returns how many deals passed ``where``."""
    if compiled.where is not None:
        keep = compiled.where.run(feats) > 0.5
        feats, w = feats[:, keep], w[keep]
    for fold, (name, _, typed) in zip(folds, compiled.select, strict=True):
        x = np.asarray(typed.run(feats), dtype=np.float64)
        if not np.isfinite(x).all():  # a division by zero, or a number past 1.8e308
            raise QueryError(
                f"{name} divides by zero on some deal (leave such deals out with where), or "
                "makes a number too large for a float (about 1.8e308)"
            )
        fold.add(x, w)
    return len(w)


@dataclass(frozen=True)
class _Run:
    """How a run is bounded: threads per chunk, a cap on sampling time, a cancel check."""

    threads: int
    max_seconds: float | None
    cancel: CancelLike
    chunk: int = CHUNK  # sampled deals per kernel call

    def cancelled(self) -> bool:
        return is_cancelled(self.cancel)

    def check(self) -> None:
        if self.cancelled():
            raise CancelledError("the query was cancelled")


def _unseen(problem: Problem) -> NDArray[np.uint8]:
    known = problem.dead_mask
    for c in problem.board.tolist():
        known |= 1 << c
    return np.array([c for c in range(52) if not known >> c & 1], dtype=np.uint8)


def query(
    text: str,
    *,
    method: Method | None = None,
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    progress: Callable[[float], object] | None = None,
    max_seconds: float | None = None,
    cancel: CancelLike = None,
    threads: int | None = None,
    capped: bool = False,
    lift: str = "",
) -> QueryResult:
    """Answer a query (grammar in ``docs/query.md``). Keyword arguments override the settings
    of the query's ``from`` clause (``method``: ``"exact"``, ``"monte-carlo"`` or ``"auto"``).

    For servers: ``max_seconds`` caps a Monte Carlo run's sampling time whatever the query asks
    (it then reports the deals it sampled); ``cancel`` (an event, or a function answering
    whether to stop), checked between chunks of deals, stops an exact run with
    :class:`~pokerlab.errors.CancelledError` and ends a Monte Carlo run with the deals sampled
    so far (at least one chunk), as :func:`pokerlab.equity` does;
    ``threads`` caps the threads that compute a chunk (default: every available core, at most
    :data:`THREADS`; 0, a negative or a non-integer count is a
    :class:`~pokerlab.errors.GameError`; the results do not depend on it).
    ``capped``: refuse stopping rules past the CLI's caps (``engine.limits.check_sampling``),
    from the text or the keywords alike; ``lift`` says how to lift them."""
    started = time.perf_counter()
    n_threads = resolve_threads(threads)
    if max_seconds is not None:  # -1 or NaN sampled one chunk; "1" was a TypeError later
        check_seconds(max_seconds, "max_seconds")
    check_callbacks(cancel, progress=progress)
    seed = check_seed(seed)
    capped = flag_argument(capped, "capped")
    q = parse(text)
    req = _request(q)
    for key, value in (("method", method), ("trials", trials), ("stderr", stderr),
                       ("time_limit", time_limit), ("seed", seed)):  # fmt: skip
        if value is not None:  # numpy's integers as Python ints (the result goes to JSON)
            value = int(value) if key in ("trials", "seed") and is_whole(value) else value
            req.places.pop("time" if key == "time_limit" else key, None)  # not the text's now
            setattr(req, key, _read_method(value) if key == "method" else value)
    _check_exact(req)
    try:
        check_sampling(req.trials, req.stderr, req.time_limit, capped=capped, lift=lift)
    except GameError as exc:
        setting = "time" if exc.field == "time_limit" else exc.field
        raise QueryError(f"{setting}: {exc}", field=exc.field) from None
    try:
        # a 'random' Omaha hand is listed: the query's sampler and enumerator draw holdings
        with threads_asked(min(n_threads, THREADS)):  # a wide range is listed in parallel
            problem = prepare(
                [t for _, t in req.players], req.board, req.dead, req.game
            ).listing_random_hands()
    except PokerlabError as exc:  # "player 2: ..." becomes "villain: ..."
        names = {str(i + 1): n for i, (n, _) in enumerate(req.players)}
        message = re.sub(r"\bplayer (\d+)('s)?",
                         lambda m: names.get(m.group(1), m.group(0)) + (m.group(2) or ""),
                         str(exc))  # fmt: skip
        where = req.places.get(exc.field or "")  # the column of the input at fault, if one is
        message = message if where is None else f"{where}: {message}"
        raise type(exc)(message, field=exc.field) from None
    if problem.shared_card:  # the query's stud streets deal each player seven own cards
        raise QueryError(
            f"{problem.n_players} players run the deck short of a seventh card each, and the "
            "query language does not deal stud's shared seventh-street card: use pokerlab "
            "equity (Monte Carlo) for this table"
        )
    game = problem.game
    omaha = game.high == HighEval.OMAHA
    player_names = [n for n, _ in req.players]
    compiled = compile_query(q, player_names, game.split, omaha, game)
    run = _Run(min(n_threads, THREADS), max_seconds, cancel)
    layout = _layout(problem, compiled, player_names)
    tables = _tables(compiled, problem, layout)
    folds = [_Fold(agg, typed.type, compiled.hand_types) for _, agg, typed in compiled.select]
    unseen = _unseen(problem)
    stages = layout.stages
    left = len(unseen) - int(problem.held.sum())
    per_holding = 1
    for k in stages:
        per_holding *= math.comb(left, k)
        left -= k
    run_exact = False
    joint = np.zeros((0, problem.n_players), dtype=np.int64)
    weights = np.zeros(0)
    if req.method != "monte-carlo":
        limit = (MAX_EXACT_DEALS if req.method == "exact" else AUTO_EXACT_DEALS) // per_holding
        # weights divided by each player's largest, so that their products cannot underflow
        # (AA:1e-200 against QQ:1e-200); a count puts the factor back
        joint, weights = _joint_holdings(problem.with_unit_weights(), max(limit, 1))
        total = len(joint) * per_holding
        run_exact = len(joint) > 0 and total <= limit * per_holding
        if req.method == "exact" and not run_exact:
            raise TooLargeError(
                f"exact enumeration is too large (more than {MAX_EXACT_DEALS:,} deals); "
                "drop 'exact' to sample with a standard error"
            )
    if run_exact:
        count_scale = math.prod(problem.weight_peaks())
        for fold in folds:
            fold.count_scale = count_scale
        tables.group = _equity_group(problem, compiled, layout, len(unseen))
        deals, matched = _run_exact(problem, tables, compiled, folds, joint, weights,
                                    unseen, stages, progress, run)  # fmt: skip
        used_seed = None
        stopped: StopReason = "complete"
    else:
        used_seed = req.seed if req.seed is not None else fresh_seed()
        chunk = _sampled_chunk(problem, compiled, len(unseen))
        run = dataclasses.replace(run, chunk=chunk)
        tables.min_slice = max(1, MIN_SLICE * chunk // CHUNK)
        deals, matched, stopped = _run_sampled(problem, tables, compiled, folds, req, used_seed,
                                               progress, run)  # fmt: skip
    results = tuple(
        fold.result(name, not run_exact, deals, matched)
        for fold, (name, _, _) in zip(folds, compiled.select, strict=True)
    )
    return QueryResult(
        method="exact" if run_exact else "monte-carlo",
        deals=deals,
        matched=matched,
        results=results,
        seconds=time.perf_counter() - started,
        seed=used_seed,
        game=problem.game.name,
        players=tuple((n, t) for (n, _), t in zip(req.players, problem.inputs, strict=True)),
        board=problem.board_text,
        dead=problem.dead_text,
        stopped=stopped,
    )


def _run_exact(
    problem: Problem,
    tables: _Tables,
    compiled: Compiled,
    folds: list[_Fold],
    joint: NDArray[np.int64],
    weights: NDArray[np.float64],
    unseen: NDArray[np.uint8],
    stages: list[int],
    progress: Callable[[float], object] | None,
    run: _Run,
) -> tuple[int, int]:
    from pokerlab.analysis.query import _kernels as K

    comp = _completion_table(len(unseen) - int(problem.held.sum()), stages)
    per = len(comp)
    total = len(joint) * per
    matched = 0
    hold = np.empty((CHUNK, problem.n_players), dtype=np.int64)
    boards = np.empty((CHUNK, tables.layout.width), dtype=np.uint8)
    for start in range(0, total, CHUNK):
        run.check()
        stop = min(start + CHUNK, total)
        n = stop - start
        K.fill_exact_deals(joint, comp, unseen, problem.combos, problem.board, start, stop,
                           hold, boards)  # fmt: skip
        feats = _features(tables, problem, hold[:n], boards[:n], run.threads, start)
        w = weights[np.arange(start, stop) // per]
        matched += _fold_chunk(compiled, folds, feats, w)
        if progress is not None:
            progress(stop / total)
    return total, matched


def _run_sampled(
    problem: Problem,
    tables: _Tables,
    compiled: Compiled,
    folds: list[_Fold],
    req: _Request,
    seed: int,
    progress: Callable[[float], object] | None,
    run: _Run,
) -> tuple[int, int, StopReason]:
    """Deals sampled, deals matched, and why the sampling stopped (as equity's ``stopped``)."""
    from pokerlab.analysis.query import _kernels as K
    from pokerlab.engine._joint_draw import holding_draw
    from pokerlab.engine._sampling import STOPPED, chunk_state  # numba: loaded when a query runs

    trials, target, limit = req.trials, req.stderr, req.time_limit
    if trials is None and target is None and limit is None:
        trials, limit = DEFAULT_TRIALS, DEFAULT_TIME_LIMIT
    if trials is None and limit is None:
        limit = DEFAULT_TIME_LIMIT  # a target no aggregate can reach (nothing passes where)
    draw = holding_draw(problem.combo_masks, problem.offsets, problem.weights)
    dead = np.uint64(problem.dead_mask)
    hold = np.empty((run.chunk, problem.n_players), dtype=np.int64)
    boards = np.empty((run.chunk, tables.layout.width), dtype=np.uint8)
    # no deals: compiles the sampling kernel on its first use before the clock starts (as
    # pokerlab.equity does), so a short time limit is not spent compiling
    K.sample_deals(chunk_state(seed, 0), draw, problem.board, dead, MAX_REJECTS, hold[:0],
                   boards[:0], np.zeros(1, dtype=np.uint8))  # fmt: skip
    started = time.perf_counter()
    deals = matched = 0
    stopped: StopReason = "trials"
    seconds = min((s for s in (limit, run.max_seconds) if s is not None), default=None)
    with StopFlag(run.cancel, seconds) as stop:
        while True:
            n = run.chunk if trials is None else min(run.chunk, trials - deals)
            state = chunk_state(seed, deals // run.chunk)  # the engine's stream of this chunk
            status = K.sample_deals(state, draw, problem.board, dead, MAX_REJECTS, hold[:n],
                                    boards[:n], stop.flag)  # fmt: skip
            if status == -1:
                raise EmptyRangeError(f"the ranges leave almost no valid deal: {MAX_REJECTS:,} "
                                      "joint draws in a row used some card twice")  # fmt: skip
            cut = status <= STOPPED  # stopped by the time limit or a cancel inside the chunk
            if cut:
                n = STOPPED - status
            if n:
                feats = _features(tables, problem, hold[:n], boards[:n], run.threads)
                matched += _fold_chunk(compiled, folds, feats, np.ones(n))
            deals += n
            if cut or run.cancelled():  # what was sampled is still an unbiased estimate
                stopped = "cancelled" if run.cancelled() else "time"
                break
            if trials is not None and deals >= trials:
                break
            if target is not None and deals > 1:
                errors = [f.result("", True, deals, matched).stderr for f in folds
                          if f.aggregate in ("avg", "count")]  # fmt: skip
                if all(e is not None and e <= target for e in errors):
                    stopped = "stderr"
                    break  # with no avg or count to aim at: stops after one chunk
            spent = time.perf_counter() - started
            if any(s is not None and spent >= s for s in (limit, run.max_seconds)):
                stopped = "time"
                break
            if progress is not None:  # deals asked for, else the time allowed
                progress(deals / trials if trials is not None else spent / limit if limit else 0.0)
    if deals == 0:
        raise nothing_sampled(run.cancelled(), seconds)
    return deals, matched, stopped
