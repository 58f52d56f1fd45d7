"""Turn what a caller asks (players, board, dead cards, game) into validated kernel arrays.

Every check that protects the kernels lives here, so they never see bad input: card syntax,
cards used twice, board sizes, player counts, empty ranges after card removal, and ranges that
admit no joint holding at all.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import (
    CARD_COUNT,
    RANKS,
    Card,
    cards_from_mask,
    cards_to_mask,
    ensure_distinct,
    format_card_set,
    format_cards,
    parse_cards,
    parse_cards_any_suit,
    suitless_indices,
)
from pokerlab.engine._joint_draw import unit_weights, weight_peaks
from pokerlab.engine._joint_holding import check_some_deal
from pokerlab.engine.game_range import check_orderings, game_ordering
from pokerlab.errors import (
    CardError,
    EmptyRangeError,
    GameError,
    RangeError,
    TooLargeError,
    blame,
    list_argument,
    shorten,
)
from pokerlab.games import Game, get_game
from pokerlab.ranges import Range
from pokerlab.ranges._echo import echo_text
from pokerlab.ranges.pattern import (
    MAX_HOLDINGS,
    PatternRange,
    pattern_card_count,
    without_updown_bars,
)

__all__ = ["PlayerInput", "Problem", "prepare"]

PlayerInput = str | Range | PatternRange


_ALL_CARDS = (1 << 52) - 1
_CARD_BITS = np.array([1 << c if c < 52 else 0 for c in range(256)], dtype=np.uint64)


@dataclass(frozen=True)
class Problem:
    """A validated request in the arrays the kernels read.

    ``combos[offsets[p]:offsets[p + 1]]`` are player ``p``'s holdings (card codes, uint8; the
    first ``held[p]`` columns are cards, the rest padding) with ``weights`` (all > 0), none
    touching the board or the dead cards. In hold'em every holding is a 2-card combo; in stud a
    holding is the player's known cards and the engine deals the rest. ``dealt[p]``: player
    ``p``'s range is every holding of the cards it may hold, equally weighted (a ``random``
    hand), so Monte Carlo may deal it from what is left instead of drawing it (the same
    distribution). A ``random`` Omaha hand is kept as one empty holding (``held[p] == 0``):
    only Monte Carlo answers it. ``combo_masks``: one 64-bit card mask per holding (the padding
    code 52 adds no bit); ``uniform[p]``: every holding of player ``p`` weighs the same.
    ``dead_mask`` holds the dead cards and the cards outside the game's deck (short deck's
    deuces to fives), so no kernel deals them; :attr:`dead_text` names only the dead ones.
    """

    game: Game
    inputs: tuple[str, ...]
    combos: NDArray[np.uint8]
    offsets: NDArray[np.int64]
    weights: NDArray[np.float64]
    board: NDArray[np.uint8]
    dead_mask: int
    held: NDArray[np.int64]
    dealt: NDArray[np.bool_]
    combo_masks: NDArray[np.uint64]
    uniform: tuple[bool, ...]
    shared_card: bool = False
    """Stud with the deck run short (:meth:`~pokerlab.games.Game.shares_last_card`): each
    player gets six cards of its own and the seventh is one card shared by all, so a holding
    has at most six known cards. Only Monte Carlo answers it (it deals that card as a one-card
    board)."""

    sizes: list[int] = field(init=False, repr=False, compare=False)
    """Holdings per player."""
    size_order: list[int] = field(init=False, repr=False, compare=False)
    """Players from the fewest holdings to the most (ties in input order): the order a
    depth-first walk over joint holdings prunes soonest in."""
    held_mask: int = field(init=False, repr=False, compare=False)
    """Cards that some player holds in every one of its holdings (an exact hand's cards)."""
    deals_hole_cards: bool = field(init=False, repr=False, compare=False)
    """Board games: whether some player's hole cards are dealt (a ``random`` hand), which only
    Monte Carlo samples."""
    known_mask: int = field(init=False, repr=False, compare=False)
    """Cards on the board or dead."""
    unseen: int = field(init=False, repr=False, compare=False)
    """Cards neither on the board nor dead."""
    memo: dict[str, Any] = field(default_factory=dict, init=False, repr=False, compare=False)
    """What a strategy derives from the problem at most once (its suit symmetries: an estimate
    and the run both need them, and finding them can take a tenth of a second)."""

    def __post_init__(self) -> None:
        # derived once here: every strategy reads them, some several times per call
        offsets = self.offsets.tolist()
        sizes = [b - a for a, b in itertools.pairwise(offsets)]
        masks = self.combo_masks
        held = 0
        for a, b in itertools.pairwise(offsets):
            held |= int(masks[a]) if b - a == 1 else int(np.bitwise_and.reduce(masks[a:b]))
        game = self.game
        set_ = object.__setattr__
        set_(self, "sizes", sizes)
        set_(self, "size_order", sorted(range(len(sizes)), key=sizes.__getitem__))
        set_(self, "held_mask", held)
        set_(self, "deals_hole_cards",
             not game.is_stud and min(self.held.tolist()) < game.hole_cards)  # fmt: skip
        set_(self, "known_mask", self.dead_mask | cards_to_mask(self.board.tolist()))
        set_(self, "unseen", 52 - self.known_mask.bit_count())

    @property
    def n_players(self) -> int:
        return len(self.inputs)

    @property
    def free_mask(self) -> int:
        """Cards neither on the board, dead, nor held in every holding of some player: those
        a runout or a dealt ``random`` hand may take."""
        return _ALL_CARDS & ~(self.known_mask | self.held_mask)

    @property
    def board_text(self) -> str:
        return format_cards(self.board.tolist())

    @property
    def dead_text(self) -> str:
        """The dead cards a caller gave (not the cards outside a short deck), highest first
        as hands are written (``AhKh``, not the code order's ``KhAh``)."""
        return format_card_set(cards_from_mask(self.dead_mask & ~self.game.removed_mask))

    @property
    def range_sizes(self) -> list[int]:
        """Holdings per player once the known cards are removed: :attr:`sizes`, except that a
        dealt ``random`` hand counts every holding of the cards not on the board, dead or in a
        player's known hand (as a hold'em range leaves out the holdings they block)."""
        free = self.unseen - self.held_mask.bit_count()
        return [
            math.comb(free, self.game.hole_cards)
            if not self.game.is_stud and int(self.held[p]) < self.game.hole_cards
            else size
            for p, size in enumerate(self.sizes)
        ]

    def reordered(
        self, order: Sequence[int]
    ) -> tuple[NDArray[np.uint8], NDArray[np.int64], NDArray[np.float64]]:
        """``(combos, offsets, weights)`` with the players taken in ``order``
        (:meth:`permuted`'s)."""
        walked = self.permuted(order)
        return walked.combos, walked.offsets, walked.weights

    def permuted(self, order: Sequence[int]) -> Problem:
        """The same problem with its players taken in ``order`` (player ``i`` of the result is
        player ``order[i]`` of this one)."""
        if all(p == i for i, p in enumerate(order)):
            return self
        rows = [np.arange(self.offsets[p], self.offsets[p + 1]) for p in order]
        index = np.concatenate(rows)
        offsets = np.zeros(self.n_players + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(r) for r in rows])
        return dataclasses.replace(
            self,
            inputs=tuple(self.inputs[p] for p in order),
            combos=np.ascontiguousarray(self.combos[index]),
            offsets=offsets,
            weights=self.weights[index],
            held=self.held[list(order)],
            dealt=self.dealt[list(order)],
            combo_masks=self.combo_masks[index],
            uniform=tuple(self.uniform[p] for p in order),
        )

    def weight_peaks(self) -> list[float]:
        """Each player's largest weight (a uniform player's first: no array scan)."""
        if not all(self.uniform):
            return [float(x) for x in weight_peaks(self.weights, self.offsets)]
        weights = self.weights
        return [float(weights[a]) for a in self.offsets[:-1].tolist()]

    def with_unit_weights(self) -> Problem:
        """The same problem with each player's weights divided by that player's largest
        (:meth:`weight_peaks`). Equity is the same (it depends on the weights only up to a
        factor per player). The engine multiplies one weight per player, and tiny weights
        (``AA:1e-200`` against ``QQ:1e-200``) would otherwise underflow to a total of 0 and an
        equity of NaN."""
        if all(peak == 1.0 for peak in self.weight_peaks()):
            return self
        return dataclasses.replace(self, weights=unit_weights(self.weights, self.offsets))

    def dealing_random_hands(self) -> Problem:
        """The same problem with every :attr:`dealt` player given one empty holding
        (``held == 0``), for Monte Carlo to deal its cards from what the others leave."""
        if not self.dealt.any():
            return self
        empty = (np.zeros((1, 0), dtype=np.uint8), np.zeros(1, dtype=np.uint64))
        return self._with_holdings({p: empty for p in range(self.n_players) if self.dealt[p]})

    def listing_random_hands(self) -> Problem:
        """The same problem with every dealt ``random`` hand of a board game (one empty
        holding, ``held == 0``) listed as every holding of the cards that neither the board,
        the dead cards nor another player's known hand use, each of weight 1: for callers that
        draw or walk holdings (the query engine). A joint holding drawn with the others' ranges
        then has the probability of the dealt hand. More than the pattern ranges'
        :data:`~pokerlab.ranges.pattern.MAX_HOLDINGS` is a
        :class:`~pokerlab.errors.TooLargeError`."""
        if not self.deals_hole_cards:
            return self
        taken = _ALL_CARDS & ~self.free_mask
        every = PatternRange("random", self.game.hole_cards).remove(cards_from_mask(taken))
        dealt = [p for p in range(self.n_players) if int(self.held[p]) < self.game.hole_cards]
        if len(every) > MAX_HOLDINGS:
            raise TooLargeError(
                f"player {dealt[0] + 1}: a 'random' {self.game.title} hand has {len(every):,} "
                f"holdings here, more than the {MAX_HOLDINGS:,} that can be listed; narrow it "
                f"with card patterns (e.g. AA{'*' * (self.game.hole_cards - 2)}); Monte Carlo "
                "equity deals it unlisted",
                field=f"players.{dealt[0]}",
            )
        listed = (np.ascontiguousarray(every.holdings), np.ascontiguousarray(every.masks))
        return self._with_holdings(dict.fromkeys(dealt, listed))

    def _with_holdings(
        self, new: dict[int, tuple[NDArray[np.uint8], NDArray[np.uint64]]]
    ) -> Problem:
        """The same problem with players ``p in new`` holding ``new[p]`` (card codes, card
        masks), each of weight 1."""
        # as wide as the widest holding: every player's hand random made the old width 0
        width = max([self.combos.shape[1], *(codes.shape[1] for codes, _ in new.values())])
        blocks, weights, masks, held = [], [], [], self.held.copy()
        for p in range(self.n_players):
            rows = slice(self.offsets[p], self.offsets[p + 1])
            if p in new:
                combos, combo_masks = new[p]
                blocks.append(_padded(combos, width))
                weights.append(np.ones(len(combos)))
                masks.append(combo_masks)
                held[p] = combos.shape[1]
            else:
                blocks.append(_padded(self.combos[rows], width))
                weights.append(self.weights[rows])
                masks.append(self.combo_masks[rows])
        offsets = np.zeros(self.n_players + 1, dtype=np.int64)
        offsets[1:] = np.cumsum([len(b) for b in blocks])
        return dataclasses.replace(
            self,
            combos=np.ascontiguousarray(np.concatenate(blocks)),
            offsets=offsets,
            weights=np.concatenate(weights),
            held=held,
            combo_masks=np.concatenate(masks),
            uniform=tuple(u or p in new for p, u in enumerate(self.uniform)),
        )


