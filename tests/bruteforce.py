"""Slow, obviously-correct equity oracles for the tests: walk every deal in plain Python.

The hand evaluator here is written from the rules in ../shared/definitions.md and shares no
code or table with pokerlab: a 5-card hand becomes a comparable tuple (category, tie-breaking
ranks); more cards take the best 5-card subset.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterator, Sequence

Cards = Sequence[int]  # card codes: 4 * rank + suit


def rank5(cards: Cards) -> tuple[int, ...]:
    """(category 0..8, tie-break ranks...) of exactly five cards; larger is better."""
    ranks = sorted((c >> 2 for c in cards), reverse=True)
    flush = len({c & 3 for c in cards}) == 1
    distinct = sorted(set(ranks), reverse=True)
    straight_top = -1
    if len(distinct) == 5:
        if distinct[0] - distinct[4] == 4:
            straight_top = distinct[0]
        elif distinct == [12, 3, 2, 1, 0]:  # A-2-3-4-5: the ace plays low
            straight_top = 3
    counts = Counter(ranks)
    groups = sorted(counts.items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    by_group = tuple(r for r, _ in groups)
    shape = tuple(n for _, n in groups)
    if straight_top >= 0 and flush:
        return (8, straight_top)
    if shape == (4, 1):
        return (7, *by_group)
    if shape == (3, 2):
        return (6, *by_group)
    if flush:
        return (5, *ranks)
    if straight_top >= 0:
        return (4, straight_top)
    if shape == (3, 1, 1):
        return (3, *by_group)
    if shape == (2, 2, 1):
        return (2, *by_group)
    if shape == (2, 1, 1, 1):
        return (1, *by_group)
    return (0, *ranks)


# Short-deck (6+) categories weakest first by the standard category number above: a flush
# (5) beats a full house (6), three of a kind (3) beats a straight (4).
_SHORT_LEVEL = {0: 0, 1: 1, 2: 2, 4: 3, 3: 4, 6: 5, 5: 6, 7: 7, 8: 8}
# The other rule (``shortdeck-straights``): only the flush and the full house swap.
_STRAIGHTS_LEVEL = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 6: 5, 5: 6, 7: 7, 8: 8}


def rank5_short(cards: Cards, straight_beats_trips: bool = False) -> tuple[int, ...]:
    """:func:`rank5` by short-deck rules (docs/definitions.md): no card below the six, the
    ace plays low in A-6-7-8-9 (a nine-high straight), flush over full house, trips over
    straight (or, ``straight_beats_trips``, under it)."""
    assert all(c >> 2 >= 4 for c in cards), cards
    value = rank5(cards)
    ranks = sorted({c >> 2 for c in cards})
    if ranks == [4, 5, 6, 7, 12]:  # A-6-7-8-9
        value = (8 if len({c & 3 for c in cards}) == 1 else 4, 7)
    level = _STRAIGHTS_LEVEL if straight_beats_trips else _SHORT_LEVEL
    return (level[value[0]], *value[1:])


def best_short(cards: Cards, straight_beats_trips: bool = False) -> tuple[int, ...]:
    """Best five-card short-deck hand among ``cards``."""
    return max(rank5_short(five, straight_beats_trips) for five in itertools.combinations(cards, 5))


def best_high(cards: Cards) -> tuple[int, ...]:
    """Best five-card high hand among ``cards`` (5 or more)."""
    return max(rank5(five) for five in itertools.combinations(cards, 5))


def _credit(values: list[tuple[int, ...]], shares: list[float]) -> None:
    best = max(values)
    winners = [i for i, v in enumerate(values) if v == best]
    for i in winners:
        shares[i] += 1 / len(winners)


def joint_holdings(
    holdings: Sequence[Sequence[tuple[Cards, float]]], known: Cards
) -> Iterator[tuple[tuple[tuple[Cards, float], ...], float, list[int]]]:
    """Every joint holding (one weighted holding per player) that uses no card twice and none
    of ``known``, with its weight (the product) and the cards left in the deck."""
    known_set = set(known)
    for joint in itertools.product(*holdings):
        cards = [c for combo, _ in joint for c in combo]
        if len(set(cards)) != len(cards) or known_set & set(cards):
            continue
        weight = 1.0
        for _, w in joint:
            weight *= w
        yield joint, weight, [c for c in range(52) if c not in known_set and c not in cards]


def holdem_equity(
    holdings: Sequence[Sequence[tuple[Cards, float]]], board: Cards, dead: Cards
) -> tuple[list[float], float]:
    """Exact hold'em equity of weighted holdings per player: every joint holding with no shared
    card, weighted by its weight product, times every board completion. Returns the expected
    shares and the total weight."""
    shares = [0.0] * len(holdings)
    total = 0.0
    for joint, weight, deck in joint_holdings(holdings, [*board, *dead]):
        for rest in itertools.combinations(deck, 5 - len(board)):
            full = [*board, *rest]
            local = [0.0] * len(holdings)
            _credit([best_high([*combo, *full]) for combo, _ in joint], local)
            for i, s in enumerate(local):
                shares[i] += weight * s
            total += weight
    return [s / total for s in shares], total


def stud_equity(hands: Sequence[Cards], dead: Cards) -> tuple[list[float], int]:
    """Exact seven-card stud high equity of known cards: every way to deal each player its
    missing cards, player after player. A player's seven cards recur in many deals (the others'
    cards vary), so each one's value is computed once."""
    used = {c for h in hands for c in h} | set(dead)
    deck = [c for c in range(52) if c not in used]
    shares = [0.0] * len(hands)
    deals = 0
    value = functools.cache(best_high)  # per call: the cache ends with this walk

    def deal(p: int, left: list[int], finished: list[tuple[int, ...]]) -> None:
        nonlocal deals
        if p == len(hands):
            _credit([value(h) for h in finished], shares)
            deals += 1
            return
        for extra in itertools.combinations(left, 7 - len(hands[p])):
            rest = [c for c in left if c not in extra]
            deal(p + 1, rest, [*finished, (*hands[p], *extra)])

    deal(0, deck, [])
    return [s / deals for s in shares], deals


