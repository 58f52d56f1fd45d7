"""What one hand is worth at showdown in a game: the value of each half of the pot the game plays
for (``pokerlab eval --game``).

>>> v = showdown_value("As2sKd3d", "omaha-hilo", board="4c5h6sQs7d")
>>> v.high.description, v.low.description
('Straight, Six high', '6-5-4-2-A')
>>> showdown_value("7h 5d 4c 3s 2h Kd Kc", "razz").low.description
'7-5-4-3-2'
>>> showdown_value("7h 5d 4c 3s 2h", "2-7").low.description
'7-5-4-3-2'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pokerlab.analysis.draw import normalize_game
from pokerlab.cards import Card, CardsLike, ensure_distinct, format_cards, parse_cards
from pokerlab.errors import CardError, GameError, blame
from pokerlab.evaluation.by_code import high_value, low_value_of
from pokerlab.evaluation.codes import HighEval, LowEval
from pokerlab.evaluation.deuce7 import Deuce7Value, evaluate_deuce7
from pokerlab.evaluation.high import HandValue
from pokerlab.evaluation.low import LowValue
from pokerlab.games import Game, get_game

__all__ = ["ShowdownValue", "showdown_value"]


@dataclass(frozen=True)
class ShowdownValue:
    """A hand's value in ``game`` (its name; ``title`` in words). ``high``: the high value, or
    ``None`` in a game with no high half (razz, 2-7). ``low``: the low value, ``None`` in a game
    with no low half or, in an 8-or-better game, when no low qualifies (``has_low`` tells which).
    """

    game: str
    title: str
    cards: tuple[Card, ...]
    board: tuple[Card, ...]
    high: HandValue | None
    low: LowValue | Deuce7Value | None
    has_low: bool

    @property
    def split(self) -> bool:
        """Whether the game splits the pot between a high and a low."""
        return self.has_low and self.high is not None

    def to_dict(self, with_game: bool = True) -> dict[str, Any]:
        """JSON-ready: ``game`` (unless not ``with_game``: a caller that asked for no game, for
        which a high hand's fields alone stay what they were) and, where one value decides the
        whole pot, that value's fields (``category``, ``description``, ``best``, ``strength``
        for a high hand); in a split game ``high`` and ``low`` (``null``: no qualifying low)."""
        head: dict[str, Any] = {"game": self.game} if with_game else {}
        if self.split:
            low = None if self.low is None else self.low.to_dict()
            assert self.high is not None
            return {**head, "high": self.high.to_dict(), "low": low}
        value = self.high if self.high is not None else self.low
        assert value is not None
        return {**head, **value.to_dict()}


def showdown_value(
    cards: CardsLike, game: str | Game = "holdem", board: CardsLike = ""
) -> ShowdownValue:
    """The value of ``cards`` (with ``board``, in a game with one) in ``game``: any game
    :func:`pokerlab.games.get_game` knows, or a draw game (``"high"``: five-card draw,
    ``"2-7"``: deuce-to-seven lowball, five cards).

    Hold'em and short deck take 5 to 7 cards, or the 2 hole cards and a board of 3 to 5; Omaha
    its hole cards and a board of 3 to 5 (two hole cards and three board cards make the hand);
    stud and razz 5 to 7 cards and no board. Bad cards, a duplicated card, a card outside the
    game's deck or a count the game does not deal raise a :class:`~pokerlab.errors.PokerlabError`
    naming the argument (``cards``, ``board``, ``game``)."""
    spec = _game(game)
    with blame("cards"):
        hole = parse_cards(cards)
    with blame("board"):
        table = parse_cards(board)
    if spec is None:  # a draw game: five cards
        return _draw_value(normalize_game(str(game)), hole, table)
    ensure_distinct(
        {"the cards": hole, "the board": table}, {"the cards": "cards", "the board": "board"}
    )
    _check_counts(spec, hole, table)
    with blame("board"):  # the evaluators see the hole and board cards as one hand
        spec.check_in_deck(table, "board")
    with blame("cards"):  # 5 to 7 cards in all: each evaluator's check
        high = high_value(spec.high, hole, table)
        low = low_value_of(spec.low, hole, table)
    has_low = spec.low != LowEval.NONE
    return ShowdownValue(spec.name, spec.title, tuple(hole), tuple(table), high, low, has_low)


def _game(game: str | Game) -> Game | None:
    """The game, or ``None`` for a draw game's name (``high``, ``2-7`` and their aliases)."""
    with blame("game"):
        try:
            return get_game(game)
        except GameError as exc:
            try:
                normalize_game(game)  # type: ignore[arg-type]
            except GameError:
                raise GameError(f"{exc}, or a draw game: high, 2-7") from None
            return None


def _check_counts(spec: Game, hole: list[Card], table: list[Card]) -> None:
    """Refuse a count of cards that ``spec`` does not deal (the field names the culprit); 5 to
    7 cards without a board are the evaluators' own check."""
    if spec.high == HighEval.OMAHA:
        if len(hole) != spec.hole_cards:
            raise CardError(
                f"{spec.a_title} hand has {spec.hole_cards} cards, got {len(hole)}: "
                f"'{format_cards(hole)}'",
                field="cards",
            )
        if not 3 <= len(table) <= 5:
            raise GameError(
                f"{spec.a_title} hand is valued with a board of 3, 4 or 5 cards (two hole cards "
                f"and three board cards), got {len(table)}",
                field="board",
            )
        return
    if table:
        with blame("board"):
            spec.check_board(len(table))  # stud: no board; hold'em: a flop, turn or river
        if len(hole) != spec.hole_cards:
            raise CardError(
                f"with a board, give the {spec.hole_cards} hole cards of {spec.a_title} hand, "
                f"got {len(hole)}: '{format_cards(hole)}'",
                field="cards",
            )


def _draw_value(name: str, hole: list[Card], table: list[Card]) -> ShowdownValue:
    """Five-card draw (high) or 2-7 lowball: five cards, no board."""
    if table:
        raise GameError("a draw game has no board", field="board")
    with blame("cards"):
        if name == "2-7":
            low = evaluate_deuce7(hole)
            return ShowdownValue("2-7", "2-7 lowball", tuple(hole), (), None, low, True)
        if len(hole) != 5:
            raise CardError(
                f"a five-card draw hand has 5 cards, got {len(hole)}: '{format_cards(hole)}'"
            )
        high = high_value(HighEval.BEST5, hole, [])
    return ShowdownValue("high", "Five-card draw", tuple(hole), (), high, None, False)
