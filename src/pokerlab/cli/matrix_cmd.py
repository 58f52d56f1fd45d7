"""``pokerlab matrix``: the exact 169x169 heads-up preflop class matrix (81x81 in short deck),
CSV and PNG."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pokerlab._numbers import counted
from pokerlab.cli.backend_options import CountProgress, backend_options, check_backend
from pokerlab.cli.output import OutputPath, emit_json, is_stdout, shown, write_csv, writing
from pokerlab.scale.matrix import preflop_matrix


@click.command("matrix")
@click.option("--output", "-o", type=OutputPath(),
              default=Path("preflop-matrix.csv"), show_default=True,
              help="CSV: hand, villain, equity, win, tie (169 x 169 rows; '-' for "
                   "stdout).")  # fmt: skip
@click.option("--png", type=OutputPath(png=True), default=None,
              help="Also draw the equity heatmap here (needs matplotlib).")  # fmt: skip
@click.option("--classes", default=None, metavar="AA,AKs,...",
              help="Only these classes (a sub-matrix); default all 169 "
              "(81 in short deck).")  # fmt: skip
@click.option("--game", "-g", default="holdem", show_default=True,
              help="A two-card game: holdem, shortdeck or shortdeck-straights.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True,
              help="Also print the matrix as JSON (the web API's answer).")  # fmt: skip
@backend_options
def matrix_command(
    output: Path, png: Path | None, classes: str | None, game: str, as_json: bool,
    workers: int | None, scheduler: str | None, local_cluster: int | None,
) -> None:  # fmt: skip
    """Equity, win and tie of every preflop class against every class, exact, e.g.
    `pokerlab matrix -o matrix.csv --png matrix.png --local-cluster 8` or
    `pokerlab matrix -g shortdeck`."""
    check_backend(scheduler, local_cluster, workers=workers)
    if as_json and is_stdout(output):
        raise click.UsageError("--json and -o - both write to stdout: give -o a file")
    with CountProgress("matrix", sys.stderr.isatty()) as bar:
        names = None if classes is None else [c.strip() for c in classes.split(",")]
        matrix = preflop_matrix(names, game=game, workers=workers, scheduler=scheduler,
                                local_cluster=local_cluster, progress=bar)  # fmt: skip
    write_csv(output, matrix.csv_rows())
    if png is not None:
        from pokerlab.scale.plots import matrix_figure, save_png

        with writing(png):
            save_png(matrix_figure(matrix), png)
    if as_json:
        emit_json(matrix.to_dict())
    seconds = matrix.seconds
    n = len(matrix.names)
    runs = counted(matrix.jobs, "exact run")
    click.echo(f"{runs} ({n} x {n} cells) in {seconds:.1f} s -> {shown(output)}", err=True)
