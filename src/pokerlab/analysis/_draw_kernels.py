"""numba kernels of five-card draw: exact draw enumeration, Monte Carlo equity of the 32 choices,
rule-of-thumb discards and heads-up match deals. Private: callers validate.

Conventions
-----------
* A *choice* is a keep mask ``m`` in ``0..31``: bit ``i`` keeps ``hand[i]``; the player draws
  ``5 - popcount(m)`` cards.
* ``values`` is a table indexed like the high evaluator's (``_kernels.table_index``) holding
  *dense* class indices ``0..7461`` (larger is better) of the game being played (high or 2-7), so
  one histogram row per choice has 7,462 bins whatever the game; ``bucket_of`` maps a dense
  index to its category (high) or bucket (2-7).
* Card codes used as indices are unsigned (``uint8``/``uint64``): numba adds a negative-index
  check per lookup on signed ones (see ``evaluation/_kernels``).
* Random numbers: xoshiro256** of ``equity._sampling`` (``below``, ``next_u64``,
  ``deal_cards``), so runs are reproducible from a seed.
"""

from __future__ import annotations

import numpy as np
from numba import prange, uint64

from pokerlab._jit import njit
from pokerlab.engine._sampling import below, deal_cards, next_u64
from pokerlab.evaluation._kernels import EMPTY_KEY, strength_histogram, table_index

N_CHOICES = 32
HIGH, DEUCE7 = 0, 1
PAT, RULES, RANDOM = 0, 1, 2
_Z = np.uint64(0)
_ONE = np.uint64(1)
_SEVEN = np.uint64(7)
# Category / bucket thresholds the rules read (high categories; 2-7 buckets).
_HIGH_STRAIGHT = 4
_HIGH_PAIR_PLUS = 1
_D7_PAT_BUCKET = 6  # 9-low or better stands pat


@njit(cache=True)
def keep_keys(hand, card_key, card_mask, keys, masks, draws):
    """Per keep mask: the additive key and card mask of the kept cards and the draw count."""
    for m in range(N_CHOICES):
        key = EMPTY_KEY
        mask = _Z
        kept = 0
        for i in range(5):
            if (m >> i) & 1:
                key += card_key[hand[i]]
                mask |= card_mask[hand[i]]
                kept += 1
        keys[m] = key
        masks[m] = mask
        draws[m] = 5 - kept


@njit(cache=True, parallel=True)
def choice_histograms(hand, free, card_key, card_mask, mult, displace, values, hist, workers):
    """``hist[m, v]`` += number of draws from ``free`` (uint8 codes) after keeping mask ``m``
    that end in the dense class ``v``; every ``(5 - kept)``-subset of ``free`` once, by the
    evaluator's incremental subset walk
    (:func:`~pokerlab.evaluation._kernels.strength_histogram`, fastest with ``free`` in code
    order) from the kept cards' key, on ``workers`` threads.

    The work is cut into tasks: a choice drawing up to three cards is one task, a larger draw
    one task per first card (drawing five is over half of all the work). Worker ``w`` takes
    tasks ``w, w + workers, ...``: a choice's tasks shrink one after another, so each worker
    gets about its share of every choice, whatever a subset costs in it (that cost varies by
    choice: the walk counts a rank's cards at once where no flush can come). Each worker
    counts into its own histogram rows, which are added up at the end: integer counts, so the
    result is the same for any number of workers."""
    keys = np.empty(N_CHOICES, np.uint64)
    masks = np.empty(N_CHOICES, np.uint64)
    draws = np.empty(N_CHOICES, np.int64)
    keep_keys(hand, card_key, card_mask, keys, masks, draws)
    n = free.shape[0]
    task_m = np.empty(N_CHOICES * (n + 1), np.int64)
    task_a = np.empty(N_CHOICES * (n + 1), np.int64)
    tasks = 0
    for m in range(N_CHOICES):
        k = draws[m]
        for a in range(n) if k > 3 else range(-1, 0):
            task_m[tasks] = m
            task_a[tasks] = a
            tasks += 1
    bins = hist.shape[1]
    acc = np.zeros((workers, N_CHOICES, bins), np.int32)
    for w in prange(workers):
        for t in range(w, tasks, workers):
            m = task_m[t]
            a = task_a[t]
            if a < 0:
                strength_histogram(
                    keys[m], masks[m], free, draws[m], card_key, card_mask, mult, displace,
                    values, acc[w, m],
                )  # fmt: skip
            else:
                c = free[a]
                strength_histogram(
                    keys[m] + card_key[c], masks[m] | card_mask[c], free[a + 1 :].copy(),
                    draws[m] - 1, card_key, card_mask, mult, displace, values, acc[w, m],
                )  # fmt: skip
    for w in range(workers):
        for m in range(N_CHOICES):
            for v in range(bins):
                hist[m, v] += acc[w, m, v]


