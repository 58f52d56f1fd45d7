"""Threads never change an answer; bad thread counts are one-line errors; full tables of
``random`` hold'em hands are dealt (and stay unbiased)."""

from __future__ import annotations

import importlib
import inspect
import json

import numpy as np
import pytest
from click.testing import CliRunner

from cli_helpers import assert_one_line_error
from pokerlab import equity, equity_distribution, outs, query
from pokerlab._threads import available_cores, resolve_threads
from pokerlab.cli import app
from pokerlab.engine import _parallel, montecarlo
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.errors import CancelledError, GameError


@pytest.fixture
def small_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Many chunks even for small spots, so threads really split the work."""
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)
    monkeypatch.setattr(montecarlo, "CHUNK_DEALS", 1000)


EXACT_SPOTS = [
    # (players, board, game, strategy expected to run)
    (["AK:0.7,QQ:0.3,76s", "JJ-99:0.5,AQs", "random"], "Jc9h2dKs", "holdem", "board-runouts"),
    (["AhAs", "KdKc:1,QQ:0.25", "7c6c"], "", "holdem", "preflop-matchups"),
    # an empty board, every five-card board walked (short deck: 201,376 of them)
    (["AK", "TT+", "random"], "", "shortdeck", "board-runouts"),
    (["As2sKd3d", "AA**$ds@50,KK**"], "Qs7d2c", "omaha-hilo", "game-boards"),
    # unit weights heads-up: deals counted by outcome class; preflop: chunks start mid-runout
    (["As2sKd3d", "AA**$ds"], "Qs7d2c", "omaha-hilo", "game-boards"),
    (["AsAhKsKh", "JdTd9c8c"], "", "omaha", "game-boards"),
    # a river: one runout, cut into runs of the widest range's holdings
    (["As2sKd3d", "AA**$ds@50,KK**", "QQ**"], "Qs7d2c5h9c", "omaha-hilo", "game-boards"),
    (["AsKsQsJs[9-]c", "2h3h4h5h7d"], "", "stud", "stud-sweep"),
    (["As2d3h9c4d*", "KdKc7s5h5c6d", "8d8c9d9hTsJs"], "", "stud-hilo", "stud-deals"),
    (["(3-3-)45678", "As2d3h9c4d7c8h", "KcJd9s7d6cTh5s"], "", "razz", "stud-known-hands"),
    # a known hand first: the next widest range goes first (the chunks' runs), the widest last
    (["As2d3h9c4d7c8h", "KcJd9s7d6cTh5s@50,QcJh9h7h6hTd5d,QsJs9s8s6sTc5c", "(3-3-)45678"], "",
     "razz", "stud-known-hands"),
    # one known hand first: its chunks are stripes of the first dealt player's cards
    (["KdKc7s5h5c6d", "As2d3h9c4d", "8d8c9d9hTsJs"], "", "stud-hilo", "stud-deals"),
]  # fmt: skip


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize(("players", "board", "game", "strategy"), EXACT_SPOTS)
def test_exact_results_are_bit_identical_across_thread_counts(
    players: list[str], board: str, game: str, strategy: str
) -> None:
    problem = prepare(players, board=board, game=game)
    chosen = exact_strategy(problem)
    assert chosen is not None and chosen.name == strategy
    one = equity(players, board=board, game=game, method="exact", threads=1)
    two = equity(players, board=board, game=game, method="exact", threads=2)
    three = equity(players, board=board, game=game, method="exact", threads=3)
    assert one.samples == two.samples == three.samples
    assert np.array_equal(one.counts, two.counts) and np.array_equal(one.counts, three.counts)
    assert [p.to_dict() for p in one.players] == [p.to_dict() for p in two.players]


@pytest.mark.parametrize(
    ("players", "game"),
    [
        (["KdKc7s5h5c6d", "As2d3h9c4d", "8d8c9d9hTsJs"], "stud-hilo"),  # the second is dealt
        (["As2d3h9c4h", "KdKc7s5h5c6d", "8d8c9d9hTsQh"], "razz"),  # the first is dealt
        (["As2d3h9c4d*@50,Qh8h7c6h4s*", "KdKc7s5h5c6d", "8d8c9dJsTsQs"], "stud"),  # ranges
        # the dealt hand last: each chunk starts at its run of that hand's cards (it skipped
        # every card before it: 14.5 s for a spot of 1.5 s, as chunks times every deal)
        (["As2d3h9c4d7c8h", "KcJd9s7d6cTh5s", "8d8c9d"], "razz"),
    ],
)
def test_stud_deals_split_a_known_hand_into_chunks(
    monkeypatch: pytest.MonkeyPatch, players: list[str], game: str
) -> None:
    """Striped chunks deal exactly the deals of one whole chunk: unit weights count deals by
    outcome, so the counts are equal, not merely close."""
    whole = equity(players, game=game, method="exact", threads=1)
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)
    problem = prepare(players, game=game)
    strategy = exact_strategy(problem)
    assert strategy is not None and strategy.name == "stud-deals"
    chunks = strategy.chunks(_parallel.Work(problem, strategy.name))
    assert chunks.count is not None and chunks.count > 20 * problem.sizes[0]
    striped = equity(players, game=game, method="exact", threads=2)
    assert striped.samples == whole.samples
    assert np.array_equal(striped.counts, whole.counts)


@pytest.mark.usefixtures("small_chunks")
def test_outs_are_identical_across_thread_counts() -> None:
    args = (["AK:0.5,QQ", "JJ-99,AQs"],)
    one = outs(*args, board="Jc9h2d", threads=1).to_dict()
    two = outs(*args, board="Jc9h2d", threads=2).to_dict()
    assert one == two


@pytest.mark.usefixtures("small_chunks")
@pytest.mark.parametrize(
    ("players", "game", "board"),
    [
        (["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], "holdem", ""),
        (["AhAs", "random", "random", "KK:0.5,AK"], "holdem", "2c7d9h"),
        (["AsAhKsKh", "random"], "omaha-hilo", ""),
        (["AsKsQs", "2h3h4h", "9d9c8s"], "stud", ""),
    ],
)
def test_seeded_monte_carlo_is_the_same_on_any_thread_count(
    players: list[str], game: str, board: str
) -> None:
    """The seed contract: fixed chunks, one stream per chunk, stopping checked in chunk order:
    by trials (not a multiple of the chunk size) and by a target standard error."""
    for stop in ({"trials": 12_345}, {"stderr": 0.01}):
        runs = [
            equity(players, board=board, game=game, method="mc", seed=7, threads=t, **stop)
            for t in (1, 2, 3)
        ]
        assert runs[0].samples == runs[1].samples == runs[2].samples
        assert np.array_equal(runs[0].counts, runs[1].counts)
        assert np.array_equal(runs[0].counts, runs[2].counts)
        if "trials" in stop:
            assert runs[0].samples == 12_345
    other_seed = equity(players, board=board, game=game, method="mc", seed=8, trials=5000)
    assert not np.array_equal(runs[0].counts, other_seed.counts)


@pytest.mark.parametrize("bad", [0, -1, 1.5, "2", True])
def test_bad_thread_counts_are_one_line_errors(bad: object) -> None:
    with pytest.raises(GameError, match="threads must be") as info:
        equity(["AhAs", "KdKc"], threads=bad)  # type: ignore[arg-type]
    assert info.value.field == "threads" and isinstance(info.value, ValueError)
    with pytest.raises(GameError, match="threads must be"):
        outs(["AhAs", "KdKc"], board="2c3d4h", threads=bad)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="threads must be"):
        equity_distribution("QQ+", "AKs", board="2c3d4h", threads=bad)  # type: ignore[arg-type]
    with pytest.raises(GameError, match="threads must be"):
        query("select avg(riverEquity(a)) from a='AhAs', b='KdKc'", threads=bad)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", [-1, 1.5, "2", True])
def test_bad_seeds_are_one_line_errors(bad: object) -> None:
    """Not numpy's SeedSequence error from inside a Monte Carlo chunk."""
    with pytest.raises(GameError, match="seed must be a whole number, 0 or more") as info:
        equity(["AhAs", "KdKc"], method="mc", trials=1000, seed=bad)  # type: ignore[arg-type]
    assert info.value.field == "seed" and isinstance(info.value, ValueError)
    with pytest.raises(GameError, match="seed must be a whole number, 0 or more"):
        equity(["AhAs", "KdKc"], seed=bad)  # type: ignore[arg-type]  # auto: the table answered


