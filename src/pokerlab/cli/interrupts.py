"""Ctrl-C as "stop and show what you have": the first SIGINT asks the running computation to stop
(it ends after its current chunk, and a Monte Carlo run returns its estimate so far); a second
one aborts at once, as Ctrl-C does everywhere else."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

from pokerlab._signals import sigint_handler

INTERRUPTED_STATUS = 130
"""Exit status of a command that printed a partial answer after Ctrl-C (128 + SIGINT, what a
shell reports for a process ended by Ctrl-C)."""


class _FirstStops:
    def __init__(self) -> None:
        self.event = threading.Event()

    def handle(self, signum: int, frame: FrameType | None) -> None:
        if self.event.is_set():
            raise KeyboardInterrupt
        self.event.set()


@contextmanager
def first_interrupt_stops() -> Iterator[threading.Event]:
    """An event set by the first Ctrl-C while the block runs (pass it as ``cancel=``); the second
    raises :class:`KeyboardInterrupt`."""
    stops = _FirstStops()
    with sigint_handler(stops.handle):
        yield stops.event
