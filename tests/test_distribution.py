"""Equity distributions against a brute force over every deal, combo by combo.

For each player and each of its holdings the brute force fixes the holding, walks every joint
holding of the others and every board completion in plain Python (``bruteforce.py``), and
weighs the holding by its weight times the others' compatible joint weight.
"""

from __future__ import annotations

import itertools
import threading

import numpy as np
import pytest

import pokerlab
from bruteforce import game_equity, holdem_equity
from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import (
    CancelledError,
    DuplicateCardError,
    EmptyRangeError,
    GameError,
    TooLargeError,
)
from pokerlab.ranges import Range
from pokerlab.ranges.pattern import PatternRange

Holdings = list[tuple[list[int], float]]


def holdem_holdings(text: str, known: list[int]) -> Holdings:
    return [
        ([int(c) for c in combo], w)
        for combo, w in Range(text)
        if not set(map(int, combo)) & set(known)
    ]


def brute_distribution(
    players: list[Holdings], board: list[int], dead: list[int], game: str | None = None
) -> list[dict[str, tuple[float, float]]]:
    """Per player: hand -> (probability of holding it, equity with it)."""
    out = []
    for p, mine in enumerate(players):
        rows = {}
        for hand, w in mine:
            others = [
                [(c, wo) for c, wo in players[q] if not set(c) & set(hand)]
                for q in range(len(players))
                if q != p
            ]
            joint = 0.0
            for combo in itertools.product(*others):
                cards = [c for h, _ in combo for c in h]
                if len(set(cards)) == len(cards):
                    joint += float(np.prod([wo for _, wo in combo]))
            if joint == 0:
                continue
            fixed = [*others[:p], [(hand, 1.0)], *others[p:]]
            if game is None:
                eq = holdem_equity(fixed, board, dead)[0][p]
            else:
                eq = game_equity(game, fixed, board, dead, len(hand), 5)["equity"][p]
            rows[format_cards(hand)] = (w * joint, eq)
        total = sum(prob for prob, _ in rows.values())
        out.append({h: (prob / total, eq) for h, (prob, eq) in rows.items()})
    return out


def check(d: pokerlab.Distribution, expected: list[dict[str, tuple[float, float]]]) -> None:
    assert len(d.players) == len(expected)
    for p, exp in zip(d.players, expected, strict=True):
        got = dict(
            zip(p.hands, zip(p.weights.tolist(), p.equities.tolist(), strict=True), strict=True)
        )
        assert set(got) == set(exp)
        for hand, (prob, eq) in exp.items():
            assert got[hand][0] == pytest.approx(prob, abs=1e-12), hand
            assert got[hand][1] == pytest.approx(eq, abs=1e-12), hand
        assert list(p.equities) == sorted(p.equities, reverse=True)
        assert p.weights.sum() == pytest.approx(1.0)


def check_mean_is_equity(d: pokerlab.Distribution, players: list[str], **kwargs: str) -> None:
    result = pokerlab.equity(players, method="exact", **kwargs)  # type: ignore[arg-type]
    for p, r in zip(d.players, result.players, strict=True):
        assert float((p.weights * p.equities).sum()) == pytest.approx(r.equity, abs=1e-12)
        assert p.equity == pytest.approx(r.equity, abs=1e-12)


@pytest.mark.parametrize(
    ("hero", "villain", "board", "dead"),
    [
        ("AA,KdQd", "QhQd,AKo:0.5", "Qs7h2c3d", ""),
        ("AhKh,7c6c,TT:0.25", "As9s,QhQd,8h8d:0.5", "Kh9h5c2d", "Ad"),
        ("JsTs,AcKd", "9c9d,AhQh", "9h8s2c", ""),
        ("AsAh,KK", "QQ,AKs", "Ac7h2d5s9c", ""),
    ],
)
def test_headsup_holdem_kernel_against_bruteforce(
    hero: str, villain: str, board: str, dead: str
) -> None:
    b = [int(c) for c in parse_cards(board)]
    dd = [int(c) for c in parse_cards(dead)]
    d = pokerlab.equity_distribution(hero, villain, board=board, dead=dead)
    assert d.method == "exact"
    players = [holdem_holdings(hero, b + dd), holdem_holdings(villain, b + dd)]
    check(d, brute_distribution(players, b, dd))
    check_mean_is_equity(d, [hero, villain], board=board, dead=dead)


