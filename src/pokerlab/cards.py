"""Cards: the integer encoding, parsing, formatting, the deck and 64-bit masks.

Encoding
--------
A card is an integer ``code = 4 * rank + suit`` in ``0..51`` where ``rank`` is ``0..12`` for
``2 3 4 5 6 7 8 9 T J Q K A`` and ``suit`` is ``0..3`` for ``c d h s``. So ``2c`` is 0, ``2s`` is 3,
``As`` is 51. A set of cards is a 64-bit mask with bit ``code`` set for each card.

:class:`Card` is an ``int`` subclass, so ``int(card)`` is its code and cards go straight into numpy
arrays; ``str(card)`` is the canonical two-character form (``Td``, never ``10d``).

Parsing
-------
:func:`parse_cards` accepts ranks in any letter case with ``T`` or ``10`` for ten, suits in either
case, and cards separated by spaces and/or commas or run together (``AsKd``, ``As Kd``,
``As,Kd``, ``10d9d``). Errors name the bad token and its 1-based character position (for a
duplicate, the numbers of the two cards):

>>> parse_cards("As 10d kh")
[Card('As'), Card('Td'), Card('Kh')]
>>> parse_cards("AsXd")
Traceback (most recent call last):
...
pokerlab.errors.CardError: invalid card 'Xd' at character 3: rank must be one of 23456789TJQKA
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping, Sequence

from pokerlab._numbers import is_whole
from pokerlab.errors import CardError, DuplicateCardError, described, flag_argument

__all__ = [
    "CARD_COUNT",
    "RANKS",
    "SUITS",
    "Card",
    "CardsLike",
    "cards_from_mask",
    "cards_to_mask",
    "deck",
    "ensure_distinct",
    "format_card_set",
    "format_cards",
    "parse_card",
    "parse_cards",
    "parse_cards_any_suit",
    "suitless_indices",
]

RANKS = "23456789TJQKA"
SUITS = "cdhs"
CARD_COUNT = len(RANKS) * len(SUITS)


def _separates(char: str) -> bool:
    """Whether ``char`` separates cards: a comma or any whitespace (a no-break space pasted
    from a web page too, which read as a card ' 7')."""
    return char == "," or char.isspace()


RANK_NAMES = (
    "Two",
    "Three",
    "Four",
    "Five",
    "Six",
    "Seven",
    "Eight",
    "Nine",
    "Ten",
    "Jack",
    "Queen",
    "King",
    "Ace",
)
RANK_PLURALS = tuple(name + ("es" if name == "Six" else "s") for name in RANK_NAMES)


class Card(int):
    """One card, an ``int`` whose value is its code ``4 * rank + suit``.

    >>> c = Card("Ah")
    >>> int(c), c.rank, c.suit, str(c)
    (50, 12, 2, 'Ah')
    >>> Card(0)
    Card('2c')
    """

    __slots__ = ()

    def __new__(cls, value: int | str) -> Card:
        if isinstance(value, str):
            return parse_card(value)
        if not is_whole(value):  # int() truncated 51.7 to the As, silently
            raise CardError(
                f"a card is a code 0..{CARD_COUNT - 1} or text such as 'As', not {described(value)}"
            )
        code = int(value)
        if not 0 <= code < CARD_COUNT:
            raise CardError(f"invalid card code {code}: must be in 0..{CARD_COUNT - 1}")
        return super().__new__(cls, code)

    @property
    def rank(self) -> int:
        """Rank index, 0 for a deuce up to 12 for an ace."""
        return int(self) >> 2

    @property
    def suit(self) -> int:
        """Suit index: 0 clubs, 1 diamonds, 2 hearts, 3 spades."""
        return int(self) & 3

    @property
    def mask(self) -> int:
        """The card's bit in a 64-bit card mask."""
        return 1 << int(self)

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card('{self}')"


CardsLike = str | Iterable[int | str | Card]

_ALL_CARDS = tuple(int.__new__(Card, code) for code in range(CARD_COUNT))
_NAMES = tuple(str(card) for card in _ALL_CARDS)


def _rank_index(token: str) -> int:
    return RANKS.index(token.upper()) if len(token) == 1 and token.upper() in RANKS else -1


def _card_at(text: str, start: int) -> tuple[Card, int]:
    """Read one card starting at ``text[start]``; return it and the index after it."""
    rank_len = 2 if text.startswith("10", start) else 1
    rank_token = text[start : start + rank_len]
    suit_token = text[start + rank_len : start + rank_len + 1]
    token = rank_token + suit_token
    where = f"invalid card '{token}' at character {start + 1}"
    rank = 8 if rank_len == 2 else _rank_index(rank_token)
    if rank < 0:
        raise CardError(f"{where}: rank must be one of {RANKS}")
    if suit_token == "" or _separates(suit_token):
        raise CardError(f"{where}: a suit (one of {SUITS}) must follow the rank")
    suit = SUITS.find(suit_token.lower())
    if suit < 0:
        raise CardError(f"{where}: suit must be one of {SUITS}")
    return _ALL_CARDS[4 * rank + suit], start + rank_len + 1


