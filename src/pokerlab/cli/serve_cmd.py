"""``pokerlab serve``: the web simulator page and JSON API on a local port.

The app is handed to uvicorn by its import string, so this module never imports
:mod:`pokerlab.web` (``cli`` and ``web`` stay independent); the settings travel as environment
variables that ``pokerlab.web.app.Settings.from_env`` reads.
"""

from __future__ import annotations

import copy
import os
from typing import Any

import click

from pokerlab.cli.numbers import FloatRange, IntRange

__all__ = ["serve_command"]

APP_FACTORY = "pokerlab.web.app:create_app"
LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def _log_config(level: str) -> dict[str, Any]:
    """uvicorn's logging, plus pokerlab's request and worker log at ``level``, timestamped."""
    from uvicorn.config import LOGGING_CONFIG

    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config["formatters"]["pokerlab"] = {
        "()": "uvicorn.logging.DefaultFormatter",
        "fmt": "%(asctime)s %(levelprefix)s %(message)s",
        "use_colors": None,
    }
    config["handlers"]["pokerlab"] = {
        "formatter": "pokerlab",
        "class": "logging.StreamHandler",
        "stream": "ext://sys.stderr",
    }
    config["loggers"]["pokerlab"] = {
        "handlers": ["pokerlab"],
        "level": level.upper(),
        "propagate": False,
    }
    return config


@click.command("serve")
@click.option(
    "--host",
    default="127.0.0.1",
    show_default=True,
    help="Interface to listen on (0.0.0.0: every interface, with a warning).",
)
@click.option("--port", default=8000, show_default=True, type=IntRange(0, 65535))
@click.option(
    "--workers",
    type=IntRange(1, 64),
    default=None,
    help="Processes for equity, outs, draw, query, hits, distribution, flop-report and matrix "
    "requests (default: one per CPU, or per --threads-per-worker CPUs).",
)
@click.option(
    "--threads-per-worker",
    type=IntRange(1, 256),
    default=1,
    show_default=True,
    help="Numba threads per worker; keep workers x threads within the cores.",
)
@click.option(
    "--max-seconds",
    type=FloatRange(0.1, 3600),
    default=None,
    help="Most seconds one request may compute (default 10).",
)
@click.option(
    "--queue-seconds",
    type=FloatRange(0.1, 3600),
    default=None,
    help="Most seconds one request may wait for a free worker (default 30).",
)
@click.option(
    "--allowed-host",
    "allowed_hosts",
    multiple=True,
    metavar="NAME",
    help="Another Host name to answer (repeatable); by default only the bound names.",
)
@click.option(
    "--log-level",
    type=click.Choice(LOG_LEVELS),
    default="info",
    show_default=True,
    help="info logs every request; warning only failures.",
)
def serve_command(
    host: str,
    port: int,
    workers: int | None,
    threads_per_worker: int,
    max_seconds: float | None,
    queue_seconds: float | None,
    allowed_hosts: tuple[str, ...],
    log_level: str,
) -> None:
    """Serve the simulator page at http://HOST:PORT/.

    Needs the web extra: pip install "pokerlab[web]"."""
    try:
        import uvicorn
    except ImportError:
        click.echo(
            'error: pokerlab serve needs the web extra: pip install "pokerlab[web]"', err=True
        )
        raise SystemExit(2) from None
    for name, value in (
        ("WORKERS", workers),
        ("MAX_SECONDS", max_seconds),
        ("QUEUE_SECONDS", queue_seconds),
        ("THREADS_PER_WORKER", threads_per_worker),
    ):
        if value is not None:
            os.environ[f"POKERLAB_WEB_{name}"] = str(value)
    _check_address(host, port)
    os.environ["POKERLAB_WEB_HOST"] = host
    os.environ["POKERLAB_WEB_ALLOWED_HOSTS"] = ",".join(allowed_hosts)
    if host in ("0.0.0.0", "::", ""):
        click.echo(
            f"warning: listening on every interface ({host or 'all'}): anyone who can reach "
            "this machine can run computations on it; add --allowed-host NAME for each name "
            "or address clients use",
            err=True,
        )
    click.echo(f"pokerlab: serving http://{host}:{port}/ (Ctrl-C stops)", err=True)
    uvicorn.run(
        APP_FACTORY,
        factory=True,
        host=host,
        port=port,
        log_level=log_level,
        log_config=_log_config(log_level),
        access_log=False,  # pokerlab logs each request itself, with its time
    )


def _check_address(host: str, port: int) -> None:
    """A one-line usage error, before anything starts, for an address the server could not
    listen on (uvicorn printed its log lines and ``[Errno -2] Name or service not known``)."""
    import socket

    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
    except socket.gaierror:
        raise click.BadParameter(f"'{host}' is not an address or a known host name",
                                 param_hint="--host") from None  # fmt: skip
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as exc:
            raise click.BadParameter(f"cannot listen on {host}:{port}: {exc.strerror}",
                                     param_hint="--port") from None  # fmt: skip
