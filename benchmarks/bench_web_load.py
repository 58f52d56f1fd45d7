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
3. **Load**: ``--clients`` concurrent clients (default 50), each sending the full mix back to
   back for ``--seconds`` (default 30): preflop and flop exact equities (ranges included), outs
   on a turn and on a flop (a 116 KB answer), a short Monte Carlo, range expansion, hand
   evaluation, draw advice, the game list, the status, and bad inputs (an invalid card, a
   missing field, a foreign Host header, a body over the cap: each must get its 4xx). Bounded:
   each client stops at the deadline or after ``--max-requests`` requests, each request times
   out after 10 s. Reports requests, unexpected answers (5xx above all) and transport
   failures, throughput, latency percentiles overall and per kind, and the server's memory
   (RSS of the server process, and of its workers) before and after, with its peak.

Targets (printed with the result): no 5xx, p99 under 1 s for the cheap routes (everything
not computed in a worker), server RSS growth under 50 MB. The server runs with its default
logging (a line per request, to a file). The client and the server share the machine: numbers
from a busy machine are pessimistic.
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

Request = tuple[str, str, dict[str, Any] | str | None, int, dict[str, str]]
"""kind, path, JSON body (a str is sent as is; None: a GET), expected status, extra headers"""

OVERSIZED = json.dumps({"players": ["AhAs", "KdKc"], "board": " " * 100_000})
MIX: list[Request] = [
    ("equity preflop", "/api/equity", {"players": ["AhAs", "KdKc"]}, 200, {}),
    ("equity preflop", "/api/equity", {"players": ["7h6h", "AcKd"]}, 200, {}),
    ("equity flop", "/api/equity", {"players": ["AsKs", "QdQc"], "board": "Qh7c2d"}, 200, {}),
    ("equity range", "/api/equity", {"players": ["AsKs", "QQ+,AKs"], "board": "Qh7c2d"}, 200, {}),
    ("equity mc", "/api/equity",
     {"players": ["AK", "QQ", "random"], "method": "mc", "trials": 20_000}, 200, {}),
    ("outs turn", "/api/outs", {"players": ["9h8h", "AsKd"], "board": "Th7c2hKs"}, 200, {}),
    ("outs flop", "/api/outs", {"players": ["AhAs", "QQ+,AKs"], "board": "Qh7c2d"}, 200, {}),
    ("draw", "/api/draw", {"hand": "Jh Jd 7c 4s 2h", "vs": ["random"], "method": "mc",
                           "trials": 5000}, 200, {}),
    ("range", "/api/range", {"range": "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"}, 200, {}),
    ("range", "/api/range", {"range": "15%,A5s:0.5", "list": True}, 200, {}),
    ("evaluate", "/api/evaluate", {"cards": "Kh Kd Ks 4c 4d 2s 7h"}, 200, {}),
    ("games", "/api/games", None, 200, {}),
    ("status", "/api/status", None, 200, {}),
    ("bad card", "/api/equity", {"players": ["AhAs", "KdKc"], "board": "Qh7x2d"}, 422, {}),
    ("bad input", "/api/outs", {"board": "Qh7c2d"}, 422, {}),
    ("bad input", "/api/games", None, 400, {"Host": "evil.example"}),
    ("bad input", "/api/equity", OVERSIZED, 413, {}),
]  # fmt: skip
POOLED = {"equity preflop", "equity flop", "equity range", "equity mc", "outs turn", "outs flop",
          "draw", "bad card"}  # fmt: skip
