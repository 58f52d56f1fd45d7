"""Tests of pokerlab.ranges: the hold'em grammar, top x%, weights, the Range value, the ordering."""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pokerlab.cards import RANKS, Card, format_cards, parse_cards
from pokerlab.errors import EmptyRangeError, PokerlabError, RangeError
from pokerlab.ranges import CLASS_NAMES, COMBO_COUNT, COMBOS, Range, hand_ordering
from pokerlab.ranges._combos import CLASS_COMBOS, CLASS_INDEX
from pokerlab.ranges._order import DATA_FILE, top_classes, top_count

# --- a slow, obviously-correct oracle: select combos by rank/suit predicates -----------------

ALL_COMBOS = [
    (max(a, b), min(a, b)) for a, b in itertools.combinations(range(52), 2)
]  # (hi, lo) codes


def naive(pred: Callable[[int, int, bool], bool]) -> set[tuple[int, int]]:
    """Combos whose (high rank, low rank, suited) satisfy ``pred``."""
    out = set()
    for hi, lo in ALL_COMBOS:
        rh, rl = max(hi >> 2, lo >> 2), min(hi >> 2, lo >> 2)
        if pred(rh, rl, (hi & 3) == (lo & 3)):
            out.add((hi, lo))
    return out


def combo_set(r: Range) -> set[tuple[int, int]]:
    return {(int(a), int(b)) for a, b in r.combos}


R = {ch: i for i, ch in enumerate(RANKS)}


# --- combo counts -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("QQ+", 18),
        ("AKs", 4),
        ("AKo", 12),
        ("AK", 16),
        ("A2s+", 48),
        ("random", 1326),
        ("RANDOM", 1326),
        ("22+", 78),
        ("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", 226),
        ("99-22", 48),
        ("22-99", 48),
        ("KTo+", 36),
        ("AQs-A8s", 20),
        ("A8s-AQs", 20),
        ("KTo-K7o", 48),
        ("T9s-54s", 24),
        ("54s-T9s", 24),
        ("J9s-64s", 24),
        ("AKs-QJs", 12),
        ("AK-QJ", 48),
        ("AcKd", 1),
        ("T9s+", 4),
        ("AA+", 6),
        ("AK+", 16),
        ("KA", 16),
        ("kas", 4),
        ("qq+", 18),
        ("A10s", 4),
        ("1010", 6),
        ("10s9s", 1),
        ("As Kd".replace(" ", ""), 1),
        ("  QQ+ ,\tAKs  ,  AKo ", 34),
        ("99 - 22", 48),
    ],
)
def test_combo_counts(text: str, count: int) -> None:
    r = Range(text)
    assert len(r) == count == r.combo_count
    assert r.fraction == count / 1326
    assert r.percent == pytest.approx(100 * count / 1326)


def test_combo_contents_against_naive_oracle() -> None:
    assert combo_set(Range("QQ+")) == naive(lambda h, lo, s: h == lo and h >= R["Q"])
    assert combo_set(Range("A2s+")) == naive(lambda h, lo, s: h == R["A"] and h != lo and s)
    assert combo_set(Range("KTo+")) == naive(
        lambda h, lo, s: h == R["K"] and R["T"] <= lo < h and not s
    )
    assert combo_set(Range("AQs-A8s")) == naive(
        lambda h, lo, s: h == R["A"] and R["8"] <= lo <= R["Q"] and s
    )
    assert combo_set(Range("KTo-K7o")) == naive(
        lambda h, lo, s: h == R["K"] and R["7"] <= lo <= R["T"] and not s
    )
    assert combo_set(Range("T9s-54s")) == naive(
        lambda h, lo, s: h - lo == 1 and R["5"] <= h <= R["T"] and s
    )
    assert combo_set(Range("99-22")) == naive(lambda h, lo, s: h == lo and h <= R["9"])
    assert combo_set(Range("AK")) == naive(lambda h, lo, s: h == R["A"] and lo == R["K"])
    assert combo_set(Range("random")) == set(ALL_COMBOS)
    assert combo_set(Range("AcKd")) == {(int(Card("Ac")), int(Card("Kd")))}
    assert combo_set(Range("KdAc")) == {(int(Card("Ac")), int(Card("Kd")))}


