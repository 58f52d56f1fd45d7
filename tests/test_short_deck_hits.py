"""Board hits in short deck against a brute force written from the rules, combo by combo.

The brute force shares no code with the kernel: the best hand comes from ``bruteforce.py``'s
``best_short`` (the best five cards by short-deck rules: trips over a straight, a flush over a
full house, A-6-7-8-9 the lowest straight), straights from five-rank runs of the short deck (no
A-2-3-4-5), out ranks from the ranks of the deck (six to ace), suits by counting. The random
spots run for the other rule too (``shortdeck-straights``: a straight over trips), where a set
beside a straight is a straight and a set may draw to one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import numpy as np
import pytest

import pokerlab
from bruteforce import best_short
from pokerlab.analysis.board_categories import DRAWS, MADE
from pokerlab.cards import format_cards, parse_cards
from pokerlab.engine.problem import prepare
from pokerlab.errors import EmptyRangeError, GameError, RangeError

DECK = range(16, 52)  # sixes to aces
DECK_RANKS = range(4, 13)
# short-deck levels, weakest first (docs/definitions.md); by the other rule trips and straight swap
FULL_HOUSE, FLUSH = 5, 6
RULES = ["shortdeck", "shortdeck-straights"]


def straight_and_trips(game: str) -> tuple[int, int]:
    """The levels of a straight and of three of a kind in ``game``'s order."""
    return (3, 4) if game == "shortdeck" else (4, 3)


def names(game: str) -> dict[int, str]:
    """The made categories named by the hand's level alone (a straight or better)."""
    straight = straight_and_trips(game)[0]
    return {8: "straight flush", 7: "four of a kind", FLUSH: "flush", FULL_HOUSE: "full house",
            straight: "straight"}  # fmt: skip


RUNS = [set(range(top - 4, top + 1)) for top in range(8, 13)] + [{12, 4, 5, 6, 7}]
RUN_TOPS = [*range(8, 13), 7]  # A-6-7-8-9 is nine high
ORDER = [c.name for c in MADE]


