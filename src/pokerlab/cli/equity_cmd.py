"""``pokerlab equity HAND_OR_RANGE ...``: who wins, how often."""

from __future__ import annotations

import click

from pokerlab.cli.output import console, emit_json
from pokerlab.cli.progress import LazyProgress
from pokerlab.equity import EquityResult, equity


def _method(
    exact: bool, mc: bool, trials: int | None, stderr: float | None, time_limit: float | None
) -> str:
    if exact and mc:
        raise click.UsageError("--exact and --mc exclude each other")
    if exact:
        if trials is not None or stderr is not None or time_limit is not None:
            raise click.UsageError(
                "--trials, --stderr and --time apply to Monte Carlo, not --exact"
            )
        return "exact"
    return "monte-carlo" if mc else "auto"


def render_equity(result: EquityResult) -> None:
    """Print an equity result as a rich table."""
    from rich.table import Table

    sampled = result.method == "monte-carlo"
    split = result.players[0].hi is not None
    title = f"{result.game}" + (f"  board {result.board}" if result.board else "")
    title += f"  dead {result.dead}" if result.dead else ""
    table = Table(title=title, title_justify="left")
    table.add_column("player")
    table.add_column("hand / range")
    table.add_column("equity", justify="right")
    table.add_column("win", justify="right")
    table.add_column("tie", justify="right")
    table.add_column("tie equity", justify="right")
    if split:
        for name in ("hi", "lo", "scoop"):
            table.add_column(name, justify="right")
    if sampled:
        table.add_column("± stderr", justify="right")
    table.add_column("combos", justify="right")
    for i, p in enumerate(result.players, start=1):
        row = [
            str(i),
            p.input,
            f"[bold]{p.equity * 100:.3f}%[/bold]",
            f"{p.win * 100:.3f}%",
            f"{p.tie * 100:.3f}%",
            f"{p.tie_equity * 100:.3f}%",
        ]
        if split:
            row += [f"{(x or 0.0) * 100:.3f}%" for x in (p.hi, p.lo, p.scoop)]
        if sampled:
            row.append(f"{p.stderr * 100:.3f}%")
        row.append(str(p.combos))
        table.add_row(*row)
    out = console()
    out.print(table)
    kind = "deals sampled" if sampled else "deals enumerated"
    extra = f", stopped by {result.stopped}" if sampled else ""
    out.print(f"{result.method}: {result.samples:,} {kind} in {result.seconds:.3f} s{extra}")


@click.command("equity")
@click.argument("players", nargs=-1, required=True)
@click.option("--board", "-b", default="", help="Board cards: 0, 3, 4 or 5 (e.g. Qh7c2d).")
@click.option("--dead", "-d", default="", help="Dead cards (folded, seen, burned).")
@click.option(
    "--game",
    "-g",
    default="holdem",
    show_default=True,
    help=(
        "holdem, omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo, stud, stud-hilo, razz. "
        "Hands other than hold'em are pattern ranges (AA**$ds, (3-3-)45678); stud hands are "
        "the known cards, '|' may separate down from up cards."
    ),
)
@click.option("--exact", is_flag=True, help="Enumerate every deal (refused if far too large).")
@click.option("--mc", is_flag=True, help="Monte Carlo sampling.")
@click.option("--trials", type=int, default=None, help="Monte Carlo: number of deals.")
@click.option("--stderr", type=float, default=None, help="Monte Carlo: target standard error.")
@click.option("--time", "time_limit", type=float, default=None, help="Monte Carlo: seconds.")
@click.option("--seed", type=int, default=None, help="Monte Carlo: random seed.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
def equity_command(
    players: tuple[str, ...],
    board: str,
    dead: str,
    game: str,
    exact: bool,
    mc: bool,
    trials: int | None,
    stderr: float | None,
    time_limit: float | None,
    seed: int | None,
    as_json: bool,
) -> None:
    """Equity of each player, e.g. `pokerlab equity AhAs KdKc` or
    `pokerlab equity AsKs "QQ+,AKs" --board Qh7c2d --dead 3s`."""
    method = _method(exact, mc, trials, stderr, time_limit)
    with LazyProgress("equity") as bar:
        result = equity(
            list(players), board=board, dead=dead, game=game, method=method,  # type: ignore[arg-type]
            trials=trials, stderr=stderr, time_limit=time_limit, seed=seed, progress=bar,
        )  # fmt: skip
    if as_json:
        emit_json(result.to_dict())
    else:
        render_equity(result)
