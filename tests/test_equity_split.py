"""Every Omaha and stud game through the one engine: exact equity (with hi, lo, scoop and tie)
against the plain-Python brute force of tests/bruteforce.py on small random spots (fixed seeds,
2-4 players, weighted pattern ranges that overlap), Monte Carlo against exact, pattern ranges as
the player syntax, the razz ordering property, outs and the CLI's JSON."""

from __future__ import annotations

import itertools
import json
import math
import random
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from bruteforce import game_equity
from pokerlab import EquityResult, equity, outs
from pokerlab.cards import format_cards, parse_cards
from pokerlab.cli import app as cli
from pokerlab.errors import GameError, RangeError, TooLargeError
from pokerlab.games import GAMES, get_game
from pokerlab.ranges.pattern import PatternRange

Holdings = list[list[tuple[tuple[int, ...], float]]]

BOARD_GAMES = ["omaha", "omaha5", "omaha6", "omaha-hilo", "omaha5-hilo"]
STUD_GAMES = ["stud", "stud-hilo", "razz"]
_PERCENT = {1.0: "", 0.5: "@50", 0.25: "@25"}


def _spot(
    game: str, seed: int, complete: bool = False, extra: int = 2
) -> tuple[list[str], Holdings, list[int], list[int]]:
    """Random players (one to ``1 + extra`` weighted holdings each, drawn from a small shared
    pool so that ranges overlap), board and dead cards; small enough for the brute force.
    ``complete``: stud hands of all seven cards, 2 to 4 players."""
    g = get_game(game)
    rng = random.Random(f"{game}-{seed}-{complete}")
    deck = list(range(16 if game == "shortdeck" else 0, 52))
    rng.shuffle(deck)
    if complete:
        n_players = rng.choice([2, 3, 4])
        known = [7] * n_players
    elif g.is_stud:
        n_players = rng.choice([2, 2, 3, 4])
        known = {2: [6, 6], 3: [6, 6, 7], 4: [7, 7, 6, 6]}[n_players]
    else:
        n_players = rng.choice([2, 3, 4]) if g.hole_cards == 4 else rng.choice([2, 3])
        known = [g.hole_cards] * n_players
    firsts = [[deck.pop() for _ in range(k)] for k in known]
    pool = [deck.pop() for _ in range(3)] + [c for f in firsts for c in f]
    board = [] if g.is_stud else [deck.pop() for _ in range(4)]
    dead = [deck.pop() for _ in range(rng.randint(0, 2))]
    texts, holdings = [], []
    for k, first in zip(known, firsts, strict=True):
        combos = {tuple(sorted(first)): rng.choice([1.0, 1.0, 0.5, 0.25])}
        for _ in range(rng.randint(0, extra)):
            combos[tuple(sorted(rng.sample(pool, k)))] = rng.choice([1.0, 0.5, 0.25])
        texts.append(",".join(format_cards(list(c)) + _PERCENT[w] for c, w in combos.items()))
        holdings.append(list(combos.items()))
    return texts, holdings, board, dead


def _assert_matches(got: EquityResult, ref: dict[str, Any], texts: list[str]) -> None:
    """Every player's equity, win and tie, and hi/lo shares where the result has them, as the
    brute force's."""
    for i, p in enumerate(got.players):
        assert p.equity == pytest.approx(ref["equity"][i], abs=1e-9), (texts, i)
        assert p.win == pytest.approx(ref["scoop"][i], abs=1e-9)
        assert p.tie == pytest.approx(ref["tie"][i], abs=1e-9)
        if p.hi is not None:
            assert p.hi == pytest.approx(ref["hi"][i], abs=1e-9)
            assert p.lo == pytest.approx(ref["lo"][i], abs=1e-9)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", ["shortdeck", *BOARD_GAMES, *STUD_GAMES])
def test_exact_matches_brute_force(game: str, seed: int) -> None:
    texts, holdings, board, dead = _spot(game, seed)
    g = get_game(game)
    ref = game_equity(game, holdings, board, dead, g.hole_cards, g.board_cards)
    got = equity(texts, board=format_cards(board), dead=format_cards(dead), game=game,
                 method="exact")  # fmt: skip
    assert got.method == "exact"
    _assert_matches(got, ref, texts)
    for p in got.players:
        if g.split:
            assert p.hi is not None and p.scoop == p.win
        else:
            assert p.hi is None and p.lo is None and p.scoop is None


