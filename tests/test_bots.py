"""Draw bots: built-in strategies, the match runner, its statistics and the chart."""

from __future__ import annotations

import itertools
import json
import math
import struct
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pytest

from pokerlab import CancelledError, GameError
from pokerlab.analysis.bots import (
    Known,
    OptimalStrategy,
    RandomStrategy,
    RulesStrategy,
    Strategy,
    binomial_p_value,
    canonical_hand,
    discard_for,
    get_strategy,
    play_match,
    round_robin,
    wilson_interval,
)
from pokerlab.analysis.draw import Opponent, advise, sample_equities
from pokerlab.cards import Card, format_cards, parse_cards


def thrown(bot: str | Strategy, hand: str, game: str = "high") -> str:
    return format_cards(sorted(discard_for(bot, hand, game)), " ")


def cards(text: str) -> str:
    return format_cards(sorted(parse_cards(text)), " ")


# --- strategies -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("Jh Jd 7c 4s 2h", "2h 4s 7c"),  # a pair: draw three
        ("Kh Kd 7c 7s 2h", "2h"),  # two pair: draw one
        ("9h 9d 9c 4s 2h", "2h 4s"),  # trips: draw two
        ("Ah 9h 6h 3h Kc", "Kc"),  # four to a flush
        ("9c 8d 7h 6s Kc", "Kc"),  # open-ended straight draw
        ("5c 4d 3h 2s Kc", "Kc"),  # 2345 is open-ended too (A or 6)
        ("Ac Kd Qh Js 4c", "Kd Qh Js 4c"),  # JQKA is one-ended: high card -> keep the ace
        ("Ac 9d 7h 4s 2c", "2c 4s 7h 9d"),  # nothing: keep the ace
        ("Tc 9d 7h 4s 2c", "2c 4s 7h 9d Tc"),  # nothing below a jack: draw five
        ("9c 8d 7h 6s 5c", ""),  # straight: stand pat
        ("Ah 9h 6h 3h 2h", ""),  # flush
        ("Kh Kd Kc 7s 7h", ""),  # full house
    ],
)
def test_rules_high(hand: str, discard: str) -> None:
    assert thrown("rules", hand) == (cards(discard) if discard else "")


@pytest.mark.parametrize(
    ("hand", "discard"),
    [
        ("7c 5d 4h 3s 2c", ""),  # the nuts
        ("9c 7d 5h 3s 2c", ""),  # 9-low: pat
        ("Tc 7d 5h 3s 2c", "Tc"),  # 10-low: draw one
        ("Kc 7d 5h 3s 2c", "Kc"),
        ("7c 7d 5h 3s 2c", "7d"),  # a pair: throw one of them
        ("Ac 5d 4h 3s 2c", "Ac"),  # the wheel is ace-high: throw the ace
        ("6c 5d 4h 3s 2c", "6c"),  # a straight: keep the four lowest
        ("Kc Qd Jh 3s 2c", "Jh Kc Qd"),
        ("7h 5h 4h 3h 2h", "7h"),  # a flush
    ],
)
def test_rules_deuce7(hand: str, discard: str) -> None:
    assert thrown("rules", hand, "2-7") == (cards(discard) if discard else "")


def test_stand_pat_and_random() -> None:
    assert thrown("stand-pat", "Jh Jd 7c 4s 2h") == ""
    assert thrown("pat", "Jh Jd 7c 4s 2h") == ""
    hand = parse_cards("Jh Jd 7c 4s 2h")
    seen = Counter(len(RandomStrategy().discard(hand, Known(noise=n))) for n in range(32))
    assert seen == {k: math.comb(5, k) for k in range(6)}  # each keep set once


def test_random_keep_masks_are_uniform() -> None:
    from pokerlab.analysis import _draw_kernels as D
    from pokerlab.engine._sampling import seed_state

    decks = np.empty((32_000, 20), np.uint8)
    noise = np.empty((32_000, 2), np.uint64)
    D.deal_decks(seed_state(9), decks, noise)
    counts = np.bincount(
        RandomStrategy().keep_masks(decks[:, :5], "high", noise[:, 0]), minlength=32
    )
    chi2 = float(((counts - 1000) ** 2 / 1000).sum())
    assert chi2 < 70  # 31 degrees of freedom: p < 1e-4 beyond 70
    assert len({tuple(sorted(r)) for r in decks[:, :10].tolist()}) == 32_000
    assert all(len(set(r)) == 20 for r in decks[:200].tolist())


