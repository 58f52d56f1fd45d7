"""``pokerlab outs HANDS... --board FLOP_OR_TURN``: winning, chopping and losing next cards."""

from __future__ import annotations

import click

from pokerlab.analysis import OutsReport, StreetOuts, outs
from pokerlab.cli.output import console, emit_json


def _street_table(title: str, street: StreetOuts, inputs: tuple[str, ...]) -> object:
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("player")
    table.add_column("hand / range")
    table.add_column("wins", style="green")
    table.add_column("ties", style="yellow")
    table.add_column("loses", style="red")
    for p, text in enumerate(inputs):
        cells = [street.win_cards(p), street.tie_cards(p), street.lose_cards(p)]
        table.add_row(
            str(p + 1), text, *(f"{len(cs)}: " + " ".join(str(c) for c in cs) for cs in cells)
        )
    return table


def render_outs(report: OutsReport) -> None:
    """Print an outs report as rich tables."""
    out = console()
    street = "river" if report.by_turn is None else "turn"
    out.print(_street_table(f"board {report.board}: every {street} card", report.next_cards,
                            report.inputs))  # fmt: skip
    if report.runouts is not None:
        totals = report.runouts
        out.print(f"over all {totals.total:,} turn+river runouts:")
        for p, text in enumerate(report.inputs):
            out.print(
                f"  {p + 1} {text}: wins {totals.win[p]:,}, ties {totals.tie[p]:,}, "
                f"loses {totals.lose[p]:,}, equity {totals.equity[p] * 100:.3f}%"
            )


@click.command("outs")
@click.argument("players", nargs=-1, required=True)
@click.option("--board", "-b", required=True, help="A flop (3 cards) or a turn (4 cards).")
@click.option("--dead", "-d", default="", help="Dead cards.")
@click.option(
    "--game",
    "-g",
    default="holdem",
    show_default=True,
    help="holdem, omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo (pattern ranges: AA**$ds).",
)
@click.option(
    "--threads",
    type=int,
    default=None,
    help="Threads to use (default: every available core; the answer is the same).",
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def outs_command(
    players: tuple[str, ...], board: str, dead: str, game: str, threads: int | None, as_json: bool
) -> None:
    """Which next cards win, tie or lose for each player, e.g.
    `pokerlab outs 9h8h AsKd --board Th7c2hKs`."""
    report = outs(list(players), board=board, dead=dead, game=game, threads=threads)
    if as_json:
        emit_json(report.to_dict())
    else:
        render_outs(report)
