"""The exact strategies' time estimates decide what ``method="auto"`` does (enumerate at most
``AUTO_EXACT_SECONDS``) and what a forced exact run refuses (past ``MAX_EXACT_SECONDS``), so
their shape is tested here; how close they come to the time taken is measured, not asserted
(``benchmarks/bench_estimates.py``, figures in benchmarks/RESULTS.md)."""

from __future__ import annotations

import math

import pytest

from pokerlab import equity
from pokerlab.engine.api import AUTO_EXACT_SECONDS, MAX_EXACT_SECONDS, refusal_tail
from pokerlab.engine.exact import _disjoint_share, _space, suit_symmetries
from pokerlab.engine.limits import estimate_text
from pokerlab.engine.problem import Problem, prepare
from pokerlab.engine.strategies import Strategy, exact_strategy
from pokerlab.errors import GameError, TooLargeError


def _strategy(
    players: list[str], board: str = "", game: str = "holdem"
) -> tuple[Strategy, Problem]:
    problem = prepare(players, board, "", game).with_unit_weights()
    strategy = exact_strategy(problem)
    assert strategy is not None
    return strategy, problem


def test_an_omaha_hand_against_a_percentage_range_is_not_refused() -> None:
    """``AsAhKsKh`` vs ``15%`` preflop was estimated at 3,217 s and refused; each of its
    20,631 holdings costs a few pair reads per board, and a quarter of the boards stand for
    the rest under the suit swaps that keep both players (about 100 s before this estimate's
    kernel changes; benchmarks/RESULTS.md)."""
    strategy, problem = _strategy(["AsAhKsKh", "15%"], game="omaha")
    assert strategy.name == "game-boards"
    assert len(suit_symmetries(problem)) == 3  # spades/hearts and diamonds/clubs swapped
    assert strategy.estimate(problem) < MAX_EXACT_SECONDS / 4


def test_the_board_estimate_divides_by_the_runouts_the_symmetries_skip() -> None:
    strategy, symmetric = _strategy(["AsAhKsKh", "AA**,KK**"], game="omaha")
    _, broken = _strategy(["AsAhKsKd", "AA**,KK**"], game="omaha")
    orbits = [1 + len(suit_symmetries(p)) for p in (symmetric, broken)]
    assert orbits == [4, 1]  # identity, spades/hearts, diamonds/clubs and both; identity only
    ratio = strategy.estimate(broken) / strategy.estimate(symmetric)
    assert ratio == pytest.approx(4, rel=0.05)  # the sizes differ by a few holdings


def test_preflop_matchup_classes_shrink_with_every_suit_symmetry() -> None:
    """Matchups are enumerated once per class of suit-isomorphic ones: a suit-blind range
    (24 symmetries) has a 24th of the classes, not 24 ** -0.75 of them, which estimated
    ``QQ+`` x4 (about 1 s) at 2 s, so ``auto`` sampled it."""
    strategy, blind = _strategy(["QQ+"] * 4)
    _, fixed = _strategy(["QQ+"] * 3 + ["QsQh,KK,AA"])
    assert strategy.name == "preflop-matchups"
    assert [1 + len(suit_symmetries(p)) for p in (blind, fixed)] == [24, 4]  # s-h, c-d swaps
    per_possible = [strategy.estimate(p) / (_space(p) * _disjoint_share(p)) for p in (blind, fixed)]
    assert per_possible[1] / per_possible[0] == pytest.approx(6, rel=0.02)
    assert strategy.estimate(blind) <= AUTO_EXACT_SECONDS


@pytest.mark.parametrize(("game", "dead", "wider"), [("holdem", "2c", "66,55"),
                                                      ("shortdeck", "", "66,77")])  # fmt: skip
def test_small_matchup_spaces_are_enumerated_by_class_too(game: str, dead: str, wider: str) -> None:
    """A space of up to 64 matchups counted every matchup, though its run enumerates one per
    suit class as larger ones do: short deck ``AA`` vs ``66`` (36 matchups, 24 symmetries) was
    estimated at 36 ms and took 1.4 ms. Heads-up, the estimate per class of possible matchups
    is now the same whatever the space's size. (A dead card keeps hold'em off its table.)"""
    small, large = (prepare(["AA", v], "", dead, game).with_unit_weights() for v in ("66", wider))
    strategy = exact_strategy(small)
    assert strategy is not None and strategy.name == "preflop-matchups"
    assert _space(small) <= 64 < _space(large)
    ratios = []
    for p in (small, large):
        classes = _space(p) * _disjoint_share(p) / (1 + len(suit_symmetries(p)))
        ratios.append(strategy.estimate(p) / classes)
    assert ratios[0] == pytest.approx(ratios[1], rel=1e-9)


