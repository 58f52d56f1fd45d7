"""Make the plain-Python oracles in tests/ importable by the test modules."""

from __future__ import annotations

import sys
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
