"""``pokerlab eval CARDS``: what a hand is worth. A high hand by default (category, description,
best five, strength); ``--game`` values it in any game, each half of a split pot
(:func:`pokerlab.analysis.showdown.showdown_value`); ``--short-deck`` and
``--straight-beats-trips`` are short deck's two rules, as before ``--game``."""

from __future__ import annotations

from typing import Any

import click

from pokerlab.cli.output import console, emit_json


@click.command("eval")
@click.argument("cards", nargs=-1, required=True)
@click.option(
    "--game",
    "-g",
    default=None,
    help=(
        "Value the hand in this game: holdem (the default), shortdeck, shortdeck-straights, "
        "omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo (the hole cards, with --board), stud, "
        "stud-hilo, razz, or the draw games high and 2-7 (five cards). A split game shows both "
        "halves."
    ),
)
@click.option(
    "--board", "-b", default="", help="Board cards (a flop, turn or river), with the hole cards."
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: game, and category, description, best, strength (high and low in a split "
    "game).",
)
@click.option(
    "--short-deck",
    is_flag=True,
    help="Rank by short-deck (6+) rules: flush over full house, trips over straight, A6789.",
)
@click.option(
    "--straight-beats-trips",
    is_flag=True,
    help="With --short-deck: by its other rule, a straight over three of a kind.",
)
def eval_command(
    cards: tuple[str, ...],
    game: str | None,
    board: str,
    as_json: bool,
    short_deck: bool,
    straight_beats_trips: bool,
) -> None:
    """What a hand is worth, in any game: 5, 6 or 7 cards as a high hand by default, e.g.
    `pokerlab eval AsKs QsJs Ts 2d 3c`, or another game's hand with --game: `pokerlab eval
    As2sKd3d --board 4c5h6sQs7d --game omaha-hilo`."""
    from pokerlab.analysis.showdown import showdown_value

    if straight_beats_trips and not short_deck:
        raise click.UsageError("--straight-beats-trips is a short-deck rule: add --short-deck")
    if short_deck and game is not None:
        raise click.UsageError("--short-deck is --game shortdeck: give one of them")
    named = game is not None  # the game's view: its name shown, and in the JSON
    if short_deck:
        game = "shortdeck-straights" if straight_beats_trips else "shortdeck"
    value = showdown_value(" ".join(cards), game or "holdem", board)
    if as_json:  # without --game, a high hand's fields alone, as before --game
        emit_json(value.to_dict(with_game=named))
        return
    from rich.table import Table

    table = Table(show_header=False, box=None)
    if named:
        table.add_row("game", value.title)
    if value.split:
        assert value.high is not None
        _rows(table, "high", value.high.to_dict())
        if value.low is None:
            table.add_row("low", "no 8-or-better low")
        else:
            _rows(table, "low", value.low.to_dict())
    else:
        shown = value.high if value.high is not None else value.low
        assert shown is not None
        _rows(table, None, shown.to_dict())
    console().print(table)


def _rows(table: Any, half: str | None, fields: dict[str, Any]) -> None:
    """A value's rows: its category (a high hand's, a 2-7 hand's bucket), description, best five
    and strength; ``half`` ("high", "low"), the half of a split pot it plays for, heads its
    description (which names the category)."""
    kind = fields.get("category", fields.get("bucket"))
    if kind is not None and half is None:
        table.add_row("category", kind)
    table.add_row(half or "description", f"[bold]{fields['description']}[/bold]")
    table.add_row("best five", " ".join(fields.get("best", fields.get("cards", []))))
    table.add_row("strength", str(fields["strength"]))
