"""The pool's timings (``Server-Timing``: queued, computed) under uvloop, which ``pokerlab serve``
runs: uvloop's ``loop.time()`` counts whole milliseconds, cached per loop iteration, so a task
timed by it read 0.0 ms of compute while its worker alone reported more."""

from __future__ import annotations

import pytest

from pokerlab.web.pool import Outcome, WorkerPool

uvloop = pytest.importorskip("uvloop")


def test_a_task_computes_at_least_what_its_worker_reports() -> None:
    async def main() -> list[Outcome]:
        pool = WorkerPool(1)
        await pool.start()
        try:
            kwargs = {"players": ["AhAs", "KdKc"], "board": "", "dead": "", "game": "holdem",
                      "method": "auto", "trials": None, "stderr": None, "time_limit": None,
                      "seed": None, "limit": 10.0}  # fmt: skip
            return [await pool.run("equity", kwargs, queue_timeout=30, timeout=30)
                    for _ in range(20)]  # fmt: skip
        finally:
            pool.close()

    outcomes = uvloop.run(main())
    for outcome in outcomes:
        assert outcome.status == "ok", outcome.payload
        # the worker's own seconds are part of what the pool timed (a dispatch and a reply on top)
        assert outcome.computed >= outcome.payload["seconds"], outcome
        assert outcome.queued >= 0.0
