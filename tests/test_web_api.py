"""The JSON API through FastAPI's test client: the same JSON as the CLI, errors with the
library's message and field, time limits, and long requests not blocking short ones."""

from __future__ import annotations

import ast
import json
import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

import pokerlab
from pokerlab.cli import app as cli_app
from pokerlab.errors import TooLargeError
from pokerlab.games import GAMES
from pokerlab.web import tasks
from pokerlab.web.app import Settings, create_app

SRC = Path(pokerlab.__file__).parent
LOCAL = "http://127.0.0.1"  # the app answers only the loopback host names by default


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app(Settings(workers=2, max_seconds=5.0)), base_url=LOCAL) as c:
        yield c


def cli_json(*args: str) -> Any:
    result = CliRunner().invoke(cli_app, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def without_seconds(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if k != "seconds"}


def error_of(response: Any) -> dict[str, Any]:
    assert response.status_code == 422, response.text
    error: dict[str, Any] = response.json()["error"]
    assert set(error) == {"type", "message", "field"}
    return error


# ---- the same JSON as the CLI -----------------------------------------------------------


def test_equity_matches_the_cli(client: TestClient) -> None:
    r = client.post("/api/equity", json={"players": ["AhAs", "KdKc"]})
    assert r.status_code == 200
    data = r.json()
    assert without_seconds(data) == without_seconds(cli_json("equity", "AhAs", "KdKc"))
    assert round(data["players"][0]["equity"] * 100, 2) == 81.26
    assert data["method"] == "exact" and data["samples"] == 1_712_304


def test_equity_with_board_dead_and_ranges_matches_the_cli(client: TestClient) -> None:
    body = {"players": ["AsKs", "QQ+,AKs"], "board": "Qh7c2d", "dead": "3s", "method": "exact"}
    r = client.post("/api/equity", json=body)
    assert r.status_code == 200
    expected = cli_json("equity", "AsKs", "QQ+,AKs", "--board", "Qh7c2d", "--dead", "3s", "--exact")
    assert without_seconds(r.json()) == without_seconds(expected)


def test_monte_carlo_with_a_seed_matches_the_cli(client: TestClient) -> None:
    body = {"players": ["AK", "QQ"], "method": "mc", "trials": 20_000, "seed": 7}
    r = client.post("/api/equity", json=body)
    assert r.status_code == 200
    expected = cli_json("equity", "AK", "QQ", "--mc", "--trials", "20000", "--seed", "7")
    assert without_seconds(r.json()) == without_seconds(expected)
    assert r.json()["players"][0]["stderr"] > 0


def test_stud_equity_matches_the_cli(client: TestClient) -> None:
    body = {"game": "stud", "players": ["AsAd|Kc", "QhQs|Jd"], "method": "exact"}
    r = client.post("/api/equity", json=body)
    assert r.status_code == 200
    expected = cli_json("equity", "AsAd|Kc", "QhQs|Jd", "--game", "stud", "--exact")
    assert without_seconds(r.json()) == without_seconds(expected)


def test_outs_match_the_cli(client: TestClient) -> None:
    for board in ("Th7c2hKs", "Th7c2h"):
        r = client.post("/api/outs", json={"players": ["9h8h", "AsKd"], "board": board})
        assert r.status_code == 200
        assert r.json() == cli_json("outs", "9h8h", "AsKd", "--board", board)
    turn = client.post("/api/outs", json={"players": ["9h8h", "AsKd"], "board": "Th7c2hKs"}).json()
    assert len(turn["players"][0]["win"]) == 15 and len(turn["players"][0]["lose"]) == 29


def test_large_flop_outs_answer_arrives_whole_on_the_asyncio_loop(client: TestClient) -> None:
    body = {"players": ["AhAs", "QQ+,AKs"], "board": "Qh7c2d"}  # a 116 KB answer
    for _ in range(3):
        r = client.post("/api/outs", json=body)
        assert r.status_code == 200 and len(r.content) > 100_000
    assert r.json() == cli_json("outs", "AhAs", "QQ+,AKs", "--board", "Qh7c2d")
    assert "queue;dur=" in r.headers["server-timing"]


def test_range_matches_the_cli(client: TestClient) -> None:
    r = client.post("/api/range", json={"range": "QQ+,AKs,A5s:0.5"})
    assert r.status_code == 200
    assert r.json() == cli_json("range", "QQ+,AKs,A5s:0.5")
    r = client.post("/api/range", json={"range": "AKs", "dead": "As", "list": True})
    assert r.json() == cli_json("range", "AKs", "--dead", "As", "--list")
    assert r.json()["combos"] == 3


def test_evaluate_matches_the_cli(client: TestClient) -> None:
    r = client.post("/api/evaluate", json={"cards": "Kh Kd Ks 4c 4d 2s 7h"})
    assert r.status_code == 200
    assert r.json() == cli_json("eval", "Kh", "Kd", "Ks", "4c", "4d", "2s", "7h")
    body = {"cards": "As2sKd3d", "board": "4c5h6sQs7d", "game": "o8"}  # a split game: both halves
    r = client.post("/api/evaluate", json=body)
    assert r.status_code == 200
    assert r.json() == cli_json("eval", "As2sKd3d", "--board", "4c5h6sQs7d", "--game", "o8")
    assert r.json()["game"] == "omaha-hilo" and r.json()["low"]["description"] == "6-5-4-2-A"
    refused = error_of(client.post("/api/evaluate", json={"cards": "AsKsQsJs", "game": "omaha"}))
    assert refused["field"] == "board"


def test_draw_matches_the_cli(client: TestClient) -> None:
    body = {"hand": "Jh Jd 7c 4s 2h", "vs": ["random"], "method": "mc", "trials": 5000, "seed": 3}
    r = client.post("/api/draw", json=body)
    assert r.status_code == 200
    expected = cli_json(
        "draw", "advise", "Jh Jd 7c 4s 2h", "--vs", "random", "--mc", "--trials", "5000",
        "--seed", "3",
    )  # fmt: skip
    assert without_seconds(r.json()) == without_seconds(expected)


def test_draw_max_draw_matches_the_cli(client: TestClient) -> None:
    r = client.post("/api/draw", json={"hand": "9h 8h 7c 4s 2h", "max_draw": 3})
    assert r.status_code == 200, r.text
    expected = cli_json("draw", "advise", "9h 8h 7c 4s 2h", "--max-draw", "3")
    assert without_seconds(r.json()) == without_seconds(expected)
    assert len(r.json()["choices"]) == 26


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/api/equity", {"players": ["AhAs", "KdKc"], "method": "exact", "seed": 1}, "seed"),
        ("/api/equity", {"players": ["AhAs", "KdKc"], "method": "exact", "trials": 9}, "trials"),
        ("/api/draw", {"hand": "Jh Jd 7c 4s 2h", "trials": 5}, "trials"),
        ("/api/draw", {"hand": "Jh Jd 7c 4s 2h", "seed": 5}, "seed"),
        ("/api/draw", {"hand": "Jh Jd 7c 4s 2h", "method": "mc"}, "method"),
    ],
)
def test_options_that_would_be_ignored_are_refused(
    client: TestClient, route: str, body: dict[str, Any], field: str
) -> None:
    """As the CLI refuses them: Monte Carlo options on an exact run, equity options without
    opponents (both were answered 200, the option ignored)."""
    error = error_of(client.post(route, json=body))
    assert error["field"] == field and field in error["message"]


