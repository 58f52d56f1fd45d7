"""Hold'em equity: published values, exact vs Monte Carlo, errors, progress and cancellation.

Reference values come from ../shared/reference-values.md (sources cited per test).
"""

from __future__ import annotations

import itertools
import math
import re
import threading
from typing import Any

import numpy as np
import pytest

import pokerlab
from pokerlab import equity
from pokerlab.cards import format_cards
from pokerlab.engine._control import Control
from pokerlab.engine.exact import PreflopMatchups, PreflopTable
from pokerlab.engine.tally import (
    HI_SHARE,
    LO_SHARE,
    SCOOP,
    SHARE,
    STATS,
    TIE,
    from_winner_counts,
)
from pokerlab.errors import (
    CancelledError,
    CardError,
    DuplicateCardError,
    EmptyRangeError,
    GameError,
    PokerlabError,
    RangeError,
    TooLargeError,
)


def _counts(result):  # type: ignore[no-untyped-def]
    """(wins, ties, losses) of player 1 in a heads-up exact result, as integers."""
    c = result.counts
    total = c[2, 0]
    wins, ties = c[0, SCOOP], c[0, TIE]
    return int(wins), int(ties), int(total - wins - ties)


@pytest.mark.parametrize(
    ("hero", "villain", "expected"),
    [
        # poker-eval hcmp2 output (reference-values.md)
        ("AdAc", "KhKs", (1_388_072, 6_538, 317_694)),
        ("AdAc", "Td9d", (1_338_249, 6_912, 367_143)),
        ("AdAc", "QcJh", (1_450_987, 6_554, 254_763)),
    ],
)
def test_heads_up_preflop_exact_counts(hero: str, villain: str, expected: tuple[int, ...]) -> None:
    result = equity([hero, villain], method="exact")
    assert result.method == "exact"
    assert result.samples == 1_712_304
    assert _counts(result) == expected


@pytest.mark.parametrize(
    ("hero", "villain", "win", "tie"),
    [
        ("AsAc", "7d8d", 0.768322681, 0.002937562),  # holdem_calc README (--exact)
        ("AdAs", "JcTc", 0.781151594577, 0.00336213662994),  # holdem_calc README (--exact)
    ],
)
def test_heads_up_win_tie(hero: str, villain: str, win: float, tie: float) -> None:
    p = equity([hero, villain]).players[0]
    assert p.win == pytest.approx(win, abs=1e-9)
    assert p.tie == pytest.approx(tie, abs=1e-9)


def test_pair_vs_random_pokerstove_faq() -> None:
    # PokerStove FAQ: 2s2h vs random 50.3340 % (win 49.39 %, tie equity 0.95 %)
    p = equity(["2s2h", "random"], method="exact").players[0]
    assert p.equity * 100 == pytest.approx(50.3340, abs=5e-5)
    assert p.win * 100 == pytest.approx(49.39, abs=5e-3)
    assert p.tie_equity * 100 == pytest.approx(0.95, abs=5e-3)


def test_class_vs_class_games() -> None:
    # PokerStove: QQ vs 87s 78.2594 % over 41,095,296 games
    r = equity(["QQ", "87s"], method="exact")
    assert r.samples == 41_095_296
    assert r.players[0].equity * 100 == pytest.approx(78.2594, abs=5e-5)
    # OMPEval test.cpp: AA vs KK wins 50,371,344 / 10,986,372, ties 285,228 of 61,642,944
    r = equity(["AA", "KK"], method="exact")
    assert r.samples == 61_642_944
    assert (int(r.counts[0, SCOOP]), int(r.counts[1, SCOOP]), int(r.counts[0, TIE])) == (
        50_371_344,
        10_986_372,
        285_228,
    )


