"""One big job over many machines: :func:`distributed_equity`, :func:`pokerlab.equity` on a
backend of :func:`pokerlab.batch`'s kinds.

The split is the engine's own (``pokerlab.equity(..., client=...)``, see
:mod:`pokerlab.engine._parallel`): every run is a fixed sequence of chunks (exact: ranges of
matchups, of runouts, or of one player's holdings; Monte Carlo: chunk ``i`` of the seed's
streams), the workers compute chunks and send back each chunk's partial counts, and they are
merged here in chunk order, as on one machine. So the result has the same bits as
``pokerlab.equity`` without a client: exact in every game, and Monte Carlo with a ``seed``
stopped by ``trials`` or ``stderr``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pokerlab.cards import Card
from pokerlab.engine.api import equity
from pokerlab.engine.methods import Method
from pokerlab.engine.problem import PlayerInput
from pokerlab.engine.result import EquityResult
from pokerlab.games import Game
from pokerlab.scale.backends import make_backend

__all__ = ["distributed_equity"]


def distributed_equity(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
    method: Method = "auto",
    *,
    trials: int | None = None,
    stderr: float | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    backend: str = "local",
    workers: int | None = None,
    scheduler: str | None = None,
    local_cluster: int | None = None,
    client: Any = None,
) -> EquityResult:
    """:func:`pokerlab.equity` with its chunks on a backend chosen as :func:`pokerlab.batch`
    chooses (``client``, ``scheduler``, ``local_cluster``, else ``workers`` local processes);
    a backend it starts is closed before it returns. :class:`~pokerlab.errors.ClusterError`
    when the backend cannot be used (Dask missing, a scheduler that does not answer)."""
    with make_backend(backend, workers=workers, scheduler=scheduler,
                      local_cluster=local_cluster, client=client) as runner:  # fmt: skip
        return equity(players, board, dead, game, method, trials=trials, stderr=stderr,
                      time_limit=time_limit, seed=seed, client=runner.executor)  # fmt: skip