def parse_card(text: str) -> Card:
    """Parse exactly one card (``"As"``, ``"10d"``, ``"tH"``).

    >>> parse_card("10d")
    Card('Td')
    """
    stripped = text.strip()
    if not stripped:
        raise CardError("invalid card '': expected a rank and a suit such as 'As'")
    card, end = _card_at(stripped, 0)
    if end != len(stripped):
        raise CardError(f"invalid card '{stripped}': expected exactly one card such as 'As'")
    return card


@functools.lru_cache(maxsize=1024)
def _parse_text(text: str) -> tuple[tuple[Card, int], ...]:
    """Each card of ``text`` with its number (remembered: a board or a hand is parsed again
    and again by tools that ask about one spot after another)."""
    found: list[tuple[Card, int]] = []
    i = 0
    while i < len(text):
        if _separates(text[i]):
            i += 1
            continue
        card, end = _card_at(text, i)
        found.append((card, len(found) + 1))
        i = end
    return tuple(found)


def parse_cards(cards: CardsLike, *, allow_duplicates: bool = False) -> list[Card]:
    """Parse cards from text (or pass through an iterable of cards, codes or card strings).

    Duplicates are an error unless ``allow_duplicates`` is true.

    >>> parse_cards("AsKd")
    [Card('As'), Card('Kd')]
    >>> parse_cards("As ks aS")
    Traceback (most recent call last):
    ...
    pokerlab.errors.DuplicateCardError: duplicate card 'As': cards 1 and 3 are the same
    """
    allow_duplicates = flag_argument(allow_duplicates, "allow_duplicates")
    if isinstance(cards, str):
        if allow_duplicates:
            return [card for card, _ in _parse_text(cards)]
        return list(_distinct_text(cards))
    if not isinstance(cards, Iterable) or isinstance(cards, bytes | bytearray):
        raise CardError(f"cards must be text such as 'AsKd' or a sequence of cards, got {cards!r}")
    found = [
        (parse_card(item) if isinstance(item, str) else Card(item), index + 1)
        for index, item in enumerate(cards)
    ]
    if not allow_duplicates:
        _ensure_no_duplicate(found)
    return [card for card, _ in found]


@functools.lru_cache(maxsize=1024)
def _distinct_text(text: str) -> tuple[Card, ...]:
    """The cards of ``text``, checked distinct, remembered like :func:`_parse_text`."""
    found = _parse_text(text)
    _ensure_no_duplicate(found)
    return tuple(card for card, _ in found)


def _ensure_no_duplicate(found: Sequence[tuple[Card, int]]) -> None:
    """Raise :class:`DuplicateCardError` naming the first card given twice (with positions)."""
    first: dict[int, int] = {}
    for card, position in found:
        if int(card) in first:
            raise DuplicateCardError(
                f"duplicate card '{card}': cards {first[int(card)]} and {position} are the same"
            )
        first[int(card)] = position


def parse_cards_any_suit(text: str, avoid: int = 0) -> list[Card]:
    """Parse cards where a rank without a suit (``K``, ``8``, ``a``) stands for a card of that
    rank in any suit, for games where suits never matter (razz): each such rank gets the first
    suit, in the order c d h s, whose card is neither given with its suit in ``text``, nor in the
    ``avoid`` mask, nor taken by an earlier suitless rank. Cards with suits read as usual.

    >>> parse_cards_any_suit("K Q J 8 8")
    [Card('Kc'), Card('Qc'), Card('Jc'), Card('8c'), Card('8d')]
    >>> parse_cards_any_suit("8c 8", avoid=Card(25).mask)  # 8c given, 8d avoided
    [Card('8c'), Card('8h')]
    """
    found = _any_suit_tokens(text)
    exact = parse_cards([_ALL_CARDS[4 * r + s] for r, s, _ in found if s >= 0])
    used = avoid | sum(c.mask for c in exact)
    out: list[Card] = []
    for rank, suit, position in found:
        if suit < 0:
            free = [s for s in range(4) if not used >> (4 * rank + s) & 1]
            if not free:
                raise CardError(f"no {RANKS[rank]} is left for the suitless card at character "
                                f"{position}")  # fmt: skip
            suit = free[0]
            used |= 1 << (4 * rank + suit)
        out.append(_ALL_CARDS[4 * rank + suit])
    return out


def suitless_indices(text: str) -> list[int]:
    """Which of the cards :func:`parse_cards_any_suit` reads from ``text`` were written without
    a suit (their indices in its list).

    >>> suitless_indices("8c 8 Kd A")
    [1, 3]
    """
    return [i for i, (_, suit, _) in enumerate(_any_suit_tokens(text)) if suit < 0]


