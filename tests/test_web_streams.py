"""Every long-running tab streams: ``POST /api/{task}/stream`` for outs, queries and
distributions ends with exactly the plain route's JSON; stopped runs answer what they sampled or
say how far they got; the schema's exact seed bound; a foreign
``Host`` answered in the JSON error body. (Stopping a run through a real server:
``test_web_stream.py``.)"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from pokerlab.engine.limits import MAX_TRIALS, MIN_STDERR
from pokerlab.errors import CancelledError, TooLargeError
from pokerlab.web import tasks
from pokerlab.web.app import STREAMED, Settings, create_app
from pokerlab.web.models import SEED_MAX

SAMPLED = "select avg(riverEquity(h)) as eq from h='AhKh', v='QQ+,AKo', trials=20000, seed=7"
EXACT = "select avg(riverEquity(h)) from h='AhKh', v='QQ', board='Ts9h2h'"
LONG_EXACT = "select avg(riverEquity(h)) from h='AhKh', v='JJ+', exact"  # 31 million deals
MULTIWAY = {"hero": "TT+,AK", "villains": ["99-66", "AQ", "KQ"], "board": "Ks9s2d",
            "game": "holdem", "dead": ""}  # fmt: skip  # an engine call per holding: seconds


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1") as c:
        yield c


def events(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of a whole Server-Sent Events answer."""
    pairs = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines())
        pairs.append((lines["event"], json.loads(lines["data"])))
    return pairs


