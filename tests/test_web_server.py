"""``pokerlab serve`` as users and attackers meet it: a real server subprocess (uvicorn with
uvloop, on 127.0.0.1 and a free port), its warm-up, large answers, queueing, clients that go
away, dead workers, oversized bodies, foreign Host headers and its log. Every request has a
timeout; the tests that kill workers come last."""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from cli_helpers import ctrl_c_blocked
from pokerlab.analysis.outs import outs
from pokerlab.web.app import STATIC, Settings, allowed_hosts_for, default_workers
from pokerlab.web.middleware import SECURITY_HEADERS
from pokerlab.web.models import MAX_PLAYERS
from web_server import ServeProcess, serve_process

FLOP_OUTS = {"players": ["AhAs", "QQ+,AKs"], "board": "Qh7c2d"}
CHEAP = {"players": ["AhAs", "KdKc"]}
# an exact run of some seconds that checks for a stop request as it goes
LONG_EXACT = {"players": ["random"] * 3, "board": "AhKs2d", "method": "exact"}  # ~160 s of work


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServeProcess]:
    args = ["--max-seconds", "60", "--queue-seconds", "6", "--allowed-host", "pokerlab.test"]
    with serve_process(tmp_path_factory.mktemp("serve"), *args, workers=2) as s:
        yield s


def post(server: ServeProcess, path: str, body: Any, timeout: float = 60) -> httpx.Response:
    return httpx.post(server.url + path, json=body, timeout=timeout)


def raw_request(server: ServeProcess, request: bytes, timeout: float = 30) -> bytes:
    """Send bytes on a fresh connection, close our side and read the answer to its end."""
    host, port = server.url.removeprefix("http://").split(":")
    chunks = []
    with socket.create_connection((host, int(port)), timeout=timeout) as sock:
        sock.sendall(request)
        sock.shutdown(socket.SHUT_WR)
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return b"".join(chunks)


# ---- 9. start-up: connections at once, 503 warming up, every task kind warmed ------------


def test_requests_during_warm_up_get_503_with_retry_after(server: ServeProcess) -> None:
    first = server.warming_answers[0]
    assert first.status_code == 503, "the server answered only once its workers were warm"
    assert first.json()["error"]["type"] == "WarmingUp"
    assert int(first.headers["retry-after"]) > 0
    assert server.warming_answers[-1].status_code == 200


def test_the_warm_up_runs_every_task_kind_and_game(monkeypatch: pytest.MonkeyPatch) -> None:
    from pokerlab.games import GAMES
    from pokerlab.web import pool, tasks

    calls: list[tuple[str, dict[str, Any]]] = []

    def recording(kind: str) -> Any:
        return lambda **kw: calls.append((kind, kw))

    recorder = {kind: recording(kind) for kind in tasks.TASKS}
    monkeypatch.setattr(tasks, "TASKS", recorder)
    pool._warm_up()
    # every kind with kernels of its own; draw_deal, range and evaluate only parse and deal
    kinds = {"equity", "outs", "draw", "draw_showdown", "query", "hits", "distribution"}
    assert {kind for kind, _ in calls} == kinds
    # every exact equity spot without Monte Carlo options (the task refuses them)
    assert all(kw["seed"] is None for kind, kw in calls if kind == "equity" and
               kw["method"] == "exact")  # fmt: skip
    equity = [kw for kind, kw in calls if kind == "equity"]
    assert {(kw["game"], kw["method"]) for kw in equity} >= {(g, "mc") for g in GAMES}
    assert {kw["game"] for kind, kw in calls if kind == "draw"} == {"high", "2-7"}
    assert {len(kw["board"]) for kind, kw in calls if kind == "outs"} == {6, 8}  # flop, turn
    queries = [kw["text"] for kind, kw in calls if kind == "query"]
    assert len(queries) == 3 and "game='razz'" in queries[2]  # sampled, exact, stud
    assert {kw["bot"] for kind, kw in calls if kind == "draw_showdown"} == {"optimal"}


def test_status_reports_the_workers_and_the_event_loop(server: ServeProcess) -> None:
    status = server.status()
    assert status["ready"] and status["workers"] == status["workers_ready"] == 2
    assert status["threads_per_worker"] == 1
    assert status["event_loop"].startswith("uvloop"), status  # uvicorn[standard] runs uvloop


def test_workers_run_one_numba_thread_each(server: ServeProcess) -> None:
    for pid in server.worker_pids():
        environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        assert b"NUMBA_NUM_THREADS=1" in environ


def test_workers_never_hear_ctrl_c(server: ServeProcess) -> None:
    """They ignored it once warm; one that heard it while warming up printed a traceback."""
    pids = server.worker_pids()
    assert pids and all(ctrl_c_blocked(pid) for pid in pids)


# ---- 1. large answers through uvloop ----------------------------------------------------