@njit(cache=True)
def class_of(cards, card_key, card_mask, mult, displace, values):
    """Dense class of five cards (uint8 codes)."""
    key = EMPTY_KEY
    mask = _Z
    for i in range(5):
        key += card_key[cards[i]]
        mask |= card_mask[cards[i]]
    return values[table_index(key, mask, mult, displace)]


@njit(cache=True)
def rules_keep(cards, game, card_key, card_mask, mult, displace, values, bucket_of):
    """Keep mask of the rule-of-thumb strategy for five cards (see ``bots.RulesStrategy``)."""
    key = EMPTY_KEY
    for i in range(5):
        key += card_key[cards[i]]
    bucket = bucket_of[class_of(cards, card_key, card_mask, mult, displace, values)]
    keep = 0
    if game == HIGH:
        if bucket >= _HIGH_STRAIGHT:
            return 31
        if bucket >= _HIGH_PAIR_PLUS:  # keep every card that is paired (pair, two pair, trips)
            for i in range(5):
                if (key >> (uint64(cards[i] >> 2) * np.uint64(3))) & _SEVEN >= 2:
                    keep |= 1 << i
            return keep
        for s in range(4):  # four to a flush
            keep = 0
            for i in range(5):
                if cards[i] & 3 == s:
                    keep |= 1 << i
            if _popcount5(keep) == 4:
                return keep
        ranks = 0
        for i in range(5):
            ranks |= 1 << (cards[i] >> 2)
        for low in range(8, -1, -1):  # open-ended: four in a row from 2345 up to TJQK
            window = 15 << low
            if ranks & window == window:
                keep = 0
                for i in range(5):
                    if (window >> (cards[i] >> 2)) & 1:
                        keep |= 1 << i
                return keep
        top = 0
        for i in range(5):  # else the highest card if it is a jack or better
            if cards[i] > cards[top]:
                top = i
        return (1 << top) if cards[top] >> 2 >= 9 else 0
    if bucket >= _D7_PAT_BUCKET:
        return 31
    seen = 0
    for r in range(7):  # one card of each rank 2..8, lowest first, at most four
        for i in range(5):
            if cards[i] >> 2 == r and not (seen >> r) & 1:
                seen |= 1 << r
                keep |= 1 << i
                break
        if _popcount5(keep) == 4:
            break
    return keep


@njit(cache=True, inline="always")
def _popcount5(m):
    return (m & 1) + ((m >> 1) & 1) + ((m >> 2) & 1) + ((m >> 3) & 1) + ((m >> 4) & 1)


@njit(cache=True)
def rules_keep_rows(hands, game, card_key, card_mask, mult, displace, values, bucket_of, out):
    """:func:`rules_keep` of every row of ``hands`` (n, 5)."""
    for i in range(hands.shape[0]):
        out[i] = rules_keep(hands[i], game, card_key, card_mask, mult, displace, values, bucket_of)


