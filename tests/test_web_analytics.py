"""The range-analytics routes and tab: the same JSON as the CLI, errors on the right field."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import pokerlab
from pokerlab.web import app as web_app
from pokerlab.web.analytics import WEB_MAX_HOLDINGS
from pokerlab.web.app import Settings, create_app


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(Settings(workers=1, max_seconds=5.0)), base_url="http://127.0.0.1"
    ) as c:
        yield c


def test_hits_is_the_library_json(client: TestClient) -> None:
    body = {"range": "QQ+,AKs,JTs", "board": "Ks9s2d"}
    response = client.post("/api/hits", json=body)
    assert response.status_code == 200, response.text
    assert response.json() == pokerlab.hits("QQ+,AKs,JTs", board="Ks9s2d").to_dict()
    omaha = client.post("/api/hits", json={"range": "JT8*", "board": "9h7c2d", "game": "omaha"})
    assert omaha.status_code == 200
    assert next(d for d in omaha.json()["draws"] if d["name"] == "wrap")["percent"] == 100


def test_distribution_is_the_library_json(client: TestClient) -> None:
    body = {"hero": "QQ+,AK", "villains": ["JJ-99,AQs"], "board": "Kd7c2h"}
    response = client.post("/api/distribution", json=body)
    assert response.status_code == 200, response.text
    expected = pokerlab.equity_distribution("QQ+,AK", ["JJ-99,AQs"], board="Kd7c2h").to_dict()
    assert response.json() == expected


@pytest.mark.parametrize(
    ("path", "body", "field"),
    [
        ("/api/hits", {"range": "QQ+", "board": "Ks9s"}, "board"),
        ("/api/hits", {"range": "QX", "board": "Ks9s2d"}, "range"),
        ("/api/distribution", {"hero": "QX", "villains": ["KK"]}, "hero"),
        ("/api/distribution", {"hero": "AA", "villains": ["KK", "QX"]}, "villains.1"),
        ("/api/distribution", {"hero": "AhAd", "villains": ["KK", "AhKs"]}, "villains.1"),
        ("/api/distribution", {"hero": "AA", "villains": []}, "villains"),
        (
            "/api/distribution",
            {"hero": "AA**", "villains": ["KK**"], "game": "omaha", "board": "2c3d4h"},
            "villains",
        ),
        (  # the library named the player, not the field
            "/api/distribution",
            {"hero": "AsKsQd2c", "villains": ["AA**!"], "game": "omaha", "board": "Qs9s2d"},
            "villains.0",
        ),
    ],
)
def test_errors_name_the_field(
    client: TestClient, path: str, body: dict[str, object], field: str
) -> None:
    response = client.post(path, json=body)
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == field, error
    assert error["message"] and "player" not in error["message"], error
    if field == "villains.1":  # the form's words: the hero, villain 1, 2 ...
        assert "villain 2" in error["message"], error


SLOW_HITS = {"range": "AK****,AQ****,KQ****,AJ****", "board": "Ks9s2d", "game": "omaha6"}
"""About 3.8 M six-card holdings: 5.5 s of hits on the 2-core Intel Xeon of RESULTS.md."""


def test_a_hits_request_past_the_time_limit_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """Hits run in the worker pool, so the server's limit holds (a range of 100 copies of
    AA**** took 27 s in a thread beside the event loop, with no limit at all; it parses in a
    second now, so this server's limit is 1 s and its grace before the kill 0.5 s)."""
    monkeypatch.setattr(web_app, "_GRACE", 0.5)
    strict = create_app(Settings(workers=1, max_seconds=1.0))
    with TestClient(strict, base_url="http://127.0.0.1") as client:
        started = time.monotonic()
        response = client.post("/api/hits", json=SLOW_HITS)
        assert time.monotonic() - started < 15
        assert response.status_code == 422, response.text
        error = response.json()["error"]
        assert error["field"] == "time_limit"  # the field that sets it (up to the server's)
        assert "narrow the range" in error["message"] and "Monte Carlo" not in error["message"]
        for _ in range(120):  # the worker was replaced; the new one warms up (503 meanwhile)
            again = client.post("/api/hits", json={"range": "QQ+", "board": "Ks9s2d"})
            if again.status_code != 503:
                break
            time.sleep(0.5)
        assert again.status_code == 200, again.text


