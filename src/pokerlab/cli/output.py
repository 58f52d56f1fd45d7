"""Shared output helpers of the CLI: the files a command writes (checked before any work, ``-``
for standard output), one-line errors when a write fails, JSON to stdout, rich tables (imported
lazily)."""

from __future__ import annotations

import csv
import errno
import io
import json
import os
import stat
import sys
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, TextIO, cast

import click

STDOUT = "-"
"""The name that means standard output, for every option that writes text."""


def is_stdout(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is ``-``: standard output, not a file of that name."""
    return os.fsdecode(path) == STDOUT


def shown(path: str | os.PathLike[str]) -> str:
    """``path`` as a message names it (``-`` read as a file name would puzzle)."""
    return "standard output" if is_stdout(path) else os.fsdecode(path)


class OutputPath(click.Path):
    """A file the command writes, checked before any work (a report may compute for half an
    hour, and a plot or results file to a missing folder failed with a traceback after it): its
    folder exists and is a folder, it is not a folder itself, and it can be written (a new file
    is created and removed again; an existing one is opened to append, never truncated, since
    the work may yet fail). ``-`` is standard output. With ``png``, the name must end in
    ``.png`` (the charts are PNG: another suffix made matplotlib fail after the work, or got
    PNG bytes, and no suffix got one appended), and ``-`` is refused: PNG bytes are no use on a
    terminal or in a text pipe."""

    def __init__(self, path_type: type = Path, png: bool = False) -> None:
        super().__init__(dir_okay=False, path_type=path_type, allow_dash=not png)
        self.png = png

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if self.png and value == STDOUT:
            self.fail("a PNG chart cannot go to standard output ('-'): give a file name",
                      param, ctx)  # fmt: skip
        path = super().convert(value, param, ctx)
        if os.fsdecode(path) == STDOUT:
            return path
        name = Path(os.fsdecode(path))
        if self.png and name.suffix.lower() != ".png":
            self.fail(f"'{name}' does not end in .png: the chart is written as a PNG", param, ctx)
        problem = unwritable(name)
        if problem is not None:
            self.fail(problem, param, ctx)
        return path


def unwritable(name: Path) -> str | None:
    """Why the file ``name`` cannot be written, or ``None`` when it can, as far as can be told
    without writing it (a full disk shows only when the bytes go out)."""
    if not name.parent.is_dir():
        return missing_folder(name.parent)
    try:
        if not _probe_existing(name):
            _probe_new(name)
    except OSError as exc:
        return f"cannot write {name}: {exc.strerror or exc}"
    return None


def missing_folder(folder: Path) -> str:
    """What is wrong with ``folder``, which is not a folder: the nearest part of it that exists
    may be a file (``afile/x.csv``), else it does not exist."""
    for above in (folder, *folder.parents):
        if above.exists():
            if not above.is_dir():
                return f"{above} is not a folder"
            break
    return f"the folder {folder} does not exist"


def _probe_existing(name: Path) -> bool:
    """Whether ``name`` exists; a regular file is opened to append (which changes nothing), so
    one the system refuses fails now. Devices and pipes are left alone: opening a pipe waits
    for its reader."""
    try:
        mode = name.stat().st_mode
    except FileNotFoundError:
        return False
    if stat.S_ISREG(mode):
        os.close(os.open(name, os.O_WRONLY | os.O_APPEND))
    return True


def _probe_new(name: Path) -> None:
    """Create ``name`` and remove it again: the folder takes new files of that name (a folder
    the system refuses, such as /sys, a name too long). Exclusive, so a file that appeared
    meanwhile (or a dangling link) is never removed."""
    try:
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        return
    os.close(descriptor)
    with suppress(OSError):  # created but not removable: the command overwrites it anyway
        os.unlink(name)


class WriteError(click.ClickException):
    """A file the command writes, or standard output, could not be written (exit status 2,
    one line)."""

    exit_code = 2


def cannot_write(path: str | os.PathLike[str], exc: OSError) -> WriteError:
    """The one-line error for ``exc``, raised writing ``path``."""
    where = "to standard output" if is_stdout(path) else os.fsdecode(path)
    return WriteError(f"cannot write {where}: {exc.strerror or exc}")


@contextmanager
def writing(path: str | os.PathLike[str]) -> Iterator[None]:
    """Turn an ``OSError`` raised inside the block (a full disk, a file the system refuses to
    write, such as one under /proc) into one error line naming ``path``, not a traceback after
    the whole computation. A broken pipe passes: click ends quietly on it."""
    try:
        yield
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise cannot_write(path, exc) from None


@contextmanager
def text_output(path: str | os.PathLike[str], append: bool = False) -> Iterator[TextIO]:
    """The text stream ``path`` names: standard output for ``-`` (left open: it is the
    process's), else the file, opened (appended to with ``append``) and closed here; a failure
    to open or close it is a :class:`WriteError`. Writes inside the block are the caller's to
    guard with :func:`writing` (batch guards only its writes, not the work between them)."""
    if is_stdout(path):
        yield sys.stdout
        return
    with writing(path):
        stream = open(path, "a" if append else "w", newline="", encoding="utf-8")  # noqa: SIM115
    try:
        yield stream
    finally:
        with writing(path):
            stream.close()


def write_csv(path: str | os.PathLike[str], rows: Iterable[Sequence[Any]]) -> None:
    """``rows`` as CSV to ``path`` (``-``: standard output, lines ended as a terminal expects;
    a file: csv's own CRLF, as the files were always written)."""
    ends = "\n" if is_stdout(path) else "\r\n"
    with text_output(path) as stream, writing(path):
        csv.writer(stream, lineterminator=ends).writerows(rows)


class _ClosedStdout(io.TextIOBase):
    """Standard output of a process started without one (``>&-``): Python sets ``sys.stdout``
    to ``None``, and click and rich then dropped every line, exit status 0, as if all went
    out. Writing text here fails as writing a closed descriptor would."""

    def write(self, text: str) -> int:
        if text:
            raise OSError(errno.EBADF, "it is closed")
        return 0


class GuardedStdout:
    """``sys.stdout`` while a command runs: a failure to write it (a full disk, a closed
    stdout) is a :class:`WriteError` naming standard output, wherever it happens (inside rich,
    click.echo, a CSV writer), not a traceback; a broken pipe passes as itself, for click to
    end quietly. Every other attribute is the stream's (click and rich ask for its encoding,
    whether it is a terminal)."""

    def __init__(self, stream: TextIO | None) -> None:
        self.original = stream
        self.stream = stream if stream is not None else cast(TextIO, _ClosedStdout())
        self.discarding = False

    def write(self, text: str) -> int:
        if self.discarding:
            return len(text)
        with writing(STDOUT):
            return self.stream.write(text)

    def writelines(self, lines: Iterable[str]) -> None:
        for line in lines:
            self.write(line)

    def flush(self) -> None:
        if not self.discarding:
            with writing(STDOUT):
                self.stream.flush()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def settle(self) -> OSError | None:
        """Flush what the command left buffered (a pipe or a file is written in blocks: Python
        flushed it at exit, where a failure printed "Exception ignored ..." and exit status
        120), and give ``sys.stdout`` back; the failure, if any. After one, the rest is
        discarded, so that Python's own flush at exit has nothing left to fail on."""
        try:
            self.stream.flush()
        except OSError as exc:
            self.discarding = True  # sys.stdout stays this guard (or click's wrapper of it)
            return exc
        if sys.stdout is cast(TextIO, self):
            sys.stdout = cast(TextIO, self.original)
        return None


def guard_stdout() -> GuardedStdout:
    """Put a :class:`GuardedStdout` in place of ``sys.stdout`` (the command line's main does,
    around every command) and return it, for :meth:`GuardedStdout.settle` at the end."""
    guard = GuardedStdout(sys.stdout)
    sys.stdout = cast(TextIO, guard)
    return guard


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
