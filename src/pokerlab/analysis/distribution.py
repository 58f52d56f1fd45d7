"""Equity distribution: the equity of every combo of a range against the other player(s).

For each player and each of its holdings ``h``, the *combo equity* is the player's equity when
it holds ``h`` (the others' ranges lose the combos that share a card with ``h``), and the
*combo weight* is the probability that the player holds ``h`` in a deal drawn as in
``definitions.md``: proportional to ``h``'s weight times the summed weight of the others' joint
holdings compatible with ``h``. So the weighted mean of a player's combo equities is exactly the
player's equity from :func:`pokerlab.equity`.

Heads-up hold'em (short deck too) with a flop, turn or river is enumerated exactly by a
dedicated kernel that evaluates each combo once per runout and compares every compatible pair.
Everything else (preflop, three or more players, other games) asks :func:`pokerlab.equity` once
per holding (``method`` as there: exact where feasible, else Monte Carlo).

>>> d = equity_distribution("AA,KK,AKs", "QQ,JJ", board="Qs7h2c")
>>> d.method, [(h, round(e, 4)) for h, e in d.players[0].pairs()[:2]]
('exact', [('AsAh', 0.6394), ('AsAd', 0.6394)])
>>> round(d.players[0].equity, 6) == round(1 - d.players[1].equity, 6)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_whole, known_or_none
from pokerlab._results import ArrayFields
from pokerlab._threads import resolve_threads
from pokerlab.cards import Card, format_cards
from pokerlab.engine._control import CancelLike, check_callbacks, check_seed, is_cancelled
from pokerlab.engine.api import MAX_EXACT_SECONDS, equity
from pokerlab.engine.limits import check_exact_options, check_sampling, estimate_text
from pokerlab.engine.methods import Method, read_method
from pokerlab.engine.problem import PlayerInput, Problem, prepare
from pokerlab.errors import CancelledError, EmptyRangeError, GameError, TooLargeError
from pokerlab.games import Game

__all__ = ["Distribution", "PlayerDistribution", "equity_distribution"]

MAX_HOLDINGS = 5_000
"""Most holdings (all players together) whose equities are computed one engine call each."""
RAISE_THE_CAP = "raise the cap (--max-holdings, max_holdings=)"
"""A remedy of a refusal for :data:`MAX_HOLDINGS` (a server, whose cap is fixed, swaps it)."""
MAX_JOINT_STEPS = 200_000_000
"""Most steps of the walk over the other players' joint holdings that weighs each holding."""
DEFAULT_TRIALS = 20_000
"""Deals per holding when a holding's equity is sampled and no ``trials`` is given."""
AUTO_EXACT_SECONDS = 10.0
"""``method="auto"`` outside heads-up hold'em with a board: every holding is enumerated when
the whole distribution is estimated to take at most this many seconds of one core (each
player's holding count times the engine's estimate for the spot with its first holding), else
every holding is sampled. Decided per holding instead, a 3-way preflop spot with a ``random``
hand enumerated 1,378 holdings for 9 minutes."""


@dataclass(frozen=True, eq=False)
class PlayerDistribution(ArrayFields):
    """One player's combos, sorted by equity (highest first).

    ``hands``: the holdings as text; ``weights``: each holding's probability in a deal (they sum
    to 1); ``range_weights``: the weights the range gave them; ``equities``: combo equities;
    ``stderr``: their standard errors (0 when exact). ``equity`` is the player's equity, the
    ``weights``-weighted mean of ``equities``.
    """

    input: str
    equity: float
    hands: tuple[str, ...]
    weights: NDArray[np.float64] = field(repr=False)
    range_weights: NDArray[np.float64] = field(repr=False)
    equities: NDArray[np.float64] = field(repr=False)
    stderr: NDArray[np.float64] = field(repr=False)

    def pairs(self) -> list[tuple[str, float]]:
        """``(hand, equity)`` per combo, highest equity first."""
        return list(zip(self.hands, self.equities.tolist(), strict=True))

    def curve(self) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """The distribution curve: percent of the range (by weight, 0..100) against equity, the
        combos in increasing order of equity (a step curve: one point per combo end)."""
        order = np.argsort(self.equities, kind="stable")
        x = np.concatenate([[0.0], 100.0 * np.cumsum(self.weights[order])])
        y = np.concatenate([self.equities[order][:1], self.equities[order]])
        return x, y

    def to_dict(self) -> dict[str, Any]:
        combos = [
            {
                "hand": h,
                "weight": w,
                "range_weight": rw,
                "equity": e,
                "stderr": known_or_none(s),
            }  # NaN: sampled from one deal, unknown
            for h, w, rw, e, s in zip(
                self.hands,
                self.weights.tolist(),
                self.range_weights.tolist(),
                self.equities.tolist(),
                self.stderr.tolist(),
                strict=True,
            )
        ]
        return {"input": self.input, "equity": self.equity, "combos": combos}


