"""Compile a parsed query: resolve names, type-check, and turn every function call into a
feature row of the kernel (``_kernels.deal_features``) and every expression into a numpy
function over the feature matrix (one row per feature, one column per deal).

Types: ``num`` (numbers; ``unit`` numbers lie in [0, 1]), ``bool``, ``cat`` (a hand type, the
high-hand category 0..8 in the usual order; in short deck in its order (:func:`hand_types_of`: trips
above a straight, or below it in ``shortdeck-straights``); in razz a low, :data:`RAZZ_TYPES`),
``rank`` (2..14) and ``hit`` (a board-hit made category of
:mod:`pokerlab.analysis.board_categories`, its code, best first). A quoted string compared with a
``cat`` is a hand-type name, with a ``rank`` a rank letter, with a ``hit`` a made category, a group
of them ('top pair') or a draw of that table.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import counted
from pokerlab.analysis.board_categories import DRAWS as HIT_DRAWS
from pokerlab.analysis.board_categories import MADE, made_places
from pokerlab.analysis.query import _kinds as K
from pokerlab.analysis.query._kinds import HIT_DRAW_SCALE
from pokerlab.analysis.query.syntax import (
    AGGREGATES,
    Binary,
    Call,
    Expr,
    Literal,
    Name,
    Query,
    SelectItem,
    Unary,
    describe,
)
from pokerlab.errors import QueryError, RangeError
from pokerlab.evaluation.codes import HighEval
from pokerlab.evaluation.short_deck import category_order
from pokerlab.games import Game
from pokerlab.ranges.pattern import pattern_card_count

__all__ = [
    "AGGREGATES",
    "FUNCTIONS",
    "HAND_TYPES",
    "Compiled",
    "Typed",
    "compile_query",
    "hand_types_of",
]

Array = NDArray[np.float64]
Eval = Callable[[Array], Array]

STREETS = {"flop": 3, "turn": 4, "river": 5}
"""Board games: a street is the number of board cards seen."""
STUD_STREETS = {"third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "river": 7}
"""Stud games: a street is the number of the player's own cards (``river`` = seventh)."""
HAND_TYPES = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "flush",
    "full house",
    "four of a kind",
    "straight flush",
)
_HAND_TYPE_ALIASES = {
    "highcard": 0,
    "nothing": 0,
    "onepair": 1,
    "twopair": 2,
    "trips": 3,
    "set": 3,
    "threeofakind": 3,
    "quads": 7,
    "fourofakind": 7,
    "fullhouse": 6,
    "boat": 6,
    "straightflush": 8,
}


def hand_types_of(high: HighEval) -> tuple[str, ...]:
    """The hand types of the evaluator ``high``, weakest first (a strength's ``>> 12``): the
    usual order, or short deck's (a flush above a full house; three of a kind above a straight,
    or below it by the other rule).

    >>> hand_types_of(HighEval.SHORT_DECK)[3:5]
    ('straight', 'three of a kind')
    >>> hand_types_of(HighEval.SHORT_DECK_STRAIGHTS)[3:5]
    ('three of a kind', 'straight')
    """
    return tuple(HAND_TYPES[category] for category in category_order(high))


RAZZ_TYPES = ("paired", *(f"{r}-low" for r in "KQJT9876543"))
"""Razz hand types, weakest first: a hand whose best low (of its five lowest distinct ranks, or
all its cards before fifth street) holds a pair, else ``'X-low'`` for X the highest of those
ranks (ace low): code ``14 - X`` with X from 3 (``A-2-3`` on third street) to 13 (king)."""
RANK_LETTERS = "23456789TJQKA"
DRAWS = {"flushdraw": 0, "straightdraw": 1}
"""Draws ``handType(p, street)`` can equal (feature ``DRAW``'s argument)."""

