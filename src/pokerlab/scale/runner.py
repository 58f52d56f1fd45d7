"""Run many spots on a backend: :func:`batch` (the Python API) and :func:`run_jobs`.

Spots travel to the workers in chunks (several spots per task) so that one small exact spot
(a fraction of a millisecond on a flop) does not pay a round trip of its own: the chunks grow
to about :data:`TASK_SECONDS` of work once the first answers say what a spot costs; the results
come back as each chunk finishes. A spot that cannot run (bad fields, bad cards, an impossible
range) is answered by an ``error`` and never stops the others.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import Any

from pokerlab.scale.backends import Backend, backend_sizes, make_backend
from pokerlab.scale.jobs import Job, Spot, SpotResult, jobs_from_spots, run_chunk

__all__ = ["TASK_SECONDS", "TaskPace", "batch", "run_jobs"]

TASK_SECONDS = 0.25
"""CPU time wanted per task: long enough that a task's round trip to a worker (a few ms of
CPU in Dask's event loops) is a small share of it, short enough that a progress bar moves and a
lost worker loses little. CPU time, not wall time: on cores shared with other work, a spot's
wall time grows and tasks sized by it would shrink, multiplying the round trips just when the
cores have no time to spare."""
FIRST_TASK_SPOTS = 8
MAX_TASK_SPOTS = 1024


class TaskPace:
    """Spots per task, from the CPU time of the chunks answered so far: :data:`FIRST_TASK_SPOTS`
    until the first answers, then about :data:`TASK_SECONDS` of work per task, and never fewer
    than 8 tasks per worker when the count is known (so the last tasks end together)."""

    def __init__(self, count: int | None, workers: int, fixed: int | None = None) -> None:
        self.fixed = fixed
        balanced = MAX_TASK_SPOTS if count is None else count // (8 * workers)
        self.cap = max(1, min(MAX_TASK_SPOTS, balanced))
        self.seconds = 0.0
        self.spots = 0

    def size(self) -> int:
        if self.fixed is not None:
            return self.fixed
        if self.spots == 0:
            return min(FIRST_TASK_SPOTS, self.cap)
        per_spot = max(self.seconds / self.spots, 1e-6)
        return max(1, min(self.cap, round(TASK_SECONDS / per_spot)))

    def record(self, spots: int, seconds: float) -> None:
        """Count one answered chunk: ``spots`` spots in ``seconds`` of CPU time."""
        self.spots += spots
        self.seconds += seconds


def run_jobs(
    jobs: Iterable[Job], backend: Backend, chunk_size: int | None = None
) -> Iterator[SpotResult]:
    """Answer every job on ``backend``, yielding each answer as its chunk completes (jobs that
    already carry an error are answered at once). ``chunk_size`` fixes the spots per task;
    by default :class:`TaskPace` sizes them."""
    count = len(jobs) if isinstance(jobs, list | tuple) else None
    pace = TaskPace(count, backend.workers, chunk_size)
    by_index: dict[int, Job] = {}
    failed: list[SpotResult] = []

    def tasks() -> Iterator[tuple[Any, Any, Any]]:
        source = iter(jobs)
        while taken := list(islice(source, pace.size())):
            chunk: list[tuple[int, Spot]] = []
            for job in taken:
                if job.error is not None or not isinstance(job.spot, dict):
                    failed.append(SpotResult(job.index, job.id, job.spot, error=job.error))
                    continue
                by_index[job.index] = job
                chunk.append((job.index, job.spot))
            if chunk:
                yield None, run_chunk, chunk

    for _, task_answer in backend.run(tasks()):
        while failed:
            yield failed.pop(0)
        seconds, answers = task_answer
        pace.record(len(answers), seconds)
        for index, result, error in answers:
            job = by_index.pop(index)
            yield SpotResult(index, job.id, job.spot, result, error)
    while failed:
        yield failed.pop(0)


def batch(
    spots: Iterable[Spot],
    backend: str = "local",
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
    chunk_size: int | None = None,
) -> Iterator[SpotResult]:
    """Equity of many spots, yielded as they complete (``SpotResult.index`` is the position).

    Each spot is a dict with the fields of ``POST /api/equity`` (``players``, ``board``, ``dead``,
    ``game``, ``method``, ``trials``, ``stderr``, ``time_limit``, ``seed``) and an optional
    ``id``. Backends: ``"local"`` (``workers`` processes, default every core), a Dask
    ``scheduler`` address, a ``local_cluster`` of that many Dask worker processes, or a Dask
    ``client`` of yours. Every backend gives the same results.

    >>> spots = [{"id": "a", "players": ["AhAs", "KdKc"]}, {"players": ["AhAs", "AhKc"]}]
    >>> for r in sorted(batch(spots, workers=1), key=lambda r: r.index):
    ...     print(r.id, r.error or round(r.result["players"][0]["equity"], 4))
    a 0.8126
    2 card 'Ah' is used twice: in player 1's hand and in player 2's hand
    """
    if isinstance(spots, str | bytes | dict) or not isinstance(spots, Iterable):
        raise TypeError(  # a file name was read one character a spot
            f"spots must be an iterable of spot dicts, not {type(spots).__name__} (for a file "
            "of spots, run pokerlab batch FILE, or read its lines into dicts first)"
        )
    workers, local_cluster, chunk_size = backend_sizes(workers, local_cluster, chunk_size)
    items = list(spots) if isinstance(spots, list | tuple) else spots
    jobs: Iterable[Job] = jobs_from_spots(items)
    if isinstance(items, list):
        jobs = list(jobs)
    with make_backend(
        backend, workers=workers, scheduler=scheduler, local_cluster=local_cluster, client=client
    ) as runner:
        yield from run_jobs(jobs, runner, chunk_size)
