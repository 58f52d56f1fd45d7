"""Board hits against a brute force written from the category definitions, combo by combo.

The brute force shares no code with the kernel: made hands come from the plain-Python evaluator
of ``bruteforce.py`` (best five of the cards, or two hole + three board in Omaha), straight outs
from enumerating five-card rank runs over card lists, suits by counting.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from functools import cache

import numpy as np
import pytest

import pokerlab
from bruteforce import best_high, rank5
from pokerlab.analysis._hits_kernels import HOLDINGS_PER_TASK
from pokerlab.analysis.board_categories import DRAWS, MADE
from pokerlab.cards import format_cards, parse_cards
from pokerlab.errors import DuplicateCardError, GameError, RangeError

STRAIGHT, FLUSH, TRIPS = 4, 5, 3
RUNS = [set(range(top - 4, top + 1)) for top in range(4, 13)] + [{12, 0, 1, 2, 3}]
RUN_TOPS = [*range(4, 13), 3]


def best_straight(ranks: set[int]) -> int:
    """Top rank of the best five-rank run in ``ranks``, or -1."""
    return max((top for run, top in zip(RUNS, RUN_TOPS, strict=True) if run <= ranks), default=-1)


def made_of_pair(a: int, b: int, board: Sequence[int], omaha: bool) -> str:
    """The made category of hole cards ``a``, ``b`` with the board, from the definitions."""
    if omaha:
        category = max(rank5([a, b, *three])[0] for three in itertools.combinations(board, 3))
    else:
        category = best_high([a, b, *board])[0]
    names = {8: "straight flush", 7: "four of a kind", 6: "full house", 5: "flush", 4: "straight"}
    if category >= STRAIGHT:
        return names[category]
    ra, rb = a >> 2, b >> 2
    board_ranks = [c >> 2 for c in board]
    top, low = max(board_ranks), min(board_ranks)
    if category == TRIPS:
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
            free = [r for r in range(12, -1, -1) if r not in board_ranks]
            if kicker == free[0]:
                return "top pair, top kicker"
            if kicker in free[1:3]:
                return "top pair, good kicker"
            return "top pair, weak kicker"
        return "bottom pair" if paired == low else "middle pair"
    return "ace high" if 12 in (ra, rb) else "no made hand"


ORDER = [c.name for c in MADE]


def made_of(hole: Sequence[int], board: Sequence[int], omaha: bool) -> str:
    return min(
        (made_of_pair(a, b, board, omaha) for a, b in itertools.combinations(hole, 2)),
        key=ORDER.index,
    )


def makes_straight(hole: Sequence[int], board_ranks: list[int], omaha: bool) -> bool:
    """Whether the hole cards make a straight with these board ranks (hold'em: higher than the
    board's own; Omaha: two hole and three board cards)."""
    return _makes_straight(tuple(sorted(c >> 2 for c in hole)), tuple(sorted(board_ranks)), omaha)


@cache
def _makes_straight(hole: tuple[int, ...], board_ranks: tuple[int, ...], omaha: bool) -> bool:
    """``makes_straight`` of the hole cards' ranks (only ranks count, so holdings share it)."""
    if not omaha:
        mine = best_straight(set(hole) | set(board_ranks))
        return mine > best_straight(set(board_ranks))
    for a, b in itertools.combinations(hole, 2):
        for three in itertools.combinations(board_ranks, 3):
            ranks = {a, b, *three}
            if len(ranks) == 5 and best_straight(ranks) >= 0:
                return True
    return False


def draws_of(hole: Sequence[int], board: Sequence[int], omaha: bool, made: str) -> set[str]:
    if len(board) == 5:
        return set()
    out: set[str] = set()
    board_ranks = [c >> 2 for c in board]
    flop = len(board) == 3
    if ORDER.index(made) > ORDER.index("straight"):
        outs = [r for r in range(13) if makes_straight(hole, [*board_ranks, r], omaha)]
        if len(outs) == 1:
            out.add("gutshot")
        elif len(outs) == 2 or (len(outs) > 2 and not omaha):
            out.add("open-ended straight draw")
        elif len(outs) > 2:
            out.add("wrap")
        pairs = itertools.combinations(range(13), 2)
        if (
            flop
            and not outs
            and any(makes_straight(hole, [*board_ranks, *p], omaha) for p in pairs)
        ):
            out.add("backdoor straight draw")
    if ORDER.index(made) > ORDER.index("flush"):
        fd = nut = bd = False
        for s in range(4):
            mine = [c >> 2 for c in hole if c & 3 == s]
            theirs = [c >> 2 for c in board if c & 3 == s]
            if omaha:
                draw, back = (
                    len(mine) >= 2 and len(theirs) == 2,
                    len(mine) >= 2 and len(theirs) == 1,
                )
            else:
                total = len(mine) + len(theirs)
                draw, back = bool(mine) and total == 4, bool(mine) and total == 3
            if draw:
                fd = True
                best_free = max(r for r in range(13) if r not in theirs)
                nut = nut or best_free in mine
            bd = bd or back
        if fd:
            out.add("flush draw")
            if nut:
                out.add("nut flush draw")
            if out & {"gutshot", "open-ended straight draw", "wrap"}:
                out.add("combo draw")
        elif flop and bd:
            out.add("backdoor flush draw")
    overs = sum(1 for c in hole if c >> 2 > max(board_ranks))
    if made in ("ace high", "no made hand") and overs >= 2:
        out.add("overcards")
    return out


def check_against_bruteforce(report: pokerlab.HitsReport, omaha: bool) -> None:
    board = [int(c) for c in parse_cards(report.board)]
    made_names = [c.name for c in MADE]
    draw_names = [d.name for d in DRAWS]
    expected_made: dict[str, list[float]] = {n: [] for n in made_names}
    expected_draws: dict[str, list[float]] = {n: [] for n in draw_names}
    for hole, w, code, bits in zip(
        report.holdings.tolist(),
        report.weights.tolist(),
        report.made.tolist(),
        report.draw_bits.tolist(),
        strict=True,
    ):
        made = made_of(hole, board, omaha)
        draws = draws_of(hole, board, omaha, made)
        got = {d.name for d in DRAWS if bits >> d.code & 1}
        assert MADE[code].name == made, (format_cards(hole), report.board)
        assert got == draws, (format_cards(hole), report.board)
        expected_made[made].append(w)
        for d in draws:
            expected_draws[d].append(w)
    total = sum(report.weights.tolist())
    if len(board) == 5:
        assert report.draws == ()
        expected_draws = {}
    for name, ws in {**expected_made, **expected_draws}.items():
        if name == "wrap" and not omaha:
            continue
        c = report.get(name)
        assert c.combos == len(ws), name
        assert c.weight == pytest.approx(sum(ws))
        assert c.percent == pytest.approx(100 * sum(ws) / total)
    assert sum(c.combos for c in report.categories) == report.combos


HOLDEM_BOARDS = [
    "Ks9s2d",
    "AhKh7c",
    "7c7d2h",
    "8h7h6h",
    "9c8d6s",
    "5d4c3h",
    "JhTs2c",  # flops
    "Ah5c4d3s",
    "KsQsJs2d",
    "9h9d4c4s",
    "Tc9c8d7d",  # turns
    "AsKsQsJsTs",
    "9h8h7h6c2d",
    "2c2d2h5s5c",
    "Ac2d3h4s9c",  # rivers
]


@pytest.mark.parametrize("board", HOLDEM_BOARDS)
def test_holdem_random_range_every_combo(board: str) -> None:
    check_against_bruteforce(pokerlab.hits("random", board=board), omaha=False)


def random_omaha_range(seed: int, board: str, n: int = 150) -> str:
    rng = random.Random(seed)
    used = {int(c) for c in parse_cards(board)}
    deck = [c for c in range(52) if c not in used]
    hands = {tuple(sorted(rng.sample(deck, 4), reverse=True)) for _ in range(n)}
    return ",".join(format_cards(h) for h in hands)


OMAHA_BOARDS = ["9h7c2d", "Ks9s2d", "8h7h6h", "7c7d2h", "JhTs2c4d", "Tc9c8d7d", "AsKsQs2d5h"]


@pytest.mark.parametrize("board", OMAHA_BOARDS)
@pytest.mark.parametrize("seed", [1, 2])
def test_omaha_random_holdings_every_combo(board: str, seed: int) -> None:
    text = random_omaha_range(seed, board)
    check_against_bruteforce(pokerlab.hits(text, board=board, game="omaha"), omaha=True)


@pytest.mark.parametrize("board", ["9h7c2d", "Ks9s2d"])
def test_omaha_patterns(board: str) -> None:
    for text in ["JT8*", "AdKd**", "QQ**$ds", "9876"]:
        check_against_bruteforce(pokerlab.hits(text, board=board, game="omaha"), omaha=True)


def test_wrap_and_weights() -> None:
    r = pokerlab.hits("JT8*", board="9h7c2d", game="omaha")
    assert r.count("wrap") == r.combos > 0
    weighted = pokerlab.hits("AA,KK:0.5", board="Kd7c2h")
    assert weighted.get("set").weight == 1.5
    assert weighted.get("overpair").weight == 6
    assert weighted.weight == 7.5
    assert weighted.get("overpair").percent == pytest.approx(80)


def test_dead_cards_remove_combos() -> None:
    assert pokerlab.hits("AA", board="Kd7c2h", dead="As").combos == 3


def test_json_contract() -> None:
    d = pokerlab.hits("QQ+,AKs", board="Ks9s2d").to_dict()
    assert {"board", "range", "combos", "weight", "categories", "draws"} <= set(d)
    for item in [*d["categories"], *d["draws"]]:
        assert {"name", "combos", "weight", "percent"} <= set(item)
    names = [c["name"] for c in d["categories"]]
    assert {"set", "two pair", "top pair", "overpair", "flush"} <= set(names)
    top = next(c for c in d["categories"] if c["name"] == "top pair")
    assert sum(x["combos"] for x in top["detail"]) == top["combos"]


@pytest.mark.parametrize(
    ("kwargs", "error", "fragment"),
    [
        ({"range_": "AA", "board": "Kd7c"}, GameError, "3 to 5 cards"),
        ({"range_": "AA", "board": "Kd7c2h", "game": "stud"}, GameError, "no board"),
        ({"range_": "AA", "board": "Kd7c2h", "dead": "Kd"}, DuplicateCardError, "Kd"),
        ({"range_": "AX", "board": "Kd7c2h"}, RangeError, "AX"),
        ({"range_": "AA", "board": "Kd7c2h", "threads": 0}, GameError, "threads must be at"),
        ({"range_": "AA", "board": "Kd7c2h", "threads": 1.5}, GameError, "a positive integer"),
    ],
)
def test_bad_input(kwargs: dict[str, str], error: type[Exception], fragment: str) -> None:
    with pytest.raises(error, match=fragment):
        pokerlab.hits(**kwargs)  # type: ignore[arg-type]


def test_every_category_documented() -> None:
    for c in (*MADE, *DRAWS):
        assert c.doc and c.doc.endswith(".")
    assert len({c.name for c in MADE}) == len(MADE)
    assert np.all(np.diff([c.code for c in MADE]) == 1)


def test_a_draw_the_report_leaves_out_counts_nothing() -> None:
    """``count('flush draw')`` on a river (draws are not reported there) or ``count('wrap')``
    in hold'em raised a bare KeyError whose message listed the name among the known ones."""
    river = pokerlab.hits("AK", board="Ks9s2d3c4c")
    assert river.count("flush draw") == 0 and river.get("gutshot").weight == 0.0
    flop = pokerlab.hits("AK", board="Ks9s2d")
    assert flop.count("wrap") == 0
    with pytest.raises(GameError, match="unknown category 'bogus': known are 'straight flush'"):
        flop.count("bogus")


@pytest.mark.parametrize(
    ("range_", "board", "game"),
    [("random", "Ks9s2d", "omaha"), ("AK***,QQ***", "Ks9s2dTh", "omaha5")],
)
def test_threads_split_the_holdings_and_change_nothing(range_: str, board: str, game: str) -> None:
    """Past one task's holdings hits classify on every core (``threads``), holding by holding,
    so the report is the same array for any count."""
    one = pokerlab.hits(range_, board, game=game, threads=1)
    assert one.combos > 2 * HOLDINGS_PER_TASK  # several tasks
    for threads in (2, 3):
        many = pokerlab.hits(range_, board, game=game, threads=threads)
        assert np.array_equal(many.made, one.made) and np.array_equal(many.draw_bits, one.draw_bits)
        assert many.to_dict() == one.to_dict()
