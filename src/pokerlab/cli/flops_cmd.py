"""``pokerlab flops HAND_OR_RANGE VS...``: exact equity on every flop, CSV and PNG."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from pokerlab.cli.backend_options import CountProgress, backend_options, check_backend
from pokerlab.cli.numbers import FloatRange
from pokerlab.cli.output import OutputPath, emit_json, is_stdout, shown, write_csv, writing
from pokerlab.scale.flops import FlopReport, flop_report


@click.command("flops")
@click.argument("hand", metavar="HAND_OR_RANGE")
@click.argument("vs", nargs=-1, required=True, metavar="VS...")
@click.option("--dead", "-d", default="", help="Dead cards.")
@click.option("--game", "-g", default="holdem", show_default=True,
              help="A flop game: holdem, shortdeck, shortdeck-straights, or an Omaha game "
              "(omaha, omaha5, omaha6, omaha-hilo, omaha5-hilo) with pattern ranges "
              "(AA**$ds).")  # fmt: skip
@click.option("--output", "-o", type=OutputPath(),
              default=Path("flops.csv"), show_default=True,
              help="CSV of the flop classes, sorted by equity ('-' for stdout).")  # fmt: skip
@click.option("--png", type=OutputPath(png=True), default=None,
              help="Also draw the histogram and cumulative curve (needs matplotlib).")  # fmt: skip
@click.option("--max-seconds", type=FloatRange(min=0, min_open=True), default=None,
              help="Refuse a report estimated at more seconds of one core "
              "[default: 1800].")  # fmt: skip
@click.option("--json", "as_json", is_flag=True,
              help="Also print the report as JSON (the web API's answer).")  # fmt: skip
@backend_options
def flops_command(
    hand: str, vs: tuple[str, ...], dead: str, game: str, output: Path, png: Path | None,
    max_seconds: float | None, as_json: bool, workers: int | None, scheduler: str | None,
    local_cluster: int | None,
) -> None:  # fmt: skip
    """Equity of HAND_OR_RANGE on every flop against the other players, e.g.
    `pokerlab flops AhKh QQ+,AK --png flops.png` or `pokerlab flops AsAhKsKh JdTd9c8c -g omaha`."""
    check_backend(scheduler, local_cluster, workers=workers)
    if as_json and is_stdout(output):
        raise click.UsageError("--json and -o - both write to stdout: give -o a file")
    with CountProgress("flops", sys.stderr.isatty()) as bar:
        report = flop_report([hand, *vs], dead, game=game, workers=workers, scheduler=scheduler,
                             local_cluster=local_cluster, progress=bar,
                             max_seconds=max_seconds)  # fmt: skip
    write_csv(output, report.csv_rows())
    if png is not None:
        from pokerlab.scale.plots import flops_figure, save_png

        with writing(png):
            save_png(flops_figure(report), png)
    if as_json:
        emit_json(report.to_dict())
    click.echo(
        f"{len(report.flops):,} flop classes ({_empty(report)}{report.symmetries} suit "
        f"symmetries), mean equity {report.mean_equity:.6f} (the preflop equity) in "
        f"{report.seconds:.1f} s -> {shown(output)}",
        err=True,
    )


def _empty(report: FlopReport) -> str:
    """The classes left out because they leave a range empty (JSON's ``classes`` counts
    them): "2 of the 1,755 leave a range empty; ", or nothing."""
    left_out = report.classes - len(report.flops)
    if not left_out:
        return ""
    verb = "leaves" if left_out == 1 else "leave"
    return f"{left_out:,} of the {report.classes:,} {verb} a range empty; "
