"""Tests of pokerlab.ranges.pattern: pattern ranges for Omaha, stud and razz.

Expected sets are computed independently: by brute force over ``itertools.combinations`` of the
deck with plain-Python predicates, or by a plain-Python matcher (``oracle_match``) that tries
every assignment of the pattern's cards to the holding's cards.
"""

from __future__ import annotations

import itertools
import math
import random
import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pokerlab.cards import RANKS, SUITS, deck, format_cards, parse_cards
from pokerlab.errors import EmptyRangeError, PokerlabError, RangeError, TooLargeError
from pokerlab.ranges.pattern import MAX_HOLDINGS, PatternRange, parse_pattern_range

A, K, Q, J, T = 12, 11, 10, 9, 8
Holding = tuple[int, ...]


# --- brute force over the deck ------------------------------------------------------------


@dataclass(frozen=True)
class Hand:
    """A holding with its rank counts (by rank index) and suit counts (by suit index)."""

    cards: Holding
    ranks: tuple[int, ...]
    suits: tuple[int, ...]

    @property
    def sig(self) -> list[int]:
        return sorted(self.suits, reverse=True)

    def rank_of(self, r: int) -> int:
        return self.ranks[r]


@cache
def all_hands(size: int) -> tuple[Hand, ...]:
    out = []
    for combo in itertools.combinations(range(51, -1, -1), size):  # each combo descending
        rc = [0] * 13
        sc = [0] * 4
        for c in combo:
            rc[c >> 2] += 1
            sc[c & 3] += 1
        out.append(Hand(combo, tuple(rc), tuple(sc)))
    return tuple(out)


def brute(size: int, pred: Callable[[Hand], bool]) -> set[Holding]:
    return {h.cards for h in all_hands(size) if pred(h)}


def as_set(r: PatternRange) -> set[Holding]:
    return {tuple(int(c) for c in row) for row in r.holdings.tolist()}


def ds(h: Hand) -> bool:
    s = h.sig
    return s[0] == 2 and s[1] == 2 and s[2] <= 1


def ss(h: Hand) -> bool:
    s = h.sig
    return s[0] == 2 and s[1] <= 1


def no_pair(h: Hand) -> bool:
    return max(h.ranks) <= 1


def suited_with(card_pred: Callable[[int], bool]) -> Callable[[Hand], bool]:
    """A card matching ``card_pred`` and another card of its suit."""

    def pred(h: Hand) -> bool:
        return any(
            card_pred(c) and any(d != c and d & 3 == c & 3 for d in h.cards) for c in h.cards
        )

    return pred


def count_in(h: Hand, ranks: Iterable[int]) -> int:
    return sum(h.ranks[r] for r in ranks)


OMAHA_CASES: list[tuple[str, Callable[[Hand], bool]]] = [
    ("AA**$ds", lambda h: h.ranks[A] >= 2 and ds(h)),
    ("AA", lambda h: h.ranks[A] >= 2),
    ("AA**", lambda h: h.ranks[A] >= 2),
    ("**AA", lambda h: h.ranks[A] >= 2),
    ("KK**", lambda h: h.ranks[K] >= 2),
    ("AAKK", lambda h: h.ranks[A] >= 2 and h.ranks[K] >= 2),
    (
        "AxAyKxKy",
        lambda h: (
            h.ranks[A] == 2
            and h.ranks[K] == 2
            and {c & 3 for c in h.cards if c >> 2 == A} == {c & 3 for c in h.cards if c >> 2 == K}
        ),
    ),
    ("AA!AAA", lambda h: h.ranks[A] == 2),
    ("AA:$ds", lambda h: h.ranks[A] >= 2 and ds(h)),
    ("$ds", ds),
    ("$ss", ss),
    ("$r", lambda h: max(h.suits) == 1),
    ("$np", no_pair),
    ("$r$np", lambda h: max(h.suits) == 1 and no_pair(h)),
    ("(AA,KK):$ds", lambda h: (h.ranks[A] >= 2 or h.ranks[K] >= 2) and ds(h)),
    ("RR", lambda h: max(h.ranks) >= 2),
    ("RROO", lambda h: sum(1 for n in h.ranks if n >= 2) >= 2),
    ("RRON", lambda h: sorted(h.ranks)[-3:] == [1, 1, 2]),
    ("AARR", lambda h: h.ranks[A] >= 2 and any(n >= 2 for r, n in enumerate(h.ranks) if r != A)),
    ("T+T+", lambda h: count_in(h, range(T, 13)) >= 2),
    ("(T+T+T+)", lambda h: sum(1 for r in range(T, 13) if h.ranks[r]) >= 3),
    ("5-9x*x", suited_with(lambda c: 3 <= c >> 2 <= 7)),
    ("9-5x x", suited_with(lambda c: 3 <= c >> 2 <= 7)),
    ("[A,K]s[2-4]", lambda h: bool({51, 47} & set(h.cards)) and count_in(h, (0, 1, 2)) >= 1),
    ("[AK]s 2-4", lambda h: bool({51, 47} & set(h.cards)) and count_in(h, (0, 1, 2)) >= 1),
    ("sshh", lambda h: h.suits[3] >= 2 and h.suits[2] >= 2),
    ("wxy", lambda h: sum(1 for n in h.suits if n) >= 3),
    ("xxyy", lambda h: sorted(h.suits)[-2:] >= [2, 2]),
    ("ssxx", lambda h: h.suits[3] >= 2 and max(h.suits[:3]) >= 2),
    ("A-5", lambda h: count_in(h, range(3, 13)) >= 1),
    ("3-", lambda h: count_in(h, (0, 1)) >= 1),
    ("AsKs", lambda h: {51, 47} <= set(h.cards)),
    ("KsAs**", lambda h: {51, 47} <= set(h.cards)),
    ("AsKsQdJd", lambda h: set(h.cards) == {51, 47, 41, 37}),
    ("AA,KK!KKK", lambda h: h.ranks[A] >= 2 or h.ranks[K] == 2),
    ("AA$ds,KK$ds", lambda h: (h.ranks[A] >= 2 or h.ranks[K] >= 2) and ds(h)),
    ("*!AA", lambda h: h.ranks[A] < 2),
    ("$ds!AA", lambda h: ds(h) and h.ranks[A] < 2),
    ("Ax!Axx", lambda h: h.ranks[A] >= 1 and not suited_with(lambda c: c >> 2 == A)(h)),
    ("(RO)$np:T+T+", lambda h: no_pair(h) and count_in(h, range(T, 13)) >= 2),
]


