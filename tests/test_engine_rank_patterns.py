"""Board runouts by rank pattern: where every range is closed under rank pairs (``random``, pairs,
``AK``) and no flush can be made, a runout adds what the first runout of its rank pattern added,
so ``_runouts`` walks that one and reuses it (about 60 % of the preflop runouts; 2x on
``AhAs`` vs ``random`` vs ``random``). These tests pin that the reuse changes no count."""

from __future__ import annotations

import numpy as np
import pytest

from bruteforce import holdem_equity
from pokerlab.cards import parse_cards
from pokerlab.engine import exact
from pokerlab.engine._control import Control
from pokerlab.engine.exact import BoardRunouts
from pokerlab.engine.problem import Problem, prepare
from pokerlab.engine.tally import SHARE
from pokerlab.ranges import Range


def _walked_and_kept(problem: Problem) -> tuple[exact.Tally, exact.Tally]:
    """The board walk of ``problem`` with every runout walked, and with rank patterns kept
    (forced: a spot under a fifth of a millisecond does not look for them)."""
    problem.memo["keeps_patterns"] = False
    walked = BoardRunouts().run(problem, Control())
    problem.memo["keeps_patterns"] = True
    kept = BoardRunouts().run(problem, Control())
    return walked, kept


@pytest.mark.parametrize(
    ("players", "board", "dead", "game"),
    [
        (["AhAs", "random", "random"], "Kd7c2h", "", "holdem"),
        (["QQ+", "JJ+", "random"], "9c5d2h", "", "holdem"),
        (["QQ+,AK", "random", "random"], "9c5d2h4c", "", "holdem"),  # a turn: 44 runouts
        (["AsKs", "QQ+,AKs,AKo"], "Jc9h2d", "", "holdem"),  # AKs,AKo: every AK the hand leaves
        (["22+", "random", "random"], "Ks8d3c", "2h", "holdem"),  # a dead card
        (["QQ:0.5,AK", "KK", "random"], "Th8d3c", "", "holdem"),  # a weight per rank pair
        (["AhAs", "KK", "random"], "", "", "shortdeck"),  # every five-card board
        (["AK", "TT+", "random"], "", "Ah", "shortdeck"),
    ],
)
def test_keeping_rank_patterns_changes_no_count(
    players: list[str], board: str, dead: str, game: str
) -> None:
    problem = prepare(players, board=board, dead=dead, game=game)
    assert exact._ranges_closed_under_rank_pairs(problem)
    walked, kept = _walked_and_kept(problem)
    assert kept.deals == walked.deals > 0
    assert np.array_equal(kept.stats, walked.stats)  # whole numbers and halves: exact sums


def test_rank_patterns_kept_preflop_match_the_brute_force() -> None:
    """Every board after the players' holdings, scored by the tests' own evaluator, with every
    card below the jack dead (a few hundred boards per joint holding)."""
    texts = ["AhKd", "QQ,JJ", "random"]
    ranks = "23456789TJQKA"
    dead = "".join(f"{r}{s}" for r in ranks[: ranks.index("J")] for s in "cdhs")
    dead_codes = {int(c) for c in parse_cards(dead)}
    known = {int(c) for c in parse_cards("AhKd")}
    everything = [f"{r}{s}" for r in ranks for s in "cdhs"]
    left = [c for c in everything if int(parse_cards(c)[0]) not in dead_codes | known]
    random = ",".join(a + b for i, a in enumerate(left) for b in left[i + 1 :])
    holdings = [
        [
            (tuple(int(c) for c in combo), w)
            for combo, w in Range(text)
            if not {int(c) for c in combo} & dead_codes
        ]
        for text in [*texts[:2], random]
    ]
    want, _ = holdem_equity(holdings, [], sorted(dead_codes))
    problem = prepare(texts, dead=dead)
    assert exact._keeps_patterns(problem)
    tally = BoardRunouts().run(problem, Control())
    got = tally.stats[:3, SHARE] / tally.stats[3, 0]
    assert got.tolist() == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize(
    ("players", "dead", "closed"),
    [
        (["AhAs", "random", "random"], "", True),
        (["QQ+,AK", "JJ", "random"], "", True),
        (["AK", "random"], "Ac", True),  # the dead ace leaves 12 AK: all of them held
        (["AKs", "random"], "", False),  # not AKo: the suits decide what a runout leaves
        (["AKo", "random"], "", False),
        (["AKs:0.5,AKo", "random"], "", False),  # two weights for one rank pair
        (["AhKs,AhKd,AhKc,AhKh", "random"], "", False),  # the Ah in every combo
        (["AA,KhKd", "random"], "", False),  # one KK of six
    ],
)
def test_which_spots_are_closed_under_rank_pairs(
    players: list[str], dead: str, closed: bool
) -> None:
    assert exact._ranges_closed_under_rank_pairs(prepare(players, dead=dead)) is closed


def test_the_share_of_preflop_runouts_without_a_flush() -> None:
    """Five cards of 52 with at most two of each suit (2-2-1 and 2-1-1-1 splits of the suits,
    C(13, 2) = 78 ways to take two of one suit): 0.6289 of the boards."""
    splits = 4 * 3 * 78 * 78 * 13 + 4 * 78 * 13**3
    assert exact._no_flush_share(prepare(["random", "random"])) == pytest.approx(splits / 2_598_960)


@pytest.mark.parametrize(
    ("board", "dead"),
    [
        ("", "2c2d2h2s3c3d3h3s4c4d4h4s5c5d5h5s6c6d6h6s7c7d"),  # five of 28 cards, hearts short
        ("Kd7c2h", ""),  # two of 47 to a rainbow flop
        ("Kd7d2h", "3d"),
        ("Kd7d2d", ""),  # a flush can come on every runout... of the other suits' none
        ("Kd7d2h4c", "Qh"),
    ],
)
def test_the_share_of_runouts_without_a_flush(board: str, dead: str) -> None:
    problem = prepare(["AhAs", "random"], board=board, dead=dead)
    free = [c for c in range(52) if not (problem.known_mask | problem.held_mask) >> c & 1]
    suits = [sum(1 for c in free if c & 3 == s) for s in range(4)]
    on_board = [sum(1 for c in problem.board.tolist() if c & 3 == s) for s in range(4)]
    to_come = 5 - len(problem.board)
    assert exact._no_flush_share(problem) == pytest.approx(_by_hand(suits, on_board, to_come))


def _by_hand(suits: list[int], on_board: list[int], to_come: int) -> float:
    """The share by listing every runout of the free cards, suit by suit."""
    import itertools

    deck = [s for s, n in enumerate(suits) for _ in range(n)]
    good = total = 0
    for runout in itertools.combinations(range(len(deck)), to_come):
        total += 1
        counts = list(on_board)
        for i in runout:
            counts[deck[i]] += 1
        good += max(counts) <= 2
    return good / total


def test_small_spots_do_not_look_for_rank_patterns() -> None:
    """Finding out whether the ranges are closed under rank pairs costs 20-40 us, more than
    keeping patterns saves on a spot of a tenth of a millisecond (AsKs vs QQ+,AKs,AKo on a
    flop: 0.18 ms, 0.23 ms when it looked)."""
    small = prepare(["AsKs", "QQ+,AKs,AKo"], board="Jc9h2d")
    assert exact._ranges_closed_under_rank_pairs(small) and not exact._keeps_patterns(small)
    assert exact._keeps_patterns(prepare(["QsQh", "8c7c", "random"], board="Jc9h2d"))