def test_large_flop_outs_answers_arrive_whole_under_uvloop(server: ServeProcess) -> None:
    expected = outs(FLOP_OUTS["players"], board=FLOP_OUTS["board"]).to_dict()
    for _ in range(20):
        r = post(server, "/api/outs", FLOP_OUTS)
        assert r.status_code == 200, r.text
        assert len(r.content) > 100_000
        assert r.json() == json.loads(json.dumps(expected))


def test_concurrent_large_answers_all_arrive(server: ServeProcess) -> None:
    results: list[int] = []

    def one() -> None:
        results.append(post(server, "/api/outs", FLOP_OUTS).status_code)

    threads = [threading.Thread(target=one) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results == [200] * 8


# ---- 2. the queue is limited apart from the computation -----------------------------------


def server_timing(response: httpx.Response) -> dict[str, float]:
    return {
        name: float(ms)
        for name, ms in re.findall(r"(\w+);dur=([\d.]+)", response.headers["server-timing"])
    }


def test_waiting_for_a_worker_does_not_count_against_the_time_limit(server: ServeProcess) -> None:
    body = {"players": ["AK", "QQ"], "method": "mc", "stderr": 1e-5, "time_limit": 2.0}
    answers: list[httpx.Response] = []

    def one() -> None:
        answers.append(post(server, "/api/equity", body))

    threads = [threading.Thread(target=one) for _ in range(3)]
    for t in threads:
        t.start()
        time.sleep(0.2)
    queued = server.status()["queued"]
    for t in threads:
        t.join(60)
    assert queued == 1  # three runs, two workers
    assert [a.status_code for a in answers] == [200, 200, 200], [a.text for a in answers]
    assert all(a.json()["stopped"] == "time" for a in answers)
    waits = sorted(server_timing(a)["queue"] for a in answers)
    assert waits[-1] > 1000  # the third waited for a worker, then still got its 2 s
    assert all(server_timing(a)["compute"] >= 1900 for a in answers)


# ---- 4. ranges off the event loop -------------------------------------------------------


def test_slow_ranges_do_not_hold_up_cheap_routes(server: ServeProcess) -> None:
    percents = ",".join(f"{j % 100 + 1}%" for j in range(1100))  # ~0.2 s each to expand
    done: list[float] = []

    def one_range(i: int) -> None:  # distinct texts: no cache hits
        r = post(server, "/api/range", {"range": f"{i + 1}%,{percents}"})
        assert r.status_code == 200, r.text
        done.append(time.monotonic())

    threads = [threading.Thread(target=one_range, args=(i,)) for i in range(16)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    for _ in range(3):
        assert httpx.get(server.url + "/api/games", timeout=10).status_code == 200
        assert post(server, "/api/evaluate", {"cards": "Kh Kd Ks 4c 4d"}).status_code == 200
    cheap_done = time.monotonic()
    for t in threads:
        t.join(120)
    assert len(done) == 16 and cheap_done < max(done)


# ---- 5. body and list caps ----------------------------------------------------------------


def test_an_oversized_body_is_refused_with_413_before_parsing(server: ServeProcess) -> None:
    big = {"players": ["AhAs", "KdKc"], "board": "x" * 1_000_000}
    r = post(server, "/api/equity", big)
    assert r.status_code == 413 and r.json()["error"]["type"] == "TooLarge"
    # a chunked body has no length to check up front: refused once what arrived passes the cap
    chunk = b"[" + b" " * 40_000
    chunked = (f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n") * 2  # no last chunk: the
    answer = raw_request(  # server has read all that was sent when it answers, so no reset
        server,
        b"POST /api/range HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n" + chunked,
    )
    assert answer.startswith(b"HTTP/1.1 413"), answer[:200]
    assert post(server, "/api/equity", CHEAP).status_code == 200


def test_lists_are_capped_in_the_models(server: ServeProcess) -> None:
    r = post(server, "/api/equity", {"players": ["random"] * (MAX_PLAYERS + 1)})
    error = r.json()["error"]
    assert r.status_code == 422 and error["field"] == "players"
    assert error["type"] == "ValidationError"  # refused by the model, before the library
    r = post(server, "/api/draw", {"hand": "Jh Jd 7c 4s 2h", "vs": ["random"] * 10})
    assert r.status_code == 422 and r.json()["error"]["field"] == "vs"


# ---- 7. Host names (DNS rebinding) ----------------------------------------------------------


def test_only_the_bound_and_allowed_host_names_are_answered(server: ServeProcess) -> None:
    port = server.url.rsplit(":", 1)[1]
    for host, status in [("127.0.0.1", 200), ("localhost", 200), ("pokerlab.test", 200),
                         ("evil.example", 400), ("127.0.0.1.evil.example", 400)]:  # fmt: skip
        r = httpx.get(server.url + "/api/games", headers={"host": f"{host}:{port}"}, timeout=10)
        assert r.status_code == status, host


def test_allowed_hosts_follow_the_bound_address() -> None:
    assert allowed_hosts_for("127.0.0.1") == ("127.0.0.1", "localhost")
    assert allowed_hosts_for("192.0.2.7", ("poker.lan",)) == ("192.0.2.7", "poker.lan")
    every = allowed_hosts_for("0.0.0.0")
    assert "localhost" in every and socket.gethostname() in every


@pytest.mark.parametrize("option", ["--max-seconds", "--queue-seconds"])
def test_a_limit_that_is_not_a_number_is_refused_before_the_server_starts(option: str) -> None:
    """``nan`` passed click's range (every comparison with it is false): the server started,
    and every request failed at its limit of 'nan s' (workers retired as past it) or waited
    'nan s' in the queue (503 busy). It is refused with the option's name, and so is a
    ``Settings`` of such a limit (``POKERLAB_WEB_MAX_SECONDS=nan``)."""
    from click.testing import CliRunner

    from pokerlab.cli import app
    from pokerlab.web.app import Settings

    field = option.removeprefix("--").replace("-", "_")
    for bad in (float("nan"), float("inf"), 0.0, -1.0):
        with pytest.raises(ValueError, match=f"{field} must be a positive number of seconds"):
            Settings(workers=1, **{field: bad})
    with pytest.raises(ValueError, match="workers must be a whole number"):
        Settings(workers=0)
    result = CliRunner().invoke(app, ["serve", option, "nan"])  # (it served on, forever)
    assert result.exit_code == 2
    assert f"Invalid value for '{option}': 'nan' is not a number" in result.output


# ---- 6 of issue 15: security headers -----------------------------------------------------


def test_every_answer_carries_the_security_headers(server: ServeProcess) -> None:
    for path in ("/", "/static/app.js", "/api/games", "/api/nothing"):
        r = httpx.get(server.url + path, timeout=10)
        for name, value in SECURITY_HEADERS.items():
            assert r.headers[name] == value, (path, name)
    csp = SECURITY_HEADERS["Content-Security-Policy"]
    assert "script-src 'self';" in csp and "unsafe-inline" not in csp


def test_the_page_has_no_inline_script_or_style_and_inserts_no_html() -> None:
    page = (STATIC / "index.html").read_text()
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.findall(r"\son\w+\s*=", page) == [] and "style=" not in page
    assert "<style" not in page and "javascript:" not in page
    script = (STATIC / "app.js").read_text()
    for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
        assert sink not in script, sink
    assert 'setAttribute("style"' not in script and "style:" not in script


def test_serve_binds_loopback_by_default_and_warns_on_every_interface(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import uvicorn
    from click.testing import CliRunner

    from pokerlab.cli import app as cli_app

    calls: list[dict[str, Any]] = []
    monkeypatch.setattr(uvicorn, "run", lambda *a, **kw: calls.append(kw))
    for name in ("HOST", "ALLOWED_HOSTS", "WORKERS", "THREADS_PER_WORKER"):
        monkeypatch.delenv(f"POKERLAB_WEB_{name}", raising=False)
    result = CliRunner().invoke(cli_app, ["serve", "--port", "1"])
    assert result.exit_code == 0 and "warning" not in result.output
    assert calls[-1]["host"] == "127.0.0.1"
    result = CliRunner().invoke(cli_app, ["serve", "--host", "0.0.0.0", "--port", "1",
                                          "--allowed-host", "poker.lan"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "warning: listening on every interface" in result.output
    assert calls[-1]["host"] == "0.0.0.0"
    assert os.environ["POKERLAB_WEB_ALLOWED_HOSTS"] == "poker.lan"
    assert os.environ["POKERLAB_WEB_THREADS_PER_WORKER"] == "1"


def test_default_workers_keep_workers_times_threads_within_the_cores(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``pokerlab serve --threads-per-worker 2`` on 2 cores started 2 workers x 2 threads (one
    worker per core whatever the threads), and counted the machine's cores, not this process's
    CPU set."""
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    monkeypatch.setattr(os, "cpu_count", lambda: 64)  # the machine's: not this process's
    assert [default_workers(threads) for threads in (1, 2, 3, 4, 8)] == [4, 2, 1, 1, 1]
    for name in ("WORKERS", "THREADS_PER_WORKER"):
        monkeypatch.delenv(f"POKERLAB_WEB_{name}", raising=False)
    assert (Settings.from_env().workers, Settings.from_env().threads_per_worker) == (4, 1)
    monkeypatch.setenv("POKERLAB_WEB_THREADS_PER_WORKER", "2")
    settings = Settings.from_env()
    assert (settings.workers, settings.threads_per_worker) == (2, 2)
    monkeypatch.setenv("POKERLAB_WEB_WORKERS", "3")  # an explicit count is kept
    assert Settings.from_env().workers == 3


# ---- 3. a client that goes away frees its worker -------------------------------------------


def abandon(server: ServeProcess, path: str, body: dict[str, Any]) -> None:
    """Send a request and hang up before it is answered."""
    with pytest.raises(httpx.ReadTimeout):
        post(server, path, body, timeout=1.0)


def test_an_abandoned_run_is_stopped_and_its_worker_kept(server: ServeProcess) -> None:
    pids = set(server.worker_pids())
    abandon(server, "/api/equity", LONG_EXACT)
    abandon(server, "/api/equity", LONG_EXACT)
    # both workers were taken; the queue allows 6 s: an answer means they were freed
    r = post(server, "/api/equity", CHEAP, timeout=60)
    assert r.status_code == 200, r.text
    server.wait_for_log("stopped an abandoned equity task")
    assert set(server.worker_pids()) == pids  # stopped from inside, not killed


def test_an_abandoned_task_that_cannot_stop_has_its_worker_replaced(server: ServeProcess) -> None:
    body = {"hand": "Jh Jd 7c 4s 2h", "vs": ["random"], "method": "mc", "trials": 10**9}
    abandon(server, "/api/draw", body)
    server.wait_for_log("its draw task was abandoned by the client")
    assert post(server, "/api/equity", CHEAP).status_code == 200
    server.wait_ready(2)


# ---- 8. the log -----------------------------------------------------------------------------


def test_the_log_has_every_request_with_its_status_and_time(server: ServeProcess) -> None:
    post(server, "/api/evaluate", {"cards": "Kh Kd Ks 4c 4d"})
    post(server, "/api/evaluate", {"cards": "Kh"})
    server.wait_for_log(
        r"INFO: +POST /api/evaluate 200 [\d.]+ ms",
        r"INFO: +POST /api/evaluate 422 [\d.]+ ms",
        r"POST /api/equity 413 [\d.]+ ms",
        r"GET /api/games 400 [\d.]+ ms",  # a foreign Host
        r"WARNING: +POST /api/equity 503 [\d.]+ ms",  # while warming up
    )


# ---- 6. dead workers (these kill workers: last) ------------------------------------------


def test_workers_that_died_while_idle_are_replaced_before_dispatch(server: ServeProcess) -> None:
    server.wait_ready(2)
    for pid in server.worker_pids():
        os.kill(pid, signal.SIGKILL)
    time.sleep(0.2)
    r = post(server, "/api/equity", CHEAP)
    assert r.status_code in (200, 503), r.text
    if r.status_code == 503:  # both replacements still warming: the pool says so
        assert r.json()["error"]["type"] in ("WarmingUp", "Busy")
    server.wait_ready(2)
    assert post(server, "/api/equity", CHEAP).status_code == 200
    server.wait_for_log(r"found dead while idle \(it was killed by SIGKILL\)")


def test_a_worker_killed_mid_task_is_a_503_saying_so(server: ServeProcess) -> None:
    server.wait_ready(2)
    answer: list[httpx.Response] = []
    thread = threading.Thread(target=lambda: answer.append(post(server, "/api/equity", LONG_EXACT)))
    thread.start()
    deadline = time.monotonic() + 10
    while server.status()["busy"] < 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.3)
    for pid in server.worker_pids():
        os.kill(pid, signal.SIGKILL)
    thread.join(60)
    r = answer[0]
    assert r.status_code == 503, r.text
    error = r.json()["error"]
    assert error["type"] == "WorkerDied" and "killed by SIGKILL" in error["message"]
    server.wait_for_log(r"retired: it was killed by SIGKILL while running equity")
    server.wait_ready(2)
    assert post(server, "/api/equity", CHEAP).status_code == 200


def test_ctrl_c_stops_the_running_tasks_and_the_server_at_once(tmp_path: Path) -> None:
    """The server waited for each request in flight to end (8 s for a Monte Carlo run); now the
    run answers with what it sampled and the server stops."""
    with serve_process(tmp_path, workers=1) as server:
        answers: list[httpx.Response] = []
        body = {"players": ["AhKh", "QQ+,AK", "random"], "method": "mc", "stderr": 0.00001,
                "time_limit": 9}  # fmt: skip
        client = threading.Thread(
            target=lambda: answers.append(
                httpx.post(server.url + "/api/equity", json=body, timeout=60)
            )
        )
        client.start()
        time.sleep(1.5)  # the run is under way
        server.process.send_signal(signal.SIGINT)
        started = time.monotonic()
        server.process.wait(30)
        stopped_after = time.monotonic() - started
        client.join(30)
    assert stopped_after < 5, stopped_after
    assert answers and answers[0].status_code == 200, answers
    assert answers[0].json()["stopped"] == "cancelled"
    assert "Traceback" not in server.log()
