"""Shared output helpers of the CLI: JSON to stdout, rich tables (imported lazily)."""

from __future__ import annotations

import json
from typing import Any

import click


def emit_json(payload: Any) -> None:
    """Print ``payload`` as indented JSON on stdout."""
    click.echo(json.dumps(payload, indent=2))


def console() -> Any:
    """A rich console on stdout (rich is imported only when a table is printed)."""
    from rich.console import Console

    return Console(highlight=False)