@njit(cache=True)
def sample_choices(
    hand,
    fixed_mask,
    opp_hands,
    opp_offsets,
    opp_strategy,
    random_keeps,
    game,
    n_trials,
    max_rejects,
    state,
    card_key,
    card_mask,
    mult,
    displace,
    values,
    bucket_of,
    tally,
):
    """Monte Carlo equity of all 32 choices against opponents, with common random numbers.

    Opponent ``p`` holds a hand drawn uniformly from rows ``opp_offsets[p]:opp_offsets[p+1]`` of
    ``opp_hands`` (a known hand is a list of one) or, for an empty slice, five random cards; the
    joint draw of the listed hands is rejected whole on a shared card (``definitions.md``). Then
    five replacement cards ``S`` are dealt for us (choice ``m`` draws the first ``5 - kept`` of
    them) and each opponent draws by ``opp_strategy[p]`` (PAT, RULES, RANDOM: a keep mask
    drawn uniformly from ``random_keeps``, the choices a draw limit allows) from the cards
    outside ``S``: given our first ``k`` cards the rest of ``S`` is a uniform set, so every
    choice sees exactly the deal distribution of its own draw. ``fixed_mask``: our hand and the
    dead cards.

    ``tally[m]`` += (wins, deals with a share strictly between 0 and 1, sum of those shares, sum
    of their squares), counted as integers (wins, ties by the number of opponents tied) and
    added to ``tally`` at the end. Returns the number of rejected joint draws, or -1 after
    ``max_rejects`` rejections in a row."""
    n_opp = opp_strategy.shape[0]
    keys = np.empty(N_CHOICES, np.uint64)
    masks = np.empty(N_CHOICES, np.uint64)
    draws = np.empty(N_CHOICES, np.int64)
    keep_keys(hand, card_key, card_mask, keys, masks, draws)
    dealt = np.empty(5, np.int64)
    chosen = np.empty(max(n_opp, 1), np.int64)
    held = np.empty((max(n_opp, 1), 5), np.uint8)
    final = np.empty(5, np.uint8)
    pre_key = np.empty(6, np.uint64)
    pre_mask = np.empty(6, np.uint64)
    wins = np.zeros(N_CHOICES, np.int64)  # integer counts in the loop, the tally once at the end
    ties = np.zeros((N_CHOICES, n_opp + 1), np.int64)  # by the number of opponents tied
    rejected = 0
    for _ in range(n_trials):
        streak = 0
        while True:  # the listed hands, jointly, rejected whole on any shared card
            used = fixed_mask
            ok = True
            for p in range(n_opp):
                size = opp_offsets[p + 1] - opp_offsets[p]
                if size == 0:
                    continue
                t = opp_offsets[p] + below(state, size)
                bits = _Z
                for j in range(5):
                    bits |= _ONE << uint64(opp_hands[t, j])
                if used & bits:
                    ok = False
                    break
                used |= bits
                chosen[p] = t
            if ok:
                break
            rejected += 1
            streak += 1
            if streak >= max_rejects:
                return -1
        for p in range(n_opp):
            if opp_offsets[p + 1] > opp_offsets[p]:
                for j in range(5):
                    held[p, j] = opp_hands[chosen[p], j]
            else:
                used = deal_cards(state, used, np.int64(5), dealt)
                for j in range(5):
                    held[p, j] = dealt[j]
        used = deal_cards(state, used, np.int64(5), dealt)
        pre_key[0] = _Z
        pre_mask[0] = _Z
        for j in range(5):
            c = uint64(dealt[j])
            pre_key[j + 1] = pre_key[j] + card_key[c]
            pre_mask[j + 1] = pre_mask[j] | card_mask[c]
        best = np.int64(-1)
        tied = 0
        for p in range(n_opp):
            strategy = opp_strategy[p]
            if strategy == PAT:
                keep = 31
            elif strategy == RULES:
                keep = rules_keep(
                    held[p], game, card_key, card_mask, mult, displace, values, bucket_of
                )
            else:
                keep = random_keeps[below(state, random_keeps.shape[0])]
            used = deal_cards(state, used, 5 - _popcount5(keep), dealt)
            t = 0
            for j in range(5):
                if (keep >> j) & 1:
                    final[j] = held[p, j]
                else:
                    final[j] = dealt[t]
                    t += 1
            v = np.int64(class_of(final, card_key, card_mask, mult, displace, values))
            if v > best:
                best = v
                tied = 1
            elif v == best:
                tied += 1
        # Branch-free (a win or a loss is a coin flip to predict), four choices a step with
        # their lookups first: 1.12x the bot kernel's rate on the Zen 3 machine (RESULTS.md)
        for m in range(0, N_CHOICES, 4):
            v0 = _choice_value(m, keys, masks, draws, pre_key, pre_mask, mult, displace, values)
            v1 = _choice_value(m + 1, keys, masks, draws, pre_key, pre_mask, mult, displace, values)
            v2 = _choice_value(m + 2, keys, masks, draws, pre_key, pre_mask, mult, displace, values)
            v3 = _choice_value(m + 3, keys, masks, draws, pre_key, pre_mask, mult, displace, values)
            wins[m] += v0 > best
            wins[m + 1] += v1 > best
            wins[m + 2] += v2 > best
            wins[m + 3] += v3 > best
            ties[m, tied] += v0 == best
            ties[m + 1, tied] += v1 == best
            ties[m + 2, tied] += v2 == best
            ties[m + 3, tied] += v3 == best
    for m in range(N_CHOICES):
        tally[m, 0] += wins[m]
        for t in range(1, n_opp + 1):  # a tie with t opponents: a share of 1 / (t + 1)
            share = 1.0 / (t + 1)
            tally[m, 1] += ties[m, t]
            tally[m, 2] += ties[m, t] * share
            tally[m, 3] += ties[m, t] * share * share
    return rejected