def test_exact_counts_weigh_deals_by_the_weights_as_written() -> None:
    """``counts[n, 0]`` is the total weight of the deals with the weights as written: the
    engine divides each range by its largest weight inside, which changes no equity but did
    change the counts (``flops`` read them: its flop probabilities and mean were off)."""
    runouts = math.comb(45, 2)
    half = equity(["AKs", "QQ:0.5"], board="Kd8c3c", method="exact")
    assert half.counts[-1, 0] == pytest.approx(3 * 6 * 0.5 * runouts)  # AsKs AhKh AcKc
    whole = equity(["AKs", "QQ"], board="Kd8c3c", method="exact")
    assert half.counts[:, 0] == pytest.approx(whole.counts[:, 0] * 0.5)
    left = equity(["AKs", "QQ:0.5,JJ"], board="JhJdJc", method="exact")  # only QQ is left
    assert left.counts[-1, 0] == pytest.approx(4 * 6 * 0.5 * runouts)


@pytest.mark.parametrize(
    ("players", "board", "dead", "expected", "games"),
    [
        # PokerStove output on a PokerStrategy forum
        (["QsQh", "8c7c", "random"], "Jc9h2d", "", (66.3427, 19.7377, 13.9195), 893_970),
        # OMPEval test.cpp
        (["random", "AA", "33"], "2c3c8h", "6h", (5.582, 11.535, 82.883), None),
        (["random", "random", "AK"], "4hAd3c4c7c", "6h", (15.201, 15.201, 69.597), None),
        (["3d7d", "2h9h", "2c9c"], "5d5h5c", "3s3c", (30.488, 34.756, 34.756), 820),
        (["AK", "random"], "2c3c", "", None, None),
    ],
)
def test_multiway_published(
    players: list[str],
    board: str,
    dead: str,
    expected: tuple[float, ...] | None,
    games: int | None,
) -> None:
    if len(board) == 4:  # a 2-card board is not a street: the engine must refuse it
        with pytest.raises(GameError, match="board"):
            equity(players, board=board, dead=dead)
        return
    r = equity(players, board=board, dead=dead, method="exact")
    places = 4 if games == 893_970 else 3
    assert expected is not None
    for p, want in zip(r.players, expected, strict=True):
        assert round(p.equity * 100, places) == pytest.approx(want, abs=10**-places)
    if games is not None:
        assert r.samples == games


def test_eval7_published_range_spots() -> None:
    # eval7 tests: AsAd vs {AA, A3o, 32s} 0.85337; QsJs vs JJ on KhJd8c 0.03687
    assert equity(["AsAd", "AA,A3o,32s"]).players[0].equity == pytest.approx(0.85337, abs=1e-5)
    r = equity(["QsJs", "JJ"], board="KhJd8c")
    assert r.players[0].equity == pytest.approx(0.03687, abs=1e-5)


def test_equities_sum_to_one_and_fields_consistent() -> None:
    r = equity(["AK", "QQ", "T9s"], board="Jh8c2d")
    assert sum(p.equity for p in r.players) == pytest.approx(1.0, abs=1e-12)
    for p in r.players:
        assert p.equity == pytest.approx(p.win + p.tie_equity)
        assert 0 <= p.tie_equity <= p.tie <= 1
        assert p.lose == pytest.approx(1 - p.win - p.tie)
        assert p.stderr == 0.0
    assert r.to_dict()["players"][0]["input"] == "AK"


def test_the_dead_cards_are_echoed_highest_first() -> None:
    assert equity(["AA", "KK"], dead="2c Ah Kh", method="mc", trials=1000).dead == "AhKh2c"


def test_weights_change_the_answer_like_duplicated_combos() -> None:
    # Weight 1/2 on KK is the same distribution as AA listed twice as often as KK.
    weighted = equity(["AA,KK:0.5", "QsQh"], board="2c7d9h", method="exact")
    manual = equity(["AA,KK", "QsQh"], board="2c7d9h", method="exact")
    aa = equity(["AA", "QsQh"], board="2c7d9h", method="exact").players[0].equity
    kk = equity(["KK", "QsQh"], board="2c7d9h", method="exact").players[0].equity
    assert weighted.players[0].equity == pytest.approx((2 * aa + kk) / 3, abs=1e-12)
    assert manual.players[0].equity == pytest.approx((aa + kk) / 2, abs=1e-12)


