"""``pokerlab batch`` and :func:`pokerlab.batch`: results equal ``pokerlab equity --json`` spot by
spot, in input order, on every backend (local processes, a Dask LocalCluster); bad lines become
errors; ``--resume`` after an interruption; a worker killed mid-job; unreachable schedulers."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error, ctrl_c_blocked
from pokerlab.cli import app
from pokerlab.errors import GameError
from pokerlab.scale import FIELDS, read_jobs
from pokerlab.scale.backends import SCHEDULER_HTTP
from pokerlab.scale.jobs import jobs_from_spots, run_spot

SPOTS: list[Any] = [
    {"id": "flop", "players": ["AsKs", "QQ+,AKs"], "board": "Qh7s2s", "dead": "3c"},
    {"players": ["AK", "QQ"]},
    {"id": 7, "game": "omaha-hilo", "players": ["As2sKd3d", "AA**$ds"], "board": "Qs7d2c"},
    {"id": "stud", "game": "stud", "players": ["AsAh|Kd", "QcQd|Jh"], "method": "mc",
     "trials": 20000, "seed": 3},
    {"id": "bad-card", "players": ["AhAs", "KdKx"]},
    {"id": "bad-field", "players": ["AhAs", "KdKc"], "bord": "Qh7s2s"},
    {"id": "flop", "players": ["AhAs", "KdKc"]},
    {"id": "three-way", "players": ["AK", "QQ", "JTs"], "board": "Td9c2h"},
]  # fmt: skip
BAD_JSON = '{"id": "broken", "players": ["AhAs"'


def write_spots(path: Path, spots: list[Any] = SPOTS) -> Path:
    lines = [json.dumps(s) for s in spots]
    lines.insert(4, BAD_JSON)
    lines.insert(2, "")  # blank lines are skipped
    path.write_text("\n".join(lines) + "\n")
    return path


def without_seconds(record: dict[str, Any]) -> dict[str, Any]:
    if "result" in record:
        record = {**record, "result": {**record["result"], "seconds": None}}
    return record


def read_results(path: Path) -> list[dict[str, Any]]:
    return [without_seconds(json.loads(line)) for line in path.read_text().splitlines()]


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> list[dict[str, Any]]:
    """The results file of the local backend on two workers."""
    folder = tmp_path_factory.mktemp("reference")
    out = folder / "results.jsonl"
    result = run("batch", str(write_spots(folder / "spots.jsonl")), "-o", str(out), "--workers",
                 "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    return read_results(out)


def test_results_are_equity_json_in_input_order_with_errors(reference: list[Any]) -> None:
    ids = [r["id"] for r in reference]
    # the refused duplicate "flop" is answered by its number: no two lines share an id
    assert ids == ["flop", 2, 7, "stud", 5, "bad-card", "bad-field", 8, "three-way"]
    by_position = dict(enumerate(reference))
    for position, spot in ((0, SPOTS[0]), (1, SPOTS[1]), (2, SPOTS[2]), (3, SPOTS[3]),
                           (8, SPOTS[7])):  # fmt: skip
        kwargs = {k: v for k, v in spot.items() if k != "id"}
        want = pokerlab.equity(**kwargs).to_dict()
        assert by_position[position]["result"] == {**want, "seconds": None}
        assert by_position[position]["spot"] == kwargs
    assert "not valid JSON" in reference[4]["error"] and reference[4]["spot"] == BAD_JSON
    assert reference[5]["error"].startswith("player 2: invalid range 'KdKx'")
    assert reference[6]["error"].startswith("unknown field 'bord'")
    assert reference[7]["error"].startswith('id "flop" is used by an earlier spot')
    assert all(("result" in r) != ("error" in r) for r in reference)


def test_csv_spots_give_the_same_results(tmp_path: Path, reference: list[Any]) -> None:
    rows = [SPOTS[0], SPOTS[2], SPOTS[3], SPOTS[7]]
    lines = [",".join(FIELDS)]
    for spot in rows:
        cells = {**spot, "players": ";".join(spot["players"])}
        lines.append(",".join(f'"{cells.get(f, "")}"' for f in FIELDS))
    (tmp_path / "spots.csv").write_text("\n".join(lines) + "\n")
    jobs = read_jobs(tmp_path / "spots.csv")
    assert [j.spot for j in jobs] == [{k: v for k, v in s.items() if k != "id"} for s in rows]
    assert [j.id for j in jobs] == [str(s["id"]) for s in rows]  # CSV ids are text
    out = tmp_path / "results.jsonl"
    result = run("batch", str(tmp_path / "spots.csv"), "-o", str(out), "--workers", "1")
    assert result.exit_code == 0, result.output
    got = [r["result"] for r in read_results(out)]
    assert got == [reference[i]["result"] for i in (0, 2, 3, 8)]


def test_local_cluster_gives_the_same_file(tmp_path: Path, reference: list[Any]) -> None:
    out = tmp_path / "results.jsonl"
    result = run("batch", str(write_spots(tmp_path / "spots.jsonl")), "-o", str(out),
                 "--local-cluster", "2")  # fmt: skip
    assert result.exit_code == 0, result.output
    assert read_results(out) == reference


def test_python_api_yields_every_spot_once() -> None:
    spots = [{"players": ["AhAs", "KdKc"], "board": board} for board in ("Qh7s2s", "Jc8d3h")]
    spots.append({"players": "AhAs KdKc"})
    got = sorted(pokerlab.batch(spots, workers=1, chunk_size=1), key=lambda r: r.index)
    assert [r.index for r in got] == [0, 1, 2]
    first = got[0].result
    assert first == {**pokerlab.equity(**spots[0]).to_dict(), "seconds": first["seconds"]}
    assert got[2].error == "field 'players' must be a non-empty list of hands or ranges"


def test_worker_killed_mid_job_still_completes_the_file() -> None:
    distributed = pytest.importorskip("distributed")
    spots = [{"id": i, "players": ["AKs", "QQ"], "method": "mc", "trials": 300_000, "seed": i}
             for i in range(24)]  # fmt: skip
    local = {r.id: r.result for r in pokerlab.batch(spots, workers=2)}
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                       scheduler_kwargs=SCHEDULER_HTTP)  # fmt: skip
    with cluster, distributed.Client(cluster) as client:
        before = set(client.run(os.getpid).values())
        got = {}
        for answer in pokerlab.batch(spots, client=client, chunk_size=1):
            if not got:
                os.kill(min(before), signal.SIGKILL)  # one worker dies mid-job
            got[answer.id] = answer.result
        client.wait_for_workers(2, timeout=60)
        after = set(client.run(os.getpid).values())
    assert after != before  # the nanny replaced the killed worker
    assert got.keys() == local.keys()
    for key, result in got.items():
        assert result == {**local[key], "seconds": result["seconds"]}  # type: ignore[dict-item]


def test_resume_after_an_interrupted_run(tmp_path: Path, reference: list[Any]) -> None:
    spots = write_spots(tmp_path / "spots.jsonl")
    out = tmp_path / "results.jsonl"
    full = [json.dumps(r) for r in reference]
    out.write_text("\n".join(full[:3]) + "\n" + full[3][:40])  # a crash left half a line
    result = run("batch", str(spots), "-o", str(out), "--resume", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert "already in" in result.stderr
    assert read_results(out) == reference


def test_resume_refuses_a_broken_line_before_other_results(
    tmp_path: Path, reference: list[Any]
) -> None:
    """Only a crash's half last line is cut: a bad line with results after it used to be cut
    with every line after it, silently, and those spots computed again."""
    spots = write_spots(tmp_path / "spots.jsonl")
    out = tmp_path / "results.jsonl"
    full = [json.dumps(r) for r in reference]
    text = "\n".join([full[0], "garbage", full[1], full[2]]) + "\n"
    out.write_text(text)
    result = run("batch", str(spots), "-o", str(out), "--resume", "--workers", "1")
    assert_one_line_error(result, "line 2 is not a result line", "2 more lines follow")
    assert out.read_text() == text  # nothing cut, nothing appended
    out.write_text("\n".join([full[0], full[1], "garbage"]) + "\n")  # a bad last line: cut
    result = run("batch", str(spots), "-o", str(out), "--resume", "--workers", "1")
    assert result.exit_code == 0, result.output
    assert read_results(out) == reference


def start_slow_batch(tmp_path: Path, count: int = 40) -> tuple[subprocess.Popen[str], Path, Path]:
    """A CLI batch of ``count`` Monte Carlo spots in a subprocess, once 2 lines are written."""
    spots = [{"id": i, "players": ["AKs", "QQ"], "method": "mc", "trials": 400_000, "seed": i}
             for i in range(count)]  # fmt: skip
    path = tmp_path / "spots.jsonl"
    path.write_text("".join(json.dumps(s) + "\n" for s in spots))
    out = tmp_path / "results.jsonl"
    args = [sys.executable, "-c", "from pokerlab.cli import main; main()", "batch", str(path),
            "-o", str(out), "--workers", "1", "--chunk-size", "1"]  # fmt: skip
    process = subprocess.Popen(args, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and (not out.exists() or out.read_text().count("\n") < 2):
        time.sleep(0.05)
    return process, path, out


def resume_completes(path: Path, out: Path, count: int = 40) -> None:
    text = out.read_text()
    assert text.endswith("\n") and 2 <= text.count("\n") < count
    resumed = run("batch", str(path), "-o", str(out), "--resume", "--workers", "2")
    assert resumed.exit_code == 0, resumed.output
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["id"] for r in lines] == list(range(count))
    assert lines[-1]["result"]["samples"] == 400_000


def test_ctrl_c_leaves_whole_lines_and_resume_completes(tmp_path: Path) -> None:
    process, path, out = start_slow_batch(tmp_path)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode != 0
    assert "interrupted" in stderr and "run again with --resume" in stderr
    assert "Traceback" not in stderr
    resume_completes(path, out)


def test_a_local_worker_killed_is_one_line_and_resume_completes(tmp_path: Path) -> None:
    process, path, out = start_slow_batch(tmp_path)
    children = Path(f"/proc/{process.pid}/task/{process.pid}/children").read_text().split()
    workers = [int(c) for c in children
               if b"spawn_main" in Path(f"/proc/{c}/cmdline").read_bytes()]  # fmt: skip
    assert workers
    os.kill(workers[0], signal.SIGKILL)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode != 0
    assert stderr.splitlines()[-1].startswith("error: a worker process died")
    assert "Traceback" not in stderr
    resume_completes(path, out)


def test_unreachable_scheduler_is_one_line_within_10_s(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    (tmp_path / "r").write_text('{"id": 1}\n')
    started = time.monotonic()
    result = run("batch", str(write_spots(tmp_path / "s.jsonl")), "-o", str(tmp_path / "r"),
                 "--scheduler", "tcp://127.0.0.1:9")  # fmt: skip
    assert time.monotonic() - started < 10
    assert_one_line_error(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")
    assert (tmp_path / "r").read_text() == '{"id": 1}\n'  # earlier results are kept


def test_missing_dask_says_how_to_install(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    result = run("batch", str(write_spots(tmp_path / "s.jsonl")), "-o", str(tmp_path / "r"),
                 "--scheduler", "tcp://127.0.0.1:8786")  # fmt: skip
    assert_one_line_error(result, 'pip install "pokerlab[dask]"')


def test_csv_header_cells_are_read_stripped_and_ids_by_their_text(tmp_path: Path) -> None:
    """``id, players`` (a space after each comma, as cells may have) was refused as "unknown
    column ' players'"; a CSV id cell "1" and a later spot's default id 1 both passed, two
    lines a table of the results cannot tell apart (JSON's "1" and 1 alike)."""
    (tmp_path / "s.csv").write_text("id, players, board\n, AhAs;KdKc, Qh7s2s\n1, AsKs;QQ,\n")
    first, second = read_jobs(tmp_path / "s.csv")
    assert first.id is None and "default id 1 (the spot's number)" in str(first.error)
    assert second.id == "1" and second.error is None
    assert second.spot == {"players": ["AsKs", "QQ"]}
    named = list(jobs_from_spots([{"id": "2", "players": ["AsKs", "QQ"]},
                                  {"id": 2, "players": ["AsKs", "QQ"]}]))  # fmt: skip
    assert named[0].error is None and "used by an earlier spot" in str(named[1].error)


def test_bad_csv_header_and_option_clash_are_one_line(tmp_path: Path) -> None:
    (tmp_path / "s.csv").write_text("players,bored\nAhAs;KdKc,Qh7s2s\n")
    assert_one_line_error(run("batch", str(tmp_path / "s.csv"), "-o", str(tmp_path / "r")),
                          "unknown column 'bored'")  # fmt: skip
    spots = str(write_spots(tmp_path / "s.jsonl"))
    assert_one_line_error(run("batch", spots, "-o", "r", "--scheduler", "tcp://x:1",
                              "--local-cluster", "2"), "exclude each other")  # fmt: skip


def test_example_files_hold_the_same_spots() -> None:
    examples = Path(__file__).parent.parent / "examples"
    jsonl, table = read_jobs(examples / "spots.jsonl"), read_jobs(examples / "spots.csv")
    assert [(j.id, j.spot, j.error) for j in jsonl] == [(j.id, j.spot, j.error) for j in table]
    assert all(j.error is None for j in jsonl)  # the typo is the engine's to find


def test_tasks_grow_to_a_quarter_second_of_work_once_spots_are_timed() -> None:
    from pokerlab.scale.runner import TASK_SECONDS, TaskPace

    pace = TaskPace(count=10_000, workers=2)
    assert pace.size() == 8  # nothing timed yet
    pace.record(10, 0.005)
    assert pace.size() == round(TASK_SECONDS / 0.0005) == 500
    pace.record(10, 0.0)  # spots answered by an error cost next to nothing
    # 0.25 ms a spot now wants 1,000 spots a task, capped at 8 tasks per worker:
    assert pace.size() == 10_000 // (8 * 2) < round(TASK_SECONDS / 0.00025)
    slow = TaskPace(count=None, workers=2)
    slow.record(1, 3.0)
    assert slow.size() == 1  # a heavy spot travels alone
    assert TaskPace(count=5, workers=2).size() == 1  # fewer spots than 8 tasks per worker
    assert TaskPace(count=10_000, workers=2, fixed=3).size() == 3


def test_a_chunk_reports_the_cpu_time_its_spots_took() -> None:
    from pokerlab.scale.jobs import run_chunk

    spot = {"players": ["AhAs", "KdKc"], "board": "Qh7s2s"}
    seconds, answers = run_chunk([(4, spot), (7, {"players": ["AhAs", "AhKc"]})])
    assert [(index, error is None) for index, _, error in answers] == [(4, True), (7, False)]
    assert 0 < seconds < 60


def _lost(_: object) -> None:
    raise OSError("Timed out trying to connect to tcp://10.0.0.7:40123")


def test_a_dask_task_that_fails_outside_pokerlab_is_one_cluster_error_line() -> None:
    distributed = pytest.importorskip("distributed")
    from pokerlab.scale.backends import DaskBackend

    with distributed.Client(processes=False, n_workers=1, threads_per_worker=1,
                            dashboard_address=None) as client:  # fmt: skip
        backend = DaskBackend(client)
        with pytest.raises(pokerlab.ClusterError) as info:
            list(backend.run(iter([("t", _lost, None)])))
    assert str(info.value).startswith("the cluster failed during the run: OSError: Timed out")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        ({"method": "mc", "trials": 10**14}, "field 'trials': 100,000,000,000,000 deals"),
        ({"method": "mc", "stderr": 1e-300}, "field 'stderr': 1e-298% needs more deals than"),
        ({"method": "mc", "time_limit": 5000}, "field 'time_limit': 5000 s is more than 3600 s"),
        ({"method": "exact", "seed": 3}, "field 'seed' applies to Monte Carlo, not method"),
        ({"method": "exact", "time_limit": 9}, "field 'time_limit' applies to Monte Carlo"),
        ({"method": "bogus"}, "field 'method': unknown method 'bogus': use auto, exact or"),
    ],
)
def test_spots_keep_the_limits_of_the_equity_command(extra: dict[str, Any], message: str) -> None:
    """A spot cannot ask for what `pokerlab equity` refuses: endless Monte Carlo (these ran on
    for minutes) or options an exact run would ignore (answered as if absent)."""
    result, error = run_spot({"players": ["AhAs", "QdQc"], **extra})
    assert result is None and error is not None and error.startswith(message), error


