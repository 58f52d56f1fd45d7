"""``pokerlab query "select ... from ... where ..."``: aggregates over the deals of a spot."""

from __future__ import annotations

from pathlib import Path

import click

from pokerlab._numbers import counted
from pokerlab.analysis.query import AggregateResult, QueryResult, query
from pokerlab.cli.backend_options import threads_option
from pokerlab.cli.interrupts import exit_interrupted, first_interrupt_stops
from pokerlab.cli.limits import (
    LIFT,
    check_limits,
    method_of,
    no_limit_option,
    stderr_option_of,
    time_option,
)
from pokerlab.cli.numbers import INT
from pokerlab.cli.output import OutputPath, console, emit_json, literal, writing
from pokerlab.cli.progress import LazyProgress
from pokerlab.errors import QueryError

_BAR_WIDTH = 30


def _number(r: AggregateResult) -> str:
    if r.value is None:
        return "-"
    if isinstance(r.value, str):  # a min or max of a hand type: its name
        return r.value
    assert isinstance(r.value, float)
    text = f"{r.value:.6f}" if r.aggregate in ("avg", "count") else f"{r.value:g}"
    if r.aggregate == "count" and r.count is not None:
        text += f" ({_weighted_count(r.count)})"
    return text


def _weighted_count(count: float) -> str:
    """A count weighted by range weights as it is: ``22``, or ``21.5`` (not rounded to 22).

    >>> _weighted_count(1234567.0), _weighted_count(21.5), _weighted_count(1 / 3)
    ('1,234,567', '21.5', '0.333333')
    """
    if count == int(count):
        return f"{count:,.0f}"
    return f"{count:,.6f}".rstrip("0")


def _stderr(r: AggregateResult, exact: bool) -> str:
    if exact:
        return "exact"
    return "-" if r.stderr is None else f"{r.stderr:.6f}"


def histogram_lines(r: AggregateResult, exact: bool) -> list[str]:
    """A histogram as text bars, one line per bucket."""
    assert isinstance(r.value, list)
    width = max(len(b.bucket) for b in r.value) if r.value else 0
    top = max((b.value for b in r.value), default=0.0) or 1.0
    lines = []
    for b in r.value:
        bar = "#" * round(_BAR_WIDTH * b.value / top)
        err = "" if exact or b.stderr is None else f" ± {b.stderr * 100:.2f}"
        lines.append(f"  {b.bucket:>{width}}  {b.value * 100:6.2f}%{err}  {bar}")
    return lines


def render_query(result: QueryResult) -> None:
    """Print a query result: a table of aggregates, then one text chart per histogram."""
    from rich.table import Table

    exact = result.method == "exact"
    players = ", ".join(f"{n}={t}" for n, t in result.players)
    title = f"{result.game}  {players}" + (f"  board {result.board}" if result.board else "")
    # A line of its own: as the table's title it wrapped at the (narrow) table's width.
    table = Table(box=None, pad_edge=False, header_style="bold")
    table.add_column("aggregate", overflow="fold")
    table.add_column("value", justify="right", no_wrap=True)
    table.add_column("stderr", justify="right", no_wrap=True)
    table.add_column("deals", justify="right", no_wrap=True)
    charts = []
    for r in result.results:
        if isinstance(r.value, list):
            charts.append(r)
            value = counted(len(r.value), "bucket")
        else:
            value = _number(r)
        table.add_row(literal(r.name), value, _stderr(r, exact), f"{result.matched:,}")
    out = console()
    out.print(literal(title))
    out.print(table)
    for r in charts:
        out.print(f"[bold]{literal(r.name)}[/bold]")
        for line in histogram_lines(r, exact):
            out.print(literal(line))
    kind = "enumerated" if exact else f"sampled (seed {result.seed})"
    why = "cancelled" if result.stopped == "cancelled" else f"stopped by {result.stopped}"
    out.print(
        f"{result.method}: {counted(result.deals, 'deal')} {kind}, "
        f"{result.matched:,} passed where, "
        f"{result.seconds:.3f} s" + ("" if exact else f", {why}"),
        soft_wrap=True,  # one line, however narrow the terminal (scripts read it)
    )


def _check_plot(text: str) -> None:
    """Refuse ``--plot`` before the query runs (it was refused after a whole exact run) when
    matplotlib is missing or the query selects no histogram; a query that does not parse is
    left for :func:`pokerlab.query` to describe."""
    from pokerlab.analysis.query.syntax import parse

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise click.UsageError('--plot needs matplotlib: pip install "pokerlab[plot]"') from None
    try:
        items = parse(text).select
    except QueryError:
        return
    if not any(item.aggregate == "histogram" for item in items):
        raise click.UsageError("--plot draws histograms; the query selects none")


def plot_histograms(result: QueryResult, path: Path) -> None:
    """Write the query's histograms as bar charts to a PNG (needs matplotlib)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # _check_plot checked it
    from matplotlib.figure import Figure

    charts = [r for r in result.results if isinstance(r.value, list)]
    fig = Figure(figsize=(6, 2.6 * len(charts)))
    FigureCanvasAgg(fig)
    for i, r in enumerate(charts, start=1):
        assert isinstance(r.value, list)
        ax = fig.add_subplot(len(charts), 1, i)
        errors = [b.stderr or 0.0 for b in r.value] if result.method != "exact" else None
        ax.bar([b.bucket for b in r.value], [b.value for b in r.value], yerr=errors)
        ax.set_title(r.name, fontsize=9)
        ax.set_ylabel("share of deals")
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    fig.tight_layout()
    fig.savefig(path, format="png")


@click.command("query")
@click.argument("text")
@click.option("--exact", is_flag=True, help="Enumerate every deal (refused if far too large).")
@click.option("--mc", is_flag=True, help="Monte Carlo sampling.")
@click.option("--trials", type=INT, default=None, help="Monte Carlo: number of deals.")
@stderr_option_of("every avg and count")
@time_option
@no_limit_option
@click.option("--seed", type=INT, default=None, help="Monte Carlo: random seed.")
@threads_option
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@click.option("--plot", type=OutputPath(png=True), default=None,
              help="Write the histograms to this PNG file (needs matplotlib).")  # fmt: skip
def query_command(
    text: str,
    exact: bool,
    mc: bool,
    trials: int | None,
    stderr: float | None,
    time_limit: float | None,
    no_limit: bool,
    seed: int | None,
    threads: int | None,
    as_json: bool,
    plot: Path | None,
) -> None:
    """Answer a query, e.g. `pokerlab query "select avg(riverEquity(hero)) from hero='AhAs',
    villain='KdKc'"`. The grammar and every function are in docs/query.md (shipped with
    pokerlab, and served by `pokerlab serve` at /docs/query.md)."""
    chosen = method_of(exact, mc, trials=trials, stderr=stderr, time_limit=time_limit, seed=seed)
    method = None if chosen == "auto" else chosen
    check_limits(trials, stderr, time_limit, no_limit)
    if plot is not None:
        _check_plot(text)
    with LazyProgress("query") as bar, first_interrupt_stops() as stop:
        result = query(text, method=method, trials=trials, stderr=stderr,
                       time_limit=time_limit, seed=seed, progress=bar, threads=threads,
                       cancel=stop.is_set, capped=not no_limit, lift=LIFT)  # fmt: skip
    if plot is not None:
        with writing(plot):
            plot_histograms(result, plot)
    if as_json:
        emit_json(result.to_dict())
    else:
        render_query(result)
    if stop.is_set() and result.method == "monte-carlo":  # cut short, an estimate still
        exit_interrupted(result.deals, "the estimates cover")