@dataclass(frozen=True)
class _Holdings:
    """One player's holdings (card codes, weights > 0, card masks), and whether every holding
    weighs the same."""

    text: str
    combos: NDArray[np.uint8]  # (n, cards)
    weights: NDArray[np.float64]
    masks: NDArray[np.uint64]
    uniform: bool

    @property
    def is_exact(self) -> bool:
        return len(self.combos) == 1

    def without(
        self,
        known_mask: int,
        index: int,
        removed: str = "the board, the dead cards and the other players' known hands are",
    ) -> _Holdings:
        """The holdings that use no card of ``known_mask`` (``self`` when none does);
        ``removed`` says what those cards are when no holding is left."""
        if len(self.masks) == 1 and not int(self.masks[0]) & known_mask:
            return self  # one holding (a hand): no array work
        keep = (self.masks & np.uint64(known_mask)) == 0
        kept = int(np.count_nonzero(keep))
        if kept == len(keep):
            return self
        if not kept:
            raise EmptyRangeError(
                f"player {index + 1} ('{self.text}'): no hand of the range is left once "
                f"{removed} removed",
                field=f"players.{index}",
            )
        weights = self.weights.compress(keep)  # compress: a third of boolean indexing's cost
        uniform = self.uniform or bool((weights == weights[0]).all())
        return _Holdings(self.text, self.combos.compress(keep, axis=0), weights,
                         self.masks.compress(keep), uniform)  # fmt: skip


