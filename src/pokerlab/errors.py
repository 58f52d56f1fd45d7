"""The one exception tree of pokerlab.

Every error pokerlab raises for bad input derives from :class:`PokerlabError` and also from the
matching builtin, so ``except ValueError`` keeps working for callers who do not know pokerlab::

    PokerlabError                      base of everything below
    ├── CardError(ValueError)          a malformed card token ("Xs", "A", "1h")
    │   └── DuplicateCardError         one card used twice in a request
    ├── RangeError(ValueError)         a range that does not parse, or is empty/impossible
    │   └── EmptyRangeError            a range with no combo left after removing known cards
    ├── GameError(ValueError)          a request the game's rules do not allow
    │                                  (board of 2 cards, too many players for the deck, ...)
    ├── TooLargeError(ValueError)      an exact computation too large to enumerate
    ├── QueryError(ValueError)         a query that does not parse or names what does not exist
    ├── CancelledError(RuntimeError)   a long computation stopped by its caller
    └── ClusterError(RuntimeError)     a compute backend that cannot be used (Dask not
                                       installed, a scheduler that does not answer)

Messages name the input that is wrong and say what would be right, e.g.
``invalid card 'Xs' at character 1: rank must be one of 23456789TJQKA``. Where the public function
knows which of its arguments is at fault, the error's ``field`` names it (``"board"``,
``"dead"``, ``"players.1"`` for the second player, ``"trials"`` ...), so a form can show the
message next to that input; :class:`blame` (a context manager) sets it.

>>> try:
...     with blame("board"):
...         raise CardError("invalid card 'Xs'")
... except CardError as exc:
...     exc.field
'board'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import numpy as np

__all__ = [
    "CancelledError",
    "CardError",
    "ClusterError",
    "DuplicateCardError",
    "EmptyRangeError",
    "GameError",
    "PokerlabError",
    "QueryError",
    "RangeError",
    "TooLargeError",
    "blame",
    "cluster_failures",
    "described",
    "flag_argument",
    "list_argument",
    "shorten",
]

ECHO_LIMIT = 60
"""Inputs echoed in error messages are cut to this many characters (see :func:`shorten`)."""


def shorten(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` as an error message echoes it: cut to ``limit`` characters with ``...`` when
    longer, so a 100,000-character input does not make a 100 KB message.

    >>> shorten("QQ+," * 30)
    'QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,QQ+,Q...'
    """
    return text if len(text) <= limit else text[: limit - 3] + "..."


_LONG_WORD = re.compile(rf"\S{{{ECHO_LIMIT + 1},}}")


def shorten_echoes(message: str) -> str:
    """``message`` with every run of more than :data:`ECHO_LIMIT` non-blank characters (an
    echoed input; no word of pokerlab's own is that long) cut by :func:`shorten`. Every
    :class:`PokerlabError` message passes through it, so no message grows with its input."""
    return _LONG_WORD.sub(_shorten_word, message)


def _shorten_word(match: re.Match[str]) -> str:
    word = match.group()
    tail = len(word) - len(word.rstrip("'\",:;.)"))  # keep a closing quote or punctuation
    return shorten(word[: len(word) - tail]) + word[len(word) - tail :]


class PokerlabError(Exception):
    """Base class of every error pokerlab raises on purpose.

    ``field``: the argument of the public function the error is about (``None`` when unknown or
    when it concerns the request as a whole)."""

    def __init__(self, *args: object, field: str | None = None) -> None:
        if args and isinstance(args[0], str):
            args = (shorten_echoes(args[0]), *args[1:])
        super().__init__(*args)
        self.field = field


class CardError(PokerlabError, ValueError):
    """A card token that is not a card (bad rank, bad suit, missing suit)."""


class DuplicateCardError(CardError):
    """The same card appears twice in one request (hand, board, dead cards)."""


class RangeError(PokerlabError, ValueError):
    """A range that does not parse; the message names the position and what was expected."""


class EmptyRangeError(RangeError):
    """A range that holds no combo (after removing the cards already known)."""


class GameError(PokerlabError, ValueError):
    """A request the rules of the game do not allow (board size, player count, hand size)."""