def test_combos_array_layout() -> None:
    r = Range("AKs,22")
    assert r.combos.dtype == np.uint8 and r.combos.shape == (10, 2)
    assert r.weights.dtype == np.float64 and r.weights.shape == (10,)
    assert (r.combos[:, 0] > r.combos[:, 1]).all()
    # canonical order: higher card descending, then lower card descending
    keys = [(int(a), int(b)) for a, b in r.combos]
    assert keys == sorted(keys, reverse=True)
    with pytest.raises(ValueError):
        r.combos[0, 0] = 1
    with pytest.raises(ValueError):
        r.weights[0] = 2.0
    assert len(COMBOS) == COMBO_COUNT == 1326
    assert format_cards(COMBOS[0]) == "AsAh" and format_cards(COMBOS[-1]) == "2d2c"


def test_range_is_frozen_and_hashable() -> None:
    r = Range("QQ+")
    with pytest.raises(AttributeError):
        r.foo = 1
    with pytest.raises(AttributeError):
        r._text = "AA"
    with pytest.raises(AttributeError):
        del r._dense
    assert hash(r) == hash(Range("AA,KK,QQ"))
    assert r == Range("AA,KK,QQ") and r != Range("KK+")
    assert r != "QQ+"
    assert {r, Range("QQ+")} == {r}


# --- weights and precedence ---------------------------------------------------------------


def test_weights_colon_and_at() -> None:
    assert Range("AQs:0.5") == Range("AQs@50")
    r = Range("AQs:0.5")
    assert r.weighted_combos == 2.0 and len(r) == 4
    assert set(r.weights.tolist()) == {0.5}
    assert Range("AQs : 0.25").weight("AsQs") == 0.25
    assert Range("AQs @ 25").weight("QsAs") == 0.25
    assert Range("AA:1").weight("AsAh") == Range("AA@100").weight("AsAh") == 1.0
    assert Range("AA:1e-3").weight("AsAh") == 0.001
    assert Range("15%:0.5").weighted_combos == len(Range("15%")) / 2
    assert Range("AcKd:.5").weight("AcKd") == 0.5


def test_last_mention_wins() -> None:
    assert Range("AA:0.5,AA").weight("AsAh") == 1.0
    assert Range("AA,AA:0.5").weight("AsAh") == 0.5
    assert Range("QQ+,KK:0") == Range("QQ,AA")
    assert Range("AKs,AsKs:0.25").weight("AsKs") == 0.25
    assert Range("AsKs:0.25,AKs").weight("AsKs") == 1.0
    assert Range("random,AA:0") == Range("KK-22,A2+,K2+,Q2+,J2+,T2+,92+,82+,72+,62+,52+,42+,32")
    assert len(Range("random:0.5,AcKd:0")) == 1325
    r = Range("A2s+:0.5,A5s")
    assert r.weight("As5s") == 1.0 and r.weight("As4s") == 0.5


def test_weight_zero_everywhere_is_empty() -> None:
    with pytest.raises(EmptyRangeError, match="holds no combo"):
        Range("AA:0")
    with pytest.raises(EmptyRangeError):
        Range("AKs,AKs@0")


# --- top x% -------------------------------------------------------------------------------


def test_ordering_file() -> None:
    head = DATA_FILE.read_text().splitlines()[:3]
    assert all(line.startswith("#") for line in head)
    assert "python -m pokerlab.ranges._order_gen" in head[1] and "--seed" in head[1]
    order = hand_ordering()
    assert len(order) == 169 and sorted(c.name for c in order) == sorted(CLASS_NAMES)
    assert order[0].name == "AA" and order[1].name == "KK"
    equities = [c.equity for c in order]
    assert equities == sorted(equities, reverse=True)
    assert 0.635 < order[0].equity < 0.642  # AA vs 3 random hands: about 63.8 %
    assert all(0 < c.stderr < 0.0005 for c in order)
    assert sum(c.combos for c in order) == 1326


def test_top_percent_rule() -> None:
    assert Range("100%") == Range("random")
    with pytest.raises(EmptyRangeError, match="holds no combo"):
        Range("0%")
    assert combo_set(Range("0.1%")) == combo_set(Range("AA"))
    assert Range("1%") == Range("QQ+")  # 13.26 combos -> AA, KK, QQ (18)
    first = hand_ordering()[0]
    assert Range("0.45%").classes()[first.name] == (6, 6)
    assert len(Range("0.4525%")) == 12  # 6.0004 combos needed: AA alone is not enough


