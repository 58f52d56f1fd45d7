"""Five-card draw bots: a strategy interface, four built-in strategies and a match runner.

A :class:`Strategy` is given its five cards and what it knows (:class:`Known`: the game, dead
cards, random bits for randomized play) and says which cards it throws. Built-ins
(:func:`get_strategy`):

* ``random``: throws a uniformly random subset (each of the 32 keep sets equally likely).
* ``stand-pat``: never draws.
* ``rules``: rules of thumb. High: stand pat on a straight or better; keep trips, two pair or
  a pair (every paired card); else keep four to a flush; else an open-ended straight draw (four
  in a row from 2345 to TJQK); else keep the highest card if it is a jack or better and draw
  four (else draw five). 2-7: stand pat on a 9-low or better; else keep one card of each rank
  from 2 to 8, lowest first, at most four, and draw the rest.
* ``optimal``: the :func:`~pokerlab.analysis.draw.advise` best choice against one random
  opponent hand that stands pat (Monte Carlo, ``trials`` deals with common random numbers for
  all 32 choices), cached per suit-isomorphic hand class and seeded by the class, so the
  answer for a hand never depends on the order in which hands come. Among choices of exactly
  equal equity it keeps the first in keep-mask order, where ``advise`` ranks such ties by
  score: with ``AAAAK`` (both choices win every deal) it keeps the aces and draws one, where
  the advisor stands pat; either maximises the equity.

:func:`round_robin` (and :func:`play_match` for two bots) plays heads-up deals: a seeded
xoshiro256** stream per pair of bots (independent streams spawned from the seed) shuffles a
deck per deal, each bot gets five cards, then both discard and
draw from the same deck in turn (who draws first alternates), and the better hand wins.
Results per match: win/tie/loss rates with 95 % Wilson intervals and a two-sided exact
binomial (sign) test of wins against losses; per bot: standings over all its hands.

>>> t = round_robin(["rules", "random"], hands=2000, seed=1)
>>> m = t.matches[0]
>>> m.bots, m.wins + m.ties + m.losses, m.better
(('rules', 'random'), 2000, 'rules')
"""

from __future__ import annotations

import itertools
import math
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from numpy.typing import NDArray

from pokerlab._numbers import is_whole
from pokerlab._results import ArrayFields
from pokerlab._threads import resolve_threads
from pokerlab.analysis.draw import (
    Opponent,
    allowed_keeps,
    check_max_draw,
    game_tables,
    normalize_game,
    sample_equities,
)
from pokerlab.cards import Card, parse_cards
from pokerlab.engine._control import CancelLike, check_callbacks, given_seed, is_cancelled
from pokerlab.engine.limits import check_sampling
from pokerlab.errors import CancelledError, CardError, GameError, blame, list_argument

__all__ = [
    "STRATEGIES",
    "Known",
    "MatchResult",
    "MaxDraw",
    "OptimalStrategy",
    "RandomStrategy",
    "RulesStrategy",
    "StandPatStrategy",
    "Standing",
    "Strategy",
    "Tournament",
    "binomial_p_value",
    "canonical_hand",
    "get_strategy",
    "play_match",
    "round_robin",
    "wilson_interval",
]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Known:
    """What a bot knows when it discards: the game, dead cards it has seen, and 64 random bits
    (``noise``) from the match runner for strategies that play at random (so a seeded match is
    reproducible)."""

    game: str = "high"
    dead: tuple[Card, ...] = ()
    noise: int = 0


class Strategy(ABC):
    """A discard strategy: implement :meth:`discard`; :meth:`keep_masks` may be overridden with
    a vectorised version (the match runner calls it)."""

    name: str = "strategy"

    @abstractmethod
    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        """The cards of ``hand`` to throw away."""

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        """Keep mask (bit ``i`` keeps ``hands[r, i]``) for every row; by default one
        :meth:`discard` call per row."""
        out = np.empty(len(hands), dtype=np.uint8)
        for r, row in enumerate(hands):
            hand = [Card(int(c)) for c in row]
            thrown = set(self.discard(hand, Known(game, (), int(noise[r]))))
            out[r] = sum(1 << i for i, c in enumerate(hand) if c not in thrown)
        return out


