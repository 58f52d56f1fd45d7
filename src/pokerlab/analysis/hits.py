"""How a range hits a board: combos, weight and percent of the range in each made-hand category
and each draw (the categories are defined in :mod:`pokerlab.analysis.board_categories`).

>>> r = hits("QQ+,AKs,JTs", board="Ks9s2d")
>>> r.combos, r.count("set"), r.count("overpair"), r.count("flush draw")
(22, 3, 6, 1)
>>> r.count("top pair"), r.count("open-ended straight draw"), r.count("gutshot")
(3, 0, 4)

Omaha uses the 2+3 rule; a wrap is a straight draw with three or more out ranks:

>>> o = hits("JT8*", board="9h7c2d", game="omaha")
>>> o.count("wrap") == o.combos
True

Short deck ranks its hands by its own rules (three of a kind above a straight, A-6-7-8-9 the
lowest straight) and deals its range from the 36-card deck (``22+`` is ``66+`` there):

>>> s = hits("88,QQ", board="JhTd9c8s7c", game="shortdeck")
>>> s.count("set"), s.count("straight"), hits("88,QQ", board="JhTd9c8s7c").count("set")
(3, 6, 0)
>>> s = hits("22+", board="Ah9d8c", game="shortdeck")  # 66 and 77 draw to A-6-7-8-9
>>> s.combos, s.count("gutshot")
(45, 12)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._results import ArrayFields
from pokerlab._threads import resolve_threads, threads_asked
from pokerlab.analysis.board_categories import DRAWS, MADE, Category
from pokerlab.cards import Card, ensure_distinct, format_card_set, format_cards, parse_cards
from pokerlab.engine.game_range import check_orderings, game_ordering
from pokerlab.errors import EmptyRangeError, GameError, blame, flag_argument
from pokerlab.evaluation.codes import HighEval
from pokerlab.games import Game, get_game
from pokerlab.ranges import Range
from pokerlab.ranges._echo import echo_text
from pokerlab.ranges.pattern import PatternRange

__all__ = ["CategoryCount", "HitsReport", "hits"]

RangeLike = str | Range | PatternRange


@dataclass(frozen=True)
class CategoryCount:
    """Combos of the range in one category, their summed weight, and that weight in percent of
    the range's weight. ``detail`` splits a grouped category (the kicker classes of top pair)."""

    name: str
    combos: int
    weight: float
    percent: float
    detail: tuple[CategoryCount, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "combos": self.combos,
            "weight": self.weight,
            "percent": self.percent,
        }
        if self.detail:
            out["detail"] = [d.to_dict() for d in self.detail]
        return out


@dataclass(frozen=True, eq=False)
class HitsReport(ArrayFields):
    """What :func:`hits` returns. ``categories`` (made hands, each combo in exactly one; top
    pair with its kicker classes in ``detail``) and ``draws`` (independent; none on the river)
    follow the table's order. ``holdings``, ``weights``, ``made`` (codes into ``MADE``) and
    ``draw_bits`` are the per-combo results (combos touching the board or dead cards removed)."""

    game: str
    board: str
    dead: str
    range: str
    combos: int
    weight: float
    categories: tuple[CategoryCount, ...]
    draws: tuple[CategoryCount, ...]
    holdings: NDArray[np.uint8] = field(repr=False)
    weights: NDArray[np.float64] = field(repr=False)
    made: NDArray[np.uint8] = field(repr=False)
    draw_bits: NDArray[np.uint16] = field(repr=False)

    def get(self, name: str) -> CategoryCount:
        """The count of a category or draw by name (a kicker class too). A draw the report
        leaves out (every draw on the river, a wrap outside Omaha) counts no combo; a name that
        is no category is a :class:`~pokerlab.errors.GameError`."""
        for c in (*self.categories, *self.draws):
            if c.name == name:
                return c
            for d in c.detail:
                if d.name == name:
                    return d
        if any(d.name == name for d in DRAWS):
            return CategoryCount(name, 0, 0.0, 0.0)
        known = ", ".join(f"'{c.name}'" for c in (*MADE, *DRAWS))  # names hold commas
        raise GameError(f"unknown category '{name}': known are {known}", field="name")

    def count(self, name: str) -> int:
        """Combos in a category or draw, by name."""
        return self.get(name).combos

    def combo_rows(self) -> list[dict[str, Any]]:
        """Each combo: its cards, weight, made category and draws."""
        rows = []
        for h, w, m, bits in zip(
            self.holdings.tolist(),
            self.weights.tolist(),
            self.made.tolist(),
            self.draw_bits.tolist(),
            strict=True,
        ):
            rows.append(
                {
                    "hand": format_cards(h),
                    "weight": w,
                    "category": MADE[m].name,
                    "draws": [d.name for d in DRAWS if bits >> d.code & 1],
                }
            )
        return rows

    def to_dict(self, list_combos: bool = False) -> dict[str, Any]:
        """JSON-ready: board, range, combos, weight, categories and draws (and every combo)."""
        out: dict[str, Any] = {
            "game": self.game,
            "board": self.board,
            "dead": self.dead,
            "range": self.range,
            "combos": self.combos,
            "weight": self.weight,
            "categories": [c.to_dict() for c in self.categories],
            "draws": [d.to_dict() for d in self.draws],
        }
        if flag_argument(list_combos, "list_combos"):
            out["list"] = self.combo_rows()
        return out


