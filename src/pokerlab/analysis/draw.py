"""Five-card draw discard advisor: every keep/discard choice of a hand, exactly.

For a 5-card hand there are 32 choices (keep any subset, draw the rest). :func:`advise`
enumerates, for each, every set of replacement cards from the unseen cards (``C(n, k)`` draws for
``k`` discards: all 32 choices together are 2,598,960 evaluations with no dead card) and reports:

* ``categories``: the distribution of the final hand. High (classic five-card draw): the nine
  high categories. 2-7 single-draw lowball (``game="2-7"``): the buckets of
  :class:`~pokerlab.evaluation.deuce7.Deuce7Bucket` -- ``pair or worse`` (any pair, straight or
  flush), ``A-low``, ``K-low``, ``Q-low``, ``J-low``, ``10-low``, ``9-low``, ``8-low``, ``7-low``
  (no-pair hands by their highest card; ``7-low`` is the best there is). Both lists run worst
  first. The unseen cards are the 52 less the hand, the dead cards and the opponents' hands
  given as exact single hands (cards of opponents given as lists or ``random`` are unknown).
* ``at_least(name)``: the probability of ending with that category/bucket or better.
* ``score``: the final hand's expected percentile among all 2,598,960 five-card hands of the
  game (ties count half): a measure that needs no opponent.
* ``equity`` (``win``, ``tie``, ``tie_equity``) when opponents are given, by
  ``shared/definitions.md``: an opponent is one exact hand, a list of exact hands (each equally
  likely among those that share no card with the known ones; joint draws that share a card are
  rejected whole) or ``random`` (five unseen cards), and it stands pat (``pat``) or draws by the
  ``rules`` or ``random`` strategy of :mod:`pokerlab.analysis.bots`. Opponents who stand pat
  with known hands or lists are enumerated exactly; anything else is sampled by unbiased Monte
  Carlo, one deal serving all 32 choices, with a standard error per choice.

Choices are ranked by equity when opponents are given, else by the probability of reaching the
``goal`` when one is given, else by ``score``.

>>> advice = advise("Jh Jd 7c 4s 2h")
>>> best = advice.best
>>> format_cards(best.keep, " "), best.draws
('Jh Jd', 16215)
>>> round(best.categories["Two Pair"], 5), round(best.at_least("Three of a Kind"), 5)
(0.15985, 0.12729)
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_whole, known_or_none
from pokerlab._results import UnknownFloats
from pokerlab._threads import resolve_threads
from pokerlab.cards import (
    Card,
    CardsLike,
    cards_to_mask,
    ensure_distinct,
    format_card_set,
    format_cards,
    parse_cards,
)
from pokerlab.engine._control import check_seed, fresh_seed
from pokerlab.engine.limits import check_exact_options, check_sampling
from pokerlab.engine.methods import Method, read_method
from pokerlab.engine.tally import sampled_stderr
from pokerlab.errors import (
    CardError,
    EmptyRangeError,
    GameError,
    RangeError,
    TooLargeError,
    blame,
    list_argument,
)
from pokerlab.evaluation import _tables as T
from pokerlab.evaluation.deuce7 import Deuce7Bucket, deuce7_bucket_of, deuce7_values
from pokerlab.evaluation.high import HandCategory
from pokerlab.ranges._echo import echo_text

__all__ = [
    "GAMES",
    "STRATEGY_CODES",
    "DrawAdvice",
    "DrawChoice",
    "GameTables",
    "Opponent",
    "advise",
    "game_tables",
    "normalize_game",
    "parse_opponent",
]

GAMES = ("high", "2-7")
_GAME_ALIASES = {
    "high": "high",
    "draw": "high",
    "5cd": "high",
    "five-card-draw": "high",
    "2-7": "2-7",
    "27": "2-7",
    "deuce7": "2-7",
    "deuce-to-seven": "2-7",
    "lowball": "2-7",
}
STRATEGY_CODES = {"pat": 0, "stand-pat": 0, "rules": 1, "random": 2}
PAT_NAMES = ("pat", "stand-pat")
DEFAULT_TRIALS = 200_000
MAX_EXACT = 100_000_000  # evaluations "auto" still enumerates (about half a second)
MAX_FORCED_EXACT = 10_000_000_000
"""Most evaluations ``method="exact"`` runs: about 30 s on one core of the AMD EPYC (Zen 3)
development machine, at 3.4 * 10^8 evaluations a second (``AsAdKc**`` standing pat: 1.45 *
10^9 in 4.2 s); it has no progress report. Larger lists get :class:`TooLargeError`."""
_MAX_REJECTS = 1_000_000


def normalize_game(game: str) -> Literal["high", "2-7"]:
    """``"high"`` or ``"2-7"`` from a game name or alias."""
    if not isinstance(game, str):
        raise GameError(f"a draw game is 'high' (five-card draw) or '2-7', got {game!r}",
                        field="game")  # fmt: skip
    name = _GAME_ALIASES.get(game.strip().lower().replace("_", "-").replace(" ", "-"))
    if name is None:
        raise GameError(f"unknown draw game '{game}': use 'high' (five-card draw) or '2-7'",
                        field="game")  # fmt: skip
    return "high" if name == "high" else "2-7"


@dataclass(frozen=True)
class GameTables:
    """What the kernels read for one game: ``values`` (the high evaluator's table layout holding
    dense classes ``0..7461``, larger better), ``bucket_of`` (dense class -> category index),
    ``names`` (category names, worst first), ``score`` (dense class -> percentile)."""

    game: str
    multiplier: np.uint64
    displace: NDArray[np.uint32]
    values: NDArray[np.uint16]
    bucket_of: NDArray[np.uint8]
    names: tuple[str, ...]
    score: NDArray[np.float64]
    code: int

    @property
    def starts(self) -> NDArray[np.intp]:
        """First dense class of each category (classes run in category order)."""
        return np.searchsorted(self.bucket_of, np.arange(len(self.names)))


@cache
def game_tables(game: str) -> GameTables:
    """The (cached) tables of ``"high"`` or ``"2-7"``."""
    from pokerlab.evaluation import _kernels as K

    name = normalize_game(game)
    high = T.load_high_tables()
    if name == "high":
        strengths = sorted(T.strength_of(c, cls) for c, d in T.class_orders().items() for cls in d)
        dense = np.zeros(max(strengths) + 1, dtype=np.uint16)
        dense[strengths] = np.arange(len(strengths))
        values = dense[high.values]
        bucket_of = (np.array(strengths) >> T.CATEGORY_SHIFT).astype(np.uint8)
        names = tuple(c.label for c in HandCategory)
    else:
        d7 = deuce7_values()
        values = np.where(d7 > 0, d7 - 1, 0).astype(np.uint16)
        bucket_of = deuce7_bucket_of()[1:].copy()
        names = tuple(b.label for b in Deuce7Bucket)
    mult = np.uint64(high.multiplier)
    # int32 as the advice's histograms (2,598,960 hands fit): one compiled kernel for both
    counts = np.zeros(len(bucket_of), dtype=np.int32)
    K.strength_histogram(
        K.EMPTY_KEY,
        np.uint64(0),
        np.arange(52, dtype=np.uint8),
        5,
        K.CARD_KEY,
        K.CARD_MASK,
        mult,
        high.displace,
        values,
        counts,
    )
    below = np.cumsum(counts) - counts
    score = (below + counts / 2) / counts.sum()
    code = 0 if name == "high" else 1
    assert np.all(np.diff(bucket_of.astype(np.int64)) >= 0), "categories must be contiguous"
    assert len(np.unique(bucket_of)) == len(names)
    return GameTables(name, mult, high.displace, values, bucket_of, names, score, code)


def _parse_goal(tables: GameTables, goal: str) -> int:
    if not isinstance(goal, str):  # 5 raised "'int' object has no attribute 'lower'"
        raise GameError(
            f"a goal is the name of one of {', '.join(tables.names)}; got {goal!r}", field="goal"
        )

    def norm(text: str) -> str:
        return "".join(ch for ch in text.lower() if ch.isalnum())

    aliases = {"trips": "Three of a Kind", "quads": "Four of a Kind", "tlow": "10-low"}
    wanted = norm(aliases.get(norm(goal), goal))
    for i, name in enumerate(tables.names):
        if norm(name) == wanted:
            return i
    raise GameError(
        f"unknown goal '{goal}' for {tables.game}: use one of {', '.join(tables.names)}"
    )


@dataclass(frozen=True)
class Opponent:
    """An opponent: ``hands`` is ``None`` for a random hand, else a list of exact 5-card hands
    (one hand: a known hand), and ``strategy`` how it draws: ``pat``, ``rules`` or ``random``
    (the bots of :mod:`pokerlab.analysis.bots`; ``optimal`` is not offered here, as it would
    run the advisor inside every sampled deal).

    >>> parse_opponent("random:rules")
    Opponent(hands=None, strategy='rules')
    """

    hands: tuple[tuple[Card, ...], ...] | None = None
    strategy: str = "pat"
    written: str | None = field(default=None, compare=False, repr=False)  # a range as written

    def __post_init__(self) -> None:
        if self.strategy not in STRATEGY_CODES:
            why = (" (the optimal bot plays in `draw match` and `draw play`; as an opponent here "
                   "it would run the advisor inside every sampled deal)"
                   if self.strategy == "optimal" else "")  # fmt: skip
            raise GameError(
                f"unknown opponent strategy '{self.strategy}': use pat, rules or random{why}"
            )

    def text(self) -> str:
        """The opponent as text: a pattern range as the user wrote it (not its expansion into
        hands), else its hands and strategy."""
        if self.written is not None:
            return self.written
        body = "random" if self.hands is None else "|".join(format_cards(h) for h in self.hands)
        return body if self.strategy in PAT_NAMES else f"{body}:{self.strategy}"


def parse_opponent(text: str) -> Opponent:
    """``random``, ``AhAd7c4s2h``, hands joined by ``|``, or a pattern range of five-card hands
    (:mod:`pokerlab.ranges.pattern`: ``JJ***`` = any hand with two jacks or more,
    ``AsAdKsKd[QJ]h``; every matching hand equally likely, so no ``@`` weights); ``:rules``,
    ``:random`` or ``:pat`` after it says how the opponent draws (default: stands pat).

    >>> len(parse_opponent("AsAdKsKd[QJ]h").hands or ())
    2
    """
    written = text.strip()
    body, colon, strategy = written.partition(":")
    strategy = strategy.strip().lower()
    if colon and not strategy:
        raise GameError(f"opponent '{written}': ':' needs how it draws after it (pat, rules or "
                        "random)")  # fmt: skip
    strategy = strategy or "pat"
    if body.strip().lower() == "random":
        return Opponent(None, strategy)
    parts = body.split("|")
    if len(parts) > 1 and any(part.strip().lower() == "random" for part in parts):
        raise GameError(  # "random|AcAd7h4c2d" said "invalid card 'ra'"
            f"opponent '{written}': 'random' is every hand, so it is given alone, not joined "
            "to hands by '|'"
        )
    listed = []
    for part in parts:
        try:
            listed.append(tuple(parse_cards(part)))
        except CardError as exc:
            if len(parts) > 1:  # the position is in this hand, not in the whole text
                raise CardError(f"opponent '{written}', hand '{part.strip()}': {exc}") from None
            break
    if len(listed) < len(parts):  # one part that is not cards: a pattern range
        hands = _pattern_hands(body)
        # echoed as written, but with a ten written 'T' (definitions.md), as equity echoes
        return Opponent(
            hands, strategy, echo_text(written, "pattern") if hands is not None else None
        )
    seen: dict[frozenset[Card], str] = {}
    for hand, part in zip(listed, parts, strict=True):
        if len(hand) != 5:
            raise CardError(f"an opponent's hand needs 5 cards, got {len(hand)}: '{part.strip()}'")
        if frozenset(hand) in seen:
            raise GameError(
                f"opponent '{written}': the hand '{part.strip()}' is listed twice (as "
                f"'{seen[frozenset(hand)]}'); its hands are a set, each equally likely, so list "
                "each once"
            )
        seen[frozenset(hand)] = part.strip()
    return Opponent(tuple(listed), strategy)


def _pattern_hands(text: str) -> tuple[tuple[Card, ...], ...] | None:
    """The hands of a pattern, or ``None`` (``random``) for every hand (``*****``): its 2.6
    million hands took 13 s to list, to be refused by ``--exact`` or dealt as ``random``."""
    from pokerlab.ranges.pattern import PatternRange

    rng = PatternRange(text, size=5)
    if rng.is_random and not rng.excluded:
        return None
    if np.any(rng.weights != rng.weights[0]):
        raise RangeError(
            f"opponent range '{text.strip()}': weights are not supported here (every hand of "
            "an opponent's range is equally likely)"
        )
    deck = [Card(c) for c in range(52)]
    return tuple(tuple(deck[c] for c in row) for row in rng.holdings.tolist())


@dataclass(frozen=True, eq=False)
class DrawChoice(UnknownFloats):
    """One keep/discard choice.

    Attributes:
        keep, discard: the cards kept and thrown (hand order).
        draws: the number of replacement-card sets enumerated (``C(unseen, len(discard))``).
        counts: per category/bucket (worst first), how many of those draws end there.
        categories: category/bucket name -> probability (worst first).
        score: expected percentile of the final hand among all five-card hands.
        equity, win, tie, tie_equity: against the opponents (``None`` without opponents).
        stderr: standard error of ``equity`` (0.0 when exact, ``None`` without opponents;
            NaN, unknown, for a Monte Carlo run of one deal: JSON gives null).
    """

    keep: tuple[Card, ...]
    discard: tuple[Card, ...]
    draws: int
    counts: tuple[int, ...]
    categories: dict[str, float]
    score: float
    equity: float | None = None
    win: float | None = None
    tie: float | None = None
    tie_equity: float | None = None
    stderr: float | None = None

    def at_least(self, name: str) -> float:
        """Probability of ending with category/bucket ``name`` or better."""
        names = list(self.categories)
        if name not in names:
            raise GameError(f"unknown category '{name}': use one of {', '.join(names)}")
        return sum(self.counts[names.index(name) :]) / self.draws

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "keep": [str(c) for c in self.keep],
            "discard": [str(c) for c in self.discard],
            "draws": self.draws,
            "categories": self.categories,
            "score": self.score,
        }
        if self.equity is not None:
            out.update(
                equity=self.equity,
                win=self.win,
                tie=self.tie,
                tie_equity=self.tie_equity,
                stderr=known_or_none(self.stderr),
            )
        return out


@dataclass(frozen=True)
class DrawAdvice:
    """The answer of :func:`advise`: ``choices`` holds all 32, best first.

    ``method`` is ``"exact"`` or ``"monte-carlo"`` for the equities (``None`` without
    opponents); ``samples`` the deals sampled (Monte Carlo) or opponent holdings enumerated."""

    hand: tuple[Card, ...]
    game: str
    dead: tuple[Card, ...]
    opponents: tuple[str, ...]
    goal: str | None
    method: str | None
    samples: int
    seconds: float = field(compare=False)  # a timing, not part of the answer
    choices: tuple[DrawChoice, ...]
    max_draw: int = 5
    seed: int | None = None  # Monte Carlo: the seed sampled with (given, or drawn for the run)

    @property
    def best(self) -> DrawChoice:
        return self.choices[0]

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab draw advise --json`` prints exactly this)."""
        return {
            "hand": format_cards(self.hand, " "),
            "game": self.game,
            "dead": format_card_set(self.dead),
            "opponents": list(self.opponents),
            "goal": self.goal,
            "method": self.method,
            "samples": self.samples,
            "seed": self.seed,
            "seconds": self.seconds,
            "max_draw": self.max_draw,
            "choices": [c.to_dict() for c in self.choices],
        }


