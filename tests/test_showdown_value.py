"""``pokerlab.analysis.showdown.showdown_value`` and ``pokerlab eval --game``: a hand's value in
every game, each half of a split pot, against the brute force of ``tests/bruteforce.py`` on random
deals (the order of strengths, ties included, and which lows qualify)."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

import bruteforce as bf
from cli_helpers import assert_one_line_error
from pokerlab.analysis.showdown import showdown_value
from pokerlab.cards import format_cards
from pokerlab.cli import app
from pokerlab.errors import PokerlabError
from pokerlab.evaluation.codes import LowEval
from pokerlab.games import get_game

DEALS = 400

GAMES = ["holdem", "shortdeck", "shortdeck-straights", "omaha", "omaha5", "omaha6", "omaha-hilo",
         "omaha5-hilo", "stud", "stud-hilo", "razz"]  # fmt: skip


def _deal(game: str, rng: random.Random) -> tuple[list[int], list[int]]:
    """Hole cards and board of one random deal of ``game`` (a 7-card stud hand, or a hold'em hand
    of 5 to 7 cards with no board half the time)."""
    spec = get_game(game)
    deck = [c for c in range(52) if not spec.removed_mask >> c & 1]
    if spec.is_stud:
        return rng.sample(deck, rng.choice((5, 6, 7))), []
    board = rng.choice((3, 4, 5))
    cards = rng.sample(deck, spec.hole_cards + board)
    return cards[: spec.hole_cards], cards[spec.hole_cards :]


def _brute(game: str, hole: list[int], board: list[int]) -> tuple[object, object]:
    if game == "holdem":
        return bf.best_high([*hole, *board]), None
    return bf.showdown_values(game, hole, board)


@pytest.mark.parametrize("game", GAMES)
def test_values_order_hands_as_the_brute_force_does(game: str) -> None:
    rng = random.Random(f"showdown {game}")
    highs, high_keys, lows, low_keys = [], [], [], []
    for _ in range(DEALS):
        hole, board = _deal(game, rng)
        value = showdown_value(format_cards(hole), game, format_cards(board))
        high, low = _brute(game, hole, board)
        assert (value.high is None) == (high is None)
        assert (value.low is None) == (low is None), (format_cards(hole), format_cards(board))
        assert value.has_low == (get_game(game).low != LowEval.NONE)
        if value.high is not None:
            assert set(value.high.best) <= {*hole, *board}
            highs.append(value.high.strength)
            high_keys.append(high)
        if value.low is not None:
            assert set(value.low.best) <= {*hole, *board}
            lows.append(-value.low.strength)  # smaller is the better low in the brute force
            low_keys.append(low)
    bf.assert_same_order(high_keys, highs)
    bf.assert_same_order(low_keys, lows)
    assert highs or lows


def test_deuce_to_seven_reverses_the_high_order() -> None:
    """2-7 lowball ranks five cards exactly against the high order (aces high, straights and
    flushes count), so its strengths sort the brute force's high keys backwards."""
    rng = random.Random("2-7")
    hands = [rng.sample(range(52), 5) for _ in range(DEALS)]
    strengths = [-showdown_value(format_cards(h), "2-7").low.strength for h in hands]  # type: ignore[union-attr]
    bf.assert_same_order([bf.rank5(h) for h in hands], strengths)


def test_split_games_value_both_halves_and_say_when_no_low_qualifies() -> None:
    both = showdown_value("As2sKd3d", "omaha-hilo", "4c5h6sQs7d")
    assert both.split and both.to_dict()["low"]["description"] == "6-5-4-2-A"
    none = showdown_value("AsKsQd2c", "PLO8", "JsTs9h")  # an alias, any letter case
    assert none.split and none.low is None and none.to_dict()["low"] is None
    assert none.to_dict()["high"]["description"] == "Straight, King high"
    razz = showdown_value("7h 5d 4c 3s 2h Kd Kc", "razz")
    assert not razz.split and razz.high is None
    assert razz.to_dict() == {"game": "razz", **razz.low.to_dict()}  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("args", "field", "said"),
    [
        (("AsKsQsJs", "omaha"), "board", "with a board of 3, 4 or 5 cards"),
        (("AsKsQsJsTs", "omaha", "2d3d4d"), "cards", "an Omaha hand has 4 cards, got 5"),
        (("AsKs", "stud", "2d3d4d"), "board", "Seven-card stud has no board"),
        (("AsKsQs", "holdem", "2d3d4d"), "cards", "give the 2 hole cards"),
        (("AsKs", "holdem", "2d3d"), "board", "got 2 (the flop is 3 cards)"),
        (("AsKs", "holdem", "As2d3d"), "board", "card 'As' is used twice"),
        (("AsKs",), "cards", "needs 5, 6 or 7 cards, got 2"),
        (("AsKsQsJsTs", "bridge"), "game", "or a draw game: high, 2-7"),
        (("AsKsQsJs", "2-7"), "cards", "exactly 5 cards, got 4"),
        (("AsKsQsJsTs", "high", "2c3c4c"), "board", "a draw game has no board"),
        (("2c3d4h5s6c", "shortdeck"), "cards", "no card below the six"),
        # blamed "the hand" (field cards), naming board cards as the hand's
        (("AsAh", "shortdeck", "2c3d4h"), "board", "board cards 2c 3d 4h are not in the short"),
        (("AsAh", "shortdeck", "6c7d8h5h"), "board", "board card 5h is not in the short deck"),
    ],
)
def test_bad_input_names_its_argument(args: tuple[str, ...], field: str, said: str) -> None:
    with pytest.raises(PokerlabError, match=said.replace("(", r"\(").replace(")", r"\)")) as e:
        showdown_value(*args)
    assert e.value.field == field


def run(*args: str) -> str:
    result = CliRunner().invoke(app, ["eval", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_values_a_hand_in_any_game() -> None:
    text = run("As2sKd3d", "--board", "4c5h6sQs7d", "--game", "omaha-hilo")
    assert "Omaha hi/lo 8-or-better" in text
    assert "Straight, Six high" in text and "6-5-4-2-A" in text
    assert "no 8-or-better low" in run("AsKsQd2c", "-b", "JsTs9h", "-g", "omaha-hilo")
    payload = json.loads(run("7h 5d 4c 3s 2h Kd Kc", "-g", "razz", "--json"))
    assert payload["game"] == "razz" and payload["description"] == "7-5-4-3-2"
    assert "7-low" in run("7h5d4c3s2h", "-g", "2-7")
    # without --game: a high hand's fields alone, as before; a board adds to the hole cards
    assert "game" not in json.loads(run("AsKs", "-b", "QsJsTs", "--json"))
    assert "Royal Flush" in run("AsKs", "-b", "QsJsTs")


def test_cli_refuses_two_ways_of_naming_short_deck_and_bad_counts() -> None:
    both = CliRunner().invoke(app, ["eval", "--short-deck", "-g", "omaha", "AsKsQsJsTs"])
    assert_one_line_error(both, "--short-deck is --game shortdeck: give one of them")
    omaha = CliRunner().invoke(app, ["eval", "AsKsQsJs", "-g", "omaha"])
    assert_one_line_error(omaha, "valued with a board of 3, 4 or 5 cards")