@pytest.mark.parametrize(("text", "pred"), OMAHA_CASES, ids=[c[0] for c in OMAHA_CASES])
def test_omaha_sets_match_brute_force(text: str, pred: Callable[[Hand], bool]) -> None:
    r = PatternRange(text, size=4)
    expected = brute(4, pred)
    assert len(r) == len(expected)
    assert as_set(r) == expected


def test_known_counts() -> None:
    assert len(PatternRange("AA**", 4)) == math.comb(4, 2) * math.comb(48, 2) + 4 * 48 + 1
    assert len(PatternRange("AA**$ds", 4)) == 6 * 12 * 12  # two aces, a partner for each suit
    assert len(PatternRange("AxAyKxKy", 4)) == 6
    assert len(PatternRange("$r", 4)) == 13**4
    assert len(PatternRange("$ds", 4)) == 6 * math.comb(13, 2) ** 2
    assert len(PatternRange("random", 4)) == math.comb(52, 4)


def test_low_aces_spans_brute_force() -> None:
    def ranks_of(text: str) -> set[int]:
        return {c >> 2 for row in PatternRange(text, 1, low_aces=True).holdings for c in row}

    assert ranks_of("3-") == {A, 0, 1}
    assert ranks_of("5-") == {A, 0, 1, 2, 3}
    assert ranks_of("A-5") == ranks_of("5-A") == {A, 0, 1, 2, 3}
    assert ranks_of("T+") == {T, J, Q, K}
    assert ranks_of("A+") == set(range(13))
    assert ranks_of("A-") == {A}
    assert ranks_of("[A,3-5]") == {A, 1, 2, 3}

    def high(text: str) -> set[int]:
        return {c >> 2 for row in PatternRange(text, 1).holdings for c in row}

    assert high("3-") == {0, 1}
    assert high("T+") == {T, J, Q, K, A}
    assert high("A-5") == set(range(3, 13))
    assert high("2-") == {0}


def test_razz_third_street_brute_force() -> None:
    def low(c: int) -> int:  # ace-low rank value 1..13
        return 1 if c >> 2 == A else (c >> 2) + 2

    def pred(h: Hand) -> bool:
        values = sorted(low(c) for c in h.cards)
        return values[2] == 4 and values[0] != values[1] and values[1] <= 3

    expected = brute(3, pred)
    assert len(expected) == 3 * 16 * 4 == 192
    for text in ("(3-3-)4", "(3-2-)4", "4(2-3-)", "(2- 3-)4", "4 (3-3-)"):
        assert as_set(PatternRange(text, 3, low_aces=True)) == expected, text
    # five-or-lower, no pair (razz "rough" to smooth three-card lows)
    expected5 = brute(
        3, lambda h: len({low(c) for c in h.cards}) == 3 and max(map(low, h.cards)) <= 5
    )
    assert as_set(PatternRange("(5-5-5-)", 3, low_aces=True)) == expected5
    assert len(expected5) == math.comb(5, 3) * 64


def test_razz_seven_cards_order_never_matters() -> None:
    """definitions.md: (3-3-)45678 and (3-2-)45678 describe the same set of hands."""
    a = PatternRange("(3-3-)45678", 7, low_aces=True)
    b = PatternRange("(3-2-)45678", 7, low_aces=True)
    c = PatternRange("8 7 (2-3-) 6 5 4", 7, low_aces=True)
    d = PatternRange("45678(3-3-)", 7, low_aces=True)
    assert a == b == c == d
    # independent expansion: every assignment of the pattern's cards, as sets
    low3 = [c for c in range(52) if c >> 2 in (A, 0, 1)]
    fixed = [[4 * r + s for s in range(4)] for r in (2, 3, 4, 5, 6)]
    expected = set()
    for x, y in itertools.combinations(low3, 2):
        if x >> 2 == y >> 2:
            continue
        for rest in itertools.product(*fixed):
            expected.add(tuple(sorted((x, y, *rest), reverse=True)))
    assert len(expected) == 3 * 16 * 4**5
    assert as_set(a) == expected


def test_omaha5_and_6_brute_force() -> None:
    # 5 cards: two aces (any two of the four) with 2-2-1 suits, enumerated independently
    expected = set()
    for aces in itertools.combinations([48, 49, 50, 51], 2):
        rest = [c for c in range(52) if c not in aces]
        for others in itertools.combinations(rest, 3):
            cards = (*aces, *others)
            sig = [*sorted(Counter(c & 3 for c in cards).values(), reverse=True), 0, 0]
            if sig[:3] == [2, 2, 1]:
                expected.add(tuple(sorted(cards, reverse=True)))
    assert as_set(PatternRange("AA$ds", 5)) == expected
    assert PatternRange("AA$ds", 5) == PatternRange("$ds:AA***", 5)
    # 6 cards: As Ah and 2-2-1-1 suits
    expected6 = set()
    rest = list(range(50))
    for others6 in itertools.combinations(rest, 4):
        cards6 = (51, 50, *others6)
        sig = [*sorted(Counter(c & 3 for c in cards6).values(), reverse=True), 0, 0]
        if sig[:4] == [2, 2, 1, 1]:
            expected6.add(tuple(sorted(cards6, reverse=True)))
    got = PatternRange("AsAh$ds", 6)
    assert as_set(got) == expected6
    assert len(PatternRange("AsAh$ts", 6)) == sum(
        1
        for o in itertools.combinations(rest, 4)
        if sorted(Counter(c & 3 for c in (51, 50, *o)).values()) == [2, 2, 2]
    )


@pytest.mark.parametrize(
    ("macro", "size", "possible"),
    [
        ("$ds", 3, False),
        ("$ds", 4, True),
        ("$ds", 6, True),
        ("$ds", 7, False),
        ("$ss", 5, True),
        ("$ss", 6, False),
        ("$ts", 5, False),
        ("$ts", 7, True),
        ("$r", 4, True),
        ("$r", 5, False),
        ("$ds$ss", 4, False),
    ],
)
def test_macro_sizes(macro: str, size: int, possible: bool) -> None:
    if possible:
        cards = "AsAhKs" if macro == "$ts" else "AsAh"  # keeps the expansion small
        assert len(PatternRange(cards + macro, size)) > 0
    else:
        with pytest.raises(EmptyRangeError, match=rf"no {size}-card holding is"):
            PatternRange(macro, size)


# --- an independent matcher, for random patterns -----------------------------------------------