def test_games_lists_every_game(client: TestClient) -> None:
    games = client.get("/api/games").json()["games"]
    assert [g["name"] for g in games] == list(GAMES)
    for g in games:
        spec = GAMES[g["name"]]
        assert g["max_players"] == spec.max_players and g["split"] == spec.split


# ---- errors: the library's message and the field at fault --------------------------------


def library_message(**kwargs: Any) -> str:
    with pytest.raises(pokerlab.PokerlabError) as info:
        pokerlab.equity(**kwargs)
    return str(info.value)


@pytest.mark.parametrize(
    ("body", "field", "kind"),
    [
        ({"players": ["AhAs", "KdKc"], "board": "Qh7x2d"}, "board", "CardError"),
        ({"players": ["AhAs", "KdKc"], "dead": "1h"}, "dead", "CardError"),
        ({"players": ["AhAs", "KdKx"]}, "players.1", "RangeError"),
        ({"players": ["AhAs", "AhKd"]}, "players.1", "DuplicateCardError"),
        ({"players": ["AhAs", "KdKc"], "board": "Qh7c"}, "board", "GameError"),
        ({"players": ["AhAs"]}, "players", "GameError"),
        ({"players": ["AhAs", "KdKc"], "game": "bridge"}, "game", "GameError"),
        (
            {"players": ["AA", "KK"], "board": "AhAsAd", "dead": "Ac"},
            "players.0",
            "EmptyRangeError",
        ),
    ],
)
def test_library_errors_name_their_field(
    client: TestClient, body: dict[str, Any], field: str, kind: str
) -> None:
    error = error_of(client.post("/api/equity", json=body))
    assert error["field"] == field and error["type"] == kind
    assert error["message"] == library_message(**body)


