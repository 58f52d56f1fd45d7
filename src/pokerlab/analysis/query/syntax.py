"""The query language's grammar (lark) and its syntax tree.

The grammar below is the one written out in EBNF in ``docs/query.md``; keywords are
case-insensitive. :func:`parse` returns a :class:`Query` or raises
:class:`~pokerlab.errors.QueryError` with one line naming the column (and the line, when the
query has several) and what was expected:

>>> q = parse("select avg(riverEquity(hero)) as eq from hero='AhAs', villain='KdKc'")
>>> q.select[0].name, q.select[0].aggregate, [s.key for s in q.sources]
('eq', 'avg', ['hero', 'villain'])
>>> parse("select avg(riverEquity(hero) from hero='AhAs'")
Traceback (most recent call last):
...
pokerlab.errors.QueryError: column 30: expected ')', ',' or an operator, got 'from'
>>> parse("select avg(riverEquity(hero)\\nfrom hero='AhAs'")
Traceback (most recent call last):
...
pokerlab.errors.QueryError: line 2, column 1: expected ')', ',' or an operator, got 'from'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pokerlab.errors import QueryError

__all__ = [
    "AGGREGATES",
    "Binary",
    "Call",
    "Expr",
    "Literal",
    "Name",
    "Query",
    "SelectItem",
    "Source",
    "Unary",
    "describe",
    "parse",
    "place",
]

AGGREGATES = ("avg", "count", "histogram", "min", "max")
KEYWORDS = ("select", "from", "where", "as", "and", "or", "not")

GRAMMAR = r"""
start: _SELECT select_item ("," select_item)* _FROM source ("," source)* [_WHERE expr]

select_item: AGGREGATE "(" expr ")" [_AS NAME]
source: NAME ["=" value]
?value: STRING -> string
      | SIGNED_NUMBER -> number
      | NAME -> name

?expr: or_expr
?or_expr: and_expr (_OR and_expr)*
?and_expr: not_expr (_AND not_expr)*
?not_expr: _NOT not_expr -> not_
         | comparison
?comparison: sum (COMPARE sum)?
?sum: product (ADD_OP product)*
?product: unary (MUL_OP unary)*
?unary: "-" unary -> neg
      | atom
?atom: NUMBER -> number
     | STRING -> string
     | NAME "(" [expr ("," expr)*] ")" -> call
     | NAME -> name
     | "(" expr ")"

_SELECT: "select"i
_FROM: "from"i
_WHERE: "where"i
_AS: "as"i
_AND: "and"i
_OR: "or"i
_NOT: "not"i
COMPARE: "<=" | ">=" | "!=" | "<>" | "==" | "=" | "<" | ">"
ADD_OP: "+" | "-"
MUL_OP: "*" | "/"
NAME: /[A-Za-z_][A-Za-z0-9_]*/
// a name that is no keyword: "select from ..." misses an aggregate (it is no aggregate 'from')
AGGREGATE: /(?!(?i:KEYWORDS)\b)[A-Za-z_][A-Za-z0-9_]*/
STRING: /'[^']*'/ | /"[^"]*"/
NUMBER: /[0-9]+(\.[0-9]*)?|\.[0-9]+/
SIGNED_NUMBER: /[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)/

%import common.WS
%ignore WS
""".replace("KEYWORDS", "|".join(KEYWORDS))

_TOKEN_WORDS = {
    "_SELECT": "'select'",
    "_FROM": "'from'",
    "_WHERE": "'where'",
    "_AS": "'as'",
    "_AND": "'and'",
    "_OR": "'or'",
    "_NOT": "'not'",
    "COMPARE": "an operator",
    "ADD_OP": "an operator",
    "MUL_OP": "an operator",
    "NAME": "a name",
    "AGGREGATE": f"an aggregate ({', '.join(AGGREGATES)})",
    "STRING": "a quoted string",
    "NUMBER": "a number",
    "SIGNED_NUMBER": "a number",
    "COMMA": "','",
    "LPAR": "'('",
    "RPAR": "')'",
    "EQUAL": "'='",
    "MINUS": "'-'",
    "$END": "the end",
}


@dataclass(frozen=True)
class Literal:
    """A number or a quoted string."""

    value: float | str
    column: int
    line: int = 1


@dataclass(frozen=True)
class Name:
    """A bare name: a player, a street, ``board``."""

    name: str
    column: int
    line: int = 1


@dataclass(frozen=True)
class Call:
    """A function applied to arguments."""

    name: str
    args: tuple[Expr, ...]
    column: int
    line: int = 1


@dataclass(frozen=True)
class Unary:
    """``not x`` or ``-x``."""

    op: str
    operand: Expr
    column: int
    line: int = 1


@dataclass(frozen=True)
class Binary:
    """``a op b`` for ``and or = != < <= > >= + - * /``."""

    op: str
    left: Expr
    right: Expr
    column: int
    line: int = 1


Expr = Literal | Name | Call | Unary | Binary
"""Every node, select item and source has the ``line`` and ``column`` (from 1) where it starts."""


@dataclass(frozen=True)
class SelectItem:
    """``aggregate(expr) as name``; ``name`` defaults to the item's text."""

    aggregate: str
    expr: Expr
    name: str
    column: int
    line: int = 1


