"""``pokerlab hits RANGE --board B``: how a range hits a board, by made category and draw."""

from __future__ import annotations

import click

from pokerlab._numbers import counted
from pokerlab.analysis import CategoryCount, HitsReport, hits
from pokerlab.cli.backend_options import threads_option
from pokerlab.cli.output import console, emit_json, literal

__all__ = ["hits_command"]


def weight_text(weight: float) -> str:
    """A total weight as the tables show it: grouped digits, up to three decimals (``:g``
    showed 1,906,880 as ``1.90688e+06``, its last digits lost)."""
    return f"{weight:,.3f}".rstrip("0").rstrip(".")


def _row(table: object, c: CategoryCount, indent: str = "") -> None:
    style = None if c.combos else "grey50"
    table.add_row(  # type: ignore[attr-defined]
        indent + c.name, f"{c.combos:,}", weight_text(c.weight), f"{c.percent:.2f}%", style=style
    )


def render_hits(report: HitsReport) -> None:
    """Print a hits report as two rich tables (made hands, then draws)."""
    from rich.table import Table

    out = console()
    title = f"{literal(report.range)} on {report.board}"
    made = Table(
        title=f"{title}: {counted(report.combos, 'combo')}, weight {weight_text(report.weight)}",
        title_justify="left",
    )
    for name, justify in (
        ("made hand", "left"),
        ("combos", "right"),
        ("weight", "right"),
        ("% of range", "right"),
    ):
        made.add_column(name, justify=justify)  # type: ignore[arg-type]
    for c in report.categories:
        _row(made, c)
        for d in c.detail:
            _row(made, d, "  ")
    out.print(made)
    if report.draws:
        draws = Table(title_justify="left")
        for name, justify in (
            ("draw", "left"),
            ("combos", "right"),
            ("weight", "right"),
            ("% of range", "right"),
        ):
            draws.add_column(name, justify=justify)  # type: ignore[arg-type]
        for c in report.draws:
            _row(draws, c)
        out.print(draws)


@click.command("hits")
@click.argument("range_text", metavar="RANGE")
@click.option("--board", "-b", required=True, help="A flop, turn or river, e.g. Ks9s2d.")
@click.option("--dead", "-d", default="", help="Dead cards.")
@click.option(
    "--game",
    "-g",
    default="holdem",
    show_default=True,
    help="holdem, shortdeck (6+: its own ranking, 36-card deck; shortdeck-straights: a straight "
    "over trips), or an Omaha game (omaha, "
    "omaha5, omaha6, ...) with a pattern range (AA**$ds).",
)
@click.option("--list", "list_combos", is_flag=True, help="With --json: every combo's category.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@threads_option
def hits_command(
    range_text: str,
    board: str,
    dead: str,
    game: str,
    list_combos: bool,
    as_json: bool,
    threads: int | None,
) -> None:
    """How RANGE hits a board: combos, weight and percent per made hand and draw, e.g.
    `pokerlab hits "QQ+,AKs,JTs" --board Ks9s2d`."""
    if list_combos and not as_json:
        raise click.UsageError("--list adds every combo to the JSON; add --json")
    report = hits(range_text, board=board, game=game, dead=dead, threads=threads)
    if as_json:
        emit_json(report.to_dict(list_combos))
    else:
        render_hits(report)
