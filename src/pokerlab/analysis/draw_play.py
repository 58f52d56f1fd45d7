"""Play five-card draw against a bot, one deal at a time, keeping score.

A :class:`DrawSession` deals from a seeded shuffle: five cards to the player, five to the bot
(hidden until the showdown). The player throws any cards (at most ``max_draw``; the advisor's best
choice, :func:`~pokerlab.analysis.draw.advise` without opponents, is there on request), draws
replacements from the top of the deck, then the bot throws what its strategy
(:mod:`pokerlab.analysis.bots`) says and draws after him; the better final hand wins the deal
(``high``: five-card high; ``2-7``: deuce-to-seven low), equal hands tie. The session keeps the
running score. With ``max_draw`` below 5 the bot plays under the same limit
(:class:`~pokerlab.analysis.bots.MaxDraw`).

Each deal is a pure function of the seed and the deal's number (:func:`deal_hand`,
:func:`play_hand`): its shuffle and the bot's random bits come from a generator seeded with both,
so deal ``n`` of a seed is the same whatever was played before, and a stateless server (the web
page's draw play) re-derives every deal from ``(seed, number)`` without trusting its client. The
cards the bot draws depend on how many the player drew (they come off the same deck after his).

>>> s = DrawSession("stand-pat", seed=3)
>>> deal = s.deal()
>>> result = s.draw([])  # stand pat too
>>> result.player_final == deal.hand, s.score.hands
(True, 1)
"""

from __future__ import annotations

import functools
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from pokerlab.analysis.bots import Known, MaxDraw, Strategy, get_strategy
from pokerlab.analysis.draw import (
    DrawChoice,
    _class_of,
    advise,
    check_max_draw,
    game_tables,
    normalize_game,
)
from pokerlab.cards import Card, CardsLike, format_cards, parse_cards
from pokerlab.engine._control import check_seed
from pokerlab.errors import CardError, GameError

__all__ = [
    "Deal",
    "DrawSession",
    "Score",
    "Showdown",
    "advice_for",
    "deal_hand",
    "discard_for_keep",
    "parse_discard",
    "play_hand",
]


@dataclass(frozen=True)
class Deal:
    """A new deal: the player's five cards and the deal's number (from 1)."""

    number: int
    hand: tuple[Card, ...]


@dataclass(frozen=True)
class Showdown:
    """The end of a deal: both hands before and after the draw, their categories and ``result``
    (``1`` the player wins, ``0`` a tie, ``-1`` the bot wins)."""

    player_hand: tuple[Card, ...]
    player_discard: tuple[Card, ...]
    player_final: tuple[Card, ...]
    player_category: str
    bot_hand: tuple[Card, ...]
    bot_discard: tuple[Card, ...]
    bot_final: tuple[Card, ...]
    bot_category: str
    result: int

    def to_dict(self) -> dict[str, Any]:
        """As JSON: ``player`` and ``opponent`` (the bot) each with ``hand``, ``discard``,
        ``final`` and ``category``; ``result`` and ``winner`` (``player``, ``tie`` or ``bot``)."""

        def cards(cs: Sequence[Card]) -> list[str]:
            return [str(c) for c in cs]

        return {
            "player": {"hand": cards(self.player_hand), "discard": cards(self.player_discard),
                       "final": cards(self.player_final), "category": self.player_category},
            "opponent": {"hand": cards(self.bot_hand), "discard": cards(self.bot_discard),
                    "final": cards(self.bot_final), "category": self.bot_category},
            "result": self.result,
            "winner": {1: "player", 0: "tie", -1: "bot"}[self.result],
        }  # fmt: skip


@dataclass
class Score:
    """The running score of a session."""

    wins: int = 0
    ties: int = 0
    losses: int = 0

    @property
    def hands(self) -> int:
        return self.wins + self.ties + self.losses