def test_bad_lines_are_answered_and_the_rest_run(tmp_path: Path) -> None:
    """A line nested too deep for Python's json (a RecursionError that ended the whole job),
    NaN (echoed into a results file that was then not JSON), a default id taken by an earlier
    spot, and CSV rows with more cells than columns or an empty player (both silently dropped)
    or fewer cells (read as if complete: a cell left out shifted the rest) each get their own
    error; the good spots run."""
    lines = [
        '{"players":' + "[" * 3000 + "]" * 3000 + "}",
        '{"players":["AhAs","KdKc"],"seed":NaN}',
        '{"id":4,"players":["AhAs","KdKc"]}',
        '{"players":["AhAs","QdQc"]}',
    ]
    spots = tmp_path / "spots.jsonl"
    spots.write_text("\n".join(lines) + "\n")
    jobs = read_jobs(spots)
    assert [job.error for job in jobs[:2]] == [
        "not valid JSON: nested too deep",
        "not valid JSON: NaN is not a JSON value",
    ]
    assert jobs[2].error is None
    assert jobs[3].error is not None and "default id 4 (the spot's number)" in jobs[3].error
    assert jobs[3].id is None  # 4 is the other spot's
    table = tmp_path / "spots.csv"
    table.write_text(
        "id,players,board\nx,AhAs;KdKc,Jh8c2d,EXTRA\ny,AhAs;;KdKc,\nz,AhAs;KdKc,\nw,AhAs;KdKc\n"
    )
    rows = read_jobs(table)
    assert [(job.id, job.error) for job in rows] == [
        ("x", "the row has 1 more cell than the header has columns"),
        ("y", "field 'players': an empty player between ';' separators"),
        ("z", None),
        ("w", "the row has 1 fewer cell than the header has columns"),  # was read as complete
    ]
    assert rows[3].spot == {"id": "w", "players": "AhAs;KdKc"}
    out = tmp_path / "out.jsonl"
    result = CliRunner().invoke(app, ["batch", str(spots), "-o", str(out)])
    assert result.exit_code == 0, result.output
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert ["error" in a for a in answers] == [True, True, False, True]


