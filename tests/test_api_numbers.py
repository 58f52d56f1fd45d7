"""The public API takes numpy's numbers wherever it takes Python's, and answers the same."""

from __future__ import annotations

import json

import numpy as np
import pytest

import pokerlab
from pokerlab.analysis.draw import advise


@pytest.mark.parametrize("kind", [np.int8, np.int16, np.uint16, np.int32, np.int64, np.uint64])
def test_numpy_integer_trials_and_seeds_sample_as_python_ints(kind: type[np.integer]) -> None:
    """trials=np.int16(3000) overflowed the chunk count ('Python integer 65536 out of bounds
    for int16'), and seed=np.int64(3) came back as result.seed, which json.dumps refuses
    (draw advice: an OverflowError from the stream's seeding)."""
    spot = ["AhAs", "KdKc"]
    want = pokerlab.equity(spot, method="mc", trials=100, seed=3, threads=1)
    got = pokerlab.equity(spot, method="mc", trials=kind(100), seed=kind(3), threads=1)  # type: ignore[arg-type]
    assert got == want and type(got.seed) is int
    json.dumps(got.to_dict(), allow_nan=False)
    dist = pokerlab.equity_distribution("AA", "KK", method="mc", trials=kind(100), seed=kind(3),  # type: ignore[arg-type]
                                        threads=1)  # fmt: skip
    assert dist == pokerlab.equity_distribution("AA", "KK", method="mc", trials=100, seed=3,
                                                threads=1)  # fmt: skip
    hand = "JhJd7c4s2h"
    drawn = advise(hand, vs=["random"], method="mc", trials=kind(100), seed=kind(3), threads=1)  # type: ignore[arg-type]
    assert drawn == advise(hand, vs=["random"], method="mc", trials=100, seed=3, threads=1)
    assert type(drawn.seed) is int and type(drawn.samples) is int
    json.dumps(drawn.to_dict(), allow_nan=False)