def test_optimal_is_consistent_across_suit_isomorphic_hands() -> None:
    bot = OptimalStrategy(trials=4_000)
    a = sorted(bot.discard(parse_cards("Ah Kh Qh Jh 2c"), Known()))
    b = sorted(bot.discard(parse_cards("As Ks Qs Js 2d"), Known()))
    assert format_cards(a, " ") == "2c" and format_cards(b, " ") == "2d"
    assert len(bot._cache) == 1  # one class, computed once
    assert thrown(bot, "Jh Jd 7c 4s 2h") == cards("7c 4s 2h")


@pytest.mark.parametrize(
    ("trials", "said"),
    [(0, "must be at least 1"), (2.5, "must be a whole number"), (None, "must be a whole number"),
     (2**70, f"{2**70:,} deals cannot be counted")],
)  # fmt: skip
def test_optimal_refuses_trials_it_cannot_count(trials: object, said: str) -> None:
    """``OptimalStrategy(trials=2**70)`` was taken, and its first hand failed deep in numba
    ("TypingError: ... Int value is too large"). The words are equity's."""
    with pytest.raises(GameError, match=f"^trials: {said}") as info:
        OptimalStrategy(trials=trials)  # type: ignore[arg-type]
    assert info.value.field == "trials"


def test_optimal_matches_the_advisor() -> None:
    bot = OptimalStrategy(trials=20_000, seed=3)
    hand = "Ts 9s 8d 4c 3h"
    advice = advise(hand, vs="random", trials=200_000, seed=4)
    top = {frozenset(c.keep) for c in advice.choices[:3]}
    kept = frozenset(set(parse_cards(hand)) - set(discard_for(bot, hand)))
    assert kept in top


def test_canonical_hand() -> None:
    base = [int(c) for c in parse_cards("Ah Kh 7c 7d 2s")]
    canon, _ = canonical_hand(base)
    for perm in itertools.permutations(range(4)):
        image = [c & ~3 | perm[c & 3] for c in base]
        assert canonical_hand(image)[0] == canon
    assert canonical_hand([int(c) for c in parse_cards("Ah Kd 7c 7d 2s")])[0] != canon


def test_custom_strategy_plays() -> None:
    class ThrowLowest(Strategy):
        name = "throw-lowest"

        def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
            return (min(hand),)

    m = play_match(ThrowLowest(), "random", hands=300, seed=2)
    assert m.bots == ("throw-lowest", "random") and m.wins + m.ties + m.losses == 300


def test_get_strategy_errors() -> None:
    with pytest.raises(GameError, match="unknown bot"):
        get_strategy("genius")
    assert isinstance(get_strategy("RULES"), RulesStrategy)


# --- matches ----------------------------------------------------------------------------------


def test_optimal_beats_random_significantly() -> None:
    m = play_match(OptimalStrategy(trials=2_000), "random", hands=400, seed=1)
    assert m.wins > m.losses
    assert m.p_value < 1e-4 and m.better == "optimal"
    assert m.win_interval()[0] > 0.5


def test_rules_beats_random_in_both_games() -> None:
    for game in ("high", "2-7"):
        m = play_match("rules", "random", hands=3_000, seed=5, game=game)
        assert m.better == "rules" and m.z > 5


def test_match_is_reproducible_and_seeded() -> None:
    a = round_robin(["rules", "random", "stand-pat"], hands=500, seed=7)
    b = round_robin(["rules", "random", "stand-pat"], hands=500, seed=7)
    c = round_robin(["rules", "random", "stand-pat"], hands=500, seed=8)
    for x, y in zip(a.matches, b.matches, strict=True):
        assert np.array_equal(x.outcomes, y.outcomes)
    assert not np.array_equal(a.matches[0].outcomes, c.matches[0].outcomes)
    assert [m.bots for m in a.matches] == [
        ("rules", "random"), ("rules", "stand-pat"), ("random", "stand-pat"),
    ]  # fmt: skip


def test_standings_and_series() -> None:
    t = round_robin(["rules", "random", "stand-pat"], hands=400, seed=3)
    by_bot = {s.bot: s for s in t.standings}
    assert all(s.hands == 800 for s in t.standings)
    for bot, s in by_bot.items():
        series = t.series(bot)
        assert len(series) == 800
        assert (series == 1).sum() == s.wins and (series == -1).sum() == s.losses
    rates = [s.win_rate for s in t.standings]
    assert rates == sorted(rates, reverse=True)
    d = t.to_dict()
    assert d["matches"][0]["rates"]["win"]["ci95"][0] <= d["matches"][0]["rates"]["win"]["rate"]
    assert set(d) >= {"game", "seed", "hands", "bots", "matches", "standings"}


