"""A real pokerlab web server on a free loopback port, in a thread (for browser tests, the
screenshot script and the load benchmark), and where to find a Chromium for Playwright."""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import uvicorn

from pokerlab.web.app import Settings, create_app

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's chromium (Playwright must not download a browser: there is no network)."""
    for candidate in (os.environ.get("POKERLAB_CHROMIUM"), "/usr/bin/chromium",
                      shutil.which("chromium")):  # fmt: skip
        if candidate and os.path.exists(candidate):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(settings: Settings | None = None) -> Iterator[str]:
    """Serve the app on 127.0.0.1 (workers warmed up) and yield its base URL."""
    config = uvicorn.Config(
        create_app(settings or Settings(workers=2)),
        host="127.0.0.1",
        port=free_port(),
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 300
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            raise RuntimeError("the pokerlab web server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{config.port}"
    finally:
        server.should_exit = True
        thread.join(30)