@njit(cache=True, parallel=True)
def sample_chunks(
    hand, fixed_mask, opp_hands, opp_offsets, opp_strategy, random_keeps, game, sizes,
    max_rejects, states, card_key, card_mask, mult, displace, values, bucket_of, tallies,
    rejected,
):  # fmt: skip
    """:func:`sample_choices` for chunk ``c`` of ``sizes`` deals with stream ``states[c]``
    into ``tallies[c]`` (its rejected draws, or -1, into ``rejected[c]``), the chunks in
    parallel: each chunk's tally depends on its stream alone, never on the thread count."""
    for c in prange(sizes.shape[0]):
        rejected[c] = sample_choices(
            hand, fixed_mask, opp_hands, opp_offsets, opp_strategy, random_keeps, game,
            sizes[c], max_rejects, states[c], card_key, card_mask, mult, displace, values,
            bucket_of, tallies[c],
        )  # fmt: skip


@njit(inline="always")
def _choice_value(m, keys, masks, draws, pre_key, pre_mask, mult, displace, values):
    """The value of choice ``m``'s final hand: its kept cards' key and mask plus the first
    ``draws[m]`` dealt cards' (``pre_key``, ``pre_mask``: the dealt cards' running sums)."""
    k = draws[m]
    return np.int64(
        values[table_index(keys[m] + pre_key[k], masks[m] | pre_mask[k], mult, displace)]
    )


@njit(cache=True, parallel=True)
def best_against_random(
    hands, states, trials, game, card_key, card_mask, mult, displace, values, bucket_of, keeps
):
    """``keeps[i]``: the keep mask with the best Monte Carlo equity (:func:`sample_choices`,
    ``trials`` deals, random stream ``states[i]``) of hand ``hands[i]`` against one random hand
    that stands pat; the first best on equal equities. Hands in parallel, each on its own
    stream, so the answers do not depend on the thread count."""
    no_hands = np.empty((0, 5), np.uint8)
    offsets = np.zeros(2, np.int64)
    strategy = np.zeros(1, np.int64)  # PAT
    every_keep = np.arange(N_CHOICES).astype(np.int64)  # (no random opponent here)
    for i in prange(hands.shape[0]):
        fixed = _Z
        for j in range(5):
            fixed |= _ONE << uint64(hands[i, j])
        tally = np.zeros((N_CHOICES, 4), np.float64)
        sample_choices(
            hands[i], fixed, no_hands, offsets, strategy, every_keep, game, trials, np.int64(1),
            states[i],
            card_key, card_mask, mult, displace, values, bucket_of, tally,
        )  # fmt: skip
        keeps[i] = np.argmax(tally[:, 0] + tally[:, 2])


@njit(cache=True)
def deal_decks(state, decks, noise):
    """Row ``i`` of ``decks`` (uint8, width <= 52): the top cards of a uniformly shuffled deck;
    ``noise[i]``: 64 random bits per seat for randomized strategies."""
    width = decks.shape[1]
    dealt = np.empty(width, np.int64)
    for i in range(decks.shape[0]):
        deal_cards(state, _Z, width, dealt)
        for j in range(width):
            decks[i, j] = dealt[j]
        for j in range(noise.shape[1]):
            noise[i, j] = next_u64(state)


@njit(cache=True)
def play_deals(decks, keeps, first, card_key, card_mask, mult, displace, values, out):
    """Heads-up showdowns: seat ``s`` (0, 1) of deal ``i`` holds ``decks[i, 5s:5s+5]`` and keeps
    ``keeps[i, s]``; seat ``first[i]`` draws first from ``decks[i, 10:]``, then the other.
    ``out[i]`` = +1 if seat 0 wins, 0 on a tie, -1 if seat 1 wins."""
    final = np.empty(5, np.uint8)
    vals = np.empty(2, np.int64)
    for i in range(decks.shape[0]):
        top = 10
        for turn in range(2):
            s = first[i] if turn == 0 else 1 - first[i]
            keep = keeps[i, s]
            for j in range(5):
                if (keep >> j) & 1:
                    final[j] = decks[i, 5 * s + j]
                else:
                    final[j] = decks[i, top]
                    top += 1
            vals[s] = class_of(final, card_key, card_mask, mult, displace, values)
        out[i] = 1 if vals[0] > vals[1] else (-1 if vals[0] < vals[1] else 0)