def test_progress_is_reported() -> None:
    seen: list[float] = []
    round_robin(["rules", "random", "stand-pat"], hands=1_200, seed=1, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0) and len(seen) >= 3


@pytest.mark.parametrize(
    ("bots", "hands", "match"),
    [
        (["rules"], 10, "at least two"),
        (["rules", "rules"], 10, "once"),
        (["rules", "random"], 0, "hands"),
    ],
)
def test_match_errors(bots: list[str], hands: int, match: str) -> None:
    with pytest.raises(GameError, match=match):
        round_robin(bots, hands=hands)
    with pytest.raises(GameError, match="unknown draw game"):
        round_robin(["rules", "random"], hands=10, game="stud")


def test_seeded_match_does_not_depend_on_the_thread_count() -> None:
    runs = [
        play_match(OptimalStrategy(trials=1_000), "random", hands=300, seed=4, threads=threads)
        for threads in (1, 2, 1)
    ]
    assert np.array_equal(runs[0].outcomes, runs[1].outcomes)
    assert np.array_equal(runs[0].outcomes, runs[2].outcomes)


def test_optimal_parallel_classes_equal_the_advisor_sampler() -> None:
    """The bot's parallel kernel gives each class the answer of ``sample_equities`` on the
    class's own seed (the path the bot takes with dead cards)."""
    bot = OptimalStrategy(trials=3_000, seed=2)
    rng = np.random.default_rng(12)
    hands = np.array([rng.permutation(52)[:5] for _ in range(40)], dtype=np.uint8)
    got = bot.keep_masks(hands, "high", np.zeros(40, dtype=np.uint64))
    for row, keep in zip(hands.tolist(), got.tolist(), strict=True):
        canon, perm = canonical_hand(row)
        tally = sample_equities(canon, "high", [Opponent()], 3_000, bot._class_seed(canon))
        best = int(np.argmax(tally[:, 0] + tally[:, 2]))
        kept = {canon[i] for i in range(5) if best >> i & 1}
        assert keep == sum(1 << i for i, c in enumerate(row) if (c & ~3 | perm[c & 3]) in kept)


@pytest.mark.parametrize("threads", [0, -2, 1.5, "2"])
def test_match_rejects_bad_threads(threads: object) -> None:
    with pytest.raises(GameError, match="threads must be") as info:
        play_match("rules", "random", hands=10, threads=threads)  # type: ignore[arg-type]
    assert info.value.field == "threads"


# --- statistics -------------------------------------------------------------------------------


def test_binomial_p_value_against_the_definition() -> None:
    for wins, losses in [(0, 0), (3, 0), (7, 3), (12, 20), (50, 50), (61, 39)]:
        n, k = wins + losses, min(wins, losses)
        tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n if n else 0.5
        assert binomial_p_value(wins, losses) == pytest.approx(min(1.0, 2 * tail))


def test_wilson_interval() -> None:
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson_interval(8000, 10000)
    assert lo < 0.8 < hi and hi - lo == pytest.approx(2 * 1.96 * math.sqrt(0.16 / 10000), rel=1e-2)


def test_wilson_interval_holds_a_rate_of_0_or_1() -> None:
    """A bot that never tied in 100 hands had the tie interval [3.5e-18, 0.037]: rounding left
    its lower end above the rate 0 it should contain (544 of n < 3,000 for 0 successes, 943
    for n of n)."""
    for n in range(1, 3000):
        assert wilson_interval(0, n)[0] == 0.0 and wilson_interval(n, n)[1] == 1.0, n


# --- chart ------------------------------------------------------------------------------------


def test_chart_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    from pokerlab.analysis.plots import plot_tournament

    t = round_robin(["rules", "random", "stand-pat"], hands=300, seed=1)
    path = tmp_path / "chart.png"
    fig = plot_tournament(t, path, dpi=50)
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    assert (width, height) == (550, 240)  # 11 x 4.8 inches at 50 dpi
    curve, bars = fig.axes
    assert [line.get_label() for line in curve.get_lines()] == ["rules", "random", "stand-pat"]
    assert len(curve.collections) == 3  # one confidence band per bot
    final = [line.get_ydata()[-1] for line in curve.get_lines()]
    assert final == pytest.approx([t.series(b).tolist().count(1) / 600 for b in t.bots])
    assert [tick.get_text() for tick in bars.get_yticklabels()] == [s.bot for s in t.standings]


