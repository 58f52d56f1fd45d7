"""A range is echoed as typed, but a ten is always written ``T`` (definitions.md: input accepts
``T`` or ``10``, output uses the canonical form), and a ``10`` that is a number stays."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pokerlab
from pokerlab.games import get_game
from pokerlab.ranges import Range
from pokerlab.ranges._echo import echo_text

_HOLDEM_HANDS = ["A10s", "1010+", "Ah10d", "Ah 10d", "109s-54s", "K10o-K7o", "10s9s",
                 "A10", "KQ", "random", "10%", "5%-10%", "10.5%@vs1", "10%@sc"]  # fmt: skip
_HOLDEM_WEIGHTS = ["", ":0.10", "@10", ":1e-10", "@ 10.5", ":1"]
_PATTERNS = ["10h10s**", "(10-9-)**", "10-10-**", "AA**:10h*", "10+10+**", "[A,10]***",
             "KK**!10h", "10%", "5%-10%", "random!10s", "AsKs10h10d"]  # fmt: skip


@given(st.lists(st.tuples(st.sampled_from(_HOLDEM_HANDS), st.sampled_from(_HOLDEM_WEIGHTS)),
                min_size=1, max_size=4))  # fmt: skip
@settings(max_examples=150, deadline=None)
def test_holdem_echo_reads_as_the_same_range_with_t(
    items: list[tuple[str, str]],
) -> None:
    text = ", ".join(hand + weight for hand, weight in items)
    echo = echo_text(text, "holdem")
    assert np.array_equal(Range(echo).weights, Range(text).weights)
    hands = [re.split("[:@]", p)[0] for p in echo.split(",")]
    assert all("10" not in h for h in hands if "%" not in h), echo
    assert [_after_hand(p) for p in echo.split(",")] == [_after_hand(p) for p in text.split(",")]


def _after_hand(item: str) -> str:
    """An item's weight or ordering as written (from its first ':' or '@'), or ''."""
    found = re.search("[:@]", item)
    return "" if found is None else item[found.start() :]


@given(st.lists(st.tuples(st.sampled_from(_PATTERNS), st.sampled_from(["", "@10", "@ 50"])),
                min_size=1, max_size=3))  # fmt: skip
@settings(max_examples=60, deadline=None)
def test_pattern_echo_reads_as_the_same_range(items: list[tuple[str, str]]) -> None:
    text = ",".join(pattern + weight for pattern, weight in items)
    echo = echo_text(text, "pattern")
    omaha = get_game("omaha")
    before, after = omaha.pattern_range(text), omaha.pattern_range(echo)
    assert np.array_equal(after.holdings, before.holdings)
    assert np.array_equal(after.weights, before.weights)
    assert echo.count("10") == sum(w.count("10") + p.count("10%") for p, w in items), echo


@pytest.mark.parametrize(
    ("game", "players", "echoed"),
    [
        ("holdem", ["Ah10d,KcQc", "10s10h"], ["AhTd,KcQc", "TsTh"]),
        ("holdem", ["10%,A10s:0.10", "K10o@10"], ["10%,ATs:0.10", "KTo@10"]),
        ("omaha", ["10h10s9d9c,AhAsKdKc@10", "random"], ["ThTs9d9c,AhAsKdKc@10", "random"]),
        ("razz", ["10-", "A2"], ["T-", "A2"]),
    ],
)
def test_equity_echoes_tens_as_t(game: str, players: list[str], echoed: list[str]) -> None:
    result = pokerlab.equity(players, game=game, method="mc", trials=1_000, seed=1)
    assert [p.input for p in result.players] == echoed


def test_hits_echoes_tens_as_t() -> None:
    assert pokerlab.hits("A10s,KQs", board="2c3d4h").range == "ATs,KQs"
