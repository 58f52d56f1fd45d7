"""pokerlab's exact engines against the plain-Python brute force of tests/bruteforce.py on random
small spots (fixed seeds): 2-5 players, hands or small weighted ranges, flop/turn/river boards,
dead cards; outs per next card; stud from sixth street."""

from __future__ import annotations

import random

import pytest

from bruteforce import holdem_equity, stud_equity
from pokerlab import equity, outs
from pokerlab.cards import format_cards


def _spot(seed: int) -> tuple[list[str], list[list[tuple[tuple[int, ...], float]]], list[int],
                              list[int]]:  # fmt: skip
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    n_players = rng.randint(2, 5)
    board_size = rng.choice([3, 4, 4, 5, 5])
    if n_players >= 4 and board_size == 3:
        board_size = 4  # keep the plain-Python walk small
    board = [deck.pop() for _ in range(board_size)]
    dead = [deck.pop() for _ in range(rng.randint(0, 2))]
    texts: list[str] = []
    holdings: list[list[tuple[tuple[int, ...], float]]] = []
    for _ in range(n_players):
        size = 1 if rng.random() < 0.6 or board_size == 3 else rng.randint(2, 3)
        combos = []
        for _ in range(size):
            combo = (deck.pop(), deck.pop())
            weight = rng.choice([1.0, 1.0, 0.5, 0.25])
            combos.append((combo, weight))
        texts.append(",".join(f"{format_cards(c)}:{w:g}" for c, w in combos))
        holdings.append(combos)
    return texts, holdings, board, dead


@pytest.mark.parametrize("seed", range(24))
def test_exact_equity_matches_brute_force(seed: int) -> None:
    texts, holdings, board, dead = _spot(seed)
    want, _ = holdem_equity(holdings, board, dead)
    got = equity(texts, board=format_cards(board), dead=format_cards(dead), method="exact")
    assert [p.equity for p in got.players] == pytest.approx(want, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_outs_match_brute_force_per_river(seed: int) -> None:
    rng = random.Random(100 + seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [(deck.pop(), deck.pop()) for _ in range(rng.randint(2, 3))]
    board = [deck.pop() for _ in range(4)]
    report = outs([format_cards(h) for h in hands], board=format_cards(board))
    for card, shares in zip(report.next_cards.cards, report.next_cards.shares, strict=True):
        want, _ = holdem_equity([[(h, 1.0)] for h in hands], [*board, int(card)], [])
        assert list(shares) == pytest.approx(want, abs=1e-12), str(card)


@pytest.mark.parametrize("seed", range(12))
def test_stud_matches_brute_force(seed: int) -> None:
    rng = random.Random(200 + seed)
    deck = list(range(52))
    rng.shuffle(deck)
    n_players = rng.randint(2, 3)
    hands = [[deck.pop() for _ in range(6)] for _ in range(n_players)]
    dead = [deck.pop() for _ in range(rng.randint(0, 3))]
    want, deals = stud_equity(hands, dead)
    got = equity(
        [format_cards(h) for h in hands], dead=format_cards(dead), game="stud", method="exact"
    )
    assert got.samples == deals
    assert [p.equity for p in got.players] == pytest.approx(want, abs=1e-12)