def test_numpy_integer_seeds_are_seeds() -> None:
    a = equity(["AhAs", "KdKc"], method="mc", trials=5000, seed=np.int64(3))
    b = equity(["AhAs", "KdKc"], method="mc", trials=5000, seed=3)
    assert np.array_equal(a.counts, b.counts)


def test_default_threads_follow_the_cores(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NUMBA_NUM_THREADS", raising=False)
    cores = available_cores()
    assert resolve_threads(None) == cores >= 1
    monkeypatch.setenv("NUMBA_NUM_THREADS", "1")
    assert resolve_threads(None) == 1
    assert resolve_threads(5) == 5  # an explicit count is honoured
    # numpy's integers count as integers, as they do for trials and card codes
    assert resolve_threads(np.int64(2)) == 2 and type(resolve_threads(np.int32(2))) is int  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("command", "value", "message"),
    [
        (["equity", "AhAs", "KdKc"], "0", "threads must be at least 1, got 0"),
        (["equity", "AhAs", "KdKc"], "-2", "threads must be at least 1, got -2"),
        (["equity", "AhAs", "KdKc"], "two", "'two' is not a valid integer"),
        (["outs", "AhAs", "KdKc", "--board", "2c3d4h"], "0", "threads must be at least 1"),
        (["distribution", "QQ+", "AKs", "--board", "2c3d4h"], "0", "threads must be at least 1"),
        (
            ["query", "select avg(riverEquity(a)) from a='AhAs', b='KdKc'"],
            "-1",
            "threads must be at least 1, got -1",
        ),
    ],
)
def test_cli_bad_threads(command: list[str], value: str, message: str) -> None:
    result = CliRunner().invoke(app, [*command, "--threads", value])
    assert_one_line_error(result, message)