@pytest.mark.parametrize("method", ["exact", "mc"])
def test_tiny_weights_are_a_scale_not_an_underflow(method: str) -> None:
    """Weights matter only up to a factor per player: 1e-200 on both sides (a product of
    1e-400, which underflows to 0) gives the unweighted answer, not NaN."""
    sampling: dict[str, int] = {} if method == "exact" else {"trials": 100_000, "seed": 3}
    tiny = equity(["AA:1e-200", "QQ:1e-200,JJ:5e-201"], method=method, **sampling)
    plain = equity(["AA", "QQ,JJ:0.5"], method=method, **sampling)
    assert tiny.equities == pytest.approx(plain.equities, abs=1e-12)
    assert not math.isnan(tiny.players[0].equity)


# --- Monte Carlo against exact ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "board", "dead", "seed"),
    [
        (["AhAs", "KdKc"], "", "", 1),
        (["QQ+,AKs,AKo", "JJ-88,AQs+,AQo"], "", "", 2),
        (["AA,KK", "KK,QQ", "QQ,AA"], "", "", 3),
        (["QsQh", "8c7c", "random"], "Jc9h2d", "", 4),
        (["AK:0.25,22+", "random", "T9s"], "Th7c2h", "3s", 5),
        (["AsKs", "QQ+,AKs"], "Qh7c2d3c", "", 6),
    ],
)
def test_monte_carlo_within_four_standard_errors(
    players: list[str], board: str, dead: str, seed: int
) -> None:
    exact = equity(players, board=board, dead=dead, method="exact")
    mc = equity(players, board=board, dead=dead, method="mc", trials=200_000, seed=seed)
    assert mc.method == "monte-carlo" and mc.samples == 200_000 and mc.stopped == "trials"
    for e, m in zip(exact.players, mc.players, strict=True):
        assert m.stderr > 0
        assert abs(m.equity - e.equity) <= 4 * m.stderr, (e.equity, m.equity, m.stderr)
        assert abs(m.win - e.win) <= 4 * math.sqrt(e.win * (1 - e.win) / mc.samples) + 1e-12


def test_monte_carlo_is_reproducible_and_stops() -> None:
    a = equity(["AK", "QQ"], method="mc", trials=50_000, seed=7)
    b = equity(["AK", "QQ"], method="mc", trials=50_000, seed=7)
    assert a.equities == b.equities
    c = equity(["AK", "QQ"], method="mc", stderr=0.004, seed=7)
    assert c.stopped == "stderr" and max(p.stderr for p in c.players) <= 0.004
    d = equity(["AK", "QQ"], method="mc", time_limit=0.2, seed=7)
    assert d.stopped == "time"


def test_auto_chooses_exact_when_small_and_mc_when_large() -> None:
    assert equity(["AhAs", "KdKc"]).method == "exact"
    big = equity(["random", "random", "random"], time_limit=0.3, seed=1)
    assert big.method == "monte-carlo"


def test_the_preflop_estimate_counts_the_suit_symmetries_left() -> None:
    """Preflop multiway enumerates one matchup per suit-isomorphic class, so a fixed hand,
    which leaves few suit symmetries, costs more per matchup than suit-blind ranges. A flat
    guess made AcKd vs random vs QQ (6-7 s) look like 1.7 s, so ``auto`` enumerated it."""
    from pokerlab.engine.api import AUTO_EXACT_SECONDS
    from pokerlab.engine.exact import PreflopMatchups
    from pokerlab.engine.problem import prepare
    from pokerlab.engine.strategies import exact_strategy

    def per_matchup(players: list[str]) -> float:
        problem = prepare(players)  # (AcKd vs random vs QQ now runs board by board: quicker)
        return PreflopMatchups().estimate(problem) / math.prod(problem.sizes)

    blind = per_matchup(["QQ+", "JJ-99", "AK"])  # 24 suit permutations keep every range
    assert per_matchup(["AsAh", "JJ-99", "22"]) > 3 * blind  # 4 keep AsAh
    assert per_matchup(["AcKd", "random", "QQ"]) > 6 * blind  # 2 keep AcKd
    spot = ["AcKd", "random", "QQ"]
    assert exact_strategy(prepare(spot)).estimate(prepare(spot)) > AUTO_EXACT_SECONDS  # type: ignore[union-attr]
    assert equity(["AcKd", "random", "QQ"], trials=2_000, seed=1).method == "monte-carlo"