@dataclass(frozen=True)
class Source:
    """A ``from`` item: ``key = value`` or a bare ``key`` (value ``None``)."""

    key: str
    value: float | str | None
    column: int
    line: int = 1


@dataclass(frozen=True)
class Query:
    """A parsed query."""

    select: tuple[SelectItem, ...]
    sources: tuple[Source, ...]
    where: Expr | None
    text: str

    def at(self, node: Expr | SelectItem | Source) -> str:
        """Where ``node`` starts, as errors say it: ``column 12``, or ``line 3, column 12``
        when the query has several lines."""
        return place(self.text, node.line, node.column)


def place(text: str, line: int, column: int) -> str:
    """``column N`` in a one-line query, ``line L, column N`` in one of several lines."""
    return f"line {line}, column {column}" if "\n" in text.strip() else f"column {column}"


def _end(text: str) -> str:
    """Just after the query's last character (lark places the end of input at column 1)."""
    lines = text.rstrip().split("\n")
    return place(text, len(lines), len(lines[-1]) + 1)


_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "=": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
               "+": 5, "-": 5, "*": 6, "/": 6}  # fmt: skip


def describe(node: Expr) -> str:
    """An expression written back as query text (as errors quote it): ``winsHi(hero)``,
    ``'pair'``, ``riverEquity(hero) * 2``; parentheses only where the grammar needs them."""
    if isinstance(node, Literal):
        if isinstance(node.value, str):
            quote = '"' if "'" in node.value else "'"
            return f"{quote}{node.value}{quote}"
        return str(int(node.value)) if node.value.is_integer() else repr(node.value)
    if isinstance(node, Name):
        return node.name
    if isinstance(node, Call):
        return f"{node.name}({', '.join(describe(a) for a in node.args)})"
    if isinstance(node, Unary):
        inner = describe(node.operand)
        if isinstance(node.operand, Binary) and (
            node.op == "-" or _PRECEDENCE[node.operand.op] < _PRECEDENCE["not"]
        ):  # '-' binds tighter than any operator; 'not' looser than comparisons
            inner = f"({inner})"
        return f"not {inner}" if node.op == "not" else f"-{inner}"
    rank = _PRECEDENCE[node.op]
    left, right = describe(node.left), describe(node.right)
    if isinstance(node.left, Binary) and (
        _PRECEDENCE[node.left.op] < rank or _PRECEDENCE[node.left.op] == rank == 4
    ):  # comparisons do not chain
        left = f"({left})"
    if isinstance(node.right, Binary) and _PRECEDENCE[node.right.op] <= rank:
        right = f"({right})"
    return f"{left} {node.op} {right}"


@cache
def _parser() -> Any:
    from lark import Lark

    return Lark(GRAMMAR, parser="lalr", propagate_positions=True, maybe_placeholders=True)


def _describe_token(token: Any) -> str:
    if token.type == "$END":
        return "the end of the query"
    return f"'{token}'"


def _expected_text(expected: set[str]) -> str:
    words = sorted({_TOKEN_WORDS.get(e, e.lower()) for e in expected} - {"'and'", "'or'"})
    if len(words) > 5:
        words = [*words[:5], "..."]
    if len(words) <= 2:
        return " or ".join(words)
    return ", ".join(words[:-1]) + " or " + words[-1]


