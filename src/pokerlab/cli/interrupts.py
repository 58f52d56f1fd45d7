"""Ctrl-C as "stop and show what you have": the first SIGINT asks the running computation to stop
(it ends after its current chunk, and a Monte Carlo run returns its estimate so far); a second
one aborts at once, as Ctrl-C does everywhere else."""

from __future__ import annotations

import signal
import socket
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
        self.handled = 0

    def handle(self, signum: int, frame: FrameType | None) -> None:
        self.handled += 1  # the event may be set already, by :func:`_heard_at_once`
        if self.handled > 1:
            raise KeyboardInterrupt
        self.event.set()


@contextmanager
def _heard_at_once(event: threading.Event) -> Iterator[None]:
    """Set ``event`` the moment Ctrl-C arrives, from a thread: Python runs a signal handler
    only when the main thread is between bytecodes, and a kernel computing on it (one Monte
    Carlo chunk of ranges whose joint draws are nearly all rejected can take minutes) held
    the first Ctrl-C until it returned. The signal's byte reaches the thread through the
    interpreter's wakeup fd at once, and the run's stop flag ends the kernel."""
    try:
        reader, writer = socket.socketpair()
    except OSError:  # pragma: no cover - no socketpair here: the handler alone still works
        yield
        return
    writer.setblocking(False)
    try:
        previous = signal.set_wakeup_fd(writer.fileno(), warn_on_full_buffer=False)
    except ValueError:  # not the main thread: Ctrl-C is not ours to hear
        reader.close()
        writer.close()
        yield
        return

    def listen() -> None:
        while True:
            data = reader.recv(64)
            if not data or _DONE in data:
                return
            if signal.SIGINT in data:
                event.set()

    thread = threading.Thread(target=listen, name="pokerlab-ctrl-c", daemon=True)
    thread.start()
    try:
        yield
    finally:
        signal.set_wakeup_fd(previous)
        writer.setblocking(True)
        writer.send(bytes([_DONE]))
        thread.join()
        reader.close()
        writer.close()


_DONE = 0
"""The byte that ends :func:`_heard_at_once`'s thread (no signal has the number 0)."""


@contextmanager
def first_interrupt_stops() -> Iterator[threading.Event]:
    """An event set by the first Ctrl-C while the block runs (pass it as ``cancel=``); the second
    raises :class:`KeyboardInterrupt`. A run that the event cancels with
    :class:`~pokerlab.errors.CancelledError` (an exact run: it has no partial answer) ends as
    any interrupted command does (:class:`click.Abort`: ``error: aborted``, exit status 1)."""
    stops = _FirstStops()
    with sigint_handler(stops.handle), _heard_at_once(stops.event):
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