def _histograms(
    hand: NDArray[np.uint8], free: NDArray[np.uint8], t: GameTables, threads: int
) -> NDArray[Any]:
    from pokerlab.analysis import _draw_kernels as D
    from pokerlab.evaluation import _kernels as K
    from pokerlab.evaluation._parallel import numba_threads

    hist = np.zeros((32, len(t.bucket_of)), dtype=np.int32)
    with numba_threads(threads) as workers:
        D.choice_histograms(
            hand, free, K.CARD_KEY, K.CARD_MASK, t.multiplier, t.displace, t.values, hist, workers
        )
    return hist


def _class_of(cards: Sequence[int], t: GameTables) -> int:
    from pokerlab.analysis import _draw_kernels as D
    from pokerlab.evaluation import _kernels as K

    arr = np.array(cards, dtype=np.uint8)
    return int(D.class_of(arr, K.CARD_KEY, K.CARD_MASK, t.multiplier, t.displace, t.values))


def _free(excluded: int) -> NDArray[np.uint8]:
    return np.array([c for c in range(52) if not excluded >> c & 1], dtype=np.uint8)


SAMPLE_CHUNK = 1 << 16
"""Deals per chunk of the draw sampler (about 10-20 ms): chunks run in parallel, each with its
own stream (:func:`_chunk_stream`), and Ctrl-C is heard between batches of them."""