# --- the shipped table of the optimal bot's choices -------------------------------------------


def test_optimal_table_covers_every_hand_class() -> None:
    """134,459 suit-isomorphism classes of five-card hands, each once, in key order; random
    hands of both games find their class (``lookup`` raises on a missing one)."""
    from pokerlab.analysis import _optimal_table as T

    keys, keeps, trials, seed = T.load()
    assert len(keys) == 134_459 and np.all(np.diff(keys) > 0)
    assert (trials, seed) == (OptimalStrategy.DEFAULT_TRIALS, OptimalStrategy.DEFAULT_SEED)
    rng = np.random.default_rng(21)
    canons = [canonical_hand(rng.permutation(52)[:5].tolist())[0] for _ in range(2_000)]
    for game in T.GAMES:
        assert len(keeps[game]) == len(keys) and int(keeps[game].max()) < 32
        found = T.lookup(game, canons, trials, seed)
        assert found is not None and len(found) == len(canons)
    assert T.lookup("high", canons, trials + 1, seed) is None  # other settings: computed
    assert T.lookup("high", canons, trials, seed + 1) is None


def test_optimal_table_entries_are_the_bots_own_choices() -> None:
    """A fixed-seed sample of classes, read from the table and computed by the bot's kernel
    at the same settings: the same keep masks in both games."""
    from pokerlab.analysis import _optimal_table as T

    rng = np.random.default_rng(22)
    hands = np.array([rng.permutation(52)[:5] for _ in range(16)], dtype=np.uint8)
    noise = np.zeros(len(hands), dtype=np.uint64)
    for game in T.GAMES:
        canons = [canonical_hand(row)[0] for row in hands.tolist()]
        shipped = T.lookup(
            game, canons, OptimalStrategy.DEFAULT_TRIALS, OptimalStrategy.DEFAULT_SEED
        )
        computed = OptimalStrategy(use_table=False).computed_keeps(game, canons)
        assert shipped == computed.tolist(), game
        with_table = OptimalStrategy().keep_masks(hands, game, noise)
        without = OptimalStrategy(use_table=False).keep_masks(hands, game, noise)
        assert np.array_equal(with_table, without), game


def test_a_match_plays_the_same_with_the_table_or_without() -> None:
    a = play_match(OptimalStrategy(), "random", hands=60, seed=9)
    b = play_match(OptimalStrategy(use_table=False), "random", hands=60, seed=9)
    assert np.array_equal(a.outcomes, b.outcomes)


def test_cancel_ends_every_pair_at_the_same_deal() -> None:
    """The pairs play in turn, a chunk at a time: a cancelled round robin has every pair at the
    same number of deals, each the deal the whole run plays."""
    bots = ["rules", "random", "stand-pat"]
    whole = round_robin(bots, 2_000, seed=4)
    reports: list[float] = []
    cut = round_robin(
        bots, 2_000, seed=4, progress=reports.append, cancel=lambda: len(reports) >= 2
    )
    assert (whole.cancelled, cut.cancelled) == (False, True)
    assert cut.hands == len(reports) * 400 < whole.hands
    for part, full in zip(cut.matches, whole.matches, strict=True):
        assert part.hands == part.wins + part.ties + part.losses == cut.hands
        assert np.array_equal(part.outcomes, full.outcomes[: cut.hands])
    assert cut.to_dict()["cancelled"] is True
    stop = threading.Event()
    stop.set()
    with pytest.raises(CancelledError, match="before its first deals"):
        round_robin(bots, 2_000, seed=4, cancel=stop)


def test_binomial_p_value_of_millions_of_deals() -> None:
    """The exact tail summed only the terms that count: summing all min(wins, losses) + 1 of
    them took seconds per call for a 10^7-deal match (the JSON asks three times). Against the
    normal approximation with continuity correction, which is close at this size."""
    for wins, losses in ((13_500_000, 13_499_000), (5_000_400, 4_999_600), (60, 40)):
        n = wins + losses
        normal = math.erfc((abs(wins - losses) - 1) / math.sqrt(2 * n))
        tolerance = 1e-3 if n > 1000 else 2e-2
        assert binomial_p_value(wins, losses) == pytest.approx(normal, abs=tolerance)
    assert binomial_p_value(18_817_187, 8_571_389) == 0.0  # far past any double