def _thrown(hand: Sequence[Card], keep: int) -> tuple[Card, ...]:
    return tuple(c for i, c in enumerate(hand) if not keep >> i & 1)


class RandomStrategy(Strategy):
    """Throws a uniformly random subset (the low five bits of ``known.noise``)."""

    name = "random"

    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        return _thrown(hand, known.noise & 31)

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        return (noise & np.uint64(31)).astype(np.uint8)


class StandPatStrategy(Strategy):
    """Never draws."""

    name = "stand-pat"

    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        return ()

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        return np.full(len(hands), 31, dtype=np.uint8)


class RulesStrategy(Strategy):
    """Rules of thumb (module docstring), one numba kernel for both games."""

    name = "rules"

    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        rows = np.array([[int(c) for c in hand]], dtype=np.uint8)
        keep = self.keep_masks(rows, known.game, np.zeros(1, dtype=np.uint64))
        return _thrown(hand, int(keep[0]))

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        from pokerlab.analysis import _draw_kernels as D
        from pokerlab.evaluation import _kernels as K

        t = game_tables(game)
        out = np.empty(len(hands), dtype=np.uint8)
        D.rules_keep_rows(
            np.ascontiguousarray(hands, dtype=np.uint8),
            t.code,
            K.CARD_KEY,
            K.CARD_MASK,
            t.multiplier,
            t.displace,
            t.values,
            t.bucket_of,
            out,
        )
        return out


_SUIT_PERMS = tuple(itertools.permutations(range(4)))


