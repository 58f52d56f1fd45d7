"""Every file a command writes is checked before it computes: a missing folder, a file where a
folder should be, a folder or file the system refuses, a folder given as the file, the batch's
own spots as its results."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from cli_helpers import assert_one_line_error
from pokerlab.cli import app

QUERY = "select avg(riverEquity(h)) as eq from h='AhKh', v='QQ+'"


def commands(target: str) -> list[tuple[list[str], str]]:
    """(arguments, the option named in the error) of every option that names a file to write."""
    return [
        (["draw", "match", "--hands", "100", "--plot", target], "--plot"),
        (["distribution", "AA", "KK", "--plot", target], "--plot"),
        (["distribution", "AA", "KK", "--csv", target], "--csv"),
        (["query", QUERY, "--plot", target], "--plot"),
        (["matrix", "--classes", "AA,KK", "-o", target], "--output"),
        (["matrix", "--classes", "AA,KK", "-o", "x.csv", "--png", target], "--png"),
        (["flops", "AhKh", "QQ", "-o", target], "--output"),
        (["flops", "AhKh", "QQ", "-o", "x.csv", "--png", target], "--png"),
    ]


WORK = [
    "pokerlab.cli.draw_cmd.round_robin",
    "pokerlab.cli.distribution_cmd.equity_distribution",
    "pokerlab.cli.query_cmd.query",
    "pokerlab.cli.matrix_cmd.preflop_matrix",
    "pokerlab.cli.flops_cmd.flop_report",
    "pokerlab.cli.batch_cmd.run_jobs",
]
"""The computation of every command that writes files."""


@pytest.fixture
def no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any computation fails the test: the output paths must be refused before it starts."""

    def computed(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the work started before the output paths were checked")

    for name in WORK:
        monkeypatch.setattr(name, computed)


def refusing_folder() -> Path:
    """A folder that exists but takes no new file, even for root (sysfs)."""
    folder = Path("/sys")
    if not folder.is_dir():
        pytest.skip("needs /sys")
    try:
        (folder / "pokerlab-probe").touch()
    except OSError:
        return folder
    pytest.skip("/sys takes new files here")


@pytest.mark.parametrize("index", range(len(commands(""))))
def test_a_missing_folder_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: int
) -> None:
    monkeypatch.chdir(tmp_path)  # where "x.csv" would go
    missing = tmp_path / "no such folder" / "out.png"
    args, option = commands(str(missing))[index]
    result = CliRunner().invoke(app, args)
    assert_one_line_error(result, option, "folder does not exist")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("index", range(len(commands(""))))
def test_a_file_where_the_folder_should_be_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_work: None, index: int
) -> None:
    """``afile/out.png`` said "the folder afile does not exist" while afile is a file."""
    monkeypatch.chdir(tmp_path)
    Path("afile").write_text("kept\n")
    for target in ["afile/out.png", "afile/deeper/out.png"]:
        args, option = commands(target)[index]
        assert_one_line_error(CliRunner().invoke(app, args), option, "afile is not a folder")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]
    assert Path("afile").read_text() == "kept\n"


@pytest.mark.parametrize("index", range(len(commands(""))))
def test_a_folder_the_system_refuses_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_work: None, index: int
) -> None:
    """An existing folder that takes no file (/sys) failed only after the whole work, which a
    report may take half an hour for."""
    monkeypatch.chdir(tmp_path)
    target = refusing_folder() / "out.png"
    args, option = commands(str(target))[index]
    assert_one_line_error(CliRunner().invoke(app, args), option, f"cannot write {target}")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only file")
@pytest.mark.parametrize("index", range(len(commands(""))))
def test_an_existing_file_the_system_refuses_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_work: None, index: int
) -> None:
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "out.png"
    target.write_text("kept\n")
    target.chmod(0o444)
    args, option = commands(str(target))[index]
    assert_one_line_error(CliRunner().invoke(app, args), option, "Permission denied")
    assert target.read_text() == "kept\n"


