"""``pokerlab warm``: compile every kernel now, with a progress bar."""

from __future__ import annotations

import sys
import time

import click

from pokerlab.analysis.warm import warm
from pokerlab.cli.numbers import IntRange


@click.command("warm")
@click.option(
    "--processes",
    type=IntRange(min=1),
    default=None,
    help="Processes that compile at once (default: every core).",
)
def warm_command(processes: int | None) -> None:
    """Compile every kernel now, so that no later first run waits for compilation.

    Kernels are compiled once and cached on disk; run this once after installing (about two minutes
    of CPU, spread over every core), or let each command compile what it needs on its first run."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    started = time.perf_counter()
    console = Console(stderr=True)
    with Progress(
        TextColumn("compiling {task.description:<34}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not sys.stderr.isatty(),
    ) as bar:
        task = bar.add_task("", total=None)

        def progress(done: int, total: int, label: str) -> None:
            bar.update(task, completed=done, total=total, description=label)

        count = warm(progress, processes)
    click.echo(
        f"{count} kernel groups compiled and cached in {time.perf_counter() - started:.1f} s"
    )