def test_validation_errors_name_their_field(client: TestClient) -> None:
    assert error_of(client.post("/api/equity", json={"board": "Qh7c2d"}))["field"] == "players"
    error = error_of(client.post("/api/equity", json={"players": ["AA", "KK"], "trials": 0}))
    assert error["field"] == "trials" and error["type"] == "ValidationError"
    error = error_of(client.post("/api/equity", json={"players": ["AA", "KK"], "method": "x"}))
    assert error["field"] == "method"
    error = error_of(client.post("/api/equity", json={"players": ["AA", 3]}))
    assert error["field"] == "players.1"
    assert error["message"].startswith("player 2: ")  # the page counts players from 1
    error = error_of(client.post("/api/equity", json={"players": ["AA", "K" * 3000]}))
    assert error["message"] == "player 2: at most 2,000 characters, got 3,000"
    error = error_of(client.post("/api/draw", json={"hand": "AhKh7c4s2d", "vs": ["K" * 3000]}))
    assert error["field"] == "vs.0"  # "v 1" before: the name is not a plural
    assert error["message"] == "opponent 1: at most 2,000 characters, got 3,000"
    error = error_of(client.post("/api/distribution", json={"hero": "QQ+", "villains": []}))
    assert error["field"] == "villains" and error["message"] == "villains: give at least 1 (got 0)"
    error = error_of(client.post("/api/equity", json={"players": ["AA", "KK"], "colour": 1}))
    assert error["field"] == "colour"
    r = client.post(
        "/api/equity", content=b"{not json", headers={"content-type": "application/json"}
    )
    assert r.status_code == 422 and "error" in r.json()


def test_other_routes_name_their_field(client: TestClient) -> None:
    assert error_of(client.post("/api/evaluate", json={"cards": "AsKs"}))["field"] == "cards"
    assert error_of(client.post("/api/range", json={"range": "QQ+,AKx"}))["field"] == "range"
    assert (
        error_of(client.post("/api/range", json={"range": "AA", "dead": "Zs"}))["field"] == "dead"
    )
    body = {"players": ["9h8h", "AsKd"], "board": "Th7c"}
    assert error_of(client.post("/api/outs", json=body))["field"] == "board"
    body = {"game": "stud", "players": ["AsAd|Kc", "QhQs|Jd"], "board": ""}
    assert error_of(client.post("/api/outs", json=body))["field"] == "game"
    assert error_of(client.post("/api/draw", json={"hand": "Jh Jd 7c 4s"}))["field"] == "hand"
    body = {"hand": "Jh Jd 7c 4s 2h", "vs": ["random", "Jh Kd 7d 5s 3c"]}
    assert error_of(client.post("/api/draw", json=body))["field"] == "vs.1"