@pytest.mark.parametrize("index", range(len(commands(""))))
def test_the_check_leaves_no_file_and_truncates_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_work: None, index: int
) -> None:
    """The check creates a new file and removes it, and only opens an existing one: a
    command that then fails (here: as its work starts, or the query for another reason)
    leaves the folder as it was."""
    monkeypatch.chdir(tmp_path)
    Path("earlier.png").write_text("an earlier report\n")
    for target in [tmp_path / "new.png", tmp_path / "earlier.png"]:
        args, _ = commands(str(target))[index]
        result = CliRunner().invoke(app, args)
        assert isinstance(result.exception, AssertionError) or result.exit_code == 2
    assert sorted(p.name for p in tmp_path.iterdir()) == ["earlier.png"]
    assert Path("earlier.png").read_text() == "an earlier report\n"


def test_batch_output_checks(tmp_path: Path) -> None:
    spots = tmp_path / "spots.jsonl"
    spots.write_text('{"players": ["AhAs", "KdKc"]}\n')
    missing = tmp_path / "nope" / "results.jsonl"
    runner = CliRunner()
    assert_one_line_error(runner.invoke(app, ["batch", str(spots), "-o", str(missing)]),
                          "does not exist")  # fmt: skip
    assert_one_line_error(runner.invoke(app, ["batch", str(spots), "-o", str(tmp_path)]),
                          "is a directory")  # fmt: skip
    same = tmp_path / "." / "spots.jsonl"
    assert_one_line_error(runner.invoke(app, ["batch", str(spots), "-o", str(same)]),
                          "would overwrite the spots")  # fmt: skip
    assert spots.read_text() == '{"players": ["AhAs", "KdKc"]}\n'
    assert_one_line_error(runner.invoke(app, ["batch", str(spots), "-o", f"{spots}/r.jsonl"]),
                          "is not a folder")  # fmt: skip


SPOTS = [["AhAs", "KdKc"], ["AK", "QQ"], ["AhKh", "QQ"], ["JTs", "22"], ["AA", "KK"]]


def batch_spots(folder: Path) -> Path:
    """Five quick spots, ids 0 to 4."""
    spots = folder / "spots.jsonl"
    lines = [json.dumps({"id": k, "players": players}) for k, players in enumerate(SPOTS)]
    spots.write_text("\n".join(lines) + "\n")
    return spots


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_batch_to_a_full_disk_is_one_line(tmp_path: Path) -> None:
    """It wrote its results without catching OSError: a traceback, exit status 1."""
    result = CliRunner().invoke(
        app, ["batch", str(batch_spots(tmp_path)), "-o", "/dev/full", "--workers", "1"]
    )
    assert_one_line_error(result, "cannot write /dev/full: No space left on device")