FUNCTIONS: dict[str, tuple[tuple[str, ...], str, str]] = {
    # name: (argument kinds, result type, one-line description)
    "flopEquity": (("player",), "unit", "expected pot share seen from the flop"),
    "turnEquity": (("player",), "unit", "expected pot share seen from the turn"),
    "riverEquity": (("player",), "unit", "pot share at the river"),
    "thirdEquity": (("player",), "unit", "stud: expected pot share seen from third street"),
    "fourthEquity": (("player",), "unit", "stud: expected pot share seen from fourth street"),
    "fifthEquity": (("player",), "unit", "stud: expected pot share seen from fifth street"),
    "sixthEquity": (("player",), "unit", "stud: expected pot share seen from sixth street"),
    "seventhEquity": (("player",), "unit", "stud: pot share at seventh street (= riverEquity)"),
    "winsHi": (("player",), "bool", "the player alone has the best high hand at the river"),
    "tiesHi": (("player",), "bool", "the player shares the best high hand at the river"),
    "scoops": (("player",), "bool", "the player takes the whole pot alone"),
    "winsLo": (("player",), "bool", "the player alone has the best qualifying low"),
    "handType": (("player", "street"), "cat", "the player's high-hand category"),
    "minHandType": (("player", "street", "handtype"), "bool", "handType(...) >= the type"),
    "outs": (("player", "next"), "num", "next cards after which the player surely scoops"),
    "nutHi": (("player", "street"), "bool", "no two unseen cards (+ board) beat the hand"),
    "rankAt": (("board", "position"), "rank", "a board card's rank (flop sorted high first)"),
    "suitCount": (("street",), "num", "the most board cards of one suit"),
    "pairedBoard": (("street",), "bool", "two board cards share a rank"),
    "inRange": (("player", "range"), "bool", "the player's holding is in the range"),
    "boardInRange": (("boardrange",), "bool", "the board (3, 4 or 5 cards) matches a pattern"),
    "hits": (("player", "street"), "hit", "the player's board-hit category and draws"),
}


def _key(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalnum())


_HIT_MADE: dict[str, list[int]] = {}
for _c in MADE:
    _HIT_MADE.setdefault(_key(_c.name), []).append(_c.code)
    if _c.group != _c.name:
        _HIT_MADE.setdefault(_key(_c.group), []).append(_c.code)
_HIT_DRAW = {_key(d.name): d.code for d in HIT_DRAWS}
HIT_NAMES = tuple(dict.fromkeys([*(c.group for c in MADE), *(c.name for c in MADE),
                                 *(d.name for d in HIT_DRAWS)]))  # fmt: skip
"""Every name ``hits(...)`` compares with: made categories, their groups, draws."""


def _const(value: float) -> Eval:
    def run(m: Array) -> Array:
        return np.full(m.shape[1], value)

    return run


def _row(index: int) -> Eval:
    def run(m: Array) -> Array:
        return np.asarray(m[index], dtype=np.float64)

    return run


def _unary(fn: Callable[[Array], Array], inner: Eval) -> Eval:
    def run(m: Array) -> Array:
        with np.errstate(over="ignore", invalid="ignore"):  # see _binary
            return np.asarray(fn(inner(m)), dtype=np.float64)

    return run


def _binary(fn: Callable[[Array, Array], Any], left: Eval, right: Eval) -> Eval:
    def run(m: Array) -> Array:
        # a value past a float (1e308 * 10, 0 * a 400-digit literal) is an error the query
        # reports when a select item reaches it; numpy's warning printed two lines before it
        with np.errstate(over="ignore", invalid="ignore"):
            return np.asarray(fn(left(m), right(m)), dtype=np.float64)

    return run