@dataclass(frozen=True)
class Distribution:
    """What :func:`equity_distribution` returns: one :class:`PlayerDistribution` per player."""

    game: str
    board: str
    dead: str
    method: str
    players: tuple[PlayerDistribution, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "board": self.board,
            "dead": self.dead,
            "method": self.method,
            "players": [p.to_dict() for p in self.players],
        }

    def csv_rows(self) -> list[list[str]]:
        """A header and one row per combo: player, input, hand, weight, range weight, equity."""
        rows = [["player", "input", "hand", "weight", "range_weight", "equity", "stderr"]]
        for n, p in enumerate(self.players, start=1):
            for h, w, rw, e, s in zip(
                p.hands,
                p.weights.tolist(),
                p.range_weights.tolist(),
                p.equities.tolist(),
                p.stderr.tolist(),
                strict=True,
            ):
                rows.append([str(n), p.input, h, repr(w), repr(rw), repr(e), repr(s)])
        return rows


def _player(
    text: str,
    hands: list[str],
    range_w: NDArray[np.float64],
    unit_w: NDArray[np.float64],
    joint: NDArray[np.float64],
    eq: NDArray[np.float64],
    err: NDArray[np.float64],
) -> PlayerDistribution:
    """``range_w`` are the weights as the range gave them (reported); ``unit_w`` and ``joint``
    are the same weights and the others' joint weights from :meth:`Problem.with_unit_weights`,
    whose products cannot underflow (``AA:1e-200`` against ``QQ:1e-200``)."""
    keep = joint > 0
    prob = unit_w * joint
    prob = np.where(keep, prob / prob[keep].sum(), 0.0)
    order = [i for i in np.argsort(-eq, kind="stable").tolist() if keep[i]]
    weights = prob[order]
    equities = eq[order]
    return PlayerDistribution(
        input=text,
        equity=float((weights * equities).sum()),
        hands=tuple(hands[i] for i in order),
        weights=weights,
        range_weights=range_w[order],
        equities=equities,
        stderr=err[order],
    )


def _rows(problem: Problem, p: int) -> tuple[NDArray[np.uint8], NDArray[np.float64]]:
    rows = slice(int(problem.offsets[p]), int(problem.offsets[p + 1]))
    return problem.combos[rows, : int(problem.held[p])], problem.weights[rows]