def test_an_unreadable_id_never_takes_a_spots_id(tmp_path: Path) -> None:
    """A record whose id cannot be read took its number as id even when a spot had that id
    (a result and an error both with "id": 2, with no error saying so), and then when a later
    spot named that id, the spot was refused as a duplicate of the broken line: a line that is
    not a spot gets null wherever a spot of the file names its number."""
    lines = [
        '{"id": 2, "players": ["AhAs", "KdKc"]}',
        '{"id": null, "players": ["AhAs", "KdKc"]}',  # spot 2: its number is taken
        "not json",  # spot 3, a number the next spot names
        '{"id": 3, "players": ["AhAs", "QdQc"]}',
        '{"id": [4], "players": ["AhAs", "KdKc"]}',  # spot 5: keeps its number
        '{"players": ["AhAs", "JdJc"]}',  # default id 6, which the next spot names
        '{"id": 6, "players": ["AhAs", "TdTc"]}',  # its own id wins: the one before is refused
    ]
    spots = tmp_path / "spots.jsonl"
    spots.write_text("\n".join(lines) + "\n")
    jobs = read_jobs(spots)
    assert [job.id for job in jobs] == [2, None, None, 3, 5, None, 6]
    # JSON's spelling, as every other field's message (not Python's None)
    assert jobs[1].error == "field 'id' must be text or an integer, not null"
    assert jobs[3].error is None
    assert jobs[5].error is not None and jobs[5].error.startswith("default id 6 (the spot's")
    assert jobs[6].error is None
    out = tmp_path / "out.jsonl"
    assert CliRunner().invoke(app, ["batch", str(spots), "-o", str(out)]).exit_code == 0
    result = CliRunner().invoke(app, ["batch", str(spots), "-o", str(out), "--resume"])
    assert result.exit_code == 0 and "0 spots (0 errors, 7 already in" in result.stderr