def test_the_preflop_estimate_counts_only_matchups_that_share_no_card() -> None:
    """``AA,KK`` x4: 20,736 matchups, of which only the 216 with two AA and two KK are
    possible. Costing every matchup estimated 4.6 s, so ``auto`` sampled a noisy 24.9-25.1 %
    where enumerating gives exactly 25 % in a few hundredths of a second."""
    from pokerlab.engine.api import AUTO_EXACT_SECONDS
    from pokerlab.engine.exact import _disjoint_share
    from pokerlab.engine.problem import prepare
    from pokerlab.engine.strategies import exact_strategy

    problem = prepare(["AA,KK"] * 4)
    share = _disjoint_share(problem)
    sampling_sd = math.sqrt((1 / 96) * (95 / 96) / 4096)
    assert abs(share - 216 / 20_736) < 4 * sampling_sd
    assert exact_strategy(problem).estimate(problem) < AUTO_EXACT_SECONDS  # type: ignore[union-attr]
    result = equity(["AA,KK"] * 4)
    assert result.method == "exact"
    assert [p.equity for p in result.players] == pytest.approx([0.25] * 4, abs=1e-12)
    # a share too small to sample is floored, never taken for "no work"
    crowded = prepare(["AA,KK,QQ,JJ"] * 8)  # 3.3 M of 24^8 = 1.1e11 matchups: 3e-5
    assert _disjoint_share(crowded) >= 1 / 4096


# --- progress and cancellation ----------------------------------------------------------------


def test_progress_reaches_one() -> None:
    seen: list[float] = []
    equity(["QQ+,AKs", "JJ-99"], method="exact", progress=seen.append)
    assert seen and seen[-1] == pytest.approx(1.0)
    assert all(a <= b for a, b in itertools.pairwise(seen))


def test_cancel_exact_raises_and_mc_returns_partial() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(CancelledError):
        equity(["QQ+,AKs", "JJ-99"], method="exact", cancel=stop)
    r = equity(["AK", "QQ"], method="mc", trials=10**9, cancel=lambda: True, seed=1)
    assert r.stopped == "cancelled" and 0 < r.samples < 10**9


