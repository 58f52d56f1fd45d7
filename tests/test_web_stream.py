"""Runs streamed as Server-Sent Events (``/api/equity/stream``, and the same for queries, outs and
distributions), stopped on request (``/api/stop``, or its older name ``/api/equity/stop``) or by
the client going away, against a real server with ONE worker: a worker that stayed busy would
make the next request wait past the queue limit (a 503)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import pokerlab
from pokerlab.web.app import Settings
from web_server import running_server

LONG_MC = {"players": ["AsKs", "QQ+,AKo", "random"], "method": "monte-carlo",
           "stderr": 0.00001, "seed": 3}  # fmt: skip
LONG_EXACT = {"players": ["QQ+,AKs", "JJ-99,AQs", "random"], "method": "exact"}
LONG_QUERY = {"text": "select avg(riverEquity(h)) from h='AhKh', v='random', trials=1000000000, "
                      "seed=3"}  # fmt: skip
LONG_EXACT_QUERY = {"text": "select avg(riverEquity(h)) from h='AhKh', v='JJ+', exact"}
LONG_DISTRIBUTION = {"hero": "TT+,AK", "villains": ["99-66", "AQ", "KQ"], "board": "Ks9s2d"}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    settings = Settings(workers=1, max_seconds=30.0, queue_seconds=4.0,
                        allowed_hosts=("127.0.0.1",))  # fmt: skip
    with running_server(settings) as base:
        yield base


def events(response: httpx.Response) -> Iterator[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of a Server-Sent Events answer, as they arrive."""
    kind, data = "", ""
    for line in response.iter_lines():
        if line.startswith("event: "):
            kind = line[len("event: ") :]
        elif line.startswith("data: "):
            data = line[len("data: ") :]
        elif line == "" and kind:
            yield kind, json.loads(data)
            kind, data = "", ""


def wait_idle(url: str) -> dict[str, Any]:
    deadline = time.monotonic() + 10
    while True:
        status: dict[str, Any] = httpx.get(url + "/api/status", timeout=10).json()
        if status["idle"] == status["workers"] == 1 or time.monotonic() > deadline:
            return status
        time.sleep(0.05)


def quick_answer(url: str) -> None:
    """A short request is answered: the one worker is free."""
    answer = httpx.post(url + "/api/equity", json={"players": ["AhAs", "KdKc"]}, timeout=30)
    assert answer.status_code == 200, answer.text
    assert answer.json()["players"][0]["equity"] == pytest.approx(0.81255, abs=1e-5)


def test_a_short_run_streams_the_same_result_as_the_json_route(url: str) -> None:
    body = {"players": ["AhAs", "KdKc"], "board": "Qh7c2d"}
    with httpx.stream("POST", url + "/api/equity/stream", json=body, timeout=30) as response:
        assert response.headers["content-type"].startswith("text/event-stream")
        seen = list(events(response))
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "start" and kinds[-1] == "result"
    assert set(kinds[1:-1]) <= {"progress"}
    want = pokerlab.equity(["AhAs", "KdKc"], board="Qh7c2d")
    result = seen[-1][1]
    assert result["samples"] == want.samples
    assert result["players"][0]["equity"] == pytest.approx(want.players[0].equity, abs=1e-12)


def test_stop_ends_a_monte_carlo_run_with_what_it_sampled(url: str) -> None:
    fractions: list[float] = []
    estimates: list[int] = []
    with httpx.stream("POST", url + "/api/equity/stream", json=LONG_MC, timeout=30) as response:
        stream = events(response)
        kind, start = next(stream)
        assert kind == "start"
        for kind, data in stream:
            if kind == "progress":
                fractions.append(data["fraction"])
                assert data["elapsed"] >= 0
                if "samples" in data:  # the running estimates, once the first chunk is in
                    estimates.append(data["samples"])
                    assert len(data["equity"]) == len(data["stderr"]) == 3
                    assert all(0 <= e <= 1 for e in data["equity"])
                if len(fractions) == 2:
                    stopped = httpx.post(url + "/api/equity/stop", json={"id": start["id"]})
                    assert stopped.status_code == 200, stopped.text
            elif kind == "result":
                result = data
                break
            else:
                pytest.fail(f"unexpected {kind}: {data}")
    assert len(fractions) >= 2 and all(0 <= f <= 1 for f in fractions)
    assert len(estimates) >= 2 and estimates == sorted(estimates)  # deals so far, growing
    assert estimates[-1] <= result["samples"]
    assert result["method"] == "monte-carlo"
    assert result["stopped"] == "cancelled"  # not the stderr target: that takes minutes
    assert result["samples"] > 0
    assert 0 < result["players"][0]["equity"] < 1
    assert wait_idle(url)["idle"] == 1
    quick_answer(url)
    gone = httpx.post(url + "/api/equity/stop", json={"id": start["id"]})
    assert gone.status_code == 404 and gone.json()["error"]["field"] == "id"


