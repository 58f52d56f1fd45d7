"""The ``pokerlab`` command line: thin commands over the public API, no poker logic here.

Every library error becomes one line on stderr (``error: ...``) and exit status 2; never a
traceback. Each command lives in its own module and registers itself on :data:`app`.
"""

from __future__ import annotations

import sys

import click

from pokerlab.cli.group import ErrorGroup

__all__ = ["app", "main"]


@click.group(cls=ErrorGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pokerlab")
@click.pass_context
def app(ctx: click.Context) -> None:
    """pokerlab: hand evaluation, equity, outs and ranges for poker games."""
    if ctx.invoked_subcommand not in ("warm", "serve"):
        from pokerlab.cli.compiling import note_compiles

        note_compiles()


def _register() -> None:
    from pokerlab.cli import (
        distribution_cmd,
        draw_cmd,
        equity_cmd,
        eval_cmd,
        hits_cmd,
        outs_cmd,
        query_cmd,
        range_cmd,
        serve_cmd,
        warm_cmd,
    )
    from pokerlab.cli.batch_cmd import batch_command
    from pokerlab.cli.draw_play_cmd import play_command
    from pokerlab.cli.flops_cmd import flops_command
    from pokerlab.cli.matrix_cmd import matrix_command

    app.add_command(eval_cmd.eval_command)
    app.add_command(equity_cmd.equity_command)
    app.add_command(outs_cmd.outs_command)
    app.add_command(range_cmd.range_group)
    app.add_command(draw_cmd.draw_group)
    draw_cmd.draw_group.add_command(play_command)
    app.add_command(serve_cmd.serve_command)
    app.add_command(hits_cmd.hits_command)
    app.add_command(distribution_cmd.distribution_command)
    app.add_command(query_cmd.query_command)
    app.add_command(warm_cmd.warm_command)
    app.add_command(batch_command)
    app.add_command(matrix_command)
    app.add_command(flops_command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    app.main(args=argv if argv is not None else sys.argv[1:], prog_name="pokerlab")