@pytest.mark.parametrize("seed", range(3, 9))
@pytest.mark.parametrize("game", ["omaha", "omaha-hilo", "omaha5-hilo", "stud-hilo", "razz"])
def test_wider_overlapping_ranges_match_brute_force(game: str, seed: int) -> None:
    """Up to six weighted holdings a player, so the last player's holdings (summed by outcome
    class against each joint holding of the others) tie, split and lose against many prefixes;
    and complete stud hands, whose walk sums them the same way. The players are also given in
    reverse order, which changes which range the engine walks last."""
    g = get_game(game)
    texts, holdings, board, dead = _spot(game, seed, complete=g.is_stud, extra=5)
    ref = game_equity(game, holdings, board, dead, g.hole_cards, g.board_cards)
    kwargs: dict[str, Any] = {"dead": format_cards(dead), "game": game, "method": "exact"}
    got = equity(texts, board=format_cards(board), **kwargs)
    _assert_matches(got, ref, texts)
    back = equity(texts[::-1], board=format_cards(board), **kwargs)
    for p, q in zip(got.players, back.players[::-1], strict=True):
        assert (p.equity, p.win, p.tie) == pytest.approx((q.equity, q.win, q.tie), abs=1e-12)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("game", STUD_GAMES)
def test_complete_stud_hands_match_brute_force(game: str, seed: int) -> None:
    """Every player's seven cards known (ranges of complete hands): the value-class walk."""
    texts, holdings, _, dead = _spot(game, seed, complete=True)
    ref = game_equity(game, holdings, [], dead, 7, 0)
    got = equity(texts, dead=format_cards(dead), game=game, method="exact")
    _assert_matches(got, ref, texts)


@pytest.mark.parametrize("game", ["omaha-hilo", "stud-hilo"])
def test_split_pot_rules_on_fixed_spots(game: str) -> None:
    """Quartering, a no-low pot and a scoop, spelled out."""
    if game == "omaha-hilo":
        board = "2c 3d 8h Kd Ks"
        # both players hold A4 for the same low and the same kings-full high: everything splits
        r = equity(["As 4s Qc Jc", "Ah 4h Qd Jd"], board=board, game=game)
        assert [p.equity for p in r.players] == [0.5, 0.5]
        # A-4 takes the low alone; the high ties (kings with A-Q-8): player 1 gets 3/4
        r = equity(["As 4s Qc Jc", "Ah Qh Jd Td"], board=board, game=game)
        assert r.players[0].equity == pytest.approx(0.75) and r.players[0].lo == 0.5
        assert r.players[0].hi == pytest.approx(0.25) and r.players[0].win == 0
        # no low possible (no low card on board): aces full takes the whole pot
        r = equity(["As Ad Qc Jc", "Kh Qh Td 9d"], board="Ac Kd Ks 9h Th", game=game)
        assert r.players[0].win == 1.0 and r.players[0].hi == 1.0 and r.players[0].lo == 0.0
    else:
        # a wheel scoops a stud hi/lo pot: best high (straight) and best low
        r = equity(["Ah 2d 3c 4s 5h Kd Kc", "Kh Ks Qd Qs 9c 9d 7h"], game=game)
        assert r.players[0].win == 1.0 and r.players[0].equity == 1.0
        assert r.players[0].lo == 0.5 and r.players[0].hi == 0.5


@pytest.mark.parametrize(
    ("game", "players", "board"),
    [
        ("omaha", ["AsAhKsKh", "JdTd9c8c"], "Qs7h2d"),
        ("omaha5", ["AsAhKsKh2c", "JdTd9c8c7s"], "Qs7h2d"),
        ("omaha6", ["AsAhKsKh2c3c", "JdTd9c8c7s6s"], "Qs7h2d"),
        ("omaha-hilo", ["As2sKh3h", "AdKdQc4c", "8h7h6s5s"], "Qs7d2c"),
        ("omaha5-hilo", ["As2sKh3h4d", "AdKdQc4c5c"], "Qs7d2c"),
        ("stud", ["AsAh7c", "KdKc2s"], ""),
        ("stud-hilo", ["As2s3h9c4d", "KdKcQh4c5c"], ""),
        ("razz", ["As2s3h", "KdKc4h"], ""),
    ],
)
def test_monte_carlo_agrees_with_exact(game: str, players: list[str], board: str) -> None:
    exact = equity(players, board=board, game=game, method="exact")
    mc = equity(players, board=board, game=game, method="mc", trials=200_000, seed=11)
    assert mc.method == "monte-carlo" and mc.samples == 200_000
    for e, m in zip(exact.players, mc.players, strict=True):
        assert abs(e.equity - m.equity) <= 4 * m.stderr, (e, m)
        if e.hi is not None:
            assert abs(e.hi - (m.hi or 0)) <= 0.01 and abs(e.lo - (m.lo or 0)) <= 0.01