@dataclass(frozen=True)
class Spec:
    """One card of a generated pattern: rank kind and value(s), suit kind, group."""

    rank: str  # 'r' single, '+', '-', 'between', 'list', '*', 'var'
    values: tuple[int, ...]
    suit: str  # '', 'explicit', 'var'
    suit_value: int
    group: int

    def text(self) -> str:
        if self.rank == "r":
            rank = RANKS[self.values[0]]
        elif self.rank in "+-":
            rank = RANKS[self.values[0]] + self.rank
        elif self.rank == "between":  # in a no-pair group "5-9" is ambiguous: "[5-9]"
            rank = f"{RANKS[self.values[0]]}-{RANKS[self.values[1]]}"
            rank = f"[{rank}]" if self.group == 0 else rank
        elif self.rank == "list":
            rank = "[" + ",".join(RANKS[v] for v in self.values) + "]"
        elif self.rank == "var":
            rank = "RONP"[self.values[0]]
        else:
            rank = "*"
        if self.suit == "explicit":
            return rank + SUITS[self.suit_value]
        if self.suit == "var":
            return rank + "wxyz"[self.suit_value]
        return rank


def order(r: int, low: bool) -> int:
    return -1 if low and r == A else r


def allowed_ranks(spec: Spec, low: bool, named: set[int]) -> set[int]:
    if spec.rank == "r":
        return {spec.values[0]}
    if spec.rank == "+":
        return {q for q in range(13) if order(q, low) >= order(spec.values[0], low)}
    if spec.rank == "-":
        return {q for q in range(13) if order(q, low) <= order(spec.values[0], low)}
    if spec.rank == "between":
        lo, hi = sorted(order(v, low) for v in spec.values)
        return {q for q in range(13) if lo <= order(q, low) <= hi}
    if spec.rank == "list":
        return set(spec.values)
    if spec.rank == "var":
        return set(range(13)) - named
    return set(range(13))


def oracle_match(specs: list[Spec], macros: list[str], h: Hand, low: bool) -> bool:
    cards = h.cards
    for m in macros:
        sig = h.sig + [0] * 4
        if m == "$ds" and not ds(h):
            return False
        if m == "$ss" and not ss(h):
            return False
        if m == "$np" and not no_pair(h):
            return False
        if m == "$r" and sig[0] > 1:
            return False
    named = {s.values[0] for s in specs if s.rank == "r"}
    explicit = {s.suit_value for s in specs if s.suit == "explicit"}
    ranks = [allowed_ranks(s, low, named) for s in specs]
    for chosen in itertools.permutations(cards, len(specs)):
        ok = True
        svar: dict[int, int] = {}
        rvar: dict[int, int] = {}
        groups: dict[int, set[int]] = {}
        for spec, allowed, c in zip(specs, ranks, chosen, strict=True):
            r, s = c >> 2, c & 3
            if r not in allowed or (spec.suit == "explicit" and s != spec.suit_value):
                ok = False
            elif spec.suit == "var":
                if s in explicit:
                    ok = False
                elif spec.suit_value in svar:
                    ok = svar[spec.suit_value] == s
                elif s in svar.values():
                    ok = False
                else:
                    svar[spec.suit_value] = s
            if ok and spec.rank == "var":
                v = spec.values[0]
                if v in rvar:
                    ok = rvar[v] == r
                elif r in rvar.values():
                    ok = False
                else:
                    rvar[v] = r
            if ok and spec.group >= 0:
                used = groups.setdefault(spec.group, set())
                ok = r not in used
                used.add(r)
            if not ok:
                break
        if ok:
            return True
    return False


ranks_st = st.integers(0, 12)
spec_st = st.builds(
    Spec,
    rank=st.sampled_from(["r", "r", "+", "-", "between", "list", "*", "var"]),
    values=st.tuples(ranks_st, ranks_st),
    suit=st.sampled_from(["", "", "explicit", "var"]),
    suit_value=st.integers(0, 3),
    group=st.sampled_from([-1, -1, 0]),
).map(
    lambda s: Spec(
        s.rank,
        tuple(sorted(set(s.values)))
        if s.rank == "list"
        else ((s.values[0] % 4,) if s.rank == "var" else s.values),
        s.suit,
        s.suit_value,
        s.group,
    )
)


def render(specs: list[Spec], macros: list[str]) -> str:
    """Pattern text: group-0 cards in one ( ), others around it, separated by blanks."""
    inside = [s.text() for s in specs if s.group == 0]
    outside = [s.text() for s in specs if s.group < 0]
    parts = outside[:1] + (["(" + " ".join(inside) + ")"] if inside else []) + outside[1:]
    return " ".join(parts + macros)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    specs=st.lists(spec_st, min_size=1, max_size=3),
    macros=st.lists(st.sampled_from(["$ss", "$np", "$r"]), max_size=1),
    low=st.booleans(),
)
def test_random_patterns_match_the_oracle(specs: list[Spec], macros: list[str], low: bool) -> None:
    text = render(specs, macros)
    expected = {h.cards for h in all_hands(3) if oracle_match(specs, macros, h, low)}
    if not expected:
        with pytest.raises(EmptyRangeError):
            PatternRange(text, 3, low_aces=low)
        return
    r = PatternRange(text, 3, low_aces=low)
    assert as_set(r) == expected, text
    assert PatternRange(r.to_string(), 3, low_aces=low) == r


@settings(max_examples=40, deadline=None)
@given(specs=st.lists(spec_st, min_size=2, max_size=4), seed=st.integers(0, 10**6))
def test_order_of_cards_never_matters(specs: list[Spec], seed: int) -> None:
    texts = [s.text() for s in specs]
    shuffled = texts[:]
    random.Random(seed).shuffle(shuffled)
    try:
        first = PatternRange(" ".join(texts), 4, low_aces=True)
    except EmptyRangeError:
        with pytest.raises(EmptyRangeError):
            PatternRange(" ".join(shuffled), 4, low_aces=True)
        return
    assert PatternRange(" ".join(shuffled), 4, low_aces=True) == first


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("AxAyKxKy", "KyAxKxAy"),
        ("AsKsQdJd", "JdQdKsAs"),
        ("AA**$ds", "$ds*A*A"),
        ("(3-2-)4", "4(2-3-)"),
        ("T+9-x*x", "*x 9-x T+"),
        ("RRON", "NROR"),
    ],
)
def test_permutations_give_the_same_set(a: str, b: str) -> None:
    assert PatternRange(a, 4, low_aces=True) == PatternRange(b, 4, low_aces=True)


