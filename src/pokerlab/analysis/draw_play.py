"""Play five-card draw against a bot, one deal at a time, keeping score.

A :class:`DrawSession` deals from a seeded shuffle: five cards to the player, five to the bot
(hidden until the showdown). The player throws any cards (at most ``max_draw``; the advisor's best
choice, :func:`~pokerlab.analysis.draw.advise` without opponents, is there on request), draws
replacements from the top of the deck, then the bot throws what its strategy
(:mod:`pokerlab.analysis.bots`) says and draws after him; the better final hand wins the deal
(``high``: five-card high; ``2-7``: deuce-to-seven low), equal hands tie. The session keeps the
running score. The same seed gives the same deals, whatever the player does, as long as he draws
the same number of cards. With ``max_draw`` below 5 the bot plays under the same limit
(:class:`~pokerlab.analysis.bots.MaxDraw`).

>>> s = DrawSession("stand-pat", seed=3)
>>> deal = s.deal()
>>> result = s.draw([])  # stand pat too
>>> result.player_final == deal.hand, s.score.hands
(True, 1)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field

from pokerlab.analysis.bots import Known, MaxDraw, Strategy, get_strategy
from pokerlab.analysis.draw import DrawChoice, _class_of, advise, game_tables, normalize_game
from pokerlab.cards import Card, CardsLike, format_cards, parse_cards
from pokerlab.errors import CardError, GameError

__all__ = ["Deal", "DrawSession", "Score", "Showdown", "parse_discard"]


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
            f"{format_cards(strangers, ' ')} is not in your hand {format_cards(hand, ' ')}"
        )
    return tuple(c for c in hand if c in cards)


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
        if not 0 <= self.max_draw <= 5:
            raise GameError(f"max_draw must be between 0 and 5, got {self.max_draw}")
        strategy = get_strategy(self.bot)
        self.strategy = MaxDraw(strategy, self.max_draw) if self.max_draw < 5 else strategy
        self._rng = random.Random(self.seed)
        self._deck: list[Card] = []
        self._player: tuple[Card, ...] = ()
        self._bot: tuple[Card, ...] = ()
        self._number = 0

    def deal(self) -> Deal:
        """Shuffle and deal a new hand."""
        self._deck = [Card(c) for c in self._rng.sample(range(52), 52)]
        self._player, self._bot = tuple(self._deck[:5]), tuple(self._deck[5:10])
        del self._deck[:10]
        self._number += 1
        return Deal(self._number, self._player)

    def advice(self) -> DrawChoice:
        """The advisor's best choice for the player's hand (the bot's cards unknown)."""
        if not self._player:
            raise GameError("no hand dealt yet")
        return advise(self._player, game=self.game, max_draw=self.max_draw).best

    def category(self, cards: Sequence[Card]) -> str:
        """The category name of a five-card hand in this game."""
        t = game_tables(self.game)
        return t.names[int(t.bucket_of[_class_of([int(c) for c in cards], t)])]

    def draw(self, discard: CardsLike | Sequence[Card]) -> Showdown:
        """The player throws ``discard``, both draw, and the hands are compared."""
        if not self._player:
            raise GameError("no hand dealt yet")
        thrown = tuple(parse_cards(discard))
        if any(c not in self._player for c in thrown):
            raise CardError(f"you can only throw cards of your hand {format_cards(self._player)}")
        if len(thrown) > self.max_draw:
            raise GameError(f"you may draw at most {self.max_draw} cards, not {len(thrown)}")
        t = game_tables(self.game)
        kept = [c for c in self._player if c not in thrown]
        player_final = tuple(kept + self._deck[: len(thrown)])
        del self._deck[: len(thrown)]
        noise = self._rng.getrandbits(64)
        bot_thrown = tuple(self.strategy.discard(self._bot, Known(self.game, (), noise)))
        bot_final = tuple([c for c in self._bot if c not in bot_thrown]
                          + self._deck[: len(bot_thrown)])  # fmt: skip
        del self._deck[: len(bot_thrown)]
        mine = _class_of([int(c) for c in player_final], t)
        theirs = _class_of([int(c) for c in bot_final], t)
        result = (mine > theirs) - (mine < theirs)
        if result > 0:
            self.score.wins += 1
        elif result < 0:
            self.score.losses += 1
        else:
            self.score.ties += 1
        showdown = Showdown(self._player, thrown, player_final, self.category(player_final),
                            self._bot, bot_thrown, bot_final, self.category(bot_final),
                            result)  # fmt: skip
        self._player = ()
        return showdown
