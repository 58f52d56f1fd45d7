"""Games as data: how many hole cards, which board sizes are legal, how the pot is decided.

The engines read a :class:`Game` and never name a game themselves, so adding a variant means
adding a definition here (and, where it needs one, an evaluator), not another engine.

>>> get_game("holdem").max_players
23
>>> get_game("Hold'em").name
'holdem'
"""

from __future__ import annotations

from dataclasses import dataclass

from pokerlab.cards import CARD_COUNT
from pokerlab.errors import GameError

__all__ = ["GAMES", "Game", "get_game"]


@dataclass(frozen=True)
class Game:
    """One poker variant.

    ``hole_cards``: cards each player holds; ``board_cards``: community cards at showdown;
    ``board_sizes``: board sizes a request may give (the streets); ``high``/``low``: which
    evaluator decides each half of the pot (``low`` is ``None`` when the high hand takes it all).
    """

    name: str
    title: str
    hole_cards: int
    board_cards: int
    board_sizes: tuple[int, ...]
    high: str = "high"
    low: str | None = None

    @property
    def max_players(self) -> int:
        """Most players the deck can deal to, board included."""
        return (CARD_COUNT - self.board_cards) // self.hole_cards

    def check_board(self, size: int) -> None:
        """Raise :class:`GameError` unless a board of ``size`` cards is a street of this game."""
        if size not in self.board_sizes:
            sizes = ", ".join(str(s) for s in self.board_sizes)
            raise GameError(
                f"a {self.title} board has {sizes} cards, got {size}"
                + (" (the flop is 3 cards)" if 0 < size < 3 else "")
            )

    def check_players(self, count: int, known_cards: int = 0) -> None:
        """Raise :class:`GameError` if ``count`` players cannot all be dealt from the deck."""
        if count < 2:
            raise GameError(f"equity needs at least 2 players, got {count}")
        needed = count * self.hole_cards + self.board_cards + known_cards
        if count > self.max_players or needed > CARD_COUNT:
            raise GameError(
                f"{count} players need {needed} cards ({self.hole_cards} each, a "
                f"{self.board_cards}-card board"
                + (f", {known_cards} dead" if known_cards else "")
                + f"); the deck has {CARD_COUNT}"
            )


GAMES: dict[str, Game] = {
    "holdem": Game("holdem", "Texas Hold'em", 2, 5, (0, 3, 4, 5)),
}

_ALIASES = {"hold'em": "holdem", "texas": "holdem", "nlhe": "holdem", "nlh": "holdem"}


def get_game(name: str | Game) -> Game:
    """Look a game up by name (case-insensitive); unknown names list the known ones."""
    if isinstance(name, Game):
        return name
    key = name.strip().lower()
    key = _ALIASES.get(key, key)
    try:
        return GAMES[key]
    except KeyError:
        known = ", ".join(sorted(GAMES))
        raise GameError(f"unknown game '{name}': known games are {known}") from None