# --- weights -------------------------------------------------------------------------------


def test_weights_last_mention_wins() -> None:
    r = PatternRange("AA@50, AAKK", 4)
    assert r.weight("AsAhKsKh") == 1.0
    assert r.weight("AsAhQsQh") == 0.5
    assert r.weight("2c3c4c5c") == 0.0
    assert len(r) == len(PatternRange("AA", 4))
    assert r.weighted_count == pytest.approx(
        0.5 * len(PatternRange("AA!AAKK", 4)) + len(PatternRange("AAKK", 4))
    )
    assert PatternRange("AA,AAKK@0", 4) == PatternRange("AA!AAKK", 4)
    assert PatternRange("AA@12.5", 4).weights[0] == 0.125
    assert PatternRange("AA@1e2", 4).weights[0] == 1.0
    assert PatternRange("(AA,KK)@50", 4).weight("KsKhQdJd") == 0.5
    assert set(PatternRange("AA@33.3", 4).weights.tolist()) == {0.333}


def test_random_with_weight_and_overrides() -> None:
    r = PatternRange("AA@70, random@50", 4)
    assert r.is_random and r.weight("AsAh2c3c") == 0.5
    r = PatternRange("random@50, AA@70", 4)
    assert not r.is_random
    assert len(r) == math.comb(52, 4)
    assert r.weight("AsAh2c3c") == 0.7 and r.weight("KsAh2c3c") == 0.5
    with pytest.raises(EmptyRangeError, match="holds no holding"):
        PatternRange("AA, random@0", 4)


# --- the value type ------------------------------------------------------------------------


def test_arrays_are_canonical_and_read_only() -> None:
    r = PatternRange("KK$ds, AsAh**@50", 4)
    h = r.holdings
    assert h.dtype == np.uint8 and h.shape == (len(r), 4)
    assert (np.diff(h.astype(int), axis=1) < 0).all()  # each row descending
    rows = [tuple(row) for row in h.tolist()]
    assert rows == sorted(rows, reverse=True) and len(set(rows)) == len(rows)
    assert r.weights.dtype == np.float64 and (r.weights > 0).all()
    assert r.masks.dtype == np.uint64
    assert [sum(1 << c for c in row) for row in rows] == r.masks.tolist()
    for arr in (r.holdings, r.weights, r.masks):
        with pytest.raises(ValueError):
            arr[0] = 0
    with pytest.raises(AttributeError):
        r.size = 5  # type: ignore[misc]
    cards, w = next(iter(r))
    assert format_cards(cards) == "AsAhAdAc" and w == 0.5  # four aces: in AsAh** only


def test_is_exact_and_contains() -> None:
    r = PatternRange("JdQdKsAs", 4)
    assert r.is_exact and len(r) == 1
    assert "AsKsQdJd" in r and "AsKsQdJc" not in r and 5 not in r and "garbage" not in r
    assert not PatternRange("AsKsQd", 4).is_exact


def test_random_is_lazy() -> None:
    r = PatternRange("random", 6)
    assert r.is_random and len(r) == math.comb(52, 6)
    assert r.fraction == 1.0
    assert r.weighted_count == math.comb(52, 6)
    assert r.weight("AsKsQsJsTs9s") == 1.0
    with pytest.raises(TooLargeError, match="20,358,520 holdings"):
        _ = r.holdings
    assert PatternRange("*", 6) == r == PatternRange("**", 6) == PatternRange("RANDOM", 6)
    r7 = PatternRange("random", 7)
    assert len(r7) == math.comb(52, 7)
    small = PatternRange("random", 4)
    assert small.is_random and small.holdings.shape == (math.comb(52, 4), 4)
    assert as_set(small) == {h.cards for h in all_hands(4)}


def test_remove() -> None:
    r = PatternRange("AA$ds, KK@50", 4)
    dead = "As Kd 2c"
    left = r.remove(dead)
    dead_codes = {int(c) for c in parse_cards(dead)}
    expected = {h for h in as_set(r) if not dead_codes & set(h)}
    assert as_set(left) == expected
    assert left.weight("AsAdKhKc") == 0.0  # uses a removed card
    assert left.weight("AhAdKhKc") == 0.5  # not $ds, but two kings
    assert left.weight("KhKc2d3d") == 0.5
    assert left.to_string() == "AA$ds!As!Kd!2c,KK!As!Kd!2c@50"
    assert PatternRange(left.to_string(), 4) == left
    lazy = PatternRange("random", 6).remove("As Kd")
    assert lazy.is_random and len(lazy) == math.comb(50, 6)
    assert [str(c) for c in lazy.excluded] == ["Kd", "As"]
    assert lazy.weight("AsKsQsJsTs9s") == 0.0
    assert PatternRange(lazy.to_string(), 6) == lazy
    with pytest.raises(EmptyRangeError, match=r"'AsKs\*\*' has no holding left after removing Ks"):
        PatternRange("AsKs**", 4).remove("Ks")
    with pytest.raises(EmptyRangeError, match="after removing"):
        PatternRange("random", 6).remove(deck()[:47])


def test_from_holdings_round_trip() -> None:
    r = PatternRange.from_holdings(
        ["AsKsQdJd", "2c3c4c5c", ["Ah", "Kh", "Qh", "Jh"]], [1, 0.25, 0.75]
    )
    assert r.size == 4 and len(r) == 3
    assert r.to_string() == "AsKsQdJd,AhKhQhJh@75,5c4c3c2c@25"  # weight 1 first
    assert PatternRange(r.to_string(), 4) == r
    arr = PatternRange("AxAyKxKy", 4).holdings
    assert PatternRange.from_holdings(arr) == PatternRange("AxAyKxKy", 4)
    assert PatternRange.from_holdings(["AsKsQd", "AsKsQd"], [1, 0.5]).weights.tolist() == [0.5]
    assert len(PatternRange.from_holdings(["AsKsQd", "2c3c4c"], [0, 1])) == 1


