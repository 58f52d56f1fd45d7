"""Outs: for every next card, who wins, who ties, who loses.

On a turn board the report covers every river card; on a flop, every turn card (with the river
breakdown under it, ``by_turn``) and totals over all turn-and-river runouts.

Each card's outcome for a player comes from every deal once that card is out, computed exactly
over the other players' ranges (and on a flop over the river). A card is a ``win`` card for a
player who takes the whole pot in every one of those deals, a ``tie`` card where the player
splits the pot in every one (its share strictly between 0 and 1, as in the definition of tie),
a ``lose`` card where it wins nothing in any, and a ``depends`` card otherwise (it wins some
deals and not others: against some of the ranges' holdings, or on some rivers). With exact
hands on a turn board the lists are the usual "winning outs / chopping outs / losers".

>>> r = outs(["9h8h", "AsKd"], board="Th7c2hKs")
>>> len(r.next_cards.win_cards(0)), len(r.next_cards.lose_cards(0))
(15, 29)
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._results import ArrayFields
from pokerlab._threads import resolve_threads
from pokerlab.cards import Card
from pokerlab.engine._control import CancelLike, Control, ProgressCallback, check_callbacks
from pokerlab.engine.limits import (
    DEFAULT_SECONDS,
    check_sampling,
    refuse_too_large,
    time_limited,
)
from pokerlab.engine.problem import PlayerInput, Problem, prepare
from pokerlab.engine.tally import SHARE, TIE
from pokerlab.errors import GameError, blame
from pokerlab.games import Game, get_game

__all__ = [
    "MORE_TIME",
    "OutsReport",
    "RunoutTotals",
    "StreetOuts",
    "outs",
    "too_large_remedies",
    "turn_outcomes",
]


def _shares(stats: NDArray[np.float64], column: int = SHARE) -> NDArray[np.float64]:
    """Expected pot share of each player (or with ``column=TIE``, the fraction of deals in
    which it splits the pot) from tallies in the engine's layout (:mod:`pokerlab.engine.tally`),
    for one ``(n + 1, STATS)`` or a stack of them; zero where no deal was possible."""
    n = stats.shape[-2] - 1
    total = stats[..., n, 0]
    safe = np.where(total > 0, total, 1.0)
    won = stats[..., :n, column]
    return np.asarray(np.where(total[..., None] > 0, won / safe[..., None], 0.0))


_EPS = 1e-12
KINDS = ("win", "tie", "lose", "depends")


def _kinds(shares: NDArray[np.float64], ties: NDArray[np.float64]) -> NDArray[np.str_]:
    """The kind (:data:`KINDS`, module docstring) of each entry of ``shares`` (expected pot
    shares) with ``ties`` (the fraction of deals split) of the same shape."""
    return np.select(
        [shares >= 1.0 - _EPS, shares <= _EPS, ties >= 1.0 - _EPS],
        ["win", "lose", "tie"],
        "depends",
    )


@dataclass(frozen=True, eq=False)
class StreetOuts(ArrayFields):
    """Every possible next card with each player's expected share once it is out, and the
    fraction of those deals in which the player splits the pot."""

    cards: tuple[Card, ...]
    shares: NDArray[np.float64]  # (len(cards), players)
    ties: NDArray[np.float64]  # (len(cards), players)
    outcomes: NDArray[np.str_]  # (len(cards), players): each card's kind (KINDS) per player

    def __repr__(self) -> str:
        """A summary: the arrays of a flop's every turn made a report's repr ~146 KB."""
        kinds = ", ".join(f"player {p + 1} {self.counts(p)}" for p in range(self.shares.shape[1]))
        return f"StreetOuts({len(self.cards)} cards; {'/'.join(KINDS)}: {kinds})"

    def kinds(self, player: int) -> list[str]:
        """Each card's kind for the player (:data:`KINDS`)."""
        return [str(k) for k in self.outcomes[:, player]]

    def _cards_of(self, player: int, kind: str) -> list[Card]:
        return [c for c, k in zip(self.cards, self.kinds(player), strict=True) if k == kind]

    def win_cards(self, player: int) -> list[Card]:
        """Cards on which the player takes the whole pot in every deal."""
        return self._cards_of(player, "win")

    def tie_cards(self, player: int) -> list[Card]:
        """Cards on which the player splits the pot in every deal."""
        return self._cards_of(player, "tie")

    def lose_cards(self, player: int) -> list[Card]:
        """Cards on which the player wins nothing."""
        return self._cards_of(player, "lose")

    def depends_cards(self, player: int) -> list[Card]:
        """Cards on which the player wins some deals and not others."""
        return self._cards_of(player, "depends")

    def counts(self, player: int) -> tuple[int, ...]:
        """How many of the cards are of each kind for the player, in the order of
        :data:`KINDS`."""
        kinds = self.kinds(player)
        return tuple(kinds.count(k) for k in KINDS)

    def agreed(self, player: int) -> str:
        """The kind of every card when all agree for the player, else ``depends`` (used to
        label a turn card by its rivers)."""
        kinds = set(self.kinds(player))
        return kinds.pop() if len(kinds) == 1 else "depends"

    def to_players(self, inputs: Sequence[str]) -> list[dict[str, Any]]:
        return [
            {
                "input": text,
                **{kind: [str(c) for c in self._cards_of(p, kind)] for kind in KINDS},
                "equity": {
                    str(c): float(row[p]) for c, row in zip(self.cards, self.shares, strict=True)
                },
            }
            for p, text in enumerate(inputs)
        ]


