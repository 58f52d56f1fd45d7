"""The web server under load, and the page's first render and an exact equity end to end.

    python benchmarks/bench_web_load.py                       # ~45 s: 50 clients for 30 s
    python benchmarks/bench_web_load.py --clients 10 --seconds 5 --json web.json

Starts ``pokerlab serve`` as a separate process on 127.0.0.1 (loopback only, a free port), waits
until its workers are warm, then measures, from this process:

1. **First render**: the page's HTML, CSS, script and the game list, fetched as a browser does
   (warm server, keep-alive connection), median and max of 20 loads; and, when Debian's
   Chromium is installed, Chromium's own time from navigation start to the page being ready
   (games loaded, form drawn), median of 10 loads.
2. **Exact equity end to end**: ``POST /api/equity`` for heads-up preflop spots, 50 sequential
   requests each, median and max (client-side wall time: request, JSON, answer).
3. **Load**: ``--clients`` concurrent clients (default 50), each sending a mix of small requests
   (preflop and flop exact equities, a turn outs report, range expansion, hand evaluation, the
   game list) back to back for ``--seconds`` (default 30). Bounded: each client stops at the
   deadline or after ``--max-requests`` requests, each request times out after 10 s. Reports
   requests, errors (non-200 answers and transport failures), throughput and latency
   percentiles, overall and per kind.

The client and the server share the machine: numbers from a busy machine are pessimistic.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

from _common import machine_info, machine_line

HOST = "127.0.0.1"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]  # fmt: skip

MIX: list[tuple[str, str, dict[str, Any] | None]] = [
    ("equity preflop", "/api/equity", {"players": ["AhAs", "KdKc"]}),
    ("equity preflop", "/api/equity", {"players": ["7h6h", "AcKd"]}),
    ("equity flop", "/api/equity", {"players": ["AsKs", "QdQc"], "board": "Qh7c2d"}),
    ("equity range", "/api/equity", {"players": ["AsKs", "QQ+,AKs"], "board": "Qh7c2d"}),
    ("outs turn", "/api/outs", {"players": ["9h8h", "AsKd"], "board": "Th7c2hKs"}),
    ("range", "/api/range", {"range": "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"}),
    ("evaluate", "/api/evaluate", {"cards": "Kh Kd Ks 4c 4d 2s 7h"}),
    ("games", "/api/games", None),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server(port: int, workers: int | None) -> subprocess.Popen[bytes]:
    args = ["serve", "--host", HOST, "--port", str(port)]
    if workers is not None:
        args += ["--workers", str(workers)]
    code = "import sys; from pokerlab.cli import main; main(sys.argv[1:])"
    server = subprocess.Popen([sys.executable, "-c", code, *args])
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}")
        try:
            if httpx.get(f"http://{HOST}:{port}/api/games", timeout=1).status_code == 200:
                return server
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    server.kill()
    raise SystemExit("the server did not start within 300 s")


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return {
        "n": len(ordered),
        "median_ms": statistics.median(ordered) * 1000,
        "p90_ms": at(0.90) * 1000,
        "p99_ms": at(0.99) * 1000,
        "max_ms": ordered[-1] * 1000,
    }


def first_render(base: str, loads: int = 20) -> dict[str, float]:
    times = []
    with httpx.Client(base_url=base) as client:
        for path in ("/", "/static/app.css", "/static/app.js", "/api/games"):  # warm
            client.get(path).raise_for_status()
        for _ in range(loads):
            t0 = time.perf_counter()
            client.get("/").raise_for_status()
            for path in ("/static/app.css", "/static/app.js", "/api/games"):
                client.get(path).raise_for_status()
            times.append(time.perf_counter() - t0)
    return percentiles(times)


def chromium_render(base: str, loads: int = 10) -> dict[str, float] | None:
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        return None
    from playwright.sync_api import sync_playwright

    times = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=CHROMIUM_ARGS)
        page = browser.new_page()
        page.goto(base + "/")
        page.wait_for_selector("body[data-ready=true]")
        for _ in range(loads):
            page.reload()
            page.wait_for_selector("body[data-ready=true]")
            times.append(page.evaluate("performance.now()") / 1000)  # ms since navigation start
        browser.close()
    return percentiles(times)


def exact_equity(base: str, requests: int = 50) -> dict[str, dict[str, float]]:
    spots = {"AhAs vs KdKc": ["AhAs", "KdKc"], "7h6h vs AcKd": ["7h6h", "AcKd"],
             "AKs vs QQ (classes)": ["AKs", "QQ"]}  # fmt: skip
    out = {}
    with httpx.Client(base_url=base) as client:
        for name, players in spots.items():
            body = {"players": players, "method": "exact"}
            client.post("/api/equity", json=body).raise_for_status()
            times = []
            for _ in range(requests):
                t0 = time.perf_counter()
                r = client.post("/api/equity", json=body)
                r.raise_for_status()
                r.json()
                times.append(time.perf_counter() - t0)
            out[name] = percentiles(times)
    return out


class Connection:
    """A minimal HTTP/1.1 keep-alive client on asyncio streams: one request at a time, answers
    read by Content-Length. (httpx's async pool itself adds tens of milliseconds per request
    at fifty concurrent connections on this machine; this measures the server instead.)"""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, path: str, body: dict[str, Any] | None) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        method = "GET" if body is None else "POST"
        head = (f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\n\r\n")  # fmt: skip
        self.writer.write(head.encode() + payload)
        await self.writer.drain()
        header = await self.reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines
                      if line.lower().startswith("content-length:"))  # fmt: skip
        return status, await self.reader.readexactly(length)

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def load(port: int, clients: int, seconds: float, max_requests: int) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {kind: [] for kind, _, _ in MIX}
    errors: list[str] = []
    deadline = time.monotonic() + seconds

    async def one_client(index: int) -> None:
        connection = Connection(port)
        try:
            for n in range(max_requests):
                if time.monotonic() >= deadline:
                    return
                kind, path, body = MIX[(index + n) % len(MIX)]
                t0 = time.perf_counter()
                try:
                    status, answer = await asyncio.wait_for(connection.request(path, body), 10.0)
                    json.loads(answer)
                    if status != 200:
                        errors.append(f"{kind}: HTTP {status} {answer[:120]!r}")
                except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as exc:
                    errors.append(f"{kind}: {exc!r}")
                    await connection.close()
                    connection = Connection(port)
                latencies[kind].append(time.perf_counter() - t0)
        finally:
            await connection.close()

    started = time.monotonic()
    await asyncio.gather(*(one_client(i) for i in range(clients)))
    elapsed = time.monotonic() - started
    everything = [t for ts in latencies.values() for t in ts]
    return {
        "clients": clients,
        "seconds": elapsed,
        "requests": len(everything),
        "per_second": len(everything) / elapsed,
        "errors": len(errors),
        "first_errors": errors[:5],
        "latency": percentiles(everything),
        "by_kind": {kind: percentiles(ts) for kind, ts in latencies.items() if ts},
    }


def row(name: str, p: dict[str, float]) -> str:
    return (
        f"  {name:<22} n={int(p['n']):>6}  median {p['median_ms']:8.1f} ms  "
        f"p90 {p['p90_ms']:8.1f}  p99 {p['p99_ms']:8.1f}  max {p['max_ms']:8.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--max-requests", type=int, default=100_000, help="per client")
    parser.add_argument("--workers", type=int, default=None, help="server worker processes")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    if not 1 <= args.clients <= 500 or not 0 < args.seconds <= 600:
        raise SystemExit("--clients must be 1..500 and --seconds 0..600")

    print(machine_line(f"server workers: {args.workers or 'default'}"))
    port = free_port()
    base = f"http://{HOST}:{port}"
    server = start_server(port, args.workers)
    try:
        results: dict[str, Any] = {
            "machine": machine_info(f"server workers: {args.workers or 'default'}"),
            "first_render_http": first_render(base),
            "first_render_chromium": chromium_render(base),
            "exact_equity": exact_equity(base),
            "load": asyncio.run(load(port, args.clients, args.seconds, args.max_requests)),
        }  # fmt: skip
    finally:
        server.terminate()
        server.wait(30)

    print(f"pokerlab web, {results['machine']['cores']} cores, python "
          f"{results['machine']['python']}, server on {base}")  # fmt: skip
    print("first render (HTML + CSS + JS + /api/games, warm, keep-alive):")
    print(row("http", results["first_render_http"]))
    if results["first_render_chromium"]:
        print(row("chromium to ready", results["first_render_chromium"]))
    print("exact heads-up preflop equity, POST /api/equity end to end:")
    for name, p in results["exact_equity"].items():
        print(row(name, p))
    lo = results["load"]
    print(f"load: {lo['clients']} clients for {lo['seconds']:.1f} s: {lo['requests']:,} requests "
          f"({lo['per_second']:.0f}/s), {lo['errors']} errors")  # fmt: skip
    print(row("all", lo["latency"]))
    for kind, p in lo["by_kind"].items():
        print(row(kind, p))
    for line in lo["first_errors"]:
        print("  error:", line)
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