@pytest.mark.parametrize(
    "command",
    [
        ["equity", "AsKs", "QQ+,AKs", "--board", "Qh7c2d"],
        ["distribution", "TT+,AQ+", "JJ-77,KQs", "--board", "Ah7d2s"],
        ["distribution", "QQ+", "AKs,AQs", "--mc", "--trials", "3000", "--seed", "5"],
        ["query", "select avg(turnEquity(h)) as te from h='AhKh', v='QQ+,JTs', board='Ts9h2h'"],
    ],
)
def test_cli_threads_give_the_same_json(command: list[str]) -> None:
    answers = []
    for threads in ("1", "2"):
        result = CliRunner().invoke(app, [*command, "--threads", threads, "--json"])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        data.pop("seconds", None)  # wall time: the one field that may differ
        answers.append(data)
    assert answers[0] == answers[1]


# --- full tables of random hold'em hands ----------------------------------------------------


def test_random_holdem_hands_are_dealt_so_full_tables_work() -> None:
    players = ["AhAs"] + ["random"] * 22
    r = equity(players, method="mc", trials=20_000, seed=1)
    assert r.samples == 20_000
    assert sum(r.equities) == pytest.approx(1.0)
    assert r.players[1].combos == 1225  # C(50, 2): every holding of the unseen cards
    # PokerStove-style reference: AA against 22 random hands wins about 10-11 %
    assert 0.08 < r.players[0].equity < 0.14
    assert prepare(players).dealt.tolist() == [False] + [True] * 22


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["AhAs", "random", "random"], "Kd7c2h9s"),
        (["AK:0.5,22,T9s", "random"], "Th7c2h"),
        (["random", "QQ+:0.3,AKs", "random", "JcTc"], "9c8d2s5h"),
    ],
)
def test_dealt_random_hands_agree_with_exact(players: list[str], board: str) -> None:
    """Dealing a ``random`` hand from what is left samples the same distribution as drawing it
    as a range with joint rejection: Monte Carlo within 4 standard errors of exact."""
    exact = equity(players, board=board, method="exact")
    assert prepare(players, board=board).dealt.any()
    mc = equity(players, board=board, method="mc", trials=200_000, seed=11)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 4 * m.stderr + 1e-12, (e, m)
        assert abs(e.win - m.win) <= 4 * np.sqrt(e.win * (1 - e.win) / mc.samples) + 1e-12


