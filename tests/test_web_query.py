"""``POST /api/query``: the same JSON as ``pokerlab query --json``, run in the worker pool,
errors on the ``text`` field (a syntax error names its column), time limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from pokerlab.cli import app as cli
from pokerlab.web.app import Settings, create_app

FLOP = ("select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
        "histogram(handType(hero, turn)) as turn from hero='AhKh', villain='QQ', "
        "board='Ts9h2h'")  # fmt: skip
SAMPLED = ("select avg(flopEquity(hero)) as eq from hero='AhKh', villain='QQ+,AKo', "
           "trials=20000, seed=7")  # fmt: skip
RAZZ = ("select avg(riverEquity(hero)) as eq, histogram(handType(hero, seventh)) as low "
        "from game='razz', hero='As2d|3c', villain='KdQc|7s', trials=5000, seed=3")  # fmt: skip


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(
        create_app(Settings(workers=1, max_seconds=5.0)), base_url="http://127.0.0.1"
    ) as c:
        yield c


def cli_json(text: str) -> dict[str, Any]:
    result = CliRunner().invoke(cli, ["query", text, "--json"])
    assert result.exit_code == 0, result.output
    data: dict[str, Any] = json.loads(result.stdout)
    return data


def without_seconds(data: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in data.items() if k != "seconds"}


@pytest.mark.parametrize("text", [FLOP, SAMPLED, RAZZ])
def test_query_is_the_cli_json(client: TestClient, text: str) -> None:
    response = client.post("/api/query", json={"text": text})
    assert response.status_code == 200, response.text
    assert "compute;dur=" in response.headers["Server-Timing"]
    data = response.json()
    assert without_seconds(data) == without_seconds(cli_json(text))
    assert data["method"] == ("exact" if text == FLOP else "monte-carlo")


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("select avg(riverEquity(hero) from hero='AhAs', villain='KdKc'", ["column"]),
        ("select avg(riverEquty(hero)) from hero='AhAs', villain='KdKc'", ["riverEquity"]),
        ("select avg(riverEquity(hero)) from hero='AhAx', villain='KdKc'", ["AhAx"]),
        ("select avg(riverEquity(hero)) from hero='AhAs', villain='KdKc', board='Ah'", ["board"]),
    ],
)
def test_errors_are_422_on_text(client: TestClient, text: str, fragments: list[str]) -> None:
    response = client.post("/api/query", json={"text": text})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == "text"
    assert "\n" not in error["message"]
    for fragment in fragments:
        assert fragment in error["message"]
    cli_result = CliRunner().invoke(cli, ["query", text])
    assert cli_result.exit_code == 2
    assert error["message"] in cli_result.stderr


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("time=4000", "time: 4000 s is more than 3600 s"),
        ("stderr=0.000000001", "stderr: 1e-07% needs up to 2.5e+17 deals; at least 0.001%"),
        ("trials=100000000000", "trials: 100,000,000,000 deals would take hours or longer"),
    ],
)
def test_the_texts_stopping_rules_have_the_clis_caps(
    client: TestClient, setting: str, message: str
) -> None:
    """docs/query.md: past the caps needs --no-limit whether an option or the text asks; the
    web has no --no-limit (it ran them, cut at its own time limit)."""
    text = f"select avg(riverEquity(hero)) from hero='AhAs', villain='KK', mc, {setting}"
    response = client.post("/api/query", json={"text": text})
    assert response.status_code == 422, response.text
    assert response.json()["error"]["message"].startswith(message)
    cli_result = CliRunner().invoke(cli, ["query", text])
    assert cli_result.exit_code == 2 and message in cli_result.stderr


def test_body_is_validated(client: TestClient) -> None:
    for body in ({}, {"text": "x" * 5001}, {"text": "select", "time_limit": -1}, {"q": "x"}):
        response = client.post("/api/query", json=body)
        assert response.status_code == 422
        assert set(response.json()["error"]) == {"type", "message", "field"}


def test_a_sampled_run_stops_at_the_time_limit(client: TestClient) -> None:
    text = "select avg(riverEquity(h)) from h='AhKh', v='random', trials=1000000000, seed=3"
    response = client.post("/api/query", json={"text": text, "time_limit": 0.5})
    assert response.status_code == 200, response.text
    data = response.json()
    assert data["method"] == "monte-carlo" and 0 < data["deals"] < 1_000_000_000
    assert data["results"][0]["stderr"] > 0


def test_an_exact_run_past_the_time_limit_is_422(client: TestClient) -> None:
    text = "select avg(riverEquity(h)) from h='AhKh', v='JJ+', exact"  # 31 million deals
    response = client.post("/api/query", json={"text": text, "time_limit": 0.2})
    assert response.status_code == 422, response.text
    error = response.json()["error"]
    assert error["field"] == "time_limit" and "time limit" in error["message"]
    assert client.post("/api/query", json={"text": FLOP}).status_code == 200  # worker kept


def test_a_query_cut_by_the_servers_limit_says_time() -> None:
    """The server's limit reaches a query as its cancel, so a sampled run it cut short said
    "cancelled", as if its client had pressed Stop (the library says "time")."""
    from pokerlab.web.tasks import run_query

    text = ("select avg(thirdEquity(hero)) from game='razz', hero='A23', villain='KQJ', "
            "trials=1000000")  # fmt: skip
    answer = run_query(text=text, limit=0.3, threads=1)
    assert answer["method"] == "monte-carlo" and 0 < answer["deals"] < 1_000_000
    assert answer["stopped"] == "time"