def test_multiway_holdem_against_bruteforce() -> None:
    board, hands = "Qs7h2c3d", ["AsAd,KcQc", "QhQd:0.5,JhJc", "AhKh,8h9h"]
    b = [int(c) for c in parse_cards(board)]
    d = pokerlab.equity_distribution(hands[0], hands[1:], board=board)
    assert d.method == "exact"
    check(d, brute_distribution([holdem_holdings(h, b) for h in hands], b, []))
    check_mean_is_equity(d, hands, board=board)


def test_omaha_against_bruteforce() -> None:
    board, hands = "Qs7h2c3d", ["AsAhKdJd,9h8h6c5c", "QhQd4s4c@50,KsKcTh9d"]
    b = [int(c) for c in parse_cards(board)]
    players = [[([int(c) for c in h], w) for h, w in PatternRange(t, 4)] for t in hands]
    d = pokerlab.equity_distribution(hands[0], hands[1], board=board, game="omaha")
    check(d, brute_distribution(players, b, [], game="omaha"))
    check_mean_is_equity(d, hands, board=board, game="omaha")


def test_preflop_mean_is_equity() -> None:
    d = pokerlab.equity_distribution("AA,KK,AKs", "QQ+,AKo:0.5", method="exact")
    assert d.method == "exact"
    check_mean_is_equity(d, ["AA,KK,AKs", "QQ+,AKo:0.5"])
    aces = dict(d.players[0].pairs())
    assert aces["AsAh"] == pytest.approx(pokerlab.equity(["AsAh", "QQ+,AKo:0.5"]).players[0].equity)


def test_flop_kernel_matches_the_engine_on_larger_ranges() -> None:
    hero, villain, board = "22+,A2s+,KTs+,ATo+", "TT+,AQ+,KQs,QJs", "Ks9s2d"
    d = pokerlab.equity_distribution(hero, villain, board=board)
    check_mean_is_equity(d, [hero, villain], board=board)
    exact = pokerlab.equity(["AsAh", villain], board=board).players[0].equity
    assert dict(d.players[0].pairs())["AsAh"] == pytest.approx(exact, abs=1e-12)


@pytest.mark.parametrize("board", ["", "Qs7h2c"])
def test_tiny_weights_are_a_scale_not_an_underflow(board: str) -> None:
    """Weights matter up to a factor per player; 1e-200 on both sides multiplies to 0 (NaN
    before). The range weights are reported as given."""
    tiny = pokerlab.equity_distribution("AA:1e-200,KK:5e-201", "QQ:1e-200,JJ:1e-200", board=board)
    plain = pokerlab.equity_distribution("AA,KK:0.5", "QQ,JJ", board=board)
    for t, p in zip(tiny.players, plain.players, strict=True):
        assert t.hands == p.hands
        np.testing.assert_allclose(t.weights, p.weights, rtol=1e-12)
        np.testing.assert_allclose(t.equities, p.equities, rtol=1e-12)
    assert sorted(set(tiny.players[0].range_weights.tolist())) == [5e-201, 1e-200]


def test_monte_carlo_per_holding() -> None:
    d = pokerlab.equity_distribution(
        "AA,KK", "QQ", board="Qs7h2c", method="monte-carlo", trials=20_000, seed=3
    )
    exact = pokerlab.equity_distribution("AA,KK", "QQ", board="Qs7h2c")
    assert d.method == "monte-carlo"
    for p, q in zip(d.players, exact.players, strict=True):
        got = dict(
            zip(p.hands, zip(p.equities.tolist(), p.stderr.tolist(), strict=True), strict=True)
        )
        for hand, eq in q.pairs():
            mc, se = got[hand]
            assert 0 < se < 0.01
            assert abs(mc - eq) < 5 * se


