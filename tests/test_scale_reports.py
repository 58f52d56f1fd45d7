"""``pokerlab matrix`` and ``pokerlab flops``: cells equal direct exact runs, mirrored cells
follow heads-up, flop classes fold correctly and average back to the preflop equity."""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cards import RANKS, parse_cards
from pokerlab.cli import app
from pokerlab.scale.flops import flop_report
from pokerlab.scale.matrix import game_classes, preflop_matrix

CLASSES = ["AA", "AKs", "72o", "T9s", "22"]


def test_matrix_cells_and_mirror() -> None:
    m = preflop_matrix(CLASSES, workers=1)
    assert m.jobs == len(CLASSES) * (len(CLASSES) + 1) // 2
    for i, a in enumerate(CLASSES):
        for j, b in enumerate(CLASSES):
            p = pokerlab.equity([a, b], method="exact").players[0]
            assert m.equity[i, j] == pytest.approx(p.equity, abs=1e-15)
            assert m.win[i, j] == pytest.approx(p.win, abs=1e-15)
            assert m.tie[i, j] == pytest.approx(p.tie, abs=1e-15)
    np.testing.assert_allclose(m.equity + m.equity.T, 1.0, atol=1e-15)
    assert m.equity[0, 0] == 0.5


def test_matrix_cli_writes_csv_and_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "m.csv", tmp_path / "m.png"
    result = CliRunner().invoke(app, ["matrix", "--classes", "AA,KK,AKo", "-o", str(out),
                                      "--png", str(png), "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert len(rows) == 9 and rows[1]["hand"] == "AA" and rows[1]["villain"] == "KK"
    assert round(float(rows[1]["equity"]), 5) == 0.81946  # AA vs KK classes (OMPEval)
    assert png.read_bytes()[:4] == b"\x89PNG"
    bad = CliRunner().invoke(app, ["matrix", "--classes", "AA,AX", "-o", str(out)])
    assert_one_line_error(bad, "unknown hand class 'AX'")
    # classes in any case, as ranges read them ("unknown hand class 'aa'")
    lower = CliRunner().invoke(app, ["matrix", "--classes", "aa,kk,ako", "-o", str(out),
                                     "--workers", "1"])  # fmt: skip
    assert lower.exit_code == 0, lower.output
    again = list(csv.DictReader(out.open()))
    assert [(r["hand"], r["villain"]) for r in again] == [(r["hand"], r["villain"]) for r in rows]
    assert again[1]["equity"] == rows[1]["equity"]


def test_symmetric_ranges_fold_to_1755_flop_classes() -> None:
    report = flop_report(["AA", "KK"], workers=1)
    assert report.symmetries == 24 and report.classes == 1755
    assert int(report.size.sum()) == math.comb(52, 3) - 8  # no flop of three aces or kings
    assert report.probability.sum() == pytest.approx(1.0)
    assert list(report.equity) == sorted(report.equity, reverse=True)
    preflop = pokerlab.equity(["AA", "KK"], method="exact").players[0].equity
    assert report.mean_equity == pytest.approx(preflop, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "dead", "symmetries"),
    [
        (["AhKh", "QQ"], "", 6),
        (["AhKh", "QdQc"], "2s", 2),
        (["AhKh", "QQ:0.5,JJ"], "", 6),  # flops where only QQ is left weigh half
        pytest.param(["AKs", "JJ+", "76s"], "", 24, marks=pytest.mark.slow),
    ],
)
def test_flop_mean_is_the_preflop_equity(players: list[str], dead: str, symmetries: int) -> None:
    report = flop_report(players, dead, workers=2)
    assert report.symmetries == symmetries
    preflop = pokerlab.equity(players, dead=dead, method="exact").players[0].equity
    assert report.mean_equity == pytest.approx(preflop, abs=1e-12)
    exact_cards = sum(2 for p in players if len(pokerlab.Range(p)) == 1) + len(dead) // 2
    assert int(report.size.sum()) <= math.comb(52 - exact_cards, 3)


def test_flops_cli(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    out, png = tmp_path / "f.csv", tmp_path / "f.png"
    result = CliRunner().invoke(app, ["flops", "AhAs", "KK", "-o", str(out), "--png", str(png),
                                      "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    assert rows[0]["equity"] >= rows[-1]["equity"]
    assert sum(int(r["flops"]) for r in rows) == math.comb(50, 3) - 4  # KKK flops impossible
    assert png.read_bytes()[:4] == b"\x89PNG"
    # the summary counts what JSON's "classes" counts too, and says why they differ
    assert f"{len(rows):,} flop classes (2 of the {len(rows) + 2:,} leave" in result.stderr
    assert_one_line_error(CliRunner().invoke(app, ["flops", "AhAs", "AhKd"]), "used twice")
    for bad, said in (("0", "0.0 is not in the range x>0"), ("x", "'x' is not a valid float.")):
        # 0 was told as the library's "max_seconds: must be ...", not the option
        result = CliRunner().invoke(app, ["flops", "AhAs", "KK", "--max-seconds", bad])
        assert_one_line_error(result, f"Invalid value for '--max-seconds': {said}")


def test_matrix_and_flops_on_dask_equal_local(dask_client: Any) -> None:
    local = preflop_matrix(CLASSES[:3], workers=1)
    dask = preflop_matrix(CLASSES[:3], client=dask_client, chunk_size=2)
    for name in ("equity", "win", "tie"):
        assert np.array_equal(getattr(local, name), getattr(dask, name))
    a = flop_report(["AA", "KK"], client=dask_client)
    b = flop_report(["AA", "KK"], workers=1)
    assert a.flops == b.flops and np.array_equal(a.equity, b.equity)
    assert np.array_equal(a.probability, b.probability)


SHORT_CLASSES = ["AA", "AKs", "T9s", "66", "A6o"]


def test_short_deck_matrix_cells_equal_direct_runs() -> None:
    assert len(game_classes("shortdeck")) == 81 and len(game_classes()) == 169
    assert all(RANKS.index(name[1]) >= 4 for name in game_classes("shortdeck"))
    m = preflop_matrix(SHORT_CLASSES, game="shortdeck", workers=1)
    assert m.game == "shortdeck" and m.jobs == 15
    for i, a in enumerate(SHORT_CLASSES):
        for j, b in enumerate(SHORT_CLASSES):
            p = pokerlab.equity([a, b], game="shortdeck", method="exact").players[0]
            assert m.equity[i, j] == pytest.approx(p.equity, abs=1e-15)
            assert m.win[i, j] == pytest.approx(p.win, abs=1e-15)
            assert m.tie[i, j] == pytest.approx(p.tie, abs=1e-15)
    np.testing.assert_allclose(m.equity + m.equity.T, 1.0, atol=1e-15)
    # the short deck's answers differ from hold'em's: AA vs AKs is not the same matchup there
    holdem = preflop_matrix(SHORT_CLASSES[:2], workers=1)
    assert abs(holdem.equity[0, 1] - m.equity[0, 1]) > 1e-3


@pytest.mark.parametrize(
    ("names", "game", "message"),
    [
        (["AA", "55"], "shortdeck", "the hand class '55' is not in the short deck (Sixes to Aces)"),
        (["AA", "A2s"], "shortdeck", "the hand class 'A2s' is not in the short deck"),
        (None, "omaha", "Omaha has no two-card classes"),
        (None, "razz", "has no two-card classes"),
        (None, "chess", "unknown game 'chess'"),
    ],
)
def test_matrix_refuses_classes_and_games_out_of_reach(
    names: list[str] | None, game: str, message: str
) -> None:
    with pytest.raises(pokerlab.PokerlabError, match=re.escape(message)):
        preflop_matrix(names, game=game, workers=1)


def test_short_deck_flops_fold_to_573_classes() -> None:
    report = flop_report(["AA", "KK"], game="shortdeck", workers=2)
    assert report.game == "shortdeck"
    assert report.symmetries == 24 and report.classes == 573
    assert int(report.size.sum()) == math.comb(36, 3) - 8  # no flop of three aces or kings
    assert all(int(c) >= 16 for flop in report.flops for c in parse_cards(flop))  # sixes up
    preflop = pokerlab.equity(["AA", "KK"], game="shortdeck", method="exact").players[0].equity
    assert report.mean_equity == pytest.approx(preflop, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "game", "symmetries", "classes"),
    [
        (["AhKh", "QQ"], "shortdeck", 6, None),
        (["AsAhKsKh", "JdTd9c8c"], "omaha", 2, None),  # s-h swapped fixes both hands
        (["Ah2h3c4c", "KsKdQsQd"], "omaha-hilo", 2, math.comb(44, 3)),
    ],
)
def test_flop_mean_is_the_preflop_equity_in_other_games(
    players: list[str], game: str, symmetries: int, classes: int | None
) -> None:
    report = flop_report(players, game=game, workers=2)
    assert report.symmetries == symmetries
    direct = pokerlab.equity(players, game=game, method="exact").players[0].equity
    assert report.mean_equity == pytest.approx(direct, abs=1e-12)
    # one flop checked against its own direct run
    flop = report.flops[len(report.flops) // 2]
    on_flop = pokerlab.equity(players, board=flop, game=game, method="exact").players[0]
    assert report.equity[len(report.flops) // 2] == on_flop.equity
    if classes is not None:  # every flop of the cards left, folded in pairs
        assert int(report.size.sum()) == classes


def test_flop_reports_refuse_games_without_a_flop_and_work_too_large() -> None:
    with pytest.raises(pokerlab.GameError, match="Seven-card stud has no flop"):
        flop_report(["AsAh2c3d4h5s6c", "KsKh2d3c4s5h6d"], game="stud", workers=1)
    # 17,296 flop classes of an Omaha hand against any hand: hours of exact runs
    with pytest.raises(pokerlab.TooLargeError, match=r"flop report is too large: about [\d,]+ s"):
        flop_report(["AsKsQd7c", "random"], game="omaha", workers=1)
    with pytest.raises(pokerlab.GameError, match="max_seconds"):
        flop_report(["AA", "KK"], workers=1, max_seconds=-1)
    with pytest.raises(pokerlab.TooLargeError, match="1,755 flop classes"):
        flop_report(["AA", "KK"], workers=1, max_seconds=0.01)


def test_matrix_and_flops_cli_take_a_game(tmp_path: Path) -> None:
    out = tmp_path / "m.csv"
    result = CliRunner().invoke(app, ["matrix", "-g", "shortdeck", "--classes", "AA,KK",
                                      "-o", str(out), "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = list(csv.DictReader(out.open()))
    direct = pokerlab.equity(["AA", "KK"], game="shortdeck", method="exact").players[0].equity
    assert float(rows[1]["equity"]) == direct
    bad = CliRunner().invoke(app, ["matrix", "-g", "shortdeck", "--classes", "AA,22"])
    assert_one_line_error(bad, "the hand class '22' is not in the short deck")
    flops = tmp_path / "f.csv"
    result = CliRunner().invoke(app, ["flops", "AsAhKsKh", "JdTd9c8c", "-g", "omaha",
                                      "-o", str(flops), "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sum(int(r["flops"]) for r in csv.DictReader(flops.open())) == math.comb(44, 3)
    assert_one_line_error(CliRunner().invoke(app, ["flops", "AsKsQd7c", "random", "-g", "omaha"]),
                          "flop report is too large")  # fmt: skip
    assert_one_line_error(CliRunner().invoke(app, ["flops", "AA", "KK", "-g", "razz"]),
                          "Razz has no flop")  # fmt: skip


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: flop_report(["AA", "KK"], chunk_size=0), "chunk_size must be at least 1, got 0"),
        (
            lambda: flop_report(["AA", "KK"], workers=2.5),
            "workers must be a positive integer, got 2.5",
        ),
        (lambda: preflop_matrix(["AA"], chunk_size=-1), "chunk_size must be at least 1"),
        (lambda: preflop_matrix(["AA"], workers=0), "workers must be at least 1, got 0"),
        (lambda: preflop_matrix([]), "give at least one hand class (names is empty)"),
        (lambda: preflop_matrix("AA"), "names must be a list of hand classes"),
        (lambda: preflop_matrix(["AA", 5]), "unknown hand class 5"),
    ],
)
def test_bad_arguments_get_one_line_errors(call: Any, message: str) -> None:
    with pytest.raises(pokerlab.PokerlabError, match=re.escape(message)):
        call()


def test_flops_and_matrix_cli_print_the_reports_json(tmp_path: Path) -> None:
    """``--json`` prints ``to_dict()``, what the web API answers: the CSV's rows, in order."""
    import json

    out = tmp_path / "f.csv"
    result = CliRunner().invoke(app, ["flops", "AA", "KK", "-g", "shortdeck", "--json",
                                      "-o", str(out), "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    want = flop_report(["AA", "KK"], game="shortdeck", workers=1).to_dict()
    assert {**data, "seconds": 0} == {**want, "seconds": 0}
    assert data["mean_equity"] == pytest.approx(
        sum(p * e for p, e in zip(data["probability"], data["equity"], strict=True))
    )
    with out.open() as f:
        rows = list(csv.DictReader(f))
    assert [r["flop"] for r in rows] == data["flops"]
    assert [float(r["equity"]) for r in rows] == data["equity"]

    out = tmp_path / "m.csv"
    result = CliRunner().invoke(app, ["matrix", "--classes", "AA,KK,AKo", "--json", "-o",
                                      str(out), "--workers", "1"])  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["names"] == ["AA", "KK", "AKo"] and data["jobs"] == 6
    want = preflop_matrix(["AA", "KK", "AKo"], workers=1)
    assert data["equity"] == want.equity.tolist() and data["tie"] == want.tie.tolist()


def test_small_reports_run_here_unless_workers_or_a_cluster_are_asked_for(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pool of every core first spends WORKER_START_SECONDS starting: work shorter than
    what the pool would take runs in this process; explicit workers or a cluster are obeyed."""
    from pokerlab.scale import backends

    monkeypatch.setattr(backends, "available_cores", lambda: 2)
    start = backends.WORKER_START_SECONDS
    assert backends.quickest_backend(0.5) == "inline"
    assert backends.quickest_backend(2 * start) == "inline"  # a tie: no pool to start
    assert backends.quickest_backend(2 * start + 0.01) == "local"
    assert backends.quickest_backend(0.5, workers=2) == "local"
    assert backends.quickest_backend(0.5, workers=1) == "local"
    assert backends.quickest_backend(0.5, local_cluster=2) == "local"
    assert backends.quickest_backend(0.5, "dask", scheduler="tcp://x:8786") == "dask"
    monkeypatch.setattr(backends, "available_cores", lambda: 8)
    assert backends.quickest_backend(1.1) == "inline"
    assert backends.quickest_backend(1.2) == "local"

    chosen: list[str] = []
    real = backends.make_backend

    def spy(backend: str = "local", **kwargs: Any) -> Any:
        made = real(backend, **kwargs)
        chosen.append("inline" if isinstance(made, backends.InlineBackend) else backend)
        return made

    import pokerlab.scale.flops as flops_module
    import pokerlab.scale.matrix as matrix_module

    monkeypatch.setattr(flops_module, "make_backend", spy)
    monkeypatch.setattr(matrix_module, "make_backend", spy)
    small = flop_report(["AA", "KK"], game="shortdeck")
    preflop_matrix(["AA", "KK"])
    assert chosen == ["inline", "inline"]
    assert small == flop_report(["AA", "KK"], game="shortdeck", workers=1)
