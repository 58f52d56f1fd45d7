"""``pokerlab distribution HERO VILLAIN... --board B``: the equity of every combo of each range."""

from __future__ import annotations

import click

from pokerlab._numbers import tenths
from pokerlab.analysis.distribution import (
    MAX_HOLDINGS,
    Distribution,
    equity_distribution,
    street_boards,
)
from pokerlab.cli.backend_options import threads_option
from pokerlab.cli.limits import check_limits, method_of, no_limit_option_of
from pokerlab.cli.numbers import INT, IntRange
from pokerlab.cli.output import (
    OutputPath,
    console,
    emit_json,
    is_stdout,
    literal,
    write_csv,
    writing,
)
from pokerlab.cli.progress import LazyProgress

__all__ = ["distribution_command"]

_BUCKETS = 10  # tenths of equity (pokerlab._numbers.tenths)
_LABEL_WIDTH = len("equity of")  # the label column's header wraps to this width
_SHARE_WIDTH = len("100.0%")  # the widest share a cell shows
_HEADER_WIDTH = 14  # a player's header wraps beyond this width
_RULES = 3  # a column's two padding spaces and its rule


def _side_by_side(headers: list[str], width: int) -> list[range]:
    """The players' columns in as few groups as fit ``width`` columns each (a group holds at
    least one player), in order, their sizes as even as the widths allow."""

    def need(i: int) -> int:
        return min(max(len(headers[i]), _SHARE_WIDTH), _HEADER_WIDTH) + _RULES

    def fits(group: range) -> bool:
        return len(group) == 1 or 1 + _LABEL_WIDTH + _RULES + sum(map(need, group)) <= width

    n = len(headers)
    for count in range(1, n + 1):
        groups = [range(n * g // count, n * (g + 1) // count) for g in range(count)]
        if all(map(fits, groups)):
            return groups
    return [range(i, i + 1) for i in range(n)]


def render_distribution(dist: Distribution, list_combos: bool) -> None:
    """Print, per player, its equity and the share of its range in each tenth of equity (and
    with ``list_combos`` every combo). Players that do not fit the terminal's width side by side
    go on to further tables of the same rows, so no cell is cut short."""
    from rich.table import Table

    out = console()
    headers = [
        f"{i} {literal(p.input)}: {p.equity:.2%}" for i, p in enumerate(dist.players, start=1)
    ]
    shares = []
    for p in dist.players:
        bucket = tenths(p.equities)
        shares.append([float(p.weights[bucket == b].sum()) for b in range(_BUCKETS)])
    groups = _side_by_side(headers, out.width)
    out.print(f"{dist.method} equity distribution, board {dist.board or '(none)'}")
    for group in groups:
        table = Table()
        if len(groups) > 1:
            first, last = group.start + 1, group.stop
            table.title = f"player {first}" if first == last else f"players {first}-{last}"
            table.title_justify = "left"
        table.add_column("equity of the combo", justify="right", min_width=_LABEL_WIDTH)
        for i in group:
            table.add_column(headers[i], justify="right", min_width=_SHARE_WIDTH)
        for b in range(_BUCKETS - 1, -1, -1):
            label = f"{100 * b // _BUCKETS}-{100 * (b + 1) // _BUCKETS}%"
            table.add_row(label, *(f"{shares[i][b]:.1%}" if shares[i][b] else "" for i in group))
        out.print(table)
    if list_combos:
        for i, p in enumerate(dist.players, start=1):
            listing = Table(title=f"player {i}: {literal(p.input)}", title_justify="left")
            for name in ("hand", "of range", "range weight", "equity"):
                listing.add_column(name, justify="left" if name == "hand" else "right")
            for h, w, rw, e in zip(
                p.hands,
                p.weights.tolist(),
                p.range_weights.tolist(),
                p.equities.tolist(),
                strict=True,
            ):
                listing.add_row(h, f"{w:.3%}", f"{rw:g}", f"{e:.2%}")
            out.print(listing)


@click.command("distribution")
@click.argument("hero", metavar="HERO")
@click.argument("villains", metavar="VILLAIN...", nargs=-1, required=True)
@click.option("--board", "-b", default="", help="Board cards: 0, 3, 4 or 5 (e.g. Qh7c2d).")
@click.option("--dead", "-d", default="", help="Dead cards.")
@click.option(
    "--game",
    "-g",
    default="holdem",
    show_default=True,
    help="As for `pokerlab equity` (pattern ranges outside hold'em).",
)
@click.option("--exact", is_flag=True, help="Enumerate every deal of every combo.")
@click.option("--mc", is_flag=True, help="Monte Carlo per combo (with --trials, --seed).")
@click.option("--trials", type=INT, default=None, help="Monte Carlo: deals per combo.")
@click.option("--seed", type=INT, default=None, help="Monte Carlo: random seed.")
@no_limit_option_of("trials")
@threads_option
@click.option(
    "--max-holdings",
    type=IntRange(min=1),
    default=MAX_HOLDINGS,
    show_default=True,
    help="Outside heads-up hold'em with a board: refuse more holdings in all than this "
    "(each is one equity run).",
)
@click.option("--list", "list_combos", is_flag=True, help="List every combo and its equity.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option(
    "--csv",
    "csv_path",
    type=OutputPath(str),
    default=None,
    metavar="PATH",
    help="Write every combo as CSV to PATH ('-' for stdout).",
)
@click.option(
    "--plot",
    "plot_path",
    type=OutputPath(str, png=True),
    default=None,
    metavar="PNG",
    help="Draw the curves of every player, one panel per street up to the board, "
    'as a PNG (needs matplotlib: pip install "pokerlab[plot]").',
)
def distribution_command(
    hero: str,
    villains: tuple[str, ...],
    board: str,
    dead: str,
    game: str,
    exact: bool,
    mc: bool,
    trials: int | None,
    seed: int | None,
    no_limit: bool,
    threads: int | None,
    max_holdings: int,
    list_combos: bool,
    as_json: bool,
    csv_path: str | None,
    plot_path: str | None,
) -> None:
    """The equity of every combo of HERO's range against the VILLAIN range(s), and of theirs,
    e.g. `pokerlab distribution "QQ+,AK" "JJ-99,AQs" --board Kd7c2h --plot curve.png`."""
    # as for equity: without --mc, --trials and --seed set the sampling auto may fall back to
    method = method_of(exact, mc, trials=trials, seed=seed)
    check_limits(trials=trials, no_limit=no_limit)  # per combo: 10^11 ran on and on
    if as_json and csv_path is not None and is_stdout(csv_path):
        raise click.UsageError("--json and --csv - both write to stdout: give --csv a file")

    def compute(on: str) -> Distribution:
        with LazyProgress(f"distribution, board {on or '(none)'}") as bar:
            return equity_distribution(
                hero,
                list(villains),
                board=on,
                dead=dead,
                game=game,
                method=method,
                trials=trials,
                seed=seed,
                threads=threads,
                max_holdings=max_holdings,
                progress=bar,
            )

    dist = compute(board)
    if plot_path is not None:
        from pokerlab.analysis.plots import plot_distribution

        streets = [dist if b == dist.board else compute(b) for b in street_boards(board)]
        with writing(plot_path):
            plot_distribution(streets, plot_path)
    if csv_path is not None:
        write_csv(csv_path, dist.csv_rows())
    if as_json:
        emit_json(dist.to_dict())
    elif csv_path is None or not is_stdout(csv_path):
        render_distribution(dist, list_combos)