def test_a_negative_seed_is_a_field_error_named_once() -> None:
    assert run_spot({"players": ["AhAs", "KdKc"], "seed": -1, "method": "mc"}) == (
        None,
        "field 'seed' must be a whole number, 0 or more, got -1",
    )
    assert run_spot({"players": ["AhAs", "KdKc"], "seed": -1}) == (  # auto: exact, refused too
        None,
        "field 'seed' must be a whole number, 0 or more, got -1",
    )


def test_no_two_lines_of_the_results_share_an_id(tmp_path: Path) -> None:
    """A refused duplicate kept the id it repeated, and a spot's default id (its number) took
    the id a later spot names, which was then refused: two lines of the results had "id": 1
    and --resume never ran the second spot. A refused line is answered by its number or null,
    and a spot's own 'id' wins over another's number."""
    lines = [
        '{"players": ["AhAs", "KdKc"]}',  # default id 1, which the next spot names
        '{"id": 1, "players": ["AhAs", "QdQc"]}',
        '{"id": 1, "players": ["AhAs", "JdJc"]}',  # a duplicate: answered by its number, 3
    ]
    spots = tmp_path / "spots.jsonl"
    spots.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out.jsonl"
    assert CliRunner().invoke(app, ["batch", str(spots), "-o", str(out)]).exit_code == 0
    answers = [json.loads(line) for line in out.read_text().splitlines()]
    assert [a["id"] for a in answers] == [None, 1, 3]
    assert ["result" in a for a in answers] == [False, True, False]
    jobs = list(jobs_from_spots([json.loads(line) for line in lines]))  # the Python API's
    assert [(job.id, job.error is None) for job in jobs] == [(None, False), (1, True), (3, False)]