@settings(max_examples=40, deadline=None)
@given(
    picks=st.lists(st.integers(0, math.comb(52, 3) - 1), min_size=1, max_size=20),
    weights=st.lists(
        st.floats(min_value=1e-6, max_value=1.0, allow_nan=False, allow_infinity=False),
        min_size=20,
        max_size=20,
    ),
)
def test_explicit_text_round_trips_exactly(picks: list[int], weights: list[float]) -> None:
    hands = all_hands(3)
    r = PatternRange.from_holdings([hands[p].cards for p in picks], weights[: len(picks)])
    back = PatternRange(r.to_string(), 3)
    assert back == r
    assert back.weights.tolist() == r.weights.tolist()


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        (" aa ** $DS ", "AA**$ds"),
        ("10s 9s", "Ts9s"),
        ("A s", "A s"),
        ("3- 2", "3- 2"),
        # an "or lower" card before a span: "2-2-2" would be a chain (refused outside a group)
        ("2- 2-2", "2- 2-2"),
        ("3- 2-s 2+", "3-2-s2+"),
        ("(3- 2-) 4 @ 50", "(3-2-)4@50"),
        ("( AA , KK ) : $ds", "(AA,KK):$ds"),
        ("[a, k]s", "[A,K]s"),
        ("Random", "random"),
        ("AA$ds$ds", "AA$ds"),
        ("$dsAA", "AA$ds"),
    ],
)
def test_canonical_text(text: str, canonical: str) -> None:
    r = PatternRange(text, 4, low_aces=True)
    assert r.to_string() == canonical
    assert PatternRange(canonical, 4, low_aces=True) == r
    assert repr(r) == f"PatternRange({canonical!r}, size=4, low_aces=True)"


def test_parse_pattern_range_and_equality() -> None:
    assert parse_pattern_range("AA", 4) == PatternRange("AA", 4)
    assert PatternRange("AA", 4) != PatternRange("AA", 5)
    assert PatternRange("AA", 4) != PatternRange("AA@50", 4)
    assert PatternRange("AA", 4) != "AA"
    assert hash(PatternRange("AA", 4)) == hash(PatternRange("**AA", 4))
    assert PatternRange("random", 6) != PatternRange("AA", 6)


# --- errors --------------------------------------------------------------------------------

ERRORS: list[tuple[str, int, type[Exception], str]] = [
    ("AA:0.5", 4, RangeError, r"at character 4: expected a card.*AA@50, not AA:0\.5"),
    ("AKo", 4, RangeError, r"'AKo' at character 3: expected a card.*upper-case letters R, O"),
    ("AAKKQ", 4, RangeError, r"character 1: the pattern 'AAKKQ' has 5 cards but a holding has 4"),
    ("KK,AAKKQ", 4, RangeError, r"character 4: the pattern 'AAKKQ' has 5"),
    ("AAAAA", 5, EmptyRangeError, r"character 1: the pattern 'AAAAA' matches no holding of 5"),
    ("KK, sxyzw", 5, EmptyRangeError, r"character 5: the pattern 'sxyzw' matches no holding"),
    ("AsKsAs", 4, EmptyRangeError, r"character 5: the card As appears twice.*characters 1 and 5"),
    ("$r", 5, EmptyRangeError, r"character 1: no 5-card holding is \$r \(\$r = rainbow"),
    ("AA$ds", 7, EmptyRangeError, r"character 3: no 7-card holding is \$ds"),
    ("AA$xx", 4, RangeError, r"character 3: unknown macro '\$xx': expected one of \$ds"),
    ("", 4, EmptyRangeError, r"empty range ''"),
    ("  ", 4, EmptyRangeError, r"empty range"),
    ("AA,", 4, RangeError, r"character 4: empty item after a comma"),
    (",AA", 4, RangeError, r"character 1: empty item before the first comma"),
    ("AA,,KK", 4, RangeError, r"character 4: empty item"),
    ("AA@", 4, RangeError, r"character 4: expected a weight in percent after '@'.*end"),
    ("AA@x", 4, RangeError, r"character 4: expected a weight in percent after '@'.*found 'x'"),
    ("AA@\u0665\u0660", 4, RangeError, r"expected a weight in percent after '@'"),  # ASCII only
    ("AA@-5", 4, RangeError, r"character 4: a weight must be >= 0, not -5"),
    ("AA@1e999", 4, RangeError, r"character 4: a weight must be a finite number"),
    ("AA@250", 4, RangeError, r"character 4: a weight is at most 100 \(percent\), not 250"),
    ("AA@50@50", 4, RangeError, r"character 6: an item has at most one weight"),
    ("(AA@50,KK)", 4, RangeError, r"character 4: a weight applies to a whole top-level item"),
    ("AA:", 4, RangeError, r"character 4: expected a hand pattern after ':'.*end of the range"),
    ("AA!,KK", 4, RangeError, r"character 4: expected a hand pattern after '!', found ','"),
    ("AA)", 4, RangeError, r"character 3: unmatched '\)'"),
    ("(AA,KK", 4, RangeError, r"character 1: unmatched '\('"),
    ("(3-3-", 4, RangeError, r"character 1: unmatched '\('"),
    ("()", 4, RangeError, r"character 1: empty no-pair group"),
    ("(3-($ds))", 4, RangeError, r"character 5: a macro applies to the whole holding"),
    ("(3-$ds)", 4, RangeError, r"character 4: a macro applies to the whole holding"),
    ("(AA,KK)$ds", 4, RangeError, r"character 8: expected .* after '\)'.*\(AA,KK\):\$ds"),
    ("[A,K", 4, RangeError, r"character 1: unmatched '\['"),
    ("[]", 4, RangeError, r"character 1: empty rank list"),
    ("[A,x]", 4, RangeError, r"character 4: expected a rank .* in a rank list, found 'x'"),
    ("As+", 4, RangeError, r"character 3: '\+' must follow a rank directly"),
    ("*-", 4, RangeError, r"character 2: '-' must follow a rank directly"),
    ("R+", 4, RangeError, r"character 2: '\+' must follow a rank directly"),
    ("A#", 4, RangeError, r"character 2: expected a card.*found '#'"),
    ("random$ds", 4, RangeError, r"character 1: expected a card.*found 'r'"),
    ("random AA", 4, RangeError, r"character 8: 'random' stands alone"),
    (":AA", 4, RangeError, r"character 1: expected a hand pattern such as"),
    ("KK-TT", 4, RangeError, r"character 1: 'KK-TT' is not a span of pairs.*KK,QQ,JJ,TT.*K\[K-T"),
    ("AA**,qq-99$ds", 4, RangeError, r"character 6: 'QQ-99' is not a span.*\(QQ,JJ,TT,99\)"),
    ("1010-88", 5, RangeError, r"character 1: 'TT-88' is not a span of pairs"),
    ("As,Ah,Ts, th", 4, RangeError, r"character 1: single cards separated by commas.*AsAhTsth"),
]


