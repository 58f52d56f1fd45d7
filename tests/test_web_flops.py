"""``POST /api/flops`` and ``POST /api/matrix`` (and their ``/stream`` forms): the library's own
report, run in the worker on the ``inline`` backend; errors on the right field; a flop report
estimated over the limit refused at once; Stop, the time limit and a client that leaves end the
work and keep the worker. Against a real server with ONE worker, as tests/test_web_stream.py."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import pokerlab
from pokerlab.errors import CancelledError, ClusterError, PokerlabError, TooLargeError
from pokerlab.scale.backends import InlineBackend, make_backend
from pokerlab.scale.flops import flop_report
from pokerlab.scale.matrix import preflop_matrix
from pokerlab.web import tasks
from pokerlab.web.app import Settings
from test_web_stream import events, quick_answer, wait_idle
from web_server import running_server

LIMIT = 10.0
SPOT = {"players": ["AsKs", "QQ+"]}  # 4,494 flop classes, about 1 s of one core
LONG_FLOPS = {"players": ["AsAhKsKh", "JdTd9c8c"], "game": "omaha"}  # about 3 s; estimated 1.8
SUB = ["AA", "KK", "AKs"]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    settings = Settings(workers=1, max_seconds=LIMIT, queue_seconds=4.0,
                        allowed_hosts=("127.0.0.1",))  # fmt: skip
    with running_server(settings) as base:
        yield base


def post(url: str, path: str, body: dict[str, Any]) -> httpx.Response:
    return httpx.post(url + path, json=body, timeout=60)


def without_seconds(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


# ---- the library's answers -------------------------------------------------------------------


def library_flops(players: list[str], dead: str = "", game: str = "holdem") -> dict[str, Any]:
    """The library's flop report of the spot, as JSON, without its timing."""
    report = flop_report(players, dead, game=game, backend="inline")
    return without_seconds(report.to_dict())


def test_a_flop_report_is_the_librarys(url: str) -> None:
    answer = post(url, "/api/flops", SPOT)
    assert answer.status_code == 200, answer.text
    assert "compute;dur=" in answer.headers["Server-Timing"]
    data = answer.json()
    assert without_seconds(data) == library_flops(SPOT["players"])
    assert len(data["flops"]) == data["classes"] == 4494 and data["symmetries"] == 6
    assert data["equity"] == sorted(data["equity"], reverse=True)
    assert sum(data["probability"]) == pytest.approx(1, abs=1e-12)
    preflop = pokerlab.equity(SPOT["players"]).players[0].equity
    assert data["mean_equity"] == pytest.approx(preflop, abs=1e-12)


def test_a_short_deck_report_with_dead_cards_is_the_librarys(url: str) -> None:
    body = {"players": ["AA", "KK"], "game": "shortdeck", "dead": "Ah"}
    answer = post(url, "/api/flops", body)
    assert answer.status_code == 200, answer.text
    assert without_seconds(answer.json()) == library_flops(["AA", "KK"], "Ah", "shortdeck")
    assert answer.json()["dead"] == "Ah" and answer.json()["game"] == "shortdeck"


def test_a_sub_matrix_is_the_librarys(url: str) -> None:
    answer = post(url, "/api/matrix", {"names": ["aa", "KK", "AKs"]})  # a class in any case
    assert answer.status_code == 200, answer.text
    want = preflop_matrix(SUB, backend="inline").to_dict()
    assert without_seconds(answer.json()) == without_seconds(want)
    data = answer.json()
    assert data["names"] == SUB and data["jobs"] == 6
    assert data["equity"][0][1] == pytest.approx(0.8195, abs=1e-4)  # AA vs KK
    short = post(url, "/api/matrix", {"names": ["AKs", "66"], "game": "shortdeck"}).json()
    assert short["game"] == "shortdeck"
    assert short["equity"] == preflop_matrix(["AKs", "66"], game="shortdeck").equity.tolist()


def test_the_inline_backend_gives_the_local_backends_answers() -> None:
    """The web's backend and the default one (a process pool) agree, bit for bit."""
    inline = flop_report(["AA", "KK"], game="shortdeck", backend="inline")
    assert inline == flop_report(["AA", "KK"], game="shortdeck", workers=1)
    assert preflop_matrix(SUB, backend="inline") == preflop_matrix(SUB, workers=1)


def test_the_inline_backend_runs_each_task_when_asked_in_this_thread() -> None:
    ran: list[int] = []

    def task(k: int) -> int:
        ran.append(k)
        return k * k

    with make_backend("inline") as backend:
        assert isinstance(backend, InlineBackend)
        assert backend.workers == 1 and backend.executor is None
        answers = backend.run((k, task, k) for k in range(3))
        assert next(answers) == (0, 0) and ran == [0]  # nothing runs ahead of the caller
        assert list(answers) == [(1, 1), (2, 4)]
    with pytest.raises(ClusterError, match="runs in this process, not on 2 workers"):
        make_backend("inline", workers=2)
    with pytest.raises(ClusterError, match="use local, inline or dask"):
        make_backend("threads")


