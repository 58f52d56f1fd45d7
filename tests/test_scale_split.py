"""One job over many machines: ``pokerlab.equity(..., client=...)`` runs the engine's chunks on
the workers of a Dask client (or a process pool) and merges them here in chunk order, so exact
runs and seeded Monte Carlo runs stopped by trials or stderr give the bits of the run without a
client; ``pokerlab equity --scheduler / --local-cluster`` on the command line."""

from __future__ import annotations

import json
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cli import app
from pokerlab.engine import _parallel, montecarlo
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.scale import distributed_equity

EXACT_SPOTS = [
    # (players, board, game, the strategy that runs)
    (["QQ+,AKs", "22+,ATs+"], "", "holdem", "preflop-table"),
    (["AhKh:0.5,QQ", "JJ-99:0.7,AQs", "random"], "Jc9h2dKs", "holdem", "board-runouts"),
    (["AK", "QQ", "JJ"], "", "holdem", "preflop-matchups"),
    (["As2sKd3d", "AA**$ds@50,KK**"], "Qs7d2c", "omaha-hilo", "game-boards"),
    (["AsKsQsJs[9-]c", "2h3h4h5h7d"], "", "stud", "stud-sweep"),
    (["As2d3h9c4d*", "KdKc7s5h5c6d", "8d8c9d9hTsJs"], "", "stud-hilo", "stud-deals"),
]  # fmt: skip
MC_SPOTS = [
    (["AhKh", "QQ+,AK:0.3", "JTs"], "Td9c2h", "holdem"),
    (["AsAhKsKh", "JdTd9c8c", "random"], "", "omaha-hilo"),
    (["AsAh|Kd", "QcQd|Jh"], "", "stud"),
]