def test_a_pairs_deals_do_not_depend_on_the_other_bots() -> None:
    """Each pair has its own stream of the seed: with a third bot added, the first pair plays
    the same deals (the third bot's pairs start at once, with nothing to skip over)."""
    alone = round_robin(["rules", "random"], 1_200, seed=9).matches[0]
    among = round_robin(["rules", "random", "stand-pat"], 1_200, seed=9).matches[0]
    assert among.bots == alone.bots and np.array_equal(among.outcomes, alone.outcomes)


@pytest.mark.parametrize(
    ("bots", "kwargs", "message"),
    [
        (["rules", "random"], {"hands": 1.5}, "hands must be a whole number"),
        (["rules", "random"], {"hands": True}, "hands must be a whole number"),
        (["rules", "random"], {"hands": "10"}, "hands must be a whole number"),
        (["rules", "random"], {"max_draw": 7}, "max_draw must be a whole number from 0 to 5"),
        ([None, "rules"], {}, "a bot is a name"),
    ],
)
def test_match_arguments_are_checked(
    bots: list[object], kwargs: dict[str, object], message: str
) -> None:
    with pytest.raises(GameError, match=message):
        round_robin(bots, **kwargs)  # type: ignore[arg-type]


def test_callbacks_are_checked_before_any_deal() -> None:
    """``progress=5`` and ``cancel=5`` raised "'int' object is not callable" from the play, as
    ``equity`` refuses them: one line naming the argument."""
    with pytest.raises(GameError, match="progress must be a function") as info:
        play_match("random", "rules", hands=5, progress=5)  # type: ignore[arg-type]
    assert info.value.field == "progress"
    with pytest.raises(GameError, match="cancel must be an event") as info:
        round_robin(["random", "rules"], hands=5, cancel=5)  # type: ignore[arg-type]
    assert info.value.field == "cancel"


@pytest.mark.parametrize("bots", [None, "random", b"random", 5, RulesStrategy()])
def test_bots_must_be_a_list(bots: object) -> None:
    """``None`` raised "'NoneType' object is not iterable"; ``'random'`` was read letter by
    letter ("unknown bot 'r'")."""
    with pytest.raises(GameError, match="bots must be a list of bot names") as info:
        round_robin(bots, hands=5)  # type: ignore[arg-type]
    assert info.value.field == "bots"


def test_numpy_counts_come_back_as_plain_ints() -> None:
    """``hands=np.int64(10)`` made ``hands`` and ``ties`` numpy integers, which
    ``json.dumps`` refuses."""
    m = play_match("random", "rules", hands=np.int64(10), seed=np.int64(3))  # type: ignore[arg-type]
    counts = (m.hands, m.wins, m.ties, m.losses)
    assert all(type(x) is int for x in counts) and sum(counts[1:]) == 10
    assert json.loads(json.dumps(m.to_dict()))["hands"] == 10
    t = round_robin(["random", "rules"], hands=np.int64(10), seed=np.int64(3))  # type: ignore[arg-type]
    assert type(t.hands) is int and type(t.seed) is int
    assert json.loads(json.dumps(t.to_dict()))["seed"] == 3


@pytest.mark.parametrize(
    ("call", "field", "message"),
    [
        (lambda: play_match("genius", "rules", hands=5), "a", "unknown bot 'genius'"),
        (lambda: play_match("rules", 5, hands=5), "b", "a bot is a name"),
        (lambda: play_match(RulesStrategy(), "rules", hands=5), "b", "both the 'rules' bot"),
        (lambda: play_match("rules", "random", hands=5, game="x"), "game", "unknown draw game"),
        (lambda: round_robin(["rules", "genius"], hands=5), "bots.1", "unknown bot 'genius'"),
        (lambda: round_robin(["rules"], hands=5), "bots", "at least two bots"),
        (lambda: round_robin(["rules", "rules"], hands=5), "bots", "once in a round robin"),
        (lambda: OptimalStrategy(trials=0), "trials", "trials: must be at least 1"),
        (lambda: OptimalStrategy(seed=-1), "seed", "seed must be a whole number"),
    ],
)
def test_match_errors_name_the_argument(
    call: Callable[[], object], field: str, message: str
) -> None:
    """Bot and game errors had ``field=None``, and two of one bot in ``play_match`` spoke of a
    round robin; a negative seed for the optimal bot ran on another seed."""
    with pytest.raises(GameError, match=message) as info:
        call()
    assert info.value.field == field
    assert "round robin" not in str(info.value) or field == "bots"