@given(st.floats(min_value=0.01, max_value=100.0))
def test_top_percent_is_shortest_prefix_reaching_x(x: float) -> None:
    r = Range(f"{x:.4f}%")
    p = float(f"{x:.4f}")
    k = top_count(p)
    chosen = [CLASS_INDEX[c.name] for c in hand_ordering()[:k]]
    assert combo_set(r) == {
        tuple(int(v) for v in COMBOS[i]) for c in chosen for i in CLASS_COMBOS[c]
    }
    assert len(r) >= p / 100 * 1326 - 1e-6
    last = hand_ordering()[k - 1]
    assert len(r) - last.combos < p / 100 * 1326


@given(st.floats(0, 100), st.floats(0, 100))
def test_top_percent_monotone_and_bands(a: float, b: float) -> None:
    lo, hi = sorted((round(a, 3), round(b, 3)))
    top_lo, top_hi = set(top_classes(lo)), set(top_classes(hi))
    assert top_lo <= top_hi
    band = top_hi - top_lo
    if band:
        r = Range(f"{lo}%-{hi}%")
        assert r == Range(f"{hi}% - {lo}%")
        assert combo_set(r) == {
            tuple(int(v) for v in COMBOS[i]) for c in band for i in CLASS_COMBOS[c]
        }


def test_top_percent_examples() -> None:
    assert combo_set(Range("10%")) < combo_set(Range("20%"))
    assert combo_set(Range("5%-10%")) == combo_set(Range("10%")) - combo_set(Range("5%"))
    assert Range("0%-10%") == Range("10%")
    assert Range("15%,AA:0").weight("AsAh") == 0.0


def test_generator_kernel_is_deterministic_and_agrees_with_shipped_file() -> None:
    from pokerlab.ranges._order_gen import render, run

    a = run(seed=7, chunks=2, deals=3000)
    b = run(seed=7, chunks=2, deals=3000)
    assert np.array_equal(a.share, b.share) and np.array_equal(a.count, b.count)
    assert render(a) == render(b)
    assert not np.array_equal(run(seed=8, chunks=2, deals=3000).share, a.share)
    shipped = {c.name: c.equity for c in hand_ordering()}
    for name, idx in CLASS_INDEX.items():
        assert abs(a.equity[idx] - shipped[name]) < 0.025, name
    assert CLASS_NAMES[int(a.order()[0])] == "AA"


def test_shipped_equity_against_direct_monte_carlo() -> None:
    """AA and 72o against three random hands, dealt plainly with the public evaluator."""
    from pokerlab.evaluation import evaluate_batch

    rng = np.random.default_rng(12345)
    n = 40000
    shipped = {c.name: c.equity for c in hand_ordering()}
    for name, hero in (("AA", "AsAh"), ("72o", "7d2c")):
        hole = [int(c) for c in parse_cards(hero)]
        rest = np.array([c for c in range(52) if c not in hole], dtype=np.uint8)
        deal = rest[np.argsort(rng.random((n, 50)), axis=1)[:, :11]]
        board = deal[:, 6:11]
        hero_cards = np.broadcast_to(np.array(hole, dtype=np.uint8), (n, 2))
        mine = evaluate_batch(np.hstack([hero_cards, board])).astype(np.int64)
        theirs = np.stack(
            [evaluate_batch(np.hstack([deal[:, 2 * p : 2 * p + 2], board])) for p in range(3)]
        ).astype(np.int64)
        best = theirs.max(axis=0)
        ties = (theirs == best).sum(axis=0)
        share = np.where(mine > best, 1.0, np.where(mine == best, 1.0 / (ties + 1), 0.0))
        se = share.std() / np.sqrt(n)
        assert abs(share.mean() - shipped[name]) < 5 * se + 1e-4, name


# --- remove -------------------------------------------------------------------------------