def test_each_sampled_holding_has_its_own_random_streams() -> None:
    """Players 2 and 3 are the same range in the same spot: with one seed for every holding
    their holdings sampled the same deals and got the same estimates, errors and all. Now each
    holding's streams come from the seed and its place: still reproducible, no longer shared."""
    spot = ("AA", ["QQ,JJ", "QQ,JJ"])
    one = pokerlab.equity_distribution(*spot, board="Kd7c2h", method="mc", trials=2000, seed=1)
    again = pokerlab.equity_distribution(*spot, board="Kd7c2h", method="mc", trials=2000, seed=1)
    assert one.to_dict() == again.to_dict()
    second, third = dict(one.players[1].pairs()), dict(one.players[2].pairs())
    assert second.keys() == third.keys()
    assert any(second[hand] != third[hand] for hand in second)
    with pytest.raises(GameError, match="seed"):
        pokerlab.equity_distribution(*spot, board="Kd7c2h", method="mc", seed=-1)


def test_results_are_deterministic_and_json() -> None:
    a = pokerlab.equity_distribution("QQ+,AK", "random", board="Td9d2c")
    b = pokerlab.equity_distribution("QQ+,AK", "random", board="Td9d2c")
    assert a.to_dict() == b.to_dict()
    data = a.to_dict()
    assert {"board", "method", "players"} <= set(data)
    player = data["players"][0]
    assert {"input", "equity", "combos"} <= set(player)
    assert {"hand", "weight", "equity"} <= set(player["combos"][0])
    mean = sum(c["weight"] * c["equity"] for c in player["combos"])
    assert mean == pytest.approx(player["equity"], abs=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "fragment"),
    [
        (("AA", "KK"), {"board": "AsKs"}, GameError, "flop is 3 cards"),
        (("AsAh", "AsKd"), {}, DuplicateCardError, "As"),
        (("AA", "KK"), {"board": "AsAhAd", "dead": "Ac"}, EmptyRangeError, "player 1"),
        (("AsAhKsKh", "random"), {"game": "omaha"}, TooLargeError, "holdings in all"),
        (("AA", "KK"), {"method": "exact", "trials": 500}, GameError, "'trials' applies to"),
        (("AA", "KK"), {"board": "2c3d4h", "method": "exact", "seed": 1}, GameError, "'seed'"),
    ],
)
def test_bad_input(
    args: tuple[str, str], kwargs: dict[str, str], error: type[Exception], fragment: str
) -> None:
    with pytest.raises(error, match=fragment):
        pokerlab.equity_distribution(*args, **kwargs)  # type: ignore[arg-type]


def test_too_many_holdings_is_refused() -> None:
    with pytest.raises(TooLargeError, match="narrow the ranges"):
        pokerlab.equity_distribution("AA**", "KK**", board="2c3d4h", game="omaha")


def test_a_forced_exact_distribution_too_large_to_enumerate_is_refused() -> None:
    """``method="exact"`` (``--exact``) is refused at once past the forced-exact limit of
    ``pokerlab.equity`` (30 minutes of one core), with the whole distribution's estimate: it
    ran every holding's exact run in turn, ``QQ+`` vs two ``random`` hands preflop (2,670
    holdings, about 4 hours of one core) with no word, where ``pokerlab equity --exact``
    refuses such work and ``auto`` samples it."""
    from click.testing import CliRunner

    from pokerlab.cli import app

    spot = ("QQ+", ["random", "random"])
    with pytest.raises(TooLargeError, match=r"2,670 holdings.*over the limit of 1,800 s") as e:
        pokerlab.equity_distribution(*spot, method="exact")
    assert e.value.field == "method"
    refused = CliRunner().invoke(app, ["distribution", "QQ+", "random", "random", "--exact"])
    assert refused.exit_code == 2 and "error: an exact distribution is too large" in refused.output
    small = pokerlab.equity_distribution("QQ+", ["JJ", "AKs"], method="exact")  # still runs
    assert small.method == "exact"


def test_thread_count_does_not_change_the_answer() -> None:
    import numba

    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = pokerlab.equity_distribution("TT+,AQ+", "random", board="Ah7d2s").to_dict()
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = pokerlab.equity_distribution("TT+,AQ+", "random", board="Ah7d2s").to_dict()
    finally:
        numba.set_num_threads(before)
    assert one == many


def test_too_many_joint_holdings_is_refused() -> None:
    with pytest.raises(TooLargeError, match="joint holdings"):
        pokerlab.equity_distribution("88+", ["random", "random", "random"])