@pytest.fixture(scope="module")
def threads_client() -> Iterator[Any]:
    """An in-process Dask client (one worker of 2 threads): cheap, and it sees this process's
    monkeypatched chunk sizes."""
    distributed = pytest.importorskip("distributed")
    with distributed.Client(processes=False, n_workers=1, threads_per_worker=2,
                            dashboard_address=None) as client:  # fmt: skip
        yield client


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many chunks (and tasks) even for small spots."""
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)
    monkeypatch.setattr(montecarlo, "CHUNK_DEALS", 1000)


def same(a: pokerlab.EquityResult, b: pokerlab.EquityResult) -> None:
    assert np.array_equal(a.counts, b.counts)
    assert (a.samples, a.stopped, a.method) == (b.samples, b.stopped, b.method)
    assert a.to_dict() == {**b.to_dict(), "seconds": a.seconds}


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize(("players", "board", "game", "strategy"), EXACT_SPOTS)
def test_exact_with_a_client_is_bit_identical(
    threads_client: Any, players: list[str], board: str, game: str, strategy: str
) -> None:
    chosen = exact_strategy(prepare(players, board=board, game=game))
    assert chosen is not None and chosen.name == strategy
    one = pokerlab.equity(players, board=board, game=game, method="exact", threads=1)
    split = pokerlab.equity(players, board=board, game=game, method="exact",
                            client=threads_client)  # fmt: skip
    same(split, one)


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize(("players", "board", "game"), MC_SPOTS)
def test_seeded_monte_carlo_with_a_client_is_bit_identical(
    threads_client: Any, players: list[str], board: str, game: str
) -> None:
    kwargs: dict[str, Any] = dict(board=board, game=game, method="mc", seed=11)
    trials = pokerlab.equity(players, trials=25_500, threads=2, **kwargs)
    assert trials.samples == 25_500 and trials.stopped == "trials"
    same(pokerlab.equity(players, trials=25_500, client=threads_client, **kwargs), trials)
    here: list[Any] = []
    there: list[Any] = []
    target = dict(stderr=0.003, **kwargs)
    by_stderr = pokerlab.equity(players, threads=1, partial=lambda *a: here.append(a), **target)
    split = pokerlab.equity(players, client=threads_client,
                            partial=lambda *a: there.append(a), **target)  # fmt: skip
    assert by_stderr.stopped == "stderr" and len(here) > 3  # checked chunk by chunk
    same(split, by_stderr)
    assert there == here  # the same running estimates after every chunk
    other = pokerlab.equity(players, trials=25_500, client=threads_client, **{**kwargs, "seed": 12})
    assert not np.array_equal(other.counts, trials.counts)  # the seed reaches the workers


def test_time_limit_and_cancel_with_a_client(threads_client: Any) -> None:
    players = ["AhKh", "QQ+,AK"]
    timed = pokerlab.equity(players, method="mc", time_limit=0.3, stderr=1e-6,
                            client=threads_client)  # fmt: skip
    assert timed.stopped == "time" and timed.samples > 0  # best effort: chunks merged by then
    stop = threading.Event()
    stop.set()
    cancelled = pokerlab.equity(players, method="mc", stderr=1e-6, cancel=stop,
                                client=threads_client)  # fmt: skip
    assert cancelled.stopped == "cancelled"
    with pytest.raises(pokerlab.CancelledError):
        pokerlab.equity(["AK", "QQ", "JJ"], method="exact", cancel=stop, client=threads_client)


def test_a_client_must_submit() -> None:
    with pytest.raises(pokerlab.GameError, match="client must be a dask"):
        pokerlab.equity(["AhAs", "KdKc"], client="tcp://127.0.0.1:8786")


def test_the_exact_size_limit_counts_the_clusters_workers(monkeypatch: pytest.MonkeyPatch) -> None:
    from concurrent.futures import ThreadPoolExecutor

    from pokerlab.engine import api

    spot = dict(players=["AhKh", "QQ+"], board="Qh7c2d", method="exact")
    estimate = exact_strategy(prepare(spot["players"], spot["board"], "", "holdem")).estimate(
        prepare(spot["players"], spot["board"], "", "holdem")
    )
    alone = pokerlab.equity(**spot).players
    monkeypatch.setattr(api, "MAX_EXACT_SECONDS", estimate / 3)  # too large for one core
    with pytest.raises(pokerlab.TooLargeError, match="too large"):
        pokerlab.equity(**spot)
    with (
        ThreadPoolExecutor(max_workers=2) as two,
        pytest.raises(pokerlab.TooLargeError, match=r"s on 2 workers"),
    ):
        pokerlab.equity(**spot, client=two)
    with ThreadPoolExecutor(max_workers=4) as four:  # a quarter each: within the limit
        assert pokerlab.equity(**spot, client=four).players == alone


class LosingWorkers:
    """A client whose workers are lost: every task's result raises what Dask would."""

    def submit(self, *args: Any) -> Any:
        from concurrent.futures import Future

        future: Future[Any] = Future()
        future.set_exception(OSError("Timed out trying to connect to tcp://10.0.0.7:40123"))
        return future


def test_a_cluster_lost_mid_run_is_one_cluster_error_line() -> None:
    with pytest.raises(pokerlab.ClusterError) as info:
        pokerlab.equity(["AhKh", "QQ+,AK"], method="mc", trials=10**6, seed=1,
                        client=LosingWorkers())  # fmt: skip
    message = str(info.value)
    assert message.startswith("the cluster failed during the run: OSError: Timed out")
    assert "\n" not in message