def test_remove() -> None:
    r = Range("AA,KK").remove("As Ah")
    assert len(r) == 7 and r.to_string() == "KK,AdAc"
    assert len(Range("random").remove("As Kd 7h")) == 1326 - 3 * 51 + 3
    assert len(Range("random").remove([51, 50])) == 1225
    assert Range("AKs").remove("") == Range("AKs")
    assert Range("AKs:0.5").remove("Ks").weighted_combos == 1.5
    board = parse_cards("Ah Kh 2c")
    for combo, _ in Range("random").remove(board):
        assert not set(map(int, combo)) & set(map(int, board))


def test_remove_everything_names_the_cards() -> None:
    with pytest.raises(EmptyRangeError, match=r"'AsKs' has no combo left after removing Ks 2c"):
        Range("AsKs").remove("Ks 2c")
    with pytest.raises(EmptyRangeError, match=r"AA.*removing As Ah Ad"):
        Range("AA").remove("As Ah Ad")


def test_remove_rejects_bad_cards() -> None:
    with pytest.raises(PokerlabError):
        Range("AA").remove("Xs")


# --- iteration, classes, grid ---------------------------------------------------------------


def test_iteration_and_items() -> None:
    r = Range("AKs:0.5,QQ")
    pairs = list(r)
    assert pairs == list(r.items())
    assert len(pairs) == 10
    (c1, c2), _ = pairs[0]
    assert isinstance(c1, Card) and isinstance(c2, Card) and int(c1) > int(c2)
    assert {format_cards(c) for c, w in pairs if w == 0.5} == {"AsKs", "AhKh", "AdKd", "AcKc"}
    assert "AsKs" in r and "KsAs" in r and "AsKd" not in r and (51, 47) in r
    assert "garbage" not in r and 5 not in r


def test_is_exact() -> None:
    assert Range("AcKd").is_exact and Range("AcKd:0.5").is_exact
    assert not Range("AKs").is_exact
    assert Range("AA").remove("As Ah").is_exact  # only AdAc is left


def test_classes_and_grid_layout() -> None:
    r = Range("AKs,QQ,AsKd,72o:0.5")
    classes = r.classes()
    assert len(classes) == 169 and list(classes) == list(CLASS_NAMES)
    assert classes["AKs"] == (4, 4) and classes["AKo"] == (1, 12)
    assert classes["QQ"] == (6, 6) and classes["72o"] == (12, 12) and classes["22"] == (0, 6)
    grid = r.grid()
    assert len(grid) == 13 and all(len(row) == 13 for row in grid)
    assert grid[0][0] == ("AA", 0.0) and grid[0][1] == ("AKs", 1.0)
    assert grid[1][0] == ("AKo", 1 / 12) and grid[2][2] == ("QQ", 1.0)
    assert grid[12][12][0] == "22" and grid[0][12][0] == "A2s" and grid[12][0][0] == "A2o"
    for i in range(13):
        for j in range(13):
            name = grid[i][j][0]
            hi, lo = RANKS[12 - min(i, j)], RANKS[12 - max(i, j)]
            expect = hi + lo if i == j else hi + lo + ("s" if j > i else "o")
            assert name == expect
    assert grid[7][5] == ("97o", 0.0) and grid[7][12 - 0] == ("72s", 0.0)
    assert grid[12 - 0][7] == ("72o", 1.0)