# --- suit symmetry of the runouts -----------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "board", "game", "symmetries"),
    [
        (["AsAhKsKh", "JdTd9c8c"], "", "omaha", 1),  # spades and hearts swap
        (["QQ+,AKs", "JJ-99:0.5,AQo"], "2c7c9c", "holdem", 5),  # any permutation of d, h, s
        (["AA,KK", "random", "QQ"], "Jc9c2c", "holdem", 5),
        (["AA**", "KK**$ds"], "2c7c9cTd", "omaha-hilo", 1),
        (["As2sKd3d", "AA**$ds"], "Qs7d2c", "omaha-hilo", 0),  # nothing to swap
    ],
)
def test_runout_symmetry_changes_nothing(
    players: list[str], board: str, game: str, symmetries: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Enumerating one runout per orbit of the suit permutations that fix the problem, weighted
    by the orbit's size, gives exactly the tally of enumerating every runout."""
    from pokerlab.engine import exact
    from pokerlab.engine._control import Control

    problem = prepare(players, board=board, game=game)
    assert len(exact.suit_symmetries(problem)) == symmetries
    # a heads-up hold'em flop may run as pairs (no symmetry used): test the runouts' symmetry
    strategy = exact.BoardRunouts() if game == "holdem" else exact_strategy(problem)
    assert strategy is not None and strategy.name in ("board-runouts", "game-boards")
    assert strategy.applies(problem)
    monkeypatch.setattr(exact, "_SYMMETRY_SECONDS", 0.0)
    fast = strategy.run(problem, Control(threads=2))
    monkeypatch.setattr(exact, "suit_symmetries", lambda p: exact._NO_SYMMETRY)
    full = strategy.run(problem, Control(threads=2))
    assert fast.deals == full.deals
    np.testing.assert_allclose(fast.stats, full.stats, rtol=1e-13, atol=0)


@pytest.mark.usefixtures("small_chunks")
def test_progress_and_cancel_on_two_threads() -> None:
    seen: list[float] = []
    equity(["AsAhKsKh", "JdTd9c8c"], game="omaha", method="exact", threads=2,
           progress=seen.append)  # fmt: skip
    assert len(seen) > 2 and seen == sorted(seen) and seen[-1] == 1.0
    calls: list[float] = []

    def stop_after_first(fraction: float) -> None:
        calls.append(fraction)

    with pytest.raises(CancelledError):
        equity(["AsAhKsKh", "JdTd9c8c"], game="omaha", method="exact", threads=2,
               progress=stop_after_first, cancel=lambda: bool(calls))  # fmt: skip
    assert len(calls) == 1
    r = equity(["AK", "QQ"], method="mc", trials=10**9, seed=1, threads=2,
               cancel=lambda: True)  # fmt: skip
    assert r.stopped == "cancelled" and 0 < r.samples < 10**9
    timed = equity(["AK", "QQ"], method="mc", time_limit=0.2, seed=1, threads=2)
    assert timed.stopped == "time"


# --- the chunk pipeline itself -------------------------------------------------------------


def _chunks(count: int | None, fail_at: int = -1) -> _parallel.Chunks[int]:
    """Chunk ``i`` sleeps a little (longer for low ``i``, so later chunks finish first) and
    answers ``i * i``; chunk ``fail_at`` raises."""
    import time

    def run(i: int) -> int:
        time.sleep(0.002 * ((7 - i) % 3))
        if i == fail_at:
            raise ValueError(f"chunk {i} failed")
        return i * i

    return _parallel.Chunks(count, run)


def _helper_threads() -> list[str]:
    import threading

    return [t.name for t in threading.enumerate() if t.name.startswith("pokerlab-chunks")]


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_chunks_come_back_in_order_and_the_helpers_end(threads: int) -> None:
    assert list(_parallel._on_threads(_chunks(40), threads)) == [i * i for i in range(40)]
    assert _helper_threads() == []
    endless = _parallel._on_threads(_chunks(None), threads)  # Monte Carlo to a stderr
    assert [next(endless) for _ in range(25)] == [i * i for i in range(25)]
    endless.close()  # the caller stops: what is still running finishes, nothing more starts
    assert _helper_threads() == []


def test_a_failed_chunk_raises_in_chunk_order() -> None:
    got: list[int] = []
    with pytest.raises(ValueError, match="chunk 9 failed"):
        for value in _parallel._on_threads(_chunks(30, fail_at=9), 2):
            got.append(value)
    assert got == [i * i for i in range(9)]
    assert _helper_threads() == []


def test_no_more_helpers_than_chunks() -> None:
    """Three chunks on 8 threads start 2 helpers (the caller computes too), not 7."""
    run = _parallel._on_threads(_chunks(3), 8)
    assert next(run) == 0
    assert len(_helper_threads()) <= 2
    assert list(run) == [1, 4]
    assert _helper_threads() == []


def test_complete_stud_hands_chunk_the_next_widest_range() -> None:
    """The chunks were runs of player 0's holdings: one known hand first made the whole walk
    one chunk (one core, no progress, a cancel heard at the end). Now the next widest range
    leads the walk and the widest is summed by class last, in whatever order they are given."""
    from pokerlab.engine.exact import StudKnownHands

    players = ["9s9hTdTcJsJhQd", "A2345KQ", "(3-3-)45678"]  # 1 x 16,384 x 49,152 holdings
    strategy = StudKnownHands()
    for order in (players, players[::-1], [players[1], players[0], players[2]]):
        problem = prepare(order, game="razz")
        chunks = strategy.chunks(_parallel.Work(problem, strategy.name))
        assert chunks.count is not None and chunks.count > 10


@pytest.mark.parametrize(
    ("players", "board", "game"),
    [
        (["As2sKd3d", "AA**$ds@50,KK**", "QQ**"], "Qs7d2c5h9c", "omaha-hilo"),  # classed last
        (["AsAhKsKh", "random"], "Qs7d2c5h", "omaha"),  # heads-up, counted
        (["AsAhKsKh", "JdTd9c8c", "KK**"], "Qs7d2c5h9h", "omaha"),
        # hold'em: the last walked range is striped, the widest counted (sorted or by rank)
        (["AhKd", "QQ+,AK", "random", "random"], "Qs7d2c5h9c", "holdem"),
        (["AhKd", "random"], "Qs7d2c5h9c", "holdem"),  # the one walked combo: a single chunk
        (["AhKd", "QQ+:0.5,AK", "JJ-99,AQs"], "Qs7d2c5h9c", "holdem"),  # weighted: all walked
        (["AhKd", "QQ+:0.5,AK", "22+"], "Qs7d2c5h", "holdem"),  # a turn: 44 runouts
    ],
)
def test_a_river_splits_into_runs_of_the_widest_range(
    monkeypatch: pytest.MonkeyPatch, players: list[str], board: str, game: str
) -> None:
    """A river has one runout, and the chunks were runs of runouts: a 35-second river run was
    one chunk (one core, no progress, no cancel). Cut into runs of a wide range's holdings,
    it deals exactly the deals of the whole."""
    from pokerlab.engine.exact import BoardRunouts, GameBoards

    whole = equity(players, board=board, game=game, method="exact", threads=1)
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)
    monkeypatch.setattr(_parallel, "MAX_CHUNKS", 64)  # 4,096 chunks: 7 s for Omaha's turn
    problem = prepare(players, board=board, game=game).listing_random_hands()
    strategy = BoardRunouts() if game == "holdem" else GameBoards()
    chunks = strategy.chunks(_parallel.Work(problem, strategy.name))
    assert chunks.count is not None
    assert chunks.count > 10 or problem.sizes.count(1) == len(players) - 1
    striped = equity(players, board=board, game=game, method="exact", threads=2)
    assert striped.samples == whole.samples
    np.testing.assert_allclose(striped.counts, whole.counts, rtol=1e-12)