def test_suit_symmetries_are_found_once_per_problem() -> None:
    strategy, problem = _strategy(["AsAhKsKh", "15%"], game="omaha")
    first = strategy.estimate(problem)
    found = problem.memo["suit_symmetries"]
    assert strategy.estimate(problem) == first and suit_symmetries(problem) is found


def test_the_widest_range_is_classed_not_walked() -> None:
    """Three Omaha ranges on the turn: the joint holdings of the two narrower ones are walked,
    each against the widest's holdings summed by outcome class, so the estimate grows with the
    product of the narrower sizes times (a constant plus the widest size), the same in any
    player order."""
    strategy, problem = _strategy(["AsKhQd2c", "JJ**", "T9**"], "Qc8s7h3d", "omaha")
    _, reordered = _strategy(["T9**", "AsKhQd2c", "JJ**"], "Qc8s7h3d", "omaha")
    assert strategy.estimate(problem) == pytest.approx(strategy.estimate(reordered))
    _, narrower = _strategy(["AsKhQd2c", "JJ**", "T9**@50,T8**"], "Qc8s7h3d", "omaha")
    assert narrower.sizes[2] > problem.sizes[2]
    widen = narrower.sizes[2] / problem.sizes[2]
    assert 1 < strategy.estimate(narrower) / strategy.estimate(problem) <= widen


def test_a_hi_lo_stud_sweep_costs_more_than_a_high_one() -> None:
    """Measured 3.5x: both halves are evaluated per completion."""
    sweep, high = _strategy(["AsAd2c", "QQ*"], game="stud")
    _, split = _strategy(["AsAd2c", "QQ*"], game="stud-hilo")
    assert sweep.name == "stud-sweep"
    assert sweep.estimate(split) == pytest.approx(3 * sweep.estimate(high))


def test_auto_does_not_list_a_random_hand_it_will_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    """Listing a random 6-card Omaha hand (millions of holdings) takes up to a second; auto
    listed it whenever enumerating might fit 24 times its budget, then sampled. The estimate of
    the list comes first, symmetry included (the list is suit-blind)."""
    import pokerlab

    players = ["AsAhKsKhQdJd", "random"]
    spot = {"board": "Qc8s7h2d", "dead": "2c3c4c5c6c", "game": "omaha6"}
    problem = prepare(players, spot["board"], spot["dead"], spot["game"])
    listed = problem.listing_random_hands()
    assert listed.sizes[1] == 2_324_784
    strategy = exact_strategy(listed)
    assert strategy is not None and strategy.estimate(listed) > 2  # auto samples it

    def refuse(self: Problem) -> Problem:
        raise AssertionError("listed a hand it samples")

    monkeypatch.setattr(Problem, "listing_random_hands", refuse)
    result = pokerlab.equity(players, **spot, trials=2_000, seed=1)
    assert result.method == "monte-carlo"


def test_a_random_hand_too_long_to_list_says_how_to_narrow_it() -> None:
    """It said "give it as a range", and ``******`` (the same range) was refused the same way."""
    import pokerlab
    from pokerlab.errors import TooLargeError

    for hand in ("random", "******"):
        with pytest.raises(TooLargeError, match=r"6,096,454 holdings.*\(e\.g\. AA\*\*\*\*\)"):
            pokerlab.equity(["AsAhKsKhQdJd", hand], board="Qc8s7h", game="omaha6", method="exact")


def test_a_caller_lowers_the_bound_past_which_a_forced_exact_run_is_refused() -> None:
    """A server refuses at once what its limit could never fit (the web's time limit)."""
    players, board = ["AsAhKsKh", "random"], "2c3d4h5s"  # estimated at 0.08 s of one core
    assert equity(players, board=board, game="omaha", method="auto").method == "exact"
    with pytest.raises(TooLargeError) as caught:
        equity(players, board=board, game="omaha", method="exact", max_exact_seconds=0.01)
    assert caught.value.field == "method"
    assert str(caught.value).endswith(refusal_tail(0.01))
    listed = prepare(players, board, "", "omaha").listing_random_hands()
    strategy = exact_strategy(listed)
    assert strategy is not None
    sizes = "x".join(f"{s:,}" for s in listed.sizes)
    work = f"about {estimate_text(strategy.estimate(listed))} of work ({sizes} combos per player)"
    assert work in str(caught.value)
    # auto samples what the bound refuses
    sampled = equity(players, board=board, game="omaha", trials=2000, seed=1,
                     max_exact_seconds=0.01)  # fmt: skip
    assert sampled.method == "monte-carlo"