@pytest.mark.parametrize(("text", "size", "exc", "message"), ERRORS, ids=[e[0] for e in ERRORS])
def test_errors(text: str, size: int, exc: type[Exception], message: str) -> None:
    with pytest.raises(exc, match=message) as info:
        PatternRange(text, size)
    assert isinstance(info.value, PokerlabError) and isinstance(info.value, ValueError)
    if exc is RangeError:
        assert not isinstance(info.value, EmptyRangeError)
    if text.strip():
        assert re.search(rf"invalid range '{re.escape(text)}'|empty range", str(info.value))


def test_other_errors() -> None:
    for size in (0, 8, -1):
        with pytest.raises(RangeError, match="size must be between 1 and 7"):
            PatternRange("AA", size)
    with pytest.raises(RangeError, match="size must be an int"):
        PatternRange("AA", "4")  # type: ignore[arg-type]
    with pytest.raises(RangeError, match="built from text"):
        PatternRange(["AsKsQdJd"], 4)  # type: ignore[arg-type]
    with pytest.raises(EmptyRangeError, match="holds no holding of 4 cards"):
        PatternRange("AA!AA", 4)
    with pytest.raises(EmptyRangeError, match="holds no holding"):
        PatternRange("AA:KKKK", 4)
    with pytest.raises(RangeError, match="exactly 4 cards, not 3"):
        PatternRange("AA", 4).weight("AsAhKd")
    with pytest.raises(RangeError, match="at index 1: a holding here is exactly 3 cards"):
        PatternRange.from_holdings(["AsKsQs", "AsKs"])
    with pytest.raises(RangeError, match="invalid holding 'AsXs' at index 0"):
        PatternRange.from_holdings(["AsXs"])
    with pytest.raises(RangeError, match="2 holdings but 1 weights"):
        PatternRange.from_holdings(["AsKsQs", "2c3c4c"], [1])
    with pytest.raises(RangeError, match="a weight is between 0 and 1"):
        PatternRange.from_holdings(["AsKsQs"], [-1])
    with pytest.raises(RangeError, match="repeats a card"):
        PatternRange.from_holdings(np.array([[51, 51, 3]]))
    with pytest.raises(RangeError, match=r"card codes in 0\.\.51"):
        PatternRange.from_holdings(np.array([[52, 51, 3]]))
    with pytest.raises(EmptyRangeError, match="no holdings given"):
        PatternRange.from_holdings([])
    with pytest.raises(EmptyRangeError, match="weight > 0"):
        PatternRange.from_holdings(["AsKsQs"], [0])


def test_too_large() -> None:
    assert MAX_HOLDINGS == 5_000_000
    with pytest.raises(TooLargeError, match=r"a macro alone would filter all 20,358,520"):
        PatternRange("$ts", 6)
    with pytest.raises(TooLargeError, match=r"the pattern '\*s' at character 1 matches at least"):
        PatternRange("*s", 6)
    with pytest.raises(TooLargeError):
        PatternRange("random!AA", 6)
    assert len(PatternRange("AsAh$ts", 6)) > 0  # a macro with cards is fine


def test_deeply_nested_groups_are_a_range_error_not_a_recursion_error() -> None:
    """The parser recurses once per group: 500 levels raised Python's RecursionError."""
    plain = PatternRange("AA**,KK**", 4)
    assert len(PatternRange("(" * 32 + "AA**,KK**" + ")" * 32, 4)) == len(plain)
    for depth in (33, 500):
        with pytest.raises(RangeError, match="at character 33: groups nest at most 32 deep"):
            PatternRange("(" * depth + "AA**,KK**" + ")" * depth, 4)


def test_a_span_between_other_ranks_still_reads_card_by_card() -> None:
    """Only ``KK-TT`` (a span glued between its own two end ranks) is refused as a whole-hand
    span; a span elsewhere is one card, as the grammar says."""
    three = PatternRange("K[K-T]T", 4)
    assert PatternRange("K K-T T", 4) == three
    assert PatternRange("KsK-TT", 4) != three
    assert PatternRange("AK-AT", 4) == PatternRange("A[K-A]T", 4)
    assert PatternRange("QK-TT", 4) == PatternRange("Q[K-T]T", 4)


def test_a_hand_typed_with_commas_is_refused_and_the_union_has_a_spelling() -> None:
    """``As,Ah,Ts,Th`` read as "a holding with As, or Ah, or Ts, or Th" (62,881 Omaha
    holdings) where a hand was meant; the union stays writable, and one-card holdings (where
    the text has no other reading) keep it."""
    with pytest.raises(RangeError, match=r"\(As\),\(Ah\),\(Ts\),\(Th\) for that union"):
        PatternRange("As,Ah,Ts,Th", 4)
    assert PatternRange("(As),(Ah)", 4) == PatternRange("As***,Ah***", 4)
    assert PatternRange("As,Ah", 1).holdings.shape == (2, 1)
    assert len(PatternRange("AsAh,KsKh", 4)) > 0  # holdings of several cards: patterns as ever


@pytest.mark.parametrize(
    "make",
    [
        lambda: PatternRange("AA**@50,KK**", 4),
        lambda: PatternRange("random", 4),
        lambda: PatternRange("(3-3-)45", 5, low_aces=True),
        lambda: PatternRange.from_holdings(["AsKsQdJd", "2c3c4c5c"], [1, 0.25]),
    ],
)
def test_a_range_pickles_and_copies_and_stays_immutable(make: Callable[[], PatternRange]) -> None:
    """Unpickling set each slot with setattr, which the range refuses: a range given to a
    process pool's worker killed it (BrokenProcessPool)."""
    import copy
    import pickle

    from pokerlab import Range

    for r in (make(), Range("QQ+,AKs:0.5")):
        again = pickle.loads(pickle.dumps(r))
        assert again == r and hash(again) == hash(r) and again.to_string() == r.to_string()
        assert copy.copy(r) is r and copy.deepcopy(r) is r
        with pytest.raises(AttributeError, match="is immutable"):
            again._text = "x"  # type: ignore[misc]
        for name in again.__slots__:
            value = getattr(again, name)
            assert not isinstance(value, np.ndarray) or not value.flags.writeable