# --- lows, Omaha, split pots ---------------------------------------------------------------


_LOW_SHAPES = [(1, 1, 1, 1, 1), (2, 1, 1, 1), (2, 2, 1), (3, 1, 1), (3, 2), (4, 1)]


def low5(cards: Cards) -> tuple[int, ...]:
    """A-5 low of exactly five cards as a comparable tuple, *smaller is better*: (shape, ranks
    by group, larger groups first) with the ace as 1; straights and flushes do not count; no
    pair < one pair < two pair < trips < full house < quads."""
    ranks = [1 if c >> 2 == 12 else (c >> 2) + 2 for c in cards]  # A=1, 2=2 .. K=13
    groups = sorted(Counter(ranks).items(), key=lambda rc: (rc[1], rc[0]), reverse=True)
    shape = tuple(n for _, n in groups)
    return (_LOW_SHAPES.index(shape), *(r for r, _ in groups))


def best_a5(cards: Cards) -> tuple[int, ...]:
    """Best (smallest) A-5 low among the five-card subsets of ``cards``."""
    return min(low5(five) for five in itertools.combinations(cards, 5))


def qualifies_eight(low: tuple[int, ...]) -> bool:
    """An 8-or-better low: five distinct ranks (no pair), the highest 8 or lower."""
    return low[0] == 0 and low[1] <= 8


def best_eight(cards: Cards) -> tuple[int, ...] | None:
    """Best 8-or-better low of ``cards`` (any five), or None."""
    low = best_a5(cards)
    return low if qualifies_eight(low) else None


def _omaha_fives(hole: Cards, board: Cards) -> list[list[int]]:
    return [
        [*pair, *three]
        for pair in itertools.combinations(hole, 2)
        for three in itertools.combinations(board, 3)
    ]


def best_omaha_high(hole: Cards, board: Cards) -> tuple[int, ...]:
    """Best high hand of exactly two hole and three board cards."""
    return max(rank5(five) for five in _omaha_fives(hole, board))


def best_omaha_eight(hole: Cards, board: Cards) -> tuple[int, ...] | None:
    """Best qualifying low of exactly two hole and three board cards, or None."""
    lows = [low5(f) for f in _omaha_fives(hole, board)]
    good = [low for low in lows if qualifies_eight(low)]
    return min(good) if good else None


def showdown_values(game: str, hand: Cards, board: Cards) -> tuple[object, object]:
    """(high, low) of one player's final cards; high None when the game has no high half
    (razz: the A-5 low decides), low None when it has no low half or the low does not
    qualify. Larger high is better; smaller low is better."""
    if game in ("omaha", "omaha5", "omaha6"):
        return best_omaha_high(hand, board), None
    if game in ("shortdeck", "shortdeck-straights"):
        return best_short([*hand, *board], game == "shortdeck-straights"), None
    if game in ("omaha-hilo", "omaha5-hilo"):
        return best_omaha_high(hand, board), best_omaha_eight(hand, board)
    if game == "stud":
        return best_high(hand), None
    if game == "stud-hilo":
        return best_high(hand), best_eight(hand)
    if game == "razz":
        return None, best_a5(hand)
    raise ValueError(game)


