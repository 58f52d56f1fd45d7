"""The game-agnostic engine: cross-checked with the hold'em kernels, and stud basics."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pokerlab import equity
from pokerlab.engine import exact
from pokerlab.engine._control import Control
from pokerlab.engine.exact import GameBoards, StudDeals, StudSweep
from pokerlab.engine.problem import prepare
from pokerlab.engine.strategies import exact_strategy
from pokerlab.engine.tally import player_stats
from pokerlab.errors import EmptyRangeError, GameError, RangeError, TooLargeError


@pytest.mark.parametrize(
    ("players", "board", "dead"),
    [
        (["AhAs", "KdKc"], "Qh7c2d", ""),
        (["QQ+,AKs", "JJ-99,AQs", "T9s"], "Jh8c2d", "3s"),
        (["AK:0.5,22", "random"], "Th7c2hKs", ""),
        (["3d7d", "2h9h", "2c9c"], "5d5h5c", "3s3c"),
        (["AA,KK", "QQ"], "2c7d9h4s5c", ""),
    ],
)
def test_generic_kernel_matches_holdem_kernel(players: list[str], board: str, dead: str) -> None:
    problem = prepare(players, board=board, dead=dead)
    holdem = exact_strategy(problem)
    assert holdem is not None and holdem.name != "game-boards"
    fast_tally = holdem.run(problem, Control())
    generic_tally = GameBoards().run(problem, Control())
    assert fast_tally.deals == generic_tally.deals
    fast = player_stats(fast_tally.stats, sampled=False, split=False)
    generic = player_stats(generic_tally.stats, sampled=False, split=False)
    for a, b in zip(fast, generic, strict=True):
        assert a.equity == pytest.approx(b.equity, abs=1e-12)
        assert a.win == pytest.approx(b.win, abs=1e-12)
        assert a.tie == pytest.approx(b.tie, abs=1e-12)
        assert a.tie_equity == pytest.approx(b.tie_equity, abs=1e-12)


def test_stud_exact_and_monte_carlo_agree() -> None:
    players = ["AsKsQsJs9c", "2h3h4h5h7d"]
    exact = equity(players, game="stud", method="exact")
    assert exact.method == "exact"
    assert exact.samples == 42 * 41 // 2 * (40 * 39 // 2)  # two cards each from 42 unseen
    mc = equity(players, game="stud", method="mc", trials=100_000, seed=3)
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 4 * m.stderr


def test_stud_inputs_are_checked() -> None:
    with pytest.raises(GameError, match="no board"):
        equity(["AsKsQs", "2h3h4h"], game="stud", board="2c3c4c")
    with pytest.raises(RangeError, match="has 8 cards but a holding has 7"):
        equity(["AsKsQsJsTs9s8s7s", "2h3h4h"], game="stud")
    with pytest.raises(GameError, match="the deck has 52"):
        equity(["*"] * 9, game="stud")  # 8 share their seventh card
    # known cards typed with commas read as one known card among three (53.9 % for 67.9 %)
    with pytest.raises(RangeError, match=r"player 1: .*write the hand without commas \(AsAhKs\)"):
        equity(["As,Ah,Ks", "QcQd2h"], game="stud")
    assert equity(["As Ah Ks", "QcQd2h"], game="stud").players[0].combos == 1


def test_messages_name_the_game_with_its_article() -> None:
    with pytest.raises(GameError, match="an Omaha board has 0, 3, 4, 5 cards, got 2"):
        equity(["AsAhKsKh", "QcQdJcJd"], board="2c3c", game="omaha")
    from pokerlab.games import get_game

    assert [get_game(g).a_title for g in ("omaha", "razz")] == ["an Omaha", "a Razz"]


def test_stud_up_down_separator_is_accepted() -> None:
    a = equity(["AsKs|Qs", "2h3h|4h"], game="stud", method="mc", trials=20_000, seed=1)
    b = equity(["AsKsQs", "2h3h4h"], game="stud", method="mc", trials=20_000, seed=1)
    assert a.equities == b.equities
    assert np.isclose(sum(a.equities), 1.0)


@pytest.mark.parametrize(
    ("game", "players", "dead"),
    [
        ("stud", ["AsKsQsJs9c", "2h3h4h5h7d"], ""),
        ("stud", ["AsAhKd7c2s", "QcQdJs8h8c"], ""),
        # three cards to come each: twelve dead cards (other players' folded upcards) cut the
        # joint deals that the plain walk visits from 141 M to 18 M
        ("stud", ["9s9h9d2c", "AcKcQcJc"], "9cTc2h2d7s7h6d5s4c3dKhQd"),
        ("stud-hilo", ["AsKsQsJs9c", "2h3h4h5h7d"], ""),
        ("stud-hilo", ["As2d3h9c4d", "KdKc7s5h5c"], ""),
        ("stud-hilo", ["Ac2c3c5d", "4c4d7d8d"], "As2s3s6c6d8hTsJdKsQh9h5h"),
        # unequal cards to come: player 2's completions are the largest subsets counted (k2 <
        # k1, kept apart from the per-bucket counts) or not (k2 > k1)
        ("stud-hilo", ["Ac2c3c5d", "4c4d7d8d9h"], ""),
        ("stud-hilo", ["4c4d7d8d9h", "Ac2c3c5d"], ""),
        ("razz", ["As2d3h9c4d", "KdKc7s5h5c"], ""),
        ("razz", ["AsAhKd7c2s", "QcQdJs8h8c"], ""),
    ],
)
def test_stud_sweep_matches_plain_deal_enumeration(
    game: str, players: list[str], dead: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The inclusion-exclusion sweeps (one evaluator, and split pots) against walking every
    joint deal: every statistic, hi and lo halves included. A single-pot sweep is also run as
    two halves (lower values up, upper values down), as big sweeps are: the same counts."""
    problem = prepare(players, dead=dead, game=game)
    assert StudSweep().applies(problem)
    swept = StudSweep().run(problem, Control())
    plain = StudDeals().run(problem, Control())
    assert swept.deals == plain.deals
    np.testing.assert_allclose(swept.stats, plain.stats, rtol=1e-12, atol=1e-9)
    if not problem.game.split:
        assert not exact._halves_matchups(problem)  # small sweeps stay whole
        monkeypatch.setattr(exact, "_HALVED_MIN_COMPLETIONS", 0)
        assert exact._halves_matchups(problem)
        halves = StudSweep().run(problem, Control(threads=2))
        assert halves.deals == swept.deals
        assert np.array_equal(halves.stats, swept.stats)


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("stud", ["KKQ92", "AsAh2c7d8d"]),
        ("stud-hilo", ["A23xx", "KsKh7c7d9s"]),  # A2(3-)x: the same check in 21 s, not 3
        ("razz", ["(5-5-5-)K", "As2h3c4d"]),
    ],
)
def test_stud_matchups_equal_up_to_suits_are_swept_once(
    game: str, players: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Matchups with one ``spot_key`` share one sweep; the counts are those of sweeping every
    matchup, to the last bit, on any number of threads."""
    problem = prepare(players, game=game)
    assert StudSweep().applies(problem)
    sweeps: list[int] = []
    original = exact._SpotOutcomes.get

    def counted(self: exact._SpotOutcomes, a: int, b: int, sweep: object) -> object:
        def run() -> object:
            sweeps.append(1)
            return sweep()  # type: ignore[operator]

        return original(self, a, b, run)

    monkeypatch.setattr(exact._SpotOutcomes, "get", counted)
    shared = StudSweep().run(problem, Control(threads=1))
    matchups = len(sweeps)
    monkeypatch.setattr(exact._SpotOutcomes, "get", lambda self, a, b, sweep: sweep())
    every = StudSweep().run(problem, Control(threads=1))
    assert shared.deals == every.deals
    assert np.array_equal(shared.stats, every.stats)
    valid = sum(
        1
        for a in range(problem.sizes[0])
        for b in range(problem.sizes[1])
        if not problem.combo_masks[a] & problem.combo_masks[problem.offsets[1] + b]
    )
    # the hero's two suits (razz: every suit) are interchangeable: about half are swept
    assert matchups < 0.6 * valid, (matchups, valid)
    if game != "razz":  # the estimate counts the sweeps (razz's are RankClasses's to group)
        assert exact._swept_spots(problem) == matchups
    monkeypatch.setattr(exact._SpotOutcomes, "get", original)
    two = StudSweep().run(problem, Control(threads=2))
    assert np.array_equal(two.stats, shared.stats)


def test_symmetric_stud_ranges_are_estimated_by_their_distinct_spots() -> None:
    """KK* against AA* sweeps 3,753 spots for 85,264 matchups: it was refused at an estimated
    4,174 s (every matchup counted), over the 1,800 s limit of a forced exact run."""
    problem = prepare(["KK*", "AA*"], game="stud")
    assert exact._space(problem) == 85_264
    assert exact._swept_spots(problem) < exact._space(problem) / 20
    assert StudSweep().estimate(problem) < 1_800


def test_stud_third_street_exact_counts_every_deal() -> None:
    assert exact._halves_matchups(prepare(["AsKsQs", "2h3h4h"], game="stud"))
    r = equity(["AsKsQs", "2h3h4h"], game="stud", method="exact", threads=1)
    assert r.samples == 163_185 * 111_930  # C(46,4) * C(42,4)
    two = equity(["AsKsQs", "2h3h4h"], game="stud", method="exact", threads=2)
    assert np.array_equal(two.counts, r.counts)
    mc = equity(["AsKsQs", "2h3h4h"], game="stud", method="mc", trials=100_000, seed=9)
    assert abs(r.players[0].equity - mc.players[0].equity) <= 4 * mc.players[0].stderr


@pytest.mark.parametrize("seed", range(6))
def test_stud_sweep_halves_add_up_to_the_whole(seed: int) -> None:
    """The sweep's lower and upper halves on random spots (stud and razz, 1 to 3 cards to come
    each, unequal counts, dead cards): their wins, ties and deals add up to the whole sweep's."""
    from pokerlab.engine import _stud_sweep as sweep
    from pokerlab.engine._tables import kernel_tables
    from pokerlab.games import get_game

    rng = np.random.default_rng(seed)
    game = get_game("razz" if seed % 3 == 2 else "stud")
    cards = rng.permutation(52).astype(np.uint8)
    n1, n2 = int(rng.integers(4, 7)), int(rng.integers(4, 7))
    dead = int(rng.integers(0, 8))
    known1, known2 = cards[:n1].copy(), cards[n1 : n1 + n2].copy()
    deck = np.sort(cards[n1 + n2 + dead :])
    tables = kernel_tables(game)
    hand = (known1, n1, known2, n2, deck, len(deck), game.hole_cards, int(game.high),
            int(game.low))  # fmt: skip
    never = np.zeros(1, np.uint8)  # a stop flag never set
    whole = [int(x) for x in sweep.heads_up_sweep(*hand, sweep.BINOM, tables, never)]
    sub1, val1, sub2, val2 = sweep.heads_up_completions(*hand, tables, never)
    inputs = (sub1, val1, game.hole_cards - n1, sub2, val2, game.hole_cards - n2, len(deck),
              sweep.BINOM)  # fmt: skip
    lower, upper = (
        [int(x) for x in sweep.heads_up_sweep_part(*inputs, part, never)]
        for part in (sweep.LOWER, sweep.UPPER)
    )
    assert [a + b for a, b in zip(lower, upper, strict=True)] == whole
    assert lower[2] > 0 and upper[2] > 0  # the split value splits


