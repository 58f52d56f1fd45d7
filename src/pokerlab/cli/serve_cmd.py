"""``pokerlab serve``: the web simulator page and JSON API on a local port.

The app is handed to uvicorn by its import string, so this module never imports
:mod:`pokerlab.web` (``cli`` and ``web`` stay independent); the limits travel as environment
variables that ``pokerlab.web.app.Settings.from_env`` reads.
"""

from __future__ import annotations

import os

import click

__all__ = ["serve_command"]

APP_FACTORY = "pokerlab.web.app:create_app"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--workers",
    type=click.IntRange(1, 64),
    default=None,
    help="Processes for equity, outs and draw requests (default: one per CPU).",
)
@click.option(
    "--max-seconds",
    type=click.FloatRange(0.1, 3600),
    default=None,
    help="Most seconds one request may compute (default 10).",
)
def serve_command(host: str, port: int, workers: int | None, max_seconds: float | None) -> None:
    """Serve the simulator page at http://HOST:PORT/.

    Needs the web extra: pip install "pokerlab[web]"."""
    try:
        import uvicorn
    except ImportError:
        click.echo(
            'error: pokerlab serve needs the web extra: pip install "pokerlab[web]"', err=True
        )
        raise SystemExit(2) from None
    if workers is not None:
        os.environ["POKERLAB_WEB_WORKERS"] = str(workers)
    if max_seconds is not None:
        os.environ["POKERLAB_WEB_MAX_SECONDS"] = str(max_seconds)
    click.echo(f"pokerlab: serving http://{host}:{port}/ (Ctrl-C stops)", err=True)
    uvicorn.run(APP_FACTORY, factory=True, host=host, port=port, log_level="warning")