def test_bytes_that_are_not_utf8_are_that_lines_error(tmp_path: Path) -> None:
    """One line with a byte that is not UTF-8 stopped the whole batch with "'utf-8' codec
    can't decode byte 0xff in position 45", a place in the file, not a line."""
    (tmp_path / "s.jsonl").write_bytes(
        b'{"id": "a", "players": ["AhAs", "KdKc"]}\n'
        b'{"id": "\xff", "players": ["AhAs", "KdKc"]}\n'
        b'{"id": "c", "players": ["AhAs", "QdQc"]}\n'
    )
    (tmp_path / "s.csv").write_bytes(b"id,players\na,AhAs;KdKc\nb,AhAs;Q\xffQc\nc,AhAs;QdQc\n")
    for name in ("s.jsonl", "s.csv"):
        out = tmp_path / (name + ".out")
        result = run("batch", str(tmp_path / name), "-o", str(out), "--workers", "1")
        assert result.exit_code == 0, result.output
        answers = [json.loads(line) for line in out.read_text().splitlines()]
        assert ["error" in a for a in answers] == [False, True, False]
        assert answers[1]["error"].startswith("not UTF-8 text: byte 0xff at character ")
        echoed = json.dumps(answers[1]["spot"], ensure_ascii=False)
        assert "\ufffd" in echoed  # the byte as U+FFFD


