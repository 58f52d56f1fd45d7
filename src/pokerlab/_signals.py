"""Ctrl-C handled differently for a while: one helper for the CLI and the process backends."""

from __future__ import annotations

import signal
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

Handler = Callable[[int, FrameType | None], object] | signal.Handlers

__all__ = ["Handler", "sigint_deferred", "sigint_handler"]


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


@contextmanager
def sigint_deferred() -> Iterator[None]:
    """Ctrl-C is held back while the block runs and heard as it ends (the handler in place then
    runs: a ``KeyboardInterrupt`` by default). Processes started inside the block start with
    Ctrl-C blocked, a mask they keep across exec, and so never hear a terminal's Ctrl-C (sent to
    the whole group, where each printed a traceback of its own): their parent stops them.
    Ignoring the signal instead (``SIG_IGN``) did the same for the children but lost a Ctrl-C
    pressed during the block; that is still the way where there is no signal mask (Windows).
    Off the main thread the mask is that thread's: Ctrl-C reaches the main thread as usual."""
    if not hasattr(signal, "pthread_sigmask"):
        with sigint_handler(signal.SIG_IGN):
            yield
        return
    _start_resource_tracker()
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)  # a held Ctrl-C is heard here


def _start_resource_tracker() -> None:
    """Start multiprocessing's resource tracker now (a no-op once it runs). Starting it unblocks
    Ctrl-C in the thread that starts it, which is the first process start (spawn) or Dask's
    event loop thread: inside :func:`sigint_deferred`, the processes started after it heard
    Ctrl-C again."""
    from multiprocessing import resource_tracker

    resource_tracker.ensure_running()