@dataclass(frozen=True)
class RunoutTotals:
    """Over all turn-and-river runouts: how many each player wins, ties, loses, or (with
    ranges) wins against some holdings and not others, and its equity (runouts weighted by how
    many deals each leaves, which is equal for exact hands)."""

    total: int
    win: tuple[int, ...]
    tie: tuple[int, ...]
    lose: tuple[int, ...]
    depends: tuple[int, ...]
    equity: tuple[float, ...]


@dataclass(frozen=True)
class OutsReport:
    """The outs of a flop or turn board; see the module docstring."""

    inputs: tuple[str, ...]
    game: str
    board: str
    dead: str
    next_cards: StreetOuts
    by_turn: dict[Card, StreetOuts] | None
    runouts: RunoutTotals | None

    def __repr__(self) -> str:
        """The fields, each street summarised (see :meth:`StreetOuts.__repr__`), ``by_turn`` by
        its number of turn cards."""
        turns = None if self.by_turn is None else f"<{len(self.by_turn)} turn cards>"
        return (
            f"OutsReport(inputs={self.inputs!r}, game={self.game!r}, board={self.board!r}, "
            f"dead={self.dead!r}, next_cards={self.next_cards!r}, by_turn={turns}, "
            f"runouts={self.runouts!r})"
        )

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab outs --json`` prints exactly this)."""
        out: dict[str, Any] = {
            "game": self.game,
            "board": self.board,
            "dead": self.dead,
            "players": self.next_cards.to_players(self.inputs),
        }
        if self.runouts is not None and self.by_turn is not None:
            totals = self.runouts
            out["runouts"] = {
                "total": totals.total,
                "players": [
                    {"input": text, "win": totals.win[p], "tie": totals.tie[p],
                     "lose": totals.lose[p], "depends": totals.depends[p],
                     "equity": totals.equity[p]}
                    for p, text in enumerate(self.inputs)
                ],
            }  # fmt: skip
            out["by_turn"] = {
                str(card): {"board": self.board + str(card),
                            "players": street.to_players(self.inputs)}
                for card, street in self.by_turn.items()
            }  # fmt: skip
        return out


def _possible(
    cards: Sequence[Card], counts: NDArray[np.float64], flat: NDArray[np.float64]
) -> StreetOuts:
    """The street's cards that can come, from each card's tally (``counts``, stacked) and the
    same with every holding of weight 1 (``flat``, which decides the kinds): a card the ranges
    leave no deal for (every holding that leaves it unseen collides with another's) is not an
    out of any kind, where its zero shares would read as a loss for everyone."""
    n = counts.shape[-2] - 1
    can = counts[:, n, 0] > 0
    listed = tuple(c for c, ok in zip(cards, can, strict=True) if ok)
    return StreetOuts(listed, _shares(counts[can]), _shares(counts[can], TIE), _outcomes(flat[can]))


def _outcomes(tally: NDArray[np.float64]) -> NDArray[np.str_]:
    """The kinds of each entry of a stack of tallies (:func:`_kinds` of its shares and ties)."""
    return _kinds(_shares(tally), _shares(tally, TIE))


def _weights_decide(problem: Problem) -> bool:
    """Whether the weighted shares alone tell every card's kind: the lightest joint holding is
    over 100 times the kinds' tolerance of the total weight (per player, its lightest holding
    over its holdings' total), so that a single deal that disagrees moves the share past it."""
    lightest = 1.0
    for p in range(problem.n_players):
        weights = problem.weights[problem.offsets[p] : problem.offsets[p + 1]]
        lightest *= float(weights.min()) / float(weights.sum())
    return lightest > 100 * _EPS


def _progress_part(
    progress: ProgressCallback | None, part: int, parts: int
) -> ProgressCallback | None:
    """``progress`` of the whole for one of ``parts`` equal passes (``part`` from 0)."""
    if progress is None or parts == 1:
        return progress
    return lambda fraction: progress((part + fraction) / parts)


def turn_outcomes(report: OutsReport, player: int) -> dict[Card, str]:
    """On a flop report, each turn card labelled by its rivers for the player: ``win``, ``tie``
    or ``lose`` only when every river is of that kind, ``depends`` otherwise.

    >>> from pokerlab.cards import parse_card
    >>> r = outs(["6c7c", "AhAd"], board="4c8c9s")
    >>> labels = turn_outcomes(r, 0)
    >>> labels[parse_card("5h")], labels[parse_card("2h")]
    ('win', 'depends')
    """
    if report.by_turn is None:
        raise GameError("turn outcomes need a flop report (the board has 4 cards already)")
    return {turn: street.agreed(player) for turn, street in report.by_turn.items()}


MORE_TIME = "allow more time (--time)"
"""The remedy of a too-large outs request that a caller with no ``--time`` (the web page)
drops (:meth:`~pokerlab.errors.TooLargeError.with_remedies`)."""


def too_large_remedies(board_cards: int) -> tuple[str, ...]:
    """How a too-large outs request on a board of ``board_cards`` cards can shrink: narrower
    ranges, the turn card when it is a flop, and a longer time limit (:data:`MORE_TIME`)."""
    turn = ("give the turn card",) if board_cards == 3 else ()
    return ("narrow the ranges", *turn, MORE_TIME)


def outs(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card],
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
    *,
    threads: int | None = None,
    time_limit: float | None = DEFAULT_SECONDS,
    progress: ProgressCallback | None = None,
    cancel: CancelLike = None,
) -> OutsReport:
    """The outs report for hands or ranges on a flop (3 cards) or turn (4 cards) board.

    Outs are exact: a request whose estimated time is over ``time_limit`` seconds (``None`` or
    ``math.inf`` for none) is refused with :class:`~pokerlab.errors.TooLargeError` before it
    starts, and one still running after it stops with that error. ``progress(fraction)`` is
    called and ``cancel`` (an Event or a callable) checked between chunks of runouts; a
    cancelled run raises :class:`~pokerlab.errors.CancelledError`. ``threads``: as in
    :func:`pokerlab.equity` (default every available core; the report is the same for any
    thread count)."""
    from pokerlab.engine.exact import runout_seconds, runout_stats

    n_threads = resolve_threads(threads)
    check_callbacks(cancel, progress=progress)
    if time_limit is None:  # as equity and query take it: no limit
        time_limit = math.inf
    check_sampling(time_limit=time_limit, capped=False, named=True)  # math.inf: no limit
    with blame("game"):
        rules = get_game(game)
    if rules.is_stud:  # before the board is read: "Razz has no board; got 3 board cards"
        raise GameError(
            f"outs need a board game; {rules.title} has no board (a query's outs(player, "
            "fifth) or outs(player, sixth) counts a stud street's outs)",
            field="game",
        )
    problem = prepare(players, board, dead, rules).with_unit_weights()
    if len(problem.board) not in (3, 4):
        raise GameError(
            f"outs need a flop (3 cards) or a turn (4 cards), got a board of "
            f"{len(problem.board)} cards",
            field="board",
        )
    remedies = too_large_remedies(len(problem.board))
    # a weighted range is enumerated twice: for the shares, and with each holding of weight 1
    # for the kinds (a card is a win only against every holding: a holding of weight 1e-13
    # against others of weight 1 moved the share by less than the tolerance, and its losses
    # read as wins)
    passes = 1 if all(problem.uniform) or _weights_decide(problem) else 2
    refuse_too_large(problem, passes * runout_seconds(problem), time_limit, "outs", remedies)
    problem = problem.listing_random_hands()  # a random Omaha hand: each holding of the rest
    skip = problem.dead_mask | problem.held_mask
    used = skip | sum(1 << int(c) for c in problem.board)
    deck = [c for c in range(52) if not used >> c & 1]

    def both(stop: CancelLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        part = _progress_part(progress, 0, passes)
        counts = runout_stats(problem, Control(n_threads, part, stop))
        if passes == 1:
            return counts, counts
        flat = dataclasses.replace(problem, weights=np.ones_like(problem.weights))
        part = _progress_part(progress, 1, passes)
        return counts, runout_stats(flat, Control(n_threads, part, stop))

    counts, flat = time_limited(both, time_limit, "outs", remedies, cancel)
    cards = [Card(c) for c in deck]
    spot = (problem.inputs, problem.game.name, problem.board_text, problem.dead_text)
    n = problem.n_players
    if len(problem.board) == 4:
        street = _possible(cards, counts, flat)
        return OutsReport(*spot, street, None, None)
    m = len(deck)
    pair_row = np.zeros((m, m), dtype=np.int64)  # runout row of the unordered pair {i, j}
    first, second = np.triu_indices(m, k=1)
    pair_row[first, second] = np.arange(len(first))
    pair_row[second, first] = np.arange(len(first))
    by_turn: dict[Card, StreetOuts] = {}
    turn_counts = np.empty((m, *counts.shape[1:]))
    turn_flat = turn_counts if flat is counts else np.empty_like(turn_counts)
    for i, turn in enumerate(cards):
        others = np.array([j for j in range(m) if j != i])
        rows = pair_row[i, others]
        turn_counts[i] = counts[rows].sum(axis=0)
        if turn_flat is not turn_counts:
            turn_flat[i] = flat[rows].sum(axis=0)
        if turn_counts[i, n, 0] > 0:
            rivers = [cards[j] for j in others]
            by_turn[turn] = _possible(rivers, counts[rows], flat[rows])
    next_cards = _possible(cards, turn_counts, turn_flat)
    live = counts[:, n, 0] > 0
    kinds = _outcomes(flat[live])
    tallies = {kind: tuple(int(x) for x in (kinds == kind).sum(axis=0)) for kind in KINDS}
    totals = RunoutTotals(
        total=int(live.sum()),
        **tallies,
        equity=tuple(float(x) for x in _shares(counts.sum(axis=0))),
    )
    return OutsReport(*spot, next_cards, by_turn, totals)
