"""The simulator's razz notation: ``(7-7-7)`` read the classic way inside a no-pair group,
ambiguous spellings refused with both readings, and suitless cards in razz (hands and dead
cards) whose result does not depend on the suits given to them."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cards import parse_cards_any_suit
from pokerlab.cli import app
from pokerlab.errors import CardError, GameError, RangeError
from pokerlab.ranges.pattern import PatternRange


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args), env={"COLUMNS": "120"})


def ranks(holding: list[int]) -> list[int]:
    return sorted(c >> 2 for c in holding)


def test_seven_seven_seven_is_two_cards_seven_or_lower_and_a_seven() -> None:
    r = PatternRange("(7-7-7)", size=3, low_aces=True)
    assert len(r) == 15 * 4 * 4 * 4  # a seven and two distinct ranks from A..6
    for h in r.holdings.tolist():
        low = [(x + 1) % 13 for x in ranks(h)]  # ace = 0, deuce = 1, ..., seven = 6
        assert low.count(6) == 1 and len(set(low)) == 3 and max(low) == 6
    assert r.to_string() == "(7-7- 7)"
    assert PatternRange(r.to_string(), size=3, low_aces=True) == r
    assert PatternRange("(3-2-)", size=2, low_aces=True) == PatternRange("(3-3-)", size=2,
                                                                         low_aces=True)  # fmt: skip


@pytest.mark.parametrize(
    ("text", "spellings"),
    [
        ("(3-2)4", ("([3-2])", "(3- 2)")),
        ("(5-9)", ("([5-9])", "(5- 9)")),
        ("7-7-7", ("7- 7- 7", "7- [7-7]")),
    ],
)
def test_ambiguous_spellings_are_refused_with_both_readings(
    text: str, spellings: tuple[str, str]
) -> None:
    with pytest.raises(RangeError, match="ambiguous") as info:
        PatternRange(text, size=3, low_aces=True)
    for s in spellings:
        assert s in str(info.value)
        PatternRange(s, size=3, low_aces=True)  # each spelling offered parses


def test_unambiguous_spans_keep_their_meaning() -> None:
    assert len(PatternRange("5-9", size=1)) == 20
    assert PatternRange("([5-9])", size=1) == PatternRange("5-9", size=1)
    assert len(PatternRange("(3- 2)", size=2, low_aces=True)) == 2 * 4 * 4  # A3 or 23, not 33


def test_the_simulators_razz_example_on_the_command_line() -> None:
    """``a29`` against ``(7-7-7)`` with K Q J 8 8 dead: about 42 % (the span misreading gave
    53.8 %)."""
    args = ("equity", "--game", "razz", "a29", "(7-7-7)", "--dead", "K Q J 8 8", "--mc",
            "--trials", "40000", "--seed", "5", "--json")  # fmt: skip
    result = run(*args)
    assert result.exit_code == 0, result.output
    hero = json.loads(result.stdout)["players"][0]
    assert abs(hero["equity"] - 0.427) < 4 * hero["stderr"] + 0.003
    assert_one_line_error(run("equity", "--game", "razz", "a29", "(3-2)7"), "ambiguous",
                          "([3-2])", "(3- 2)")  # fmt: skip
    assert_one_line_error(
        run("equity", "AsKs", "QQ", "--dead", "A"), "invalid card 'A'", "suit"
    )  # suits matter in hold'em: no suitless dead cards there


def test_suitless_dead_cards_do_not_depend_on_the_suits_given() -> None:
    players = ["As2d9h", "3c4d5h"]
    want = pokerlab.equity(players, game="razz", dead="K Q J 8 8", method="exact")
    assert want.players[0].equity == pytest.approx(0.3988266352473858, abs=1e-12)
    suits = "cdhs"
    # the first twelve assignments (each dead card any suit, the two eights different, not
    # clashing with the held hearts)
    tried = 0
    for k, q, j, (e1, e2) in itertools.product(suits, suits, suits,
                                               itertools.combinations(suits, 2)):  # fmt: skip
        if tried >= 12:
            break
        dead = f"K{k} Q{q} J{j} 8{e1} 8{e2}"
        got = pokerlab.equity(players, game="razz", dead=dead, method="exact")
        assert got.players[0].equity == pytest.approx(want.players[0].equity, abs=1e-12), dead
        tried += 1
    assert tried == 12
    assert [str(c) for c in parse_cards_any_suit("K Q J 8 8")] == ["Kc", "Qc", "Jc", "8c", "8d"]


def test_suitless_dead_cards_avoid_the_held_cards() -> None:
    dead = parse_cards_any_suit("A 2 2", avoid=sum(1 << c for c in (48, 0)))  # Ac, 2c held
    assert [str(c) for c in dead] == ["Ad", "2d", "2h"]
    r = pokerlab.equity(["AcAd2c", "3c4d5h"], game="razz", dead="A A", method="exact")
    assert r.players[0].equity == pytest.approx(
        pokerlab.equity(["AcAd2c", "3c4d5h"], game="razz", dead="Ah As", method="exact")
        .players[0].equity, abs=1e-12)  # fmt: skip
    with pytest.raises(CardError, match="no A is left"):
        pokerlab.equity(["AcAd2c", "3c4d5h"], game="razz", dead="A A A")


def test_a_suitless_dead_card_avoids_cards_a_range_holds_in_every_holding() -> None:
    """``Ac2c3`` holds the ace of clubs whatever its third card: a dead ``A`` is another ace."""
    got = pokerlab.equity(["Ac2c3", "4c5d6h"], game="razz", dead="A", method="exact")
    assert got.dead == "Ad"
    want = pokerlab.equity(["Ac2c3", "4c5d6h"], game="razz", dead="Ah", method="exact")
    assert got.equities == pytest.approx(want.equities, abs=1e-12)


def test_a_suitless_dead_card_whose_suit_matters_is_refused() -> None:
    """A range that names one ace in some holdings only: which ace is dead changes the answer
    (an ace of clubs took the first holding away: 45.9 % for 47.95 % with the others)."""
    players = ["Ac2c3c,2h3h4h", "Ad2d3d"]
    with pytest.raises(GameError, match="which A is dead changes the answer: player 1") as info:
        pokerlab.equity(players, game="razz", dead="A", method="exact")
    assert info.value.field == "dead"
    hearts = pokerlab.equity(players, game="razz", dead="Ah", method="exact")
    spades = pokerlab.equity(players, game="razz", dead="As", method="exact")
    clubs = pokerlab.equity(players, game="razz", dead="Ac", method="exact")
    assert hearts.equities == pytest.approx(spades.equities, abs=1e-12)
    assert clubs.players[0].equity != pytest.approx(hearts.players[0].equity, abs=1e-3)


def test_suitless_hands_are_every_suit_alike() -> None:
    a = pokerlab.equity(["a29", "3c4d5h"], game="razz", method="exact")
    b = pokerlab.equity(["As2d9h", "3c4d5h"], game="razz", method="exact")
    assert a.players[0].equity == pytest.approx(b.players[0].equity, abs=1e-12)