def test_csv_numbers_take_ascii_digits_only(tmp_path: Path) -> None:
    """Python's int and float read any script's digits: a CSV cell of fullwidth digits ran
    1000 deals, which ``pokerlab equity --trials`` refuses."""
    (tmp_path / "s.csv").write_text(
        "id,players,method,trials,stderr,seed\n"
        "a,AhAs;KdKc,mc,\uff11\uff10\uff10\uff10,,\n"
        "b,AhAs;KdKc,mc,,\uff10.\uff10\uff11,\n"
        "c,AhAs;KdKc,mc,1000,,\u0661\n"
    )
    errors = [job.error for job in read_jobs(tmp_path / "s.csv")]
    assert all(e is not None and e.endswith("write numbers with the digits 0-9") for e in errors)
    assert errors[0].startswith("field 'trials' must be an integer")


def test_numpy_numbers_and_tuples_are_taken_as_equity_takes_them() -> None:
    """np.int64 trials and seed stopped the whole batch with a TypeError (the check wrote its
    message with json.dumps); tuples of players were refused; a spot holding an array could
    not be written to the results file."""
    import numpy as np

    spots = [
        {"id": np.int64(3), "players": ("AhAs", "KdKc"), "method": "mc",
         "trials": np.int64(5000), "seed": np.int64(1)},
        {"id": "array", "players": ["AhAs", "KdKc"], "trials": np.array([1, 2])},
    ]  # fmt: skip
    got = sorted(pokerlab.batch(spots, workers=1), key=lambda r: r.index)
    want = pokerlab.equity(["AhAs", "KdKc"], method="mc", trials=5000, seed=1).to_dict()
    assert got[0].id == 3 and got[0].result == {**want, "seconds": got[0].result["seconds"]}
    assert got[1].error == "field 'trials' must be an integer, not \"array([1, 2])\""
    for r in got:
        json.dumps(r.to_dict(), allow_nan=False)


def test_a_file_name_is_not_taken_for_spots() -> None:
    """batch("spots.jsonl") answered each character as a spot."""
    with pytest.raises(TypeError, match="spots must be an iterable of spot dicts, not str"):
        list(pokerlab.batch("spots.jsonl", workers=1))


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("chunk_size", 0, "chunk_size must be at least 1, got 0"),
        ("chunk_size", True, "chunk_size must be a positive integer, got True"),
        ("chunk_size", 2.5, "chunk_size must be a positive integer, got 2.5"),
        ("workers", "2", "workers must be a positive integer, got '2'"),
        ("workers", 2.5, "workers must be a positive integer, got 2.5"),
        ("local_cluster", 0, "local_cluster must be at least 1, got 0"),
    ],
)
def test_a_bad_count_is_one_line_naming_it(option: str, value: object, message: str) -> None:
    """chunk_size=0 answered no spot at all, without a word; -1 or 2.5 raised islice's
    ValueError, workers=2.5 a TypeError from inside multiprocessing."""
    spots = [{"players": ["AhAs", "KdKc"]}] * 3
    with pytest.raises(GameError, match=f"^{re.escape(message)}$") as caught:
        list(pokerlab.batch(spots, **{option: value}))  # type: ignore[arg-type]
    assert caught.value.field == option


