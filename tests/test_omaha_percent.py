"""Omaha "top x%" pattern ranges: the shipped orderings (equity against one random hand, seeded
Monte Carlo per suit class) are spot-checked by recomputing entries with their own streams and
against the engine's equity; the whole-class cut; the command line."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
from click.testing import CliRunner, Result

import pokerlab
from cli_helpers import assert_one_line_error
from pokerlab.cards import format_cards
from pokerlab.cli import app
from pokerlab.errors import RangeError
from pokerlab.ranges._omaha_order import omaha_ordering, top_class_count, top_masks
from pokerlab.ranges._omaha_order_gen import (
    DEALS,
    SEED,
    canonical_classes,
    canonical_keys,
    data_file,
    run,
)
from pokerlab.ranges.pattern import PatternRange

HANDS = {4: math.comb(52, 4), 5: math.comb(52, 5)}


def cli(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("n_hole", [4, 5])
def test_shipped_entries_are_recomputed_exactly(n_hole: int) -> None:
    """Replaying a class's own stream (seed + its index in key order) gives its entry."""
    reps, counts, equity = omaha_ordering(n_hole)
    assert counts.sum() == HANDS[n_hole]
    assert np.all(np.diff(equity) <= 0)  # best first
    with np.load(data_file(n_hole)) as data:
        index = data["index"]
    assert sorted(index.tolist()) == list(range(len(reps)))
    keys = canonical_keys(reps)
    assert np.all(np.diff(keys[np.argsort(index)]) > 0)  # the index is the key order
    for i in (0, 1, len(reps) // 2, len(reps) - 1):
        again = run(n_hole, reps[i : i + 1], DEALS[n_hole], SEED + int(index[i]))
        assert again[0] == equity[i]
    if n_hole == 4:  # the classes are every 4-card hand's, once each
        all_reps, all_counts = canonical_classes(4)
        assert np.array_equal(np.sort(keys), canonical_keys(all_reps))
        assert np.array_equal(counts[np.argsort(index)], all_counts)


def test_equities_agree_with_the_engine() -> None:
    reps, _, equity = omaha_ordering(4)
    for i in (0, 4000):
        hand = format_cards(reps[i].tolist())
        r = pokerlab.equity([hand, "random"], game="omaha", method="mc", trials=20_000, seed=3)
        se = math.hypot(r.players[0].stderr, 0.5 / math.sqrt(DEALS[4]))
        assert abs(r.players[0].equity - equity[i]) < 4 * se, hand


def test_percent_takes_whole_classes() -> None:
    _, counts, _ = omaha_ordering(4)
    k = top_class_count(4, 15)
    assert counts[:k].sum() >= 0.15 * HANDS[4] > counts[: k - 1].sum()
    r = PatternRange("15%", size=4, percent=True)
    assert len(r) == counts[:k].sum() == len(top_masks(4, 15))
    band = PatternRange("5%-15%", size=4, percent=True)
    assert len(band) == len(r) - len(PatternRange("5%", size=4, percent=True))
    suited = PatternRange("15%:$ds", size=4, percent=True)
    assert 0 < len(suited) < len(r)
    assert PatternRange("15%", size=4, percent=True).to_string() == "15%"
    with pytest.raises(RangeError, match="4- and 5-card Omaha only"):
        PatternRange("15%", size=4)  # stud (percent off)
    with pytest.raises(RangeError, match="between 0% and 100%"):
        PatternRange("150%", size=4, percent=True)


def test_command_line() -> None:
    result = cli("equity", "--game", "omaha", "10%", "random", "--mc", "--trials", "4000",
                 "--seed", "1", "--json")  # fmt: skip
    assert result.exit_code == 0, result.output
    hero = json.loads(result.stdout)["players"][0]
    assert hero["combos"] == len(top_masks(4, 10)) and hero["equity"] > 0.55
    assert cli("equity", "--game", "omaha5", "5%", "random", "--mc", "--trials", "2000",
               "--seed", "1").exit_code == 0  # fmt: skip
    assert_one_line_error(cli("equity", "--game", "stud", "15%", "random"), "Omaha only")


@pytest.mark.parametrize("game", ["omaha", "omaha5", "omaha-hilo"])
def test_hits_and_query_ranges_take_percentages(game: str) -> None:
    """Every command reads a game's pattern ranges one way: ``hits`` and a query's ``inRange``
    refused ``15%`` in Omaha ("exists for 4- and 5-card Omaha only") while equity took it."""
    size = pokerlab.games.get_game(game).hole_cards
    board = "Ks9s2d"
    top = PatternRange("15%", size, percent=True).remove(pokerlab.cards.parse_cards(board))
    report = pokerlab.hits("15%", board=board, game=game)
    assert report.combos == len(top.holdings)
    inside = pokerlab.query(
        f"select avg(inRange(h, '15%')) from game='{game}', h='{format_cards(top.holdings[0])}', "
        f"v='random', board='{board}', trials=50, seed=1"
    )
    assert inside.results[0].value == 1.0
