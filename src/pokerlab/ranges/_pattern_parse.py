"""Parser of the pattern-range grammar (documented in :mod:`pokerlab.ranges.pattern`).

:func:`parse_pattern_text` turns text into a tuple of :class:`Item` (an expression tree and a
weight each). It checks everything that does not need the deck: the syntax, the number of cards
of each pattern against the holding size, an exact card written twice in one pattern, and
macros that no holding of the size can satisfy. Errors are :class:`~pokerlab.errors.RangeError`
naming the 1-based number of the offending character and what was expected there.

>>> items = parse_pattern_text(" aa** $DS , (3-2-)4@50 ", 4, low_aces=True)
>>> [item.text for item in items]
['AA**$ds', '(3-2-)4@50']
>>> items[1].weight
0.5
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation, localcontext
from typing import TypeAlias

from pokerlab.cards import RANKS, SUITS
from pokerlab.errors import EmptyRangeError, RangeError, shorten

__all__ = [
    "ALL_RANKS",
    "MACROS",
    "RANK_VARS",
    "SUIT_VARS",
    "Binary",
    "CardPattern",
    "Group",
    "Item",
    "Node",
    "Percent",
    "Term",
    "chain",
    "macro_feasible",
    "parse_pattern_text",
    "shorten",
    "suit_rule",
    "weight_of_text",
]

ALL_RANKS = (1 << len(RANKS)) - 1
SUIT_VARS = "wxyz"
RANK_VARS = "RONP"
_WS = " \t\r\n"
_ANY_SPACE = re.compile(r"\s")


def plain_spaces(text: str) -> str:
    """``text`` with every whitespace character (a no-break space pasted from a web page, an
    ideographic space) read as a plain space, one for one so places in it stay the same: the
    range grammars skip plain spaces, and an NBSP was "found ' '" there.

    >>> plain_spaces("QQ+,\u00a0AKs\u3000")
    'QQ+, AKs '
    """
    return _ANY_SPACE.sub(" ", text)


_TERMINATORS = ",:!@)"
# A glued chain of ranks joined by '-' ("7-7-7", "3-2-", "5-9"): how it reads is decided once,
# for the whole chain (see _Parser.chain).
_DECIMAL = r"([0-9]+(?:\.[0-9]*)?|\.[0-9]+)"  # ASCII digits only, as in cards
_PERCENT = re.compile(rf"{_DECIMAL}[ \t]*%(?:[ \t]*-[ \t]*{_DECIMAL}[ \t]*%)?")
_CHAIN = re.compile(r"(?:10|[2-9TJQKA])(?:-(?:10|[2-9TJQKA]))*-?", re.IGNORECASE)
_EXACT_CARD = re.compile(r"(?:10|[2-9TJQKA])[cdhs]", re.IGNORECASE)
_NUMBER = re.compile(r"[-+]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][-+]?[0-9]+)?")
_ACE = len(RANKS) - 1
_EXPECTED_PATTERN = "expected a hand pattern such as AA**, AxAyKxKy, (3-3-)4, $ds or random"

#: Macro name -> what it means (the docstring table of :mod:`pokerlab.ranges.pattern` repeats
#: it). Longest names first: ``$dss`` reads as ``$ds`` then the suit ``s``.
MACROS: dict[str, str] = {
    "ds": "double-suited: exactly two suits hold two cards each, no suit holds three or more",
    "ss": "single-suited: exactly one suit holds two cards, every other suit at most one",
    "ts": "triple-suited: exactly three suits hold two cards each, the fourth at most one",
    "np": "no pair: no two cards share a rank",
    "r": "rainbow: no two cards share a suit",
}
_MACRO_NAMES = sorted(MACROS, key=len, reverse=True)


def suit_rule(name: str, c0: object, c1: object, c2: object, c3: object) -> object:
    """The suit macro ``name`` on suit counts sorted in descending order ``c0 >= ... >= c3``.

    Works on ints (a ``bool``) and on numpy arrays (a boolean array) alike.
    """
    if name == "ds":
        return (c0 == 2) & (c1 == 2) & (c2 <= 1)  # type: ignore[operator]
    if name == "ss":
        return (c0 == 2) & (c1 <= 1)  # type: ignore[operator]
    if name == "ts":
        return (c0 == 2) & (c1 == 2) & (c2 == 2) & (c3 <= 1)  # type: ignore[operator]
    if name == "r":
        return c0 <= 1  # type: ignore[operator]
    raise ValueError(f"not a suit macro: {name}")


def _signatures(size: int) -> list[tuple[int, int, int, int]]:
    """Every sorted suit-count signature ``(c0 >= c1 >= c2 >= c3)`` of a ``size``-card hand."""
    out = []
    for c0 in range(min(size, 13), -1, -1):
        for c1 in range(min(c0, size - c0), -1, -1):
            for c2 in range(min(c1, size - c0 - c1), -1, -1):
                c3 = size - c0 - c1 - c2
                if 0 <= c3 <= c2:
                    out.append((c0, c1, c2, c3))
    return out


def macro_feasible(names: tuple[str, ...], size: int) -> bool:
    """Whether some ``size``-card holding satisfies all the macros ``names`` at once."""
    if "np" in names and size > len(RANKS):
        return False
    suit_names = [n for n in names if n != "np"]
    return any(all(bool(suit_rule(n, *sig)) for n in suit_names) for sig in _signatures(size))


def weight_of_text(text: str) -> float:
    """The weight that ``@text`` means: ``text`` percent, read exactly (``'50'`` -> 0.5)."""
    with localcontext() as ctx:
        ctx.prec = max(28, len(text) + 4)
        try:
            return float(Decimal(text).scaleb(-2))
        except InvalidOperation:
            return math.nan


def reads_as_zero(text: str, value: float) -> bool:
    """Whether a number written with a nonzero digit (before any exponent) read as 0: too
    small for a float (``0.0...01``, ``1e-400``)."""
    return value == 0.0 and re.search(r"[1-9]", text.split("e")[0].split("E")[0]) is not None


def percent_bounds(texts: list[str]) -> tuple[list[float], str | None]:
    """The numbers of a ``x%`` or ``a%-b%`` item's bounds (ASCII decimals), and the message
    for one out of 0..100 (said as written, not rounded: ``100.0000001%`` is not "100%") or
    too small to tell from 0 (``0.0...01%`` read as 0% picked nothing, silently)."""
    values = [float(t) for t in texts]
    for text, value in zip(texts, values, strict=True):
        if not 0.0 <= value <= 100.0:
            return values, f"a percentage must be between 0% and 100%, not {shorten(text)}%"
        if reads_as_zero(text, value):
            return values, f"the percentage {shorten(text)}% is too small to tell from 0"
    return values, None


@dataclass(frozen=True)
class CardPattern:
    """One card of a pattern.

    ``ranks`` has bit ``r`` set for each allowed rank (``0`` = deuce .. ``12`` = ace); a rank
    variable (``rank_var`` 0..3 for R O N P) allows every rank not named by a single rank letter
    in the same pattern. ``suit`` is an explicit suit (0..3 for c d h s) or -1, ``suit_var`` a
    suit variable (0..3 for w x y z) or -1, ``group`` the index of the no-pair group ``( )`` the
    card is in, or -1. ``single_rank`` is true when the rank was written as one rank letter.
    """

    ranks: int
    rank_var: int
    suit: int
    suit_var: int
    group: int
    single_rank: bool
    text: str
    position: int

    @property
    def is_free(self) -> bool:
        """True for a card that any card matches (``*``, outside a no-pair group)."""
        return (
            self.ranks == ALL_RANKS
            and self.rank_var < 0
            and self.suit < 0
            and self.suit_var < 0
            and self.group < 0
        )

    @property
    def exact_card(self) -> int:
        """The card code when the pattern names one exact card (``As``), else -1."""
        if self.single_rank and self.suit >= 0:
            return 4 * (self.ranks.bit_length() - 1) + self.suit
        return -1


@dataclass(frozen=True)
class Term:
    """A hand pattern: cards, no-pair groups and macros that one holding must satisfy at once
    (``random`` when ``is_random_word``)."""

    cards: tuple[CardPattern, ...]
    macros: tuple[str, ...]
    is_random_word: bool
    text: str
    position: int

    @property
    def exact_card(self) -> int:
        """The card code when the whole pattern is one exact card (``As``), else -1."""
        if len(self.cards) == 1 and not self.macros:
            return self.cards[0].exact_card
        return -1


@dataclass(frozen=True)
class Binary:
    """``left : right`` (intersection) or ``left ! right`` (difference)."""

    op: str
    left: Node
    right: Node
    text: str
    position: int

    @property
    def removed_card(self) -> int:
        """The card code of ``! As`` (which removes one card and lists no holding), else -1."""
        if self.op == "!" and isinstance(self.right, Term):
            return self.right.exact_card
        return -1


@dataclass(frozen=True)
class Group:
    """A parenthesised union ``(a, b, ...)`` used as one operand."""

    parts: tuple[Node, ...]
    text: str
    position: int


@dataclass(frozen=True)
class Percent:
    """``15%`` or ``5%-10%``: the top of the Omaha ordering (``ranges._omaha_order``)."""

    low: float
    high: float
    text: str
    position: int


Node: TypeAlias = Term | Binary | Group | Percent


def chain(node: Node) -> tuple[Node, list[Binary]]:
    """A left-nested run of ``:``/``!`` as its first operand and its operators in order
    (``a:b!c`` is ``a`` and the nodes of ``:b`` and ``!c``): walked in a loop, so that a
    chain of thousands of operators needs no recursion (it overflowed the stack)."""
    steps: list[Binary] = []
    while isinstance(node, Binary):
        steps.append(node)
        node = node.left
    steps.reverse()
    return node, steps


@dataclass(frozen=True)
class Item:
    """One top-level comma-separated item: an expression and its weight (default 1)."""

    expr: Node
    weight: float
    weight_text: str | None
    position: int

    @property
    def text(self) -> str:
        """Canonical text of the item, weight included."""
        return self.expr.text + ("" if self.weight_text is None else "@" + self.weight_text)


def _joins(left: str, right: str) -> bool:
    """Whether writing ``right`` straight after ``left`` would change how they read."""
    if not left or not right:
        return False
    attaches = RANKS + RANK_VARS + "*]+-"
    if left[-1] in attaches and right[0] in SUITS + SUIT_VARS:
        return True  # "A" then "s" would read as the card "As"
    # "3-" then "2" would read as the span "3-2", and "2-" then the span "2-2" as the chain
    # "2-2-2"; "3-" then "2-", "2-s" or "2+" reads as written
    if left[-1] != "-" or right[0] not in RANKS:
        return False
    or_lower = right[1:2] == "-" and not (right[2:3] and right[2] in RANKS)
    return not (right[1:2] == "+" or or_lower)


def _render(parts: list[str]) -> str:
    out = ""
    for part in parts:
        out += (" " if _joins(out, part) else "") + part
    return out


MAX_GROUP_DEPTH = 32
"""How deep parenthesised groups may nest (the parser recurses once per level)."""


class _Parser:
    def __init__(self, text: str, size: int, low_aces: bool, percent: bool = False) -> None:
        self.text = plain_spaces(text)
        self.size = size
        self.low_aces = low_aces
        self.percent = percent
        self.pos = 0
        self.depth = 0  # groups open around the parser's position
        self.in_group = False
        self.classic_end = -1  # inside a classic chain "7-7-7", every '-' means "or lower"

    # --- helpers ---------------------------------------------------------------------------

    def error(self, at: int, message: str) -> RangeError:
        return RangeError(f"invalid range '{shorten(self.text)}' at character {at + 1}: {message}")

    def found(self, i: int | None = None) -> str:
        i = self.pos if i is None else i
        if i >= len(self.text):
            return "found the end of the range"
        return f"found '{self.text[i]}'"

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos] in _WS:
            self.pos += 1

    def order(self, rank: int) -> int:
        """Position of ``rank`` on the scale spans use: the ace below the deuce if low_aces."""
        return -1 if self.low_aces and rank == _ACE else rank

    def rank_at(self, i: int) -> tuple[int, int]:
        """Rank at ``text[i]`` (``T`` or ``10`` for ten, any case) and the index after; -1 if
        none."""
        if self.text.startswith("10", i):
            return RANKS.index("T"), i + 2
        if i < len(self.text) and self.text[i].upper() in RANKS:
            return RANKS.index(self.text[i].upper()), i + 1
        return -1, i

    # --- grammar ---------------------------------------------------------------------------

    def parse(self) -> tuple[Item, ...]:
        if not self.text.strip(_WS):
            raise EmptyRangeError(
                f"empty range {self.text!r}: expected hand patterns such as 'AA**$ds', "
                "'(3-3-)4' or 'random'"
            )
        items: list[Item] = []
        while True:
            self.skip_ws()
            start = self.pos
            if self.peek() in ("", ","):
                where = "before the first comma" if not items else "after a comma"
                raise self.error(start, f"empty item {where}: {_EXPECTED_PATTERN}")
            expr = self.expr()
            weight, weight_text = 1.0, None
            self.skip_ws()
            if self.peek() == "@":
                weight, weight_text = self.weight()
                self.skip_ws()
            items.append(Item(expr, weight, weight_text, start + 1))
            c = self.peek()
            if c == "":
                self.refuse_card_list(items)
                return tuple(items)
            if c == ",":
                self.pos += 1
                continue
            if c == ")":
                raise self.error(self.pos, "unmatched ')'")
            if c == "@":
                raise self.error(self.pos, "an item has at most one weight")
            raise self.error(
                self.pos, f"expected ',', ':', '!', '@' or the end after an item, {self.found()}"
            )

    def refuse_card_list(self, items: list[Item]) -> None:
        """Refuse ``As,Ah,Ks``: a hand typed with commas between its cards (as a board may be)
        would read as the union of one-card patterns (a holding with As, or Ah, or Ks), a
        different range with no warning. Hold'em refuses the same text too. Holdings of one
        card (``size`` 1) have no other reading: there it is the union."""
        texts = self.text.split(",")
        if self.size == 1 or len(items) < 2 or len(texts) != len(items):
            return
        if any(i.weight_text for i in items) or not all(
            _EXACT_CARD.fullmatch(t.strip(_WS)) for t in texts
        ):
            return
        hand = "".join(t.strip(_WS) for t in texts)
        union = ",".join(f"({t.strip(_WS)})" for t in texts)
        raise self.error(
            0,
            f"single cards separated by commas: ',' separates patterns, so this would be any "
            f"holding with one of these cards; write the hand without commas ({hand}), or "
            f"{union} for that union",
        )

    def weight(self) -> tuple[float, str]:
        self.pos += 1
        self.skip_ws()
        match = _NUMBER.match(self.text, self.pos)
        if match is None:
            raise self.error(
                self.pos, f"expected a weight in percent after '@' (such as @50), {self.found()}"
            )
        raw = match.group()
        if raw.startswith("-"):
            raise self.error(self.pos, f"a weight must be >= 0, not {raw}")
        value = weight_of_text(raw)
        if not math.isfinite(value):
            raise self.error(self.pos, f"a weight must be a finite number, not {raw}")
        if reads_as_zero(raw, value):
            raise self.error(self.pos, f"the weight @{raw} is too small to tell from 0")
        if value > 1.0:
            raise self.error(self.pos, f"a weight is at most 100 (percent), not {raw}")
        self.pos = match.end()
        return value, raw.lstrip("+")

    def expr(self) -> Node:
        left = self.operand()
        while True:
            self.skip_ws()
            op = self.peek()
            if op not in (":", "!"):
                return left
            at = self.pos
            self.pos += 1
            self.skip_ws()
            if self.peek() in ("", ",", ":", "!", "@", ")"):
                raise self.error(self.pos, f"expected a hand pattern after '{op}', {self.found()}")
            right = self.operand()
            left = Binary(op, left, right, f"{left.text}{op}{right.text}", at + 1)

    def is_grouping(self, i: int) -> bool:
        """Whether the '(' at ``text[i]`` opens a parenthesised expression (it holds ``,`` ``:``
        ``!`` ``@`` or another '(') rather than a no-pair group of cards."""
        depth, in_list = 0, False
        for j in range(i, len(self.text)):
            c = self.text[j]
            if in_list:
                in_list = c != "]"
            elif c == "[":
                in_list = True
            elif c == "(":
                depth += 1
                if depth > 1:
                    return True
            elif c == ")":
                return False
            elif c in ",:!@":
                return True
        return True

    def top_percent(self) -> Percent | None:
        """``15%`` or ``5%-10%`` here (Omaha only), else None."""
        match = _PERCENT.match(self.text, self.pos)
        if match is None:
            return None
        start = self.pos
        if not self.percent or self.size not in (4, 5):
            raise self.error(
                start,
                "a percentage range (15%) exists for 4- and 5-card Omaha "
                "only, by the ordering of its hands (equity vs a random hand)",
            )
        bounds, wrong = percent_bounds([g for g in match.groups() if g is not None])
        if wrong is not None:
            raise self.error(start, wrong)
        low, high = (0.0, bounds[0]) if len(bounds) == 1 else sorted(bounds)
        self.pos = match.end()
        text = f"{high:g}%" if low == 0 and len(bounds) == 1 else f"{low:g}%-{high:g}%"
        return Percent(low, high, text, start + 1)

    def operand(self) -> Node:
        self.skip_ws()
        percent = self.top_percent()
        if percent is not None:
            return percent
        if self.peek() != "(" or not self.is_grouping(self.pos):
            return self.term()
        start = self.pos
        self.pos += 1
        self.depth += 1
        if self.depth > MAX_GROUP_DEPTH:
            raise self.error(start, f"groups nest at most {MAX_GROUP_DEPTH} deep")
        parts: list[Node] = []
        while True:
            self.skip_ws()
            if self.peek() in ("", ",", ")"):
                raise self.error(self.pos, f"{_EXPECTED_PATTERN}, {self.found()}")
            parts.append(self.expr())
            self.skip_ws()
            c = self.peek()
            if c == ",":
                self.pos += 1
            elif c == ")":
                self.pos += 1
                break
            elif c == "@":
                raise self.error(
                    self.pos,
                    "a weight applies to a whole top-level item: write (AA,KK)@50, not (AA@50,KK)",
                )
            elif c == "":
                raise self.error(start, "unmatched '('")
            else:
                raise self.error(self.pos, f"expected ',', ':', '!' or ')', {self.found()}")
        self.skip_ws()
        c = self.peek()
        if c and c not in _TERMINATORS:
            raise self.error(
                self.pos,
                f"expected ',', ':', '!', '@', ')' or the end after ')', {self.found()}; "
                "combine a group with a pattern with ':' as in (AA,KK):$ds",
            )
        self.depth -= 1
        return Group(tuple(parts), "(" + ",".join(p.text for p in parts) + ")", start + 1)

    def term(self) -> Term:
        self.skip_ws()
        start = self.pos
        word = self.text[start : start + 6]
        after = self.text[start + 6 : start + 7]
        if word.lower() == "random" and not (after.isalnum() or (after != "" and after in "*$[(")):
            self.pos += 6
            self.skip_ws()
            if self.peek() and self.peek() not in _TERMINATORS:
                raise self.error(
                    self.pos,
                    f"'random' stands alone; expected ',', ':', '!' or '@', {self.found()}",
                )
            return Term((), (), True, "random", start + 1)
        cards: list[CardPattern] = []
        macros: list[tuple[str, int]] = []
        parts: list[str] = []
        groups = 0
        while True:
            self.skip_ws()
            c = self.peek()
            if c == "" or c in _TERMINATORS:
                break
            if c == "(":
                parts.append(self.group(groups, cards))
                groups += 1
            elif c == "$":
                macros.append(self.macro())
            else:
                card = self.card(-1)
                cards.append(card)
                parts.append(card.text)
        if not cards and not macros:
            raise self.error(start, f"{_EXPECTED_PATTERN}, {self.found()}")
        names = tuple(dict.fromkeys(name for name, _ in macros))
        text = _render(parts) + "".join("$" + name for name in names)
        term = Term(tuple(cards), names, False, text, start + 1)
        self.check_term(term, macros)
        return term

    def check_term(self, term: Term, macros: list[tuple[str, int]]) -> None:
        if len(term.cards) > self.size:
            raise self.error(
                term.position - 1,
                f"the pattern '{shorten(term.text)}' has {len(term.cards)} cards but a holding has "
                f"{self.size}",
            )
        seen: dict[int, int] = {}
        for card in term.cards:
            code = card.exact_card
            if code < 0:
                continue
            if code in seen:
                name = RANKS[code >> 2] + SUITS[code & 3]
                raise EmptyRangeError(
                    f"invalid range '{shorten(self.text)}' at character {card.position}: the "
                    f"card {name} appears twice in the pattern '{shorten(term.text)}' (characters "
                    f"{seen[code]} and {card.position}), so no holding matches it"
                )
            seen[code] = card.position
        names = term.macros
        if names and not macro_feasible(names, self.size):
            where = macros[-1][1] if len(names) == 1 else term.position - 1
            shown = " ".join("$" + n for n in names)
            raise EmptyRangeError(
                f"invalid range '{shorten(self.text)}' at character {where + 1}: no "
                f"{self.size}-card holding is {shown} "
                f"({'; '.join(f'${n} = {MACROS[n]}' for n in names)})"
            )

    def macro(self) -> tuple[str, int]:
        at = self.pos
        j = at + 1
        while j < len(self.text) and self.text[j].isalpha():
            j += 1
        letters = self.text[at + 1 : j].lower()
        for name in _MACRO_NAMES:
            if letters.startswith(name):
                self.pos = at + 1 + len(name)
                return name, at
        known = ", ".join("$" + n for n in MACROS)
        shown = "$" + self.text[at + 1 : j]
        raise self.error(at, f"unknown macro '{shown}': expected one of {known}")

    def group(self, index: int, cards: list[CardPattern]) -> str:
        start = self.pos
        self.pos += 1
        parts: list[str] = []
        self.in_group = True
        try:
            return self._group_body(start, index, cards, parts)
        finally:
            self.in_group = False

    def chain(self) -> None:
        """Decide how a chain of ranks joined by '-' starting here reads, or refuse it.

        A chain ending in '-' ("3-2-") is cards each "this rank or lower". One dash between two
        ranks ("5-9") is a span, one card, outside a no-pair group; inside one it could also be
        the stud/razz reading "5-" and "9", so it is refused with both spellings. Two or more
        dashes ending in a rank ("7-7-7") is the classic razz reading inside a no-pair group,
        every rank but the last "or lower" (two downcards 7 or lower and a seven); outside a
        group it could also end in a span, so it is refused."""
        if self.pos < self.classic_end:
            return
        match = _CHAIN.match(self.text, self.pos)
        if match is None or match.group().endswith("-"):
            return
        ranks = [r.upper() for r in match.group().split("-")]
        if len(ranks) == 1 or self.text.startswith("+", match.end()):
            return  # "9-5+": the last rank is "or higher", so no span ("9-" and "5+")
        if len(ranks) == 2 and not self.in_group:
            self.refuse_pair_span(match.end())
        cards = " ".join(r + "-" for r in ranks[:-1]) + " " + ranks[-1]
        span = " ".join(r + "-" for r in ranks[:-2]) + f" [{ranks[-2]}-{ranks[-1]}]"
        where = f"'{match.group()}'"
        if len(ranks) == 2 and self.in_group:
            raise self.error(
                self.pos,
                f"{where} in a no-pair group is ambiguous: write ({span.strip()}) for one card "
                f"{ranks[0]} to {ranks[1]}, or ({cards}) for a card {ranks[0]} or lower and a "
                f"{ranks[1]}",
            )
        if len(ranks) > 2 and not self.in_group:
            raise self.error(
                self.pos,
                f"{where} is ambiguous outside a no-pair group: write {cards} (or ({cards}) "
                f"with distinct ranks) for cards each that rank or lower but the last, or "
                f"{span.strip()} to end in a span",
            )
        if len(ranks) > 2:
            self.classic_end = match.end()

    def refuse_pair_span(self, end: int) -> None:
        """Refuse ``KK-TT``: a span glued between two copies of its own end ranks reads, by the
        grammar, as three cards (K, one card K to T, T), but is surely meant as the pairs KK to
        TT, a whole-hand span that pattern ranges do not have. ``end``: the index after the
        span starting at ``self.pos``."""
        first, j = self.rank_at(self.pos)
        second, _ = self.rank_at(j + 1)
        before, start = -1, self.pos
        for width in (2, 1):
            if self.pos >= width:
                rank, after = self.rank_at(self.pos - width)
                if after == self.pos and rank >= 0:
                    before, start = rank, self.pos - width
                    break
        if before != first or self.rank_at(end)[0] != second:
            return
        spanned, _, _ = self.span(first, j)  # the ranks first..second, as the grammar reads them
        pairs = sorted((r for r in range(13) if spanned >> r & 1), key=self.order, reverse=True)
        a, b = RANKS[first], RANKS[second]
        raise self.error(
            start,
            f"'{a}{a}-{b}{b}' is not a span of pairs (pattern ranges have no whole-hand spans): "
            f"list them ({','.join(RANKS[r] * 2 for r in pairs)}), or write {a}[{a}-{b}]{b} "
            f"for three cards: {a}, one of {a} to {b}, and {b}",
        )

    def _group_body(
        self, start: int, index: int, cards: list[CardPattern], parts: list[str]
    ) -> str:
        while True:
            self.skip_ws()
            c = self.peek()
            if c == ")":
                self.pos += 1
                break
            if c == "":
                raise self.error(start, "unmatched '('")
            if c == "(":
                raise self.error(self.pos, "no-pair groups ( ) cannot be nested")
            if c == "$":
                raise self.error(
                    self.pos, "a macro applies to the whole holding: write it outside ( )"
                )
            if c in _TERMINATORS:
                raise self.error(
                    self.pos, f"expected a card or ')' in a no-pair group, {self.found()}"
                )
            card = self.card(index)
            cards.append(card)
            parts.append(card.text)
        if not parts:
            raise self.error(start, "empty no-pair group '()': expected cards such as (3-3-)")
        return "(" + _render(parts) + ")"

    def span(self, first: int, i: int) -> tuple[int, str, int]:
        """A rank, span (``3-``, ``T+``, ``5-9``) starting with the rank ``first`` whose text
        ends at ``i``: the rank mask, canonical text and the index after it."""
        text = self.text
        order = self.order
        c = text[i] if i < len(text) else ""
        if c == "+":
            mask = sum(1 << r for r in range(13) if order(r) >= order(first))
            return mask, RANKS[first] + "+", i + 1
        if c == "-":
            second, j = self.rank_at(i + 1)
            spans = i >= self.classic_end
            if spans and second >= 0 and (j >= len(text) or text[j] not in "+-"):
                lo, hi = sorted((order(first), order(second)))
                mask = sum(1 << r for r in range(13) if lo <= order(r) <= hi)
                return mask, f"{RANKS[first]}-{RANKS[second]}", j
            mask = sum(1 << r for r in range(13) if order(r) <= order(first))
            return mask, RANKS[first] + "-", i + 1
        return 1 << first, RANKS[first], i

    def rank_list(self) -> tuple[int, str]:
        start = self.pos
        i = start + 1
        mask = 0
        parts: list[str] = []
        while True:
            while i < len(self.text) and self.text[i] in _WS + ",":
                i += 1
            if i < len(self.text) and self.text[i] == "]":
                i += 1
                break
            rank, j = self.rank_at(i)
            if rank < 0:
                if i >= len(self.text):
                    raise self.error(start, "unmatched '['")
                raise self.error(
                    i,
                    f"expected a rank (such as A, 5-9, T+ or 3-) or ']' in a rank list, "
                    f"{self.found(i)}",
                )
            bits, text, i = self.span(rank, j)
            mask |= bits
            parts.append(text)
        if not parts:
            raise self.error(start, "empty rank list '[]': expected ranks such as [A,K,Q]")
        self.pos = i
        return mask, "[" + ",".join(parts) + "]"

    def card(self, group: int) -> CardPattern:
        start = self.pos
        c = self.peek()
        rank_var = -1
        single = False
        if c == "*":
            ranks, rank_text = ALL_RANKS, "*"
            self.pos += 1
        elif c == "[":
            ranks, rank_text = self.rank_list()
        elif c in RANK_VARS:
            ranks, rank_text, rank_var = ALL_RANKS, c, RANK_VARS.index(c)
            self.pos += 1
        else:
            rank, j = self.rank_at(self.pos)
            if rank >= 0:
                self.chain()
                ranks, rank_text, self.pos = self.span(rank, j)
                single = len(rank_text) == 1
            elif c.lower() in SUITS + SUIT_VARS:
                ranks, rank_text = ALL_RANKS, ""
            else:
                hint = ""
                if c in "01.":
                    hint = (
                        "; ':' means intersection in pattern ranges, weights are written in "
                        "percent after '@' (AA@50, not AA:0.5)"
                    )
                elif c.upper() in RANK_VARS:
                    hint = (
                        "; rank variables are the upper-case letters R, O, N, P (write "
                        "AxKy for an offsuit ace-king)"
                    )
                raise self.error(
                    start,
                    "expected a card: a rank (A, T, 10, 3-, T+, 5-9, [A,2,3]), '*', a rank "
                    f"variable (R O N P), a suit (c d h s) or a suit variable (w x y z), "
                    f"{self.found()}{hint}",
                )
        suit = suit_var = -1
        s = self.peek().lower()
        if s and s in SUITS:
            suit = SUITS.index(s)
            self.pos += 1
        elif s and s in SUIT_VARS:
            suit_var = SUIT_VARS.index(s)
            self.pos += 1
        suit_text = SUITS[suit] if suit >= 0 else (SUIT_VARS[suit_var] if suit_var >= 0 else "")
        nxt = self.peek()
        if nxt in ("+", "-"):
            raise self.error(
                self.pos,
                f"'{nxt}' must follow a rank directly (write T+s, not a span after a suit or "
                f"after '*')",
            )
        return CardPattern(
            ranks, rank_var, suit, suit_var, group, single, rank_text + suit_text, start + 1
        )


def parse_pattern_text(
    text: str, size: int, *, low_aces: bool = False, percent: bool = False
) -> tuple[Item, ...]:
    """Parse a pattern range text into its items; raise :class:`RangeError` on bad input.
    ``percent``: whether ``15%`` (the Omaha ordering) is allowed."""
    return _Parser(text, size, low_aces, percent).parse()