def codes(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def best_straight(ranks: set[int]) -> int:
    """Top rank of the best short-deck straight in ``ranks``, or -1."""
    return max((top for run, top in zip(RUNS, RUN_TOPS, strict=True) if run <= ranks), default=-1)


@cache
def level_of(cards: tuple[int, ...], game: str = "shortdeck") -> int:
    return best_short(cards, game == "shortdeck-straights")[0]


def made_of(hole: Sequence[int], board: Sequence[int], game: str = "shortdeck") -> str:
    """The made category of the hole cards with the board, from the definitions."""
    level = level_of(tuple(sorted([*hole, *board])), game)
    if level in names(game):
        return names(game)[level]
    trips = straight_and_trips(game)[1]
    a, b = hole
    ra, rb = a >> 2, b >> 2
    board_ranks = [c >> 2 for c in board]
    top, low = max(board_ranks), min(board_ranks)
    if level == trips:
        if ra == rb and ra in board_ranks:
            return "set"
        if ra != rb and (board_ranks.count(ra) >= 2 or board_ranks.count(rb) >= 2):
            return "trips"
    if ra != rb and ra in board_ranks and rb in board_ranks:
        return "two pair"
    if ra == rb:
        if ra > top:
            return "overpair"
        if ra < low:
            return "underpair"
        return "pocket pair below top pair"
    if ra in board_ranks or rb in board_ranks:
        paired, kicker = (ra, rb) if ra in board_ranks else (rb, ra)
        if paired == top:
            free = [r for r in reversed(DECK_RANKS) if r not in board_ranks]
            if kicker == free[0]:
                return "top pair, top kicker"
            if kicker in free[1:3]:
                return "top pair, good kicker"
            return "top pair, weak kicker"
        return "bottom pair" if paired == low else "middle pair"
    return "ace high" if 12 in (ra, rb) else "no made hand"


@cache
def makes_straight(hole_ranks: tuple[int, ...], board_ranks: tuple[int, ...]) -> bool:
    """A straight higher than the board's own (the board and the extra ranks alone)."""
    return best_straight({*hole_ranks, *board_ranks}) > best_straight(set(board_ranks))


def draws_of(hole: Sequence[int], board: Sequence[int], game: str = "shortdeck") -> set[str]:
    if len(board) == 5:
        return set()
    out: set[str] = set()
    level = level_of(tuple(sorted([*hole, *board])), game)
    straight = straight_and_trips(game)[0]
    hole_ranks = tuple(sorted(c >> 2 for c in hole))
    board_ranks = [c >> 2 for c in board]
    flop = len(board) == 3
    if level < straight:  # by the usual rule a set or trips is better than a straight
        outs = [r for r in DECK_RANKS if makes_straight(hole_ranks, (*board_ranks, r))]
        if len(outs) == 1:
            out.add("gutshot")
        elif len(outs) >= 2:
            out.add("open-ended straight draw")
        pairs = itertools.combinations(DECK_RANKS, 2)
        if flop and not outs and any(makes_straight(hole_ranks, (*board_ranks, *p)) for p in pairs):
            out.add("backdoor straight draw")
    if level < FLUSH:
        fd = nut = bd = False
        for s in range(4):
            mine = [c >> 2 for c in hole if c & 3 == s]
            theirs = [c >> 2 for c in board if c & 3 == s]
            total = len(mine) + len(theirs)
            if mine and total == 4:
                fd = True
                nut = nut or max(r for r in DECK_RANKS if r not in theirs) in mine
            bd = bd or (bool(mine) and total == 3)
        if fd:
            out.add("flush draw")
            if nut:
                out.add("nut flush draw")
            if out & {"gutshot", "open-ended straight draw"}:
                out.add("combo draw")
        elif flop and bd:
            out.add("backdoor flush draw")
    overs = sum(1 for c in hole if c >> 2 > max(board_ranks))
    if made_of(hole, board, game) in ("ace high", "no made hand") and overs >= 2:
        out.add("overcards")
    return out


def check_against_bruteforce(report: pokerlab.HitsReport, game: str = "shortdeck") -> None:
    board = codes(report.board)
    expected: dict[str, list[float]] = {n: [] for n in [*ORDER, *(d.name for d in DRAWS)]}
    for hole, w, code, bits in zip(report.holdings.tolist(), report.weights.tolist(),
                                   report.made.tolist(), report.draw_bits.tolist(),
                                   strict=True):  # fmt: skip
        assert all(c >= 16 for c in hole), format_cards(hole)
        made, draws = made_of(hole, board, game), draws_of(hole, board, game)
        assert MADE[code].name == made, (format_cards(hole), report.board)
        assert {d.name for d in DRAWS if bits >> d.code & 1} == draws, (
            format_cards(hole),
            report.board,
        )
        for name in (made, *draws):
            expected[name].append(w)
    total = sum(report.weights.tolist())
    names = ORDER if len(board) == 5 else [*ORDER, *(d.name for d in DRAWS if d.name != "wrap")]
    for name in names:
        c = report.get(name)
        assert c.combos == len(expected[name]), name
        assert c.weight == pytest.approx(sum(expected[name]))
        assert c.percent == pytest.approx(100 * sum(expected[name]) / total)
    assert sum(c.combos for c in report.categories) == report.combos
    if len(board) == 5:
        assert report.draws == ()


def random_board(rng: random.Random, size: int) -> str:
    return format_cards(rng.sample(list(DECK), size))


SPOTS = [(seed, size) for seed in range(6) for size in (3, 4)] + [(seed, 5) for seed in (6, 7)]


@pytest.mark.parametrize("game", RULES)
@pytest.mark.parametrize(("seed", "size"), SPOTS)
def test_random_range_on_random_boards(seed: int, size: int, game: str) -> None:
    board = random_board(random.Random(seed), size)
    report = pokerlab.hits("random", board=board, game=game)
    assert report.combos == (36 - size) * (35 - size) // 2  # the deck's combos less the board
    check_against_bruteforce(report, game)


@pytest.mark.parametrize("game", RULES)
@pytest.mark.parametrize(("seed", "size"), [(s, 3 + s % 2) for s in range(10, 22)])
def test_ranges_with_dead_cards(seed: int, size: int, game: str) -> None:
    rng = random.Random(seed)
    cards = rng.sample(list(DECK), size + 1)
    board, dead = format_cards(cards[:size]), format_cards(cards[size:])
    for spec in ("66+,AK,T9s", "22+,A6s,87,J9s", "AhKh,9s8s"):
        if spec == "AhKh,9s8s" and set(codes(spec)) & set(cards):
            continue
        check_against_bruteforce(pokerlab.hits(spec, board=board, game=game, dead=dead), game)


# ---- the rules that differ from hold'em ----------------------------------------------------


def one(hand: str, board: str) -> tuple[str, set[str]]:
    row = pokerlab.hits(hand, board=board, game="shortdeck").combo_rows()
    assert len(row) == 1
    return row[0]["category"], set(row[0]["draws"])


def holdem(hand: str, board: str) -> tuple[str, set[str]]:
    row = pokerlab.hits(hand, board=board).combo_rows()
    return row[0]["category"], set(row[0]["draws"])


def test_ace_six_seven_eight_nine_is_the_lowest_straight() -> None:
    assert one("Ah7c", "6d8s9h") == ("straight", set())
    assert holdem("Ah7c", "6d8s9h")[0] == "ace high"
    # A-6 on 7-8-K draws to A-6-7-8-9 only: one out rank (the nine)
    assert "gutshot" in one("Ah6c", "7d8sKh")[1]
    assert not holdem("Ah6c", "7d8sKh")[1] & {"gutshot", "open-ended straight draw"}


def test_87_on_69k_is_open_ended_the_five_no_out() -> None:
    assert one("8h7c", "6d9sKh") == ("no made hand", {"open-ended straight draw"})
    assert holdem("8h7c", "6d9sKh")[1] == {"open-ended straight draw"}  # T and 5 there
    # the out ranks are the ten and the ace: an ace on the turn makes A-6-7-8-9
    assert one("8h7c", "6d9sKhAc")[0] == "straight"
    assert one("8h7c", "6d9sKhTc")[0] == "straight"


def test_trips_beside_a_straight_are_trips() -> None:
    assert one("8h8d", "JhTd9c8s7c") == ("set", set())
    assert holdem("8h8d", "JhTd9c8s7c")[0] == "straight"
    assert one("8hQc", "8s8d9cTcJh") == ("trips", set())
    assert holdem("8hQc", "8s8d9cTcJh")[0] == "straight"
    # three of a kind on the board beats the straight the hole cards make: the combo plays it
    assert one("QhJc", "8s8d8c9hTd")[0] == "no made hand"
    assert holdem("QhJc", "8s8d8c9hTd")[0] == "straight"


def test_trips_draw_to_no_straight() -> None:
    """Trips with a gutshot on the turn (the jack): a straight would be a worse hand in short
    deck, so no straight draw there; a hand below a straight keeps its draws."""
    assert one("8hQc", "8s8d9cTd") == ("trips", set())
    assert holdem("8hQc", "8s8d9cTd") == ("trips", {"gutshot"})
    assert one("7hQc", "8s8d9cTd") == ("no made hand", {"open-ended straight draw"})  # 6, J


def test_flush_and_full_house_keep_their_categories() -> None:
    """Two hole cards and five board cards never hold both a flush and a full house (five
    cards of a suit leave two cards, a pair at most beside the flush's ranks): each combo is
    either, named by its category; the report lists them in the table's order."""
    board = "Kc9h9d6h7h"
    assert one("KhKd", board)[0] == "full house"
    assert one("AhTh", board)[0] == "flush"
    for hole in itertools.combinations([c for c in DECK if c not in codes(board)], 2):
        cards = [*hole, *codes(board)]
        suits, ranks = [c & 3 for c in cards], [c >> 2 for c in cards]
        counts = sorted((ranks.count(r) for r in set(ranks)), reverse=True)
        flush = max(suits.count(s) for s in range(4)) >= 5
        assert not (flush and counts[0] >= 3 and counts[1] >= 2), format_cards(hole)
    report = pokerlab.hits("KK,AhTh", board=board, game="shortdeck")
    names = [c.name for c in report.categories]
    assert names.index("full house") < names.index("flush")


# ---- the deck -----------------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["22+", "20%", "AK,T9s,65s", "AhKh,66"])
def test_combos_are_the_equity_engines(spec: str) -> None:
    board, dead = "Ks9s7d", "Jc"
    report = pokerlab.hits(spec, board=board, game="shortdeck", dead=dead)
    problem = prepare([spec, "AA"], board=board, dead=dead, game="shortdeck")
    lo, hi = problem.offsets[:2]
    engine = sorted(tuple(sorted(c)) for c in problem.combos[lo:hi].tolist())
    assert sorted(tuple(sorted(c)) for c in report.holdings.tolist()) == engine
    assert np.allclose(sorted(report.weights), sorted(problem.weights[lo:hi]))


def test_random_is_the_short_decks_630_combos() -> None:
    report = pokerlab.hits("random", board="Ks9s7d", game="6+")
    assert report.combos == 528 == 630 - 3 * 33 - 3  # C(33, 2)
    assert pokerlab.hits("random", board="Ks9s7d", game="6+", dead="Jc").combos == 496
    assert pokerlab.hits("22+", board="Ks9s7d", game="6+").combos == 45  # 66+ less the board


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"range": "AA", "board": "2h9s8d"}, "board"),
        ({"range": "AA", "board": "Th9s8d", "dead": "3c 4d"}, "dead"),
        ({"range": "22-55", "board": "Th9s8d"}, "range"),
    ],
)
def test_cards_below_the_six_as_equity_refuses_them(kwargs: dict[str, str], field: str) -> None:
    spec = kwargs.pop("range")
    with pytest.raises(GameError if field != "range" else EmptyRangeError) as got:
        pokerlab.hits(spec, game="shortdeck", **kwargs)
    assert got.value.field == field
    with pytest.raises(type(got.value)) as engine:
        pokerlab.equity([spec, "random"], game="shortdeck", **kwargs)
    if field != "range":
        assert str(got.value) == str(engine.value)
    left = "no hand of the range is left once the cards not in the short deck"
    assert (left in str(got.value)) == (left in str(engine.value)) == (field == "range")