# --- bad input ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kwargs", "error", "message"),
    [
        (dict(players=["AsKs", "AsQd"]), DuplicateCardError, "'As' is used twice"),
        (dict(players=["AsKs", "QQ"], board="As7c2d"), DuplicateCardError, "used twice"),
        (dict(players=["AsKs", "QQ"], board="Qh7c"), GameError, "board has 0, 3, 4, 5"),
        (dict(players=["AsKs", "QQ"], board="Xh7c2d"), CardError, "character 1"),
        (dict(players=["AsKs"]), GameError, "at least 2 players"),
        (dict(players=["random"] * 24), GameError, "the deck has 52"),
        (dict(players=["AsKs", "AA"], board="AhAdAc"), EmptyRangeError, "player 2"),
        (dict(players=["AsKs", "QQ+,AKx"]), RangeError, "player 2"),
        (dict(players=["AsAh", "AA", "AA"]), EmptyRangeError, "no deal is possible"),
        # a random hand is left out of the check (it fits in any cards left): the rest decide
        (dict(players=["AsAh", "AA", "random", "AA"]), EmptyRangeError, "no deal is possible"),
        (
            dict(players=["AsAhKsKh", "AA**", "random", "AA**"], game="omaha"),
            EmptyRangeError,
            "no deal is possible",
        ),
        (dict(players=["random"] * 3, method="exact"), TooLargeError, "--mc"),
        (dict(players=["AK", "QQ"], method="fast"), GameError, "unknown method"),
        (
            dict(players=["AK", "QQ"], method="monte carlo"),
            GameError,
            r"exact or monte-carlo \(mc\)$",
        ),
        (dict(players=["AK", "QQ"], board="Ks", game="stud"), GameError, "got 1 board card$"),
        (dict(players=["AK", "QQ"], game="bridge"), GameError, "unknown game"),
        (dict(players=["AK", "QQ"], method="mc", trials=0), GameError, "trials"),
        # Monte Carlo options an exact run would ignore
        (dict(players=["AK", "QQ"], method="exact", seed=1), GameError, "'seed' applies to"),
        (dict(players=["AK", "QQ"], method="exact", trials=9), GameError, "'trials' applies"),
        (dict(players=["AK", "QQ"], method="exact", stderr=0.1), GameError, "'stderr' applies"),
        (
            dict(players=["AK", "QQ"], method="exact", time_limit=5.0),
            GameError,
            "'time_limit' applies to Monte Carlo, not method 'exact'",
        ),
    ],
)
def test_bad_input_is_a_clear_pokerlab_error(
    kwargs: dict[str, object], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message) as info:
        equity(**kwargs)  # type: ignore[arg-type]
    assert isinstance(info.value, PokerlabError) and isinstance(info.value, ValueError)


def test_counts_array_is_consistent() -> None:
    r = equity(["AA", "KK", "QQ"], board="2c3d4h")
    c = r.counts
    assert c.shape == (4, STATS)
    assert c[3, 0] == pytest.approx(np.sum(c[:3, SHARE]))
    assert np.allclose(c[:3, HI_SHARE], c[:3, SHARE]) and not c[:3, LO_SHARE].any()
    assert np.allclose(c[:3, SHARE] / c[3, 0], r.equities)


def test_one_result_and_a_stack_of_results_fold_to_the_same_bits() -> None:
    """``from_winner_counts`` folds one result with Python floats and a stack (one result per
    runout) with array slices: the same operations in the same order, so the same bits."""
    rng = np.random.default_rng(5)
    for n in range(1, 24):
        for scale in (1.0, 1e6, 1e-3):
            counts = rng.random((n + 1, n)) * scale
            counts[n, 1:] = 0
            one = from_winner_counts(counts)
            stacked = from_winner_counts(np.stack([counts, counts[::-1, ::-1]]))
            assert one.tobytes() == stacked[0].tobytes()
    assert from_winner_counts(np.array([[3.0, 1.0], [0.0, 1.0], [4.0, 0.0]]))[
        :, [SHARE, SCOOP, TIE]
    ].tolist() == [[3.5, 3.0, 1.0], [0.5, 0.0, 1.0], [4.0, 0.0, 0.0]]


@pytest.mark.parametrize(
    ("players", "dead"),
    [
        (["AhAs", "KdKc", "random"], ""),  # pairs: swapping a pair's suits maps it onto itself
        (["AhAs", "KdKc", "QQ-TT,AKs"], "2c 7h"),  # the maps must keep the dead cards
        (["QQ+,AK", "JJ,AQs", "KsKh,T9s"], "Qd"),
        (["AcKd", "QQ,JJ", "TT,22"], "5s"),
    ],
)
def test_preflop_matchups_cached_by_suit_orbit_count_what_each_one_counts(
    monkeypatch: pytest.MonkeyPatch, players: list[str], dead: str
) -> None:
    """The matchup cache keys a matchup by its orbit under the suit maps that keep the dead
    cards; the order of first appearance it used missed the swaps of a pair's two suits
    (``AhAs`` vs ``KdKc`` vs ``random``: 2.1 s, now 0.6). Every matchup enumerated on its own
    must count the same."""
    from pokerlab.engine import exact
    from pokerlab.engine.problem import prepare

    problem = prepare(players, dead=dead).with_unit_weights()
    cached = PreflopMatchups().run(problem, Control())
    kernels = exact._kernels()
    monkeypatch.setattr(kernels.exact, "CACHE_MAX_PLAYERS", 0)  # no cache
    alone = PreflopMatchups().run(problem, Control())
    assert cached.deals == alone.deals
    np.testing.assert_allclose(cached.stats, alone.stats, rtol=1e-12)


