"""Games as data: how many hole cards, which board sizes are legal, how the pot is decided.

The engines read a :class:`Game` and never name a game themselves, so adding a variant means
adding a definition here (and, where it needs one, an evaluator), not another engine.

>>> get_game("holdem").max_players
23
>>> get_game("Hold'em").name
'holdem'
>>> g = get_game("plo8")
>>> g.name, g.hole_cards, g.split, get_game("razz").split
('omaha-hilo', 4, True, False)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pokerlab._numbers import counted
from pokerlab.cards import CARD_COUNT, RANK_PLURALS, RANKS, Card, format_cards
from pokerlab.errors import GameError, shorten
from pokerlab.evaluation.codes import HighEval, LowEval, kernel_high

if TYPE_CHECKING:
    from pokerlab.ranges.pattern import PatternRange

__all__ = ["GAMES", "Game", "game_aliases", "get_game"]


@dataclass(frozen=True)
class Game:
    """One poker variant.

    ``hole_cards``: cards each player ends with (stud: all seven of its own cards);
    ``board_cards``: community cards at showdown; ``board_sizes``: board sizes a request may give
    (the streets); ``high``/``low``: which evaluator decides each half of the pot
    (:mod:`pokerlab.evaluation.codes`: ``HighEval.BEST5`` best five of the player's cards and the
    board, ``HighEval.OMAHA`` two hole + three board, ``LowEval.A5`` A-5 low with no qualifier,
    ``LowEval.EIGHT`` 8-or-better, ``LowEval.OMAHA_EIGHT``); with only one of them set (the
    other ``NONE``), that evaluator decides the whole pot; with both, the pot is split.
    ``lowest_rank``: the deck's lowest rank (0, the deuce: all 52 cards; 4, the six: the
    36-card short deck); the cards below it are out of the game, as if dead.
    """

    name: str
    title: str
    hole_cards: int
    board_cards: int
    board_sizes: tuple[int, ...]
    high: HighEval = HighEval.BEST5
    low: LowEval = LowEval.NONE
    lowest_rank: int = 0

    @property
    def removed_mask(self) -> int:
        """The cards not in this game's deck (a bit per card code; 0 for the full deck)."""
        return (1 << 4 * self.lowest_rank) - 1

    @property
    def deck_size(self) -> int:
        """Cards in this game's deck: 52, or 36 for the short deck."""
        return CARD_COUNT - 4 * self.lowest_rank

    @property
    def deck_text(self) -> str:
        """The deck in words, for messages: ``"the deck"`` or ``"the short deck (Sixes to
        Aces)"``."""
        return (
            f"the short deck ({RANK_PLURALS[self.lowest_rank]} to Aces)"
            if self.lowest_rank
            else "the deck"
        )

    @property
    def a_title(self) -> str:
        """The title after its indefinite article: "an Omaha", "a Razz"."""
        return ("an " if self.title[0] in "AEIOU" else "a ") + self.title

    @property
    def split(self) -> bool:
        """Whether the pot is split between a high and a low hand (hi/lo games)."""
        return self.high != HighEval.NONE and self.low != LowEval.NONE

    @property
    def range_syntax(self) -> str:
        """How a player's hand or range is written: ``"holdem"`` (PokerStove notation,
        :mod:`pokerlab.ranges.holdem`) for two-card hold'em, else ``"pattern"`` (exact cards or
        :mod:`pokerlab.ranges.pattern` patterns)."""
        return "holdem" if self.hole_cards == 2 and not self.is_stud else "pattern"

    @property
    def suit_blind(self) -> bool:
        """Whether suits never change a result (razz: A-5 low decides the whole pot), so cards
        may be written without a suit (:func:`pokerlab.cards.parse_cards_any_suit`)."""
        return self.high == HighEval.NONE and self.low == LowEval.A5

    @property
    def is_stud(self) -> bool:
        """Stud games have no board: each player's own seven cards make the hand."""
        return self.board_cards == 0

    @property
    def two_card_high(self) -> bool:
        """Two hole cards, a board, one high hand of the best five takes the pot (hold'em and
        short deck, whose tables differ but whose kernels are the same)."""
        return (
            not self.is_stud
            and self.hole_cards == 2
            and kernel_high(self.high) == HighEval.BEST5
            and self.low == LowEval.NONE
        )

    @property
    def low_aces(self) -> bool:
        """Whether rank spans in this game's pattern ranges put the ace below the deuce
        (``8-`` = A..8): games with a low half or decided by a low."""
        return self.low != LowEval.NONE

    def pattern_range(self, spec: str, size: int | None = None) -> PatternRange:
        """``spec`` read as this game's pattern range of ``size`` cards (default: its hole
        cards): rank spans with this game's aces (:attr:`low_aces`), and percentages
        (``15%``) outside stud (the pattern grammar has an ordering for 4- and 5-card Omaha)."""
        from pokerlab.ranges.pattern import PatternRange

        size = self.hole_cards if size is None else size
        return PatternRange(spec, size, low_aces=self.low_aces, percent=not self.is_stud)

    @property
    def max_players(self) -> int:
        """Most players the deck can deal to, board included (stud: 8, with the shared last
        card of :meth:`shares_last_card`)."""
        if self.is_stud:
            return (self.deck_size - 1) // (self.hole_cards - 1)
        return (self.deck_size - self.board_cards) // self.hole_cards

    def shares_last_card(self, count: int, known_cards: int = 0) -> bool:
        """Whether ``count`` stud players (with ``known_cards`` dead cards) run the deck short
        of a seventh card each: the stud rule then deals one card face up in the middle that
        every player uses as its seventh (8 players need 56 cards; 7 players with 4 dead
        cards, 53). Burnt cards are not counted, as in every equity calculation.

        >>> stud = get_game("stud")
        >>> stud.shares_last_card(8), stud.shares_last_card(7), stud.shares_last_card(7, 4)
        (True, False, True)
        """
        return self.is_stud and count * self.hole_cards + known_cards > self.deck_size

    def check_board(self, size: int) -> None:
        """Raise :class:`GameError` unless a board of ``size`` cards is a street of this game."""
        if size not in self.board_sizes:
            sizes = ", ".join(str(s) for s in self.board_sizes)
            if self.is_stud:
                raise GameError(f"{self.title} has no board; got {counted(size, 'board card')}")
            raise GameError(
                f"{self.a_title} board has {sizes} cards, got {size}"
                + (" (the flop is 3 cards)" if 0 < size < 3 else "")
            )

    def check_in_deck(self, cards: list[Card], what: str) -> None:
        """Raise :class:`GameError` if a ``what`` card (``"board"``, ``"dead"``) is outside
        this game's deck."""
        outside = [c for c in cards if self.removed_mask >> c & 1]
        if outside:
            many = len(outside) > 1
            raise GameError(
                f"{what} card{'s' if many else ''} {format_cards(outside, ' ')} "
                f"{'are' if many else 'is'} not in {self.deck_text} that {self.title} is "
                "dealt from"
            )

    def check_players(self, count: int, known_cards: int = 0) -> None:
        """Raise :class:`GameError` if ``count`` players cannot all be dealt from the deck."""
        if count < 2:
            raise GameError(f"a showdown needs at least 2 players, got {count}")
        needed = count * self.hole_cards + self.board_cards + known_cards
        each = f"{self.hole_cards} each"
        if self.shares_last_card(count, known_cards):
            needed = count * (self.hole_cards - 1) + 1 + known_cards
            each = f"{self.hole_cards - 1} each and a shared seventh-street card"
        if count > self.max_players or needed > self.deck_size:
            board = f", a {self.board_cards}-card board" if self.board_cards else ""
            raise GameError(
                f"{count} players need {needed} cards ({each}{board}"
                + (f", {known_cards} dead" if known_cards else "")
                + f"); {self.deck_text} has {self.deck_size}"
            )