def _masks_of(combos: NDArray[np.uint8]) -> NDArray[np.uint64]:
    """One 64-bit card mask per row of card codes (the padding code 52 adds no bit)."""
    masks = np.zeros(len(combos), dtype=np.uint64)
    for j in range(combos.shape[1]):
        masks |= _CARD_BITS[combos[:, j]]
    return masks


def _holdings(text: str, combos: NDArray[np.uint8], weights: NDArray[np.float64]) -> _Holdings:
    uniform = bool((weights == weights[0]).all())
    return _Holdings(text, combos, weights, _masks_of(combos), uniform)


def _holdem_holdings(player: PlayerInput, index: int, game: Game) -> _Holdings:
    if isinstance(player, Range):
        return _holdings(player.to_string(), player.combos, player.weights)
    text = str(player).strip()
    if not text:
        raise RangeError(f"player {index + 1}: empty hand or range")
    try:
        holdings = _parse_range(text, game_ordering(game))
        check_orderings(text, game)
    except RangeError as exc:
        raise type(exc)(f"player {index + 1}: {exc}") from None
    return holdings


@functools.lru_cache(maxsize=256)
def _parse_range(text: str, ordering: str | None = None) -> _Holdings:
    """A hold'em range's holdings from its text (``ordering`` for its ``x%`` items, as in
    :class:`~pokerlab.ranges.Range`), remembered: a tool asks about the same few ranges again
    and again, and parsing one costs more than a small flop enumeration (the arrays are
    read-only, so sharing them is safe)."""
    rng = Range(text, ordering=ordering)
    holdings = _holdings(_canonical(text, len(rng.combos), "holdem"), rng.combos, rng.weights)
    holdings.masks.flags.writeable = False
    return holdings