def _chunk_stream(seed: int, chunk: int) -> NDArray[np.uint64]:
    """The random stream of chunk ``chunk``: the first is the seed's own stream (the one a run
    of at most :data:`SAMPLE_CHUNK` deals always had, which the optimal bot's shipped table
    was computed with), the others independent streams of the seed."""
    from pokerlab.engine._sampling import chunk_state, seed_state

    return seed_state(seed) if chunk == 0 else chunk_state(seed, chunk)


def sample_equities(
    hand: Sequence[int],
    game: str,
    opponents: Sequence[Opponent],
    trials: int,
    seed: int,
    dead: Sequence[int] = (),
    max_draw: int = 5,
    threads: int | None = None,
) -> NDArray[np.float64]:
    """Monte Carlo tally of the 32 choices (rows: wins, ties, tie shares, tie shares squared);
    inputs already validated (lists filtered against the hand and the dead cards). A ``random``
    opponent keeps one of the choices that draw at most ``max_draw`` cards. Chunks of
    :data:`SAMPLE_CHUNK` deals run on ``threads`` threads (default: every available core); the
    tally is the same for any count."""
    from pokerlab.analysis import _draw_kernels as D
    from pokerlab.evaluation import _kernels as K
    from pokerlab.evaluation._parallel import numba_threads

    threads = resolve_threads(threads)

    t = game_tables(game)
    rows = [h for o in opponents for h in (o.hands or ())]
    hands = np.array(rows, dtype=np.uint8).reshape(len(rows), 5)
    offsets = np.cumsum([0] + [len(o.hands or ()) for o in opponents]).astype(np.int64)
    strategies = np.array([STRATEGY_CODES[o.strategy] for o in opponents], dtype=np.int64)
    tally = np.zeros((32, 4), dtype=np.float64)
    fixed = np.uint64(cards_to_mask([*hand, *dead]))
    keeps = np.array(allowed_keeps(max_draw), dtype=np.int64)
    chunks = -(-trials // SAMPLE_CHUNK)  # each of SAMPLE_CHUNK deals, the last of the rest
    rejected = 0
    with numba_threads(threads) as workers:
        # a batch of chunks per call, one chunk a thread: Ctrl-C is heard between calls (10^9
        # trials in one call ran 40 minutes unstoppable)
        step = 4 * workers  # chunks a call: fewer waits for the slowest of them
        for lo in range(0, chunks, step):
            # the sizes of one call's chunks only: an array of every chunk's size took 1.2 TB
            # for 10^16 trials (--no-limit), a MemoryError before any deal
            batch = np.full(min(step, chunks - lo), SAMPLE_CHUNK, dtype=np.int64)
            if lo + len(batch) == chunks:
                batch[-1] = trials - SAMPLE_CHUNK * (chunks - 1)
            states = np.stack([_chunk_stream(seed, c) for c in range(lo, lo + len(batch))])
            tallies = np.zeros((len(batch), 32, 4), dtype=np.float64)
            rejects = np.zeros(len(batch), dtype=np.int64)
            D.sample_chunks(
                np.array(hand, dtype=np.uint8), fixed, hands, offsets, strategies, keeps, t.code,
                batch, _MAX_REJECTS, states, K.CARD_KEY, K.CARD_MASK, t.multiplier, t.displace,
                t.values, t.bucket_of, tallies, rejects,
            )  # fmt: skip
            for part in tallies:  # one chunk at a time, in chunk order: the shares of 3-way
                tally += part  # ties (1/3) are not exact, so no sum may depend on the batches
            if (rejects < 0).any():
                rejected = -1
                break
    if rejected < 0:
        raise EmptyRangeError("the opponents' lists leave almost no deal without a shared card")
    return tally


def _validate(
    hand: CardsLike, dead: CardsLike, vs: Sequence[str | Opponent] | str | None
) -> tuple[list[Card], list[Card], list[Opponent]]:
    with blame("hand"):
        cards = parse_cards(hand)
    if len(cards) != 5:
        raise CardError(f"a draw hand needs exactly 5 cards, got {len(cards)}", field="hand")
    with blame("dead"):
        dead_cards = parse_cards(dead)
    if vs is None or isinstance(vs, str):  # one opponent as text, as the docstring shows
        specs: list[Any] = [] if vs is None else [vs]
    else:
        specs = list_argument(vs, "vs", "opponents (or one as text)")
    opponents = []
    for i, o in enumerate(specs):
        with blame(f"vs.{i}"):
            if not isinstance(o, str | Opponent):
                raise GameError(f"an opponent is text such as 'random' or 'AhAd7c4s2h' (or an "
                                f"Opponent), got {o!r}")  # fmt: skip
            opponents.append(parse_opponent(o) if isinstance(o, str) else o)
    groups: dict[str, Sequence[int]] = {"the hand": cards, "the dead cards": dead_cards}
    fields = {"the hand": "hand", "the dead cards": "dead"}
    for i, o in enumerate(opponents):
        if o.hands is not None and len(o.hands) == 1:
            groups[f"opponent {i + 1}"] = o.hands[0]
            fields[f"opponent {i + 1}"] = f"vs.{i}"
    ensure_distinct(groups, fields)
    known = cards_to_mask([*cards, *dead_cards])
    for i, o in enumerate(opponents):
        if o.hands is not None:
            for h in o.hands:
                if len(set(h)) != 5:
                    raise CardError(
                        f"opponent {i + 1}'s hand '{format_cards(h)}' repeats a card",
                        field=f"vs.{i}",
                    )
            kept = tuple(h for h in o.hands if not cards_to_mask(h) & known)
            if not kept:
                raise EmptyRangeError(
                    f"opponent {i + 1}'s hands all use a known card", field=f"vs.{i}"
                )
            opponents[i] = Opponent(kept, o.strategy, o.written)
    return cards, dead_cards, opponents


def check_max_draw(max_draw: object) -> None:
    """Refuse a ``max_draw`` that is not a whole number of cards from 0 to 5 (2.5 passed)."""
    if not is_whole(max_draw) or not 0 <= max_draw <= 5:  # type: ignore[operator]
        raise GameError(
            f"max_draw must be a whole number from 0 to 5, got {max_draw!r}", field="max_draw"
        )


def allowed_keeps(max_draw: int) -> list[int]:
    """The keep masks (bit ``i``: keep card ``i``) of the choices that draw at most
    ``max_draw`` cards, in mask order (all 32 for 5)."""
    return [m for m in range(32) if 5 - m.bit_count() <= max_draw]


def _check_draws(dead: list[Card], opponents: list[Opponent], max_draw: int) -> None:
    """Refuse opponents the sampler cannot hold to ``max_draw``, and tables that need more
    cards than the deck has: the hand and five draws (every choice is evaluated), the dead
    cards, and each opponent's five cards and the most it may draw (none when it stands pat)."""
    for i, o in enumerate(opponents):
        if o.strategy == "rules" and max_draw < 5:
            raise GameError(
                f"opponent {i + 1} draws by 'rules', which the sampler cannot hold to a limit of "
                f"{max_draw} cards (it may draw 4 or 5); give it 'random' (which keeps to the "
                "limit) or let it stand pat",
                field=f"vs.{i}",
            )
    opponent_cards = sum(5 + (0 if o.strategy in PAT_NAMES else max_draw) for o in opponents)
    need = 10 + len(dead) + opponent_cards
    if need > 52:
        raise GameError(
            f"not enough cards: the hand and its draws (10), the dead cards ({len(dead)}) and the "
            f"opponents' hands and draws ({opponent_cards}) need {need}; the deck has 52",
            field="vs",
        )


def _exact_pat(
    cards: list[Card],
    dead: list[Card],
    opponents: list[Opponent],
    t: GameTables,
    budget: int,
    threads: int,
) -> tuple[NDArray[np.float64], NDArray[np.float64], NDArray[np.float64], int] | None:
    """Exact win, tie and tie-equity per choice against opponents who stand pat with listed
    hands (every joint holding without a shared card equally likely, then every draw), or
    ``None`` when that takes more than ``budget`` evaluations."""
    lists = [o.hands or () for o in opponents]
    n_free = 47 - len(dead) - 5 * len(opponents)
    if _exact_size(dead, opponents) > budget:
        return None
    base = cards_to_mask([*cards, *dead])
    wins = np.zeros(32, dtype=np.int64)
    ties = np.zeros(32, dtype=np.int64)
    shares = np.zeros(32, dtype=np.float64)
    holdings = 0
    for joint in itertools.product(*lists):
        union = cards_to_mask(c for h in joint for c in h)
        if union.bit_count() != 5 * len(joint):
            continue
        holdings += 1
        hist = _histograms(np.array(cards, np.uint8), _free(base | union), t, threads)
        classes = [_class_of(h, t) for h in joint]
        best = max(classes)
        wins += hist[:, best + 1 :].sum(axis=1)
        ties += hist[:, best]
        shares += hist[:, best] / (classes.count(best) + 1)
    if holdings == 0:
        raise EmptyRangeError("the opponents' lists share a card in every joint holding")
    deals = np.array([math.comb(n_free, 5 - m.bit_count()) for m in range(32)]) * holdings
    return wins / deals, ties / deals, shares / deals, holdings


def _exact_size(dead: list[Card], opponents: list[Opponent]) -> int:
    """Evaluations of :func:`_exact_pat`: every joint holding of the listed hands (shared cards
    included) times every draw of each of the 32 choices."""
    n_free = 47 - len(dead) - 5 * len(opponents)
    per = sum(math.comb(5, k) * math.comb(n_free, k) for k in range(6))
    return math.prod(len(o.hands or ()) for o in opponents) * per


def _equities(
    cards: list[Card],
    dead: list[Card],
    opponents: list[Opponent],
    t: GameTables,
    method: str,
    trials: int | None,
    seed: int | None,
    threads: int,
    max_draw: int,
) -> tuple[str, int, NDArray[np.float64], int | None]:
    """Method, samples, rows (equity, win, tie, tie equity, stderr) x 32 choices, and the seed
    sampled with (``None``: exact)."""
    pat = all(o.strategy in PAT_NAMES and o.hands is not None for o in opponents)
    exact = None
    if method != "monte-carlo" and pat:
        budget = MAX_FORCED_EXACT if method == "exact" else MAX_EXACT
        exact = _exact_pat(cards, dead, opponents, t, budget, threads)
    if exact is not None:
        win, tie, tie_eq, holdings = exact
        rows = np.stack([win + tie_eq, win, tie, tie_eq, np.zeros(32)])
        return "exact", holdings, rows, None
    if method == "exact":
        use = "use Monte Carlo (--mc, method='mc')"
        if pat:
            raise TooLargeError(
                f"exact enumeration against these opponents is too large: "
                f"{_exact_size(dead, opponents):.2g} evaluations, at most {MAX_FORCED_EXACT:.0g} "
                f"(about 30 s on one core); {use}",
                field="method",
            )
        raise TooLargeError(
            f"exact enumeration is for listed hands that stand pat, not random hands or "
            f"opponents who draw; {use}",
            field="method",
        )
    n = trials or DEFAULT_TRIALS
    if seed is None:
        seed = fresh_seed()
    tally = sample_equities(cards, t.game, opponents, n, seed, dead, max_draw, threads)
    win, tie, tie_eq = tally[:, 0] / n, tally[:, 1] / n, tally[:, 2] / n
    eq = win + tie_eq
    err = sampled_stderr(eq, win + tally[:, 3] / n, n)  # the engine's; NaN for one deal
    return "monte-carlo", n, np.stack([eq, win, tie, tie_eq, err]), seed


def advise(
    hand: CardsLike,
    *,
    dead: CardsLike = "",
    vs: Sequence[str | Opponent] | str | None = None,
    game: str = "high",
    goal: str | None = None,
    method: Method = "auto",
    trials: int | None = None,
    seed: int | None = None,
    threads: int | None = None,
    max_draw: int = 5,
) -> DrawAdvice:
    """Evaluate and rank the 32 keep/discard choices of a 5-card hand (module docstring).

    ``vs``: opponents, each an :class:`Opponent` or text for :func:`parse_opponent`
    (``"random"``, ``"AhAd7c4s2h"``, ``"AhAd7c4s2h|KsKd9c8h2d:rules"``). ``method``: ``"exact"``
    (refused when too large), ``"mc"`` (``"monte-carlo"``) or ``"auto"`` (exact when it takes
    up to about 10**8 evaluations), in any letter case; ``trials`` and ``seed`` steer Monte
    Carlo (default 200,000 deals).
    ``threads``: how many threads the enumeration or the sampling uses (default: every
    available core; the answer is the same for any count, with a ``seed`` sampled ones too).
    ``max_draw``: the most cards one may draw (``3``: the 26 choices that draw 0 to 3, as many
    games rule); the other choices are left out of :attr:`DrawAdvice.choices`. The limit holds
    for the opponents too: a ``random`` one keeps to it, and a ``rules`` one (which may draw 4
    or 5) is refused under it."""
    started = time.perf_counter()
    with blame("game"):
        t = game_tables(normalize_game(game))  # a list as the game: "unhashable type: 'list'"
    cards, dead_cards, opponents = _validate(hand, dead, vs)
    with blame("goal"):
        goal_index = None if goal is None else _parse_goal(t, goal)
    method = read_method(method)
    check_sampling(trials, None, None, capped=False, named=True)  # as equity checks it
    trials = None if trials is None else int(trials)  # numpy's integers as Python's
    seed = check_seed(seed)
    if not opponents:
        steer = {"method": method != "auto", "trials": trials is not None, "seed": seed is not None}
        given = [name for name, set_ in steer.items() if set_]
        if given:
            raise GameError(
                f"{', '.join(given)} set{'s' if len(given) == 1 else ''} how equity against "
                "opponents is computed; give the opponents (vs)",
                field=given[0],
            )
    check_exact_options(method, trials=trials, seed=seed)
    with blame("threads"):
        workers = resolve_threads(threads)
    check_max_draw(max_draw)
    _check_draws(dead_cards, opponents, max_draw)
    known = [h for o in opponents if o.hands is not None and len(o.hands) == 1 for h in o.hands]
    view = _free(cards_to_mask([*cards, *dead_cards, *(c for h in known for c in h)]))
    hist = _histograms(np.array(cards, np.uint8), view, t, workers)
    counts = np.add.reduceat(hist, t.starts, axis=1, dtype=np.int64)  # classes sorted by bucket
    totals = counts.sum(axis=1)
    scores = hist @ t.score / totals
    used_method, samples, eqs, used_seed = None, 0, None, None
    if opponents:
        used_method, samples, eqs, used_seed = _equities(
            cards, dead_cards, opponents, t, method, trials, seed, workers, max_draw
        )
    at_goal = counts[:, goal_index:].sum(axis=1) / totals if goal_index is not None else scores
    keys = eqs[0] if eqs is not None else at_goal
    order = sorted(allowed_keeps(max_draw), key=lambda m: (-keys[m], -at_goal[m], -scores[m], -m))
    choices = []
    for m in order:
        keep = tuple(c for i, c in enumerate(cards) if m >> i & 1)
        choice = DrawChoice(
            keep=keep,
            discard=tuple(c for c in cards if c not in keep),
            draws=int(totals[m]),
            counts=tuple(int(x) for x in counts[m]),
            categories={name: float(counts[m, i] / totals[m]) for i, name in enumerate(t.names)},
            score=float(scores[m]),
        )
        if eqs is not None:
            equity, win, tie, tie_equity, stderr = (float(x) for x in eqs[:, m])
            choice = replace(
                choice, equity=equity, win=win, tie=tie, tie_equity=tie_equity, stderr=stderr
            )
        choices.append(choice)
    return DrawAdvice(
        hand=tuple(cards),
        game=t.game,
        dead=tuple(dead_cards),
        opponents=tuple(o.text() for o in opponents),
        goal=None if goal_index is None else t.names[goal_index],
        method=used_method,
        samples=samples,
        seconds=time.perf_counter() - started,
        choices=tuple(choices),
        max_draw=max_draw,
        seed=used_seed,
    )