def test_board_games_set_up_their_holdings_once_per_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk of a board game's run set up every holding again (its key, mask, Omaha's pair
    columns), and each stripe of a river evaluated every holding, not its own: a 6-card Omaha
    river against ``random`` (3.3 M holdings, 23 stripes) took 4.8 s for 0.3 s of work, and the
    server's default request timed out. Now once per run, whatever the chunks."""
    from pokerlab.engine import exact

    generic = exact._kernels().generic
    calls: list[int] = []
    real = generic.board_holdings

    def counted(*args: object) -> object:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(generic, "board_holdings", counted)
    monkeypatch.setattr(_parallel, "TARGET_CHUNK_SECONDS", 1e-7)
    players, board = ["AsAhKsKh", "JdTd9c8c", "KK**"], "Qs7d2c5h9h"
    problem = prepare(players, board=board, game="omaha")
    chunks = exact.GameBoards().chunks(_parallel.Work(problem, "game-boards"))
    assert chunks.count is not None and chunks.count > 10
    calls.clear()
    equity(players, board=board, game="omaha", method="exact", threads=2)
    assert len(calls) == 1


def test_an_unseeded_run_reports_the_seed_that_repeats_it() -> None:
    """Monte Carlo without a seed gave no way to repeat a run; the result now names the seed
    it drew (below 2**31: a web page's JSON reads it exactly), and that seed gives the same
    deals on any thread count."""
    first = equity(["AK", "QQ"], method="mc", trials=30_000, threads=2)
    assert first.seed is not None and 0 <= first.seed < 2**31
    assert first.to_dict()["seed"] == first.seed
    again = equity(["AK", "QQ"], method="mc", trials=30_000, seed=first.seed, threads=1)
    assert np.array_equal(first.counts, again.counts) and again.seed == first.seed
    assert equity(["AK", "QQ"], method="exact").seed is None