"""Kinds computed in a worker (a card is checked by the library, in the worker); the others are
the cheap routes (p99 target 1 s)."""


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def children(pid: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == pid:
                        found.append(int(entry))
            except OSError:
                continue
    return found


def memory(pid: int) -> dict[str, float]:
    return {"server_mb": rss_mb(pid), "workers_mb": sum(rss_mb(c) for c in children(pid))}


def free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        port: int = s.getsockname()[1]
        return port


def start_server(
    port: int, workers: int | None, log: Path
) -> tuple[subprocess.Popen[bytes], dict[str, float]]:
    """``pokerlab serve`` (default logging, into ``log``), once every worker is warm; with the
    seconds from launch to the first answer (a 503 while warming up, say) and to warm workers."""
    args = ["serve", "--host", HOST, "--port", str(port)]
    if workers is not None:
        args += ["--workers", str(workers)]
    code = "import sys; from pokerlab.cli import main; main(sys.argv[1:])"
    launched = time.monotonic()
    with open(log, "wb") as out:
        server = subprocess.Popen([sys.executable, "-c", code, *args], stdout=out, stderr=out)
    start: dict[str, float] = {}
    deadline = launched + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"the server exited with status {server.returncode}: see {log}")
        try:
            status = httpx.get(f"http://{HOST}:{port}/api/status", timeout=1).json()
            start.setdefault("first_answer_s", time.monotonic() - launched)
            if status["ready"] and status["idle"] == status["workers"]:
                start["workers_warm_s"] = time.monotonic() - launched
                return server, start
        except httpx.HTTPError:
            pass
        time.sleep(0.05)
    server.kill()
    raise SystemExit("the server did not warm up within 300 s")


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

    async def request(
        self, path: str, body: dict[str, Any] | str | None, headers: dict[str, str]
    ) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        assert self.reader is not None
        payload = b"" if body is None else (body if isinstance(body, str) else json.dumps(body))
        data = payload.encode() if isinstance(payload, str) else payload
        method = "GET" if body is None else "POST"
        fields = {"Host": HOST, "Content-Type": "application/json",
                  "Content-Length": str(len(data)), **headers}  # fmt: skip
        head = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in fields.items())
        self.writer.write(head.encode() + b"\r\n" + data)
        await self.writer.drain()
        header = await self.reader.readuntil(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        length = next(int(line.split(":", 1)[1]) for line in lines
                      if line.lower().startswith("content-length:"))  # fmt: skip
        answer = await self.reader.readexactly(length)
        if any(line.lower() == "connection: close" for line in lines):
            await self.close()
            self.reader = self.writer = None
        return status, answer

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            await self.writer.wait_closed()


async def load(
    port: int, pid: int, clients: int, seconds: float, max_requests: int
) -> dict[str, Any]:
    latencies: dict[str, list[float]] = {kind: [] for kind, *_ in MIX}
    errors: list[str] = []
    server_errors = 0
    deadline = time.monotonic() + seconds
    peak = memory(pid)

    async def one_client(index: int) -> None:
        nonlocal server_errors
        connection = Connection(port)
        try:
            for n in range(max_requests):
                if time.monotonic() >= deadline:
                    return
                kind, path, body, expected, headers = MIX[(index + n) % len(MIX)]
                t0 = time.perf_counter()
                try:
                    request = connection.request(path, body, headers)
                    status, answer = await asyncio.wait_for(request, 10.0)
                    if expected != 400:  # the Host check answers in plain text
                        json.loads(answer)
                    if status >= 500:
                        server_errors += 1
                    if status != expected:
                        errors.append(f"{kind}: HTTP {status} {answer[:160]!r}")
                except (OSError, ValueError, asyncio.IncompleteReadError, TimeoutError) as exc:
                    errors.append(f"{kind}: {exc!r}")
                    await connection.close()
                    connection = Connection(port)
                latencies[kind].append(time.perf_counter() - t0)
        finally:
            await connection.close()

    async def watch_memory() -> None:
        while time.monotonic() < deadline:
            now = memory(pid)
            for key in peak:
                peak[key] = max(peak[key], now[key])
            await asyncio.sleep(0.5)

    before = memory(pid)
    started = time.monotonic()
    await asyncio.gather(watch_memory(), *(one_client(i) for i in range(clients)))
    elapsed = time.monotonic() - started
    await asyncio.sleep(1.0)  # let the last answers' buffers go
    after = memory(pid)
    everything = [t for ts in latencies.values() for t in ts]
    cheap = [t for kind, ts in latencies.items() if kind not in POOLED for t in ts]
    return {
        "clients": clients,
        "seconds": elapsed,
        "requests": len(everything),
        "per_second": len(everything) / elapsed,
        "errors": len(errors),
        "server_errors": server_errors,
        "first_errors": errors[:5],
        "latency": percentiles(everything),
        "cheap": percentiles(cheap),
        "by_kind": {kind: percentiles(ts) for kind, ts in latencies.items() if ts},
        "memory": {"before": before, "after": after, "peak": peak},
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
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"pokerlab-serve-{port}.log"
    server, start = start_server(port, args.workers, log)
    try:
        status = httpx.get(base + "/api/status").json()
        results: dict[str, Any] = {
            "machine": {**machine_info(f"server workers: {args.workers or 'default'}"),
                        "workers": status["workers"],
                        "threads_per_worker": status["threads_per_worker"],
                        "event_loop": status["event_loop"]},
            "start": start,
            "first_render_http": first_render(base),
            "first_render_chromium": chromium_render(base),
            "exact_equity": exact_equity(base),
            "load": asyncio.run(load(port, server.pid, args.clients, args.seconds,
                                     args.max_requests)),
        }  # fmt: skip
    finally:
        server.terminate()
        server.wait(30)

    m = results["machine"]
    print(f"pokerlab web on {m['cpu']}, {m['cores_online']} cores, load average "
          f"{m['load_average_1min']:.1f}; "
          f"server: {m['workers']} workers x {m['threads_per_worker']} threads, "
          f"{m['event_loop']}, python {m['python']}, on {base}; log in {log}")  # fmt: skip
    print(f"start-up: first answer after {start['first_answer_s']:.1f} s, every worker warm "
          f"after {start['workers_warm_s']:.1f} s (numba cache warm)")  # fmt: skip
    print("first render (HTML + CSS + JS + /api/games, warm, keep-alive):")
    print(row("http", results["first_render_http"]))
    if results["first_render_chromium"]:
        print(row("chromium to ready", results["first_render_chromium"]))
    print("exact heads-up preflop equity, POST /api/equity end to end:")
    for name, p in results["exact_equity"].items():
        print(row(name, p))
    lo = results["load"]
    print(f"load: {lo['clients']} clients for {lo['seconds']:.1f} s: {lo['requests']:,} requests "
          f"({lo['per_second']:.0f}/s), {lo['server_errors']} 5xx, "
          f"{lo['errors']} unexpected answers or failures")  # fmt: skip
    print(row("all", lo["latency"]))
    print(row("cheap routes", lo["cheap"]))
    for kind, p in lo["by_kind"].items():
        print(row(kind, p))
    mem = lo["memory"]
    growth = mem["after"]["server_mb"] - mem["before"]["server_mb"]
    print(f"server RSS {mem['before']['server_mb']:.0f} MB before, {mem['after']['server_mb']:.0f} "
          f"after (peak {mem['peak']['server_mb']:.0f}): growth {growth:+.1f} MB; workers "
          f"{mem['before']['workers_mb']:.0f} -> {mem['after']['workers_mb']:.0f} MB")  # fmt: skip
    for line in lo["first_errors"]:
        print("  unexpected:", line)
    checks = {"no 5xx": lo["server_errors"] == 0, "cheap p99 < 1 s": lo["cheap"]["p99_ms"] < 1000,
              "server RSS growth < 50 MB": growth < 50}  # fmt: skip
    print("targets:", ", ".join(f"{k}: {'met' if ok else 'MISSED'}" for k, ok in checks.items()))
    if args.json is not None:
        args.json.write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