def test_a_random_omaha_hand_counts_the_holdings_known_cards_leave() -> None:
    """As a hold'em 'random' range leaves out the holdings the other hands block (C(46, 2) with
    AhAs and a 4-card board), a dealt Omaha 'random' counts C(44, 4), not C(48, 4)."""
    holdem = equity(["AhAs", "random"], board="Qs7h2d5c", method="mc", trials=100, seed=1)
    omaha = equity(["AsAhKsKh", "random"], board="Qs7h2d5c", game="omaha",
                            method="mc", trials=100, seed=1)  # fmt: skip
    assert holdem.players[1].combos == math.comb(46, 2)
    assert omaha.players[1].combos == math.comb(44, 4)


def test_a_random_omaha_hand_without_some_cards_avoids_them() -> None:
    """``random!As!Ah!Ad!Ac`` was dealt as plain ``random`` (the exclusions dropped, 0.44 points
    of equity on Jh7s9d). It is now its holdings: the same as ``K-K-K-K-`` (no ace), exactly."""
    spot = {"board": "2h7s9d3c", "game": "omaha", "method": "exact"}
    avoiding = equity(["KcKdQcQd", "random!As!Ah!Ad!Ac"], **spot)  # type: ignore[arg-type]
    no_ace = equity(["KcKdQcQd", "K-K-K-K-"], **spot)  # type: ignore[arg-type]
    assert avoiding.samples == no_ace.samples
    assert np.array_equal(avoiding.equities, no_ace.equities)
    with pytest.raises(TooLargeError, match="player 2: a 6-card Omaha hand that avoids As"):
        equity(["KcKdQcQdJhJd", "random!As"], board="2h7s9d", game="omaha6", method="mc")