@pytest.mark.parametrize("bad", [0, -1.0, float("nan"), "10", True])
def test_a_bad_exact_bound_is_a_one_line_error(bad: object) -> None:
    with pytest.raises(GameError) as caught:
        equity(["AhAs", "KdKc"], max_exact_seconds=bad)  # type: ignore[arg-type]
    assert caught.value.field == "max_exact_seconds"
    assert str(caught.value).startswith("max_exact_seconds: must be a positive number of seconds")


def test_auto_enumerates_only_within_the_callers_time_limit() -> None:
    """``--time 1`` with auto enumerated a spot estimated under the 2 s budget for 2.1 s."""
    players = ["AhAs", "KdKc", "random"]
    strategy, problem = _strategy(players)
    estimate = strategy.estimate(problem)
    assert 0.05 < estimate <= AUTO_EXACT_SECONDS
    # within half the limit (estimates may be 2x off); 4x leaves the enumeration time to finish
    assert equity(players, time_limit=estimate * 4, threads=1).method == "exact"
    sampled = equity(players, time_limit=estimate * 1.5, seed=1, threads=1)
    assert sampled.method == "monte-carlo" and sampled.stopped in ("time", "stderr")


def test_auto_samples_on_time_when_its_enumeration_runs_late(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Auto enumerated a spot estimated within the time limit and ran past it (the estimate
    was low, or the machine busy): the web server answered "did not finish within its time
    limit". Now an enumeration still going at 80 % of the limit gives way to sampling for the
    rest; the progress bar goes on from where it was. The caller's own cancel still raises."""
    from pokerlab.engine import exact
    from pokerlab.errors import CancelledError

    monkeypatch.setattr(exact.StudSweep, "estimate", lambda self, problem: 0.001)  # "fast"
    seen: list[float] = []
    spot = ["Ah2s", "3d4c"]  # a ~2 s sweep (stopped inside, see test_engine_threads)
    late = equity(spot, game="stud-hilo", time_limit=0.5, seed=1, threads=1, progress=seen.append)
    assert late.method == "monte-carlo" and late.stopped in ("time", "stderr") and late.samples
    assert seen == sorted(seen) and seen[-1] == 1.0
    with pytest.raises(CancelledError):
        equity(spot, game="stud-hilo", time_limit=0.5, threads=1, cancel=lambda: True)


def test_a_decimal_or_a_bad_setting_is_told_plainly() -> None:
    """A Decimal was refused as "must be between 0 and 1, got Decimal('0.5')" (it is); outs
    and equity_distribution said "must be at least 1, got 0" without naming the argument."""
    from decimal import Decimal

    import pokerlab

    with pytest.raises(GameError, match=r"got Decimal\('0\.5'\) \(a Decimal: pass a float\)$"):
        equity(["AhAs", "KdKc"], method="mc", stderr=Decimal("0.5"))  # type: ignore[arg-type]
    with pytest.raises(GameError, match=r"^time_limit: must be a positive number of seconds"):
        pokerlab.outs(["AhAs", "KdKc"], board="2c3d4h", time_limit=-1)
    with pytest.raises(GameError, match=r"^trials: must be at least 1, got 0$"):
        pokerlab.equity_distribution("QQ+", "random", board="2c3d4h", method="mc", trials=0)


def test_short_deck_matchups_are_priced_by_their_boards() -> None:
    """The per-matchup constant was measured on full-deck boards; a short-deck matchup has a
    tenth of them (three ways: 142,506 of 1,370,754) and ran 5-14x under its estimate, so
    ``auto`` sampled spots it enumerates at once. The same matchups (AK, QQ, JJ hold the same
    combos in both decks) are now priced by that share."""
    strategy, holdem = _strategy(["AK", "QQ", "JJ"])
    short = prepare(["AK", "QQ", "JJ"], game="shortdeck").with_unit_weights()
    assert strategy.name == "preflop-matchups" and _space(short) == _space(holdem)
    share = math.comb(30, 5) / math.comb(46, 5)
    ratio = strategy.estimate(short) / strategy.estimate(holdem)
    assert ratio == pytest.approx(share, rel=5e-3)  # the skipped matchups cost the same in both
