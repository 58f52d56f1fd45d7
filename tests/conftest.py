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
    from pokerlab.scale.backends import SCHEDULER_HTTP  # its HTTP server on a free port

    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, dashboard_address=None,
                                       scheduler_kwargs=SCHEDULER_HTTP)  # fmt: skip
    with cluster, distributed.Client(cluster) as client:
        yield client


WARM_TEST = "test_cli_newcomer.py::test_warm_runs_every_kernel_path"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Run the `pokerlab warm` test first: on a cold numba cache (a fresh clone, as in CI) it
    compiles every product kernel in parallel processes, and the tests after it load them
    instead of compiling each one inside the single test process."""
    items.sort(key=lambda item: not item.nodeid.endswith(WARM_TEST))


QUICKSTART_TEST = "test_quickstart.py::test_quickstart_in_a_fresh_clone_with_the_system_python"


def _quickstart_module(session: pytest.Session) -> Any:
    """The Quickstart test's module when that test is selected and will run, else None."""
    for item in session.items:
        module = getattr(item, "module", None)
        if item.nodeid.endswith(QUICKSTART_TEST) and module and module.SKIP_REASON is None:
            return module
    return None


def pytest_collection_finish(session: pytest.Session) -> None:
    """Start the README Quickstart's clone, install and warm-up in the background when its test is
    selected and will run: minutes of mostly single-process work that overlaps the rest of the
    suite instead of adding to it. The test waits for it and checks the result."""
    module = _quickstart_module(session)
    if module is not None:
        workdir = Path(tempfile.mkdtemp(prefix="pokerlab-quickstart-"))
        session.stash[module.QUICKSTART] = module.Quickstart(workdir)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the background Quickstart if its test did not wait for it; remove its files."""
    module = _quickstart_module(session)
    quickstart = None if module is None else session.stash.get(module.QUICKSTART, None)
    if quickstart is not None:
        quickstart.stop()
        shutil.rmtree(quickstart.workdir, ignore_errors=True)