@pytest.mark.parametrize(
    ("players", "board"),
    [
        (["22+,A2s+,KTo+", "random", "QQ+,AK:0.5,T9s"], "Jc9h2d"),
        (["AK", "random", "random"], ""),
        (["TT+", "random", "AQ+", "76s"], "Ah7d2s3c"),
    ],
)
def test_joint_weights_sum_the_widest_player_by_its_cards(players: list[str], board: str) -> None:
    """The weight of each holding from the others' joint holdings, with the widest other
    player summed by inclusion-exclusion over its cards, equals the plain walk over all of them
    (exactly: unit weights are counts)."""
    from pokerlab.analysis import _distribution_kernels as D
    from pokerlab.analysis.distribution import _pair_weights, _summed_player
    from pokerlab.engine.problem import prepare

    problem = prepare(players, board).with_unit_weights().listing_random_hands()
    masks, weights, offsets = problem.combo_masks, problem.weights, problem.offsets
    none = _pair_weights(problem, -1)
    for p in range(problem.n_players):
        last = _summed_player(problem, p)
        assert last >= 0 and problem.sizes[last] == max(
            n for q, n in enumerate(problem.sizes) if q != p
        )
        tables = _pair_weights(problem, last)
        holdings = range(int(offsets[p]), int(offsets[p + 1]))
        for i in list(holdings)[:: max(1, len(holdings) // 40)]:
            walked = D.joint_weight(masks, weights, offsets, p, masks[i], -1, *none)
            summed = D.joint_weight(masks, weights, offsets, p, masks[i], last, *tables)
            assert summed == walked and walked > 0


def test_auto_samples_when_enumerating_every_holding_would_take_too_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pokerlab.analysis import distribution

    spot = ("QQ+", ["JJ", "AKs"])
    ticks: list[float] = []
    exact = pokerlab.equity_distribution(*spot, progress=ticks.append)
    assert exact.method == "exact"  # 3-way preflop: one engine call per holding
    assert ticks == sorted(ticks) and ticks[0] == 0.0 and ticks[-1] == 1.0
    assert len(ticks) == sum(len(p.hands) for p in exact.players) + 1  # each holding, done
    # the budget is the whole distribution's, not one holding's (a 3-way preflop spot with a
    # random hand enumerated 1,366 holdings for 9 minutes when each was judged alone)
    monkeypatch.setattr(distribution, "AUTO_EXACT_SECONDS", 1e-9)
    sampled = pokerlab.equity_distribution(*spot, trials=4000, seed=2)
    assert sampled.method == "monte-carlo"
    for p, q in zip(sampled.players, exact.players, strict=True):
        got = dict(zip(p.hands, zip(p.equities.tolist(), p.stderr.tolist(), strict=True),
                       strict=True))  # fmt: skip
        for hand, eq in q.pairs():
            mc, se = got[hand]
            assert 0 < se < 0.02 and abs(mc - eq) < 5 * se


def test_auto_choosing_exact_drops_the_sampling_options() -> None:
    """``method="auto"`` with a seed and trials: where it enumerates, the options (which an
    exact run refuses) are not passed on, and the answer is the exact one."""
    exact = pokerlab.equity_distribution("AA", "QQ", method="exact")
    auto = pokerlab.equity_distribution("AA", "QQ", trials=500, seed=2)
    assert auto.method == "exact" and auto.to_dict() == exact.to_dict()


def test_auto_budget_estimates_the_spots_with_a_fixed_holding() -> None:
    """The per-holding runs lose the suit symmetries of the whole spot: the budget is judged on
    the spot with each player's first holding fixed, times its holding count, which is close
    to summing every holding's own estimate (3 to 4 times the old guess of players x the
    whole spot's estimate)."""
    from pokerlab.analysis.distribution import _enumeration_seconds, _rows
    from pokerlab.engine.problem import prepare
    from pokerlab.engine.strategies import exact_strategy

    players = ["QQ+,AK", "JJ-99", "22"]
    problem = prepare(players).with_unit_weights()
    summed = 0.0
    for p in range(3):
        for holding in _rows(problem, p)[0]:
            fixed = [*players[:p], format_cards(holding), *players[p + 1 :]]
            spot = prepare(fixed)
            summed += exact_strategy(spot).estimate(spot)  # type: ignore[union-attr]
    assert _enumeration_seconds(problem, players) == pytest.approx(summed, rel=0.25)
    whole = exact_strategy(problem).estimate(problem)  # type: ignore[union-attr]
    assert summed > 2 * 3 * whole


def test_a_cancelled_distribution_raises() -> None:
    with pytest.raises(CancelledError, match="after 0 of 36 holdings"):
        pokerlab.equity_distribution("QQ+", "JJ-99", cancel=lambda: True)
    with pytest.raises(CancelledError, match="after 0 of 15 holdings"):  # heads-up on a flop
        pokerlab.equity_distribution("QQ+", "random", board="Ks9s2d", cancel=lambda: True)
    with pytest.raises(GameError) as caught:
        pokerlab.equity_distribution("QQ+", "JJ-99", cancel=3)  # type: ignore[arg-type]
    assert caught.value.field == "cancel"


def test_a_distribution_cancelled_in_its_last_sampled_holding_raises() -> None:
    """The last holding's Monte Carlo run ends early on ``cancel`` and says nothing: the
    distribution checks once more before it answers."""
    stop = threading.Event()

    def progress(fraction: float) -> None:
        if fraction >= 6 / 7:  # the last of 7 holdings is about to run
            stop.set()

    with pytest.raises(CancelledError, match="after 7 of 7 holdings"):
        pokerlab.equity_distribution(
            "AhAs", "KK", method="mc", trials=100_000, seed=1, progress=progress, cancel=stop
        )


def test_the_holding_cap_can_be_raised_from_the_api_and_the_cli() -> None:
    """Past 5,000 holdings a per-holding distribution is refused; the refusal names the cap and
    ``--max-holdings`` raises it (there was no CLI option: an Omaha range of 12,000 holdings
    could not be asked for at all)."""
    from click.testing import CliRunner

    from pokerlab.cli import app

    spot = ("QQ+", "AK")  # preflop: per holding, 18 + 16 holdings
    with pytest.raises(TooLargeError, match=r"34 holdings in all.*--max-holdings"):
        pokerlab.equity_distribution(*spot, max_holdings=33)
    dist = pokerlab.equity_distribution(*spot, max_holdings=34)
    assert [len(p.hands) for p in dist.players] == [18, 16]
    runner = CliRunner()
    refused = runner.invoke(app, ["distribution", *spot, "--max-holdings", "33"])
    assert refused.exit_code != 0 and "--max-holdings" in refused.output
    ok = runner.invoke(app, ["distribution", *spot, "--max-holdings", "34", "--json"])
    assert ok.exit_code == 0, ok.output
    for bad in (0, -3, 2.5, "many", True):
        with pytest.raises(GameError, match="whole number of holdings") as caught:
            pokerlab.equity_distribution(*spot, max_holdings=bad)  # type: ignore[arg-type]
        assert caught.value.field == "max_holdings"


def test_a_dealt_random_omaha_hand_is_listed_holding_by_holding() -> None:
    """It was refused ("a dealt 'random' hand has too many holdings to list"), also when given
    as '****' or '[2-A][2-A]**', however few holdings the dead cards left."""
    dead = ("2h 3h 4c 5c 6c 7c 8c 9c Tc Jc Qc Ac 3c 5d 6d 7d 8d 9d Td Jd Qd Ad 5h 6h 7h 8h 9h "
            "Th Jh Qh Kh Ah")  # fmt: skip
    spot = {"board": "2c3d4h9s8s", "dead": dead, "game": "omaha"}
    for hero in ("random", "****"):
        listed = pokerlab.equity_distribution(hero, "KsKd2s2d", **spot).players[0]  # type: ignore[arg-type]
        assert len(listed.hands) == 330  # C(11, 4): the 11 cards nobody holds
        expected = pokerlab.equity([hero, "KsKd2s2d"], **spot).players[0].equity
        assert listed.equity == pytest.approx(expected, abs=1e-12)
    with pytest.raises(TooLargeError, match="148,996 holdings in all"):
        pokerlab.equity_distribution("****", "KsKd2s2d", board="2c3d4h", game="omaha")
