"""The README's Quickstart, run as written in a fresh clone with an externally-managed (PEP 668)
Python: Debian's or Ubuntu's own ``/usr/bin/python3``, which refuses ``pip install`` outside a
virtual environment.

It installs pokerlab and its dependencies into a new virtual environment (about a minute), so it
runs under CI (``CI=true``) or when ``POKERLAB_TEST_QUICKSTART=1``, and only on a machine whose
``/usr/bin/python3`` is externally managed."""

from __future__ import annotations

import os
import re
import shutil
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


@pytest.mark.skipif(
    os.environ.get("CI") != "true" and os.environ.get("POKERLAB_TEST_QUICKSTART") != "1",
    reason="installs into a fresh virtual environment: runs under CI or POKERLAB_TEST_QUICKSTART=1",
)
@pytest.mark.skipif(
    not _externally_managed(SYSTEM_PYTHON),
    reason="this machine has no externally-managed /usr/bin/python3",
)
@pytest.mark.skipif(shutil.which("git") is None, reason="needs git to clone the repository")
def test_quickstart_in_a_fresh_clone_with_the_system_python(tmp_path: Path) -> None:
    clone = tmp_path / "pokerlab"
    subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True, timeout=120)
    # `python3` is Debian's own: nothing of pyenv, of a virtual environment or of the tests' path.
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "NUMBA_CACHE_DIR")  # numba caches next to the install
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = "/usr/bin:/bin"
    plain = subprocess.run(
        ["bash", "-c", "python3 -m pip install ."], cwd=clone, env=env, capture_output=True,
        text=True, timeout=120,
    )  # fmt: skip
    assert plain.returncode != 0 and "externally-managed-environment" in plain.stderr
    done = subprocess.run(
        ["bash", "-c", quickstart_command()], cwd=clone, env=env, capture_output=True,
        text=True, timeout=900,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    assert "81.255%" in done.stdout and "18.745%" in done.stdout
    assert (clone / ".venv" / "bin" / "pokerlab").exists()
    assert re.search(r"^\d+ kernel groups compiled and cached in", done.stdout, re.M)
    # After the Quickstart's `pokerlab warm`, another game's first run compiles nothing.
    cached = sorted((clone / ".venv").rglob("*.nbc"))
    assert cached
    razz = subprocess.run(
        [str(clone / ".venv" / "bin" / "pokerlab"), "equity", "--game", "razz", "As2h3s4c5d",
         "QdQcJhJs9c"], cwd=clone, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert razz.returncode == 0, razz.stderr[-3000:]
    assert sorted((clone / ".venv").rglob("*.nbc")) == cached