def test_worker_processes_give_the_same_bits(dask_client: Any) -> None:
    """Real workers (processes of a LocalCluster, and a local process pool): the Work travels
    pickled, and the workers' chunks are the ones built here."""
    players, board = ["AhKh:0.5,QQ", "JJ-99,AQs", "JTs"], "Td9c2h"
    one = pokerlab.equity(players, board=board, method="exact")
    same(pokerlab.equity(players, board=board, method="exact", client=dask_client), one)
    mc: dict[str, Any] = dict(board=board, method="mc", trials=150_000, seed=5)
    local = pokerlab.equity(players, **mc)
    same(pokerlab.equity(players, client=dask_client, **mc), local)
    same(distributed_equity(players, workers=1, **mc), local)


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_equity_cli_on_a_local_cluster() -> None:
    pytest.importorskip("distributed")
    args = ["equity", "AhKh", "QQ+,AK", "JTs", "--board", "Td9c2h", "--json"]
    result = run(*args, "--mc", "--trials", "70000", "--seed", "3", "--local-cluster", "1")
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    want = pokerlab.equity(["AhKh", "QQ+,AK", "JTs"], board="Td9c2h", method="mc",
                           trials=70_000, seed=3).to_dict()  # fmt: skip
    assert got == {**want, "seconds": got["seconds"]}


def test_equity_cli_with_a_scheduler(dask_client: Any) -> None:
    args = ["equity", "AhKh", "QQ+,AK", "JTs", "--board", "Td9c2h", "--json"]
    result = run(*args, "--scheduler", dask_client.scheduler.address)
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    want = pokerlab.equity(["AhKh", "QQ+,AK", "JTs"], board="Td9c2h").to_dict()
    assert got == {**want, "seconds": got["seconds"]}


def test_equity_cli_unreachable_scheduler_is_one_line_within_10_s() -> None:
    pytest.importorskip("distributed")
    started = time.monotonic()
    result = run("equity", "AhKh", "QQ", "--scheduler", "tcp://127.0.0.1:9")
    assert time.monotonic() - started < 10
    assert_one_line_error(result, "cannot reach the Dask scheduler at tcp://127.0.0.1:9")


def test_a_scheduler_port_out_of_range_is_refused_at_once() -> None:
    """``tcp://127.0.0.1:99999`` waited the whole connect timeout and said "Timed out"; the
    address is now read before any connection is tried."""
    pytest.importorskip("distributed")
    result = run("equity", "AhKh", "QQ", "--scheduler", "tcp://127.0.0.1:99999")
    assert_one_line_error(result, "its port is not one of 1 to 65535")


def test_equity_cli_without_dask_or_with_both_options(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["equity", "AhKh", "QQ"]
    assert_one_line_error(run(*args, "--scheduler", "tcp://x:1", "--local-cluster", "2"),
                          "exclude each other")  # fmt: skip
    monkeypatch.setitem(sys.modules, "distributed", None)
    assert_one_line_error(run(*args, "--local-cluster", "1"), 'pip install "pokerlab[dask]"')
    assert_one_line_error(run(*args, "--scheduler", "tcp://127.0.0.1:8786"), "pokerlab[dask]")


def test_a_local_cluster_leaves_this_processs_environment_alone() -> None:
    """Dask's nannies set OMP_NUM_THREADS=1, MALLOC_TRIM_THRESHOLD_ and more in the process
    that starts them; every process it started afterwards would inherit them."""
    import os

    from pokerlab.scale import DaskBackend, dask_client

    before = dict(os.environ)
    with DaskBackend(dask_client(local_cluster=1), owned=True) as backend:
        assert dict(os.environ) == before
        assert backend.client.submit(pow, 2, 10).result() == 1024  # the worker still works


def test_two_local_clusters_at_once_start_quietly() -> None:
    """The scheduler's HTTP server takes a free loopback port, not Dask's 8787: with 8787 taken
    (as by another cluster) Dask warned "Port 8787 is already in use" on stderr."""
    import socket
    import warnings

    from pokerlab.scale import DaskBackend, dask_client

    pytest.importorskip("distributed")
    with socket.socket() as taken:
        try:
            taken.bind(("", 8787))
            taken.listen()
        except OSError:
            pass  # taken already
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            with DaskBackend(dask_client(local_cluster=1), owned=True) as backend:
                http = backend.client.cluster.scheduler.http_server
                assert (http.address, http.port != 8787) == ("127.0.0.1", True)
    assert not [w for w in caught if "already in use" in str(w.message)]
