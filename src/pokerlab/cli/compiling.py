"""A one-line note on stderr when a command has to compile numba kernels (the first run of each
kernel after an install, until ``pokerlab warm`` or that first run has cached them on disk).

numba announces a compilation only on a cache miss (``numba:compile`` events), so the note costs
nothing when the kernels are cached. Like the progress bar, it shows only on a terminal."""

from __future__ import annotations

import sys
from typing import Any

import click

__all__ = ["NOTE", "note_compiles"]

NOTE = "compiling kernels (once; `pokerlab warm` compiles them all ahead)…"

_listener: Any = None


def note_compiles(force: bool = False) -> Any:
    """Print :data:`NOTE` on stderr, once per process, when numba starts compiling; only when
    stderr is a terminal unless ``force``. Returns the registered listener (or ``None``)."""
    global _listener
    if _listener is not None or not (force or sys.stderr.isatty()):
        return _listener
    from numba.core import event

    class _Note(event.Listener):
        said = False

        def on_start(self, ev: object) -> None:
            if not self.said:
                self.said = True
                click.echo(NOTE, err=True)

        def on_end(self, ev: object) -> None:
            pass

    _listener = _Note()
    event.register("numba:compile", _listener)  # type: ignore[no-untyped-call]
    return _listener