def test_the_suit_maps_keep_the_dead_cards() -> None:
    from pokerlab.cards import cards_to_mask, parse_cards
    from pokerlab.engine.exact import dead_preserving_suit_maps

    assert len(dead_preserving_suit_maps(0)) == 24
    assert dead_preserving_suit_maps(0)[0].tolist() == [0, 1, 2, 3]  # the identity first
    assert len(dead_preserving_suit_maps(cards_to_mask(parse_cards("Qd")))) == 6
    assert len(dead_preserving_suit_maps(cards_to_mask(parse_cards("2c 7h")))) == 2
    assert len(dead_preserving_suit_maps(cards_to_mask(parse_cards("2c 2h")))) == 4


# --- the precomputed heads-up preflop table --------------------------------------------------


def test_preflop_table_entries_match_the_engine() -> None:
    """Recompute a fixed-seed sample of the shipped table's matchups without the table."""
    from pokerlab.engine._preflop_table import load
    from pokerlab.engine.problem import prepare
    from pokerlab.ranges import Range

    ids, table = load()
    assert len(ids) == len(set(ids.tolist())) and np.all(np.diff(ids) > 0)
    assert np.all(table[:, 2] == 1_712_304)  # C(48, 5) boards for every matchup
    combos = Range("random").combos
    rng = np.random.default_rng(2026)
    for _ in range(12):
        a, b = rng.choice(len(combos), size=2, replace=False)
        if set(combos[a].tolist()) & set(combos[b].tolist()):
            continue
        hands = [format_cards(combos[i].tolist()) for i in (a, b)]
        problem = prepare(hands)
        with_table = PreflopTable().run(problem, Control())
        without = PreflopMatchups().run(problem, Control())
        assert np.array_equal(with_table.stats, without.stats), hands


def test_table_lookup_ids_are_the_kernels_canonical_ids() -> None:
    """The numpy lookup's canonical ids (``_preflop_table.matchup_ids``) equal the id the table
    was built with (``_exact._canonical_id``, the enumeration kernel's): player 0 in every suit
    pattern (all 16 AK combos, AA, 22 and random combos) against every one of the 1,326."""
    from pokerlab.engine._exact import _canonical_id
    from pokerlab.engine._preflop_table import combo_indices, matchup_ids
    from pokerlab.ranges import Range

    combos = Range("random").combos
    rng = np.random.default_rng(11)
    firsts = [*Range("AK").combos, *Range("AA").combos, *Range("22").combos,
              *combos[rng.choice(len(combos), size=30, replace=False)]]  # fmt: skip
    cards = np.ascontiguousarray(np.concatenate([np.array(firsts), combos]))
    label = np.empty(4, dtype=np.int64)
    choice = np.empty(2, dtype=np.int64)
    no_cards = np.empty(52, dtype=np.int64)
    index = combo_indices(cards)
    checked = 0
    for a in range(len(firsts)):
        seconds = len(firsts) + np.arange(len(combos))
        ours = matchup_ids(np.full(len(combos), index[a]), index[seconds])
        for b, mine in zip(seconds.tolist(), ours.tolist(), strict=True):
            if set(cards[a].tolist()) & set(cards[b].tolist()):
                continue
            choice[0], choice[1] = a, b
            assert mine == _canonical_id(choice, cards, 2, no_cards, np.int64(0), label)
            checked += 1
    assert checked > 70_000


