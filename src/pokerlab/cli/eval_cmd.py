"""``pokerlab eval CARDS``: category, description, best five and strength of a high hand (by
short-deck rules with ``--short-deck``, by its other rule with ``--straight-beats-trips``)."""

from __future__ import annotations

import click

from pokerlab.cli.output import console, emit_json
from pokerlab.evaluation import evaluate, evaluate_short_deck


@click.command("eval")
@click.argument("cards", nargs=-1, required=True)
@click.option(
    "--json", "as_json", is_flag=True, help="Print JSON: category, description, best, strength."
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
    cards: tuple[str, ...], as_json: bool, short_deck: bool, straight_beats_trips: bool
) -> None:
    """Evaluate 5, 6 or 7 cards as a high hand, e.g. `pokerlab eval AsKs QsJs Ts 2d 3c`."""
    if straight_beats_trips and not short_deck:
        raise click.UsageError("--straight-beats-trips is a short-deck rule: add --short-deck")
    text = " ".join(cards)
    if short_deck:
        value = evaluate_short_deck(text, straight_beats_trips=straight_beats_trips)
    else:
        value = evaluate(text)
    if as_json:
        emit_json(value.to_dict())
        return
    from rich.table import Table

    table = Table(show_header=False, box=None)
    table.add_row("category", value.category.label)
    table.add_row("description", f"[bold]{value.description}[/bold]")
    table.add_row("best five", " ".join(str(c) for c in value.best))
    table.add_row("strength", str(value.strength))
    console().print(table)