@pytest.mark.parametrize(
    ("game", "players"),
    [
        ("omaha", ["AA**", "KK**", "QQ**", "JJ**"]),
        ("omaha5", ["AA***", "KK***", "QQ***"]),
    ],
)
def test_crowded_pair_ranges_find_a_deal_at_once(
    game: str, players: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each range lists its holdings aces first, so the walk's first player took the aces the
    last one needs and searched on: these spots were refused after 300,000,000 steps ("cannot
    tell quickly"). Least contested holdings first, a deal turns up within a million steps."""
    from pokerlab.engine import _joint_holding

    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_KERNEL", 1_000_000)
    assert prepare(players, game=game).n_players == len(players)
    result = equity(players, game=game, method="mc", trials=20_000, seed=3, threads=1)
    assert result.players[0].equity > max(p.equity for p in result.players[1:])


@pytest.mark.parametrize(
    ("players", "board", "need", "left"),
    [
        (
            ["AA**", "KK**", "KK**", "KK**"],
            "",
            "6 Kings (2 in every hand of players 2, 3 and 4)",
            4,
        ),
        (["AA**", "KK**", "KK**"], "Kc2d3h", "4 Kings (2 in every hand of players 2 and 3)", 3),
        (
            ["KK**", "Kx**", "KK**", "Kx**"],
            "",
            "6 Kings (2 in every hand of players 1 and 3, 1 in every hand of players 2 and 4)",
            4,
        ),
        (
            ["ssss", "ssss", "ssss", "ss**"],
            "",
            "14 spades (4 in every hand of players 1, 2 and 3, 2 ",
            13,
        ),
    ],
)
def test_a_rank_or_suit_the_ranges_need_too_often_is_named(
    players: list[str], board: str, need: str, left: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``AA**`` against three ``KK**`` walked 300,000,000 steps and then said it could not tell
    whether a deal exists ("narrow the ranges"); six kings are needed and four exist."""
    from pokerlab.engine import _joint_holding

    monkeypatch.setattr(_joint_holding, "WALK_STEPS_IN_KERNEL", 1)  # the bound, not the walk
    with pytest.raises(EmptyRangeError, match=r"^no deal is possible: the ranges need") as caught:
        prepare(players, board=board, game="omaha")
    assert need in str(caught.value) and str(caught.value).endswith(f" and {left} are left")
    assert caught.value.field == "players"


def test_a_big_stud_wildcard_hand_and_a_big_pattern_are_refused_by_player() -> None:
    with pytest.raises(TooLargeError, match=r"player 3: '\*\*\*\*\*\*' is 6 unknown cards") as err:
        prepare(["AsAd|Kc", "QsQh|Jd", "******"], game="stud")
    assert "avoids  has" not in str(err.value) and "'*' (one card of any value)" in str(err.value)
    with pytest.raises(TooLargeError, match=r"player 1: the pattern '2'.*':' joins patterns"):
        prepare(["AsAhKsKh7c2d:2", "JdTd9c8c6h5h"], game="omaha6")


@pytest.mark.parametrize(
    ("players", "game", "fragment"),
    [
        # 'AKs' re-read as stud's pattern was any ace and the king of spades: 0.3669, not 0.3927
        (["AKs", "QsQhJd"], "stud", "a Range object holds hold'em combos of two cards"),
        (["AcKd:0.5,QQ", "random"], "omaha", "a Range object holds hold'em combos"),
    ],
)
def test_a_holdem_range_object_is_refused_where_patterns_are_read(
    players: list[str], game: str, fragment: str
) -> None:
    from pokerlab import Range

    with pytest.raises(RangeError, match=fragment) as info:
        equity([Range(players[0]), players[1]], game=game, method="mc", trials=1000)
    assert str(info.value).startswith("player 1: ")


def test_a_pattern_range_read_with_the_other_aces_is_refused() -> None:
    """Stud's (8-8-8-) (aces high: 2,240 holdings) in razz, where the text means 3,584."""
    from pokerlab import PatternRange, get_game

    with pytest.raises(RangeError, match="read with aces high, where Razz reads them low"):
        equity([PatternRange("(8-8-8-)", 3), "As2s3s"], game="razz", method="mc", trials=1000)
    razz = get_game("razz").pattern_range("(8-8-8-)", 3)
    got = equity([razz, "As2s3s"], game="razz", method="mc", trials=1000, seed=1)
    want = equity(["(8-8-8-)", "As2s3s"], game="razz", method="mc", trials=1000, seed=1)
    assert got.players[0].equity == want.players[0].equity


@pytest.mark.parametrize(
    "kwargs",
    [{"trials": -3}, {"trials": 0}, {"time_limit": -1}, {"time_limit": math.nan},
     {"stderr": "abc"}, {"stderr": 2}],
)  # fmt: skip
def test_auto_refuses_bad_stopping_rules_even_when_it_enumerates(kwargs: dict[str, object]) -> None:
    """They were refused only where auto fell back to sampling: AhKh vs QsQd answered."""
    with pytest.raises(GameError) as info:
        equity(["AhKh", "QsQd"], **kwargs)  # type: ignore[arg-type]
    assert info.value.field in ("trials", "time_limit", "stderr")


def test_a_random_hand_too_wide_to_list_is_named_by_its_player() -> None:
    """An exact run lists a dealt ``random`` Omaha hand; past 5,000,000 holdings it is refused,
    and the refusal named the field ``players``, not the player (QA: the web page could not
    put the message by the right box)."""
    with pytest.raises(TooLargeError, match=r"^player 2: a 'random' 6-card Omaha hand") as caught:
        equity(["AsAhKsKhQsQh", "random"], board="2c7d9h", game="omaha6", method="exact")
    assert caught.value.field == "players.1"
