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
def app() -> None:
    """pokerlab: hand evaluation, equity, outs and ranges for poker games."""


def _register() -> None:
    from pokerlab.cli import draw_cmd, equity_cmd, eval_cmd, outs_cmd, range_cmd, serve_cmd
    from pokerlab.cli.batch_cmd import batch_command
    from pokerlab.cli.flops_cmd import flops_command
    from pokerlab.cli.matrix_cmd import matrix_command

    app.add_command(eval_cmd.eval_command)
    app.add_command(equity_cmd.equity_command)
    app.add_command(outs_cmd.outs_command)
    app.add_command(range_cmd.range_command)
    app.add_command(draw_cmd.draw_group)
    app.add_command(serve_cmd.serve_command)
    app.add_command(batch_command)
    app.add_command(matrix_command)
    app.add_command(flops_command)


_register()


def main(argv: list[str] | None = None) -> None:
    """Console-script entry point."""
    app.main(args=argv if argv is not None else sys.argv[1:], prog_name="pokerlab")