# --- canonical text and round trip ----------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("QQ+,AKs", "QQ+,AKs"),
        ("AKs,QQ+", "QQ+,AKs"),
        ("22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+", "22+,A2s+,K9s+,QTs+,JTs,ATo+,KJo+"),
        ("random", "random"),
        ("100%", "random"),
        ("AKs,AKo", "AK"),
        ("99-22", "99-22"),
        ("99,88,77", "99-77"),
        ("TT", "TT"),
        ("A9s-A2s", "A9s-A2s"),
        ("T9s-54s,A2s+", "A2s+,T9s-54s"),
        ("KQs,QJs,JTs", "KQs-JTs"),
        ("KTo-K7o", "KTo-K7o"),
        ("ATs+,ATo+", "AT+"),
        ("AcKd,AsKs:0.5", "AcKd,AsKs:0.5"),
        ("AKs:0.5,QQ+:0.25,22", "22,AKs:0.5,QQ+:0.25"),
        ("QQ+,KK:0", "AA,QQ"),
        ("AsAh,AsAd,AsAc,AhAd,AhAc,AdAc", "AA"),
        ("random:0.5", "random:0.5"),
        ("AA:0.1", "AA:0.1"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    r = Range(text)
    assert r.to_string() == canonical == str(r)
    assert repr(r) == f"Range({canonical!r})"
    assert Range(canonical) == r


def test_to_string_is_stable() -> None:
    r = Range("15%")
    assert r.to_string() == r.to_string()
    assert Range(r.to_string()) == r


WEIGHTS = st.sampled_from([1.0, 1.0, 0.5, 0.25, 0.9, 0.1, 1 / 3, 0.75])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.integers(0, 1325), WEIGHTS, min_size=1, max_size=60))
def test_round_trip_random_combos(chosen: dict[int, float]) -> None:
    combos = [format_cards(COMBOS[i]) for i in chosen]
    r = Range(combos, list(chosen.values()))
    assert len(r) == len(chosen)
    again = Range(r.to_string())
    assert again == r
    assert again.to_string() == r.to_string()


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.integers(0, 168), WEIGHTS, min_size=0, max_size=80),
    st.dictionaries(st.integers(0, 1325), WEIGHTS, max_size=10),
    st.sets(st.integers(0, 1325), max_size=10),
)
def test_round_trip_class_structured(
    classes: dict[int, float], extra: dict[int, float], holes: set[int]
) -> None:
    dense = np.zeros(1326)
    for c, w in classes.items():
        dense[CLASS_COMBOS[c]] = w
    for i, w in extra.items():
        dense[i] = w
    dense[sorted(holes)] = 0.0
    if not dense.any():
        with pytest.raises(EmptyRangeError):
            Range.from_dense(dense)
        return
    r = Range.from_dense(dense)
    assert np.array_equal(r.to_dense(), dense)
    text = r.to_string()
    assert Range(text) == r
    # a class present whole at one weight is never spelled out combo by combo
    items = {item.split(":")[0] for item in text.split(",")}
    for c, w in classes.items():
        members = set(CLASS_COMBOS[c].tolist())
        if w > 0 and not holes & members and not extra.keys() & members:
            assert not {format_cards(COMBOS[i]) for i in members} & items


def test_constructors() -> None:
    r = Range("QQ+,AKs")
    assert Range(r) == r
    assert Range(r.combos, r.weights) == r
    assert Range(r.combos) == r
    assert Range([("As", "Kd"), (Card("Ac"), Card("Kc"))]) == Range("AsKd,AcKc")
    assert Range([[51, 46]]) == Range("AsKh")
    assert Range.from_dense(r.to_dense()) == r
    assert Range(["AsKs", "AsKs"], [0.5, 1]).weight("AsKs") == 1.0
    with pytest.raises(EmptyRangeError):
        Range([])
    with pytest.raises(RangeError, match="exactly two cards"):
        Range(["AsKsQs"])
    with pytest.raises(RangeError, match="at index 0"):
        Range(["AsAs"])
    with pytest.raises(RangeError, match="2 combos but 1 weights"):
        Range(["AsKs", "AdKd"], [1])
    with pytest.raises(RangeError, match="between 0 and 1"):
        Range(["AsKs"], [-1])
    with pytest.raises(RangeError, match="between 0 and 1"):
        Range(["AsKs"], [2])
    with pytest.raises(RangeError, match="shape"):
        Range(np.zeros((3, 3), dtype=np.uint8))
    with pytest.raises(RangeError, match="distinct card codes"):
        Range(np.array([[5, 5]]))
    with pytest.raises(RangeError, match="shape"):
        Range.from_dense(np.ones(5))
    with pytest.raises(RangeError, match="between 0 and 1"):
        Range.from_dense(-np.ones(1326))
    with pytest.raises(RangeError, match="between 0 and 1"):
        Range.from_dense(np.full(1326, np.nan))
    with pytest.raises(RangeError, match="weights cannot be given"):
        Range("AA", [1.0])