def _game_holdings(player: PlayerInput, index: int, game: Game) -> _Holdings:
    """A player's holdings in a game other than hold'em: a pattern range
    (:mod:`pokerlab.ranges.pattern`) of its hole cards (Omaha: 4, 5 or 6; stud: its known cards,
    1 to 7, as many as the patterns list; one ``|`` may separate downcards from upcards,
    :func:`~pokerlab.ranges.pattern.without_updown_bars`). A ``random`` board-game hand is
    kept as "no known cards": the engines deal it from the unseen cards. A random range with
    excluded cards (``random!As``) is expanded like any range: dealing it from the unseen cards
    that avoid them would weigh each deal by how many of them the other hands hold."""
    who = f"player {index + 1}"
    if isinstance(player, Range):  # its text re-read as a pattern: 'AKs' is A* and Ks in stud
        raise RangeError(
            f"{who}: a Range object holds hold'em combos of two cards; {game.a_title} hand is a "
            f"pattern range: pass its text, or PatternRange (get_game('{game.name}')."
            "pattern_range(text))"
        )
    if isinstance(player, PatternRange):
        if player.low_aces != game.low_aces:  # '(8-8-8-)' holds other cards with low aces
            aces = "low" if player.low_aces else "high"
            raise RangeError(
                f"{who}: this PatternRange was read with aces {aces}, where {game.title} reads "
                f"them {'low' if game.low_aces else 'high'}; pass its text, or build it with "
                f"get_game('{game.name}').pattern_range(text)"
            )
        rng, text = player, player.to_string()
    else:
        text = str(player).strip()
        if not text:
            raise RangeError(f"{who}: empty hand or range")
        spec = text
        try:
            spec = without_updown_bars(text, stud=game.is_stud)
            size = pattern_card_count(spec, low_aces=game.low_aces) if game.is_stud else None
            if size is None:
                size = game.hole_cards
            rng = game.pattern_range(spec, size)
        except RangeError as exc:  # quoting what was typed: '(AA,KK)|*', not '(AA,KK) *'
            message = str(exc).replace(f"'{shorten(spec)}'", f"'{shorten(text)}'")
            raise type(exc)(f"{who}: {message}") from None
        except TooLargeError as exc:
            joined = " (':' joins patterns here; a weight is written '@', as in AA**@50)"
            raise TooLargeError(f"{who}: {exc}" + (joined if ":" in spec else "")) from None
    if game.is_stud and not 1 <= rng.size <= game.hole_cards:
        raise GameError(f"{who}: {game.a_title} hand has 1 to {game.hole_cards} known cards, "
                        f"got {rng.size}")  # fmt: skip
    if not game.is_stud and rng.size != game.hole_cards:
        raise GameError(f"{who}: {game.a_title} hand has {game.hole_cards} cards, "
                        f"got {rng.size}")  # fmt: skip
    if rng.is_random and not rng.excluded and not game.is_stud:
        return _holdings(text, np.zeros((1, 0), dtype=np.uint8), np.ones(1))
    if rng.is_random and len(rng) > MAX_HOLDINGS and not rng.excluded:  # stud: "******"
        raise TooLargeError(
            f"{who}: '{text}' is {rng.size} unknown cards, {len(rng):,} holdings, more than the "
            f"{MAX_HOLDINGS:,} that can be listed; a stud hand's cards not listed are dealt, "
            "so '*' (one card of any value) is the same hand"
        )
    if rng.is_random and len(rng) > MAX_HOLDINGS:  # a random hand avoiding some cards
        avoided = format_cards(rng.excluded)
        raise TooLargeError(
            f"{who}: a {game.title} hand that avoids {avoided} has {len(rng):,} holdings, more "
            f"than the {MAX_HOLDINGS:,} that can be listed; narrow it with card patterns, or "
            "give 'random' without the excluded cards"
        )
    text = _canonical(text, len(rng.holdings), "pattern")
    return _holdings(text, np.ascontiguousarray(rng.holdings), np.array(rng.weights))