def test_razz_order_of_pattern_cards_never_changes_the_answer() -> None:
    """shared/definitions.md: (3-3-)45678 and (3-2-)45678 are the same set of hands; against
    A345678 each is exactly 50 % (A2 wins 12 of 33 weighted holdings, A3 ties 9, 23 loses 12)."""
    a = equity(["(3-3-)45678", "A345678"], game="razz", method="exact")
    b = equity(["(3-2-)45678", "A345678"], game="razz", method="exact")
    assert a.players[0].equity == 0.5 and b.players[0].equity == 0.5
    assert a.samples == b.samples
    assert a.players[0].win == b.players[0].win == pytest.approx(12 / 33)
    assert a.players[0].tie == pytest.approx(9 / 33)
    low_aces = get_game("razz").low_aces
    assert PatternRange("(3-3-)45678", 7, low_aces=low_aces) == PatternRange(
        "(2-3-)87654", 7, low_aces=low_aces
    )


def test_pattern_expansion_counts_against_brute_force() -> None:
    """How many 4-card Omaha hands match ``AA**$ds`` and ``AA``, counted by brute force."""
    ds = at_least_two_aces = 0
    for hand in itertools.combinations(range(52), 4):
        if sum(c >> 2 == 12 for c in hand) < 2:
            continue
        at_least_two_aces += 1
        suits = sorted(sum(c & 3 == s for c in hand) for s in range(4))
        ds += suits == [0, 0, 2, 2]
    assert len(PatternRange("AA**$ds", size=4)) == ds == 864
    assert len(PatternRange("AA", size=4)) == at_least_two_aces
    assert len(PatternRange("AxAyKxKy", size=4)) == 6  # 4C2 suit pairs for aces, kings follow


def test_pattern_ranges_are_the_player_syntax() -> None:
    r = equity(["AA**$ds", "KK**$ds"], board="2c7d9h", game="omaha", method="mc",
               trials=20_000, seed=3)  # fmt: skip
    assert [p.combos for p in r.players] == [
        len(PatternRange("AA**$ds", 4).remove("2c7d9h")),
        len(PatternRange("KK**$ds", 4).remove("2c7d9h")),
    ]
    with pytest.raises(RangeError, match="player 2"):
        equity(["AAKK", "AA:0.5"], game="omaha")
    with pytest.raises(RangeError, match="has 5 cards but a holding has 4"):
        equity(["AAKKQ", "AAKK"], game="omaha")
    with pytest.raises(GameError, match="4 cards, got 5"):
        equity([PatternRange("AAKKQ", 5), "AAKK"], game="omaha")
    with pytest.raises(RangeError, match="same number of cards"):
        equity(["AAK,AA", "KK7"], game="stud")
    # pattern ranges objects are accepted too
    rng = PatternRange("AsAhKsKh", 4)
    assert equity([rng, "JdTd9c8c"], board="2c7d9h", game="omaha").players[0].input == str(rng)


def test_random_omaha_hand_is_dealt_preflop_and_listed_on_later_streets() -> None:
    r = equity(["AsAhKsKh", "random"], game="omaha", trials=40_000, seed=5)
    assert r.method == "monte-carlo"  # 194,580 holdings x 1.7 M boards: minutes, not 2 s
    with pytest.raises(TooLargeError, match=r"1x1,533,939 combos per player"):
        equity(["AsAhKsKh2c", "random"], game="omaha5", method="exact")
    # on the turn it is listed: 135,751 holdings (C(44, 4)), enumerated by auto
    listed = equity(["AsAhKsKh", "random"], board="2c7d9hTs", game="omaha")
    assert listed.method == "exact" and listed.players[1].combos == 135_751
    assert listed.samples == 44 * math.comb(43, 4)  # a river, then a holding of the rest
    sampled = equity(["AsAhKsKh", "random"], board="2c7d9hTs", game="omaha", method="mc",
                     trials=200_000, seed=3)  # fmt: skip
    for got, want in zip(sampled.players, listed.players, strict=True):
        assert abs(got.equity - want.equity) < 4 * got.stderr
    # and the same as the explicit range of every 4-card holding
    every = equity(["AsAhKsKh", "****"], board="2c7d9hTs", game="omaha")
    assert every.players[0].equity == pytest.approx(listed.players[0].equity, abs=1e-12)
    # a dealt random hand against an explicit one: the same as enumerating a random range
    exact = equity(["AsAhKsKh", "*"], board="2c7d9hTs", game="omaha", method="mc",
                   trials=100_000, seed=9)  # fmt: skip
    assert 0.0 < exact.players[0].equity < 1.0
    # C(44, 4): every holding of the cards neither on the board nor in the known hand (as a
    # hold'em 'random' range counts the holdings the known hands leave)
    assert exact.players[1].combos == 135_751


