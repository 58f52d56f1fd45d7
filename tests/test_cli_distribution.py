"""``pokerlab distribution`` through click's CliRunner: JSON contract, CSV, PNG, bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cli import app


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


def test_json_contract() -> None:
    result = run("distribution", "QQ+,AK", "JJ-99,AQs", "--board", "Kd7c2h", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["board"] == "Kd7c2h" and data["method"] == "exact"
    engine = pokerlab.equity(["QQ+,AK", "JJ-99,AQs"], board="Kd7c2h", method="exact")
    for player, expected in zip(data["players"], engine.players, strict=True):
        assert {"input", "equity", "combos"} <= set(player)
        mean = sum(c["weight"] * c["equity"] for c in player["combos"])
        assert mean == pytest.approx(expected.equity, abs=1e-12)
        assert player["equity"] == pytest.approx(expected.equity, abs=1e-12)
        equities = [c["equity"] for c in player["combos"]]
        assert equities == sorted(equities, reverse=True)
    assert data["players"][0]["input"] == "QQ+,AK"


def test_csv_to_stdout_and_file(tmp_path: Path) -> None:
    result = run("distribution", "AA,KK", "QQ", "-b", "Qs7h2c", "--csv", "-")
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0][:6] == ["player", "input", "hand", "weight", "range_weight", "equity"]
    assert len(rows) == 1 + 12 + 3
    path = tmp_path / "combos.csv"
    table = run("distribution", "AA,KK", "QQ", "-b", "Qs7h2c", "--csv", str(path))
    assert table.exit_code == 0 and "equity of the combo" in table.stdout
    assert path.read_text().splitlines()[1:] == result.stdout.splitlines()[1:]


def test_plot_per_street(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / "curve.png"
    result = run("distribution", "QQ+,AK", "JJ-99,AQs", "-b", "Kd7c2h5s", "--plot", str(path))
    assert result.exit_code == 0, result.output
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_table_and_list() -> None:
    result = run("distribution", "AA,KK", "QQ", "AKs", "-b", "Qs7h2c", "--list")
    assert result.exit_code == 0, result.output
    assert "AsAh" in result.stdout and "equity of the combo" in result.stdout


def test_an_equity_on_a_tenth_is_in_the_tenth_it_names() -> None:
    """AA wins 1.2 of 3.0 weight here: exactly 40 %, computed as 0.39999999999999997, and
    shown in the 30-40% row under a header saying 40.00%."""
    result = run("distribution", "AsAh", "KK:0.15,QQ:0.05,JJ:0.6", "-b", "Jd7c2h5s9s")
    assert result.exit_code == 0, result.output
    rows = {line.split()[1]: line for line in result.stdout.splitlines() if "%" in line[:25]}
    assert "100.0%" in rows["40-50%"], result.stdout
    assert "100.0%" not in rows["30-40%"]


def test_trials_without_mc_only_set_what_auto_falls_back_to() -> None:
    """As for equity: --trials alone on a spot cheap to enumerate gives the exact answer. It
    turned the run into 100 unseeded deals per combo, printed like exact figures."""
    args = ["distribution", "QQ+", "JJ", "--board", "Kd7c2h", "--json"]
    with_trials = json.loads(run(*args, "--trials", "100").stdout)
    plain = json.loads(run(*args).stdout)
    assert with_trials["method"] == plain["method"] == "exact"
    assert with_trials["players"] == plain["players"]


def test_many_players_fit_the_width() -> None:
    """Players that do not fit side by side go on to further tables; no cell is cut short."""
    hands = ["AhAs", "KdKc", *(f"{r}s{r}h" for r in "QJT98765432")]
    args = ["distribution", *hands, "--mc", "--trials", "200", "--seed", "3"]
    result = CliRunner().invoke(app, args, env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert max(len(line.rstrip()) for line in lines) <= 80
    assert "…" not in result.stdout
    assert sum(line.startswith("players ") for line in lines) > 1
    for i, hand in enumerate(hands, start=1):
        assert f"{i} {hand}: " in result.stdout
    assert result.stdout.count("100.0%") == len(hands)  # one hand each: all in one tenth


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("distribution", "AA", "KK", "-b", "AsKs"), "flop is 3 cards"),
        (("distribution", "AA", "KK", "--exact", "--mc"), "exclude each other"),
        (("distribution", "AA", "KK", "--exact", "--trials", "5"), "--trials, --seed apply to"),
        (
            ("distribution", "AA", "KK", "--exact", "--seed", "5"),
            "apply to Monte Carlo, not --exact",
        ),
        (("distribution", "AA", "QX"), "QX"),
        (("distribution", "AA"), "VILLAIN"),
    ],
)
def test_bad_input_is_one_line(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run(*args), fragment)


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("--mc", "--trials", "100000000000"), "at most 10,000,000,000 (add --no-limit"),
        (("--json", "--csv", "-"), "--json and --csv - both write to stdout"),
    ],
)
def test_endless_or_unreadable_requests_are_refused(args: tuple[str, ...], fragment: str) -> None:
    """10^11 deals per combo ran on and on; --json with --csv - printed both, neither parsable."""
    assert_one_line_error(run("distribution", "QQ+,AK", "JJ-99,AQs", *args), fragment)


def test_uncountable_trials_are_refused_by_the_library_too() -> None:
    from pokerlab.analysis.distribution import equity_distribution

    for call in (lambda: pokerlab.equity(["AA", "KK"], method="mc", trials=10**31, time_limit=1),
                 lambda: equity_distribution("QQ+", "JJ", method="mc", trials=10**31)):  # fmt: skip
        with pytest.raises(pokerlab.GameError, match="cannot be counted"):
            call()