def canonical_hand(codes: Sequence[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The suit-isomorphism class of a hand: its smallest sorted image under the 24 suit
    permutations, and that permutation (``perm[suit]`` = new suit).

    >>> canonical_hand([51, 47, 0, 1, 2])[0] == canonical_hand([50, 46, 0, 1, 3])[0]  # AsKs vs AhKh
    True
    """
    best: tuple[int, ...] | None = None
    best_perm = _SUIT_PERMS[0]
    for perm in _SUIT_PERMS:
        image = tuple(sorted(c & ~3 | perm[c & 3] for c in codes))
        if best is None or image < best:
            best, best_perm = image, perm
    assert best is not None
    return best, best_perm


def class_number(canon: Sequence[int]) -> int:
    """One integer per canonical hand (five ascending card codes, base 52, first card lowest):
    what seeds the optimal bot's stream for the class and keys the shipped table."""
    return sum(c * 52**i for i, c in enumerate(canon))


def _keep_in_hand(
    codes: Sequence[int], canon: tuple[int, ...], perm: tuple[int, ...], keep: int
) -> int:
    """The keep mask ``keep`` of the class representative ``canon`` as positions of ``codes``
    (``perm`` maps the hand's suits to the representative's)."""
    kept = {canon[i] for i in range(5) if keep >> i & 1}
    return sum(1 << i for i, c in enumerate(codes) if (c & ~3 | perm[c & 3]) in kept)


class OptimalStrategy(Strategy):
    """The advisor's best choice against one random opponent hand standing pat (Monte Carlo
    with ``trials`` deals per hand class), cached per suit-isomorphic class. At the default
    ``trials`` and ``seed`` the choices come from the shipped table of every class
    (:mod:`pokerlab.analysis._optimal_table`, computed by this same kernel and seeding);
    ``use_table=False`` computes them."""

    name = "optimal"
    DEFAULT_TRIALS = 40_000
    DEFAULT_SEED = 0

    def __init__(
        self, trials: int = DEFAULT_TRIALS, seed: int = DEFAULT_SEED, use_table: bool = True
    ) -> None:
        if trials is None:  # the check's "not given"; a bot samples a number of deals
            raise GameError("trials: must be a whole number, got None", field="trials")
        check_sampling(trials, None, None, capped=False, named=True)  # numba counts in int64
        self.trials = int(trials)
        self.seed = given_seed(seed)  # a negative seed ran, wrapped around to another one
        self.use_table = use_table
        self._cache: dict[tuple[str, tuple[int, ...]], int] = {}

    def _class_seed(self, canon: tuple[int, ...]) -> int:
        return int(self.seed * 1_000_003 + class_number(canon))

    def computed_keeps(self, game: str, canons: Sequence[tuple[int, ...]]) -> NDArray[np.uint8]:
        """The keep mask of each canonical hand of ``canons``, computed: one parallel kernel
        call (numba's thread count: :func:`round_robin` sets it), each class on the random
        stream of its own seed, so the answers never depend on the threads or the order."""
        from pokerlab.analysis import _draw_kernels as D
        from pokerlab.engine._sampling import seed_state
        from pokerlab.evaluation import _kernels as K

        t = game_tables(game)
        hands = np.array(canons, dtype=np.uint8).reshape(-1, 5)
        states = np.stack([seed_state(self._class_seed(c)) for c in canons])
        keeps = np.empty(len(canons), dtype=np.int64)
        D.best_against_random(
            hands,
            states,
            self.trials,
            t.code,
            K.CARD_KEY,
            K.CARD_MASK,
            t.multiplier,
            t.displace,
            t.values,
            t.bucket_of,
            keeps,
        )
        return keeps.astype(np.uint8)

    def _learn(self, game: str, canons: Sequence[tuple[int, ...]]) -> None:
        """Fill the cache for every class of ``canons`` not in it: from the shipped table at
        the default settings, else computed (:meth:`computed_keeps`)."""
        from pokerlab.analysis import _optimal_table

        missing = [c for c in dict.fromkeys(canons) if (game, c) not in self._cache]
        if not missing:
            return
        keeps = None
        if self.use_table:
            keeps = _optimal_table.lookup(game, missing, self.trials, self.seed)
        if keeps is None:
            keeps = self.computed_keeps(game, missing).tolist()
        for canon, keep in zip(missing, keeps, strict=True):
            self._cache[(game, canon)] = keep

    def _keep_canonical(self, game: str, canon: tuple[int, ...]) -> int:
        self._learn(game, [canon])
        return self._cache[(game, canon)]

    def keep_mask(self, codes: Sequence[int], game: str, dead: Sequence[int] = ()) -> int:
        """Keep mask of one hand (positions of ``codes``)."""
        if dead:
            tally = sample_equities(codes, game, [Opponent()], self.trials, self.seed, dead)
            return int(np.argmax(tally[:, 0] + tally[:, 2]))
        canon, perm = canonical_hand(codes)
        return _keep_in_hand(codes, canon, perm, self._keep_canonical(normalize_game(game), canon))

    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        keep = self.keep_mask([int(c) for c in hand], known.game, [int(c) for c in known.dead])
        return _thrown(hand, keep)

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        name = normalize_game(game)
        classes = [canonical_hand(row) for row in hands.tolist()]
        self._learn(name, [canon for canon, _ in classes])
        return np.array(
            [_keep_in_hand(row, *cls, self._cache[(name, cls[0])]) for row, cls in
             zip(hands.tolist(), classes, strict=True)],
            dtype=np.uint8,
        )  # fmt: skip


class MaxDraw(Strategy):
    """A strategy under a draw limit (``max_draw`` cards, e.g. 3: the 26 choices many games
    allow). The random bot picks uniformly among the allowed choices; any other bot plays as
    usual, and where it would draw more, keeps what the advisor (no opponent, best expected
    percentile) ranks first among the allowed choices."""

    def __init__(self, inner: Strategy, max_draw: int) -> None:
        check_max_draw(max_draw)
        self.inner = inner
        self.max_draw = max_draw
        self.name = inner.name
        self._allowed = np.array(allowed_keeps(max_draw), dtype=np.uint8)

    def discard(self, hand: Sequence[Card], known: Known) -> tuple[Card, ...]:
        rows = np.array([[int(c) for c in hand]], dtype=np.uint8)
        keep = self.keep_masks(rows, known.game, np.array([known.noise], dtype=np.uint64))
        return _thrown(hand, int(keep[0]))

    def keep_masks(
        self, hands: NDArray[np.uint8], game: str, noise: NDArray[np.uint64]
    ) -> NDArray[np.uint8]:
        from pokerlab.analysis.draw import advise

        if isinstance(self.inner, RandomStrategy):
            return self._allowed[(noise % np.uint64(len(self._allowed))).astype(np.intp)]
        keeps = np.asarray(self.inner.keep_masks(hands, game, noise), dtype=np.uint8).copy()
        for r in range(len(hands)):
            if 5 - int(keeps[r]).bit_count() > self.max_draw:
                row = hands[r].tolist()
                best = advise(row, game=game, max_draw=self.max_draw).best
                keeps[r] = sum(1 << i for i, c in enumerate(row) if Card(c) in best.keep)
        return keeps


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "random": RandomStrategy,
    "stand-pat": StandPatStrategy,
    "rules": RulesStrategy,
    "optimal": OptimalStrategy,
}


def get_strategy(name: str | Strategy) -> Strategy:
    """A built-in strategy by name (``random``, ``stand-pat``/``pat``, ``rules``, ``optimal``)."""
    if isinstance(name, Strategy):
        return name
    if not isinstance(name, str):
        raise GameError(f"a bot is a name ({', '.join(STRATEGIES)}) or a Strategy, got {name!r}")
    key = name.strip().lower()
    key = "stand-pat" if key in ("pat", "standpat", "stand_pat") else key
    if key not in STRATEGIES:
        raise GameError(f"unknown bot '{name}': use one of {', '.join(STRATEGIES)}")
    return STRATEGIES[key]()


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (95 % by default).

    >>> [round(x, 4) for x in wilson_interval(50, 100)]
    [0.4038, 0.5962]
    """
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # at a rate of 0 or 1 the end is exactly the rate (rounding left 3.5e-18 above 0)
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


def binomial_p_value(wins: int, losses: int) -> float:
    """Two-sided exact binomial (sign) test of ``wins`` against ``losses`` at 1/2.

    >>> round(binomial_p_value(60, 40), 4)
    0.0569
    """
    n = wins + losses
    if n == 0:
        return 1.0
    k = min(wins, losses)
    # P(X <= k) for X ~ Binomial(n, 1/2): the largest term, C(n, k) / 2^n, times the sum of the
    # terms relative to it, C(n, i - 1) / C(n, i) = i / (n - i + 1), down from i = k until they
    # stop counting (a Gaussian decay: a few thousand terms for 10^7 deals, where summing all
    # k + 1 of them took seconds)
    log_top = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + n * math.log(0.5)
    total = ratio = 1.0
    for i in range(k, 0, -1):
        ratio *= i / (n - i + 1)
        total += ratio
        if ratio < 1e-17 * total:
            break
    return min(1.0, 2.0 * math.exp(log_top) * total)


def _rates(wins: int, ties: int, losses: int) -> dict[str, Any]:
    n = wins + ties + losses
    return {
        name: {"rate": count / n if n else 0.0, "ci95": list(wilson_interval(count, n))}
        for name, count in (("win", wins), ("tie", ties), ("loss", losses))
    }


@dataclass(frozen=True, eq=False)
class MatchResult(ArrayFields):
    """``bots[0]`` against ``bots[1]`` over ``hands`` deals; counts from ``bots[0]``'s view.
    ``outcomes[i]`` is +1 (``bots[0]`` won deal ``i``), 0 (tie) or -1."""

    bots: tuple[str, str]
    game: str
    hands: int
    wins: int
    ties: int
    losses: int
    outcomes: NDArray[np.int8] = field(repr=False)

    @property
    def z(self) -> float:
        """``(wins - losses) / sqrt(wins + losses)``: the sign test's normal statistic."""
        decided = self.wins + self.losses
        return (self.wins - self.losses) / math.sqrt(decided) if decided else 0.0

    @property
    def p_value(self) -> float:
        """Two-sided exact binomial test of wins against losses (ties left out)."""
        return binomial_p_value(self.wins, self.losses)

    @property
    def better(self) -> str | None:
        """The bot that won more often, if the difference is significant at 5 %."""
        if self.p_value >= 0.05 or self.wins == self.losses:
            return None
        return self.bots[0] if self.wins > self.losses else self.bots[1]

    def win_interval(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.hands)

    def to_dict(self) -> dict[str, Any]:
        return {
            "bots": list(self.bots),
            "hands": self.hands,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "rates": _rates(self.wins, self.ties, self.losses),
            "z": self.z,
            "p_value": self.p_value,
            "better": self.better,
        }


@dataclass(frozen=True)
class Standing:
    """One bot's totals over all its matches."""

    bot: str
    hands: int
    wins: int
    ties: int
    losses: int

    @property
    def win_rate(self) -> float:
        return self.wins / self.hands if self.hands else 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "hands": self.hands,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "rates": _rates(self.wins, self.ties, self.losses),
        }


