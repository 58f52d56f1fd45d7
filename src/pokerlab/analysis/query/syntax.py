"""The query language's grammar (lark) and its syntax tree.

The grammar below is the one written out in EBNF in ``docs/query.md``; keywords are
case-insensitive. :func:`parse` returns a :class:`Query` or raises
:class:`~pokerlab.errors.QueryError` with one line naming the column and what was expected:

>>> q = parse("select avg(riverEquity(hero)) as eq from hero='AhAs', villain='KdKc'")
>>> q.select[0].name, q.select[0].aggregate, [s.key for s in q.sources]
('eq', 'avg', ['hero', 'villain'])
>>> parse("select avg(riverEquity(hero) from hero='AhAs'")
Traceback (most recent call last):
...
pokerlab.errors.QueryError: column 30: expected ')', ',' or an operator, got 'from'
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from pokerlab.errors import QueryError

__all__ = [
    "Binary",
    "Call",
    "Expr",
    "Literal",
    "Name",
    "Query",
    "SelectItem",
    "Source",
    "Unary",
    "parse",
]

GRAMMAR = r"""
start: _SELECT select_item ("," select_item)* _FROM source ("," source)* [_WHERE expr]

select_item: NAME "(" expr ")" [_AS NAME]
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
STRING: /'[^']*'/ | /"[^"]*"/
NUMBER: /\d+(\.\d*)?|\.\d+/
SIGNED_NUMBER: /[+-]?(\d+(\.\d*)?|\.\d+)/

%import common.WS
%ignore WS
"""

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


@dataclass(frozen=True)
class Name:
    """A bare name: a player, a street, ``board``."""

    name: str
    column: int


@dataclass(frozen=True)
class Call:
    """A function applied to arguments."""

    name: str
    args: tuple[Expr, ...]
    column: int


@dataclass(frozen=True)
class Unary:
    """``not x`` or ``-x``."""

    op: str
    operand: Expr
    column: int


@dataclass(frozen=True)
class Binary:
    """``a op b`` for ``and or = != < <= > >= + - * /``."""

    op: str
    left: Expr
    right: Expr
    column: int


Expr = Literal | Name | Call | Unary | Binary


@dataclass(frozen=True)
class SelectItem:
    """``aggregate(expr) as name``; ``name`` defaults to the item's text."""

    aggregate: str
    expr: Expr
    name: str
    column: int


@dataclass(frozen=True)
class Source:
    """A ``from`` item: ``key = value`` or a bare ``key`` (value ``None``)."""

    key: str
    value: float | str | None
    column: int


@dataclass(frozen=True)
class Query:
    """A parsed query."""

    select: tuple[SelectItem, ...]
    sources: tuple[Source, ...]
    where: Expr | None
    text: str


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
        # lark places the end-of-input token at column 1; the end is after the last character
        column = len(text) + 1 if exc.token.type == "$END" else exc.column
        raise QueryError(
            f"column {column}: expected {_expected_text(set(exc.expected))}, got {got}"
        ) from None
    except UnexpectedCharacters as exc:
        raise QueryError(
            f"column {exc.column}: unexpected character '{text[exc.pos_in_stream or 0]}'"
        ) from None
    except UnexpectedEOF as exc:
        raise QueryError(
            f"column {len(text) + 1}: the query ends early: expected "
            f"{_expected_text(set(exc.expected))}"
        ) from None
    return _build(tree, text)


def _column(node: Any) -> int:
    meta = getattr(node, "meta", None)
    if meta is not None and not meta.empty:
        return int(meta.column)
    return int(getattr(node, "column", 0) or 0)


def _unquote(token: str) -> str:
    return token[1:-1]


def _expr(node: Any) -> Expr:
    from lark import Token

    if isinstance(node, Token):
        if node.type == "NAME":
            return Name(str(node), int(node.column or 0))
        if node.type == "STRING":
            return Literal(_unquote(str(node)), int(node.column or 0))
        return Literal(float(node), int(node.column or 0))
    kind = node.data
    col = _column(node)
    kids = node.children
    if kind == "number":
        return Literal(float(kids[0]), col)
    if kind == "string":
        return Literal(_unquote(str(kids[0])), col)
    if kind == "name":
        return Name(str(kids[0]), col)
    if kind == "call":
        args = tuple(_expr(k) for k in kids[1:] if k is not None)
        return Call(str(kids[0]), args, col)
    if kind == "neg":
        return Unary("-", _expr(kids[0]), col)
    if kind == "not_":
        return Unary("not", _expr(kids[0]), col)
    if kind in ("or_expr", "and_expr"):
        op = "or" if kind == "or_expr" else "and"
        out = _expr(kids[0])
        for k in kids[1:]:
            out = Binary(op, out, _expr(k), col)
        return out
    # comparison, sum, product: operands alternate with operator tokens
    out = _expr(kids[0])
    for i in range(1, len(kids), 2):
        op = str(kids[i])
        op = {"==": "=", "<>": "!="}.get(op, op)
        out = Binary(op, out, _expr(kids[i + 1]), col)
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
            select.append(SelectItem(str(agg), _expr(expr), name, _column(child)))
        elif getattr(child, "data", None) == "source":
            key, value = child.children
            parsed: float | str | None = None
            if value is not None:
                v = _expr(value)
                parsed = v.name if isinstance(v, Name) else v.value  # type: ignore[union-attr]
            sources.append(Source(str(key), parsed, _column(child)))
        else:
            where = _expr(child)
    return Query(tuple(select), tuple(sources), where, text)