# --- errors ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AKx", "invalid range 'AKx' at character 1: expected s, o, + or - after AK, found 'x'"),
        ("QQ+, AKx", "invalid range 'AKx' at character 6: expected s, o, + or - after AK"),
        ("QQ,,AK", "invalid range 'QQ,,AK' at character 4: empty item between two commas"),
        ("QQ,", "invalid range 'QQ,' at character 4: empty item at the end"),
        (",QQ", "invalid range ',QQ' at character 1: empty item before the first comma"),
        ("QQ+ AKs", "invalid range 'QQ+ AKs' at character 1: expected ',' or a weight after QQ+"),
        ("AKs junk", "expected + or - after AKs, found 'j'"),
        # a space inside the class: it said "found 's'" while asking for s
        ("AK s", "expected s, o, + or - right after AK, found a space before 's' (write AKs)"),
        ("QQ+,AK O", "right after AK, found a space before 'O' (write AKO)"),
        ("AAs", "invalid range 'AAs' at character 1: a pair cannot be suited or offsuit"),
        ("KKo+", "a pair cannot be suited or offsuit: write KK, not KKo"),
        ("AsAs", "invalid range 'AsAs' at character 1: duplicate card 'As' in an exact combo"),
        ("AsK", "expected a second card (rank and suit) after As"),
        ("As", "expected a second card (rank and suit) after As"),
        ("A", "expected a second rank or a suit after A, found the end of the item"),
        ("XK", "expected a hand such as QQ+, AKs"),
        ("AKs-Q9s", "a span keeps the top card (AQs-A8s) or the gap between the cards"),
        ("AKs-QJo", "both ends of a span must be suited, offsuit or both alike"),
        ("AK-QJs", "both ends of a span must be suited, offsuit or both alike"),
        ("QQ-AKs", "a span joins two pairs (99-22) or two non-pair hands"),
        ("AKs-", "expected a hand class after '-'"),
        ("AKs-AcKd", "a span joins hand classes, not the exact combo AcKd"),
        ("AKs-AQs+", "expected ',' or a weight after the span AKs-AQs"),
        ("AcKd+", "expected ',' or a weight after the exact combo AcKd, found '+'"),
        ("QQ++", "expected ',' or a weight after QQ+, found '+'"),
        ("AQs:-1", "invalid range 'AQs:-1' at character 1: a weight must be >= 0, not -1"),
        ("AQs@-5", "a weight must be >= 0, not -5"),
        (
            "AK@500",
            "invalid range 'AK@500' at character 1: a weight is at most 100 after '@' "
            "(a percentage), not 500",
        ),
        (
            "AK:2",
            "invalid range 'AK:2' at character 1: a weight is at most 1 after ':' "
            "(a fraction), not 2",
        ),
        ("AQs:abc", "expected a number after ':', found 'abc'"),
        ("AQs:nan", "expected a number after ':', found 'nan'"),
        # only ASCII digits, as in cards (Python's float() and re's \\d take any script's)
        ("AA:\uff10.5", "expected a number after ':', found '\uff10.5'"),
        ("\u0663%", "expected a percentage such as 15%"),
        ("AQs:", "expected a weight after ':'"),
        ("AQs:0.5:1", "expected a number after ':', found '0.5:1'"),
        (":0.5", "expected a hand before ':'"),
        ("AA, @50", "invalid range '@50' at character 5: expected a hand before '@'"),
        ("150%", "a percentage must be between 0% and 100%, not 150%"),
        # said as written: it said "not 100%", a value it takes
        ("100.0000001%", "a percentage must be between 0% and 100%, not 100.0000001%"),
        # read as 0%: alone "holds no combo", after AA silently nothing
        ("AA,0." + "0" * 400 + "1%", "at character 4: the percentage 0.000"),
        ("5%-", "expected a percentage such as 15% or a band such as 5%-10%"),
        ("%", "expected a percentage"),
        ("AA:1e999", "a weight must be a finite number"),
        ("rand", "at character 1: expected a hand such as QQ+, AKs, A2s+, T9s-54s, AcKd"),
    ],
)
def test_errors(text: str, message: str) -> None:
    with pytest.raises(RangeError) as info:
        Range(text)
    assert message in str(info.value)
    assert isinstance(info.value, ValueError)


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_empty_text(text: str) -> None:
    with pytest.raises(EmptyRangeError, match="empty range"):
        Range(text)


@given(st.text(alphabet="AKQJT98765432scdho+-,:@%. 10x", max_size=12))
def test_parser_never_crashes(text: str) -> None:
    try:
        r = Range(text)
    except RangeError as exc:
        assert re.search(r"character \d+|empty range|holds no combo", str(exc))
    else:
        assert len(r) > 0 and Range(r.to_string()) == r