def test_batch_failing_mid_run_is_one_line_and_resume_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills up after two results, halfway through the third line: one line saying
    how far the batch got, and --resume drops the half line and completes the file."""
    from pokerlab.cli import batch_cmd

    spots, out = batch_spots(tmp_path), tmp_path / "results.jsonl"
    write = batch_cmd._Interrupts.write
    lines = []

    def filling(self: Any, stream: Any, line: str) -> None:
        lines.append(line)
        if len(lines) == 3:
            stream.write(line[:10])
            stream.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        write(self, stream, line)

    monkeypatch.setattr(batch_cmd._Interrupts, "write", filling)
    runner = CliRunner()
    result = runner.invoke(app, ["batch", str(spots), "-o", str(out), "--workers", "1"])
    assert_one_line_error(
        result,
        "cannot write ",
        "No space left on device",
        "2 of 5 spots written",
        "run again with --resume",
    )
    monkeypatch.setattr(batch_cmd._Interrupts, "write", write)
    resumed = runner.invoke(app, ["batch", str(spots), "-o", str(out), "--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert [json.loads(line)["id"] for line in out.read_text().splitlines()] == [0, 1, 2, 3, 4]


def test_batch_to_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``-o -`` wrote a file named ``-``: the results are standard output's JSON lines, and
    --resume, which reads back what it wrote, is refused with it."""
    monkeypatch.chdir(tmp_path)
    spots = batch_spots(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, ["batch", str(spots), "-o", "-", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert [json.loads(line)["id"] for line in result.stdout.splitlines()] == [0, 1, 2, 3, 4]
    assert "-> standard output" in result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spots.jsonl"]
    refused = runner.invoke(app, ["batch", str(spots), "-o", "-", "--resume"])
    assert_one_line_error(refused, "--resume", "standard output")


def test_batch_refuses_a_folder_the_system_refuses(tmp_path: Path, no_work: None) -> None:
    """/sys (PermissionError) and /proc (FileNotFoundError) ended in a traceback, exit 1."""
    spots = tmp_path / "spots.jsonl"
    spots.write_text('{"players": ["AhAs", "KdKc"]}\n')
    for target in [refusing_folder() / "x.jsonl", Path("/proc/x.jsonl")]:
        result = CliRunner().invoke(app, ["batch", str(spots), "-o", str(target)])
        assert_one_line_error(result, "--output", f"cannot write {target}")


def test_stdout_is_still_a_csv_target() -> None:
    result = CliRunner().invoke(app, ["distribution", "AA", "KK", "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("player,input,hand,")


@pytest.mark.parametrize(
    "args", [["flops", "AhKh", "QQ"], ["matrix", "--classes", "AA,KK"]], ids=["flops", "matrix"]
)
def test_dash_is_stdout_for_every_text_output(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]
) -> None:
    """``-o -`` wrote a file named ``-``; it is standard output, with the file's rows."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    result = runner.invoke(app, [*args, "-o", "-"])
    assert result.exit_code == 0, result.output
    assert sorted(tmp_path.iterdir()) == []
    assert "-> standard output" in result.stderr
    assert runner.invoke(app, [*args, "-o", "file.csv"]).exit_code == 0
    assert result.stdout.splitlines() == Path("file.csv").read_text().splitlines()
    refused = runner.invoke(app, [*args, "-o", "-", "--json"])
    assert_one_line_error(refused, "--json and -o - both write to stdout")


@pytest.mark.parametrize(
    "index", [k for k, (_, option) in enumerate(commands("")) if option in ("--plot", "--png")]
)
def test_a_chart_is_refused_on_stdout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, no_work: None, index: int
) -> None:
    """A PNG to ``-`` got a file named ``-`` refused for its suffix; PNG bytes are no use on a
    terminal or in a text pipe, so ``-`` is refused as such."""
    monkeypatch.chdir(tmp_path)
    args, option = commands("-")[index]
    result = CliRunner().invoke(app, args)
    assert_one_line_error(result, option, "a PNG chart cannot go to standard output")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["chart.svg", "chart"])
@pytest.mark.parametrize(
    "index", [k for k, (_, option) in enumerate(commands("")) if option in ("--plot", "--png")]
)
def test_a_chart_not_named_png_is_refused_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, index: int, name: str
) -> None:
    """The charts are PNG: ``.svg`` got PNG bytes or a matplotlib traceback after the work, and
    a name without a suffix got ``.png`` appended."""
    monkeypatch.chdir(tmp_path)
    args, option = commands(str(tmp_path / name))[index]
    assert_one_line_error(CliRunner().invoke(app, args), option, "does not end in .png")
    assert sorted(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize(
    "index", [k for k, (_, option) in enumerate(commands("")) if option in ("--output", "--csv")]
)
def test_a_file_that_cannot_be_written_is_one_line_naming_it(index: int) -> None:
    """A full disk (or a file under /proc) failed with a traceback after the whole work."""
    args, _ = commands("/dev/full")[index]
    assert_one_line_error(CliRunner().invoke(app, args), "cannot write /dev/full", "No space left")


def test_a_class_listed_twice_is_refused() -> None:
    result = CliRunner().invoke(app, ["matrix", "--classes", "AA,KK,AA", "-o", "x.csv"])
    assert_one_line_error(result, "the hand class 'AA' is listed twice")


STDOUT_COMMANDS = [
    ["equity", "AhAs", "KdKc"],
    ["equity", "AhAs", "KdKc", "--json"],
    ["range", "QQ+,AK"],
    ["eval", "Kh", "Kd", "Ks", "4c", "4d", "2s", "7h"],
    ["outs", "9h8h", "AsKd", "--board", "Th7c2hKs"],
    ["hits", "QQ+,AKs", "--board", "Ks9s2d"],
    ["draw", "advise", "Jh Jd 7c 4s 2h"],
    ["--help"],
    ["draw"],  # a bare group prints its help, outside click's own handlers
    ["distribution", "AA", "KK", "--csv", "-"],
]
"""Commands that print their answer, as a rich table, JSON, help or CSV (which waits in the
buffer until Python exits)."""

SRC = Path(__file__).resolve().parents[1] / "src"


def pokerlab(
    args: list[str], stdout: Any, buffered: bool = True, closed: bool = False
) -> subprocess.CompletedProcess[str]:
    """``python -m pokerlab ARGS`` in a process of its own, with ``stdout`` as its standard
    output, or none at all when ``closed`` (a shell's ``>&-``): block-buffered as a file or pipe
    is (what is left goes out as Python exits), or unbuffered (each write fails where it
    happens)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    env["PYTHONPATH"] = os.pathsep.join([str(SRC), env.get("PYTHONPATH", "")])
    if not buffered:
        env["PYTHONUNBUFFERED"] = "1"
    command = [sys.executable, "-m", "pokerlab", *args]
    if closed:
        command = ["sh", "-c", 'exec "$@" >&-', "sh", *command]
    return subprocess.run(command, stdout=stdout, stderr=subprocess.PIPE, text=True, env=env,
                          timeout=300)  # fmt: skip


def assert_one_stdout_error(process: subprocess.CompletedProcess[str], reason: str) -> None:
    assert process.returncode == 2, process.stderr
    assert process.stderr == f"error: cannot write to standard output: {reason}\n"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", STDOUT_COMMANDS, ids=" ".join)
def test_a_full_stdout_is_one_line(args: list[str], buffered: bool) -> None:
    """A full disk gave a 39-line traceback from inside rich (or click), exit status 1; or,
    where the answer waited in the buffer, "Exception ignored ..." as Python exited, and 120."""
    with open("/dev/full", "w") as full:
        assert_one_stdout_error(pokerlab(args, full, buffered), "No space left on device")


@pytest.mark.parametrize("args", STDOUT_COMMANDS[:3], ids=" ".join)
def test_a_closed_stdout_is_one_line(args: list[str]) -> None:
    """``>&-`` left Python no sys.stdout, and the answer was dropped with exit status 0."""
    assert_one_stdout_error(pokerlab(args, None, closed=True), "it is closed")


def test_a_command_that_prints_nothing_runs_with_stdout_closed(tmp_path: Path) -> None:
    """Only a write fails: a report to a file needs no stdout."""
    out = tmp_path / "f.csv"
    process = pokerlab(["flops", "AhKh", "QQ", "-o", str(out)], None, closed=True)
    assert process.returncode == 0, process.stderr
    assert out.read_text().startswith("flop,flops,")


@pytest.mark.parametrize("buffered", [True, False], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("args", [*STDOUT_COMMANDS[:2], STDOUT_COMMANDS[-1]], ids=" ".join)
def test_a_broken_pipe_stays_quiet(args: list[str], buffered: bool) -> None:
    """A reader gone (``| head``) ends quietly with status 1, as click ends it; met in Python's
    own flush at exit it printed "Exception ignored ... BrokenPipeError" and status 120."""
    read, write = os.pipe()
    os.close(read)
    try:
        process = pokerlab(args, write, buffered)
    finally:
        os.close(write)
    assert (process.returncode, process.stderr) == (1, "")
