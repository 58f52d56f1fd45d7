"""What a caller controls while a strategy runs: threads, progress reports, cancellation, and the
Monte Carlo stopping rules and seed (:class:`Control`). Strategies run their kernels in fixed
chunks; between chunks they report progress and honour a cancellation request."""

from __future__ import annotations

import operator
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Protocol

import numpy as np

from pokerlab._numbers import is_whole
from pokerlab.errors import CancelledError, GameError, PokerlabError, TooLargeError

COUNTABLE_TRIALS = 2**62  # the kernels count deals in 64-bit integers, caps lifted or not

__all__ = [
    "CancelLike",
    "ChunkExecutor",
    "Control",
    "PartialCallback",
    "ProgressCallback",
    "StopFlag",
    "Stopping",
    "check",
    "is_cancelled",
    "nothing_sampled",
]

ProgressCallback = Callable[[float], object]
"""Called with the fraction done (0..1) after each chunk."""

PartialCallback = Callable[[int, tuple[float, ...], tuple[float, ...]], object]
"""Monte Carlo only: called after each chunk with the deals sampled so far and each player's
current equity and standard error (after the last chunk: the run's result)."""


class _Event(Protocol):
    def is_set(self) -> bool: ...


CancelLike = _Event | Callable[[], bool] | None
"""A ``threading.Event`` (or anything with ``is_set()``) or a callable returning True to stop."""


def check_callbacks(cancel: object = None, **callbacks: object) -> None:
    """Refuse a ``cancel`` that is neither an event (``is_set()``) nor a function, and any other
    named callback (``progress=``, ``partial=``) that is not a function, before any work (an
    int raised "'int' object is not callable" from inside the run)."""
    if cancel is not None and not hasattr(cancel, "is_set") and not callable(cancel):
        raise GameError(
            f"cancel must be an event (with is_set()) or a function, got {cancel!r}",
            field="cancel",
        )
    for name, value in callbacks.items():
        if value is not None and not callable(value):
            raise GameError(f"{name} must be a function, got {value!r}", field=name)


def is_cancelled(cancel: CancelLike) -> bool:
    if cancel is None:
        return False
    if hasattr(cancel, "is_set"):
        return bool(cancel.is_set())
    return bool(cancel())


class ChunkExecutor(Protocol):
    """Where chunks can run besides this process's threads: anything with
    ``submit(function, *args)`` returning a future with ``result()`` and ``cancel()``, such as
    a ``dask.distributed.Client`` or a :class:`concurrent.futures.ProcessPoolExecutor`."""

    def submit(self, fn: Callable[..., Any], /, *args: Any) -> Any: ...


@dataclass(frozen=True)
class Stopping:
    """When a Monte Carlo run stops; at least one of the three must be set."""

    trials: int | None = None
    stderr: float | None = None
    time_limit: float | None = None

    def __post_init__(self) -> None:
        if self.trials is None and self.stderr is None and self.time_limit is None:
            raise GameError(
                "Monte Carlo needs a stopping rule: trials, stderr or a time limit", field="trials"
            )
        from pokerlab.engine.limits import check_sampling  # it imports this module

        trials, stderr, time_limit = self.trials, self.stderr, self.time_limit
        check_sampling(trials, stderr, time_limit, capped=False, named=True)
        # Python's numbers from here: np.int16 trials overflowed counting chunks, and a numpy
        # dtype compiled the kernels anew for its signature (inside the time limit)
        set_ = object.__setattr__
        set_(self, "trials", None if trials is None else int(trials))
        set_(self, "stderr", None if stderr is None else float(stderr))
        set_(self, "time_limit", None if time_limit is None else float(time_limit))


@dataclass(frozen=True)
class Control:
    """How a strategy runs: on ``threads`` threads (a result never depends on it), or with its
    chunks on the workers of ``client`` (nor on that), reporting ``progress``, stopping on
    ``cancel``; Monte Carlo also reads ``stopping`` and ``seed``, and hands its running
    estimates to ``partial`` after each chunk."""

    threads: int = 1
    progress: ProgressCallback | None = None
    cancel: CancelLike = None
    stopping: Stopping | None = None
    seed: int | None = None
    partial: PartialCallback | None = None
    client: ChunkExecutor | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "seed", check_seed(self.seed))


def fresh_seed() -> int:
    """A seed for a run given none, drawn from the operating system's entropy and reported
    with its result (so the run can be repeated): below 2**31, which every JSON reader (a web
    page's too) reads exactly."""
    return int(np.random.default_rng().integers(2**31))


def check_seed(seed: object) -> int | None:
    """``seed`` as a Python int, refused unless it is a whole number 0 or more (``None``: a
    fresh seed, passes); a negative one would wrap around to a large one. A numpy integer
    becomes an int: reported back as a result's seed, it was no JSON, and its fixed width
    overflowed seeding a stream."""
    if seed is None:
        return None
    if not (is_whole(seed) and seed >= 0):  # type: ignore[operator]
        raise GameError(f"seed must be a whole number, 0 or more, got {seed!r}", field="seed")
    return operator.index(seed)  # type: ignore[arg-type]


def given_seed(seed: object) -> int:
    """:func:`check_seed` where a seed must be given (a draw match's, which has a default and
    draws no fresh one): ``None`` is refused too."""
    checked = check_seed(seed)
    if checked is None:
        raise GameError("seed must be a whole number, 0 or more, got None", field="seed")
    return checked


def check(cancel: CancelLike, progress: ProgressCallback | None, fraction: float) -> None:
    """Report progress, then raise :class:`CancelledError` if the caller asked to stop."""
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)))
    if is_cancelled(cancel):
        raise CancelledError("the computation was cancelled")


class StopFlag:
    """A kernel's ``stop`` flag (``flag``: one uint8), set by a watcher thread once ``cancel``
    says so or ``seconds`` have passed, while the ``with`` block runs. Chunks are checked
    between them; a kernel reads this inside one, so a chunk that takes seconds (ranges that
    leave few valid joint holdings: most joint draws are rejected) still stops on time."""

    POLL_SECONDS = 0.02

    def __init__(self, cancel: CancelLike, seconds: float | None) -> None:
        self.flag = np.zeros(1, dtype=np.uint8)
        self.cancel = cancel
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self._done = threading.Event()
        self._thread: threading.Thread | None = None

    def _watch(self) -> None:
        while not self._done.wait(self.POLL_SECONDS):
            late = self.deadline is not None and time.perf_counter() >= self.deadline
            if late or is_cancelled(self.cancel):
                self.flag[0] = 1
                return

    def __enter__(self) -> StopFlag:
        if self.cancel is not None or self.deadline is not None:
            self._thread = threading.Thread(target=self._watch, name="pokerlab-stop", daemon=True)
            self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._done.set()
        if self._thread is not None:
            self._thread.join()


def nothing_sampled(cancelled: bool, seconds: float | None) -> PokerlabError:
    """The error of a sampled run stopped (``cancelled``, else by its time limit of
    ``seconds``) before its first deal: every joint draw so far used some card twice."""
    if cancelled:
        return CancelledError("the run was cancelled before its first deal was sampled")
    limit = "its time limit" if seconds is None else f"the time limit of {seconds:g} s"
    return TooLargeError(
        f"no deal was sampled within {limit}: the ranges leave so few valid deals that almost "
        "every joint draw uses some card twice; give more time or narrow the ranges",
        field="time_limit",
    )
