"""Shared output helpers of the CLI: JSON to stdout, rich tables (imported lazily)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click


class OutputPath(click.Path):
    """A file the command writes, checked before any work: its folder exists and it is not a
    folder (a plot or results file to a missing folder failed with a traceback after the whole
    computation). With ``stdout_ok``, ``-`` passes (for stdout)."""

    def __init__(self, path_type: type = Path, stdout_ok: bool = False) -> None:
        super().__init__(dir_okay=False, path_type=path_type, allow_dash=stdout_ok)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        path = super().convert(value, param, ctx)
        folder = Path(os.fsdecode(path)).parent
        if os.fsdecode(path) != "-" and not folder.is_dir():
            self.fail(f"the folder {folder} does not exist", param, ctx)
        return path


def emit_json(payload: Any) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    click.echo(json.dumps(payload, indent=2))


def console(width: int | None = None) -> Any:
    """A rich console on stdout (rich is imported only when a table is printed), as wide as
    the terminal or ``width``."""
    from rich.console import Console

    return Console(highlight=False, width=width)
