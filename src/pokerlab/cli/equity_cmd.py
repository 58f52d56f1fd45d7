"""``pokerlab equity HAND_OR_RANGE ...``: who wins, how often."""

from __future__ import annotations

from contextlib import nullcontext
from typing import Any

import click

from pokerlab._numbers import counted
from pokerlab.cli.backend_options import check_backend, cluster_options, threads_option
from pokerlab.cli.interrupts import exit_interrupted, first_interrupt_stops
from pokerlab.cli.limits import (
    check_limits,
    method_of,
    no_limit_option,
    stderr_option,
    time_option,
)
from pokerlab.cli.numbers import INT
from pokerlab.cli.output import console, emit_json, literal
from pokerlab.cli.percent import percent, stderr_percent
from pokerlab.cli.progress import LazyProgress
from pokerlab.engine import EquityResult, equity


def render_equity(result: EquityResult) -> None:
    """Print an equity result as a rich table."""
    from rich.table import Table

    sampled = result.method == "monte-carlo"
    split = result.players[0].hi is not None
    title = f"{result.game}" + (f"  board {result.board}" if result.board else "")
    title += f"  dead {result.dead}" if result.dead else ""
    title += "  (seventh street: one shared card)" if result.shared_card else ""
    # Fits an 80-column terminal: split games add hi / lo, so percentages show two decimals
    # instead of three and tie equity is headed "tie eq". Scoop is not a column there: a split
    # game's win is the scoop (definitions.md), so it would repeat win (--json still has it).
    table = Table(title=title, title_justify="left", box=None, pad_edge=False, header_style="bold")
    table.add_column("#", no_wrap=True)
    table.add_column("hand / range", overflow="fold", min_width=8)
    numbers = ["equity", "win", "tie"]
    numbers += ["hi", "lo", "tie eq"] if split else ["tie equity"]
    numbers += ["stderr"] if sampled else []
    digits = 2 if split else 3
    for name in [*numbers, "combos"]:  # a header stays on one line, as wide as its name
        table.add_column(name, justify="right", no_wrap=True, min_width=len(name))
    for i, p in enumerate(result.players, start=1):
        values = [p.equity, p.win, p.tie]
        values += [p.hi or 0.0, p.lo or 0.0, p.tie_equity] if split else [p.tie_equity]
        cells = [percent(x, digits) for x in values]
        cells += [stderr_percent(p.stderr, digits)] if sampled else []
        cells[0] = f"[bold]{cells[0]}[/bold]"
        table.add_row(str(i), literal(p.input), *cells, f"{p.combos:,}")
    out = console()
    # never narrower than its numbers: on a narrow terminal rich cut the last columns to
    # nothing ("combos" became "c", its values gone); a wider line wraps in the terminal
    from rich.measure import Measurement

    hands = table.columns[1]
    hands.max_width = hands.min_width  # its text folds: count only the width it may fold to
    needed = Measurement.get(out, out.options.update_width(1000), table).minimum
    hands.max_width = None
    (console(width=needed) if needed > out.width else out).print(table)
    kind = "sampled" if sampled else "enumerated"
    why = "cancelled" if result.stopped == "cancelled" else f"stopped by {result.stopped}"
    extra = f", {why}, seed {result.seed}" if sampled else ""
    out.print(
        f"{result.method}: {counted(result.samples, 'deal')} {kind} in {result.seconds:.3f} s"
        f"{extra}"
    )


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
        "holdem, shortdeck, shortdeck-straights, omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo, "
        "stud, stud-hilo, razz. Hands other than hold'em and short deck are pattern ranges "
        "(AA**$ds, (3-3-)45678); stud hands are the known cards, '|' may separate down from up "
        "cards."
    ),
)
@click.option("--exact", is_flag=True, help="Enumerate every deal (refused if far too large).")
@click.option("--mc", is_flag=True, help="Monte Carlo sampling.")
@click.option("--trials", type=INT, default=None, help="Monte Carlo: number of deals.")
@stderr_option
@time_option
@no_limit_option
@click.option(
    "--seed",
    type=INT,
    default=None,
    help="Monte Carlo: random seed (the same seed gives the same answer, unless --time stops it).",
)
@threads_option
@cluster_options
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
    no_limit: bool,
    seed: int | None,
    threads: int | None,
    scheduler: str | None,
    local_cluster: int | None,
    as_json: bool,
) -> None:
    """Equity of each player, e.g. `pokerlab equity AhAs KdKc` or
    `pokerlab equity AsKs "QQ+,AKs" --board Qh7c2d --dead 3s`.

    With --scheduler or --local-cluster the job's chunks run on a Dask cluster; the answer is
    the same bits (Monte Carlo: with --seed, unless --time stops it)."""
    method = method_of(exact, mc, trials=trials, stderr=stderr, time_limit=time_limit, seed=seed)
    check_limits(trials, stderr, time_limit, no_limit)
    check_backend(scheduler, local_cluster, threads=threads)
    cluster: Any = nullcontext()
    if scheduler is not None or local_cluster is not None:
        from pokerlab.engine.problem import prepare
        from pokerlab.scale import make_backend  # Dask only when asked for

        prepare(list(players), board, dead, game)  # a bad card is told before any connection
        cluster = make_backend(scheduler=scheduler, local_cluster=local_cluster)
    with cluster as backend, LazyProgress("equity") as bar, first_interrupt_stops() as stop:
        result = equity(
            list(players), board=board, dead=dead, game=game, method=method,
            trials=trials, stderr=stderr, time_limit=time_limit, seed=seed, progress=bar,
            threads=threads, client=None if backend is None else backend.executor, cancel=stop,
        )  # fmt: skip
    if as_json:
        emit_json(result.to_dict())
    else:
        render_equity(result)
    if result.stopped == "cancelled":
        exit_interrupted(result.samples)
