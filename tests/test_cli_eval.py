"""``pokerlab eval``: through click's CliRunner and as the installed console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.cli import app

JSON_KEYS = ["category", "description", "best", "strength"]


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["eval", *args])


def pokerlab_script() -> str:
    """The console script installed next to this interpreter (else the one on PATH)."""
    for folder in (sysconfig.get_path("scripts"), str(Path(sys.executable).parent)):
        for name in ("pokerlab", "pokerlab.exe"):
            candidate = Path(folder) / name
            if candidate.is_file():
                return str(candidate)
    found = shutil.which("pokerlab")
    if found is None:
        pytest.skip("the pokerlab console script is not installed")
    return found


# --- output -------------------------------------------------------------------------------------


def test_text_output() -> None:
    result = run("Kh", "Kd", "Ks", "4c", "4d", "2s", "7h")
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    labels = ("category", "description", "best five", "strength")
    rows = {}
    for line in result.stdout.strip().splitlines():
        label = next(name for name in labels if line.strip().startswith(name))
        rows[label] = line.strip()[len(label) :].strip()
    assert list(rows) == list(labels)
    assert rows["category"] == "Full House"
    assert rows["description"] == "Full House, Kings full of Fours"
    assert rows["best five"] == "Ks Kh Kd 4d 4c"
    assert rows["strength"].isdigit()


@pytest.mark.parametrize(
    "args",
    [
        ["As", "Ks", "Qs", "Js", "Ts"],
        ["AsKsQsJsTs"],
        ["asks", "QSJS", "10s"],
        ["As,Ks,Qs,Js,Ts,2d,3c"],
    ],
)
def test_json_output(args: list[str]) -> None:
    result = run("--json", *args)
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert list(payload) == JSON_KEYS
    assert payload["category"] == "Straight Flush"
    assert payload["description"] == "Royal Flush"
    assert payload["best"] == ["As", "Ks", "Qs", "Js", "Ts"]
    assert payload["strength"] == 8 << 12 | 10


def test_json_option_after_the_cards() -> None:
    result = run("5d", "4c", "3h", "2s", "As", "--json")
    assert result.exit_code == 0, result.output
    payload = json.loads(result.stdout)
    assert payload["description"] == "Straight, Five high"
    assert payload["best"] == ["5d", "4c", "3h", "2s", "As"]


def test_json_strength_matches_the_library() -> None:
    import pokerlab

    result = run("--json", "Ac", "Ad", "6h", "6s", "2c", "9d")
    payload = json.loads(result.stdout)
    value = pokerlab.evaluate("Ac Ad 6h 6s 2c 9d")
    assert payload == value.to_dict()
    assert payload["description"] == "Two Pair, Aces and Sixes"


def test_short_deck_ranks_by_its_rules() -> None:
    import pokerlab

    payload = json.loads(run("--short-deck", "--json", "Ah 6c 7d 8s 9h Kc Kd").stdout)
    assert payload == pokerlab.evaluate_short_deck("Ah 6c 7d 8s 9h Kc Kd").to_dict()
    assert payload["description"] == "Straight, Nine high"  # a pair of kings in the full deck
    assert "Flush, King high" in run("--short-deck", "Kh 9h 8h 7h 6h 6c 6d").stdout
    # the other rule: trips beside a straight play the straight
    other = json.loads(run("--short-deck", "--straight-beats-trips", "--json",
                           "6h 6c 6d 7s 8h 9c Th").stdout)  # fmt: skip
    assert other["description"] == "Straight, Ten high"
    assert "Three of a Kind, Sixes" in run("--short-deck", "6h 6c 6d 7s 8h 9c Th").stdout


# --- errors -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "fragments"),
    [
        (["As", "Ks", "Xd", "Js", "Ts"], ["invalid card 'Xd' at character 7", "rank must be"]),
        (["As", "Ks", "Qx", "Js", "Ts"], ["invalid card 'Qx'", "suit must be one of cdhs"]),
        (["As", "As", "Qs", "Js", "Ts"], ["duplicate card 'As': cards 1 and 2 are the same"]),
        (["As", "Ks"], ["needs 5, 6 or 7 cards, got 2"]),
        (["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s"], ["got 8"]),
        (["--json", "As", "Ks", "Qs", "Js"], ["got 4"]),
        (["--short-deck", "5h", "6c", "7d", "8s", "9h"], ["no card below the six, got '5h'"]),
        (["--straight-beats-trips", "6h 6c 6d 7s 8h"], ["a short-deck rule: add --short-deck"]),
    ],
)
def test_errors_are_one_line(args: list[str], fragments: list[str]) -> None:
    assert_one_line_error(run(*args), *fragments)


def test_no_argument_is_a_usage_error() -> None:
    result = run()
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Missing argument 'CARDS...'" in result.stderr
    assert "Traceback" not in result.output


def test_no_argument_is_one_line() -> None:
    assert_one_line_error(run(), "Missing argument")


# --- the installed console script ---------------------------------------------------------------


def _script(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "NO_COLOR": "1", "COLUMNS": "100"}
    return subprocess.run(
        [pokerlab_script(), "eval", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        check=False,
    )


def test_console_script_json_and_text() -> None:
    done = _script("--json", "Kh", "Kd", "Ks", "4c", "4d", "2s", "7h")
    assert done.returncode == 0, done.stderr
    payload = json.loads(done.stdout)
    assert list(payload) == JSON_KEYS
    assert payload["description"] == "Full House, Kings full of Fours"
    done = _script("AsKsQsJsTs")
    assert done.returncode == 0, done.stderr
    assert "Royal Flush" in done.stdout and "As Ks Qs Js Ts" in done.stdout


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (["As", "Ks", "Xd", "Js", "Ts"], "invalid card 'Xd' at character 7"),
        (["As", "As", "Qs", "Js", "Ts"], "duplicate card 'As'"),
        (["As", "Ks", "Qs", "Js"], "got 4"),
    ],
)
def test_console_script_errors(args: list[str], fragment: str) -> None:
    done = _script(*args)
    assert done.returncode == 2
    assert done.stdout == ""
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and fragment in lines[0]


def test_console_script_no_argument() -> None:
    done = _script()
    assert done.returncode == 2
    assert "Missing argument" in done.stderr and "Traceback" not in done.stderr


def test_eval_does_not_import_numba() -> None:
    """`pokerlab eval` evaluates in plain Python: no numba import, so no compile on start."""
    code = (
        "import sys\n"
        "from click.testing import CliRunner\n"
        "from pokerlab.cli import app\n"
        "result = CliRunner().invoke(app, ['eval', '--json', 'AsKsQsJsTs'])\n"
        "assert result.exit_code == 0, result.output\n"
        "print(sorted(m for m in sys.modules if m == 'numba' or m.endswith('_kernels')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_messages_name_no_function_and_count_in_the_singular() -> None:
    """The short deck's refusal began 'evaluate_short_deck:', a library function's name;
    'range --help' cut its commands' summaries at "e.g."; '--seed set how ...'."""
    result = CliRunner().invoke(app, ["eval", "--short-deck", "2c", "3d", "4h", "5s", "6c"])
    assert_one_line_error(result, "the hand: the short deck has no card below the six")
    assert "evaluate_short_deck" not in result.output
    helped = CliRunner().invoke(app, ["range", "--help"])
    assert "Write a hold'em range in another tool's format." in helped.output
    seeded = CliRunner().invoke(app, ["draw", "advise", "Jh Jd 7c 4s 2h", "--seed", "1"])
    assert_one_line_error(seeded, "--seed sets how equity against opponents is computed")