def parse(text: str) -> Query:
    """Parse a query; syntax errors raise :class:`QueryError` naming the column."""
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    if not isinstance(text, str):
        raise QueryError(f"a query is text (str), got {type(text).__name__}")
    if not text.strip():
        raise QueryError("empty query: expected 'select ... from ...'")
    try:
        tree = _parser().parse(text)
    except UnexpectedToken as exc:
        got = _describe_token(exc.token)
        at = _end(text) if exc.token.type == "$END" else place(text, exc.line, exc.column)
        raise QueryError(f"{at}: expected {_expected_text(set(exc.expected))}, got {got}") from None
    except UnexpectedCharacters as exc:
        char = text[exc.pos_in_stream or 0]
        hint = ": write a percentage as a fraction (0.1% is 0.001)" if char == "%" else ""
        raise QueryError(
            f"{place(text, exc.line, exc.column)}: unexpected character '{char}'{hint}"
        ) from None
    except UnexpectedEOF as exc:
        raise QueryError(
            f"{_end(text)}: the query ends early: expected {_expected_text(set(exc.expected))}"
        ) from None
    _refuse_deep(tree, text)
    return _build(tree, text)


MAX_NESTING = 200
"""How deep an expression may nest, each operator of a run (``1 + 2 + 3``) counted as a level:
building and compiling it recurse once or twice a level, and 498 ``+`` overflowed the stack."""


def _refuse_deep(tree: Any, text: str) -> None:
    """:class:`QueryError` when an expression of ``tree`` nests more than :data:`MAX_NESTING`
    levels (walked with a stack of its own, as deep as the text allows)."""
    from lark import Tree

    stack: list[tuple[Any, int]] = [(tree, 0)]
    while stack:
        node, depth = stack.pop()
        if not isinstance(node, Tree):
            continue
        kids = len(node.children)  # a run of n operators nests n deep once built
        if node.data in ("or_expr", "and_expr"):
            depth += kids - 1
        elif node.data in ("sum", "product", "comparison"):
            depth += kids // 2
        else:
            depth += 1
        if depth > MAX_NESTING:
            raise QueryError(
                f"{place(text, *reversed(_position(node)))}: the expression nests more than "
                f"{MAX_NESTING} levels (each operator of a run counts one): simplify it"
            )
        stack.extend((child, depth) for child in node.children)


def _position(node: Any) -> tuple[int, int]:
    """A tree node's or token's (column, line)."""
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return int(meta.column), int(meta.line)
    return int(getattr(node, "column", 0) or 0), int(getattr(node, "line", 1) or 1)


def _unquote(token: str) -> str:
    return token[1:-1]


def _expr(node: Any) -> Expr:
    from lark import Token

    if isinstance(node, Token):
        at = _position(node)
        if node.type == "NAME":
            return Name(str(node), *at)
        if node.type == "STRING":
            return Literal(_unquote(str(node)), *at)
        return Literal(float(node), *at)
    kind = node.data
    at = _position(node)
    kids = node.children
    if kind == "number":
        return Literal(float(kids[0]), *at)
    if kind == "string":
        return Literal(_unquote(str(kids[0])), *at)
    if kind == "name":
        return Name(str(kids[0]), *at)
    if kind == "call":
        args = tuple(_expr(k) for k in kids[1:] if k is not None)
        return Call(str(kids[0]), args, *at)
    if kind == "neg":
        return Unary("-", _expr(kids[0]), *at)
    if kind == "not_":
        return Unary("not", _expr(kids[0]), *at)
    if kind in ("or_expr", "and_expr"):
        op = "or" if kind == "or_expr" else "and"
        out = _expr(kids[0])
        for k in kids[1:]:
            out = Binary(op, out, _expr(k), *at)
        return out
    # comparison, sum, product: operands alternate with operator tokens
    out = _expr(kids[0])
    for i in range(1, len(kids), 2):
        op = str(kids[i])
        op = {"==": "=", "<>": "!="}.get(op, op)
        out = Binary(op, out, _expr(kids[i + 1]), *at)
    return out


def _build(tree: Any, text: str) -> Query:
    select: list[SelectItem] = []
    sources: list[Source] = []
    where: Expr | None = None
    for child in tree.children:
        if child is None:
            continue
        if getattr(child, "data", None) == "select_item":
            agg, expr, alias = child.children
            meta = child.meta
            name = str(alias) if alias is not None else text[meta.start_pos : meta.end_pos]
            select.append(SelectItem(str(agg), _expr(expr), name, *_position(child)))
        elif getattr(child, "data", None) == "source":
            key, value = child.children
            parsed: float | str | None = None
            if value is not None:
                v = _expr(value)
                parsed = v.name if isinstance(v, Name) else v.value  # type: ignore[union-attr]
            sources.append(Source(str(key), parsed, *_position(child)))
        else:
            where = _expr(child)
    return Query(tuple(select), tuple(sources), where, text)