def _canonical(text: str, holdings: int, syntax: str) -> str:
    """A player's text as results echo it: one hand (``holdings`` is 1) written as a plain list
    of cards in the canonical form (``ah as`` and ``10h10s`` as ``AhAs`` and ``ThTs``), anything
    else (a range, ``AsKs,AhKh`` among them; a pattern, weights, a stud ``|``) as written but
    with each rank ``10`` written ``T`` (:func:`echo_text`; ``syntax`` is its grammar)."""
    if holdings == 1:
        try:
            return format_cards(parse_cards(text))
        except CardError:
            pass
    return echo_text(text, syntax)


def _ensure_distinct(board: list[Card], dead: list[Card], parsed: list[_Holdings]) -> None:
    """Raise :class:`~pokerlab.errors.DuplicateCardError` naming a card that the board, the
    dead cards and the players' hands use twice."""
    groups: dict[str, list[int]] = {
        "the board": [int(c) for c in board],
        "the dead cards": [int(c) for c in dead],
    }
    fields = {"the board": "board", "the dead cards": "dead"}
    for i, h in enumerate(parsed):
        if h.is_exact:
            groups[f"player {i + 1}'s hand"] = h.combos[0].tolist()
            fields[f"player {i + 1}'s hand"] = f"players.{i}"
    ensure_distinct(groups, fields)