def test_outs_list_a_dealt_random_hand() -> None:
    """Refused before (only Monte Carlo dealt it); now its holdings are listed."""
    listed = outs(["AsAhKsKh", "random"], board="Qs7h2d8c", game="omaha")
    explicit = outs(["AsAhKsKh", "****"], board="Qs7h2d8c", game="omaha")
    assert listed.next_cards.cards == explicit.next_cards.cards
    assert np.array_equal(listed.next_cards.shares, explicit.next_cards.shares)
    with pytest.raises(TooLargeError, match=r"1x1,086,008 holdings per player"):
        outs(["AsAhKsKh2c", "random"], board="Qs7h2d", game="omaha5", time_limit=1)


@pytest.mark.parametrize("game", ["omaha", "omaha-hilo"])
def test_outs_for_omaha(game: str) -> None:
    result = outs(["AsAhKsKh", "JdTd9c8c"], board="Qs7h2d", game=game)
    total = equity(["AsAhKsKh", "JdTd9c8c"], board="Qs7h2d", game=game)
    assert result.runouts is not None
    assert result.runouts.equity[0] == pytest.approx(total.players[0].equity, abs=1e-12)
    shares = result.next_cards.shares[:, 0]
    assert len(shares) == 52 - 8 - 3 and shares.mean() == pytest.approx(total.players[0].equity)


def test_cli_json_has_hi_lo_scoop_for_split_games() -> None:
    runner = CliRunner()
    res = runner.invoke(
        cli, ["equity", "--game", "omaha-hilo", "As2sKh3h", "JdTd9c8c", "-b", "Qs7d2c", "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["game"] == "omaha-hilo"
    for p in data["players"]:
        assert {"hi", "lo", "scoop"} <= set(p)
        assert p["equity"] == pytest.approx(p["hi"] + p["lo"])
    res = runner.invoke(cli, ["equity", "--game", "razz", "(3-3-)45678", "A345678", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["players"][0]["equity"] == 0.5
    res = runner.invoke(cli, ["equity", "--game", "omaha", "AsAhKsKh", "JdTd9c8c"])
    assert res.exit_code == 0 and "omaha" in res.output


def test_every_game_is_listed() -> None:
    short = {"shortdeck", "shortdeck-straights"}
    assert set(GAMES) == {"holdem", *short, *BOARD_GAMES, *STUD_GAMES}
    assert get_game("PLO8").name == "omaha-hilo" and get_game("stud8").name == "stud-hilo"


@pytest.mark.parametrize(
    ("game", "players", "board"),
    [
        # heads-up, unit weights: the deals counted by outcome class
        ("omaha-hilo", [[("As2sKh3h", 1.0)], [("Ad4dQc5c", 1.0), ("8h7h6s5s", 1.0)]], "Ks7d2c"),
        ("omaha", [[("AsAhKsKh", 1.0)], [("JsTs9h8h", 1.0)]], "Qs7h2s"),
        # weighted holdings and three players: every joint holding awarded one by one
        ("omaha-hilo", [[("As2sKh3h", 1.0)], [("Ad4dQc5c", 0.5)], [("8h7h6s5s", 1.0)]], "Ks7d2c"),
    ],
)
def test_exact_on_a_flop_matches_brute_force(
    game: str, players: list[list[tuple[str, float]]], board: str
) -> None:
    """Two board cards to come (the runout's cards change at two levels between runouts), for
    both ways the board enumeration credits deals."""
    g = get_game(game)
    holdings = [[(tuple(int(c) for c in parse_cards(h)), w) for h, w in p] for p in players]
    texts = [",".join(h + _PERCENT[w] for h, w in p) for p in players]
    flop = [int(c) for c in parse_cards(board)]
    ref = game_equity(game, holdings, flop, [], g.hole_cards, g.board_cards)
    got = equity(texts, board=board, game=game, method="exact")
    _assert_matches(got, ref, texts)