@pytest.mark.parametrize(("text", "size"), [("(ThTs)", 2), ("(AsAh)**", 4), ("(Ah Kd Ad)", 3)])
def test_a_no_pair_group_of_exact_cards_keeps_its_distinct_ranks(text: str, size: int) -> None:
    """Exact cards took a shortcut past the group's rule: ``(ThTs)`` was the holding ThTs."""
    with pytest.raises(EmptyRangeError, match="matches no holding"):
        PatternRange(text, size)
    assert len(PatternRange("(As Ks)**", 4)) == math.comb(50, 2)


@pytest.mark.parametrize(
    ("joined", "spaced", "size"),
    [("(9-5+)", "(9- 5+)", 2), ("(K-A+)", "(K- A+)", 2), ("4+s(5-J+)", "4+s (5- J+)", 3),
     ("(7-7-7+)", "(7- 7- 7+)", 3)],
)  # fmt: skip
def test_or_lower_then_or_higher_in_a_group_reads_and_round_trips(
    joined: str, spaced: str, size: int
) -> None:
    """``9-5+`` has one reading (the ``5`` is followed by ``+``, so no span): it was refused as
    ambiguous in a group, and ``to_string()`` wrote exactly that text."""
    rng = PatternRange(joined, size)
    assert rng == PatternRange(spaced, size)
    assert PatternRange(rng.to_string(), size) == rng


def test_a_removed_card_lists_no_known_card() -> None:
    """``!As`` counted as a pattern of one card, so a stud range with an exclusion (what
    ``remove()`` writes, ``AA*!Kd``) was refused: 'got 1, 7 cards'."""
    from pokerlab.ranges.pattern import pattern_card_count

    assert pattern_card_count("(3-3-)45678!As") == 7
    assert pattern_card_count("AA*!Kd") == 3
    rng = PatternRange("AA*", 3).remove("Kd")
    assert pattern_card_count(rng.to_string()) == 3


@pytest.mark.parametrize(
    ("game", "text", "fragment"),
    [
        ("stud", "As|2d|3h", "'As|2d|3h' has a '|' out of place"),
        ("stud", "|As2d", "'|As2d' has a '|' out of place"),
        ("stud", "KK*,As2d|", "'As2d|' has a '|' out of place"),
        ("omaha", "AsKs|QdQc", "this game's hands have none"),
        ("omaha", "AA**|", "this game's hands have none"),
    ],
)
def test_a_bar_is_one_per_stud_item_between_cards(game: str, text: str, fragment: str) -> None:
    """A helper found '|' read as a space anywhere, any number of times, in any game."""
    from pokerlab import equity

    with pytest.raises(RangeError, match="player 1: range ") as caught:
        equity([text, "QQ*" if game == "stud" else "KK**"], game=game, trials=100, seed=1)
    assert fragment in str(caught.value)


def test_one_bar_per_stud_item_is_read_as_a_space() -> None:
    from pokerlab.ranges.pattern import without_updown_bars

    assert without_updown_bars("As2d|3h, Kd2c|3c", stud=True) == "As2d 3h, Kd2c 3c"
    assert without_updown_bars("(AA,KK)|*", stud=True) == "(AA,KK) *"  # one item: one bar
    assert without_updown_bars("AsKs", stud=False) == "AsKs"


@pytest.mark.parametrize("op", [":", "!"])
def test_a_chain_of_thousands_of_operators_is_walked_without_recursion(op: str) -> None:
    """A 1,997-character chain (under the web's field limit) overflowed the stack: HTTP 500."""
    chain = ("****" + "!AA**" * 999) if op == "!" else ":".join(["AA**"] * 999)
    short = ("****!AA**") if op == "!" else "AA**"  # (a few thousand holdings: a fast chain)
    assert len(PatternRange(chain, 4)) == len(PatternRange(short, 4))


def test_an_expression_written_many_times_is_expanded_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """``AA`` written 25,000 times took a minute (each expanded again, and every copy's
    holdings merged); an operand repeated in a chain or a group is idempotent too."""
    from pokerlab.ranges import _pattern_expand

    calls: list[str] = []
    real = _pattern_expand._term
    monkeypatch.setattr(
        _pattern_expand, "_term", lambda term, *a: calls.append(term.text) or real(term, *a)
    )
    texts = [
        ",".join(["AA"] * 1000),
        ":".join(["A"] * 1000),
        "(" + ",".join(["AA"] * 1000) + ")",
        "A" + "!Ks" * 1000,
        ",".join(["AA@50", "KK", "AA@50"] * 500),  # the last AA@50 overrules the others
    ]
    once = ["AA", "A", "AA", "A!Ks", "KK,AA@50"]
    for text, short in zip(texts, once, strict=True):
        calls.clear()
        long_range = PatternRange(text, 4)
        assert len(calls) == len(set(calls)), (text[:20], calls[:5])
        same = PatternRange(short, 4)
        assert np.array_equal(long_range.masks, same.masks)
        assert np.array_equal(long_range.weights, same.weights)


def test_weight_too_small_for_a_float_is_named() -> None:
    """'@1e-400' reads as 0: it was refused as "holds no holding ... with a weight > 0", as if
    the weight written were 0; the hold'em grammar names it (QA)."""
    for text in ("AA@1e-400", "KK,AA**@1e-330"):
        with pytest.raises(RangeError) as info:
            PatternRange(text, size=4)
        assert "too small to tell from 0" in str(info.value)
        assert not isinstance(info.value, EmptyRangeError)


# --- listing through mark arrays (ranges/_mask_kernels.py) ---------------------------------

# (game, text): weights, exclusions, removed cards, holdings written twice (the last item wins),
# weight 0, groups, intersections, macros and percentages, in every game with pattern ranges
LISTING_CASES = [
    ("omaha", "AA**,KK**,QQ**,AK**,AQ**@50,JJ**@25", 4),
    ("omaha", "$ds,AA**@50,AsAh**@0", 4),
    ("omaha", "random@30,KK@70,AKs!As", 4),
    ("omaha", "15%@50,AA**!AAA,5%-10%@25", 4),
    ("omaha", "(AA,KK,QQ):$ds,T+T+!Kh@40,KK@0", 4),
    ("omaha-hilo", "A2**,A3**@50,[A2]2**!As,A2**@75", 4),
    ("omaha5", "AA***,KK***@50,QQ***!QQQ,AA***@25", 5),
    ("omaha5", "$ds!KK,AsKs***,random@10", 5),
    ("omaha5", "8%,AKQ**@60", 5),
    ("omaha5-hilo", "(5-5-)***,A2***@50,A3@0", 5),
    ("omaha6", "AK****,AQ****@50,KQ****,AJ****@0", 6),
    ("omaha6", "AA****$ds,KK****@50,(AA****,QQ****):$ts", 6),
    ("omaha6", "AsKs****,QQ****!QQQ***,AA****:KK****@20", 6),
    ("omaha6", "AK****!As!Kd,QQJ***@10,AK****@60,(AA,KK)!AAKK", 6),
    ("omaha6", "AA,KK@50,AAKK@0", 6),
    ("omaha6", "random,AA@50", 6),  # too large: the same error either way
    ("razz", "(5-5-5-),A2*@50", 3),
    ("stud", "AA*,KK*@50,(AK)*!As", 3),
    ("stud-hilo", "AA**,([A-5][A-5][A-5])*@30", 4),
]