def parse_discard(text: str, hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards to throw, written as cards (``"7c 4s"``), positions 1-5 (``"3 4 5"``) or
    ``-``/``none``/nothing for standing pat.

    >>> hand = parse_cards("Jh Jd 7c 4s 2h")
    >>> parse_discard("7c 4s 2h", hand) == parse_discard("3 4 5", hand)
    True
    """
    words = text.replace(",", " ").split()
    if not words or [w.lower() for w in words] in (["-"], ["none"], ["pat"]):
        return ()
    if all(w.isdigit() for w in words):
        spots = [int(w) for w in words]
        if any(not 1 <= s <= len(hand) for s in spots) or len(set(spots)) != len(spots):
            raise CardError(f"positions must be distinct numbers from 1 to {len(hand)}: '{text}'")
        return tuple(hand[s - 1] for s in sorted(spots))
    cards = parse_cards(text)
    strangers = [c for c in cards if c not in hand]
    if strangers:
        raise CardError(
            f"{format_cards(strangers, ' ')} {'are' if len(strangers) > 1 else 'is'} not in "
            f"your hand {format_cards(hand, ' ')}"
        )
    return tuple(c for c in hand if c in cards)


def discard_for_keep(keep: CardsLike | Sequence[Card], hand: Sequence[Card]) -> tuple[Card, ...]:
    """The cards of ``hand`` thrown when keeping ``keep`` (cards of the hand, each once).

    >>> hand = parse_cards("Jh Jd 7c 4s 2h")
    >>> format_cards(discard_for_keep("Jh Jd", hand), " ")
    '7c 4s 2h'
    """
    kept = parse_cards(keep)
    strangers = [str(c) for c in kept if c not in hand]
    if strangers or len(set(kept)) != len(kept):
        verb = "are" if len(strangers) > 1 else "is"
        why = f" ({' '.join(strangers)} {verb} not)" if strangers else ""
        raise CardError(f"keep only cards of your hand {format_cards(hand, ' ')}, each once{why}")
    return tuple(c for c in hand if c not in kept)


def _check(number: int, max_draw: int) -> None:
    if number < 1:
        raise GameError(f"deals are numbered from 1, got {number}", field="hand")
    check_max_draw(max_draw)


def _shuffle(seed: int, number: int) -> tuple[list[Card], int]:
    """Deal ``number`` of ``seed``: the shuffled deck and the bot's 64 random bits."""
    rng = random.Random(f"pokerlab draw play {seed} {number}")
    deck = [Card(c) for c in rng.sample(range(52), 52)]
    return deck, rng.getrandbits(64)


def deal_hand(seed: int, number: int) -> Deal:
    """The player's five cards of deal ``number`` (from 1) of ``seed``.

    >>> deal_hand(3, 1) == deal_hand(3, 1) != deal_hand(3, 2)
    True
    """
    _check(number, 5)
    deck, _ = _shuffle(seed, number)
    return Deal(number, tuple(deck[:5]))


@functools.lru_cache(maxsize=16)
def _bot(name: str, max_draw: int) -> Strategy:
    """A named bot under ``max_draw`` (kept: the optimal bot caches what it learns)."""
    strategy = get_strategy(name)
    return MaxDraw(strategy, max_draw) if max_draw < 5 else strategy


def _strategy(bot: str | Strategy, max_draw: int) -> Strategy:
    if isinstance(bot, Strategy):
        return MaxDraw(bot, max_draw) if max_draw < 5 else bot
    return _bot(get_strategy(bot).name, max_draw)


def category(cards: Sequence[Card], game: str = "high") -> str:
    """The category name of a five-card hand in ``game``."""
    t = game_tables(game)
    return t.names[int(t.bucket_of[_class_of([int(c) for c in cards], t)])]


def play_hand(
    seed: int,
    number: int,
    discard: CardsLike | Sequence[Card],
    *,
    bot: str | Strategy = "rules",
    game: str = "high",
    max_draw: int = 5,
) -> Showdown:
    """Deal ``number`` of ``seed`` played out: the player throws ``discard`` (cards of his hand,
    at most ``max_draw``), draws from the top of the deck, the bot throws what its strategy says
    and draws after him, and the final hands are compared."""
    _check(number, max_draw)
    game = normalize_game(game)
    strategy = _strategy(bot, max_draw)
    deck, noise = _shuffle(seed, number)
    player, bot_hand, deck = tuple(deck[:5]), tuple(deck[5:10]), deck[10:]
    thrown = tuple(parse_cards(discard))
    if any(c not in player for c in thrown) or len(set(thrown)) != len(thrown):
        raise CardError(f"you can only throw cards of your hand {format_cards(player)}")
    if len(thrown) > max_draw:
        raise GameError(f"you may draw at most {max_draw} cards, not {len(thrown)}")
    thrown = tuple(c for c in player if c in thrown)
    player_final = tuple([c for c in player if c not in thrown] + deck[: len(thrown)])
    del deck[: len(thrown)]
    bot_thrown = tuple(strategy.discard(bot_hand, Known(game, (), noise)))
    bot_final = tuple([c for c in bot_hand if c not in bot_thrown] + deck[: len(bot_thrown)])
    t = game_tables(game)
    mine = _class_of([int(c) for c in player_final], t)
    theirs = _class_of([int(c) for c in bot_final], t)
    return Showdown(player, thrown, player_final, category(player_final, game),
                    bot_hand, bot_thrown, bot_final, category(bot_final, game),
                    (mine > theirs) - (mine < theirs))  # fmt: skip


def advice_for(hand: Sequence[Card], game: str = "high", max_draw: int = 5) -> DrawChoice:
    """The advisor's best choice for a dealt hand (no opponents: the best expected percentile,
    the bot's cards unknown)."""
    return advise(hand, game=game, max_draw=max_draw).best


@dataclass
class DrawSession:
    """Deals against one bot; see the module docstring."""

    bot: str | Strategy = "rules"
    game: str = "high"
    seed: int | None = None
    max_draw: int = 5
    score: Score = field(default_factory=Score)

    def __post_init__(self) -> None:
        self.game = normalize_game(self.game)
        if self.seed is None:
            self.seed = random.randrange(2**63)
        check_seed(self.seed)  # what the web page's deals take: 0 or more
        _check(1, self.max_draw)
        self.strategy = _strategy(self.bot, self.max_draw)
        self._player: tuple[Card, ...] = ()
        self._number = 0

    def deal(self) -> Deal:
        """Deal the next hand (:func:`deal_hand` of the session's seed)."""
        self._number += 1
        deal = deal_hand(self.seed or 0, self._number)
        self._player = deal.hand
        return deal

    def advice(self) -> DrawChoice:
        """The advisor's best choice for the player's hand (the bot's cards unknown)."""
        if not self._player:
            raise GameError("no hand dealt yet")
        return advice_for(self._player, self.game, self.max_draw)

    def category(self, cards: Sequence[Card]) -> str:
        """The category name of a five-card hand in this game."""
        return category(cards, self.game)

    def draw(self, discard: CardsLike | Sequence[Card]) -> Showdown:
        """The player throws ``discard``, both draw, and the hands are compared
        (:func:`play_hand`)."""
        if not self._player:
            raise GameError("no hand dealt yet")
        showdown = play_hand(self.seed or 0, self._number, discard, bot=self.bot,
                             game=self.game, max_draw=self.max_draw)  # fmt: skip
        if showdown.result > 0:
            self.score.wins += 1
        elif showdown.result < 0:
            self.score.losses += 1
        else:
            self.score.ties += 1
        self._player = ()
        return showdown