def test_a_byte_order_mark_is_skipped(tmp_path: Path) -> None:
    """Excel's "CSV UTF-8" and Notepad start a file with one: it made the first column's name
    unknown ('\\ufeffid') and the first JSON line not JSON."""
    examples = Path(__file__).parent.parent / "examples"
    for name in ("spots.jsonl", "spots.csv"):
        marked = tmp_path / name
        marked.write_bytes(b"\xef\xbb\xbf" + (examples / name).read_bytes())
        plain, read = read_jobs(examples / name), read_jobs(marked)
        assert [(j.id, j.spot, j.error) for j in read] == [(j.id, j.spot, j.error) for j in plain]


def test_an_interrupt_before_results_is_emptied_does_not_advise_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RESULTS held another batch's answers; a Ctrl-C while the backend started said "run again
    with --resume", which then kept that batch's answers for this one's ids."""
    from pokerlab.cli import batch_cmd

    def interrupted(**_: object) -> None:
        raise KeyboardInterrupt

    results = tmp_path / "r.jsonl"
    results.write_text('{"id": 1, "spot": {}, "result": {}}\n')
    monkeypatch.setattr(batch_cmd, "make_backend", interrupted)
    result = run("batch", str(write_spots(tmp_path / "s.jsonl")), "-o", str(results))
    assert result.exit_code == 1 and result.stderr.startswith("error: interrupted before any")
    assert "--resume" not in result.output and "unchanged" in result.output
    assert results.read_text() == '{"id": 1, "spot": {}, "result": {}}\n'


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("batch", "--local-cluster", "1", "--workers", "2"), "--workers sets the local"),
        (("batch", "--local-cluster", "1", "--backend", "local"), "--backend local runs here"),
        (("batch", "--workers", "100000000000000000000"), "1<=x<=1024"),
        (("batch", "--chunk-size", "100000000000000000000"), "--chunk-size"),
        (("matrix", "--local-cluster", "1", "--workers", "2"), "--workers sets the local"),
        (("equity", "--scheduler", "tcp://127.0.0.1:1", "--threads", "2"), "--threads sets"),
    ],
)
def test_options_a_cluster_would_ignore_are_refused(
    tmp_path: Path, args: tuple[str, ...], fragment: str
) -> None:
    command, *options = args
    if command == "batch":
        operands = [str(write_spots(tmp_path / "s.jsonl")), "-o", str(tmp_path / "r")]
    elif command == "matrix":
        operands = ["-o", str(tmp_path / "m.csv")]
    else:
        operands = ["AhKh", "QQ"]
    assert_one_line_error(run(command, *operands, *options), fragment)


def test_equity_checks_its_input_before_it_reaches_for_a_cluster() -> None:
    """A bad card waited 5 s for an unreachable scheduler, then was never mentioned."""
    started = time.monotonic()
    result = run("equity", "AhKh", "Qx", "--scheduler", "tcp://127.0.0.1:1")
    assert time.monotonic() - started < 3
    assert_one_line_error(result, "invalid range 'Qx'")


def test_a_server_that_is_no_scheduler_is_one_line_within_seconds() -> None:
    """A port that accepts the connection and says nothing (a dashboard, a web server) kept
    the command waiting with no end in sight."""
    import socket

    from pokerlab.scale.backends import CONNECT_TIMEOUT

    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(4)
        port = silent.getsockname()[1]
        started = time.monotonic()
        result = run("equity", "AhKh", "QQ", "--scheduler", f"tcp://127.0.0.1:{port}")
        assert time.monotonic() - started < CONNECT_TIMEOUT + 10
    assert_one_line_error(result, "no answer as a Dask scheduler within")