def _listing(game: str, text: str, size: int, threads: int = 0) -> object:
    """Everything a range lists (holdings, weights, masks, and with three cards removed), or
    the error it raises; on ``threads`` threads (0: numba's default)."""
    from pokerlab.evaluation._parallel import numba_threads
    from pokerlab.games import get_game

    def read() -> object:
        try:
            r = get_game(game).pattern_range(text, size)
            out: list[object] = [r.size, len(r), r.masks, r.weights, r.holdings]
        except PokerlabError as exc:
            return type(exc), str(exc)
        try:
            left = r.remove("As Kd 2c")
            out += [left.masks, left.weights, left.holdings]
        except PokerlabError as exc:
            out += [type(exc), str(exc)]
        return out

    if not threads:
        return read()
    with numba_threads(threads):
        return read()


def _same(a: object, b: object) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return (
            isinstance(a, np.ndarray)
            and isinstance(b, np.ndarray)
            and a.dtype == b.dtype
            and np.array_equal(a, b)
        )
    return a == b


@pytest.mark.parametrize(
    ("game", "text", "size"), LISTING_CASES, ids=[f"{g}:{t}" for g, t, _ in LISTING_CASES]
)
def test_mark_arrays_list_what_sorting_lists(
    game: str, text: str, size: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mark-array listing (kernels, in parallel) gives the very arrays of the numpy
    listing that sorts (the code before it, kept for NUMBA_DISABLE_JIT): with the usual
    thresholds, with mark arrays for every set they can take, on 1 and 2 threads."""
    from pokerlab.ranges import _pattern_expand

    with monkeypatch.context() as m:
        m.setattr(_pattern_expand, "_kernels", lambda: None)
        sorted_way = _listing(game, text, size)
    assert _same(_listing(game, text, size), sorted_way)
    monkeypatch.setattr(_pattern_expand, "_DENSE_MIN", 0)
    monkeypatch.setattr(_pattern_expand, "_DENSE_SHARE", 10**12)
    for threads in (1, 2):
        assert _same(_listing(game, text, size, threads), sorted_way), threads


def test_wide_ranges_take_the_mark_arrays() -> None:
    """The thresholds send the wide 6-card range of the tests above through mark arrays (the
    parametrised test forces them for the others)."""
    from pokerlab.ranges._pattern_expand import dense

    assert dense(16 * math.comb(50, 4), 6)  # AK****: 16 ace-king pairs, 4 free cards each
    assert not dense(math.comb(50, 4), 6)  # AsKs****: one pair (sorting is cheaper)
    assert not dense(10**7, 7)  # 7 cards: a mark array would be 133 M entries


def test_a_wide_six_card_range_matches_counting_by_ranks() -> None:
    """Independent of any listing: how many holdings hold a, k, q, j aces, kings, queens and
    jacks is C(4,a) C(4,k) C(4,q) C(4,j) C(36, 6-a-k-q-j); each such class is in the range, with
    the weight of the last item that matches it, or not at all. The range's 8 M holdings,
    distinct and ascending, must fill exactly the classes in it."""
    text = "AK****,AQ****@50,KQ****,AJ****@25,AKQJ**@0"
    items = [((A, K), 1.0), ((A, Q), 0.5), ((K, Q), 1.0), ((A, J), 0.25), ((A, K, Q, J), 0.0)]
    r = PatternRange(text, 6)
    masks = r.masks[::-1]
    assert (masks[1:] > masks[:-1]).all()  # ascending, so distinct
    assert (np.bitwise_count(masks) == 6).all()
    ranks = r.holdings >> 2
    counts = [(ranks == rank).sum(axis=1) for rank in (A, K, Q, J)]
    got = Counter(zip(*(c.tolist() for c in counts), r.weights.tolist(), strict=True))
    expected: Counter[tuple[int, ...] | tuple[int, int, int, int, float]] = Counter()
    for profile in itertools.product(range(5), repeat=4):
        if sum(profile) > 6:
            continue
        held = dict(zip((A, K, Q, J), profile, strict=True))
        weight = None
        for needed, w in items:
            if all(held[rank] >= 1 for rank in needed):
                weight = w
        if weight:
            n = math.comb(36, 6 - sum(profile))
            for c in profile:
                n *= math.comb(4, c)
            expected[(*profile, weight)] = n
    assert got == expected


def test_suit_counts_are_sorted_like_numpy_sorts_them() -> None:
    """The macros' sorting network orders every 4 suit counts (0..7 cards each) as np.sort."""
    from pokerlab.ranges._pattern_expand import _sorted_counts

    counts = np.array(list(itertools.product(range(8), repeat=4)), dtype=np.uint8)
    got = np.stack(_sorted_counts([counts[:, i] for i in range(4)]), axis=1)
    assert np.array_equal(got, -np.sort(-counts.astype(np.int64), axis=1))


def test_a_wide_range_is_listed_on_the_threads_a_call_was_given(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``equity(..., threads=1)`` listed a wide pattern range on numba's whole pool; the count
    a call was given now reaches the listing's kernels (without loading numba where no kernel
    runs: tests/test_first_run.py)."""
    from pokerlab import equity
    from pokerlab.evaluation import _parallel

    asked: list[int] = []
    real = _parallel.numba_threads

    def recording(threads: int) -> object:
        asked.append(threads)
        return real(threads)

    monkeypatch.setattr(_parallel, "numba_threads", recording)
    for threads, wide in ((1, "AK****,AQ****"), (2, "AK****,AJ****")):  # parsed ranges are kept
        asked.clear()
        equity(["AsAhKsKhQsQh", wide], board="2c7d9h", game="omaha6", method="mc", trials=1000,
               seed=1, threads=threads)  # fmt: skip
        listing = [n for n in asked if n != 1] if threads == 2 else asked
        assert listing and set(listing) <= {threads}, asked
