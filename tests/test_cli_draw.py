"""``pokerlab draw advise`` and ``pokerlab draw match`` through click's CliRunner on the group."""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.cli.draw_cmd import draw_group


def run(*args: str) -> Result:
    return CliRunner().invoke(draw_group, list(args))


# --- advise -----------------------------------------------------------------------------------


def test_advise_text() -> None:
    result = run("advise", "Jh Jd 7c 4s 2h")
    assert result.exit_code == 0, result.output
    assert "best: keep Jh Jd, draw 3" in result.stdout
    assert "71.286%" in result.stdout and "16,215" in result.stdout


def test_advise_cards_as_separate_arguments() -> None:
    a, b = (
        run("advise", "Jh", "Jd", "7c", "4s", "2h", "--json"),
        run("advise", "JhJd7c4s2h", "--json"),
    )
    assert json.loads(a.stdout)["choices"] == json.loads(b.stdout)["choices"]


def test_advise_json_shape() -> None:
    result = run("advise", "Jh Jd 7c 4s 2h", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["hand"] == "Jh Jd 7c 4s 2h"
    choices = payload["choices"]
    assert len(choices) == 32
    assert choices[0]["keep"] == ["Jh", "Jd"] and choices[0]["discard"] == ["7c", "4s", "2h"]
    seen = set()
    for c in choices:
        assert set(c) >= {"keep", "discard", "draws", "categories"}
        assert "equity" not in c
        assert sorted(c["keep"] + c["discard"]) == sorted(["Jh", "Jd", "7c", "4s", "2h"])
        assert c["draws"] == math.comb(47, len(c["discard"]))
        assert sum(c["categories"].values()) == pytest.approx(1.0)
        seen.add(frozenset(c["keep"]))
    assert len(seen) == 32


def test_advise_json_with_opponents() -> None:
    result = run("advise", "Jh Jd 7c 4s 2h", "--vs", "random", "--vs", "Ks Kd 9c 8h 3d:rules",
                 "--dead", "As", "--trials", "3000", "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["method"] == "monte-carlo" and payload["samples"] == 3000
    assert payload["opponents"] == ["random", "KsKd9c8h3d:rules"] and payload["dead"] == "As"
    equities = [c["equity"] for c in payload["choices"]]
    assert equities == sorted(equities, reverse=True)
    assert all(c["stderr"] > 0 or c["equity"] in (0.0, 1.0) for c in payload["choices"])
    assert payload["choices"][0]["draws"] == math.comb(41, len(payload["choices"][0]["discard"]))


def test_advise_exact_table_and_deuce7() -> None:
    result = run("advise", "7h 5d 4c 3s Kh", "--game", "2-7", "--vs", "Ks Kd 9c 8h 3d",
                 "--goal", "8-low", "--exact")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "equity: exact" in result.stdout and "8-low+" in result.stdout


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["Jh Jd 7c 4s"], ["exactly 5 cards"]),
        (["Jh Jd 7c 4s 2h", "--dead", "Jh"], ["'Jh' is used twice"]),
        (["Jh Jd 7c 4s Zz"], ["invalid card 'Zz'"]),
        (["Jh Jd 7c 4s 2h", "--game", "razz"], ["unknown draw game 'razz'"]),
        (["Jh Jd 7c 4s 2h", "--goal", "royal"], ["unknown goal"]),
        (["Jh Jd 7c 4s 2h", "--vs", "random", "--exact"], ["use Monte Carlo (--mc"]),
        (["Jh Jd 7c 4s 2h", "--vs", "random", "--seed", "-1"], ["seed must be", "got -1"]),
        (["Jh Jd 7c 4s 2h", "--vs", "random:"], ["':' needs how it draws"]),
        # it said "invalid card 'ra' at character 1", and a bad card's place was in its hand
        (["Jh Jd 7c 4s 2h", "--vs", "random|AcAd7h4c2d"], ["'random' is every hand, so it"]),
        (
            ["Jh Jd 7c 4s 2h", "--vs", "KhKd9c8s3c|AcAd7h4Xc2d"],
            ["hand 'AcAd7h4Xc2d': invalid card '4X' at character 7"],
        ),
        (["Jh Jd 7c 4s 2h", "--vs", "random:optimal"], ["plays in `draw match`"]),
        (["Jh Jd 7c 4s 2h", "--vs", "random:clever"], ["strategy"]),
        (["Jh Jd 7c 4s 2h", "--vs", "random", "--trials", "0"], ["trials"]),
        (["Jh Jd 7c 4s 2h", "--threads", "0"], ["threads must be at least 1"]),
        (["Jh Jd 7c 4s 2h", "--threads", "-3"], ["threads must be at least 1"]),
        (["Jh Jd 7c 4s 2h", "--threads", "two"], ["--threads", "two"]),
    ],
)
def test_advise_errors(args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(run("advise", *args), *fragments)


def test_advise_usage_error() -> None:
    result = run("advise", "Jh Jd 7c 4s 2h", "--exact", "--mc")
    assert result.exit_code == 2 and "exclude each other" in result.stderr


# --- match ------------------------------------------------------------------------------------


def test_match_json_and_plot(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    png = tmp_path / "results.png"
    result = run("match", "--bots", "rules,random", "--hands", "400", "--seed", "1",
                 "--plot", str(png), "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["bots"] == ["rules", "random"] and payload["hands"] == 400
    (m,) = payload["matches"]
    assert m["wins"] + m["ties"] + m["losses"] == 400
    assert set(m) >= {"rates", "z", "p_value", "better"}
    assert [s["bot"] for s in payload["standings"]] == ["rules", "random"]
    assert png.read_bytes()[:4] == b"\x89PNG" and payload["plot"] == str(png)


def test_match_text() -> None:
    result = run("match", "--bots", "rules,random,stand-pat", "--hands", "300", "--game", "2-7")
    assert result.exit_code == 0, result.output
    assert "standings" in result.stdout and "stand-pat" in result.stdout


def test_match_text_fits_80_columns() -> None:
    """Its last line, the test's rule and the time, wrapped at 80 columns: the time alone."""
    result = CliRunner().invoke(draw_group, ["match", "--hands", "50", "--seed", "1"],
                                env={"COLUMNS": "80"})  # fmt: skip
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines), lines
    assert re.fullmatch(r"played in \d+\.\d\d s", lines[-1]), lines[-1]
    assert lines[-2].endswith("the two-sided binomial test gives p < 0.05")


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["--bots", "rules,genius"], "unknown bot 'genius'"),
        (["--bots", "rules"], "at least two bots"),
        (
            ["--bots", "rules,random", "--hands", "0"],
            "hands must be a whole number from 1 to 100,000,000 per pair",
        ),
        (["--bots", "rules,random", "--hands", "10" * 6], "got 101,010,101,010"),
        (["--bots", "rules,random", "--seed", "-1"], "seed must be a whole number, 0 or more"),
        (["--bots", "rules,,random"], "'rules,,random' has an empty bot name"),
        (["--bots", "rules,random", "--game", "omaha"], "unknown draw game"),
        (["--bots", "rules,random", "--threads", "0"], "threads must be at least 1"),
        (["--bots", "rules,random", "--threads", "1.5"], "--threads"),
    ],
)
def test_match_errors(args: list[str], fragment: str) -> None:
    assert_one_line_error(run("match", *args), fragment)


def test_threads_do_not_change_the_output() -> None:
    def payload(*args: str) -> dict[str, object]:
        result = run(*args)
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        data.pop("seconds")
        return dict(data)

    for args in (
        ["advise", "Jh Jd 7c 4s 2h", "--vs", "9s 9d 8c 6c 2s", "--json"],
        ["match", "--bots", "optimal,random", "--hands", "200", "--seed", "3", "--json"],
    ):
        assert payload(*args, "--threads", "1") == payload(*args, "--threads", "2")


def test_draw_is_registered_on_the_top_level_command() -> None:
    from pokerlab.cli import app

    result = CliRunner().invoke(app, ["draw", "advise", "Jh Jd 7c 4s 2h", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["choices"][0]["keep"] == ["Jh", "Jd"]
    bad = CliRunner().invoke(app, ["draw", "advise", "Jh Jd 7c 4s"])
    assert bad.exit_code == 2 and bad.stderr.startswith("error: ")