# ---- limits and concurrency ----------------------------------------------------------------


def test_an_exact_run_far_past_its_time_limit_is_refused_at_once(client: TestClient) -> None:
    """It used to run until the limit and then say it did not finish."""
    body = {  # about 160 s of work on one core
        "players": ["random", "random", "random"],
        "board": "AhKs2d",
        "method": "exact",
        "time_limit": 0.3,
    }
    error = error_of(client.post("/api/equity", json=body))
    assert error["field"] == "time_limit" and error["type"] == "TooLargeError"
    assert re.fullmatch(
        r"exact enumeration is too large: about \d+ s of work \(1,176x1,176x1,176 combos per "
        r"player\), far over the time limit of 0.3 s; use Monte Carlo with a target standard "
        r"error, or a smaller problem",
        error["message"],
    ), error["message"]
    assert client.post("/api/equity", json={"players": ["AhAs", "KdKc"]}).status_code == 200
    del body["time_limit"]  # refused by the server's own limit: the remedy is the method
    error = error_of(client.post("/api/equity", json=body))
    assert error["field"] == "method" and "use Monte Carlo" in error["message"], error


def test_an_exact_run_past_its_time_limit_is_stopped(monkeypatch: pytest.MonkeyPatch) -> None:
    """One estimated under the refusal bound that still outruns its limit is cancelled there."""
    monkeypatch.setattr(tasks, "EXACT_REFUSAL_FACTOR", 1e4)
    with pytest.raises(TooLargeError) as caught:
        tasks.run_equity(players=["random", "random", "random"], board="AhKs2d", dead="",
                         game="holdem", method="exact", trials=None, stderr=None,
                         time_limit=0.3, seed=None, limit=10.0)  # fmt: skip
    assert caught.value.field == "time_limit"
    assert "did not finish within its time limit of 0.3 s" in str(caught.value)


def test_a_task_that_cannot_stop_itself_is_killed_and_its_worker_replaced(
    client: TestClient,
) -> None:
    body = {"players": ["random", "random", "random"], "board": "AhKs2d", "time_limit": 0.2}
    error = error_of(client.post("/api/outs", json=body))
    assert error["field"] == "time_limit"
    pool = client.app.state.pool  # type: ignore[attr-defined]
    deadline = time.monotonic() + 300
    while client.get("/api/status").json()["idle"] < pool.size:  # the replacement warms up
        assert time.monotonic() < deadline, "the killed worker was not replaced"
        time.sleep(0.1)
    for _ in range(2 * pool.size):  # every worker answers, the replacement included
        r = client.post("/api/outs", json={"players": ["9h8h", "AsKd"], "board": "Th7c2hKs"})
        assert r.status_code == 200


def test_a_long_request_does_not_block_short_ones(client: TestClient) -> None:
    long_body = {"players": ["random", "random"], "method": "mc", "trials": 10**10, "time_limit": 3}
    finished: dict[str, float] = {}

    def long_request() -> None:
        r = client.post("/api/equity", json=long_body)
        assert r.status_code == 200 and r.json()["stopped"] in ("time", "cancelled")
        finished["long"] = time.monotonic()

    thread = threading.Thread(target=long_request)
    thread.start()
    time.sleep(0.5)
    for _ in range(5):
        assert client.post("/api/equity", json={"players": ["AhAs", "KdKc"]}).status_code == 200
    finished["short"] = time.monotonic()
    thread.join()
    assert finished["short"] < finished["long"]


