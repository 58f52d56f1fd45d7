"""``pokerlab eval CARDS``: category, description, best five and strength of a high hand (by
short-deck rules with ``--short-deck``)."""

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
def eval_command(cards: tuple[str, ...], as_json: bool, short_deck: bool) -> None:
    """Evaluate 5, 6 or 7 cards as a high hand, e.g. `pokerlab eval AsKs QsJs Ts 2d 3c`."""
    value = (evaluate_short_deck if short_deck else evaluate)(" ".join(cards))
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
