"""``pokerlab batch SPOTS -o RESULTS``: equity of many spots, on every core or a Dask cluster.

RESULTS gets one JSON line per spot, in the order of SPOTS, each written whole and flushed: a
Ctrl-C waits for the line being written, so the file never ends in half a line (a crash of the
machine itself, or a disk that fills up, can leave one; ``--resume`` drops it and computes that
spot again). RESULTS ``-`` is standard output (no ``--resume``: nothing there can be read back).
"""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any

import click

from pokerlab._numbers import counted
from pokerlab._signals import sigint_handler
from pokerlab.cli.backend_options import backend_options, check_backend
from pokerlab.cli.numbers import IntRange
from pokerlab.cli.output import OutputPath, WriteError, is_stdout, shown, text_output, writing
from pokerlab.errors import ClusterError
from pokerlab.scale import Job, SpotResult, make_backend, read_jobs, run_jobs


def done_ids(path: Path) -> Counter[Any]:
    """Ids already answered in ``path`` (with how many lines each: a duplicate id is answered by
    an error line of its own). A broken last line (a crash's half line: no newline, or not a
    result) is cut off; a broken line before others is a :class:`click.ClickException` naming
    it (:class:`click.BadParameter`), so no result after it is lost."""
    ids: Counter[Any] = Counter()
    if not path.exists():
        return ids
    with path.open("rb") as f:
        lines = f.readlines()
    good = 0
    for number, line in enumerate(lines, start=1):
        record = _result_line(line)
        if record is None:
            if number < len(lines):
                raise click.BadParameter(
                    f"line {number:,} is not a result line (a JSON object with an id), "
                    f"and {_more(len(lines) - number)} it: --resume keeps every "
                    "line it skips, so fix or remove that line, or run without --resume to "
                    "start afresh",
                    param_hint="--output",
                )
            break
        ids[record["id"]] += 1
        good += len(line)
    if good < path.stat().st_size:
        with path.open("r+b") as f:
            f.truncate(good)
    return ids


def _more(count: int) -> str:
    return f"{counted(count, 'more line')} follow{'s' * (count == 1)}"


def _result_line(line: bytes) -> dict[str, Any] | None:
    """The record of one whole line of results, or ``None``."""
    if not line.endswith(b"\n"):
        return None
    try:
        record = json.loads(line)
    except ValueError:
        return None
    return record if isinstance(record, dict) and "id" in record else None


class _Interrupts:
    """SIGINT raises KeyboardInterrupt at once, except while a line is being written: then it
    is raised right after that line is flushed."""

    def __init__(self) -> None:
        self.writing = False
        self.pending = False

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.writing:
            self.pending = True
        else:
            raise KeyboardInterrupt

    def write(self, out: IO[str], line: str) -> None:
        self.writing = True
        try:
            out.write(line)
            out.flush()
        finally:
            self.writing = False
        if self.pending:
            raise KeyboardInterrupt


@contextmanager
def _guarded() -> Iterator[_Interrupts]:
    guard = _Interrupts()
    with sigint_handler(guard.handle):
        yield guard


def _progress(total: int, enabled: bool) -> Any:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        Task,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task: Task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("" if speed is None else f"{speed:,.1f} spots/s")

    return Progress(
        TextColumn("batch"), BarColumn(), MofNCompleteColumn(), Rate(), TimeElapsedColumn(),
        TextColumn("ETA"), TimeRemainingColumn(), console=Console(stderr=True),
        disable=not enabled,
    )  # fmt: skip


@click.command("batch")
@click.argument("spots", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--output", "-o", required=True, type=OutputPath(),
              help="Results file (JSON lines, in the order of SPOTS; '-' for stdout).")  # fmt: skip
@click.option("--resume", is_flag=True, help="Keep RESULTS and skip the ids it already holds.")
@click.option("--backend", type=click.Choice(["local", "dask"]), default=None,
              help="local (the default): every core here; dask: --scheduler or "
                   "--local-cluster.")  # fmt: skip