def test_a_request_that_finds_every_worker_busy_gets_a_503() -> None:
    settings = Settings(workers=1, max_seconds=5.0, queue_seconds=0.3)
    with TestClient(create_app(settings), base_url=LOCAL) as single:
        long_body = {"players": ["AK", "QQ"], "method": "mc", "trials": 10**10, "time_limit": 4}
        thread = threading.Thread(target=single.post, args=("/api/equity",),
                                  kwargs={"json": long_body})  # fmt: skip
        thread.start()
        time.sleep(0.5)
        body = {"players": ["AhAs", "KdKc"], "time_limit": 0.1}
        r = single.post("/api/equity", json=body)
        thread.join()
        assert r.status_code == 503 and r.json()["error"]["type"] == "Busy"
        assert r.headers["retry-after"]
        assert single.post("/api/equity", json=body).status_code == 200


# ---- the page and the layering ----------------------------------------------------------------


def test_the_page_answers_head_as_its_files_do(client: TestClient) -> None:
    """HEAD / (a `curl -I` health check) was a 405, while HEAD of a static file was a 200."""
    for path in ("/", "/docs/query.md", "/static/app.js"):
        head, get = client.head(path), client.get(path)
        assert head.status_code == 200, (path, head.text)
        assert head.content == b""
        assert head.headers["content-type"] == get.headers["content-type"]
        assert head.headers["content-length"] == str(len(get.content))


def test_the_page_and_its_files_are_served_and_load_nothing_from_outside(
    client: TestClient,
) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "Simulate" in page.text
    for name in ("app.js", "app.css"):
        r = client.get(f"/static/{name}")
        assert r.status_code == 200
    for path in (SRC / "web" / "static").iterdir():
        text = path.read_text().replace('"http://www.w3.org/2000/svg"', "")  # a name, not a load
        assert "http://" not in text and "https://" not in text, path.name
        assert "//cdn" not in text, path.name


def test_the_query_reference_the_query_tab_points_at_is_served(client: TestClient) -> None:
    """The Query tab said "see docs/query.md", a file an installed server did not have."""
    page = client.get("/")
    assert 'href="/docs/query.md"' in page.text
    reference = client.get("/docs/query.md")
    assert reference.status_code == 200
    assert reference.headers["content-type"].startswith("text/markdown")
    assert reference.text.startswith("# The pokerlab query language")
    assert reference.text == (SRC / "docs" / "query.md").read_text()
    # and the definitions it links to (a link that climbed out of the package: 404 here)
    assert "[`definitions.md`](definitions.md)" in reference.text
    definitions = client.get("/docs/definitions.md")
    assert definitions.status_code == 200
    assert definitions.text == (SRC / "docs" / "definitions.md").read_text()
    assert client.get("/docs/README.md").status_code == 404  # the two documents only


def test_openapi_schema_lists_every_route(client: TestClient) -> None:
    paths = client.get("/api/openapi.json").json()["paths"]
    assert {"/api/equity", "/api/outs", "/api/range", "/api/evaluate", "/api/draw",
            "/api/query"} <= set(paths)  # fmt: skip


def imported_modules(package: str) -> set[str]:
    names: set[str] = set()
    for path in (SRC / package).rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module:
                names.add(node.module)
            elif isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
    return names


def test_cli_and_web_never_import_each_other() -> None:
    assert not any(m.startswith("pokerlab.web") for m in imported_modules("cli"))
    assert not any(m.startswith("pokerlab.cli") for m in imported_modules("web"))
    code = "import sys, pokerlab.cli; print(any(m.startswith('pokerlab.web') for m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_serve_command_is_registered() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0 and "--port" in result.output and "--host" in result.output


