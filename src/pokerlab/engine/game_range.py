"""Hold'em-notation ranges read for a game: short deck's ``x%`` takes its own ordering, and a
range report counts in the game's deck. Shared by the engine (:mod:`pokerlab.engine.problem`),
board hits and the interfaces.
"""

from __future__ import annotations

from typing import Any

from pokerlab.cards import parse_cards
from pokerlab.errors import GameError, RangeError, blame
from pokerlab.evaluation.codes import SHORT_DECK_RULES
from pokerlab.games import Game, get_game
from pokerlab.ranges import range_report
from pokerlab.ranges._order import SHORT_ORDERING, SHORT_ORDERINGS, STRAIGHTS_ORDERING
from pokerlab.ranges._order import describe as describe_ordering
from pokerlab.ranges._parse import cuts_of_valid

__all__ = ["check_orderings", "game_ordering", "game_range_report"]


def game_ordering(game: Game) -> str | None:
    """The ordering a ``x%`` item of ``game``'s hold'em-syntax ranges takes: short deck's own
    (``short``, or ``short_straights`` by its other rule), else ``None`` (the default,
    ``vs3``)."""
    if not game.removed_mask:
        return None
    return STRAIGHTS_ORDERING if SHORT_DECK_RULES.get(game.high) else SHORT_ORDERING


def check_orderings(text: str, game: Game) -> None:
    """Refuse a ``x%`` item of a range text (known to parse) whose ordering ranks the other
    deck's hands: the full deck's in short deck, a short-deck one in another game. (Either
    short-deck ordering is taken in either short-deck game when named.)"""
    if "%" not in text:
        return
    own = game_ordering(game)
    for cut in cuts_of_valid(text, own):
        name = cut["ordering"]
        if (name in SHORT_ORDERINGS) != bool(game.removed_mask):
            ranks = "short-deck" if name in SHORT_ORDERINGS else "full-deck"
            takes = f"'{own}', its default" if game.removed_mask else "the others"
            raise RangeError(
                f"'{cut['item']}' takes the ordering '{name}' ({describe_ordering(name)}), "
                f"which ranks {ranks} hands; {game.title} percentages take {takes}"
            )


def game_range_report(
    text: str, dead: str | None, list_combos: bool, game: str | Game
) -> dict[str, Any]:
    """:func:`~pokerlab.ranges.range_report` of a hold'em-notation range read in ``game``: in
    its deck (short deck: the combos of sixes to aces, ``percent`` of its 630, ``deck`` 36) and
    with its ``x%`` ordering. Errors name the field (``game``, ``range``, ``dead``).

    >>> r = game_range_report("15%", None, False, "shortdeck")
    >>> r["combos"], r["top"][0]["ordering"], r["deck"]
    (100, 'short', 36)
    """
    with blame("game"):
        spec = get_game(game)
        if spec.range_syntax != "holdem":
            raise GameError(
                f"a range report reads hold'em notation; {spec.title} hands are written as "
                "cards or patterns"
            )
    with blame("dead"):
        spec.check_in_deck(parse_cards(dead or ""), "dead")
    report = range_report(
        text, dead, list_combos, ordering=game_ordering(spec), lowest_rank=spec.lowest_rank
    )
    with blame("range"):  # a text that parses: is its x% on the game's deck's ordering?
        check_orderings(text, spec)
    return report