@backend_options
@click.option("--chunk-size", type=IntRange(min=1, max=1_000_000), default=None,
              help="Spots per task (default: about 8 tasks per worker, at most 32).")  # fmt: skip
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on stderr (default: when stderr is a terminal).")  # fmt: skip
def batch_command(
    spots: Path,
    output: Path,
    resume: bool,
    backend: str | None,
    workers: int | None,
    scheduler: str | None,
    local_cluster: int | None,
    chunk_size: int | None,
    progress: bool | None,
) -> None:
    """Equity of every spot of SPOTS (JSON lines, or CSV with a header), e.g.
    `pokerlab batch spots.jsonl -o results.jsonl --local-cluster 4`.

    A spot has the fields of the web API's equity request (players, board, dead, game, method,
    trials, stderr, time_limit, seed) and an optional id; in CSV, players are joined by ';'.
    Each line of RESULTS holds the id, the spot, and the result `pokerlab equity --json` prints
    or the error it would print. A bad spot never stops the batch."""
    check_backend(scheduler, local_cluster, workers=workers, backend=backend)
    if resume and is_stdout(output):
        raise click.UsageError("--resume reads back the results already written: give -o a "
                               "file, not '-' (standard output)")  # fmt: skip
    if not is_stdout(output) and output.exists() and output.samefile(spots):
        raise click.BadParameter("is SPOTS itself; the results would overwrite the spots",
                                 param_hint="--output")  # fmt: skip
    if backend == "dask" and scheduler is None and local_cluster is None:
        raise click.UsageError("--backend dask needs --scheduler or --local-cluster")
    try:
        jobs = read_jobs(spots)
    except (ValueError, UnicodeDecodeError) as exc:
        raise click.BadParameter(str(exc), param_hint="SPOTS") from None
    skip = done_ids(output) if resume else Counter()
    todo = []
    for job in jobs:
        if skip[job.id] > 0:
            skip[job.id] -= 1
        else:
            todo.append(job)
    started = time.perf_counter()
    errors = _run(todo, output, not resume, workers, scheduler, local_cluster, chunk_size,
                  sys.stderr.isatty() if progress is None else progress)  # fmt: skip
    seconds = time.perf_counter() - started
    skipped = f", {len(jobs) - len(todo):,} already in {output}" if resume else ""
    click.echo(f"{counted(len(todo), 'spot')} ({counted(errors, 'error')}{skipped}) in "
               f"{seconds:.1f} s -> {shown(output)}", err=True)  # fmt: skip


def _run(
    todo: list[Job],
    output: Path,
    fresh: bool,
    workers: int | None,
    scheduler: str | None,
    local_cluster: int | None,
    chunk_size: int | None,
    show: bool,
) -> int:
    """Answer ``todo`` and append the answers to ``output`` in input order (emptied first when
    ``fresh``, once the backend is up); the error count. A failure to write a line stops the
    batch with one error line saying how far it got (OSErrors of the work itself are not
    writes, and are not reported as such)."""
    from concurrent.futures.process import BrokenProcessPool

    order = [job.index for job in todo]
    waiting: dict[int, SpotResult] = {}
    position = 0
    errors = 0
    opened = False  # RESULTS emptied (fresh) or opened to append: --resume goes on from it
    try:
        with (
            _guarded() as guard,
            make_backend(workers=workers, scheduler=scheduler,
                         local_cluster=local_cluster) as backend,
            text_output(output, append=not fresh) as out,
            _progress(len(todo), show) as bar,
        ):  # fmt: skip
            opened = True
            task = bar.add_task("batch", total=len(todo))
            for answer in run_jobs(todo, backend, chunk_size):
                waiting[answer.index] = answer
                errors += answer.error is not None
                bar.advance(task)
                while position < len(order) and order[position] in waiting:
                    ready = waiting.pop(order[position])
                    with writing(output):
                        guard.write(out, json.dumps(ready.to_dict()) + "\n")
                    position += 1
    except WriteError as exc:
        if not opened:
            raise  # RESULTS could not be opened: nothing written, the error says why
        raise WriteError(f"{exc.message}: {_how_far(position, len(todo), output)}") from None
    except (KeyboardInterrupt, BrokenProcessPool, ClusterError) as exc:
        if isinstance(exc, ClusterError) and not opened:
            raise  # the cluster could not start: RESULTS untouched, the error says why
        why = {KeyboardInterrupt: "interrupted", BrokenProcessPool: "a worker process died"}
        said = why.get(type(exc), str(exc))
        if not opened and not is_stdout(output):
            # a fresh run stopped before it emptied RESULTS, which holds another run's
            raise click.ClickException(
                f"{said} before any spot was written; {output} is unchanged: run the same "
                "command again"
            ) from None
        raise click.ClickException(f"{said}: {_how_far(position, len(todo), output)}") from None
    return errors


def _how_far(position: int, total: int, output: Path) -> str:
    """How many spots a stopped batch wrote, and how to go on (standard output cannot be
    resumed: its lines are gone)."""
    written = f"{position:,} of {total:,} spots written to {shown(output)}"
    return written if is_stdout(output) else f"{written}; run again with --resume to go on"