def test_serve_starts_the_app_by_its_import_string() -> None:
    import httpx

    from web_server import free_port

    port = free_port()
    code = "import sys; from pokerlab.cli import main; main(sys.argv[1:])"
    args = ["serve", "--port", str(port), "--workers", "1", "--max-seconds", "2"]
    server = subprocess.Popen([sys.executable, "-c", code, *args])
    try:
        deadline = time.monotonic() + 300
        while True:
            assert server.poll() is None, "pokerlab serve exited"
            try:  # connections are accepted at once; equity waits for the warm workers
                r = httpx.get(f"http://127.0.0.1:{port}/api/status", timeout=1)
                if r.json()["ready"]:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "pokerlab serve did not get ready"
            time.sleep(0.2)
        assert r.status_code == 200
        r = httpx.post(f"http://127.0.0.1:{port}/api/equity", json={"players": ["AhAs", "KdKc"]})
        assert round(r.json()["players"][0]["equity"], 4) == 0.8126
        body = {"players": ["random"] * 3, "board": "AhKs2d", "method": "exact"}  # ~160 s
        error = httpx.post(f"http://127.0.0.1:{port}/api/equity", json=body, timeout=30).json()
        assert error["error"]["field"] == "method"  # the server's limit: the remedy is Monte Carlo
        assert "2 s" in error["error"]["message"]
    finally:
        server.terminate()
        server.wait(30)


@pytest.mark.parametrize(
    ("content", "body", "message"),
    [
        ("application/json", '{"players": ["AhAs", "KdKc"]', "not valid JSON (at character"),
        ("application/json", "", "the body is missing"),
        # a JSON object sent as text/plain was told it "is not a JSON object"
        (
            "text/plain; charset=utf-8",
            '{"players": ["AhAs", "KdKc"]}',
            "the body was sent as text/plain, which is not read: send a JSON object with "
            "Content-Type: application/json",
        ),
        ("application/json", '["AhAs", "KdKc"]', "the body is not a JSON object"),
        # curl -H 'Content-Type:' : the object was said not to be one
        ("", '{"players": ["AhAs", "KdKc"]}', "the body was sent without a Content-Type"),
    ],
)
def test_a_body_that_is_not_a_json_object_says_so(
    client: TestClient, content: str, body: str, message: str
) -> None:
    """An unterminated body answered {"message": "25: JSON decode error", "field": "25"}."""
    error = error_of(client.post("/api/equity", content=body, headers={"Content-Type": content}))
    assert message in error["message"] and error["field"] is None


@pytest.mark.parametrize(
    ("route", "body", "field"),
    [
        ("/api/draw/deal", {"seed": True, "hand": 1}, "seed"),
        ("/api/draw/deal", {"seed": "1", "hand": 1}, "seed"),
        ("/api/draw/deal", {"seed": 1, "hand": 1, "advice": "yes"}, "advice"),
        ("/api/equity", {"players": ["AhAs", "KdKc"], "method": "mc", "trials": "100"}, "trials"),
    ],
)
def test_values_of_the_wrong_json_type_are_refused(
    client: TestClient, route: str, body: dict[str, Any], field: str
) -> None:
    """No coercion: true or "1" as a seed, "yes" as a flag were taken as 1, 1 and true."""
    assert error_of(client.post(route, json=body))["field"] == field


def test_serve_refuses_an_address_it_cannot_listen_on() -> None:
    """Before anything starts: uvicorn printed its log lines and '[Errno -2] Name or service
    not known', exit status 3."""
    import socket

    from cli_helpers import assert_one_line_error

    bad = CliRunner().invoke(cli_app, ["serve", "--host", "bad host name"])
    assert_one_line_error(bad, "--host", "'bad host name' is not an address")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        busy = CliRunner().invoke(cli_app, ["serve", "--port", str(port)])
    assert_one_line_error(busy, "--port", f"cannot listen on 127.0.0.1:{port}")


def test_outs_list_a_dealt_random_hand_or_say_it_is_too_large(client: TestClient) -> None:
    body = {"game": "omaha", "players": ["AsAhKsKh", "random"], "board": "Qs7h2d8c"}
    turn = client.post("/api/outs", json=body)
    assert turn.status_code == 200, turn.text
    assert [p["input"] for p in turn.json()["players"]] == ["AsAhKsKh", "random"]
    six = {"game": "omaha6", "players": ["AsAhKsKh2c3c", "random"], "board": "Qs7h2d"}
    error = error_of(client.post("/api/outs", json=six))
    assert "outs is too large" in error["message"] and "1x6,096,454 holdings" in error["message"]