def test_draw_advice_reports_its_seed() -> None:
    from pokerlab.analysis.draw import advise

    first = advise("Jh Jd 7c 4s 2h", vs="random", trials=3000)
    assert first.method == "monte-carlo" and first.seed is not None
    again = advise("Jh Jd 7c 4s 2h", vs="random", trials=3000, seed=first.seed)
    assert [c.equity for c in again.choices] == [c.equity for c in first.choices]
    assert advise("Jh Jd 7c 4s 2h").seed is None


def test_a_split_stud_sweep_stops_inside_on_a_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up stud hi/lo from two known cards each is one sweep of about 2 s in one chunk; a
    cancel waited for all of it (the web server's time limit then killed its worker). The sweep
    reads a stop flag as it goes: it ends early, and the same call without a cancel is whole."""
    from pokerlab.engine import _stud_sweep

    whole = _stud_sweep.heads_up_split_sweep
    deals: list[int] = []

    def recorded(*args: object) -> object:
        counts, count = whole(*args)
        deals.append(int(count))
        return counts, count

    monkeypatch.setattr(_stud_sweep, "heads_up_split_sweep", recorded)
    spot = ["Ah2s", "3d4c"]
    with pytest.raises(CancelledError):
        equity(spot, game="stud-hilo", method="exact", threads=1, cancel=lambda: True)
    assert deals == [-1]  # stopped inside the sweep, not after it
    result = equity(spot, game="stud-hilo", method="exact", threads=2)
    assert deals[-1] > 0 and round(result.players[0].equity, 6) == 0.527829


@pytest.fixture
def eager_stop(monkeypatch: pytest.MonkeyPatch) -> None:
    """The exact strategies' stop flags set at once by a cancel already asked (their watcher
    polls every 20 ms, which a short first chunk may outrun), so a test sees whether a kernel
    reads its flag, not which of the two came first."""
    from pokerlab.engine import _control, exact

    class Eager(_control.StopFlag):
        def __enter__(self) -> _control.StopFlag:
            if _control.is_cancelled(self.cancel):
                self.flag[0] = 1
            return super().__enter__()

    monkeypatch.setattr(exact, "StopFlag", Eager)


def _recording(monkeypatch: pytest.MonkeyPatch, module: str, kernel: str) -> list[int]:
    """Each call of the board-major ``kernel`` of ``pokerlab.engine.<module>`` records its
    ``totals[0]`` (its deals; -1 where it was stopped inside)."""
    kernels = importlib.import_module(f"pokerlab.engine.{module}")
    whole = getattr(kernels, kernel)
    deals: list[int] = []

    def recorded(*args: object) -> None:
        whole(*args)
        deals.append(int(inspect.signature(whole.py_func).bind(*args).arguments["totals"][0]))

    monkeypatch.setattr(kernels, kernel, recorded)
    return deals


@pytest.mark.usefixtures("eager_stop")
@pytest.mark.parametrize(
    ("module", "kernel", "players", "game"),
    [
        # about 0.5 s of runouts per chunk: 4,096 chunks of a run estimated at 7 minutes
        ("_runouts", "enumerate_runouts", ["15%", "30%", "random"], "holdem"),
        # about 0.3 s per chunk: a random Omaha hand preflop, its million holdings listed
        ("_generic", "enumerate_boards", ["AsAhKsKh", "random"], "omaha"),
    ],
)
def test_a_board_major_chunk_stops_inside_on_a_cancel(
    monkeypatch: pytest.MonkeyPatch, module: str, kernel: str, players: list[str], game: str
) -> None:
    """Board-major enumerations of wide ranges run chunks of a third to half a second; a cancel
    waited for the chunk (for both threads' chunks on 2 threads: heard 1.4 s after it was
    asked). The kernels read a stop flag once per runout: the chunk ends early (deals -1)."""
    deals = _recording(monkeypatch, module, kernel)
    with pytest.raises(CancelledError):
        equity(players, game=game, method="exact", threads=1, cancel=lambda: True)
    assert deals == [-1]  # stopped inside the first chunk, not after it
    small = ["AhKh", "QsQd", "random"] if game == "holdem" else ["AsAhKsKh", "JdTd9c8c"]
    equity(small, board="2c7d9h" if game == "holdem" else "", game=game, method="exact")
    assert deals[-1] > 0  # uncancelled, the same kernel counts its deals


@pytest.mark.usefixtures("eager_stop")
def test_outs_runouts_stop_inside_on_a_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Outs walk runout by runout (``by_runout``) with the same kernels, and read the flag too."""
    deals = _recording(monkeypatch, "_generic", "enumerate_boards")
    with pytest.raises(CancelledError):
        outs(["AsAhKsKh", "random"], board="2h7h9cJd", game="omaha", threads=1, cancel=lambda: True)
    assert deals == [-1]


