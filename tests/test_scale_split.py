""":func:`pokerlab.scale.distributed_equity`: an exact job split by one player's holdings and
merged gives the one-machine engine's counts bit for bit (whole-number weights), on a Dask
LocalCluster and on local processes."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import pokerlab
from pokerlab.scale.split import distributed_equity

SPOTS = [
    (["QQ+,AKs", "22+,ATs+"], ""),  # heads-up preflop: the shipped table answers each part
    (["AK", "QQ", "JJ"], ""),
    (["AhKh", "QQ+,AK", "JTs,99"], "Td9c2h"),
    (["AsKs", "QQ+,AKs"], "Qh7s2sJd"),
]


@pytest.mark.parametrize(("players", "board"), SPOTS)
def test_parts_merge_to_the_same_bits(dask_client: Any, players: list[str], board: str) -> None:
    one = pokerlab.equity(players, board=board, method="exact")
    split = distributed_equity(players, board, client=dask_client, parts=7)
    assert np.array_equal(split.counts, one.counts)
    assert split.players == one.players and split.samples == one.samples
    assert split.to_dict() == {**one.to_dict(), "seconds": split.seconds}


def test_local_processes_and_fractional_weights() -> None:
    players = ["AKs:0.3,QQ", "JJ-88:0.7,AQ"]
    one = pokerlab.equity(players, method="exact")
    split = distributed_equity(players, workers=1, parts=5)
    assert split.samples == one.samples
    np.testing.assert_allclose(split.counts, one.counts, rtol=1e-13)  # summed in another order
    for got, want in zip(split.players, one.players, strict=True):
        assert got.equity == pytest.approx(want.equity, rel=1e-12)


def test_bad_input_is_the_engine_error() -> None:
    with pytest.raises(pokerlab.RangeError, match="KdKx"):
        distributed_equity(["AhAs", "KdKx"], workers=1)


def test_equity_cli_with_a_scheduler(dask_client: Any) -> None:
    from click.testing import CliRunner

    from cli_helpers import assert_one_line_error
    from pokerlab.cli import app

    address = dask_client.scheduler.address
    args = ["equity", "AhKh", "QQ+,AK", "JTs", "--board", "Td9c2h", "--json"]
    result = CliRunner().invoke(app, [*args, "--scheduler", address])
    assert result.exit_code == 0, result.output
    got = json.loads(result.stdout)
    want = pokerlab.equity(["AhKh", "QQ+,AK", "JTs"], board="Td9c2h").to_dict()
    assert got == {**want, "seconds": got["seconds"]}
    mc = CliRunner().invoke(app, [*args, "--mc", "--scheduler", address])
    assert_one_line_error(mc, "needs a number of deals (trials)")
    mc = CliRunner().invoke(app, [*args, "--mc", "--trials", "300000", "--seed", "3",
                                  "--scheduler", address])  # fmt: skip
    assert mc.exit_code == 0, mc.output
    local = distributed_equity(["AhKh", "QQ+,AK", "JTs"], "Td9c2h", method="mc",
                               trials=300_000, seed=3, workers=1)  # fmt: skip
    assert json.loads(mc.stdout) == {**local.to_dict(), "seconds": json.loads(mc.stdout)["seconds"]}
    omaha = CliRunner().invoke(app, [*args[:3], "--game", "omaha", "--scheduler", address])
    assert_one_line_error(omaha, "hold'em only")


@pytest.mark.parametrize(
    ("players", "board", "game"),
    [(["AhKh", "QQ+,AK", "JTs"], "Td9c2h", "holdem"),
     (["AsAhKsKh", "JdTd9c8c"], "", "omaha-hilo"),
     (["AsAh|Kd", "QcQd|Jh"], "", "stud")],
)  # fmt: skip
def test_monte_carlo_parts_same_on_every_backend_and_unbiased(
    dask_client: Any, players: list[str], board: str, game: str
) -> None:
    kwargs: dict[str, Any] = dict(method="mc", trials=200_000, seed=9, parts=4)
    local = distributed_equity(players, board, "", game, workers=2, **kwargs)
    dask = distributed_equity(players, board, "", game, client=dask_client, **kwargs)
    assert np.array_equal(local.counts, dask.counts) and local.players == dask.players
    assert local.samples == 200_000 and local.stopped == "trials"
    exact = pokerlab.equity(players, board=board, game=game, method="exact")
    for got, want in zip(local.players, exact.players, strict=True):
        assert got.stderr > 0
        assert abs(got.equity - want.equity) < 4 * got.stderr
    again = distributed_equity(players, board, "", game, workers=1, **{**kwargs, "seed": 10})
    assert not np.array_equal(again.counts, local.counts)  # the seed reaches the parts
