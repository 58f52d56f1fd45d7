"""A real pokerlab web server on a free loopback port: in a thread (for browser tests and the
screenshot script) or as a ``pokerlab serve`` subprocess (uvloop and all, for the server tests);
and where to find a Chromium for Playwright."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
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


CSP_WATCH = """window.cspViolations = [];
document.addEventListener("securitypolicyviolation",
  (e) => window.cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));"""
"""An init script that records every Content-Security-Policy violation of a page."""


def require_chromium() -> str:
    """The Chromium for a browser test module; skips the module, saying why, when there is none
    (under ``CI=true`` it fails instead: CI must run the browser tests)."""
    path = chromium_path()
    if path is None:
        reason = "no Chromium at /usr/bin/chromium (apt-get install chromium) for the browser tests"
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser tests: {reason}", pytrace=False)
        pytest.skip(reason, allow_module_level=True)
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def running_server(settings: Settings | None = None) -> Iterator[str]:
    """Serve the app on 127.0.0.1 (workers warmed up) and yield its base URL."""
    config = uvicorn.Config(
        create_app(settings or Settings(workers=2, allowed_hosts=("127.0.0.1",))),
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


@dataclass
class ServeProcess:
    """A ``pokerlab serve`` subprocess: its base URL, process and log file, and the answers to
    ``POST /api/equity`` seen while it warmed up."""

    url: str
    process: subprocess.Popen[bytes]
    log_path: Path
    warming_answers: list[httpx.Response] = field(default_factory=list)

    def log(self) -> str:
        return self.log_path.read_text()

    def wait_for_log(self, *patterns: str, deadline_s: float = 30) -> str:
        """The log once every regular expression of ``patterns`` matches it: the server writes
        a request's line as the response goes out, so a client that has its answer can read
        the file a moment before the line is there."""
        deadline = time.monotonic() + deadline_s
        while True:
            log = self.log()
            missing = [p for p in patterns if not re.search(p, log)]
            if not missing:
                return log
            assert time.monotonic() < deadline, f"not in the log: {missing}\n{log[-2000:]}"
            time.sleep(0.05)

    def status(self) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(self.url + "/api/status", timeout=10).json()
        return answer

    def worker_pids(self) -> list[int]:
        """The server's child processes that are pokerlab workers."""
        pids = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.process.pid and b"spawn_main" in cmdline:
                pids.append(int(entry.name))
        return pids

    def wait_ready(self, workers: int, deadline_s: float = 300) -> None:
        deadline = time.monotonic() + deadline_s
        while True:
            status = self.status()
            if status["ready"] and status["workers_ready"] >= workers and status["idle"] >= workers:
                return
            assert self.process.poll() is None, "pokerlab serve exited"
            assert time.monotonic() < deadline, f"the workers did not warm up: {status}"
            time.sleep(0.1)


@contextmanager
def serve_process(tmp: Path, *args: str, workers: int = 2) -> Iterator[ServeProcess]:
    """Run ``pokerlab serve --workers N ARGS`` on 127.0.0.1 and a free port until every worker
    is warm, posting an equity request while it warms up; stop it afterwards."""
    port = free_port()
    log_path = tmp / f"serve-{port}.log"
    code = "import sys; from pokerlab.cli import main; main(sys.argv[1:])"
    command = [sys.executable, "-c", code, "serve", "--host", "127.0.0.1", "--port", str(port),
               "--workers", str(workers), *args]  # fmt: skip
    with open(log_path, "wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = ServeProcess(f"http://127.0.0.1:{port}", process, log_path)
    try:
        deadline = time.monotonic() + 300
        body = {"players": ["AhAs", "KdKc"]}
        while True:
            assert process.poll() is None, f"pokerlab serve exited:\n{server.log()}"
            assert time.monotonic() < deadline, "pokerlab serve did not answer"
            try:
                answer = httpx.post(server.url + "/api/equity", json=body, timeout=30)
            except httpx.HTTPError:
                time.sleep(0.1)
                continue
            server.warming_answers.append(answer)
            if answer.status_code == 200:
                break
            time.sleep(0.1)
        server.wait_ready(workers)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(10)


@contextmanager
def checked_page(browser: Any, url: str) -> Iterator[Any]:
    """A new page of ``browser`` on the served ``url``, ready. When the block ends: no page error
    and no Content-Security-Policy violation."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.add_init_script(CSP_WATCH)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(url + "/")
    page.wait_for_selector("body[data-ready=true]")
    yield page
    violations = page.evaluate("window.cspViolations")
    context.close()
    assert errors == [], errors
    assert violations == [], f"the page breaks its Content-Security-Policy: {violations}"


@contextmanager
def served_page(tab: str | None = None) -> Iterator[tuple[Any, str]]:
    """A running server and a ready Chromium page on it (``tab`` clicked when given), with its
    base URL; checked as :func:`checked_page` when the block ends."""
    from playwright.sync_api import sync_playwright

    with running_server() as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=require_chromium(), args=CHROMIUM_ARGS)
        try:
            with checked_page(browser, url) as page:
                if tab is not None:
                    page.click(f"#tab-{tab}")
                yield page, url
        finally:
            browser.close()