def test_a_stud_sweep_half_stops_inside_on_a_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Heads-up stud from one known card each is one matchup swept in two halves of about 5 s,
    one chunk each; a cancel waited for a half (for both on 2 threads: heard at 8 s). A half
    reads the stop flag as it sweeps: asked once the completions are listed, it ends early."""
    import threading

    from pokerlab.engine import _stud_sweep

    listed = threading.Event()
    completions, half = _stud_sweep.heads_up_completions, _stud_sweep.heads_up_sweep_part
    deals: list[int] = []

    def listing(*args: object) -> object:
        answer = completions(*args)
        listed.set()
        return answer

    def sweeping(*args: object) -> object:
        wins, ties, count = half(*args)
        deals.append(int(count))
        return wins, ties, count

    monkeypatch.setattr(_stud_sweep, "heads_up_completions", listing)
    monkeypatch.setattr(_stud_sweep, "heads_up_sweep_part", sweeping)
    with pytest.raises(CancelledError):
        equity(["Ah", "Kd"], game="stud", method="exact", threads=1, cancel=listed.is_set)
    assert deals == [-1]  # the first half stopped inside, not after it


@pytest.mark.usefixtures("eager_stop")
def test_stud_completions_stop_on_a_cancel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing a matchup's completions (two times 15.9 M from one card each) reads the flag
    too; what it listed then is never swept."""
    from pokerlab.engine import _stud_sweep

    half = _stud_sweep.heads_up_sweep_part
    swept: list[int] = []

    def sweeping(*args: object) -> object:
        swept.append(1)
        return half(*args)

    monkeypatch.setattr(_stud_sweep, "heads_up_sweep_part", sweeping)
    with pytest.raises(CancelledError):
        equity(["Ah", "Kd"], game="razz", method="exact", threads=1, cancel=lambda: True)
    assert swept == []