def _padded(combos: NDArray[np.uint8], width: int) -> NDArray[np.uint8]:
    """``combos`` with padding columns (code 52) up to ``width``."""
    if combos.shape[1] == width:
        return combos
    block = np.full((len(combos), width), 52, dtype=np.uint8)
    block[:, : combos.shape[1]] = combos
    return block


def _parse_dead(dead: str | Sequence[int | str | Card], spec: Game, avoid: int) -> list[Card]:
    """Dead cards; in a game where suits never matter (razz) a rank alone is a card of that rank
    in a suit no one else holds for sure (:func:`_check_suitless` makes sure that the result is
    the same whichever)."""
    if spec.suit_blind and isinstance(dead, str):
        return parse_cards_any_suit(dead, avoid)
    return parse_cards(dead)


def _exact_masks(parsed: Sequence[_Holdings]) -> list[int]:
    """Each player's cards where it has one holding (a known hand), else 0."""
    return [int(h.masks[0]) if h.is_exact else 0 for h in parsed]


def _held_for_sure(parsed: Sequence[_Holdings]) -> int:
    """The cards that some player holds in every one of its holdings."""
    sure = 0
    for h in parsed:
        if len(h.masks):
            sure |= int(np.bitwise_and.reduce(h.masks))
    return sure


def _check_suitless(dead: object, dead_cards: list[Card], parsed: Sequence[_Holdings],
                    taken: int) -> None:  # fmt: skip
    """Refuse a dead card written without a suit whose suit would change the answer: a
    player's range treats the card chosen for it and another free card of its rank (not in
    ``taken``, nor dead) differently (``Ac2c3c,2h3h4h`` names the ace of clubs)."""
    if not isinstance(dead, str):
        return
    taken |= cards_to_mask(dead_cards)
    for i in suitless_indices(dead):
        card = int(dead_cards[i])
        rank = card >> 2
        name = RANKS[rank]
        for other in range(4 * rank, 4 * rank + 4):
            if taken >> other & 1:
                continue
            for p, h in enumerate(parsed):
                if not _swap_invariant(h, card, other):
                    raise GameError(
                        f"the dead card '{name}' has no suit, and which {name} is dead changes "
                        f"the answer: player {p + 1}'s range ('{h.text}') names the suits of "
                        f"its {name} cards; give the dead card's suit "
                        f"(e.g. '{Card(card)}' or '{Card(other)}')",
                        field="dead",
                    )


def _swap_invariant(h: _Holdings, a: int, b: int) -> bool:
    """Whether swapping cards ``a`` and ``b`` maps the holdings (with their weights) onto
    themselves."""
    bit_a, bit_b = np.uint64(1 << a), np.uint64(1 << b)
    has_a, has_b = (h.masks & bit_a) != 0, (h.masks & bit_b) != 0
    moved = has_a != has_b
    if not moved.any():
        return True
    swapped = h.masks ^ np.where(moved, bit_a | bit_b, np.uint64(0))
    before = np.lexsort((h.weights, h.masks))
    after = np.lexsort((h.weights, swapped))
    return bool(
        np.array_equal(h.masks[before], swapped[after])
        and np.array_equal(h.weights[before], h.weights[after])
    )


