"""Ctrl-C as "stop and show what you have": the first SIGINT asks the running computation to stop
(it ends after its current chunk, and a Monte Carlo run returns its estimate so far); a second
one aborts at once, as Ctrl-C does everywhere else."""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

import click

from pokerlab._signals import sigint_handler
from pokerlab.errors import CancelledError

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
    raises :class:`KeyboardInterrupt`. A run that the event cancels with
    :class:`~pokerlab.errors.CancelledError` (an exact run: it has no partial answer) ends as
    any interrupted command does (:class:`click.Abort`: ``error: aborted``, exit status 1)."""
    stops = _FirstStops()
    with sigint_handler(stops.handle):
        try:
            yield stops.event
        except CancelledError:
            raise click.Abort from None


def exit_interrupted(
    deals: int, what: str = "the estimate covers", done: str = "deals sampled"
) -> NoReturn:
    """After printing an answer cut short by Ctrl-C (a Monte Carlo estimate, a bot match): say
    so on stderr and exit with :data:`INTERRUPTED_STATUS`."""
    click.echo(f"interrupted: {what} the {deals:,} {done} before Ctrl-C", err=True)
    sys.exit(INTERRUPTED_STATUS)