class TooLargeError(PokerlabError, ValueError):
    """An exact computation that would take too long; the message says how large it is and,
    after a semicolon, the ``remedies``: the ways to make it fit, joined as a sentence ("narrow
    the ranges, or allow more time (--time)"). An interface whose caller has other words for a
    way (a web form has no ``--time``) swaps it with :meth:`with_remedies`, not by editing the
    text.

    >>> e = TooLargeError("too large", remedies=("narrow the ranges", "allow more time (--time)"))
    >>> str(e)
    'too large; narrow the ranges, or allow more time (--time)'
    >>> str(e.with_remedies(r for r in e.remedies if "--time" not in r))
    'too large; narrow the ranges'
    """

    def __init__(
        self, message: str, *, field: str | None = None, remedies: str | Iterable[str] = ()
    ) -> None:
        self.remedies = _remedies(remedies)
        self.reason = message
        super().__init__(_with_remedies(message, self.remedies), field=field)

    def with_remedies(self, remedies: str | Iterable[str]) -> TooLargeError:
        """This error (the same object, its field kept) saying ``remedies`` instead."""
        self.remedies = _remedies(remedies)
        self.args = (shorten_echoes(_with_remedies(self.reason, self.remedies)), *self.args[1:])
        return self


def _join_ways(ways: Sequence[str]) -> str:
    """Ways to do something as one phrase: ``a``, ``a, or b``, ``a, b, or c``."""
    return ways[0] if len(ways) == 1 else ", ".join(ways[:-1]) + ", or " + ways[-1]


def _remedies(remedies: str | Iterable[str]) -> tuple[str, ...]:
    """One remedy or several as a tuple (a lone string is one remedy, not its letters)."""
    return (remedies,) if isinstance(remedies, str) else tuple(remedies)


def _with_remedies(message: str, remedies: Sequence[str]) -> str:
    return f"{message}; {_join_ways(remedies)}" if remedies else message


class CancelledError(PokerlabError, RuntimeError):
    """A long computation that its caller cancelled."""


class ClusterError(PokerlabError, RuntimeError):
    """A compute backend that cannot be used: Dask missing, a scheduler that does not answer."""


def described(value: object) -> str:
    """A refused argument as a message names it: its type, then its ``repr`` cut by
    :func:`shorten`.

    >>> described(5), described(b"QQ+")
    ('int 5', "bytes b'QQ+'")
    """
    return f"{type(value).__name__} {shorten(repr(value))}"


def list_argument(value: object, name: str, what: str, single: tuple[type, ...] = ()) -> list[Any]:
    """``value`` as a list when it is a sequence, else :class:`GameError` naming ``name`` (the
    argument that takes a list of ``what``): a string or bytes is not a list of its characters
    (``vs=b"random"`` said "got 114"), nor ``None`` or an int "not iterable", nor one of the
    ``single`` types (one item where a list goes, such as one ``Range`` for ``players``).

    >>> list_argument("AhAs", "players", "hands or ranges, one per player")
    Traceback (most recent call last):
    ...
    pokerlab.errors.GameError: players must be a list of hands or ranges, one per player, got 'AhAs'
    """
    if isinstance(value, (str, bytes, *single)) or not isinstance(value, Sequence):
        raise GameError(f"{name} must be a list of {what}, got {shorten(repr(value))}",
                        field=name)  # fmt: skip
    return list(value)


def flag_argument(value: object, name: str) -> bool:
    """``value`` as a bool when it is one (numpy's too), else :class:`GameError` naming ``name``:
    a flag took any value by its truth, so ``straight_beats_trips="no"`` ranked by that rule.

    >>> flag_argument(np.bool_(True), "check")
    True
    >>> flag_argument("no", "check")
    Traceback (most recent call last):
    ...
    pokerlab.errors.GameError: check must be True or False, got str 'no'
    """
    if not isinstance(value, bool | np.bool_):
        raise GameError(f"{name} must be True or False, got {described(value)}", field=name)
    return bool(value)


class blame:  # used as a function: `with blame("board"):`
    """Name ``field`` as the cause of a :class:`PokerlabError` raised inside the block, unless a
    more precise ``field`` was already set deeper down. (A class, not a generator context
    manager: it wraps every step of validating a request, and costs a third as much.)"""

    __slots__ = ("field",)

    def __init__(self, field: str) -> None:
        self.field = field

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: BaseException | None, tb: object) -> None:
        if isinstance(exc, PokerlabError) and exc.field is None:
            exc.field = self.field


@contextmanager
def cluster_failures() -> Iterator[None]:
    """Inside the block, a failure of the compute cluster itself (a lost worker or scheduler, a
    task that crashed) becomes one :class:`ClusterError` line; pokerlab's own errors pass."""
    try:
        yield
    except PokerlabError:
        raise
    except Exception as exc:
        raise ClusterError(
            f"the cluster failed during the run: {type(exc).__name__}: {shorten(str(exc))}"
        ) from exc


class QueryError(PokerlabError, ValueError):
    """A query (``pokerlab query``) that does not parse or asks for something that does not exist;
    the message names the column and what was expected."""
