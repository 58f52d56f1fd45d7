"""A time limit or a cancel stops a Monte Carlo run inside a chunk: ranges that leave few valid
joint holdings spend seconds rejecting draws within one chunk (a 5-card Omaha hand against five
``15%`` ranges: 2.5 valid joint draws in 100,000, about 300 deals a second, 16,384 to a chunk),
and ``--time 3`` ran 48-56 s, a cancel waited as long. The deals drawn before the stop count."""

from __future__ import annotations

import threading

import pytest

from pokerlab import equity, query
from pokerlab.engine.montecarlo import CHUNK_DEALS
from pokerlab.errors import CancelledError

CROWDED = ["AsAhKsKhQd"] + ["15%"] * 5
QUERY = ("select avg(riverEquity(h)) from game='omaha5', h='AsAhKsKhQd', v1='15%', v2='15%', "
         "v3='15%', v4='15%', v5='15%', trials=1000000")  # fmt: skip


@pytest.fixture(scope="module", autouse=True)
def _compiled() -> None:
    """The kernels compiled before any timing (a first call compiles inside its time limit)."""
    equity(CROWDED, game="omaha5", method="mc", trials=1, seed=1, threads=1)
    query(QUERY.replace("trials=1000000", "trials=1"), threads=1)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_time_limit_stops_inside_a_chunk(threads: int) -> None:
    result = equity(CROWDED, game="omaha5", method="mc", time_limit=0.4, seed=1, threads=threads)
    assert result.stopped == "time"
    assert 0 < result.samples < CHUNK_DEALS  # the first chunk, cut short, counted
    assert all(0 < p.stderr < 0.5 for p in result.players)


def test_a_cancel_stops_inside_a_chunk() -> None:
    stop = threading.Event()
    threading.Timer(0.4, stop.set).start()
    result = equity(CROWDED, game="omaha5", method="mc", trials=10**6, seed=2, cancel=stop,
                    threads=1)  # fmt: skip
    assert result.stopped == "cancelled" and 0 < result.samples < CHUNK_DEALS


def test_a_sampled_query_stops_inside_a_chunk() -> None:
    stop = threading.Event()
    threading.Timer(0.4, stop.set).start()
    result = query(QUERY, cancel=stop, threads=1)
    assert 0 < result.deals < 1_000_000


def test_ranges_with_one_valid_joint_draw_in_a_million_are_sampled() -> None:
    """Six 5-card Omaha ``15%`` ranges: 1.7 valid joint draws in a million, refused as "almost
    no valid deal" after 1,000,000 rejections in a row before; now sampled (slowly)."""
    result = equity(["15%"] * 6, game="omaha5", method="mc", trials=3, seed=3, threads=1)
    assert result.samples == 3 and result.stopped == "trials"


def test_nothing_sampled_names_why() -> None:
    from pokerlab.engine._control import nothing_sampled
    from pokerlab.errors import TooLargeError

    assert isinstance(nothing_sampled(True, 3.0), CancelledError)
    timed = nothing_sampled(False, 3.0)
    assert isinstance(timed, TooLargeError) and timed.field == "time_limit"
    assert "no deal was sampled within the time limit of 3 s" in str(timed)


def test_a_time_limit_does_not_count_compiling_the_sampler(monkeypatch: pytest.MonkeyPatch) -> None:
    """A first run after an install compiles the sampling kernels (seconds); counted in the time
    limit, ``--time 1`` found the stop flag set before its first deal and said "no deal was
    sampled" (blaming the ranges). The engine and the query now call the kernel on no deals
    before the clock starts. Here a first call that takes 0.6 s stands for compiling."""
    import time

    from pokerlab.analysis.query import _kernels as query_kernels
    from pokerlab.engine import _sampling

    for module, name in ((_sampling, "sample_deals_generic"), (query_kernels, "sample_deals")):
        kernel = getattr(module, name)
        first = [True]

        def slow_first(*args: object, kernel: object = kernel, first: list[bool] = first) -> int:
            if first[0]:
                first[0] = False
                time.sleep(0.6)
            return kernel(*args)  # type: ignore[operator]

        monkeypatch.setattr(module, name, slow_first)
    result = equity(["AsAhKsKh", "KK**"], game="omaha", method="mc", time_limit=0.3, seed=1,
                    threads=1)  # fmt: skip
    assert result.stopped == "time" and result.samples > 0
    sampled = query("select avg(riverEquity(h)) from game='omaha', h='AsAhKsKh', v='KK**'",
                    method="monte-carlo", time_limit=0.3, seed=1, threads=1)  # fmt: skip
    assert sampled.stopped == "time" and sampled.deals > 0
