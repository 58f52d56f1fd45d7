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
    └── CancelledError(RuntimeError)   a long computation stopped by its caller

Messages name the input that is wrong and say what would be right, e.g.
``invalid card 'Xs' at position 1: rank must be one of 23456789TJQKA``.
"""

from __future__ import annotations

__all__ = [
    "CancelledError",
    "CardError",
    "DuplicateCardError",
    "EmptyRangeError",
    "GameError",
    "PokerlabError",
    "RangeError",
    "TooLargeError",
]


class PokerlabError(Exception):
    """Base class of every error pokerlab raises on purpose."""


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
    """An exact computation that would take too long; the message says how large it is."""


class CancelledError(PokerlabError, RuntimeError):
    """A long computation that its caller cancelled."""