def prepare(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
) -> Problem:
    """Validate a request and build its :class:`Problem`."""
    with blame("game"):
        spec = get_game(game)
    list_argument(players, "players", "hands or ranges, one per player", (Range, PatternRange))
    with blame("board"):
        board_cards = parse_cards(board)
    with blame("dead"):
        dead_cards = _parse_dead(dead, spec, cards_to_mask(board_cards))
    with blame("board"):
        spec.check_board(len(board_cards))
        spec.check_in_deck(board_cards, "board")
    with blame("dead"):
        spec.check_in_deck(dead_cards, "dead")
    with blame("players"):  # too many for the deck alone: before parsing them
        spec.check_players(len(players))
    parsed = []
    for i, p in enumerate(players):
        with blame(f"players.{i}"):
            if not isinstance(p, str | Range | PatternRange):  # None read as the range 'None'
                raise GameError(
                    f"player {i + 1}: a hand or range is text (or a Range), not "
                    f"{type(p).__name__}: {shorten(repr(p))}"
                )
            if spec.range_syntax == "holdem":
                holdings = _holdem_holdings(p, i, spec)
            else:
                holdings = _game_holdings(p, i, spec)
            if spec.removed_mask:  # a range may name cards outside a short deck: drop them
                outside = f"the cards not in {spec.deck_text} are"
                holdings = holdings.without(spec.removed_mask, i, outside)
            parsed.append(holdings)
    if spec.suit_blind:  # suitless dead cards avoid the cards the players hold for sure
        taken = cards_to_mask(board_cards) | _held_for_sure(parsed)
        with blame("dead"):
            dead_cards = _parse_dead(dead, spec, taken)
        _check_suitless(dead, dead_cards, parsed, taken)
    known_mask = cards_to_mask([*board_cards, *dead_cards])
    exact_masks = _exact_masks(parsed)
    named = (
        len(board_cards) + len(dead_cards) + sum(h.combos.shape[1] for h in parsed if h.is_exact)
    )
    if functools.reduce(operator.or_, exact_masks, known_mask).bit_count() < named:
        _ensure_distinct(board_cards, dead_cards, parsed)  # some card twice: say which
    with blame("players"):  # after that: a card named twice is the clearer error
        spec.check_players(len(players), len(dead_cards))
    shared_card = spec.shares_last_card(len(players), len(dead_cards))
    if shared_card:
        _check_own_cards(parsed, spec, len(players), len(dead_cards))
    known_mask |= spec.removed_mask  # out of the game, as if dead
    while True:  # a range the board or a known hand cuts to one holding is a known hand too
        others = functools.reduce(operator.or_, exact_masks, 0)
        removed = [known_mask | (others & ~own) for own in exact_masks]
        parsed = [h.without(m, i) for i, (h, m) in enumerate(zip(parsed, removed, strict=True))]
        now_exact = _exact_masks(parsed)
        if now_exact == exact_masks:
            break
        exact_masks = now_exact
    width = max(h.combos.shape[1] for h in parsed)
    sizes = [len(h.combos) for h in parsed]
    dealt = [
        not spec.is_stud
        and (
            (size == 1 and h.combos.shape[1] == 0)
            or (h.uniform and size == math.comb(52 - mask.bit_count(), spec.hole_cards))
        )
        for h, size, mask in zip(parsed, sizes, removed, strict=True)
    ]
    problem = Problem(
        game=spec,
        inputs=tuple(h.text for h in parsed),
        combos=np.concatenate([_padded(h.combos, width) for h in parsed]),
        offsets=np.array([0, *itertools.accumulate(sizes)], dtype=np.int64),
        weights=np.concatenate([h.weights for h in parsed]),
        board=np.array(board_cards, dtype=np.uint8),
        dead_mask=known_mask & ~cards_to_mask(board_cards),
        held=np.array([h.combos.shape[1] for h in parsed], dtype=np.int64),
        dealt=np.array(dealt, dtype=bool),
        combo_masks=np.concatenate([h.masks for h in parsed]),
        uniform=tuple(h.uniform for h in parsed),
        shared_card=shared_card,
    )
    check_some_deal(problem)
    return problem


def _check_own_cards(parsed: Sequence[_Holdings], spec: Game, count: int, dead: int) -> None:
    """Refuse a stud hand with more known cards than its own six, where the seventh street
    card is shared (a player holding seven cards of its own means the deck did not run
    short)."""
    own = spec.hole_cards - 1
    for i, h in enumerate(parsed):
        if h.combos.shape[1] > own:
            needed = count * spec.hole_cards + dead
            with_dead = f" and {dead} dead cards" if dead else ""
            raise GameError(
                f"player {i + 1}: {count} players{with_dead} need {needed} "
                f"cards for a seventh card each; the deck has {CARD_COUNT}, so the seventh "
                f"street card is one card shared by all, and a hand has at most {own} cards of "
                f"its own, got {h.combos.shape[1]} ('{shorten(h.text)}')",
                field=f"players.{i}",
            )
