"""Assertions shared by the CLI tests (click's CliRunner results, worker processes)."""

from __future__ import annotations

from pathlib import Path

from click.testing import Result


def assert_one_line_error(result: Result, *fragments: str) -> None:
    """The command failed the pokerlab way: exit status 2, nothing on stdout, exactly one
    ``error: ...`` line on stderr containing every fragment, and no traceback."""
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def ctrl_c_blocked(pid: int) -> bool:
    """Whether process ``pid`` (Linux) blocks SIGINT in its main thread, so that a terminal's
    Ctrl-C, sent to the whole group, never reaches it (its parent stops it)."""
    status = Path(f"/proc/{pid}/status").read_text()
    blocked = next(line for line in status.splitlines() if line.startswith("SigBlk:"))
    return bool(int(blocked.split()[1], 16) & (1 << (2 - 1)))  # signal 2, bit 1