# ---- errors ----------------------------------------------------------------------------------


def library_error(path: str, body: dict[str, Any]) -> PokerlabError:
    """The error the library raises for ``body``'s request."""
    with pytest.raises(PokerlabError) as caught:
        if path == "/api/flops":
            flop_report(body["players"], body.get("dead", ""), game=body.get("game", "holdem"),
                        backend="inline")  # fmt: skip
        else:
            preflop_matrix(body.get("names"), game=body.get("game", "holdem"), backend="inline")
    return caught.value


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/flops", {"players": ["AsKs"]}, "players"),
        ("/api/flops", {"players": ["AsKs", "QX"]}, "players.1"),
        ("/api/flops", {"players": ["AsKs", "AsQs"]}, "players.1"),
        ("/api/flops", {"players": ["AsKs", "QQ"], "dead": "Zz"}, "dead"),
        ("/api/flops", {"players": ["AsKs", "QQ"], "game": "razz"}, "game"),
        ("/api/flops", {"players": ["AsKs", "QQ"], "game": "no-such-game"}, "game"),
        ("/api/matrix", {"names": []}, "names"),
        ("/api/matrix", {"names": ["AA", "AKx"]}, "names.1"),  # the item, as players.1
        ("/api/matrix", {"names": ["AA", "aa"]}, "names.1"),
        ("/api/matrix", {"names": ["AA", "55"], "game": "shortdeck"}, "names.1"),
        ("/api/matrix", {"game": "omaha"}, "game"),
        ("/api/matrix", {"game": "nope"}, "game"),  # was null
    ],
)
def test_library_errors_are_422_on_their_field(
    url: str, path: str, body: dict[str, Any], field: str
) -> None:
    answer = post(url, path, body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    expected = library_error(path, body)
    assert error == {"type": type(expected).__name__, "message": str(expected), "field": field}
    assert "\n" not in error["message"]


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/flops", {}, "players"),
        ("/api/flops", {"players": "AsKs"}, "players"),
        ("/api/flops", {"players": ["AsKs", "QQ"], "time_limit": 0}, "time_limit"),
        ("/api/flops", {"players": ["AsKs", "QQ"], "board": "2c3d4h"}, "board"),
        ("/api/matrix", {"names": "AA,KK"}, "names"),
        ("/api/matrix", {"names": ["AA"] * 170}, "names"),
        ("/api/matrix", {"names": ["A" * 11]}, "names.0"),
    ],
)
def test_bad_bodies_are_422_on_their_field(
    url: str, path: str, body: dict[str, Any], field: str
) -> None:
    answer = post(url, path, body)
    assert answer.status_code == 422, answer.text
    error = answer.json()["error"]
    assert error["type"] == "ValidationError" and error["field"] == field and error["message"]


# ---- limits ----------------------------------------------------------------------------------


def test_a_report_estimated_over_the_limit_is_refused_at_once(url: str) -> None:
    players = ["random"] * 3  # about 285,000 s of one core
    started = time.monotonic()
    answer = post(url, "/api/flops", {"players": players})
    assert time.monotonic() - started < 5
    assert answer.status_code == 422, answer.text
    with pytest.raises(TooLargeError) as caught:
        flop_report(players, backend="inline", max_seconds=LIMIT)
    # the library's message; no field: the server's limit is no box of the request
    assert answer.json()["error"] == {"type": "TooLargeError", "message": str(caught.value),
                                      "field": None}  # fmt: skip
    own = post(url, "/api/flops", {**SPOT, "time_limit": 0.5})
    assert own.status_code == 422 and own.json()["error"]["field"] == "time_limit"
    assert "over the limit of 0.5 s" in own.json()["error"]["message"]
    quick_answer(url)


def test_a_report_refused_for_its_own_time_limit_says_to_raise_it() -> None:
    """A request's time_limit of 0.2 s was told to "raise max_seconds (--max-seconds)", which a
    request cannot; the server's limit keeps the library's words (pokerlab serve's option)."""
    with pytest.raises(TooLargeError) as own:
        tasks.run_flops(players=SPOT["players"], dead="", game="holdem", limit=0.2,
                        time_limit=0.2)  # fmt: skip
    assert own.value.field == "time_limit"
    assert str(own.value).endswith("over the limit of 0.2 s; narrow the ranges, or raise "
                                   "time_limit to run it")  # fmt: skip
    with pytest.raises(TooLargeError) as server:  # the request's 60 s, the server's 0.2 s
        tasks.run_flops(players=SPOT["players"], dead="", game="holdem", limit=0.2,
                        time_limit=60.0)  # fmt: skip
    assert "raise max_seconds (--max-seconds)" in str(server.value)


def test_a_matrix_past_its_time_limit_is_stopped_and_keeps_its_worker(url: str) -> None:
    started = time.monotonic()
    answer = post(url, "/api/matrix", {"time_limit": 0.3})  # all 169 classes: seconds
    assert time.monotonic() - started < 2
    assert answer.status_code == 422, answer.text
    assert answer.json() == tasks.error_payload(tasks.time_limit_error(0.3, "matrix"))
    assert "fewer classes" in answer.json()["error"]["message"]
    assert wait_idle(url)["idle"] == 1
    quick_answer(url)