def _headsup_holdem(problem: Problem, raw: Problem, threads: int) -> tuple[PlayerDistribution, ...]:
    from pokerlab.analysis import _distribution_kernels as D
    from pokerlab.engine._tables import kernel_tables
    from pokerlab.evaluation import _kernels as K
    from pokerlab.evaluation._parallel import numba_threads

    tables = kernel_tables(problem.game)  # the short deck's own ranking where it is played
    board = problem.board.tolist()
    # the dead mask holds the cards a short deck leaves out too
    known = set(board) | {c for c in range(52) if problem.dead_mask >> c & 1}
    deck = [c for c in range(52) if c not in known]
    k = 5 - len(board)
    runs = list(combinations(deck, k))
    runouts = np.array(runs, dtype=np.uint8).reshape(len(runs), k)
    board_key = np.uint64(int(K.EMPTY_KEY) + sum(int(K.CARD_KEY[c]) for c in board))
    board_mask = np.uint64(0)
    for c in board:
        board_mask |= K.CARD_MASK[c]
    all_masks = problem.combo_masks
    masks = [all_masks[problem.offsets[p] : problem.offsets[p + 1]] for p in range(2)]
    strengths = []
    wins = np.zeros((len(masks[0]), len(masks[1])), dtype=np.int64)
    with numba_threads(threads):  # integer counts: the same for any thread count
        for p in range(2):
            combos, _ = _rows(problem, p)
            out = np.empty((len(combos), len(runouts)), dtype=np.uint16)
            D.runout_strengths(
                np.ascontiguousarray(combos),
                board_key,
                board_mask,
                runouts,
                K.CARD_KEY,
                K.CARD_MASK,
                tables.mult,
                tables.displace,
                tables.values,
                out,
            )
            strengths.append(out)
        D.pair_wins(strengths[0], strengths[1], masks[0], masks[1], wins)
    compatible = (masks[0][:, None] & masks[1][None, :]) == 0
    per_pair = 2 * math.comb(len(deck) - 4, k)  # twice the runouts each compatible pair meets
    (hero, w_hero), (villain, w_villain) = _rows(problem, 0), _rows(problem, 1)
    z_hero = (compatible * w_villain[None, :]).sum(axis=1)
    z_villain = (compatible * w_hero[:, None]).sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        eq_hero = (wins * w_villain[None, :]).sum(axis=1) / (per_pair * z_hero)
        lost = np.where(compatible, per_pair - wins, 0)
        eq_villain = (lost * w_hero[:, None]).sum(axis=0) / (per_pair * z_villain)
    hands = [[format_cards(c) for c in rows.tolist()] for rows in (hero, villain)]
    stats = ((w_hero, z_hero, eq_hero), (w_villain, z_villain, eq_villain))
    return tuple(
        _player(problem.inputs[p], hands[p], _rows(raw, p)[1], w, z, e, np.zeros(len(w)))
        for p, (w, z, e) in enumerate(stats)
    )


def _enumeration_seconds(problem: Problem, players: Sequence[PlayerInput]) -> float:
    """Estimated seconds of one core to enumerate every holding's spot: for each player, the
    spot with its first holding that leaves a deal, times its holding count. (The whole spot's
    estimate says less: a range's suit symmetries, which the enumeration exploits, mostly
    vanish once one of its holdings is fixed.)"""
    from pokerlab.engine.strategies import exact_strategy

    total = 0.0
    for p in range(problem.n_players):
        holdings, _ = _rows(problem, p)
        for holding in holdings:
            fixed = [*players[:p], format_cards(holding), *players[p + 1 :]]
            try:
                spot = prepare(fixed, problem.board_text, problem.dead_text, problem.game)
            except EmptyRangeError:
                continue
            strategy = exact_strategy(spot)
            if strategy is None:
                return math.inf
            total += len(holdings) * strategy.estimate(spot)
            break
    return total


def _summed_player(problem: Problem, p: int) -> int:
    """The other player whose holdings :func:`_distribution_kernels.joint_weight` sums by
    their cards instead of walking them when weighing player ``p``'s holdings: the one with the
    most holdings among those holding two cards each (-1 for none)."""
    two_card = [q for q in range(problem.n_players) if q != p and int(problem.held[q]) == 2]
    return max(two_card, key=problem.sizes.__getitem__, default=-1)


def _pair_weights(
    problem: Problem, q: int
) -> tuple[float, NDArray[np.float64], NDArray[np.float64]]:
    """Player ``q``'s total holding weight, the weight of its holdings with each card and of
    each two-card holding (index ``52 c + d``, ``c < d``), for
    :func:`_distribution_kernels.joint_weight`; empty tables when ``q`` is -1."""
    if q < 0:
        return 0.0, np.zeros(0), np.zeros(0)
    cards, weights = _rows(problem, q)
    low = cards.min(axis=1).astype(np.int64)
    high = cards.max(axis=1).astype(np.int64)
    single = np.bincount(low, weights, 52) + np.bincount(high, weights, 52)
    pair = np.bincount(52 * low + high, weights, 52 * 52)
    return float(weights.sum()), single.astype(np.float64), pair.astype(np.float64)