def _in_deck(rng: Any, text: str, game: Game) -> Any:
    """``rng`` (a :class:`Range` or :class:`PatternRange`) without the combos that hold a card
    outside ``game``'s deck (a short deck's deuces to fives), as the equity engine drops them."""
    if not game.removed_mask:
        return rng
    try:
        return rng.remove([c for c in range(52) if game.removed_mask >> c & 1])
    except EmptyRangeError:
        raise EmptyRangeError(
            f"range '{text}': no hand of the range is left once the cards not in "
            f"{game.deck_text} are removed"
        ) from None


def _holdings(spec: RangeLike, game: Game, known: list[Card]) -> tuple[str, Any, Any]:
    if game.range_syntax == "holdem":
        if isinstance(spec, PatternRange):
            raise GameError("a hold'em range is written in hold'em notation, not as a pattern")
        if isinstance(spec, Range):
            rng = spec
        else:  # short deck's 'x%' on its own ordering, and no other deck's
            rng = Range(spec, ordering=game_ordering(game))
            check_orderings(spec, game)
        text = rng.to_string() if not isinstance(spec, str) else echo_text(spec, "holdem")
        rng = _in_deck(rng, text, game)
        rng = rng.remove(known) if known else rng
        return text, rng.combos, rng.weights
    if isinstance(spec, Range):
        raise GameError(f"{game.a_title} range is a pattern range (e.g. AA**$ds)")
    if isinstance(spec, PatternRange):
        prange, text = spec, spec.to_string()
        if prange.size != game.hole_cards:
            raise GameError(f"{game.a_title} hand has {game.hole_cards} cards, got {prange.size}")
    else:
        prange, text = game.pattern_range(spec), echo_text(spec, "pattern")
    prange = _in_deck(prange, text, game)
    prange = prange.remove(known) if known else prange
    return text, prange.holdings, prange.weights


def _count(
    name: str, selected: NDArray[np.bool_], weights: NDArray[np.float64], total: float
) -> CategoryCount:
    w = float(weights[selected].sum())
    return CategoryCount(name, int(selected.sum()), w, 100.0 * w / total)


def _made_counts(
    made: NDArray[np.uint8], weights: NDArray[np.float64], total: float
) -> tuple[CategoryCount, ...]:
    groups: dict[str, list[Category]] = {}
    for c in MADE:
        groups.setdefault(c.group, []).append(c)
    out = []
    for name, members in groups.items():
        parts = tuple(_count(c.name, made == c.code, weights, total) for c in members)
        whole = _count(name, np.isin(made, [c.code for c in members]), weights, total)
        out.append(
            whole
            if len(members) == 1
            else CategoryCount(name, whole.combos, whole.weight, whole.percent, parts)
        )
    return tuple(out)


def hits(
    range_: RangeLike,
    board: str | Sequence[int | str | Card],
    game: str | Game = "holdem",
    dead: str | Sequence[int | str | Card] = "",
    *,
    threads: int | None = None,
) -> HitsReport:
    """Combos of ``range_`` in each made category and draw on ``board`` (flop, turn or river),
    without the combos that touch the board or ``dead``.

    Hold'em and short-deck ranges use PokerStove notation (short deck's without the combos
    that hold a card below the six, its ``x%`` on its own ordering), Omaha ranges the pattern
    syntax (``AA**$ds``). A board or dead card outside the game's deck is refused. Percentages
    are of the range's weight once those combos are removed. ``threads``: how many threads
    list a wide pattern range's holdings and classify them (default: every available core; the
    report is the same for any count).
    """
    from pokerlab.analysis import _hits_kernels as H
    from pokerlab.engine._tables import kernel_tables
    from pokerlab.evaluation._parallel import numba_threads

    with blame("threads"):
        workers = resolve_threads(threads)
    with blame("game"):
        spec = get_game(game)
        if spec.is_stud or not spec.board_cards:
            raise GameError(f"board hits need a board game; {spec.title} has no board")
    with blame("board"):
        board_cards = parse_cards(board)
        if not 3 <= len(board_cards) <= spec.board_cards:
            raise GameError(
                f"board hits need a flop, turn or river (3 to 5 cards), got {len(board_cards)}"
            )
        spec.check_in_deck(board_cards, "board")
    with blame("dead"):
        dead_cards = parse_cards(dead)
        spec.check_in_deck(dead_cards, "dead")
    ensure_distinct(
        {"the board": board_cards, "the dead cards": dead_cards},
        {"the board": "board", "the dead cards": "dead"},
    )
    with blame("range"), threads_asked(workers):  # a wide range is listed on these threads too
        text, holdings, weights = _holdings(range_, spec, [*board_cards, *dead_cards])
    omaha = spec.high == HighEval.OMAHA
    board_arr = np.array([int(c) for c in board_cards], dtype=np.uint8)
    made = np.empty(len(holdings), dtype=np.uint8)
    draw_bits = np.empty(len(holdings), dtype=np.uint16)
    # a writable copy: the holdings are read-only, and a read-only array would compile
    # classify_combo once more than the query kernel's calls do
    arguments = (np.array(holdings, order="C"), omaha, board_arr, *kernel_tables(spec),
                 *H.hit_tables(spec), made, draw_bits)  # fmt: skip
    with numba_threads(workers):
        H.classify(*arguments)
    weights = np.asarray(weights, dtype=np.float64)
    total = float(weights.sum())
    draws = tuple(
        _count(d.name, (draw_bits >> d.code) & 1 == 1, weights, total)
        for d in DRAWS
        if (omaha or d.name != "wrap") and len(board_cards) < 5
    )
    return HitsReport(
        game=spec.name,
        board=format_cards(board_cards),
        dead=format_card_set(dead_cards),
        range=text,
        combos=len(holdings),
        weight=total,
        categories=_made_counts(made, weights, total),
        draws=draws,
        holdings=holdings,
        weights=weights,
        made=made,
        draw_bits=draw_bits,
    )