def _any_suit_tokens(text: str) -> list[tuple[int, int, int]]:
    """``(rank, suit or -1, position)`` of each card of ``text``, a suit optional."""
    found: list[tuple[int, int, int]] = []
    i = 0
    while i < len(text):
        if _separates(text[i]):
            i += 1
            continue
        rank_len = 2 if text.startswith("10", i) else 1
        rank = 8 if rank_len == 2 else _rank_index(text[i])
        if rank < 0:
            raise CardError(f"invalid card '{text[i]}' at character {i + 1}: rank must be one of "
                            f"{RANKS}")  # fmt: skip
        suit_token = text[i + rank_len : i + rank_len + 1]
        suit = SUITS.find(suit_token.lower()) if suit_token else -1
        if (
            suit < 0
            and suit_token
            and not _separates(suit_token)
            and _rank_index(suit_token) < 0
            and not text.startswith("10", i + rank_len)
        ):
            raise CardError(
                f"invalid card '{text[i : i + rank_len + 1]}' at character {i + 1}: suit must be "
                f"one of {SUITS}, or nothing for any suit"
            )
        found.append((rank, suit, i + 1))
        i += rank_len + (1 if suit >= 0 else 0)
    return found


def format_cards(cards: Iterable[int] | str, sep: str = "") -> str:
    """Canonical text for cards (codes, :class:`Card` objects, or text to parse).

    >>> format_cards([51, 46]), format_cards("as kh")
    ('AsKh', 'AsKh')
    """
    return sep.join([_NAMES[code] for code in _codes(cards)])


def format_card_set(cards: Iterable[int] | str) -> str:
    """Canonical text for a set of cards where order means nothing (dead cards): each card once,
    highest first as hands are written, no separator: every result echoes dead cards so.

    >>> format_card_set("3c 4c"), format_card_set([46, 51, 46])
    ('4c3c', 'AsKh')
    """
    return "".join(_NAMES[code] for code in sorted(set(_codes(cards)), reverse=True))


def _codes(cards: Iterable[int] | str) -> list[int]:
    """The codes of ``cards``: text is parsed, each other card is a :class:`Card`, an integer
    0..51 (numpy's too) or one card's name, else :class:`CardError` (a float or a bool was
    truncated to a card, 52 set a bit past the deck, a string was read one character a card)."""
    if isinstance(cards, str):
        return [int(c) for c in parse_cards(cards)]
    return [
        c if type(c) is Card or (type(c) is int and 0 <= c < CARD_COUNT) else int(_card(c))
        for c in _iterable(cards)
    ]


def _iterable(cards: object) -> Iterable[object]:
    """``cards``, refused with :class:`CardError` when it is no iterable (a lone code)."""
    if not isinstance(cards, Iterable):
        raise CardError(f"cards are text or an iterable of card codes, not {type(cards).__name__}")
    return cards


def _card(value: object) -> Card:
    """``Card(value)``: a code, or one card's name; anything else is a :class:`CardError`."""
    return Card(value)  # type: ignore[arg-type]  # Card refuses what is neither


def deck() -> list[Card]:
    """All 52 cards in code order (``2c 2d 2h 2s 3c ... As``)."""
    return list(_ALL_CARDS)


def cards_to_mask(cards: Iterable[int] | str) -> int:
    """64-bit mask of cards (bit ``code`` set per card; codes, Cards or text as
    :func:`format_cards` takes them).

    >>> hex(cards_to_mask(parse_cards("2c2d"))), hex(cards_to_mask("2c 2d"))
    ('0x3', '0x3')
    """
    mask = 0
    for c in parse_cards(cards) if isinstance(cards, str) else _iterable(cards):
        mask |= 1 << (
            c if type(c) is Card or (type(c) is int and 0 <= c < CARD_COUNT) else _card(c)
        )
    return mask


def cards_from_mask(mask: int) -> list[Card]:
    """The cards whose bits are set in ``mask``, in code order."""
    if not is_whole(mask):  # 3.0 or '3' failed inside, True was the 2c
        raise CardError(f"a card mask is an integer, not {described(mask)}")
    mask = int(mask)
    if mask < 0 or mask >> CARD_COUNT:
        raise CardError(f"invalid card mask {mask:#x}: only bits 0..{CARD_COUNT - 1} may be set")
    return [_ALL_CARDS[code] for code in range(CARD_COUNT) if mask >> code & 1]


def ensure_distinct(
    groups: Mapping[str, Sequence[int]], fields: Mapping[str, str] | None = None
) -> None:
    """Raise :class:`DuplicateCardError` if any card appears twice across named groups.

    ``fields`` maps a group's name to the argument it came from; the error's ``field`` is that of
    the group where the card turns up the second time.

    >>> ensure_distinct({"player 1": parse_cards("AsKs"), "the board": parse_cards("Qs As 2d")})
    Traceback (most recent call last):
    ...
    pokerlab.errors.DuplicateCardError: card 'As' is used twice: in player 1 and in the board
    """
    owner: dict[int, str] = {}
    for name, cards in groups.items():
        for c in cards:
            code = int(c)
            if code in owner:
                where = f"in {owner[code]} and in {name}" if owner[code] != name else f"in {name}"
                raise DuplicateCardError(
                    f"card '{_ALL_CARDS[code]}' is used twice: {where}",
                    field=(fields or {}).get(name),
                )
            owner[code] = name
