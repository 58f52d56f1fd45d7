"""Assertions shared by the CLI tests (click's CliRunner results)."""

from __future__ import annotations

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
