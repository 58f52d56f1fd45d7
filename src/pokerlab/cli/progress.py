"""A progress bar that appears only once a computation has run for about a second."""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import Any


class LazyProgress:
    """Context manager; call it with the fraction done. Shows a rich bar on stderr after
    ``delay`` seconds, and only when stderr is a terminal (or ``force``)."""

    def __init__(self, label: str, delay: float = 1.0, force: bool = False) -> None:
        self.label = label
        self.delay = delay
        self.enabled = force or sys.stderr.isatty()
        self.started = time.perf_counter()
        self._bar: Any = None
        self._task: Any = None

    def __enter__(self) -> LazyProgress:
        return self

    def __call__(self, fraction: float) -> None:
        if not self.enabled:
            return
        if self._bar is None:
            if time.perf_counter() - self.started < self.delay:
                return
            from rich.console import Console
            from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                TextColumn("{task.percentage:>5.1f}%"),
                TimeElapsedColumn(),
                console=Console(stderr=True),
                transient=True,
            )
            self._bar.start()
            self._task = self._bar.add_task(self.label, total=1.0)
        self._bar.update(self._task, completed=fraction)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.stop()