CTRL_C_DURING_START = """
import os, signal, sys, time
import distributed
from pokerlab.scale import backends

real = distributed.LocalCluster

def pressed_during_start(*args, **kwargs):
    cluster = real(*args, **kwargs)  # the workers stand: a terminal's Ctrl-C reaches them too
    os.killpg(0, signal.SIGINT)
    time.sleep(0.5)
    return cluster

distributed.LocalCluster = pressed_during_start
try:
    backends.dask_client(local_cluster=1)
except KeyboardInterrupt:
    print("heard", flush=True)
    time.sleep(1.5)  # a worker that heard it would print its traceback by now
    sys.exit(7)
print("lost")
"""


def test_ctrl_c_while_a_local_cluster_starts_is_heard_and_only_by_the_parent() -> None:
    """Ctrl-C was ignored while a LocalCluster started (so that its workers printed no
    tracebacks), and a batch interrupted then ran to its end."""
    pytest.importorskip("distributed")
    process = subprocess.run([sys.executable, "-c", CTRL_C_DURING_START], capture_output=True,
                             text=True, timeout=120, start_new_session=True)  # fmt: skip
    assert (process.returncode, process.stdout) == (7, "heard\n"), process.stderr
    assert "Traceback" not in process.stderr and "KeyboardInterrupt" not in process.stderr


def test_local_workers_never_hear_ctrl_c() -> None:
    """They ignored it once started; one still importing heard it and printed a traceback."""
    from pokerlab.scale.backends import LocalBackend

    with LocalBackend(workers=2) as backend:
        assert sorted(value for _, value in backend.run((i, abs, -i) for i in range(8))) == [
            *range(8)
        ]
        pids = backend.pids()
        assert pids and all(ctrl_c_blocked(pid) for pid in pids)


def test_results_lines_are_strict_json_when_a_spot_holds_no_json_number(tmp_path: Path) -> None:
    """1e400 (read as inf) and CSV cells 'nan'/'inf' were echoed as Infinity and NaN."""
    (tmp_path / "s.jsonl").write_text(
        '{"id": "inf", "players": ["AhAs", "KdKc"], "method": "mc", "stderr": 1e400}\n'
        + '{"id": "big", "players": ["AhAs", "KdKc"], "trials": '
        + "9" * 5000
        + "}\n"
    )
    (tmp_path / "s.csv").write_text("id,players,stderr,time_limit\n1,AA;KK,nan,\n2,AA;KK,,inf\n")
    errors = []
    for name in ("s.jsonl", "s.csv"):
        result = run("batch", str(tmp_path / name), "-o", str(tmp_path / "r"), "--workers", "1")
        assert result.exit_code == 0, result.output
        for line in (tmp_path / "r").read_text().splitlines():
            errors.append(json.loads(line, parse_constant=_refuse_constant)["error"])
    assert errors == [
        "field 'stderr' must be a number > 0, not \"1e400\"",  # as written, not "inf"
        "not valid JSON: a whole number of more than 4,300 digits",
        "field 'stderr' must be a number > 0, not \"nan\"",
        "field 'time_limit' must be a number > 0, not \"inf\"",
    ]


def _refuse_constant(name: str) -> None:
    raise AssertionError(f"{name} in a results line")


@pytest.mark.parametrize(
    ("csv_text", "fragment"),
    [
        ("players,players\nAA;KK,QQ;JJ\n", "column 'players' appears twice"),
        ('id,players\n1,"AA;KK\n2,QQ;JJ\n', "record 1 is not CSV"),
    ],
)
def test_csv_that_would_lose_cells_is_refused(tmp_path: Path, csv_text: str, fragment: str) -> None:
    """A repeated column kept only the last one's cells (QQ vs JJ answered for AA vs KK); an
    open quote made the rest of the file one cell."""
    (tmp_path / "s.csv").write_text(csv_text)
    result = run("batch", str(tmp_path / "s.csv"), "-o", str(tmp_path / "r"))
    assert result.exit_code == 2 and fragment in result.stderr, result.output
    assert "Traceback" not in result.output


def test_a_null_field_counts_as_not_given() -> None:
    """As the README says (the web API refuses null for its text fields instead)."""
    optional = [name for name in FIELDS if name not in ("id", "players")]
    spot: dict[str, Any] = {"players": ["AhAs", "KdKc"], **dict.fromkeys(optional)}
    result, error = run_spot(spot)
    assert error is None and result is not None
    assert result == {**pokerlab.equity(["AhAs", "KdKc"]).to_dict(), "seconds": result["seconds"]}
