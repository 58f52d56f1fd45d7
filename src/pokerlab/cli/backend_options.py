"""The options that choose where heavy work runs: ``--threads`` (the commands that compute in
this process), ``--workers`` and the Dask options (``batch``, ``matrix``, ``flops``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import click

from pokerlab.cli.numbers import INT, IntRange

F = TypeVar("F", bound=Callable[..., Any])


threads_option = click.option(
    "--threads",
    type=INT,
    default=None,
    help="Threads to use (default: every available core; the answer is the same).",
)
"""``--threads N``: passed to the API's ``threads`` keyword, which checks it (0, negative)."""


MAX_WORKERS = 1024
"""The most processes ``--workers`` and ``--local-cluster`` start on this machine."""


def cluster_options(command: F) -> F:
    """Add ``--scheduler`` and ``--local-cluster`` to a command."""
    options = [
        click.option("--scheduler", default=None, metavar="tcp://HOST:8786",
                     help="Run on the Dask cluster of this scheduler."),
        click.option("--local-cluster", type=IntRange(min=1, max=MAX_WORKERS),
                     default=None, metavar="N",
                     help="Run on a Dask LocalCluster of N worker processes."),
    ]  # fmt: skip
    for option in reversed(options):
        command = option(command)
    return command


def backend_options(command: F) -> F:
    """Add ``--workers``, ``--scheduler`` and ``--local-cluster`` to a command."""
    workers = click.option(
        "--workers", type=IntRange(min=1, max=MAX_WORKERS), default=None,
        help="Local backend: worker processes (default: every core).",
    )  # fmt: skip
    return workers(cluster_options(command))


def check_backend(
    scheduler: str | None,
    local_cluster: int | None,
    *,
    workers: int | None = None,
    threads: int | None = None,
    backend: str | None = None,
) -> None:
    """Refuse options that exclude each other or that a cluster would ignore (``--workers``,
    ``--threads``, ``--backend local``); with a cluster, keep Dask's own error log off the
    terminal (its failures reach the user as one :class:`~pokerlab.errors.ClusterError` line)."""
    if scheduler is not None and local_cluster is not None:
        raise click.UsageError("--scheduler and --local-cluster exclude each other")
    if scheduler is None and local_cluster is None:
        return
    cluster = "--scheduler" if scheduler is not None else "--local-cluster"
    if workers is not None:
        raise click.UsageError(
            f"--workers sets the local backend's processes, which {cluster} does not use"
            + (": give the cluster's size as --local-cluster N" if local_cluster else "")
        )
    if threads is not None:
        raise click.UsageError(
            f"--threads sets this process's threads; with {cluster} the work runs on the "
            "cluster's workers, one thread each"
        )
    if backend == "local":
        raise click.UsageError(f"--backend local runs here, not on the cluster of {cluster}")
    import logging

    try:
        import distributed  # noqa: F401  (configures its loggers, each with its own level)
    except ImportError:
        return  # said by the backend, with how to install it
    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


class CountProgress:
    """A rich bar on stderr fed ``(done, total)``; shown only when stderr is a terminal."""

    def __init__(self, label: str, enabled: bool) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(),
                            TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                            console=Console(stderr=True), disable=not enabled,
                            transient=True)  # fmt: skip
        self.task: Any = None

    def __enter__(self) -> CountProgress:
        self.bar.start()
        return self

    def __call__(self, done: int, total: int) -> None:
        if self.task is None:
            self.task = self.bar.add_task("", total=total)
        self.bar.update(self.task, completed=done)

    def __exit__(self, *exc: object) -> None:
        self.bar.stop()