def _holding_seed(seed: int | None, player: int, holding: int) -> int | None:
    """The seed of holding ``holding`` of player ``player``'s engine run: one drawn from
    ``seed`` by numpy's ``SeedSequence`` with that place as its spawn key (the engine spawns
    its chunks' streams from it the same way). With one seed for every holding, every holding
    sampled the same deals, and their errors moved together instead of averaging out."""
    if seed is None:
        return None
    state = np.random.SeedSequence(seed, spawn_key=(player, holding)).generate_state(2, np.uint64)
    return int(state[0]) << 64 | int(state[1])


def _check_cancel(cancel: CancelLike, done: int, total: int) -> None:
    """Raise :class:`~pokerlab.errors.CancelledError` when ``cancel`` says so (``done`` of
    ``total`` holdings computed)."""
    if is_cancelled(cancel):
        raise CancelledError(f"the distribution was cancelled after {done:,} of {total:,} holdings")


def _per_holding(
    problem: Problem,
    raw: Problem,
    players: Sequence[PlayerInput],
    method: Method,
    trials: int | None,
    seed: int | None,
    max_holdings: int,
    threads: int,
    progress: Callable[[float], object] | None,
    cancel: CancelLike,
) -> tuple[tuple[PlayerDistribution, ...], bool]:
    from pokerlab.analysis import _distribution_kernels as D

    # a dealt 'random' hand (Omaha's '****' too) is listed: each holding gets its equity
    problem, raw = problem.listing_random_hands(), raw.listing_random_hands()
    masks = problem.combo_masks
    sampled = False
    out = []
    total = sum(problem.sizes)
    if total > max_holdings:
        raise TooLargeError(
            f"{total:,} holdings in all: an equity per holding is computed for at "
            f"most {max_holdings:,} outside heads-up hold'em with a board (each one an equity "
            f"run)",
            field="players",
            remedies=("narrow the ranges", RAISE_THE_CAP),
        )
    summed = [_summed_player(problem, p) for p in range(problem.n_players)]
    steps = sum(
        size * math.prod(n for q, n in enumerate(problem.sizes) if q not in (p, summed[p]))
        for p, size in enumerate(problem.sizes)
    )
    if steps > MAX_JOINT_STEPS:
        raise TooLargeError(
            f"weighing each holding by the others' joint holdings takes about {steps:,.0f} "
            "steps with these ranges; narrow them or use fewer players",
            field="players",
        )
    if method in ("auto", "exact"):
        whole = _enumeration_seconds(problem, players)
        if method == "auto":
            method = "exact" if whole <= AUTO_EXACT_SECONDS else "monte-carlo"
        elif whole > MAX_EXACT_SECONDS:  # as a forced exact equity run is refused
            work = "unbounded work" if math.isinf(whole) else f"about {estimate_text(whole)}"
            raise TooLargeError(
                f"an exact distribution is too large: {work} of one core ({total:,} holdings, "
                f"each an exact equity run), over the limit of {MAX_EXACT_SECONDS:,g} s; use "
                "Monte Carlo (--mc, method='monte-carlo') or narrow the ranges",
                field="method",
            )
    if method == "exact":  # "auto" chose it: the sampling options do not apply
        trials = seed = None
    elif trials is None:
        trials = DEFAULT_TRIALS
    done = 0
    for p in range(problem.n_players):
        holdings, unit_w = _rows(problem, p)
        n = len(holdings)
        joint = np.zeros(n)
        eq = np.zeros(n)
        err = np.zeros(n)
        hands = [format_cards(h) for h in holdings.tolist()]
        start = int(problem.offsets[p])
        last = summed[p]
        last_total, single, pair = _pair_weights(problem, last)
        for i in range(n):
            _check_cancel(cancel, done + i, total)
            if progress is not None:
                progress((done + i) / total)
            joint[i] = D.joint_weight(masks, problem.weights, problem.offsets, p,
                                      masks[start + i], last, last_total, single, pair)  # fmt: skip
            if joint[i] == 0:
                continue
            fixed = [*players[:p], hands[i], *players[p + 1 :]]
            try:
                result = equity(
                    fixed,
                    problem.board_text,
                    problem.dead_text,
                    problem.game,
                    method,
                    trials=trials,
                    seed=_holding_seed(seed, p, i),
                    threads=threads,
                    cancel=cancel,
                )
            except EmptyRangeError:  # pragma: no cover - joint > 0 means some deal exists
                joint[i] = 0
                continue
            sampled |= result.method == "monte-carlo"
            eq[i] = result.players[p].equity
            err[i] = result.players[p].stderr
        done += n
        out.append(_player(problem.inputs[p], hands, _rows(raw, p)[1], unit_w, joint, eq, err))
    _check_cancel(cancel, total, total)  # a sampled last holding ends early on it, unnoticed
    if progress is not None:
        progress(1.0)
    return tuple(out), sampled


