"""Shared output helpers of the CLI: JSON to stdout, rich tables (imported lazily)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click


class OutputPath(click.Path):
    """A file the command writes, checked before any work: its folder exists and it is not a
    folder (a plot or results file to a missing folder failed with a traceback after the whole
    computation). With ``stdout_ok``, ``-`` passes (for stdout). With ``png``, the name must
    end in ``.png`` (the charts are PNG: another suffix made matplotlib fail after the work,
    or got PNG bytes, and no suffix got one appended)."""

    def __init__(self, path_type: type = Path, stdout_ok: bool = False, png: bool = False) -> None:
        super().__init__(dir_okay=False, path_type=path_type, allow_dash=stdout_ok)
        self.png = png

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        name = Path(os.fsdecode(path))
        if os.fsdecode(path) != "-" and not name.parent.is_dir():
            self.fail(f"the folder {name.parent} does not exist", param, ctx)
        if self.png and name.suffix.lower() != ".png":
            self.fail(f"'{name}' does not end in .png: the chart is written as a PNG", param, ctx)
        return path


class WriteError(click.ClickException):
    """A file the command writes could not be written (exit status 2, one line)."""

    exit_code = 2


@contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an ``OSError`` raised inside the block (a full disk, a file the system refuses to
    write, such as one under /proc) into one error line naming ``path``, not a traceback after
    the whole computation."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise WriteError(f"cannot write {os.fsdecode(path)}: {exc.strerror or exc}") from None


def emit_json(payload: Any) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    click.echo(json.dumps(payload, indent=2))


def literal(text: str) -> str:
    """``text`` (a user's range or hand) as rich prints it, not read as markup: ``[a][k]**``
    printed as ``**``, its brackets taken for style tags."""
    from rich.markup import escape

    return escape(text)


def console(width: int | None = None) -> Any:
    """A rich console on stdout (rich is imported only when a table is printed), as wide as
    the terminal or ``width``."""
    from rich.console import Console

    return Console(highlight=False, emoji=False, width=width)  # ":a:" in a range stays text