def test_a_flop_report_past_its_time_limit_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A report whose estimate erred low is stopped by the time limit, between two flops."""
    import pokerlab.scale.flops as flops

    monkeypatch.setattr(flops, "_work_seconds", lambda *args: 0.0)
    players = LONG_FLOPS["players"]
    pokerlab.equity(players, board="2c3d4h", game="omaha", method="exact")  # its kernels loaded
    started = time.monotonic()
    with pytest.raises(TooLargeError) as caught:
        tasks.run_flops(players=players, dead="", game="omaha", limit=0.2)
    assert time.monotonic() - started < 1.5
    assert str(caught.value) == str(tasks.time_limit_error(0.2, "flops"))
    assert caught.value.field == "time_limit"


def test_stop_ends_a_report_between_two_exact_runs() -> None:
    updates: list[dict[str, Any]] = []
    with pytest.raises(CancelledError) as caught:
        tasks.run_matrix(names=None, game="holdem", limit=LIMIT, stop=lambda: len(updates) >= 3,
                         progress=updates.append)  # fmt: skip
    assert len(updates) == 3  # stopped after the third cell of 14,365
    assert str(caught.value) == ("the matrix was stopped at 0% of its cells: the matrix has no "
                                 "partial result")  # fmt: skip


# ---- streams ---------------------------------------------------------------------------------


def stopped_stream(url: str, task: str, body: dict[str, Any]) -> tuple[list[float], Any]:
    """Stream ``task`` and stop it at its first progress event: the fractions seen and the last
    event."""
    fractions: list[float] = []
    with httpx.stream("POST", f"{url}/api/{task}/stream", json=body, timeout=60) as response:
        stream = events(response)
        kind, start = next(stream)
        assert kind == "start"
        last = next(stream)
        assert last[0] == "progress" and 0 <= last[1]["fraction"] < 1, last
        stopped = httpx.post(url + "/api/stop", json={"id": start["id"]}, timeout=10)
        assert stopped.status_code == 200, stopped.text
        while last[0] == "progress":
            fractions.append(last[1]["fraction"])
            last = next(stream)
    return fractions, last


@pytest.mark.parametrize(
    ("task", "body", "said"),
    [
        ("flops", LONG_FLOPS, "the flop report was stopped at"),
        ("matrix", {}, "the matrix was stopped at"),
    ],
)
def test_stop_ends_a_streamed_report_and_keeps_its_worker(
    url: str, task: str, body: dict[str, Any], said: str
) -> None:
    started = time.monotonic()
    fractions, (kind, data) = stopped_stream(url, task, body)
    assert time.monotonic() - started < 2  # the whole report takes seconds
    assert kind == "error", data
    assert data["error"]["type"] == "CancelledError"
    assert data["error"]["message"].startswith(said)
    assert fractions == sorted(fractions) and fractions[-1] < 1
    assert wait_idle(url)["idle"] == 1
    quick_answer(url)


def test_a_streamed_report_ends_with_the_json_routes_answer(url: str) -> None:
    body = {"names": SUB}
    with httpx.stream("POST", url + "/api/matrix/stream", json=body, timeout=60) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        seen = list(events(response))
    assert seen[0][0] == "start" and seen[-1][0] == "result"
    assert {kind for kind, _ in seen[1:-1]} <= {"progress"}
    plain = post(url, "/api/matrix", body).json()
    assert without_seconds(seen[-1][1]) == without_seconds(plain)


def test_a_client_leaving_a_report_frees_the_worker(url: str) -> None:
    with httpx.stream("POST", url + "/api/flops/stream", json=LONG_FLOPS, timeout=60) as r:
        stream = events(r)
        assert next(stream)[0] == "start"
        assert next(stream)[0] == "progress"  # a worker computes it
        left = time.monotonic()
    status = wait_idle(url)  # the connection closed: the report stops, the worker comes back
    assert status["idle"] == 1 and status["busy"] == 0, status
    # at once: a report that went on would have its worker killed after a grace of 2 s and
    # replaced (a second more to warm up)
    assert time.monotonic() - left < 1.5
    quick_answer(url)


# ---- the page and the schema -----------------------------------------------------------------


def test_the_page_has_the_forms_and_the_schema_the_routes(url: str) -> None:
    page = httpx.get(url + "/", timeout=10).text
    assert 'id="flops-form"' in page and 'id="matrix-form"' in page
    assert "/static/reports.js" in page
    script = httpx.get(url + "/static/reports.js", timeout=10)
    assert script.status_code == 200 and '"flops"' in script.text and '"matrix"' in script.text
    paths = httpx.get(url + "/api/openapi.json", timeout=10).json()["paths"]
    for path in ("/api/flops", "/api/matrix", "/api/flops/stream", "/api/matrix/stream"):
        answers = paths[path]["post"]["responses"]
        assert {"413", "422", "503"} <= set(answers), path
        assert "ErrorBody" in str(answers["422"]), path
