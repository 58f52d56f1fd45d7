"""Turn what a caller asks (players, board, dead cards, game) into validated kernel arrays.

Every check that protects the kernels lives here, so they never see bad input: card syntax,
cards used twice, board sizes, player counts, empty ranges after card removal, and ranges that
admit no joint holding at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from pokerlab.cards import Card, cards_to_mask, ensure_distinct, format_cards, parse_cards
from pokerlab.errors import EmptyRangeError, GameError, RangeError
from pokerlab.games import Game, get_game
from pokerlab.ranges import Range

__all__ = ["PlayerInput", "Problem", "prepare"]

PlayerInput = str | Range


@dataclass(frozen=True)
class Problem:
    """A validated request in the arrays the kernels read.

    ``combos[offsets[p]:offsets[p + 1]]`` are player ``p``'s combos (card codes, uint8) with
    ``weights`` (all > 0), none touching the board or the dead cards.
    """

    game: Game
    inputs: tuple[str, ...]
    combos: NDArray[np.uint8]
    offsets: NDArray[np.int64]
    weights: NDArray[np.float64]
    board: NDArray[np.uint8]
    dead_mask: int

    @property
    def n_players(self) -> int:
        return len(self.inputs)

    @property
    def sizes(self) -> list[int]:
        return [int(x) for x in np.diff(self.offsets)]

    @property
    def board_text(self) -> str:
        return format_cards(self.board.tolist())

    @property
    def dead_text(self) -> str:
        return format_cards([c for c in range(52) if self.dead_mask >> c & 1])

    @property
    def held_mask(self) -> int:
        """Cards that some player holds in every one of its combos (an exact hand's cards)."""
        held = 0
        for p in range(self.n_players):
            part = self.combos[self.offsets[p] : self.offsets[p + 1]]
            common = (1 << 52) - 1
            for a, b in part.tolist():
                common &= (1 << a) | (1 << b)
            held |= common
        return held

    @property
    def unseen(self) -> int:
        """Cards neither on the board nor dead."""
        return 52 - len(self.board) - bin(self.dead_mask).count("1")


def _player_range(player: PlayerInput, index: int) -> tuple[str, Range]:
    if isinstance(player, Range):
        return player.to_string(), player
    text = str(player).strip()
    if not text:
        raise RangeError(f"player {index + 1}: empty hand or range")
    try:
        return text, Range(text)
    except RangeError as exc:
        raise type(exc)(f"player {index + 1}: {exc}") from None


def prepare(
    players: Sequence[PlayerInput],
    board: str | Sequence[int | str | Card] = "",
    dead: str | Sequence[int | str | Card] = "",
    game: str | Game = "holdem",
) -> Problem:
    """Validate a request and build its :class:`Problem`."""
    spec = get_game(game)
    if isinstance(players, str | Range):
        raise GameError("players must be a list of hands or ranges, one per player")
    board_cards = parse_cards(board)
    dead_cards = parse_cards(dead)
    spec.check_board(len(board_cards))
    spec.check_players(len(players), len(dead_cards))
    parsed = [_player_range(p, i) for i, p in enumerate(players)]
    groups: dict[str, list[int]] = {
        "the board": [int(c) for c in board_cards],
        "the dead cards": [int(c) for c in dead_cards],
    }
    for i, (_, rng) in enumerate(parsed):
        if rng.is_exact:
            groups[f"player {i + 1}'s hand"] = [int(c) for c in rng.combos[0]]
    ensure_distinct(groups)
    known = [*board_cards, *dead_cards]
    combos: list[NDArray[np.uint8]] = []
    weights: list[NDArray[np.float64]] = []
    for i, (text, rng) in enumerate(parsed):
        try:
            left = rng.remove(known) if known else rng
        except EmptyRangeError as exc:
            raise EmptyRangeError(f"player {i + 1} ('{text}'): {exc}") from None
        keep = left.weights > 0
        if not keep.any():
            raise EmptyRangeError(f"player {i + 1} ('{text}'): the range has no combo left")
        combos.append(left.combos[keep])
        weights.append(left.weights[keep])
    offsets = np.zeros(len(parsed) + 1, dtype=np.int64)
    offsets[1:] = np.cumsum([len(c) for c in combos])
    problem = Problem(
        game=spec,
        inputs=tuple(text for text, _ in parsed),
        combos=np.ascontiguousarray(np.concatenate(combos), dtype=np.uint8),
        offsets=offsets,
        weights=np.concatenate(weights).astype(np.float64),
        board=np.array([int(c) for c in board_cards], dtype=np.uint8),
        dead_mask=cards_to_mask(dead_cards),
    )
    if not _has_joint_holding(problem.combos, problem.offsets):
        raise EmptyRangeError(
            "no deal is possible: every way of giving each player a hand from its range uses "
            "some card twice"
        )
    return problem


def _has_joint_holding(combos: NDArray[np.uint8], offsets: NDArray[np.int64]) -> bool:
    masks = (np.uint64(1) << combos[:, 0].astype(np.uint64)) | (
        np.uint64(1) << combos[:, 1].astype(np.uint64)
    )
    order = np.argsort(np.diff(offsets), kind="stable")  # fewest combos first prunes soonest
    from pokerlab.equity._exact import has_joint_holding

    return bool(has_joint_holding(masks, offsets, order))