def test_a_time_limit_lowers_the_servers_for_hits_and_distributions(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every pooled route takes ``time_limit``, as the README says; hits and distributions
    refused it as an unknown field."""
    monkeypatch.setattr(web_app, "_GRACE", 0.2)  # the kill at 0.5 s, ten times below the work
    slow = {**SLOW_HITS, "time_limit": 0.3}
    started = time.monotonic()
    response = client.post("/api/hits", json=slow)
    assert response.status_code == 422, response.text
    assert response.json()["error"]["field"] == "time_limit"
    assert "0.3 s" in response.json()["error"]["message"]
    assert time.monotonic() - started < 5  # the server's limit here is 5 s
    # killed at its limit and the grace, and timed as any answer (it had no Server-Timing)
    computed = re.search(r"compute;dur=([0-9.]+)", response.headers["Server-Timing"])
    assert computed is not None and float(computed.group(1)) >= 500
    for _ in range(120):  # the worker was replaced; the new one warms up (503 meanwhile)
        quick = client.post("/api/hits", json={"range": "QQ+", "board": "Ks9s2d", "time_limit": 5})
        if quick.status_code != 503:
            break
        time.sleep(0.5)
    assert quick.status_code == 200, quick.text
    body = {"hero": "QQ+,AK", "villains": ["JJ-99,AQs"], "board": "Kd7c2h", "time_limit": 5}
    response = client.post("/api/distribution", json=body)
    assert response.status_code == 200, response.text
    for route, bad in (("/api/hits", {"range": "QQ+", "board": "Ks9s2d"}),
                       ("/api/distribution", {"hero": "QQ", "villains": ["KK"]})):  # fmt: skip
        refused = client.post(route, json={**bad, "time_limit": 0})
        assert refused.status_code == 422 and refused.json()["error"]["field"] == "time_limit"


def test_web_holdings_limit_is_small() -> None:
    assert WEB_MAX_HOLDINGS < 1000


def test_the_holdings_cap_is_refused_in_the_page_terms(client: TestClient) -> None:
    """The library's refusal tells a caller to raise the cap with ``--max-holdings`` or
    ``max_holdings=``; the server's cap is fixed, so its message says only to narrow."""
    body = {"hero": "AA**", "villains": ["KK**"], "game": "omaha", "board": "2c3d4h"}
    response = client.post("/api/distribution", json=body)
    assert response.status_code == 422, response.text
    message = response.json()["error"]["message"]
    assert f"at most {WEB_MAX_HOLDINGS}" in message, message
    assert "max-holdings" not in message and "max_holdings" not in message, message
    assert message.endswith("narrow the ranges (this server's cap is fixed)"), message


def test_page_has_the_tab(client: TestClient) -> None:
    page = client.get("/").text
    assert 'data-tab="analytics"' in page and "/static/analytics.js" in page
    script = client.get("/static/analytics.js")
    assert script.status_code == 200 and "/api/distribution" in script.text


def test_bodies_the_json_reader_cannot_read_are_plain_422s(client: TestClient) -> None:
    """A 5,000-digit number, nesting 5,000 deep or bytes that are not UTF-8 were a 400 with
    FastAPI's own words, where every other bad body is a 422 with the page's error body."""
    for raw in (
        b'{"players":["AhAs","KdKc"],"trials":1' + b"0" * 5000 + b"}",
        b'{"players":' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'\xff\xfe{"players":["AhAs","KdKc"]}',
    ):
        response = client.post("/api/equity", content=raw,
                               headers={"content-type": "application/json"})  # fmt: skip
        assert response.status_code == 422, response.text
        assert "not JSON the server can read" in response.json()["error"]["message"]


def test_the_schema_lists_the_error_answers_of_every_pooled_route(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    for path in ("/api/hits", "/api/distribution"):
        answers = paths[path]["post"]["responses"]
        assert {"413", "422", "503"} <= set(answers), path
        assert "ErrorBody" in str(answers["422"]), path
    assert "404" in paths["/api/equity/stop"]["post"]["responses"]


def test_range_fields_go_by_their_json_names_only(client: TestClient) -> None:
    """``{"text": "KK"}`` was accepted beside ``{"range": "KK"}`` (pydantic's Python names)."""
    assert client.post("/api/range", json={"range": "KK"}).status_code == 200
    assert client.post("/api/range", json={"text": "KK"}).status_code == 422
    assert client.post("/api/range", json={"range": "KK", "list_combos": True}).status_code == 422


def test_time_limit_errors_say_what_each_request_can_change() -> None:
    """The page has no ``--time`` (outs said "allow more time (--time)"), draw no standard
    error and distribution no Monte Carlo (each said "use Monte Carlo with a target standard
    error" on field time_limit)."""
    from pokerlab.errors import TooLargeError
    from pokerlab.web import tasks

    with pytest.raises(TooLargeError) as caught:
        tasks.run_outs(players=["22+,A2+,K2+,Q2+"] * 3, board="Th7c2h", dead="", game="holdem",
                       limit=0.01)  # fmt: skip
    assert "--time" not in str(caught.value) and "give the turn card" in str(caught.value)
    assert caught.value.field is None  # the server's limit: no Time limit box to mark
    with pytest.raises(TooLargeError) as caught:  # the request's own limit
        tasks.run_outs(players=["22+,A2+,K2+,Q2+"] * 3, board="Th7c2h", dead="", game="holdem",
                       limit=0.01, time_limit=0.01)  # fmt: skip
    assert caught.value.field == "time_limit"
    with pytest.raises(TooLargeError) as caught:  # a turn: the turn card is given
        tasks.run_outs(players=["22+,A2+,K2+,Q2+"] * 3, board="Th7c2h5s", dead="", game="holdem",
                       limit=0.01)  # fmt: skip
    assert str(caught.value).endswith("over the limit of 0.01 s; narrow the ranges")
    draw = tasks.time_limit_error(1, "draw")
    assert draw.field == "time_limit" and "fewer trials" in str(draw)
    distribution = tasks.time_limit_error(1, "distribution")
    assert distribution.field == "time_limit" and "standard error" not in str(distribution)


def test_a_distribution_over_the_servers_cap_is_told_only_to_narrow_the_ranges() -> None:
    """The library's remedies name ``--max-holdings``; a server's cap is fixed, so it says so
    in their place (the remedies swapped, not the message's text edited)."""
    from pokerlab.errors import TooLargeError
    from pokerlab.web import tasks

    with pytest.raises(TooLargeError) as caught:  # 1,326 holdings of the hero alone
        tasks.run_distribution(hero="random", villains=["AA"], board="", game="holdem",
                               dead="", limit=10.0)  # fmt: skip
    message = str(caught.value)
    assert "holdings in all" in message and "--max-holdings" not in message
    assert message.endswith("run); narrow the ranges (this server's cap is fixed)")
    assert caught.value.field == "villains"  # the library's 'players'


def test_an_outs_refusal_marks_the_time_limit_box_only_when_it_was_filled(
    client: TestClient,
) -> None:
    """Refused by the server's own limit, the outs error named ``time_limit``, and the page
    marked its empty Time limit box, while the remedy is the ranges or the board."""
    body = {"players": ["random"] * 6, "board": "Th7c2h"}
    served = client.post("/api/outs", json=body)
    assert served.status_code == 422 and served.json()["error"]["field"] is None
    own = client.post("/api/outs", json={**body, "time_limit": 2})
    assert own.status_code == 422 and own.json()["error"]["field"] == "time_limit"
    assert "over the limit of 2 s" in own.json()["error"]["message"]