def equity_distribution(
    hero: PlayerInput,
    villain: PlayerInput | Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
    method: Method = "auto",
    *,
    trials: int | None = None,
    seed: int | None = None,
    max_holdings: int = MAX_HOLDINGS,
    threads: int | None = None,
    progress: Callable[[float], object] | None = None,
    cancel: CancelLike = None,
) -> Distribution:
    """The equity of every combo of ``hero``'s range (and of each villain's) against the
    others; ``villain`` is one hand or range, or a list of them (multiway). Other arguments are
    those of :func:`pokerlab.equity`; ``trials`` (default :data:`DEFAULT_TRIALS`) and ``seed``
    apply per holding when a holding's equity is sampled (``method="monte-carlo"``, or
    ``"auto"`` where enumerating every holding would take more than
    :data:`AUTO_EXACT_SECONDS`; with ``method="exact"`` they are refused): each holding samples
    its own random streams, derived from ``seed`` and its place (:func:`_holding_seed`), so the
    holdings' errors are independent and average out in a player's mean.
    ``progress(fraction)`` is called after each holding's engine call (not in heads-up hold'em
    with a board, which takes milliseconds); ``cancel`` (an event, or a function answering
    whether to stop) is checked before each holding and handed to its engine call: a cancelled
    run raises :class:`~pokerlab.errors.CancelledError` (a distribution has no partial result).
    Outside heads-up hold'em with a board, more than ``max_holdings`` holdings in all are
    refused (:class:`~pokerlab.errors.TooLargeError`). ``threads``: how many threads to run
    on (default: every available core, see :func:`pokerlab._threads.resolve_threads`); the
    result is the same for any count (with a ``seed``, sampled ones too).
    """
    method = read_method(method)
    check_exact_options(method, trials=trials, seed=seed)
    seed = check_seed(seed)  # before a holding's seed is derived from it
    check_sampling(trials, capped=False, named=True)  # a whole number the kernels count
    check_callbacks(cancel, progress=progress)
    if not is_whole(max_holdings) or max_holdings < 1:
        raise GameError(
            f"must be a whole number of holdings, 1 or more, got {max_holdings!r}",
            field="max_holdings",
        )
    n_threads = resolve_threads(threads)
    villains = (
        [villain]
        if isinstance(villain, str) or not isinstance(villain, Sequence)
        else list(villain)
    )
    players: list[PlayerInput] = [hero, *villains]
    raw = prepare(players, board, dead, game)
    problem = raw.with_unit_weights()
    fast = (
        problem.game.range_syntax == "holdem"  # hold'em or short deck: two cards, one high hand
        and problem.n_players == 2
        and len(problem.board) >= 3
        and method in ("auto", "exact")
    )
    if fast:  # milliseconds, with no check inside: a cancel already asked for is heard here
        _check_cancel(cancel, 0, int(problem.sizes[0]))
        result = _headsup_holdem(problem, raw, n_threads)
        sampled = False
    else:
        result, sampled = _per_holding(
            problem, raw, players, method, trials, seed, max_holdings, n_threads, progress, cancel
        )
    return Distribution(
        game=problem.game.name,
        board=problem.board_text,
        dead=problem.dead_text,
        method="monte-carlo" if sampled else "exact",
        players=result,
    )


def street_boards(board: str | Sequence[int | str | Card]) -> list[str]:
    """The board of each street up to ``board``: from the flop (or preflop for no board).

    >>> street_boards("Kd7c2h5s")
    ['Kd7c2h', 'Kd7c2h5s']
    """
    from pokerlab.cards import parse_cards

    cards = parse_cards(board)
    sizes = [n for n in (3, 4, 5) if n <= len(cards)] or [len(cards)]
    return [format_cards(cards[:n]) for n in sizes]
