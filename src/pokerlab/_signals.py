"""Ctrl-C handled differently for a while: one helper for the CLI and the process backends."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

Handler = Callable[[int, FrameType | None], object] | signal.Handlers

__all__ = ["Handler", "sigint_handler"]


@contextmanager
def sigint_handler(handler: Handler) -> Iterator[None]:
    """Ctrl-C goes to ``handler`` (a function, or ``signal.SIG_IGN``) while the block runs. Off
    the main thread (a test runner's, a server's), where no handler can be installed, Ctrl-C
    keeps its usual meaning."""
    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
