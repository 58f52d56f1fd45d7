"""The click group every pokerlab command group uses: one line per error, exit status 2."""

from __future__ import annotations

import sys
from typing import Any

import click

from pokerlab.errors import PokerlabError

__all__ = ["ErrorGroup"]


class ErrorGroup(click.Group):
    """A click group that turns pokerlab errors, and click's own usage errors, into one line on
    stderr and exit status 2."""

    def main(  # type: ignore[override]
        self, args: list[str] | None = None, standalone_mode: bool = True, **extra: Any
    ) -> Any:
        if not standalone_mode:
            return super().main(args, standalone_mode=False, **extra)
        try:
            code = super().main(args, standalone_mode=False, **extra)
        except click.UsageError as exc:
            hint = f" (see '{exc.ctx.command_path} --help')" if exc.ctx is not None else ""
            click.echo(f"error: {exc.format_message()}{hint}", err=True)
            sys.exit(exc.exit_code)
        except click.ClickException as exc:
            click.echo(f"error: {exc.format_message()}", err=True)
            sys.exit(exc.exit_code)
        except click.Abort:
            click.echo("error: aborted", err=True)
            sys.exit(1)
        sys.exit(code if isinstance(code, int) else 0)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PokerlabError as exc:
            click.echo(f"error: {exc}", err=True)
            ctx.exit(2)
