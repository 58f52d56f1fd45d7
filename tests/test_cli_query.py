"""``pokerlab query`` through click's CliRunner: the issue's JSON contract, the table with its
text histogram, the PNG, and one-line errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.cli import app
from pokerlab.engine.limits import COUNTABLE_TRIALS

CONTRACT = "select avg(riverEquity(hero)) from game='holdem', hero='AhAs', villain='KdKc'"
FLOP = ("select avg(riverEquity(hero)) as eq, count(winsHi(hero)) as wins, "
        "histogram(handType(hero, river)) as made from hero='AhKh', villain='QQ', "
        "board='Ts9h2h'")  # fmt: skip


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def as_json(*args: str) -> Any:
    result = run(*args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_contract_example() -> None:
    data = as_json("query", CONTRACT)
    assert data["method"] == "exact"
    assert data["deals"] == data["matched"] == 1_712_304
    (only,) = data["results"]
    assert set(only) >= {"name", "value", "stderr"}
    assert only["value"] == pytest.approx(0.8125549, abs=5e-8) and only["stderr"] == 0


def test_histogram_json_is_a_list_of_buckets() -> None:
    data = as_json("query", FLOP)
    made = next(r for r in data["results"] if r["name"] == "made")
    assert [b["bucket"] for b in made["value"]][:2] == ["high card", "pair"]
    assert sum(b["value"] for b in made["value"]) == pytest.approx(1.0)
    wins = next(r for r in data["results"] if r["name"] == "wins")
    assert wins["count"] == pytest.approx(wins["value"] * data["deals"])


def test_table_and_text_chart() -> None:
    result = run("query", FLOP + " where not pairedBoard(river)")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "aggregate" in out and "stderr" in out and "exact" in out
    assert "made" in out and "flush" in out and "#" in out
    assert "passed where" in out
    # the spot heads the output on one line (as a title it wrapped at the narrow table's width)
    assert out.splitlines()[0] == "holdem  hero=AhKh, villain=QQ  board Ts9h2h"


def test_monte_carlo_options_and_stderr_column() -> None:
    data = as_json("query", FLOP, "--mc", "--trials", "20000", "--seed", "4")
    assert data["method"] == "monte-carlo" and data["deals"] == 20000 and data["seed"] == 4
    eq = data["results"][0]
    assert 0 < eq["stderr"] < 0.01
    again = as_json("query", FLOP, "--mc", "--trials", "20000", "--seed", "4")
    assert again["results"] == data["results"]
    table = run("query", FLOP, "--mc", "--trials", "20000", "--seed", "4")
    assert "sampled (seed 4)" in table.stdout and "±" in table.stdout


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "hist.png"
    result = run("query", FLOP, "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("select avg(riverEquity(hero) from hero='AhAs'", ["column 30", "expected ')'"]),
        ("select avg(riverEquty(hero)) from hero='AhAs', villain='KK'", ["riverEquity"]),
        ("select avg(riverEquity(hero)) from hero='AhAs', villain='Xx'", ["villain"]),
        (
            "select avg(riverEquity(hero)) from hero='AhAs'",
            ["a showdown needs at least 2 players, got 1"],
        ),
    ],
)
def test_errors_are_one_line(text: str, fragments: list[str]) -> None:
    assert_one_line_error(run("query", text), *fragments)


def test_time_limit_single_deal_and_conflicting_flags() -> None:
    data = as_json("query", FLOP, "--mc", "--time", "0.2", "--seed", "1")
    assert data["method"] == "monte-carlo" and data["deals"] > 0
    one = run("query", FLOP, "--mc", "--trials", "1", "--json")
    assert one.exit_code == 0 and "NaN" not in one.stdout
    assert json.loads(one.stdout)["results"][0]["stderr"] is None
    assert_one_line_error(run("query", FLOP, "--exact", "--mc"), "exclude each other")


def test_the_issue_example_runs() -> None:
    text = """select avg(riverEquity(hero)) as eq,
                     count(handType(hero, flop) = 'flush draw') as fd,
                     count(winsHi(hero) and handType(hero, turn) = 'flush draw') as fd_hits_and_wins
              from game='holdem', hero='AhKh', villain='QQ+,AKo', board='Ts9h2h'
              where not handType(villain, flop) >= 'set'"""
    data = as_json("query", text)
    values = {r["name"]: r["value"] for r in data["results"]}
    assert data["method"] == "exact" and data["matched"] == data["deals"]  # no set on Ts9h2h
    assert values["fd"] == 1.0  # AhKh with two hearts on the flop
    assert 0 < values["fd_hits_and_wins"] < values["eq"] < 1


RAZZ = ("select avg(riverEquity(hero)) as eq, histogram(handType(hero, seventh)) as low "
        "from game='razz', hero='As 2d 3c 4h 9s Kd', villain='5h 6h 7d 8c Qc Qs'")  # fmt: skip


def test_razz_query_json_and_table_name_the_lows() -> None:
    data = as_json("query", RAZZ)
    assert data["method"] == "exact" and data["game"] == "razz"
    assert data["deals"] == 40 * 39  # one seventh-street card each
    bars = {b["bucket"]: b["value"] for b in data["results"][1]["value"]}
    # A2349 plays unless the seventh card is a 5, 6, 7 or 8 (three of each left: 3 of 40)
    assert set(bars) == {"9-low", "8-low", "7-low", "6-low", "5-low"}
    assert bars["5-low"] == pytest.approx(3 / 40) and bars["9-low"] == pytest.approx(28 / 40)
    result = run("query", RAZZ)
    assert result.exit_code == 0 and "9-low" in result.stdout and "exact" in result.stdout


def test_stud_board_function_is_a_one_line_error() -> None:
    result = run("query", "select count(pairedBoard(fifth)) from game='stud', hero='AsAd7c', "
                 "villain='KdKc2s'")  # fmt: skip
    assert_one_line_error(result, "pairedBoard: Seven-card stud has no community board")


def test_monte_carlo_options_read_and_capped_as_equity_reads_them() -> None:
    # --stderr in percent as well as a fraction; --time and --stderr capped unless --no-limit
    data = as_json("query", CONTRACT, "--mc", "--stderr", "0.2%", "--seed", "2")
    assert data["method"] == "monte-carlo"
    assert 0 < data["results"][0]["stderr"] <= 0.002
    assert_one_line_error(
        run("query", CONTRACT, "--mc", "--time", "100000"), "100000 s is more than 3600 s"
    )
    assert_one_line_error(run("query", CONTRACT, "--mc", "--stderr", "0.0001%"), "at least 0.001%")


@pytest.mark.parametrize(
    ("setting", "fragment"),
    [
        ("time=4000", "time: 4000 s is more than 3600 s (add --no-limit"),
        ("stderr=0.0000001", "stderr: 1e-05% needs up to"),
        ("trials=20000000000", "trials: 20,000,000,000 deals would take hours or longer"),
        ("trials=10000000000000000000", f"expects a whole number from 1 to {COUNTABLE_TRIALS:,}"),
    ],
)
def test_the_caps_hold_for_settings_in_the_query_text(setting: str, fragment: str) -> None:
    """The same caps as the options: ``time=4000`` in the text ran for as long as it said."""
    text = "select avg(riverEquity(hero)) from hero='AK', villain='QQ', " + setting
    assert_one_line_error(run("query", text), fragment)


def test_no_limit_lifts_the_caps_of_the_query_text() -> None:
    text = "select avg(riverEquity(hero)) from hero='AK', villain='QQ', time=4000, trials=5000"
    data = as_json("query", text, "--no-limit", "--seed", "1")
    assert data["method"] == "monte-carlo" and data["deals"] == 5000


def test_min_and_max_of_a_hand_type_print_its_name() -> None:
    """The table and the JSON showed the internal codes (5 for a flush; razz 9 for a 5-low)."""
    text = ("select max(handType(hero, river)) as best, min(handType(hero, river)) as worst "
            "from hero='AhKh', villain='QQ', board='Ts9h2h'")  # fmt: skip
    data = as_json("query", text)
    assert {r["name"]: r["value"] for r in data["results"]} == {"best": "flush",
                                                               "worst": "high card"}  # fmt: skip
    rows = {line.split()[0]: line.split()[1:] for line in run("query", text).stdout.splitlines()}
    assert rows["best"][:2] == ["flush", "exact"]
    assert rows["worst"][:3] == ["high", "card", "exact"]
    razz = RAZZ.replace("histogram(handType(hero, seventh)) as low",
                        "max(handType(hero, seventh)) as best")  # fmt: skip
    assert as_json("query", razz)["results"][1]["value"] == "5-low"
    rows = {line.split()[0]: line.split()[1:] for line in run("query", razz).stdout.splitlines()}
    assert rows["best"][0] == "5-low"


SPOT = "select avg(riverEquity(hero)) from hero='AhKh', villain='QQ', board='Ts9h2h'"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        (SPOT + ", method='exact', mc", "column 95: 'mc' and method='exact' (column 79) exclude"),
        (SPOT + ", game='holdem', game='omaha'",
         "column 94: 'game' is set twice (first at column 79)"),
        (SPOT + ", board='AsKsQs'", "column 79: 'board' is set twice (first at column 63)"),
        ("select count(inRange('villain', 'QQ'))" + SPOT[29:],
         "got the quoted text 'villain'; a player is written without quotes"),
        ("select from hero='AhKh', villain='QQ'",
         "column 8: expected an aggregate (avg, count, histogram, min, max), got 'from'"),
        ("select avg(riverEquity(hero))\nfrom hero='AhKh',\n     villain='QQ', board='Ts9h2h'\n"
         "where handType(villian, river) = 'flush'",
         "line 4, column 16: handType: 'villian' is not a player (did you mean 'villain'?)"),
    ],
)  # fmt: skip
def test_query_text_errors_are_one_line_and_say_where(text: str, fragment: str) -> None:
    assert_one_line_error(run("query", text), fragment)


def test_a_weighted_count_is_shown_as_it_is() -> None:
    """JhTh:0.5 makes the counts 21.5 and 44.5 (JSON); the table rounded them half to even,
    to 22 and 44."""
    query = (
        "select count(winsHi(hero)), count(winsHi(villain)) from hero='AhKh', "
        "villain='QcQd,JhTh:0.5', board='Ts9h2h5c'"
    )
    result = run("query", query)
    assert result.exit_code == 0, result.output
    assert "0.325758 (21.5)" in result.output and "0.674242 (44.5)" in result.output
    counts = [r["count"] for r in json.loads(run("query", query, "--json").output)["results"]]
    assert counts == [21.5, 44.5]


def test_one_deal_is_one_deal() -> None:
    result = run("query", "select count(winsHi(h)) from h='AhKh', v='QcQd', board='2c3c4c5d9s'")
    assert result.exit_code == 0, result.output
    assert "exact: 1 deal enumerated, 1 passed where" in result.output  # was "1 deals"


def test_a_number_past_a_float_is_one_error_line_without_numpy_warnings() -> None:
    """numpy's RuntimeWarning (two lines) came before the error."""
    import subprocess
    import sys

    text = f"select avg(riverEquity(hero)*{'9' * 400}) from hero='AhAs', villain='KdKc'"
    done = subprocess.run([sys.executable, "-m", "pokerlab", "query", text],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert done.stderr.count("\n") == 1 and "too large for a float" in done.stderr


def test_plot_without_a_histogram_is_refused_before_the_query_runs(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """It was refused after the whole run (exit status 1)."""
    from pokerlab.cli import query_cmd

    def must_not_run(*_: object, **__: object) -> None:
        raise AssertionError("the query ran")

    monkeypatch.setattr(query_cmd, "query", must_not_run)
    text = "select avg(riverEquity(h)) from h='AhAs', v='KdKc'"
    result = run("query", text, "--plot", str(tmp_path / "q.png"))
    assert_one_line_error(result, "--plot draws histograms; the query selects none")