def test_a_stopped_exact_run_says_it_was_stopped(url: str) -> None:
    with httpx.stream("POST", url + "/api/equity/stream", json=LONG_EXACT, timeout=30) as r:
        stream = events(r)
        _, start = next(stream)
        last = next(stream)
        while last[0] == "progress":
            httpx.post(url + "/api/equity/stop", json={"id": start["id"]})
            last = next(stream)
    kind, data = last
    assert kind == "error", data
    assert data["error"]["type"] == "CancelledError"
    assert "exact enumeration was stopped at" in data["error"]["message"]
    quick_answer(url)


def stopped_run(url: str, task: str, body: dict[str, Any], stop_path: str) -> tuple[str, Any]:
    """Stream ``task``, stop it through ``stop_path`` at its first progress event: the last
    event."""
    with httpx.stream("POST", f"{url}/api/{task}/stream", json=body, timeout=30) as response:
        stream = events(response)
        kind, start = next(stream)
        assert kind == "start"
        last = next(stream)
        assert last[0] == "progress" and 0 <= last[1]["fraction"] < 1, last
        stopped = httpx.post(url + stop_path, json={"id": start["id"]}, timeout=10)
        assert stopped.status_code == 200, stopped.text
        while last[0] == "progress":
            last = next(stream)
    assert wait_idle(url)["idle"] == 1  # the stopped run kept its worker
    return last


def test_stop_ends_a_sampled_query_with_what_it_drew(url: str) -> None:
    kind, data = stopped_run(url, "query", LONG_QUERY, "/api/stop")
    assert kind == "result", data
    assert data["method"] == "monte-carlo" and 0 < data["deals"] < 1_000_000_000
    assert data["results"][0]["stderr"] > 0
    quick_answer(url)


def test_a_stopped_distribution_says_so_through_the_older_stop_route(url: str) -> None:
    kind, data = stopped_run(url, "distribution", LONG_DISTRIBUTION, "/api/equity/stop")
    assert kind == "error", data
    assert data["error"]["type"] == "CancelledError"
    assert data["error"]["message"].startswith("the distribution was stopped at")
    quick_answer(url)


@pytest.mark.parametrize(("task", "body"), [("equity", LONG_MC), ("query", LONG_EXACT_QUERY)])
def test_a_client_leaving_the_stream_frees_the_worker(
    url: str, task: str, body: dict[str, object]
) -> None:
    with httpx.stream("POST", url + f"/api/{task}/stream", json=body, timeout=30) as r:
        stream = events(r)
        assert next(stream)[0] == "start"
        assert next(stream)[0] == "progress"  # a worker computes it
    status = wait_idle(url)  # the connection closed: the run stops, the worker comes back
    assert status["idle"] == 1 and status["busy"] == 0, status
    quick_answer(url)


def test_bad_input_is_refused_before_the_stream_starts(url: str) -> None:
    body = {"players": ["AhAs", "KdKx"]}
    answer = httpx.post(url + "/api/equity/stream", json=body, timeout=30)
    assert answer.status_code == 200  # the spot is checked by the worker: an error event
    assert "event: error" in answer.text and '"field": "players.1"' in answer.text
    answer = httpx.post(url + "/api/equity/stream", json={"players": ["AhAs"] * 30}, timeout=30)
    assert answer.status_code == 422
    assert answer.json()["error"]["field"] == "players"


def test_the_running_estimates_end_at_the_result() -> None:
    """What the stream's progress events carry: the library's ``partial`` estimates, whose
    last call is the run's result (deals, equities and standard errors)."""
    for game, players in (("holdem", ["AsKs", "QQ+,AKo"]), ("omaha-hilo", ["AsAhKs2h", "random"])):
        calls: list[tuple[int, tuple[float, ...], tuple[float, ...]]] = []

        def record(n: int, e: tuple[float, ...], s: tuple[float, ...], into: Any = calls) -> None:
            into.append((n, e, s))

        result = pokerlab.equity(
            players, game=game, method="mc", trials=200_000, seed=5, partial=record
        )
        assert [n for n, _, _ in calls] == sorted(n for n, _, _ in calls)
        assert calls[-1] == (
            result.samples,
            tuple(p.equity for p in result.players),
            tuple(p.stderr for p in result.players),
        )


def test_a_running_estimate_of_one_deal_has_an_unknown_stderr() -> None:
    """The result of one sampled deal says its standard error is unknown (NaN, null in JSON);
    the running estimate said 0.0, which reads as exact. Now NaN there too, and the stream's
    progress event carries null (NaN is no JSON: a browser's parser refuses it)."""
    from pokerlab.web.tasks import run_equity

    calls: list[tuple[float, ...]] = []
    result = pokerlab.equity(["AhAs", "KdKc"], method="mc", trials=1, seed=1,
                             partial=lambda n, e, s: calls.append(s))  # fmt: skip
    assert calls and all(s != s for s in calls[-1])  # NaN
    assert all(p.stderr != p.stderr for p in result.players)
    events: list[dict[str, Any]] = []
    payload = run_equity(players=["AhAs", "KdKc"], board="", dead="", game="holdem",
                         method="monte-carlo", trials=1, stderr=None, time_limit=None, seed=1,
                         limit=10.0, progress=events.append)  # fmt: skip
    assert [p["stderr"] for p in payload["players"]] == [None, None]
    assert events and events[-1]["stderr"] == [None, None]
    json.loads(json.dumps(events[-1]), parse_constant=pytest.fail)  # no NaN in the stream