@pytest.mark.parametrize(
    "players",
    [["AhAs", "KdKc"], ["AKs", "QQ"], ["AhKh", "random"], ["AA:0.3,KK", "QQ:0.7,JsTs:0.2"]],
)
def test_table_lookup_one_by_one_equals_the_array_lookup(
    players: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A few heads-up matchups are looked up one by one in Python, more with array calls
    (``FEW_MATCHUPS`` moved to force each way): the same deals and counts over the same
    matchups (the same bits unweighted; weighted sums added in another order agree to
    rounding)."""
    from pokerlab.engine import _preflop_table as table
    from pokerlab.engine.problem import prepare

    p = prepare(players).with_unit_weights()
    arrays = (p.combos, p.offsets, p.weights, p.combo_masks)
    total = p.sizes[0] * p.sizes[1]
    for start, stop in [(0, total), (0, min(total, 3)), (total // 3, total)]:
        monkeypatch.setattr(table, "FEW_MATCHUPS", total)
        few, few_deals = table.lookup(*arrays, start, stop)
        monkeypatch.setattr(table, "FEW_MATCHUPS", -1)
        many, many_deals = table.lookup(*arrays, start, stop)
        assert few_deals == many_deals > 0
        if all(p.uniform):
            assert np.array_equal(few, many)
        else:
            assert np.allclose(few, many, rtol=1e-14, atol=0)


def test_table_and_engine_agree_on_ranges() -> None:
    from pokerlab.engine.problem import prepare

    problem = prepare(["QQ+,AKs", "JJ-99,AQs"])
    with_table = PreflopTable().run(problem, Control())
    without = PreflopMatchups().run(problem, Control())
    assert with_table.deals == without.deals
    assert np.array_equal(with_table.stats, without.stats)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: equity(["AhAs", "KdKc"], method="mc", trials=1000.5), "got 1000.5"),
        (lambda: equity(["AhAs", "KdKc"], method="mc", trials=True), "got True"),
        (lambda: equity(["AhAs", "KdKc"], method="mc", trials="1000"), "got '1000'"),
        (lambda: equity(["AhAs", "KdKc"], method="mc", stderr="0.1"), "got '0.1'"),
        (lambda: equity(["AhAs", "KdKc"], method="mc", time_limit=True), "got True"),
        (lambda: equity(["AhAs", "KdKc"], game=None), "a game is a name"),  # type: ignore[arg-type]
        (lambda: pokerlab.outs(["9h8h", "AsKd"], board="Th7c2h", time_limit=0), "got 0"),
        (lambda: pokerlab.query(b"select 1 from h='AhAs'"), "got bytes"),  # type: ignore[arg-type]
    ],
)
def test_wrong_types_are_pokerlab_errors(call: Any, message: str) -> None:
    """Arguments of the wrong type get the library's ValueError naming them: a float count of
    trials ran and reported 1000.5 samples, a string one or game=None raised a TypeError or an
    AttributeError from deep inside, outs' time_limit=0 said 'about 0 s of work, over 0 s'."""
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_plain_cards_are_echoed_in_canonical_form() -> None:
    """definitions.md: output uses the canonical two-character form (Td, not 10d)."""
    result = equity(["ah as", "10h10s", "QQ+,AKs"]).to_dict()
    assert [p["input"] for p in result["players"]] == ["AhAs", "ThTs", "QQ+,AKs"]
    omaha = equity(["as ah ks kh", "random"], board="Qs7h2d5c", game="omaha").to_dict()
    assert omaha["players"][0]["input"] == "AsAhKsKh"
    # a list of exact holdings is a range, echoed as written (not as one long hand)
    listed = equity(["AsKsQsJs,AhKhQhJh", "2c2d3c3d"], board="9c8c7c", game="omaha")
    assert listed.players[0].input == "AsKsQsJs,AhKhQhJh"
    assert equity(["AhKh,QdQc", "JJ"]).players[0].input == "AhKh,QdQc"


def test_a_card_named_twice_is_reported_before_the_card_count() -> None:
    """A dead card that a hand also holds was reported as '2 players need 57 cards'."""
    dead = "Kc " + " ".join(f"{r}{s}" for s in "cdhs" for r in "23456789TJQ")
    with pytest.raises(DuplicateCardError, match="'Kc' is used twice"):
        equity(["AhAs", "KcKd"], dead=dead)
    with pytest.raises(GameError, match="2 players need"):
        equity(["AhAs", "KcKd"], dead=dead[3:])


def test_no_deal_is_found_out_at_once_for_many_players_of_one_range(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eleven players of AA-TT share 20 cards for 22 (the walk took two minutes to find no
    deal); nine of them beside ``AsKs,AhKh`` have cards enough, but only eight pairs: the walk
    now takes same-range players' holdings in increasing order only (3 s of kernel walking
    without that, under a millisecond with it). Past its steps the walk says it cannot tell."""
    from pokerlab.engine import _joint_holding, problem

    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_PYTHON", 100)
    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_KERNEL", 10_000_000)
    with pytest.raises(EmptyRangeError, match="no deal is possible"):
        problem.prepare(["AA,KK,QQ,JJ,TT"] * 11)
    with pytest.raises(EmptyRangeError, match="no deal is possible"):
        problem.prepare(["AsKs,AhKh"] + ["AA,KK,QQ,JJ,TT"] * 9)
    assert problem.prepare(["AsKs,AhKh"] + ["AA,KK,QQ,JJ,TT"] * 8).n_players == 9
    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_PYTHON", 1)
    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_KERNEL", 5)
    with pytest.raises(TooLargeError, match="cannot tell quickly whether any deal is possible"):
        problem.prepare(["AsKs,AhKh"] + ["AA,KK,QQ,JJ,TT"] * 9)


def test_no_deal_names_the_rank_that_runs_short() -> None:
    """Three players of AA said only that every way of dealing used some card twice."""
    with pytest.raises(EmptyRangeError, match="need at least 6 Aces") as caught:
        equity(["AA", "AA", "AA"])
    assert str(caught.value).endswith("(2 in every hand of players 1, 2 and 3) and 4 are left")
    with pytest.raises(EmptyRangeError, match="uses some card twice"):  # no one rank short
        equity(["AsKs,AhKh"] + ["AA,KK,QQ,JJ,TT"] * 9)


@pytest.mark.parametrize("player", [None, b"AhAs", 5, ["Ah", "As"]])
def test_a_player_that_is_not_text_says_its_type(player: object) -> None:
    """None was read as the range 'None' ("invalid range 'None' ... found 'N'")."""
    with pytest.raises(
        GameError, match=r"player 1: a hand or range is text \(or a Range\), not "
    ) as info:
        equity([player, "KdKc"])  # type: ignore[list-item]
    assert info.value.field == "players.0"


def test_a_range_cut_to_one_holding_blocks_the_others_combos_as_a_hand_does() -> None:
    """A player's combos leave out what another player's known hand uses; a range the board
    and dead cards cut to one holding (``Q2s,3hKc`` with the queens and the 2d dead: 3hKc) is
    such a hand, but the others' counts kept its cards (9 combos where 6 are possible; the
    equities were right either way). QA's spot, counted by hand: 22 from 2c 2h 2s (3), A3o
    from Ad As and 3d 3s (2), 5s8d (1); KcAs uses the Kc."""
    spot = ["22:0.3,A3o:0.75,KcAs,5s8d:0.3", "Q2s:0.5,3hKc", "T2:0.5"]
    dead = "Qc Qs 8s Qh Ac 7s Jd 2d 4h Ah Jh 4d"
    result = equity(spot, board="Js5h8c3c", dead=dead, method="exact")
    assert [p.combos for p in result.players] == [6, 1, 12]
    as_hand = equity([spot[0], "3hKc", spot[2]], board="Js5h8c3c", dead=dead, method="exact")
    assert [p.combos for p in as_hand.players] == [6, 1, 12]
    assert [p.equity for p in result.players] == [p.equity for p in as_hand.players]