def _split_credit(
    game: str, values: list[tuple[object, object]]
) -> tuple[list[float], list[float], list[float]]:
    """Per player: pot share, high part, low part of one deal (shared/definitions.md)."""
    n = len(values)
    hi_part = [0.0] * n
    lo_part = [0.0] * n
    if game == "razz":
        lows = [v[1] for v in values]
        best = min(lows)  # type: ignore[type-var]
        win = [i for i in range(n) if lows[i] == best]
        for i in win:
            hi_part[i] = 1 / len(win)
        return hi_part, hi_part, lo_part
    highs = [v[0] for v in values]
    top = max(highs)  # type: ignore[type-var]
    hi_win = [i for i in range(n) if highs[i] == top]
    lows = [v[1] for v in values if v[1] is not None]
    pot_hi = 1.0
    if lows:
        best_low = min(lows)  # type: ignore[type-var]
        lo_win = [i for i in range(n) if values[i][1] == best_low]
        pot_hi = 0.5
        for i in lo_win:
            lo_part[i] = 0.5 / len(lo_win)
    for i in hi_win:
        hi_part[i] = pot_hi / len(hi_win)
    return [h + lo for h, lo in zip(hi_part, lo_part, strict=True)], hi_part, lo_part


def _completions(
    hands: list[list[int]], hole_cards: int, left: list[int]
) -> Iterator[list[list[int]]]:
    """Every way to deal each hand its missing cards from ``left``, player after player."""
    if not hands:
        yield []
        return
    for extra in itertools.combinations(left, hole_cards - len(hands[0])):
        rest = [c for c in left if c not in extra]
        for others in _completions(hands[1:], hole_cards, rest):
            yield [[*hands[0], *extra], *others]


def game_equity(
    game: str,
    holdings: Sequence[Sequence[tuple[Cards, float]]],
    board: Cards,
    dead: Cards,
    hole_cards: int,
    board_cards: int,
    shared_card: bool = False,
) -> dict[str, list[float]]:
    """Exact equity of any game of the brute force's rules: every joint holding (weighted
    product), then every completion (the board's missing cards, or in stud each player's
    missing cards, player after player; with ``shared_card``, each player's first six and
    then one seventh card that every player uses). Returns per player ``equity``, ``hi``,
    ``lo``, ``scoop`` (whole pot) and ``tie`` (a share strictly between 0 and 1)."""
    n = len(holdings)
    acc = {k: [0.0] * n for k in ("equity", "hi", "lo", "scoop", "tie")}
    total = 0.0

    def credit(hands: list[list[int]], full_board: list[int], weight: float) -> None:
        nonlocal total
        values = [showdown_values(game, h, full_board) for h in hands]
        share, hi, lo = _split_credit(game, values)
        for i in range(n):
            acc["equity"][i] += weight * share[i]
            acc["hi"][i] += weight * hi[i]
            acc["lo"][i] += weight * lo[i]
            acc["scoop"][i] += weight * (share[i] > 1 - 1e-12)
            acc["tie"][i] += weight * (1e-12 < share[i] < 1 - 1e-12)
        total += weight

    for joint, weight, full_deck in joint_holdings(holdings, [*board, *dead]):
        short = game.startswith("shortdeck")
        deck = [c for c in full_deck if c >> 2 >= 4] if short else full_deck
        if board_cards:
            for rest in itertools.combinations(deck, board_cards - len(board)):
                credit([list(c) for c, _ in joint], [*board, *rest], weight)
            continue

        own = hole_cards - shared_card
        for done in _completions([list(combo) for combo, _ in joint], own, deck):
            if not shared_card:
                credit(done, [], weight)
                continue
            for card in (c for c in deck if not any(c in h for h in done)):
                credit([[*h, card] for h in done], [], weight)
    return {k: [x / total for x in v] for k, v in acc.items()}


def assert_same_order(keys: Sequence[tuple[int, ...]], strengths: Sequence[int]) -> None:
    """``strengths`` (an evaluator's) rank the hands exactly as the brute force's ``keys`` do,
    ties included."""
    order = sorted(range(len(keys)), key=keys.__getitem__)
    for a, b in itertools.pairwise(order):
        if keys[a] == keys[b]:
            assert strengths[a] == strengths[b], (keys[a], keys[b])
        else:
            assert strengths[a] < strengths[b], (keys[a], keys[b])
