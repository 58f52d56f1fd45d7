"""Every file a command writes is checked before it computes: a missing folder, a folder given
as the file, the batch's own spots as its results."""

from __future__ import annotations

from pathlib import Path

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


def test_stdout_is_still_a_csv_target() -> None:
    result = CliRunner().invoke(app, ["distribution", "AA", "KK", "--csv", "-"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("player,input,hand,")


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
