"""A newcomer's first hour (issue 17): help and errors that read right, options that cannot
silently ask for endless work, outs that end, and a repository that carries its own license
and definitions. Key behaviours run the real command in a subprocess."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from cli_helpers import assert_one_line_error
from pokerlab.cli import app
from pokerlab.engine.montecarlo import CHUNK_DEALS

ROOT = Path(__file__).resolve().parent.parent
# Restores Python's Ctrl-C handler even where the test runner's parent ignores SIGINT.
MAIN = (
    "import signal; signal.signal(signal.SIGINT, signal.default_int_handler); "
    "from pokerlab.cli import main; main()"
)


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "100"})


def command(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", MAIN, *args], capture_output=True, text=True, timeout=timeout
    )


# --- 7: help and messages -------------------------------------------------------------------


def test_bare_pokerlab_prints_the_help_without_an_error() -> None:
    done = command()
    assert done.returncode == 0, done.stderr
    assert "error" not in done.stdout + done.stderr
    assert "Usage: pokerlab" in done.stdout and "equity" in done.stdout
    draw = run("draw")
    assert draw.exit_code == 0 and "advise" in draw.stdout and "error" not in draw.output


def test_top_level_help_summaries_are_whole_sentences() -> None:
    result = run("--help")
    assert result.exit_code == 0
    commands = result.stdout.split("Commands:")[1].strip().splitlines()
    assert {line.split()[0] for line in commands} >= {"equity", "outs", "range", "eval", "serve"}
    for line in commands:
        assert "e.g" not in line and line.rstrip().endswith((".", "…")), line


@pytest.mark.parametrize(
    "args",
    [
        ("equity", "A" * 100_000, "KK"),
        ("equity", "--game", "omaha", "A" * 100_000, "KK**"),
        ("equity", "AA@" + "5" * 100_000, "KK"),
        ("equity", "--game", "A" * 100_000, "AA", "KK"),
        ("range", "QQ+," + "x" * 100_000),
        ("eval", "As" + "Kd" * 50_000),
        ("draw", "advise", "JhJd7c4s2h", "--vs", "JJ***:" + "x" * 100_000),
        ("draw", "advise", "JhJd7c4s2h", "--goal", "A" * 100_000),
        ("equity", "AA", "KK", "--trials", "9" * 100_000),
    ],
)
def test_errors_echo_at_most_a_short_piece_of_the_input(args: tuple[str, ...]) -> None:
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith("error: ") and len(result.stderr) < 400, result.stderr[:500]


def test_long_input_error_in_a_subprocess_is_one_short_line() -> None:
    done = command("equity", "Q" * 100_000, "KK")
    assert done.returncode == 2 and done.stdout == ""
    assert len(done.stderr.splitlines()) == 1 and len(done.stderr) < 300


def test_card_errors_say_character_or_count_cards() -> None:
    assert_one_line_error(run("eval", "As Ks Xd Js Ts"), "invalid card 'Xd' at character 7")
    assert_one_line_error(run("eval", "AsKsQsAsTs"), "duplicate card 'As': cards 1 and 4")
    assert_one_line_error(
        run("equity", "AhAs", "KdKc", "--board", "Qh7c2dQh"), "cards 1 and 4 are the same"
    )


def test_install_hints_are_written_one_way_everywhere() -> None:
    texts = [p.read_text() for p in (ROOT / "src" / "pokerlab").rglob("*.py")]
    texts += [(ROOT / "README.md").read_text()]
    hints = [h for t in texts for h in re.findall(r"pip install\s+(['\"]?[\w.]*\[\w+\]['\"]?)", t)]
    assert len(hints) >= 3, hints
    assert all(re.fullmatch(r'"pokerlab\[\w+\]"', h) for h in hints), hints


# --- 6: out-of-range or ignored options ------------------------------------------------------


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("range", "AK@500"), "a weight is at most 100 after '@'"),
        (("range", "AK:2"), "a weight is at most 1 after ':'"),
        (("equity", "--game", "omaha", "AA**@150", "KK**"), "a weight is at most 100"),
        (("equity", "AhAs", "KdKc", "--exact", "--seed", "1"), "not --exact"),
        (("draw", "advise", "JhJd7c4s2h", "--trials", "1000"), "--trials sets how equity"),
        (("draw", "advise", "JhJd7c4s2h", "--seed", "3"), "give the opponents with --vs"),
        (("draw", "advise", "JhJd7c4s2h", "--top", "-1"), "-1 is not in the range x>=1"),
        (("draw", "advise", "JhJd7c4s2h", "--vs", "random", "--exact", "--seed", "1"), "--seed"),
    ],
)
def test_ignored_or_out_of_range_options_are_refused(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run(*args), fragment)


# --- 4 and 5: endless work, units, unknown error ---------------------------------------------


@pytest.mark.parametrize(
    "args, fragment",
    [
        (("--time", "inf"), "add --no-limit"),
        (("--time", "nan"), "positive number of seconds"),
        (("--time", "1e9"), "more than 3600 s"),
        (("--trials", str(10**30)), "cannot be counted"),
        (("--trials", str(10**12)), "add --no-limit"),
        (("--trials", "0"), "at least 1"),
        (("--stderr", "1e-9"), "needs up to 2.5e+17 deals"),
        (("--stderr", "1e-300"), "needs more deals than can be counted"),  # 1e-300**2 is 0
        (("--stderr", "0.00001%"), "at least 0.001%"),
        (("--stderr", "150%"), "below 1 (or 100%)"),
        (("--stderr", "0.1 %x"), "not a number such as 0.001 or 0.1%"),
    ],
)
def test_endless_monte_carlo_options_are_capped(args: tuple[str, ...], fragment: str) -> None:
    assert_one_line_error(run("equity", "AhAs", "KdKc", "--mc", *args), fragment)


def test_no_limit_lifts_the_caps_and_trials_still_stop_the_run() -> None:
    result = run("equity", "AhAs", "KdKc", "--mc", "--time", "inf", "--no-limit",
                 "--trials", "2000", "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert '"samples": 2000' in result.stdout


def test_a_numba_thread_count_numba_refuses_is_one_line() -> None:
    """numba's own traceback ("Number of threads specified must be > 0.") came first."""
    env = {**os.environ, "NUMBA_NUM_THREADS": "0"}
    done = subprocess.run([sys.executable, "-m", "pokerlab", "equity", "AhKh", "QQ"], env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert done.returncode == 2 and done.stdout == ""
    assert (
        done.stderr.strip()
        == "error: NUMBA_NUM_THREADS must be 1 or more (numba's threads), got '0'"
    )


def test_no_limit_help_names_only_options_the_command_has() -> None:
    """``outs`` and ``draw advise`` said --no-limit allowed --trials, --stderr and --time, which
    neither has all of."""
    import click

    def commands(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        found = []
        for name, command in group.commands.items():
            if isinstance(command, click.Group):
                found += commands(command, (*path, name))
            else:
                found.append((*path, name))
        return found

    checked = 0
    for path in commands(app):
        command = app
        for name in path:
            command = command.commands[name]  # type: ignore[attr-defined]
        options = {o for p in command.params for o in p.opts}
        lift = next((p for p in command.params if "--no-limit" in p.opts), None)
        if lift is None:
            continue
        named = set(re.findall(r"--[a-z-]+", lift.help or ""))  # type: ignore[attr-defined]
        assert named and named <= options, (path, named - options)
        checked += 1
    assert checked >= 4


def test_stderr_in_percent_equals_the_fraction_and_the_help_names_the_unit() -> None:
    args = ("equity", "AhAs", "KdKc", "--mc", "--seed", "3", "--trials", "5000", "--json")
    percent, fraction = run(*args, "--stderr", "0.1%"), run(*args, "--stderr", "0.001")
    assert percent.exit_code == fraction.exit_code == 0, percent.output
    strip = re.compile(r'"seconds": [0-9.e-]+')
    assert strip.sub("", percent.stdout) == strip.sub("", fraction.stdout)
    help_text = " ".join(run("equity", "--help").stdout.split())
    assert "in percent (0.1%) or as a fraction of the pot (0.001)" in help_text
    assert "A run stopped by time is not reproducible, even with --seed" in help_text


def test_one_deal_reports_an_unknown_standard_error() -> None:
    result = run("equity", "AhAs", "KdKc", "--mc", "--trials", "1", "--seed", "1")
    assert result.exit_code == 0, result.output
    assert "unknown" in result.stdout and "0.000%       1" not in result.stdout
    assert "1 deal sampled" in result.stdout
    two = run("equity", "AhAs", "KdKc", "--mc", "--trials", "50", "--seed", "1")
    assert "unknown" not in two.stdout
    one = run("equity", "AhAs", "KdKc", "--mc", "--trials", "1", "--seed", "1", "--json")
    assert [p["stderr"] for p in json.loads(one.stdout)["players"]] == [None, None]
    exact = run("equity", "AhAs", "KdKc", "--board", "Qh7c2d", "--exact", "--json")
    assert [p["stderr"] for p in json.loads(exact.stdout)["players"]] == [0.0, 0.0]


# --- 3: outs ends ---------------------------------------------------------------------------


def test_outs_too_large_is_refused_at_once_with_how_to_narrow_it() -> None:
    assert_one_line_error(
        run("outs", *["random"] * 9, "--board", "Th7c2h"),
        "outs is too large",
        "holdings per player",
        "narrow the ranges, give the turn card, or allow more time (--time)",
    )
    turn = run("outs", *["random"] * 9, "--board", "Th7c2h5s")  # the turn card is given
    assert_one_line_error(turn, "narrow the ranges, or allow more time (--time)")
    assert "turn card" not in turn.stderr
    assert_one_line_error(
        run("outs", "--game", "omaha-hilo", "A2**", "KK**", "--board", "Th7c3h"),
        "over the limit of 60 s",
    )
    assert_one_line_error(
        run("outs", "9h8h", "random", "random", "random", "--board", "Th7c2h", "--time", "1"),
        "over the limit of 1 s",
    )
    assert_one_line_error(run("outs", "9h8h", "AsKd", "--board", "Th7c2h", "--time", "inf"),
                          "add --no-limit")  # fmt: skip


def test_outs_stops_at_its_time_limit_and_reports_progress() -> None:
    from pokerlab.analysis import outs
    from pokerlab.engine.limits import time_limited
    from pokerlab.errors import CancelledError, TooLargeError

    polls: list[float] = []

    def slow(stop: Callable[[], bool]) -> None:
        while not stop():
            polls.append(time.perf_counter())
            time.sleep(0.01)
        raise CancelledError("stopped")

    with pytest.raises(TooLargeError, match=r"did not finish within 0.05 s; narrow"):
        time_limited(slow, 0.05, "it", "narrow it", None)
    assert len(polls) >= 2 and polls[-1] - polls[0] < 1.0
    with pytest.raises(CancelledError):
        time_limited(slow, 10.0, "it", "narrow it", lambda: True)
    with pytest.raises(CancelledError):
        outs(["9h8h", "random"], board="Th7c2h", cancel=lambda: True)
    ticks: list[float] = []
    report = outs(["9h8h", "random"], board="Th7c2h", progress=ticks.append)
    assert ticks[-1] == 1.0 and ticks == sorted(ticks)
    assert report.runouts is not None and report.runouts.total == math.comb(47, 2)


def test_ctrl_c_ends_outs_at_once() -> None:
    # About 140 s of work (three random hands on a flop) when left alone.
    process = subprocess.Popen(
        [sys.executable, "-c", MAIN, "outs", "9h8h", "random", "random", "random", "--board",
         "Th7c2h", "--time", "600"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=os.environ.copy(),
    )  # fmt: skip
    time.sleep(4)
    assert process.poll() is None, process.communicate()
    process.send_signal(signal.SIGINT)
    # Generous for a loaded machine; without chunks the kernel ignored Ctrl-C for its whole run.
    _, stderr = process.communicate(timeout=8)
    assert process.returncode == 1
    assert stderr.strip() == "error: aborted"


def _interrupted(*args: str, after: float = 4, group: bool = False) -> tuple[int, str, str]:
    """Run ``pokerlab ARGS``, press Ctrl-C once after ``after`` seconds; exit status and output.
    With ``group`` the signal goes to the whole process group, as a terminal sends it."""
    process = subprocess.Popen(
        [sys.executable, "-c", MAIN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=os.environ.copy(), start_new_session=group,
    )  # fmt: skip
    time.sleep(after)
    assert process.poll() is None, process.communicate()
    if group:
        os.killpg(process.pid, signal.SIGINT)
    else:
        process.send_signal(signal.SIGINT)
    try:
        stdout, stderr = process.communicate(timeout=15)
    except subprocess.TimeoutExpired:  # leave nothing running (a cluster holds its ports)
        if group:
            os.killpg(process.pid, signal.SIGKILL)
        else:
            process.kill()
        raise
    return process.returncode, stdout, stderr


def test_ctrl_c_is_heard_inside_a_long_monte_carlo_chunk() -> None:
    # A 5-card Omaha hand against five 15% ranges keeps 2.5 joint draws in 100,000: one chunk
    # of 16,384 deals takes about a minute, and Ctrl-C waited for the kernel to return.
    code, stdout, stderr = _interrupted(
        "equity", "--game", "omaha5", "AsAhKsKhQd", "15%", "15%", "15%", "15%", "15%", "--mc",
        "--threads", "1", "--trials", "1000000", "--json", after=6,
    )  # fmt: skip
    assert code == 130, stderr
    result = json.loads(stdout)
    assert result["stopped"] == "cancelled" and 0 < result["samples"] < CHUNK_DEALS


def test_ctrl_c_on_monte_carlo_prints_the_estimate_so_far() -> None:
    # A 0.001 % standard error takes minutes; the first Ctrl-C stops it after its chunk, and the
    # estimate of what was sampled is printed (a sampled estimate stays unbiased at any stop).
    code, stdout, stderr = _interrupted(
        "equity", "QQ+,AKs", "JJ-99", "random", "--mc", "--stderr", "0.00001", "--json"
    )
    assert code == 130, stderr
    result = json.loads(stdout)
    assert result["method"] == "monte-carlo" and result["stopped"] == "cancelled"
    assert result["samples"] > 0
    assert stderr.strip() == (
        f"interrupted: the estimate covers the {result['samples']:,} deals sampled before Ctrl-C"
    )
    players = result["players"]
    assert math.isclose(sum(p["equity"] for p in players), 1.0, rel_tol=1e-9)
    assert all(0 < p["stderr"] < 0.01 for p in players)


def test_ctrl_c_on_a_sampled_query_prints_the_estimates_so_far() -> None:
    code, stdout, stderr = _interrupted(
        "query", "select avg(riverEquity(h)) as eq from h='AhKh', v='QQ+,AKo'", "--mc",
        "--time", "inf", "--no-limit", "--json",
    )  # fmt: skip
    assert code == 130, stderr
    result = json.loads(stdout)
    assert result["method"] == "monte-carlo" and result["deals"] > 0
    assert stderr.strip() == (
        f"interrupted: the estimates cover the {result['deals']:,} deals sampled before Ctrl-C"
    )
    (eq,) = result["results"]
    assert 0.3 < eq["value"] < 0.5 and 0 < eq["stderr"] < 0.01


def test_ctrl_c_to_a_local_dask_cluster_prints_no_worker_tracebacks() -> None:
    # The terminal's Ctrl-C reaches the cluster's worker processes too; they leave it to the
    # parent, which stops them and prints its estimate.
    pytest.importorskip("distributed")
    code, stdout, stderr = _interrupted(
        "equity", "QQ+,AKs", "JJ-99", "random", "--mc", "--stderr", "0.00001", "--json",
        "--local-cluster", "2", after=10, group=True,
    )  # fmt: skip
    assert code == 130, stderr
    assert json.loads(stdout)["stopped"] == "cancelled"
    assert stderr.startswith("interrupted: the estimate covers the ") and "Traceback" not in stderr
    assert len(stderr.strip().splitlines()) == 1, stderr


def test_ctrl_c_on_a_bot_match_prints_the_results_so_far() -> None:
    # 10 s: the first 400 deals must be played (they load the draw kernels) for any answer
    code, stdout, stderr = _interrupted(
        "draw", "match", "--bots", "rules,random", "--hands", "100000000", "--json", after=10
    )
    assert code == 130, stderr
    result = json.loads(stdout)
    assert result["cancelled"] is True and 0 < result["hands"] < 100_000_000
    (match,) = result["matches"]
    assert match["wins"] + match["ties"] + match["losses"] == match["hands"] == result["hands"]
    assert stderr.strip() == (
        f"interrupted: the results cover the {result['hands']:,} deals per pair played before "
        "Ctrl-C"
    )


def test_ctrl_c_on_exact_enumeration_aborts() -> None:
    # About 340 s of one core's work: an enumeration cut short has no answer to show.
    code, stdout, stderr = _interrupted("equity", "AhAs", "random", "random", "--exact")
    assert (code, stdout, stderr.strip()) == (1, "", "error: aborted")


def test_a_second_ctrl_c_aborts_at_once() -> None:
    from pokerlab.cli.interrupts import first_interrupt_stops

    before = signal.getsignal(signal.SIGINT)
    with pytest.raises(KeyboardInterrupt), first_interrupt_stops() as stop:
        os.kill(os.getpid(), signal.SIGINT)
        deadline = time.monotonic() + 5
        while not stop.is_set() and time.monotonic() < deadline:
            time.sleep(0.01)
        assert stop.is_set()
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(5)  # the handler raises here
    assert signal.getsignal(signal.SIGINT) is before


def _running(pid: int) -> bool:
    try:  # a zombie (exited, not yet reaped) is not running
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_ctrl_c_ends_warm_and_its_worker_processes_at_once(tmp_path: Path) -> None:
    # An empty cache: compiling every kernel takes minutes; Ctrl-C goes to the whole
    # foreground group, as a terminal sends it.
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    process = subprocess.Popen(
        [sys.executable, "-c", MAIN, "warm", "--processes", "2"], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
    )  # fmt: skip
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children")
    deadline = time.monotonic() + 60
    while len(children.read_text().split()) < 2 and time.monotonic() < deadline:
        time.sleep(0.2)
    workers = [int(pid) for pid in children.read_text().split()]
    time.sleep(2)
    assert process.poll() is None, process.communicate()
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=8)
    assert process.returncode == 1
    assert stderr.strip() == "error: aborted"
    deadline = time.monotonic() + 5
    while any(map(_running, workers)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert workers and not any(map(_running, workers))


# --- 8: the repository ------------------------------------------------------------------------


def test_repository_has_its_license_and_definitions() -> None:
    license_text = (ROOT / "LICENSE").read_text()
    assert license_text.startswith("MIT License") and "the pokerlab authors" in license_text
    readme = (ROOT / "README.md").read_text()
    assert "../shared" not in readme and "(src/pokerlab/docs/definitions.md)" in readme
    definitions = (ROOT / "docs" / "definitions.md").read_text()
    for term in ("**equity**", "**win**", "**tie**", "tie equity", "8-or-better", "2-7 low"):
        assert term in definitions
    match_line = next(line for line in readme.splitlines() if "pokerlab draw match" in line)
    assert re.search(r"# ~\d+ (min|s)\b", match_line), match_line  # how long the example takes


# --- 2: first runs compile, and say so ---------------------------------------------------------


def test_a_compilation_is_announced_once(capsys: pytest.CaptureFixture[str]) -> None:
    from numba import njit
    from numba.core import event

    from pokerlab.cli import compiling

    listener = compiling.note_compiles(force=True)
    try:
        # A new function each run: never in numba's disk cache, so it always compiles.
        namespace: dict[str, object] = {}
        source = f"def fresh(x):\n    return x + {time.time_ns()}\n"
        exec(source, namespace)
        assert njit(namespace["fresh"])(1) > 1  # type: ignore[call-overload]
        assert njit(lambda x: x * 2)(3) == 6
    finally:
        event.unregister("numba:compile", listener)
        compiling._listener = None
    assert capsys.readouterr().err == compiling.NOTE + "\n"  # once, however many compiles


def test_warm_runs_every_kernel_path() -> None:
    from pokerlab.analysis.warm import warm_tasks

    labels = [label for label, _ in warm_tasks()]
    for game in ("hold'em", "Omaha", "Omaha hi/lo", "stud", "stud hi/lo", "razz"):
        assert f"{game} Monte Carlo" in labels
    assert {"hold'em outs", "Omaha outs", "draw advice", "draw bots"} <= set(labels)
    assert {"range analytics", "queries", "stud queries"} <= set(labels)
    result = run("warm")
    assert result.exit_code == 0, result.output
    assert re.fullmatch(rf"{len(labels)} kernel groups compiled and cached in [0-9.]+ s\n",
                        result.stdout)  # fmt: skip
    assert "warm" in run("--help").stdout


@pytest.mark.parametrize("bad", [0, -2, 1.5])
def test_warm_refuses_a_bad_process_count(bad: object) -> None:
    from pokerlab.analysis.warm import warm
    from pokerlab.errors import GameError

    with pytest.raises(GameError, match=r"^processes must be") as caught:
        warm(processes=bad)  # type: ignore[arg-type]
    assert caught.value.field == "processes"
    refused = run("warm", "--processes", "0")
    assert refused.exit_code == 2 and "--processes" in refused.output
