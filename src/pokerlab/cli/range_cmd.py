"""``pokerlab range RANGE``: combos, percent, canonical text and 13x13 grid of a hold'em range;
``pokerlab range convert --to FORMAT RANGE``: the range in another tool's notation."""

from __future__ import annotations

import click

from pokerlab.cli.output import console, emit_json
from pokerlab.engine.game_range import game_range_report
from pokerlab.ranges import load_ordering
from pokerlab.ranges.formats import FORMATS, read_range, write_range

__all__ = ["range_command", "range_group"]


def _cell_style(fraction: float) -> str:
    """Rich style of a grid cell by the fraction of its combos present."""
    if fraction >= 1.0:
        return "bold black on green3"
    if fraction >= 0.5:
        return "black on yellow3"
    if fraction > 0.0:
        return "black on orange3"
    return "grey50"


def _cell_mark(fraction: float) -> str:
    """The symbol after a class name in the grid, so that the grid reads without colour:
    ``*`` every combo of the class is in the range, ``~`` some are, nothing when none is."""
    if fraction >= 1.0:
        return "*"
    if fraction > 0.0:
        return "~"
    return ""


@click.command("range", short_help="Show a hold'em range: combos, percent and its 13x13 grid.")
@click.argument("text", metavar="RANGE")
@click.option(
    "--dead", default=None, metavar="CARDS", help="Remove combos using these cards, e.g. 'As 7h'."
)
@click.option("--list", "list_combos", is_flag=True, help="Also list every combo and its weight.")
@click.option(
    "--ordering-file",
    default=None,
    metavar="FILE",
    help="Load an ordering of the 169 classes (best first) for 'x%@file'.",
)
@click.option(
    "--game",
    default=None,
    metavar="GAME",
    help="Read it in this game's deck: shortdeck drops the cards below the six, counts its "
    "630 combos and takes its own x% ordering.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print JSON: input, canonical, combos, percent, weighted_combos, grid (and list; deck "
    "with --game shortdeck).",
)
def range_command(
    text: str,
    dead: str | None,
    list_combos: bool,
    ordering_file: str | None,
    game: str | None,
    as_json: bool,
) -> None:
    """Show a hold'em range, e.g. `pokerlab range "QQ+,AKs,A5s:0.5"` or `pokerlab range 15%`.

    Notation: QQ+, 99-22, AKs, AKo, AK, A2s+, KTo-K7o, T9s-54s, AcKd, random, 15%, 5%-10%,
    weights AQs:0.5 or AQs@50 (the last mention of a combo wins). Top x% takes whole classes of
    an ordering: 15% (equity vs three random hands), 15%@vs1 (vs one random hand), 15%@sc
    (Sklansky-Chubukov), 15%@file (--ordering-file); in short deck (--game shortdeck) its own.
    """
    if ordering_file is not None:
        if "@file" not in text.lower():
            raise click.UsageError("--ordering-file is read by 'x%@file'; the range has none")
        load_ordering(ordering_file, "file")
    # no --game is hold'em: '15%@short' is refused, as equity refuses it
    report = game_range_report(text, dead, list_combos, game or "holdem")
    if as_json:
        emit_json(report)
        return
    from rich.table import Table
    from rich.text import Text

    out = console()
    summary = Table(show_header=False, box=None)
    cards = report.get("deck", 52)
    summary.add_row("range", f"[bold]{report['canonical']}[/bold]")
    summary.add_row(
        "combos", f"{report['combos']} of {cards * (cards - 1) // 2} ({report['percent']:.2f}%)"
    )
    if report["weighted_combos"] != report["combos"]:
        summary.add_row("weighted", f"{report['weighted_combos']:g}")
    if dead is not None:
        summary.add_row("dead", dead)
    for cut in report.get("top", []):
        low, high = cut["asked"]
        asked = f"top {high:g}%" if low == 0 else f"{low:g}%-{high:g}% band"
        summary.add_row(
            "top x%",
            f"{cut['item']}: {asked} by '{cut['ordering']}' ({cut['ranks_by']}), whole classes: "
            f"{cut['classes']} classes, {cut['combos']} combos = {cut['percent']:.2f}%",
        )
    out.print(summary)
    # a weighted class shows as in range: say where the weights are (a helper read AKo:0.5
    # as all of AKo)
    weighted = report["weighted_combos"] != report["combos"]
    weights = " (weights: --list)" if weighted else ""
    out.print(f"grid: * all combos of the class in range{weights}, ~ some of them")
    grid = Table(show_header=False, box=None, padding=(0, 0), pad_edge=False)
    # the deck's ranks only: short deck's 9 x 9 (its classes with a five or lower hold nothing)
    ranks = 13 - (52 - cards) // 4
    for _ in range(ranks):
        grid.add_column(justify="center", width=5)
    for row in report["grid"][:ranks]:
        cells = [(c["class"], c["fraction"]) for c in row[:ranks]]
        grid.add_row(
            *(Text(f"{name + _cell_mark(f):^5}", style=_cell_style(f)) for name, f in cells)
        )
    out.print(grid)
    if list_combos:
        listing = Table(show_header=True, box=None)
        listing.add_column("combo")
        listing.add_column("weight", justify="right")
        for item in report["list"]:
            listing.add_row(item["combo"], f"{item['weight']:g}")
        out.print(listing)


@click.command("convert", short_help="Write a hold'em range in another tool's format.")
@click.argument("text", metavar="RANGE")
@click.option(
    "--to",
    "to",
    required=True,
    type=click.Choice(FORMATS, case_sensitive=False),
    help="Format to write.",
)
@click.option(
    "--from",
    "source",
    default="auto",
    show_default=True,
    type=click.Choice(("auto", *FORMATS), case_sensitive=False),
    help="Format of RANGE (auto: GTO+ brackets, else pokerlab/PokerStove/Pio, "
    "else ProPokerTools generic).",
)
def convert_command(text: str, to: str, source: str) -> None:
    """Write a hold'em range in another tool's format, e.g.
    `pokerlab range convert --to gtoplus "QQ+,AKs:0.5"` prints `QQ+,[50]AKs[/50]`.

    Formats: pokerstove/equilab (no weights), pio (AA,KK:0.5), gtoplus ([50]AA,KK[/50]),
    ppt (ProPokerTools generic: AxKx, AxKy, @50), pokerlab (canonical).
    """
    click.echo(write_range(read_range(text, source), to))


class _RangeGroup(click.Group):
    """``pokerlab range`` runs ``show`` unless its first argument names a subcommand, so
    ``pokerlab range QQ+`` keeps working beside ``pokerlab range convert ...``."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("-h", "--help"):
            args = ["show", *args]
        return super().parse_args(ctx, args)


@click.group("range", cls=_RangeGroup)
def range_group() -> None:
    """Hold'em ranges: `pokerlab range RANGE` shows one (the `show` command), `pokerlab range
    convert --to pio RANGE` translates one."""


range_group.add_command(range_command, name="show")
range_group.add_command(convert_command)
