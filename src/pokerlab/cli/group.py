"""The click group every pokerlab command group uses: one line per error, exit status 2."""

from __future__ import annotations

import re
import sys
from typing import Any

import click

from pokerlab._threads import numba_threads_problem
from pokerlab.cli.output import STDOUT, GuardedStdout, WriteError, cannot_write, guard_stdout
from pokerlab.errors import PokerlabError, shorten_echoes

__all__ = ["ErrorGroup", "summary"]

_EXAMPLE = re.compile(r"[,;:]?\s+(e\.g\.|for example|such as)\s", re.IGNORECASE)


def summary(command: click.Command, limit: int = 60) -> str:
    """A command's one-line summary for its group's help: its ``short_help``, else the first
    sentence of its help, which ends before an example (click would cut it at "e.g.")."""
    if command.short_help:
        return command.short_help
    text = " ".join((command.help or "").split("\n\n")[0].split())
    example = _EXAMPLE.search(text)
    if example is not None:
        text = text[: example.start()]
    sentence = re.split(r"(?<=[a-z)])\.\s", text, maxsplit=1)[0].rstrip(". ")
    if len(sentence) > limit:
        sentence = sentence[: limit - 1].rsplit(" ", 1)[0] + "…"
    return sentence + ("" if sentence.endswith("…") else ".")


class ErrorGroup(click.Group):
    """A click group that turns pokerlab errors, and click's own usage errors, into one line on
    stderr and exit status 2."""

    def main(  # type: ignore[override]
        self, args: list[str] | None = None, standalone_mode: bool = True, **extra: Any
    ) -> Any:
        if not standalone_mode:
            return super().main(args, standalone_mode=False, **extra)
        problem = numba_threads_problem()
        if problem is not None:
            click.echo(f"error: {problem}", err=True)
            sys.exit(2)
        stdout = guard_stdout()
        code: int | str | None
        try:
            code = self._run(args, extra)
        except SystemExit as exc:  # click's own exit on a broken pipe (status 1), or a command's
            code = exc.code
        except WriteError as exc:  # the help a bare `pokerlab` prints, outside click's handlers
            code = _report(exc)
        except BrokenPipeError:  # the same help to a reader gone: quiet, as click ends it
            code = 1
        sys.exit(_settled(stdout, code))

    def _run(self, args: list[str] | None, extra: dict[str, Any]) -> int:
        """Run the command; its exit status, any error already printed as one line."""
        try:
            code = super().main(args, standalone_mode=False, **extra)
        except click.exceptions.NoArgsIsHelpError as exc:
            # A bare `pokerlab` (or `pokerlab draw`) asks for the help: no error, exit 0.
            click.echo(exc.ctx.get_help() if exc.ctx is not None else exc.format_message())
            return 0
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"error: {shorten_echoes(exc.format_message())}{hint}", err=True)
            return exc.exit_code
        except click.ClickException as exc:
            return _report(exc)
        except click.Abort:
            click.echo("error: aborted", err=True)
            return 1
        return code if isinstance(code, int) else 0

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, summary(command)))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PokerlabError as exc:
            click.echo(f"error: {placed(exc)}", err=True)
            ctx.exit(2)


def _report(exc: click.ClickException) -> int:
    """Print ``exc`` as one error line; its exit status."""
    click.echo(f"error: {shorten_echoes(exc.format_message())}", err=True)
    return exc.exit_code


def _settled(stdout: GuardedStdout, code: int | str | None) -> int | str | None:
    """The exit status once what is left of standard output is flushed: a failure there, after a
    command that succeeded, is its one error line (status 2), or a quiet status 1 for a broken
    pipe, as click ends one met earlier; after a failure already reported, nothing more."""
    failure = stdout.settle()
    if failure is None or code not in (0, None):
        return code
    if isinstance(failure, BrokenPipeError):
        return 1
    return _report(cannot_write(STDOUT, failure))


_PLACES = {"board": ("board", "the board"), "dead": ("dead", "the dead cards")}
"""A field's word (a message with it names the input already) and its name as a lead."""


def placed(exc: PokerlabError) -> str:
    """The message, led by the input at fault when its words do not name it (``the board:
    duplicate card 'Th': cards 1 and 3 are the same``): the web page shows a message next to
    its field; a command line has only the words."""
    text = str(exc)
    word, place = _PLACES.get(exc.field or "", ("", ""))
    return f"{place}: {text}" if word and word not in text else text