@pytest.mark.parametrize(("spec", "game"), [("15%@vs1", "shortdeck"), ("15%@short", "holdem")])
def test_an_ordering_of_the_other_deck_is_refused_as_equity_refuses_it(
    spec: str, game: str
) -> None:
    with pytest.raises(RangeError, match=r"ranks .* hands") as got:
        pokerlab.hits(spec, board="Ah9d8c", game=game)
    assert got.value.field == "range"
    with pytest.raises(RangeError) as engine:
        pokerlab.equity([spec, "random"], board="Ah9d8c", game=game)
    assert str(engine.value) == f"player 1: {got.value}"


def test_percent_ranges_take_the_short_decks_ordering() -> None:
    top = pokerlab.Range("15%", ordering="short").remove("Ah9d8c")
    assert pokerlab.hits("15%", board="Ah9d8c", game="shortdeck").combos == len(top)


@pytest.mark.parametrize(
    ("game", "want"),
    [
        # the flush beats a full house; QQ's straight loses to a set in short deck ...
        ("shortdeck", [1, 1, 0, 0, 1, 1]),
        # ... and beats it by the other rule
        ("shortdeck-straights", [1, 1, 1, 1, 0, 0]),
    ],
)
def test_query_compares_hits_in_the_games_order_of_hands(game: str, want: list[int]) -> None:
    """``hits(p, street) >= 'full house'`` compared the table's codes, in the full deck's order:
    in short deck a flush read as worse than a full house and a straight as better than a set,
    where ``handType`` (and the game) rank them the other way."""
    text = (
        "select count(hits(hero, river) >= 'full house'), "
        "count(handType(hero, river) >= 'full house'), "
        "count(hits(villain, river) >= 'set'), count(handType(villain, river) >= 'set'), "
        "count(hits(villain, river) < 'set'), count(handType(villain, river) < 'set') "
        f"from game='{game}', hero='AhKh', villain='QsQc', board='Th9h6h7c8d'"
    )
    result = pokerlab.query(text)
    assert [r.value for r in result.results] == want