def without_seconds(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


@pytest.mark.parametrize(
    ("task", "body", "reports"),
    [
        ("outs", {"players": ["9h8h", "AsKd"], "board": "Th7c2h"}, True),
        ("query", {"text": SAMPLED}, False),  # one chunk: nothing to report before the answer
        ("query", {"text": EXACT}, True),
        ("distribution", {"hero": "QQ+", "villains": ["JJ-99"]}, True),  # a call per holding
        ("distribution", {"hero": "QQ+", "villains": ["JJ"], "board": "Ks9s2d"}, False),
    ],
)
def test_a_stream_ends_with_the_plain_routes_json(
    client: TestClient, task: str, body: dict[str, Any], reports: bool
) -> None:
    plain = client.post(f"/api/{task}", json=body)
    assert plain.status_code == 200, plain.text
    streamed = client.post(f"/api/{task}/stream", json=body)
    assert streamed.status_code == 200
    assert streamed.headers["content-type"].startswith("text/event-stream")
    seen = events(streamed.text)
    kinds = [kind for kind, _ in seen]
    assert kinds[0] == "start" and kinds[-1] == "result" and ("progress" in kinds) == reports
    for kind, data in seen[1:-1]:
        assert kind == "progress" and 0 <= data["fraction"] <= 1 and data["elapsed"] >= 0
    assert without_seconds(seen[-1][1]) == without_seconds(plain.json())


def test_a_streams_error_is_the_plain_routes_error(client: TestClient) -> None:
    body = {"text": "select avg(riverEquity(hero) from hero='AhAs', villain='KdKc'"}
    plain = client.post("/api/query", json=body)
    assert plain.status_code == 422
    kind, data = events(client.post("/api/query/stream", json=body).text)[-1]
    assert kind == "error" and data == plain.json() and data["error"]["field"] == "text"
    refused = client.post("/api/distribution/stream", json={"hero": "QQ+", "villains": []})
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "villains"


def test_every_streamed_task_reports_progress_and_stops() -> None:
    assert {spec.task for spec in STREAMED} == {
        "equity",
        "outs",
        "query",
        "distribution",
        "flops",
        "matrix",
    }
    assert {spec.task for spec in STREAMED} <= tasks.STREAMING <= tasks.STOPPABLE


def test_the_schema_lists_each_stream_with_its_body(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for spec in STREAMED:
        post = paths[f"/api/{spec.task}/stream"]["post"]
        schema = post["requestBody"]["content"]["application/json"]["schema"]
        assert schema == {"$ref": f"#/components/schemas/{spec.body.__name__}"}
        assert "text/event-stream" in post["responses"]["200"]["content"]
    assert "404" in paths["/api/stop"]["post"]["responses"]


def test_stop_takes_any_streams_id_and_404s_an_unknown_one(client: TestClient) -> None:
    for path in ("/api/stop", "/api/equity/stop"):
        gone = client.post(path, json={"id": "no-such-run"})
        assert gone.status_code == 404 and gone.json()["error"]["field"] == "id"


# ---- stopped runs, in the worker's own terms ------------------------------------------------


def test_a_stopped_sampled_query_answers_what_it_drew() -> None:
    text = "select avg(riverEquity(h)) from h='AhKh', v='random', trials=1000000000, seed=3"
    data = tasks.run_query(text=text, limit=30.0, stop=lambda: True)
    assert data["method"] == "monte-carlo" and 0 < data["deals"] < 1_000_000_000


def test_a_sampled_querys_progress_follows_the_time_limit_that_ends_it() -> None:
    """A billion deals asked for, the server's limit ends it: the bar follows the time spent
    (a billionth of the deals done read 0% until the answer)."""
    text = "select avg(riverEquity(h)) from h='AhKh', v='QQ+,AKo', trials=1000000000, seed=3"
    tasks.run_query(text=text, limit=0.3)  # loads the kernels: its first chunk takes a second
    updates: list[float] = []
    data = tasks.run_query(text=text, limit=0.3, progress=lambda u: updates.append(u["fraction"]))
    assert data["deals"] < 10**8 and updates == sorted(updates) and 0.5 < updates[-1] <= 1


def test_a_stopped_exact_query_says_how_far_it_got() -> None:
    updates: list[dict[str, Any]] = []
    stop = threading.Event()

    def progress(update: dict[str, Any]) -> None:
        updates.append(update)
        stop.set()

    with pytest.raises(CancelledError) as caught:
        tasks.run_query(text=LONG_EXACT, limit=30.0, stop=stop.is_set, progress=progress)
    assert str(caught.value).startswith("the exact enumeration was stopped at ")
    assert "a sampled query answers with what it drew" in str(caught.value)
    assert updates and set(updates[0]) == {"fraction"} and 0 < updates[0]["fraction"] < 1


def test_a_stopped_exact_query_past_its_time_is_still_a_time_limit_error() -> None:
    with pytest.raises(TooLargeError) as caught:
        tasks.run_query(text=LONG_EXACT, limit=0.2, stop=lambda: False)
    assert caught.value.field == "time_limit"


def test_stopped_outs_say_how_far_they_got() -> None:
    with pytest.raises(CancelledError) as caught:
        tasks.run_outs(players=["QQ+,AK", "JJ-99", "AQ"], board="Th7c2h", dead="", game="holdem",
                       limit=30.0, stop=lambda: True)  # fmt: skip
    message = str(caught.value)
    assert re.fullmatch(r"the exact enumeration was stopped at \d+% of its runouts: outs have no "
                        r"partial result", message), message  # fmt: skip


def test_a_stopped_distribution_says_how_far_it_got() -> None:
    fractions: list[float] = []
    stop = threading.Event()

    def progress(update: dict[str, Any]) -> None:
        fractions.append(update["fraction"])
        if len(fractions) == 3:
            stop.set()

    with pytest.raises(CancelledError) as caught:
        tasks.run_distribution(**MULTIWAY, limit=30.0, stop=stop.is_set, progress=progress)
    assert str(caught.value).startswith("the distribution was stopped at 2% of its holdings")
    assert len(fractions) == 3 and fractions == sorted(fractions)


def test_a_distribution_past_its_time_stops_itself() -> None:
    """It stops at the server's limit and keeps its worker (the pool killed it there before)."""
    with pytest.raises(TooLargeError) as caught:
        tasks.run_distribution(**MULTIWAY, limit=0.1)
    assert "did not finish within its time limit of 0.1 s" in str(caught.value)
    assert caught.value.field == "time_limit"  # the request's field that sets the limit


# ---- the schema and the Host check ----------------------------------------------------------


def test_the_seed_bound_is_an_exact_integer_in_the_schema(client: TestClient) -> None:
    text = client.get("/api/openapi.json").text
    assert "e+18" not in text and str(SEED_MAX) in text
    schemas = json.loads(text)["components"]["schemas"]
    seed = schemas["EquityRequest"]["properties"]["seed"]["anyOf"][0]
    assert seed["maximum"] == SEED_MAX == 2**63 - 1 and isinstance(seed["maximum"], int)
    assert schemas["DrawDealRequest"]["properties"]["seed"]["maximum"] == SEED_MAX
    trials = schemas["EquityRequest"]["properties"]["trials"]["anyOf"][0]
    assert trials["maximum"] == MAX_TRIALS == 10**10 and isinstance(trials["maximum"], int)
    stderr = schemas["EquityRequest"]["properties"]["stderr"]["anyOf"][0]
    assert stderr["minimum"] == MIN_STDERR == 1e-5  # the CLI's cap, as for trials
    small = {"players": ["AsKs", "QQ"], "method": "mc", "stderr": 1e-9}
    refused = client.post("/api/equity", json=small)
    assert refused.status_code == 422 and refused.json()["error"]["field"] == "stderr"
    # the page writes it in percent: the CLI's message, not pydantic's "0.00001"
    assert refused.json()["error"]["message"] == (
        "stderr: 1e-07% needs up to 2.5e+17 deals; at least 0.001%"
    )
    assert client.post("/api/draw/deal", json={"seed": SEED_MAX, "hand": 1}).status_code == 200
    assert client.post("/api/draw/deal", json={"seed": SEED_MAX + 1, "hand": 1}).status_code == 422


def test_a_foreign_host_gets_the_json_error_body(client: TestClient) -> None:
    for host in ("evil.example", "127.0.0.1.evil.example"):
        response = client.get("/api/games", headers={"host": host})
        assert response.status_code == 400
        assert response.headers["content-type"] == "application/json"
        error = response.json()["error"]
        assert set(error) == {"type", "message", "field"} and error["type"] == "InvalidHost"
        assert "--allowed-host" in error["message"] and error["field"] is None
    assert client.get("/api/games", headers={"host": "localhost:8000"}).status_code == 200
    with (
        pytest.raises(WebSocketDisconnect) as closed,  # refused as Starlette's check did
        client.websocket_connect("/", headers={"host": "evil.example"}),
    ):
        pass
    assert closed.value.code == 1008


def test_progress_read_with_the_answer_is_not_dropped(monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker's last progress frames and its answer can be read in one loop tick, before the
    stream's pending get() resumes; they stayed queued and were dropped, so a fast exact query
    streamed no progress under load (a flaky test). A pool that reports three times and answers
    at once stands for that here: every report streams, in order, before the answer."""
    from pokerlab.web.pool import Outcome

    with TestClient(create_app(Settings(workers=1)), base_url="http://127.0.0.1") as c:

        async def run_at_once(task: str, arguments: Any, **options: Any) -> Outcome:
            for done in (1, 2, 3):
                options["on_progress"]({"fraction": done / 3})
            return Outcome("ok", {"answer": 42}, 0.0, 0.0)

        monkeypatch.setattr(c.app.state.pool, "run", run_at_once)  # type: ignore[attr-defined]
        got = events(c.post("/api/query/stream", json={"text": EXACT}).text)
    assert [kind for kind, _ in got] == ["start", "progress", "progress", "progress", "result"]
    assert [data["fraction"] for kind, data in got if kind == "progress"] == [1 / 3, 2 / 3, 1.0]
    assert got[-1][1] == {"answer": 42}
