"""Make the plain-Python oracles in tests/ importable by the test modules; start the Quickstart
test's long background part when the session starts."""

from __future__ import annotations

import shutil
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))


@pytest.fixture(scope="session")
def dask_client() -> Iterator[Any]:
    """A client of a Dask LocalCluster of 2 single-threaded worker processes (skipped without
    Dask)."""
    distributed = pytest.importorskip("distributed")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None)
    with cluster, distributed.Client(cluster) as client:
        yield client


WARM_TEST = "test_cli_newcomer.py::test_warm_runs_every_kernel_path"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the `pokerlab warm` test first: on a cold numba cache (a fresh clone, as in CI) it
    compiles every product kernel in parallel processes, and the tests after it load them
    instead of compiling each one inside the single test process."""
    items.sort(key=lambda item: not item.nodeid.endswith(WARM_TEST))


QUICKSTART_TEST = "test_quickstart.py::test_quickstart_in_a_fresh_clone_with_the_system_python"
_STARTED = pytest.StashKey[tuple[Any, Path]]()


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the README Quickstart's clone, install and warm-up in the background when its test is
    selected and will run: minutes of mostly single-process work that overlaps the rest of the
    suite instead of adding to it. The test waits for it and checks the result."""
    for item in session.items:
        module = getattr(item, "module", None)
        if item.nodeid.endswith(QUICKSTART_TEST) and module and module.SKIP_REASON is None:
            workdir = Path(tempfile.mkdtemp(prefix="pokerlab-quickstart-"))
            quickstart = module.Quickstart(workdir)
            session.stash[module.QUICKSTART] = quickstart
            session.stash[_STARTED] = quickstart, workdir


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the background Quickstart if its test did not wait for it; remove its files."""
    started = session.stash.get(_STARTED, None)
    if started is not None:
        quickstart, workdir = started
        quickstart.stop()
        shutil.rmtree(workdir, ignore_errors=True)
