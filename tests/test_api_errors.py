"""Bad arguments to the public API are pokerlab errors naming their field, never a deep
TypeError."""

from __future__ import annotations

import pytest

from pokerlab.analysis.bots import OptimalStrategy, play_match, round_robin
from pokerlab.errors import GameError


def test_a_match_without_a_seed_is_refused_by_name() -> None:
    """seed=None raised "int() argument must be ... not 'NoneType'" from inside the match: a
    match's seed has a default and draws no fresh one."""
    with pytest.raises(GameError, match="seed must be a whole number, 0 or more, got None") as e:
        round_robin(["random", "rules"], hands=10, seed=None, threads=1)  # type: ignore[arg-type]
    assert e.value.field == "seed"
    with pytest.raises(GameError, match="seed must be a whole number") as e:
        play_match("random", "rules", hands=10, seed=None, threads=1)  # type: ignore[arg-type]
    assert e.value.field == "seed"
    with pytest.raises(GameError, match="seed must be a whole number") as e:
        OptimalStrategy(seed=None)  # type: ignore[arg-type]
    assert e.value.field == "seed"
