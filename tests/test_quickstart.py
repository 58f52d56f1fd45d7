"""The README's Quickstart, run as written in a fresh clone with an externally-managed (PEP 668)
Python: Debian's or Ubuntu's own ``/usr/bin/python3``, which refuses ``pip install`` outside a
virtual environment.

It installs pokerlab and its dependencies into a new virtual environment and compiles every kernel
there (two minutes or more on 2 cores), so it runs under CI (``CI=true``) or when
``POKERLAB_TEST_QUICKSTART=1``, and only on a machine whose ``/usr/bin/python3`` is externally
managed. That long part, the clone and the Quickstart command, starts when the session does (see
``pytest_collection_finish`` in conftest.py), at the lowest CPU priority so the other tests keep
the CPU they need, and the test below waits for it and checks what it did."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import signal
import subprocess
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SYSTEM_PYTHON = Path("/usr/bin/python3")


def _externally_managed(python: Path) -> bool:
    if not python.exists():
        return False
    stdlib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_path('stdlib'))"],
        capture_output=True, text=True, check=False,
    ).stdout.strip()  # fmt: skip
    return bool(stdlib) and (Path(stdlib) / "EXTERNALLY-MANAGED").exists()


def quickstart_command() -> str:
    """The first command block of the README's Quickstart section."""
    readme = (ROOT / "README.md").read_text()
    section = readme.split("## Quickstart", 1)[1].split("\n## ", 1)[0]
    match = re.search(r"```bash\n(.+?)\n```", section, re.S)
    assert match is not None, "no command block in the Quickstart"
    return match.group(1).strip()


def test_quickstart_uses_a_virtual_environment() -> None:
    command = quickstart_command()
    assert command.startswith("python3 -m venv .venv && ")
    assert "pokerlab equity AhAs KdKc" in command and "--break-system-packages" not in command
    assert sysconfig.get_path("stdlib")  # the check above reads the same path


def _skip_reason() -> str | None:
    if os.environ.get("CI") != "true" and os.environ.get("POKERLAB_TEST_QUICKSTART") != "1":
        return "installs into a fresh virtual environment: CI or POKERLAB_TEST_QUICKSTART=1 runs it"
    if not _externally_managed(SYSTEM_PYTHON):
        return "this machine has no externally-managed /usr/bin/python3"
    if shutil.which("git") is None:
        return "needs git to clone the repository"
    return None


SKIP_REASON = _skip_reason()
# `python3` is Debian's own: nothing of pyenv, of a virtual environment or of the tests' path.
_DROP = ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")  # numba caches next to the install
ENV = {k: v for k, v in os.environ.items() if k not in _DROP} | {"PATH": "/usr/bin:/bin"}


class Quickstart:
    """The clone and the Quickstart command, run in the background in ``workdir``."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.clone = workdir / "pokerlab"
        self.log = workdir / "quickstart.out", workdir / "quickstart.err"
        script = f"git clone --quiet {shlex.quote(str(ROOT))} pokerlab && cd pokerlab && "
        with open(self.log[0], "wb") as out, open(self.log[1], "wb") as err:
            self.process = subprocess.Popen(
                ["nice", "-n", "19", "bash", "-c", script + quickstart_command()], cwd=workdir,
                env=ENV, stdout=out, stderr=err, process_group=0,
            )  # fmt: skip
            # A process group of its own (to stop it whole) but not a session of its own: Linux
            # shares the CPU equally between sessions (autogroups) whatever their nice values,
            # so a new session would take half the CPU from the tests it should yield to.

    def result(self, timeout: float) -> tuple[int, str, str]:
        """Wait for the command; its exit status, stdout and stderr."""
        code = self.process.wait(timeout=timeout)
        return code, self.log[0].read_text(), self.log[1].read_text()

    def stop(self) -> None:
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


QUICKSTART = pytest.StashKey[Quickstart]()


@pytest.mark.skipif(SKIP_REASON is not None, reason=SKIP_REASON or "")
def test_quickstart_in_a_fresh_clone_with_the_system_python(request: pytest.FixtureRequest) -> None:
    quickstart = request.session.stash[QUICKSTART]  # started by conftest.py with the session
    try:
        plain = subprocess.run(
            ["bash", "-c", "python3 -m pip install ."], cwd=ROOT, env=ENV, capture_output=True,
            text=True, timeout=120,
        )  # fmt: skip
        assert plain.returncode != 0 and "externally-managed-environment" in plain.stderr
        code, stdout, stderr = quickstart.result(timeout=900)
    finally:
        quickstart.stop()
    clone = quickstart.clone
    assert code == 0, stderr[-3000:]
    assert "81.255%" in stdout and "18.745%" in stdout
    assert (clone / ".venv" / "bin" / "pokerlab").exists()
    assert re.search(r"^\d+ kernel groups compiled and cached in", stdout, re.M)
    # After the Quickstart's `pokerlab warm`, another game's first run compiles nothing.
    cached = sorted((clone / ".venv").rglob("*.nbc"))
    assert cached
    razz = subprocess.run(
        [str(clone / ".venv" / "bin" / "pokerlab"), "equity", "--game", "razz", "As2h3s4c5d",
         "QdQcJhJs9c"], cwd=clone, env=ENV, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert razz.returncode == 0, razz.stderr[-3000:]
    assert sorted((clone / ".venv").rglob("*.nbc")) == cached