_STREETS = (0, 3, 4, 5)

GAMES: dict[str, Game] = {
    g.name: g
    for g in (
        Game("holdem", "Texas Hold'em", 2, 5, _STREETS),
        Game(
            "shortdeck",
            "Short-deck Hold'em",
            2,
            5,
            _STREETS,
            HighEval.SHORT_DECK,
            lowest_rank=RANKS.index("6"),
        ),
        Game(
            "shortdeck-straights",
            "Short-deck Hold'em (straight over trips)",
            2,
            5,
            _STREETS,
            HighEval.SHORT_DECK_STRAIGHTS,
            lowest_rank=RANKS.index("6"),
        ),
        Game("omaha", "Omaha", 4, 5, _STREETS, HighEval.OMAHA),
        Game("omaha5", "5-card Omaha", 5, 5, _STREETS, HighEval.OMAHA),
        Game("omaha6", "6-card Omaha", 6, 5, _STREETS, HighEval.OMAHA),
        Game(
            "omaha-hilo",
            "Omaha hi/lo 8-or-better",
            4,
            5,
            _STREETS,
            HighEval.OMAHA,
            LowEval.OMAHA_EIGHT,
        ),
        Game(
            "omaha5-hilo",
            "5-card Omaha hi/lo 8-or-better",
            5,
            5,
            _STREETS,
            HighEval.OMAHA,
            LowEval.OMAHA_EIGHT,
        ),
        Game("stud", "Seven-card stud", 7, 0, (0,)),
        Game(
            "stud-hilo",
            "Seven-card stud hi/lo 8-or-better",
            7,
            0,
            (0,),
            HighEval.BEST5,
            LowEval.EIGHT,
        ),
        Game("razz", "Razz", 7, 0, (0,), HighEval.NONE, LowEval.A5),
    )
}

_ALIASES = {
    "hold'em": "holdem",
    "texas": "holdem",
    "nlhe": "holdem",
    "nlh": "holdem",
    "short-deck": "shortdeck",
    "short": "shortdeck",
    "6+": "shortdeck",
    "6plus": "shortdeck",
    "sixplus": "shortdeck",
    "short-deck-straights": "shortdeck-straights",
    "6+straights": "shortdeck-straights",
    "stud-hi": "stud",
    "7stud": "stud",
    "plo": "omaha",
    "omaha4": "omaha",
    "plo5": "omaha5",
    "plo6": "omaha6",
    "omaha8": "omaha-hilo",
    "o8": "omaha-hilo",
    "plo8": "omaha-hilo",
    "omaha-hi-lo": "omaha-hilo",
    "big-o": "omaha5-hilo",
    "omaha5-8": "omaha5-hilo",
    "stud8": "stud-hilo",
    "stud-8": "stud-hilo",
    "stud-hi-lo": "stud-hilo",
}


def game_aliases(name: str) -> list[str]:
    """The other names :func:`get_game` takes for the game ``name``.

    >>> game_aliases("omaha")
    ['plo', 'omaha4']
    """
    return [alias for alias, target in _ALIASES.items() if target == name]


def get_game(name: str | Game) -> Game:
    """Look a game up by name (case-insensitive); unknown names list the known ones."""
    if isinstance(name, Game):
        return name
    if not isinstance(name, str):
        raise GameError(f"a game is a name such as 'holdem' or 'omaha', got {name!r}")
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise GameError(f"unknown game '{shorten(name)}': known games are {known}") from None