def _divide(a: Array, b: Array) -> Array:
    """``/`` per deal; a deal that divides by zero gets NaN, undefined, like SQL's NULL: no
    comparison with it holds (so ``where`` leaves it out), and a select item that reaches
    one stops the query with an error (an undefined value has no average, and JSON cannot
    hold one)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(b == 0, np.nan, np.divide(a, b))


@dataclass(frozen=True)
class Typed:
    """A compiled expression: its type and the function computing it per deal."""

    type: str  # num, unit, bool, cat, rank
    run: Eval
    literal: float | str | None = None  # for literals: the raw value
    source: tuple[int, int] | None = None  # handType's (player, street): for draw comparisons
    feature: int | None = None  # hits(): its feature row (draws are bits of it)


@dataclass
class Compiled:
    """What the runner needs: the kernel's feature rows and lookup tables, the select items
    and the where filter."""

    players: list[str]
    hand_types: tuple[str, ...] = HAND_TYPES  # what a ``cat`` code names (razz: RAZZ_TYPES)
    spec: list[tuple[int, int, int, int]] = field(default_factory=list)
    ranges: list[str] = field(default_factory=list)  # inRange tables: (player, text)
    range_players: list[int] = field(default_factory=list)
    range_places: list[str] = field(default_factory=list)  # where each range is written
    board_patterns: list[str] = field(default_factory=list)
    select: list[tuple[str, str, Typed]] = field(default_factory=list)  # name, aggregate, expr
    where: Typed | None = None

    def feature(self, kind: int, player: int, street: int, arg: int) -> int:
        row = (kind, player, street, arg)
        if row not in self.spec:
            self.spec.append(row)
        return self.spec.index(row)

    @property
    def streets(self) -> set[int]:
        """Board sizes at which some feature looks (the exact enumeration deals those streets
        as separate stages, each an unordered set of cards). ``rankAt`` of the turn or the
        river also needs the street before it: dealt with the cards before it as one set, the
        card "at" position 4 or 5 would be whichever of the set sorts last."""
        streets = {s for kind, _, s, _ in self.spec if kind != K.IN_RANGE}
        streets |= {i for kind, _, _, i in self.spec if kind == K.RANK_AT and i >= 3}
        return streets


def _suggest(name: str, options: list[str] | tuple[str, ...]) -> str:
    near = difflib.get_close_matches(name, list(options), n=1, cutoff=0.5)
    if not near:
        lowered = {o.lower(): o for o in options}
        near = [lowered[name.lower()]] if name.lower() in lowered else []
    return f" (did you mean '{near[0]}'?)" if near else ""


TYPE_NAMES = {"bool": "a condition", "num": "a number", "unit": "a number", "cat": "a hand type",
              "rank": "a rank", "str": "a quoted string", "hit": "a board hit"}  # fmt: skip
"""The types as errors and the docs name them."""


def _error(at: str, message: str) -> QueryError:
    """``at`` says where: :meth:`Query.at` (``column 12``, or ``line 3, column 12``)."""
    return QueryError(f"{at}: {message}")


def _written(node: Expr) -> str:
    """What the query wrote at ``node``, for an error: ``the quoted text 'villain'``,
    ``the number 3``, or the expression (``winsHi(hero)``)."""
    if isinstance(node, Literal):
        kind = "quoted text" if isinstance(node.value, str) else "number"
        return f"the {kind} {describe(node)}"
    if isinstance(node, Name):
        return f"the name {node.name}"
    return describe(node)


def _what(t: Typed, node: Expr) -> str:
    """A value's type and what was written: ``a condition (winsHi(hero))``; a literal is
    :func:`_written` alone."""
    if isinstance(node, Literal):
        return _written(node)
    return f"{TYPE_NAMES[t.type]} ({describe(node)})"


def _hand_type(text: str, at: str, types: tuple[str, ...] = HAND_TYPES) -> int:
    key = text.lower().replace(" ", "").replace("-", "").replace("_", "")
    for i, name in enumerate(types):
        if key == name.lower().replace(" ", "").replace("-", ""):
            return i
    if types is RAZZ_TYPES:
        key = "tlow" if key == "10low" else "paired" if key == "pair" else key
        for i, name in enumerate(types):
            if key == name.lower().replace("-", ""):
                return i
    elif key in _HAND_TYPE_ALIASES:
        return types.index(HAND_TYPES[_HAND_TYPE_ALIASES[key]])
    raise _error(
        at,
        f"unknown hand type '{text}'{_suggest(text, types)}: expected one of "
        + ", ".join(types)
        + (" (or, with = and !=, flush draw, straight draw)" if types is not RAZZ_TYPES else ""),
    )


def _rank(text: str, at: str) -> int:
    t = text.strip().upper()
    t = "T" if t == "10" else t
    if len(t) != 1 or t not in RANK_LETTERS:
        raise _error(at, f"unknown rank '{text}': expected one of {RANK_LETTERS}")
    return RANK_LETTERS.index(t) + 2


class _Compiler:
    def __init__(
        self, query: Query, players: list[str], split: bool, omaha: bool, game: Game | None
    ) -> None:
        self.at = query.at  # where a node is, as errors say it
        self.out = Compiled(players)
        self.split = split
        self.omaha = omaha
        self.stud = game is not None and game.is_stud
        self.low_only = game is not None and game.high == HighEval.NONE
        self.title = game.title if game is not None else "this game"
        self.streets = STUD_STREETS if self.stud else STREETS
        self.final = max(self.streets.values())
        self.game = game
        if self.low_only:
            self.out.hand_types = RAZZ_TYPES
        elif game is not None:
            self.out.hand_types = hand_types_of(game.high)

    def _no_board(self, fn: str, node: Call) -> None:
        if self.stud:
            raise _error(self.at(node), f"{fn}: {self.title} has no community board")

    # --- arguments -------------------------------------------------------------------------

    def _player(self, arg: Expr, fn: str) -> int:
        players = self.out.players
        if isinstance(arg, Name) and arg.name in players:
            return players.index(arg.name)
        if isinstance(arg, Name):
            raise _error(self.at(arg), f"{fn}: '{arg.name}' is not a player"
                         f"{_suggest(arg.name, players)}: expected one of "
                         f"{', '.join(players)}")  # fmt: skip
        got = _written(arg)
        if isinstance(arg, Literal) and isinstance(arg.value, str):
            near = "" if arg.value in players else _suggest(arg.value, players)
            got += f"{near}; a player is written without quotes"
        raise _error(self.at(arg), f"{fn}: expected a player ({', '.join(players)}), got {got}")

    def _street(self, arg: Expr, fn: str, allowed: tuple[str, ...] | None = None) -> int:
        allowed = tuple(self.streets) if allowed is None else allowed
        if isinstance(arg, Name) and arg.name.lower() in allowed:
            return self.streets[arg.name.lower()]
        if isinstance(arg, Name):
            got = f"'{arg.name}'"
        else:
            got = _written(arg)
            if isinstance(arg, Literal) and isinstance(arg.value, str):
                got += "; a street is written without quotes"
        raise _error(self.at(arg), f"{fn}: expected a street ({', '.join(allowed)}), got {got}")

    def _equity_names(self) -> str:
        names = tuple(self.streets)
        return ", ".join(f"{s}Equity" for s in names)

    def _string(self, arg: Expr, fn: str, what: str) -> str:
        if isinstance(arg, Literal) and isinstance(arg.value, str):
            return arg.value
        raise _error(self.at(arg), f"{fn}: expected {what} in quotes, got {_written(arg)}")

    def _use(self, name: str) -> str:
        """How a bare name in an expression can become a value: a function of that player,
        street or of the board (riverEquity(flop) was suggested for a street)."""
        players = self.out.players
        if name in players:
            return f"call a function such as riverEquity({name})"
        if name.lower() in self.streets:
            if self.stud:
                return f"call a function such as handType({players[0]}, {name})"
            return f"call a function such as suitCount({name})"
        if name.lower() == "board":
            if self.stud:
                return f"{self.title} has no community board"
            return "call a function such as rankAt(board, 1)"
        return (
            f"it names no player{_suggest(name, players)} ({', '.join(players)}) and no street "
            f"({', '.join(self.streets)}); text goes in quotes ('{name}')"
        )

    # --- expressions -----------------------------------------------------------------------

    def expr(self, node: Expr) -> Typed:
        if isinstance(node, Literal):
            value = node.value
            if isinstance(value, str):
                return Typed("str", _const(0.0), value)
            return Typed("num", _const(value), value)
        if isinstance(node, Name):
            raise _error(
                self.at(node), f"'{node.name}' alone is not a value: {self._use(node.name)}"
            )
        if isinstance(node, Call):
            return self.call(node)
        if isinstance(node, Unary):
            inner = self.expr(node.operand)
            if node.op == "not":
                self._expect(inner, ("bool",), node.operand, "'not'")
                return Typed("bool", _unary(lambda x: 1.0 - x, inner.run))
            self._expect(inner, ("num", "unit"), node.operand, "'-'")
            return Typed("num", _unary(np.negative, inner.run))
        return self.binary(node)

    def _expect(
        self, t: Typed, types: tuple[str, ...], node: Expr, where: str, at: SelectItem | None = None
    ) -> None:
        """Refuse ``t`` (the value of ``node``) unless it is of one of ``types``; the error is
        placed at ``at`` (a select item) or else at ``node``."""
        if t.type not in types:
            wanted = " or ".join(dict.fromkeys(TYPE_NAMES[x] for x in types))
            raise _error(self.at(at or node), f"{where} expects {wanted}, got {_what(t, node)}")

    def binary(self, node: Binary) -> Typed:
        left, right = self.expr(node.left), self.expr(node.right)
        op = node.op
        if op in ("and", "or"):
            self._expect(left, ("bool",), node.left, f"'{op}'")
            self._expect(right, ("bool",), node.right, f"'{op}'")
            if op == "and":
                return Typed("bool", _binary(np.multiply, left.run, right.run))
            return Typed("bool", _binary(np.maximum, left.run, right.run))
        if op in ("+", "-", "*", "/"):
            for side, t in ((node.left, left), (node.right, right)):
                self._expect(t, ("num", "unit", "bool", "rank"), side, f"'{op}'")
            fns: dict[str, Callable[[Array, Array], Array]] = {
                "+": np.add,
                "-": np.subtract,
                "*": np.multiply,
                "/": _divide,
            }
            fn = fns[op]
            return Typed("num", _binary(fn, left.run, right.run))
        if "hit" in (left.type, right.type):
            return self._hit(left, right, node)
        draw = self._draw(left, right, node) or self._draw(right, left, node)
        if draw is not None:
            return draw
        left, right = (self._coerce(left, right, node, node.right),
                       self._coerce(right, left, node, node.left))  # fmt: skip
        if {left.type, right.type} & {"cat", "rank"} and left.type != right.type:
            kind = left.type if left.type in ("cat", "rank") else right.type
            example = "'8-low'" if self.low_only else "'flush'"
            hint = (f"a hand type compares with a hand type or a quoted name such as {example}"
                    if kind == "cat" else
                    "a rank compares with a rank or a quoted rank letter such as 'Q'")  # fmt: skip
            raise _error(self.at(node), f"cannot compare {_what(left, node.left)} with "
                         f"{_what(right, node.right)}: {hint}")  # fmt: skip
        ops: dict[str, Callable[[Array, Array], Any]] = {
            "=": np.equal,
            "!=": np.not_equal,
            "<": np.less,
            "<=": np.less_equal,
            ">": np.greater,
            ">=": np.greater_equal,
        }
        cmp = ops[op]
        return Typed("bool", _binary(cmp, left.run, right.run))

    def _draw(self, text: Typed, hand: Typed, node: Binary) -> Typed | None:
        """``handType(p, street) = 'flush draw'`` (or ``!=``): a draw is no rung of the
        category ladder, so it only compares for (in)equality."""
        if text.type != "str" or hand.source is None:
            return None
        key = str(text.literal).lower().replace(" ", "").replace("-", "").replace("_", "")
        if key not in DRAWS:
            return None
        if self.stud:
            raise _error(self.at(node), f"'{text.literal}': draws are board draws; {self.title} "
                         "has no community board")  # fmt: skip
        if node.op not in ("=", "!="):
            raise _error(self.at(node), f"'{text.literal}' compares only with = or !=")
        player, street = hand.source
        self._no_river_draw(street, str(text.literal), node)
        f = self.out.feature(K.DRAW, player, street, DRAWS[key])
        if node.op == "=":
            return Typed("bool", _row(f))
        return Typed("bool", _unary(lambda x: 1.0 - x, _row(f)))

    def _no_river_draw(self, street: int, name: str, node: Binary) -> None:
        """Refuse a draw asked of the river, where it never holds (it silently counted 0)."""
        if street == STREETS["river"]:
            raise _error(self.at(node), f"'{name}' is a draw, and there are no draws at the "
                         "river (no card is to come): ask about the flop or the turn")  # fmt: skip

    def _hit(self, left: Typed, right: Typed, node: Binary) -> Typed:
        """``hits(p, street) <op> 'name'``: a made category or group compares in the game's
        order of hands (``board_categories.made_places``: ``>= 'top pair'`` is top pair or
        better); a draw only with
        = and != (a combo may hold several)."""
        op = node.op
        if left.type != "hit":  # 'name' <op> hits(...): mirror the comparison
            left, right = right, left
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<="}.get(op, op)
        if right.type != "str":
            raise _error(self.at(node), "hits(...) compares with a quoted category name, e.g. "
                         "hits(hero, flop) = 'top pair'")  # fmt: skip
        text = str(right.literal)
        key = _key(text)
        assert left.feature is not None
        row = _row(left.feature)
        if key in _HIT_DRAW:
            if op not in ("=", "!="):
                raise _error(self.at(node), f"'{text}' is a draw: it compares only with = or !=")
            self._no_river_draw(self.out.spec[left.feature][2], text, node)
            bit = float(2 ** _HIT_DRAW[key])

            def has_draw(m: Array) -> Array:
                return np.floor(row(m) / (HIT_DRAW_SCALE * bit)) % 2

            return Typed("bool", has_draw if op == "=" else _unary(lambda x: 1.0 - x, has_draw))
        if key not in _HIT_MADE:
            raise _error(self.at(node), f"unknown board hit '{text}'{_suggest(text, HIT_NAMES)}: "
                         f"expected one of {', '.join(HIT_NAMES)}")  # fmt: skip
        codes = np.array(_HIT_MADE[key], dtype=np.float64)
        # better is a lower place in this game's order of hands (short deck: a flush above a
        # full house, three of a kind above a straight), not a lower code
        places = np.array(made_places(self.game.high if self.game else HighEval.BEST5), float)
        named = places[codes.astype(np.intp)]

        def place(x: Array) -> Array:
            return places[x.astype(np.intp)]

        tests: dict[str, Callable[[Array], Any]] = {
            "=": lambda x: np.isin(x, codes),
            "!=": lambda x: ~np.isin(x, codes),
            ">=": lambda x: place(x) <= named.max(),
            ">": lambda x: place(x) < named.min(),
            "<=": lambda x: place(x) >= named.min(),
            "<": lambda x: place(x) > named.max(),
        }
        return Typed("bool", _unary(tests[op], left.run))

    def _coerce(self, t: Typed, other: Typed, node: Binary, other_node: Expr) -> Typed:
        """A quoted string compared with a hand type or a rank (``other``, the value of
        ``other_node``) becomes that hand type's or rank's code."""
        if t.type != "str":
            return t
        text = str(t.literal)
        if other.type == "cat":
            code = _hand_type(text, self.at(node), self.out.hand_types)
        elif other.type == "rank":
            code = _rank(text, self.at(node))
        else:
            raise _error(
                self.at(node),
                f"'{text}' can only be compared with a hand type or a rank, not with "
                f"{_what(other, other_node)}",
            )
        return Typed(other.type, _const(float(code)), code)

    def call(self, node: Call) -> Typed:
        name = node.name
        if name not in FUNCTIONS:
            known = [*FUNCTIONS, *AGGREGATES]
            raise _error(self.at(node), f"unknown function '{name}'{_suggest(name, known)}")
        kinds, result, _ = FUNCTIONS[name]
        if len(node.args) != len(kinds):
            raise _error(
                self.at(node),
                f"{name} takes {counted(len(kinds), 'argument')} "
                f"({', '.join(kinds)}), got {len(node.args)}",
            )
        a = node.args
        o = self.out
        if name.endswith("Equity"):
            street_name = name[: -len("Equity")]
            if street_name not in self.streets:
                raise _error(self.at(node), f"{name}: {self.title} has no {street_name} street; "
                             f"its equities are {self._equity_names()}")  # fmt: skip
            street = self.streets[street_name]
            f = o.feature(K.EQUITY, self._player(a[0], name), street, 0)
        elif name in ("winsHi", "tiesHi", "scoops", "winsLo"):
            if name == "winsLo" and not (self.split or self.low_only):
                raise _error(self.at(node), "winsLo: this game has no low half")
            if name in ("winsHi", "tiesHi") and self.low_only:
                raise _error(self.at(node), f"{name}: {self.title} has no high half (the low "
                             "takes the whole pot): use winsLo or scoops")  # fmt: skip
            kinds_of = {"winsHi": K.WINS_HI, "tiesHi": K.TIES_HI, "scoops": K.SCOOPS,
                        "winsLo": K.WINS_LO}  # fmt: skip
            f = o.feature(kinds_of[name], self._player(a[0], name), self.final, 0)
        elif name in ("handType", "minHandType"):
            p = self._player(a[0], name)
            street = self._street(a[1], name)
            f = o.feature(K.HAND_CAT, p, street, 0)
            if name == "minHandType":
                code = _hand_type(self._string(a[2], name, "a hand type"), self.at(a[2]),
                                  self.out.hand_types)  # fmt: skip
                return Typed("bool", _binary(np.greater_equal, _row(f), _const(code)))
            return Typed("cat", _row(f), source=(p, street))
        elif name == "outs":
            # stud: hands of five cards and more are ranked in full (three or four cards only
            # by category), so outs look from fifth or sixth street
            next_streets = ("fifth", "sixth") if self.stud else ("flop", "turn")
            street = self._street(a[1], name, next_streets)
            f = o.feature(K.OUTS, self._player(a[0], name), street, 0)
        elif name == "nutHi":
            self._no_board(name, node)
            f = o.feature(K.NUT_HI, self._player(a[0], name), self._street(a[1], name), 0)
        elif name == "rankAt":
            self._no_board(name, node)
            if not (isinstance(a[0], Name) and a[0].name == "board"):
                raise _error(self.at(a[0]), "rankAt: the first argument is the word board, got "
                             f"{_written(a[0])}")  # fmt: skip
            pos = a[1]
            if not (isinstance(pos, Literal) and pos.value in (1.0, 2.0, 3.0, 4.0, 5.0)):
                raise _error(self.at(pos), "rankAt: expected a board position 1..5, got "
                             f"{_written(pos)}")  # fmt: skip
            i = int(pos.value) - 1
            f = o.feature(K.RANK_AT, 0, max(3, i + 1), i)
        elif name in ("suitCount", "pairedBoard"):
            self._no_board(name, node)
            kind = K.SUIT_COUNT if name == "suitCount" else K.PAIRED_BOARD
            f = o.feature(kind, 0, self._street(a[0], name), 0)
        elif name == "inRange":
            p = self._player(a[0], name)
            text = self._string(a[1], name, "a range")
            o.ranges.append(text)
            o.range_players.append(p)
            o.range_places.append(self.at(a[1]))
            f = o.feature(K.IN_RANGE, p, 0, len(o.ranges) - 1)
        elif name == "boardInRange":
            self._no_board(name, node)
            text = self._string(a[0], name, "a board pattern")
            try:
                size = pattern_card_count(text)
            except RangeError as exc:
                raise _error(self.at(a[0]), f"boardInRange: {exc}") from None
            if size not in (3, 4, 5):
                raise _error(self.at(a[0]), f"boardInRange: a pattern of 3, 4 or 5 board cards "
                             f"(flop, turn, river), got {size}")  # fmt: skip
            o.board_patterns.append(text)
            f = o.feature(K.BOARD_IN, 0, size, len(o.board_patterns) - 1)
        elif name == "hits":
            self._no_board(name, node)
            p = self._player(a[0], name)
            f = o.feature(K.HITS, p, self._street(a[1], name), 0)
            row = _row(f)
            return Typed("hit", _unary(lambda x: x % HIT_DRAW_SCALE, row), feature=f)
        return Typed(result, _row(f))


def compile_query(
    query: Query,
    players: list[str],
    split: bool = False,
    omaha: bool = False,
    game: Game | None = None,
) -> Compiled:
    """Type-check ``query`` against the named players and build what the runner needs
    (``split``: the game has a low half; ``omaha``: hands use exactly two hole cards; ``game``:
    stud games have streets third..seventh and no board, razz hand types are lows, short-deck
    hand types are in that game's order)."""
    c = _Compiler(query, players, split, omaha, game)
    for item in query.select:
        aggregate = item.aggregate.lower()
        if aggregate not in AGGREGATES:
            raise _error(
                c.at(item),
                f"unknown aggregate '{item.aggregate}'{_suggest(item.aggregate, AGGREGATES)}: "
                f"expected one of {', '.join(AGGREGATES)}",
            )
        typed = c.expr(item.expr)
        if aggregate == "count":
            c._expect(typed, ("bool",), item.expr, "count", item)
        elif aggregate == "histogram":
            c._expect(typed, ("bool", "num", "unit", "cat", "rank", "hit"), item.expr,
                      "histogram", item)  # fmt: skip
        else:
            c._expect(typed, ("bool", "num", "unit", "cat", "rank"), item.expr, aggregate, item)
            if aggregate == "avg" and typed.type == "cat":
                raise _error(c.at(item), "avg of a hand type has no meaning; use histogram, "
                             "min or max")  # fmt: skip
        c.out.select.append((item.name, aggregate, typed))
    if query.where is not None:
        where = c.expr(query.where)
        c._expect(where, ("bool",), query.where, "where")
        c.out.where = where
    return c.out