@dataclass(frozen=True)
class Tournament:
    """A round robin: every pair of bots plays ``hands`` deals (:func:`round_robin`; fewer
    than asked for when ``cancelled``)."""

    game: str
    seed: int
    hands: int
    bots: tuple[str, ...]
    matches: tuple[MatchResult, ...]
    seconds: float = field(compare=False)  # a timing, not part of the answer
    cancelled: bool = False

    @property
    def standings(self) -> tuple[Standing, ...]:
        """Bots by win rate over all their hands, best first."""
        out = []
        for bot in self.bots:
            w = t = lo = 0
            for m in self.matches:
                if bot in m.bots:
                    mine = m.bots[0] == bot
                    w, lo = w + (m.wins if mine else m.losses), lo + (m.losses if mine else m.wins)
                    t += m.ties
            out.append(Standing(bot, w + t + lo, w, t, lo))
        return tuple(sorted(out, key=lambda s: -s.win_rate))

    def series(self, bot: str) -> NDArray[np.int8]:
        """The bot's outcomes (+1, 0, -1) in the order played: deal by deal, its matches
        interleaved."""
        rows = [
            m.outcomes if m.bots[0] == bot else -m.outcomes for m in self.matches if bot in m.bots
        ]
        return np.stack(rows, axis=1).reshape(-1).astype(np.int8)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready form (``pokerlab draw match --json``)."""
        return {
            "game": self.game,
            "seed": self.seed,
            "hands": self.hands,
            "bots": list(self.bots),
            "matches": [m.to_dict() for m in self.matches],
            "standings": [s.to_dict() for s in self.standings],
            "seconds": self.seconds,
            "cancelled": self.cancelled,
        }


_CHUNK = 400  # deals per progress report (and per parallel call of a strategy)
MAX_HANDS = 100_000_000
"""Most deals per pair: every deal's outcome is kept (a byte each, for the series and the
plots), so 10^8 deals hold 100 MB per pair (and take 24-40 s for the fastest pairs)."""


def round_robin(
    bots: Sequence[str | Strategy],
    hands: int = 10_000,
    *,
    game: str = "high",
    seed: int = 0,
    progress: Callable[[float], object] | None = None,
    threads: int | None = None,
    max_draw: int = 5,
    cancel: CancelLike = None,
) -> Tournament:
    """Every pair of ``bots`` plays ``hands`` heads-up deals (module docstring); with
    ``max_draw`` below 5 each bot plays under that limit (:class:`MaxDraw`). ``threads``: how
    many threads the strategies' kernels use (default: every available core); the results are
    the same for any count. The pairs play in turn, a few hundred deals at a time, so
    ``cancel`` (an Event or a callable) ends the round robin with every pair at the same number
    of deals (``Tournament.cancelled``; each of those deals is the one a whole run plays);
    :class:`CancelledError` if no deal was played."""
    from pokerlab.evaluation._parallel import numba_threads

    check_callbacks(cancel, progress=progress)  # an int: "'int' object is not callable" later
    strategies = []
    for i, bot in enumerate(list_argument(bots, "bots", "bot names or Strategy objects")):
        with blame(f"bots.{i}"):
            strategies.append(get_strategy(bot))
    with blame("threads"):
        workers = resolve_threads(threads)
    with numba_threads(workers):
        return _round_robin(strategies, hands, game, seed, progress, max_draw, cancel)


def _round_robin(
    strategies: list[Strategy],
    hands: int,
    game: str,
    seed: int,
    progress: Callable[[float], object] | None,
    max_draw: int,
    cancel: CancelLike,
) -> Tournament:
    from pokerlab.analysis import _draw_kernels as D
    from pokerlab.engine._sampling import chunk_state
    from pokerlab.evaluation import _kernels as K

    started = time.perf_counter()
    name = normalize_game(game)
    check_max_draw(max_draw)
    if max_draw < 5:
        strategies = [MaxDraw(s, max_draw) for s in strategies]
    names = tuple(s.name for s in strategies)
    if len(strategies) < 2:
        raise GameError("a match needs at least two bots", field="bots")
    if len(set(names)) != len(names):
        raise GameError(f"each bot may play once in a round robin, got {', '.join(names)}",
                        field="bots")  # fmt: skip
    seed = given_seed(seed)
    if not is_whole(hands) or not 1 <= hands <= MAX_HANDS:
        shown = f"{hands:,}" if is_whole(hands) else repr(hands)
        raise GameError(f"hands must be a whole number from 1 to {MAX_HANDS:,} per pair, got "
                        f"{shown}", field="hands")  # fmt: skip
    # plain ints from here: np.int64(10) made the counts numpy's, which json.dumps refuses
    hands = int(hands)
    t = game_tables(name)
    pairs = list(itertools.combinations(range(len(strategies)), 2))
    # each pair its own stream of the seed (independent xoshiro256** states), so every pair
    # starts at once and its deals do not depend on how the play is interleaved
    states = [chunk_state(seed, p) for p in range(len(pairs))]
    outcomes = [np.empty(hands, dtype=np.int8) for _ in pairs]
    played = 0
    while played < hands and not is_cancelled(cancel):
        lo, hi = played, min(hands, played + _CHUNK)
        for p, (a, b) in enumerate(pairs):
            decks = np.empty((hi - lo, 20), dtype=np.uint8)
            noise = np.empty((hi - lo, 2), dtype=np.uint64)
            D.deal_decks(states[p], decks, noise)
            keeps = np.empty((hi - lo, 2), dtype=np.uint8)
            for seat, s in ((0, a), (1, b)):
                keeps[:, seat] = strategies[s].keep_masks(
                    decks[:, 5 * seat : 5 * seat + 5], name, noise[:, seat]
                )
            first = (np.arange(lo, hi) & 1).astype(np.int64)
            D.play_deals(
                decks, keeps, first, K.CARD_KEY, K.CARD_MASK, t.multiplier, t.displace, t.values,
                outcomes[p][lo:hi],
            )  # fmt: skip
        played = hi
        if progress is not None:
            progress(played / hands)
    if played == 0:
        raise CancelledError("the match was cancelled before its first deals")
    matches = []
    for (a, b), out in zip(pairs, outcomes, strict=True):
        out = out[:played]
        wins, losses = int((out == 1).sum()), int((out == -1).sum())
        ties = played - wins - losses
        matches.append(MatchResult((names[a], names[b]), name, played, wins, ties, losses, out))
    seconds = time.perf_counter() - started
    return Tournament(name, seed, played, names, tuple(matches), seconds, played < hands)


def play_match(
    a: str | Strategy,
    b: str | Strategy,
    hands: int = 10_000,
    *,
    game: str = "high",
    seed: int = 0,
    progress: Callable[[float], object] | None = None,
    threads: int | None = None,
) -> MatchResult:
    """``a`` against ``b`` over ``hands`` deals (:func:`round_robin` of the two)."""
    with blame("a"):
        first = get_strategy(a)
    with blame("b"):
        second = get_strategy(b)
    if first.name == second.name:  # not "each bot may play once in a round robin"
        raise GameError(
            f"a and b are both the '{first.name}' bot; a match is between two different bots",
            field="b",
        )
    match = round_robin(
        [first, second], hands, game=game, seed=seed, progress=progress, threads=threads
    )
    return match.matches[0]


def discard_for(bot: str | Strategy, hand: str, game: str = "high") -> tuple[Card, ...]:
    """What a bot throws from a hand given as text (a convenience for the CLI and tests).

    >>> [str(c) for c in discard_for("rules", "Jh Jd 7c 4s 2h")]
    ['7c', '4s', '2h']
    """
    cards = parse_cards(hand)
    if len(cards) != 5:
        raise CardError(f"a draw hand needs exactly 5 cards, got {len(cards)}")
    return get_strategy(bot).discard(cards, Known(normalize_game(game)))
