"""numba kernels of the game-agnostic engine: any hole-card count, any board size, split pots.

A game is described to the kernels by three integers: ``hi_code`` and ``lo_code``, the evaluator
codes of :mod:`pokerlab.evaluation.codes` (``HighEval``, ``LowEval``) that ``Game.high`` and
``Game.low`` carry, and ``split`` (1 when the low takes half the pot; 0 when one evaluator
decides the whole pot).

Statistics go to ``stats``, float64 ``(n + 1, STATS)``: the engine's one layout
(:mod:`pokerlab.engine.tally`).
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.engine._walk import (
    binom,
    next_combination,
    next_joint_holding,
    orbit_size,
    stable_argsort,
    start_walk,
    stripe_run,
    units_span,
    unrank_combination,
    unseen_deck,
)
from pokerlab.engine.tally import HI_SHARE, LO_SHARE, SCOOP, SHARE, SHARE_SQ, TIE
from pokerlab.evaluation._game_kernels import (
    MAX_PAIRS,
    NO_SUIT,
    OMAHA8_OFFSET,
    a5_low,
    a5_low_of_key,
    board_row,
    eight_low,
    eight_low_of_key,
    flush_base,
    flush_suit,
    low_bit,
    omaha_eight,
    omaha_flush,
    omaha_high,
    pair_columns,
    two_of_suit,
)
from pokerlab.evaluation._kernels import EMPTY_KEY, popcount, table_index
from pokerlab.evaluation.codes import HighEval, LowEval

HI_NONE, HI_BEST5, HI_OMAHA = int(HighEval.NONE), int(HighEval.BEST5), int(HighEval.OMAHA)
LO_NONE, LO_A5, LO_EIGHT = int(LowEval.NONE), int(LowEval.A5), int(LowEval.EIGHT)
LO_OMAHA_EIGHT = int(LowEval.OMAHA_EIGHT)

_ONE = np.uint64(1)
_Z = np.uint64(0)
# No board cards, passed to hand_values as an int64 constant rather than the literal 0, so the
# stud kernels share the Monte Carlo specialisation of it (LLVM still sees the constant).
_NO_CARDS = np.int64(0)
_THREE = np.uint64(3)
_EIGHT = np.uint64(8)


@njit(cache=True, _nrt=False)
def award_split(hi, lo, n, split, weight, stats):
    """Credit one deal: ``hi[p]``/``lo[p]`` are the players' high and low strengths (larger is
    better; a low of 0 does not qualify). With ``split`` the pot is halved between the best high
    and the best qualifying low, unless no low qualifies; ties share their half equally."""
    best_hi = -1
    best_lo = 0
    for p in range(n):
        if hi[p] > best_hi:
            best_hi = hi[p]
        if lo[p] > best_lo:
            best_lo = lo[p]
    k_hi = 0
    k_lo = 0
    for p in range(n):
        if hi[p] == best_hi:
            k_hi += 1
        if best_lo > 0 and lo[p] == best_lo:
            k_lo += 1
    hi_pot = 1.0
    lo_pot = 0.0
    if split and best_lo > 0:
        hi_pot = 0.5
        lo_pot = 0.5
    for p in range(n):
        hi_part = hi_pot / k_hi if hi[p] == best_hi else 0.0
        lo_part = lo_pot / k_lo if best_lo > 0 and lo[p] == best_lo else 0.0
        share = hi_part + lo_part
        stats[p, SHARE] += weight * share
        stats[p, SHARE_SQ] += weight * share * share
        if share >= 1.0:
            stats[p, SCOOP] += weight
        elif share > 0.0:
            stats[p, TIE] += weight
        stats[p, HI_SHARE] += weight * hi_part
        stats[p, LO_SHARE] += weight * lo_part
    stats[n, 0] += weight


FEW_HOLDINGS = 2
"""A last player with at most this many holdings is walked like the others (classing a holding
or two costs more than awarding them: 3-way Omaha hands ran 1.4x slower classed)."""
OUTCOME_CLASSES = 9
"""Classes of :func:`award_last_by_outcome`: the last player's high below, equal to or above
the others' best, times its low not qualifying or below theirs, equal, or above."""


@njit(cache=True, inline="always")
def award_last_by_outcome(
    hi, lo, n, split, weight, first_t, last_t, masks, used, hi_val, lo_val, weights, class_w,
    class_n, stats,
):  # fmt: skip
    """Credit the last player's holdings ``first_t..last_t-1`` that share no card with
    ``used``, each against the first ``n - 1`` players' ``hi``/``lo``: who takes what depends
    only on whether its high is below, equal to or above their best high and whether its low
    fails to qualify or beat theirs, equals it or beats it, so the holdings' weights are summed
    by those (at most :data:`OUTCOME_CLASSES`) classes and :func:`award_split` runs once per
    class instead of once per holding. ``hi[n-1]``/``lo[n-1]`` are overwritten; ``class_w``
    (float64) and ``class_n`` (int64) are scratch of that size. Returns the deals credited."""
    final = n - 1
    best_hi = -1
    best_lo = 0
    for q in range(final):
        best_hi = max(best_hi, hi[q])
        best_lo = max(best_lo, lo[q])
    low_floor = max(best_lo, 1)  # a low of 0 never qualifies
    for c in range(OUTCOME_CLASSES):
        class_w[c] = 0.0
        class_n[c] = 0
    for t in range(first_t, last_t):
        if masks[t] & used:
            continue
        h = hi_val[t]
        low = lo_val[t]
        # 0/1/2: below, equal or above their best high; +0/3/6 the same for a qualifying low
        c = (h >= best_hi) + (h > best_hi) + 3 * ((low >= low_floor) + (low > best_lo))
        class_w[c] += weights[t]
        class_n[c] += 1
    deals = 0
    for c in range(OUTCOME_CLASSES):
        if class_n[c] == 0:
            continue
        above_hi = c % 3
        above_lo = c // 3
        hi[final] = best_hi - 1 + above_hi  # below, equal or above: only the order counts
        lo[final] = 0 if above_lo == 0 else best_lo - 1 + above_lo
        award_split(hi, lo, n, split, weight * class_w[c], stats)
        deals += class_n[c]
    return deals


@njit(cache=True, _nrt=False)
def best5_high(cards, count, card_key, card_mask, mult, displace, values):
    """High strength of the best five of ``cards[:count]`` (5..7 cards)."""
    key = EMPTY_KEY
    mask = _Z
    for i in range(count):
        key += card_key[cards[i]]
        mask |= card_mask[cards[i]]
    return values[table_index(key, mask, mult, displace)]


@njit(cache=True, _nrt=False)
def hand_values(
    hi_code,
    lo_code,
    hole,
    n_hole,
    board,
    n_board,
    scratch,
    card_key,
    card_mask,
    mult,
    displace,
    values,
):
    """``(high, low)`` strengths of one player (0 when the game has no such half; a low of 0
    does not qualify). A game decided by a low alone (razz) gets that low as its high and 0 as
    its low, so :func:`award_split` gives it the whole pot. ``scratch``: at least 12 uint8.
    ``values``: the combined table of ``evaluation._game_tables`` whenever the game uses an
    Omaha or a low evaluator (the high table alone suffices for ``HI_BEST5``; a short-deck
    game is ``HI_BEST5`` over its table of :mod:`pokerlab.evaluation.short_deck`, see
    :func:`~pokerlab.evaluation.codes.kernel_high`). Omaha evaluators
    need the five board cards. Returned, not written to an array: writing into an output array
    before the evaluation cost 6-card Omaha Monte Carlo a quarter of its deal rate (the
    compiler cannot keep the table reads apart from the write)."""
    hi = 0
    lo = 0
    best5 = hi_code == HI_BEST5
    if best5 or lo_code == LO_A5 or lo_code == LO_EIGHT:  # noqa: SIM109 (numba)
        for i in range(n_hole):
            scratch[i] = hole[i]
        for i in range(n_board):
            scratch[n_hole + i] = board[i]
    if best5:
        hi = best5_high(scratch, n_hole + n_board, card_key, card_mask, mult, displace, values)
    elif hi_code == HI_OMAHA:
        hi = omaha_high(hole, n_hole, board, card_key, card_mask, mult, displace, values)
    if lo_code == LO_A5:
        lo = a5_low(scratch, n_hole + n_board, card_key, mult, displace, values)
    elif lo_code == LO_EIGHT:
        lo = eight_low(scratch, n_hole + n_board, card_key, mult, displace, values)
    elif lo_code == LO_OMAHA_EIGHT:
        lo = omaha_eight(hole, n_hole, board, values)
    return low_decides(hi_code, hi, lo)


@njit(cache=True, _nrt=False, inline="always")
def low_decides(hi_code, hi, lo):
    """``(hi, lo)``, or in a game decided by a low alone (razz) ``(lo, 0)``: the low plays as
    the "high" (see :func:`hand_values`)."""
    if hi_code == HI_NONE:
        return lo, 0
    return hi, lo


@njit(cache=True, _nrt=False)
def key_values(hi_code, lo_code, key, mask, mult, displace, values):
    """:func:`hand_values` of a hand of all the player's cards (5..7, no Omaha evaluator) given
    by its additive ``key`` and ``mask``, so a caller that enumerates hands can add one card
    to a partial key instead of summing every card."""
    hi = 0
    lo = 0
    if hi_code == HI_BEST5:
        hi = values[table_index(key, mask, mult, displace)]
    if lo_code == LO_A5:
        lo = a5_low_of_key(key, mult, displace, values)
    elif lo_code == LO_EIGHT:
        lo = eight_low_of_key(key, mult, displace, values)
    return low_decides(hi_code, hi, lo)


def board_evaluators(hi_code: int, lo_code: int) -> bool:
    """Whether :func:`enumerate_boards` evaluates this pair of evaluator codes: the Omaha low
    goes with the Omaha high, the other lows with the other highs (every board game's pair)."""
    return lo_code == LO_NONE or (lo_code == LO_OMAHA_EIGHT) == (hi_code == HI_OMAHA)


@njit(cache=True, inline="always")
def award_classes(counts, split, hi, lo, stats):
    """Credit the heads-up deals counted by outcome class (:func:`count_heads_up`) and zero
    the counts: class ``3 * lo + hi``, ``hi`` 0/1/2 when player 0/1 has the better high or
    they tie, ``lo`` 0 when no low qualifies, 1/2 when player 0/1 has the better qualifying
    low, 3 when they tie. ``hi``, ``lo``: scratch of two."""
    for c in range(12):
        if counts[c] == 0:
            continue
        h = c % 3
        q = c // 3
        hi[0] = 1 if h != 1 else 0
        hi[1] = 1 if h != 0 else 0
        lo[0] = 1 if q == 1 or q == 3 else 0
        lo[1] = 1 if q >= 2 else 0
        award_split(hi, lo, np.int64(2), split, np.float64(counts[c]), stats)
        counts[c] = 0


@njit(cache=True, inline="always")
def count_heads_up(first, last, combo_masks, run_mask, hi_val, lo_val, orbit, counts):
    """Count every heads-up joint holding of unit weight that misses ``run_mask`` into
    ``counts`` by outcome class (:func:`award_classes`), ``orbit`` each; returns the deals.

    Integer counts instead of :func:`award_split` per deal: with two players and unit weights
    every pot share is a multiple of 1/4, so each statistic's sum is exact in either order and
    the result is the same to the bit."""
    deals = 0
    for t0 in range(first[0], last[0]):
        m0 = combo_masks[t0]
        if m0 & run_mask:
            continue
        used = run_mask | m0
        h0 = hi_val[t0]
        l0 = lo_val[t0]
        for t1 in range(first[1], last[1]):
            if combo_masks[t1] & used:
                continue
            h1 = hi_val[t1]
            l1 = lo_val[t1]
            c = 0 if h0 > h1 else (1 if h1 > h0 else 2)
            if l0 > 0 or l1 > 0:
                c += 3 if l0 > l1 else (6 if l1 > l0 else 9)
            counts[c] += orbit
            deals += 1
    return deals


@njit(cache=True, nogil=True)
def board_holdings(combos, held, offsets, hi_code, card_key, card_mask):
    """What :func:`enumerate_boards` reads of each holding on every runout, computed once per
    problem (each chunk computed them again: 3.3 M listed 6-card Omaha holdings on a river cut
    into 23 chunks took 4.8 s, 23 times the setting up): ``(combo_masks, owner, columns,
    n_columns, hole_key, hole_mask, hole_low)``, Omaha's pair columns only for Omaha."""
    n = offsets.shape[0] - 1
    n_combos = combos.shape[0]
    combo_masks = np.zeros(n_combos, np.uint64)
    owner = np.empty(n_combos, np.int64)
    for p in range(n):
        for t in range(offsets[p], offsets[p + 1]):
            owner[t] = p
            for j in range(held[p]):
                combo_masks[t] |= _ONE << uint64(combos[t, j])
    omaha = hi_code == HI_OMAHA
    # a column is below 91 (rank pairs): bytes keep the widest ranges' columns in cache (6-card
    # Omaha AA****: 284,050 holdings, 4.3 MB as bytes, 34 MB as uint64 and 3.8x slower)
    columns = np.zeros((n_combos if omaha else 1, MAX_PAIRS), np.uint8)
    n_columns = np.zeros(n_combos, np.uint8)
    hole_key = np.zeros(n_combos, np.uint64)  # without EMPTY_KEY: added to a board's key
    hole_mask = np.zeros(n_combos, np.uint64)
    hole_low = np.zeros(n_combos, np.uint64)
    for t in range(n_combos):
        if omaha:
            n_columns[t] = pair_columns(combos[t], held[owner[t]], columns[t])
        for j in range(held[owner[t]]):
            hole_key[t] += card_key[combos[t, j]]
            hole_mask[t] |= card_mask[combos[t, j]]
            hole_low[t] |= low_bit(combos[t, j])
    return combo_masks, owner, columns, n_columns, hole_key, hole_mask, hole_low


@njit(cache=True, nogil=True)
def enumerate_boards(
    combos,
    held,
    offsets,
    weights,
    holdings,
    board,
    skip_mask,
    start,
    stop,
    stripes,
    hi_code,
    lo_code,
    split,
    by_runout,
    sym,
    out,
    totals,
    tables,
    stop_flag,
):
    """Exact enumeration for board games, board-major: for units ``start..stop-1`` (each
    runout, a k-subset of the unseen cards in lexicographic order, cut into ``stripes`` equal
    runs of the last player's holdings; ``by_runout`` needs 1), evaluate every combo once,
    then walk the joint holdings depth-first (pruned at the first shared card) and credit each
    deal with its weight product: past :data:`FEW_HOLDINGS` holdings of the last player, the
    walk stops at the others and credits the last player's compatible holdings by outcome
    class (:func:`award_last_by_outcome`).
    ``combos``: (T, width) uint8, player ``p``'s rows ``offsets[p]..offsets[p+1]``, ``held[p]``
    real cards per row; ``holdings``: :func:`board_holdings` of them (computed once per problem,
    not per chunk). Statistics go to ``out[0]``, or with ``by_runout`` each runout's to
    ``out[r - start]``. ``totals[0]`` += deals, ``totals[1]`` += runouts. ``sym``: suit
    permutations under which the problem is symmetric (``_walk.orbit_size``; empty for none):
    only the smallest runout of each orbit is enumerated, weighted by the orbit's size.

    The runout's key, masks and low-rank bits are kept per card to come, so the next runout
    recomputes only the cards that changed, and a combo's hand is the board's key plus its
    hole cards' (:func:`key_values`). Omaha high shares one board lookup among the combos and
    reads each combo's precomputed pair columns; its 8-or-better low is one read, and none on
    a board with fewer than three low ranks. The evaluator pairs: Omaha high with no low or
    the Omaha low; any other high with no low or a low of all the cards
    (:func:`board_evaluators`). Heads-up with unit weights counts deals by outcome class
    (:func:`count_heads_up`). ``stop_flag``: one uint8
    (:class:`~pokerlab.engine._control.StopFlag`'s), read once per runout: once it is set the
    call returns with ``totals[0]`` = -1 (a chunk of a ``random`` Omaha hand preflop walks
    runouts for a third of a second, which a cancel waited for)."""
    card_key, card_mask = tables[0], tables[1]
    n = offsets.shape[0] - 1
    n_combos = combos.shape[0]
    nb = board.shape[0]
    to_come = 5 - nb
    used = skip_mask
    for i in range(nb):
        used |= _ONE << uint64(board[i])
    deck = np.empty(52, np.uint8)
    nd = unseen_deck(used, deck)
    combo_masks, owner, columns, n_columns, hole_key, hole_mask, hole_low = holdings
    omaha = hi_code == HI_OMAHA
    omaha_low = lo_code == LO_OMAHA_EIGHT
    counted = n == 2
    for t in range(n_combos):
        if weights[t] != 1.0:
            counted = False
    class_counts = np.zeros(12, np.int64)
    # level i: the board plus the first i cards to come
    level_key = np.empty(6, np.uint64)
    level_cards = np.empty(6, np.uint64)
    level_run = np.empty(6, np.uint64)
    level_low = np.empty(6, np.uint64)
    level_key[0] = EMPTY_KEY
    level_cards[0] = _Z
    level_run[0] = _Z
    level_low[0] = _Z
    for i in range(nb):
        level_key[0] += card_key[board[i]]
        level_cards[0] |= card_mask[board[i]]
        level_low[0] |= low_bit(board[i])
    # units start..stop-1: unit u is stripe u % stripes of runout u // stripes, a stripe an
    # equal run of the last player's holdings (a river's one runout still splits into chunks)
    r_start, r_stop = units_span(start, stop, stripes)
    idx = np.empty(5, np.int64)
    if to_come > 0:
        unrank_combination(r_start, nd, to_come, idx)
    hi_val = np.empty(n_combos, np.int64)
    lo_val = np.zeros(n_combos, np.int64)
    hi = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    level_used = np.empty(n + 1, np.uint64)
    level_weight = np.empty(n + 1, np.float64)
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    first = offsets[:-1].copy()
    last = offsets[1:].copy()
    final = n - 1
    last_row = offsets[final]
    last_size = offsets[n] - last_row
    # the walk's depth: all players when the last has a few holdings, else all but the last,
    # whose holdings are summed by outcome class (classing one holding costs more than it saves)
    depth = n if last_size <= FEW_HOLDINGS else final
    class_w = np.empty(OUTCOME_CLASSES, np.float64)
    class_n = np.empty(OUTCOME_CLASSES, np.int64)
    run_cards = np.empty(5, np.int64)
    image = np.empty(5, np.int64)
    _board_runouts(
        (r_start, r_stop, start, stop, stripes), (to_come, nd, n, depth, last_row, last_size),
        (by_runout, omaha, omaha_low, counted), hi_code, lo_code, split, deck, idx, run_cards,
        image, sym, (level_key, level_cards, level_run, level_low),
        (combo_masks, hole_key, hole_mask, hole_low), columns, n_columns, combos, held, owner,
        weights, first, last, (pos, chosen), level_used, level_weight, hi_val, lo_val, hi, lo,
        class_counts, class_w, class_n, tables, out, totals, stop_flag,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _board_runouts(span, sizes, flags, hi_code, lo_code, split, deck, idx, run_cards, image,
                   sym, levels, holes, columns, n_columns, combos, held, owner, weights, first,
                   last, walk, level_used, level_weight, hi_val, lo_val, hi, lo, class_counts,
                   class_w, class_n, tables, out, totals, stop_flag):  # fmt: skip
    """The runout loop of :func:`enumerate_boards`, which allocates its arrays and passes them
    here. Compiled without reference counting (``_nrt=False``): with it, every inlined helper
    that takes an array (the orbit test, the heads-up count, the awards) counted a reference
    to each of its arrays on entry and on exit, atomic operations that took 50-60 % of an Omaha
    preflop run on an Intel Xeon (``perf``: ``NRT_incref``/``NRT_decref``)."""
    r_start, r_stop, start, stop, stripes = span
    to_come, nd, n, depth, last_row, last_size = sizes
    by_runout, omaha, omaha_low, counted = flags
    level_key, level_cards, level_run, level_low = levels
    combo_masks, hole_key, hole_mask, hole_low = holes
    pos, chosen = walk
    card_key, card_mask, mult, displace, values = tables
    final = n - 1
    changed = 0
    for r in range(r_start, r_stop):
        if stop_flag[0]:  # a byte read per runout, beside every holding's evaluation
            totals[0] = -1
            return
        stats = out[r - r_start] if by_runout else out[0]
        lo_row, hi_row = stripe_run(r, start, stop, stripes, last_size)
        first[final] = last_row + lo_row
        last[final] = last_row + hi_row
        for i in range(changed, to_come):
            c = deck[idx[i]]
            run_cards[i] = c
            level_key[i + 1] = level_key[i] + card_key[c]
            level_cards[i + 1] = level_cards[i] | card_mask[c]
            level_run[i + 1] = level_run[i] | (_ONE << uint64(c))
            level_low[i + 1] = level_low[i] | low_bit(c)
        orbit = orbit_size(run_cards, to_come, sym, image)
        changed = next_combination(idx, to_come, nd) if to_come > 0 else 0
        if orbit == 0:
            continue
        run_mask = level_run[to_come]
        board_key = level_key[to_come]
        board_cards = level_cards[to_come]
        base = board_row(board_key, mult, displace, values) if omaha else _Z
        suit = flush_suit(board_key) if omaha else NO_SUIT
        fbase = flush_base(board_cards, suit) if suit != NO_SUIT else _Z
        board_low = level_low[to_come]
        low_row = OMAHA8_OFFSET + board_low
        low_open = omaha_low and popcount(board_low) >= _THREE
        # the holdings this unit reads: every other player's, and the last player's stripe (a
        # river cut into 23 stripes of 3.3 M 6-card Omaha holdings evaluated them all in each)
        for part in range(2):
            t_from = 0 if part == 0 else first[final]
            t_to = last_row if part == 0 else last[final]
            for t in range(t_from, t_to):
                if combo_masks[t] & run_mask:
                    hi_val[t] = -1
                    continue
                if not omaha:  # every card's key: the board's plus the hole's
                    hi_val[t], lo_val[t] = key_values(
                        hi_code, lo_code, board_key + hole_key[t], board_cards | hole_mask[t],
                        mult, displace, values,
                    )  # fmt: skip
                    continue
                best = values[base + columns[t, 0]]
                for k in range(1, n_columns[t]):
                    best = max(best, values[base + columns[t, k]])
                if suit != NO_SUIT and two_of_suit(hole_mask[t], suit):
                    best = omaha_flush(combos[t], held[owner[t]], suit, fbase, best, values)
                hi_val[t] = best
                lo_val[t] = values[low_row + (hole_low[t] << _EIGHT)] if low_open else 0
        totals[1] += 1
        if counted:
            deals = count_heads_up(
                first, last, combo_masks, run_mask, hi_val, lo_val, orbit, class_counts
            )
            totals[0] += deals * orbit
            if by_runout:
                award_classes(class_counts, split, hi, lo, stats)
            continue
        level = start_walk(first, pos, level_used, level_weight, run_mask)
        while True:
            level = next_joint_holding(
                level, depth, first, last, combo_masks, weights, pos, chosen, level_used,
                level_weight,
            )  # fmt: skip
            if level < 0:
                break
            for q in range(depth):
                hi[q] = hi_val[chosen[q]]
                lo[q] = lo_val[chosen[q]]
            if depth == n:
                award_split(hi, lo, n, split, level_weight[n] * orbit, stats)
                totals[0] += orbit
                continue
            deals = award_last_by_outcome(
                hi, lo, n, split, level_weight[final] * orbit, first[final], last[final],
                combo_masks, level_used[final], hi_val, lo_val, weights, class_w, class_n, stats,
            )  # fmt: skip
            totals[0] += deals * orbit
    if counted and not by_runout:
        award_classes(class_counts, split, hi, lo, out[0])


@njit(cache=True)
def complete_holding_values(combos, held, offsets, hole_total, hi_code, lo_code, tables):
    """``(high, low)`` value arrays of every holding that is all of its player's cards (stud:
    ``held[p] == hole_total``), so it is evaluated once rather than once per deal; 0 for the
    other holdings."""
    card_key, card_mask, mult, displace, values = tables
    n = offsets.shape[0] - 1
    pre_hi = np.zeros(combos.shape[0], np.int64)
    pre_lo = np.zeros(combos.shape[0], np.int64)
    no_board = np.empty(0, np.uint8)
    scratch = np.empty(16, np.uint8)
    for p in range(n):
        if held[p] != hole_total:
            continue
        for t in range(offsets[p], offsets[p + 1]):
            pre_hi[t], pre_lo[t] = hand_values(
                hi_code, lo_code, combos[t], hole_total, no_board, _NO_CARDS, scratch,
                card_key, card_mask, mult, displace, values,
            )  # fmt: skip
    return pre_hi, pre_lo


@njit(cache=True)
def _player_rows(offsets, start, stop):
    """Rows of the walk: every player's holdings, player 0's narrowed to ``start..stop-1``
    (positions within its own holdings)."""
    first = offsets[:-1].copy()
    last = offsets[1:].copy()
    first[0] = offsets[0] + start
    last[0] = offsets[0] + min(stop, offsets[1] - offsets[0])
    return first, last


@njit(cache=True, nogil=True)
def enumerate_stud_deals(
    combos,
    held,
    offsets,
    masks,
    weights,
    dead_mask,
    start,
    stop,
    stripes,
    hole_total,
    hi_code,
    lo_code,
    split,
    stats,
    totals,
    tables,
):
    """Exact enumeration for stud games: every joint holding of known cards, and for it every
    way to deal each player its missing ``hole_total - held[p]`` cards from the unseen cards
    (player by player, each a k-subset of what is left). ``masks``: the holdings' card masks
    (``Problem.combo_masks``). ``totals[0]`` += deals.

    A chunk is units ``start..stop-1`` of ``stripes`` units per holding of player 0: unit
    ``h * stripes + s`` is player 0's holding ``h`` with the ``s``-th of ``stripes`` equal runs
    of the first dealt player's choices of cards (the first player missing any; every player
    before it is complete, so all its choices are free, and each leads to as many deals), so one
    known hand still splits into chunks. A run starts at its first choice (unranked), not by
    skipping the choices before it: skipping made every chunk walk every choice, quadratic in
    the deals when that player is the last one dealt (14.5 s for a spot of 1.5 s). A player's
    hand is valued when its cards are chosen, once for all the deals of the players after it
    (valuing every hand at every deal made a 3-way stud hi/lo spot 2.2x slower)."""
    n = offsets.shape[0] - 1
    no_board = np.empty(0, np.uint8)
    scratch = np.empty(16, np.uint8)
    pre_hi, pre_lo = complete_holding_values(combos, held, offsets, hole_total, hi_code, lo_code,
                                             tables)  # fmt: skip
    h_start, h_stop = units_span(start, stop, stripes)
    first, last = _player_rows(offsets, h_start, h_stop)
    striped = 0
    while held[striped] == hole_total:
        striped += 1
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    level_used = np.empty(n + 1, np.uint64)
    level_weight = np.empty(n + 1, np.float64)
    deck = np.empty(52, np.uint8)
    idx = np.zeros((n, 8), np.int64)
    deal_used = np.empty(n + 1, np.uint64)
    hands = np.empty((n, 8), np.uint8)
    hi = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    _stud_deals(
        (start, stop, stripes, hole_total, striped), hi_code, lo_code, split, dead_mask, combos,
        held, offsets, masks, weights, first, last, (pos, chosen), level_used, level_weight,
        deck, idx, deal_used, hands, hi, lo, pre_hi, pre_lo, no_board, scratch, stats, totals,
        tables,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _stud_deals(span, hi_code, lo_code, split, dead_mask, combos, held, offsets, masks, weights,
                first, last, walk, level_used, level_weight, deck, idx, deal_used, hands, hi, lo,
                pre_hi, pre_lo, no_board, scratch, stats, totals, tables):  # fmt: skip
    """The deal loop of :func:`enumerate_stud_deals`, which allocates its arrays and passes
    them here; without reference counting, as :func:`_board_runouts` (the rows of ``idx`` and
    ``hands`` handed to helpers each counted a reference twice per deal: a quarter of a 3-way
    stud hi/lo run on an Intel Xeon)."""
    start, stop, stripes, hole_total, striped = span
    pos, chosen = walk
    card_key, card_mask, mult, displace, values = tables
    n = offsets.shape[0] - 1
    level = start_walk(first, pos, level_used, level_weight, dead_mask)
    while True:
        level = next_joint_holding(
            level, n, first, last, masks, weights, pos, chosen, level_used, level_weight
        )
        if level < 0:
            break
        # a joint holding: walk every completion, player by player
        holding = chosen[0] - offsets[0]
        turn = 0
        turn_end = 0
        nd = unseen_deck(level_used[n], deck)
        for q in range(n):
            for j in range(held[q]):
                hands[q, j] = combos[chosen[q], j]
            if held[q] == hole_total:  # complete: its values were computed once
                hi[q] = pre_hi[chosen[q]]
                lo[q] = pre_lo[chosen[q]]
        deal_used[0] = _Z
        q = 0
        fresh = True
        while q >= 0:
            k = hole_total - held[q]
            if fresh and q == striped:  # this unit's run of the choices: from its first
                turn, turn_end = stripe_run(holding, start, stop, stripes, binom(nd, k))
                if turn >= turn_end:
                    q -= 1
                    continue
                unrank_combination(turn, nd, k, idx[q])
                fresh = False
            elif fresh:
                for j in range(k):
                    idx[q, j] = j
                fresh = False
            elif q == striped:
                turn += 1
                if turn >= turn_end:
                    q -= 1
                    continue
                next_combination(idx[q], k, nd)
            elif k == 0 or next_combination(idx[q], k, nd) < 0:
                q -= 1
                continue
            m = _Z
            for j in range(k):
                m |= _ONE << uint64(idx[q, j])
            if m & deal_used[q]:
                if k == 0:
                    q -= 1
                continue
            deal_used[q + 1] = deal_used[q] | m
            if k > 0:  # player q's hand is complete: valued once for every deal below it
                for j in range(k):
                    hands[q, held[q] + j] = deck[idx[q, j]]
                hi[q], lo[q] = hand_values(
                    hi_code, lo_code, hands[q], hole_total, no_board, _NO_CARDS, scratch,
                    card_key, card_mask, mult, displace, values,
                )  # fmt: skip
            if q + 1 < n:
                q += 1
                fresh = True
                continue
            award_split(hi, lo, n, split, level_weight[n], stats)
            totals[0] += 1
            if k == 0:
                q -= 1


@njit(cache=True)
def known_hand_classes(combos, held, offsets, hole_total, hi_code, lo_code, tables):
    """What :func:`enumerate_known_hands` reads, computed once for all its chunks: every
    holding's ``(high, low)`` values, and the last player's holdings by class of equal values
    (``cls[i]`` of its holding ``i``; ``class_hi``, ``class_lo`` of each class)."""
    n = offsets.shape[0] - 1
    pre_hi, pre_lo = complete_holding_values(combos, held, offsets, hole_total, hi_code, lo_code,
                                             tables)  # fmt: skip
    first_row = offsets[n - 1]
    size = offsets[n] - first_row
    order = stable_argsort(pre_hi[first_row:] * 65536 + pre_lo[first_row:])
    cls = np.empty(size, np.int64)
    class_hi = np.empty(size, np.int64)
    class_lo = np.empty(size, np.int64)
    n_classes = 0
    for i in range(size):
        t = first_row + order[i]
        if (
            n_classes == 0
            or pre_hi[t] != class_hi[n_classes - 1]
            or pre_lo[t] != class_lo[n_classes - 1]
        ):
            class_hi[n_classes] = pre_hi[t]
            class_lo[n_classes] = pre_lo[t]
            n_classes += 1
        cls[order[i]] = n_classes - 1
    return pre_hi, pre_lo, cls, class_hi[:n_classes].copy(), class_lo[:n_classes].copy()


@njit(cache=True, nogil=True)
def enumerate_known_hands(
    offsets, masks, weights, dead_mask, start, stop, pre_hi, pre_lo, cls, class_hi, class_lo,
    split, stats, totals,
):  # fmt: skip
    """Exact enumeration for stud games when every holding is all of its player's cards
    (``held[p] == hole_total``, no card left to deal), from :func:`known_hand_classes`: the
    joint holdings of all players but the last are walked depth-first (player 0's holdings
    ``start..stop-1`` only: a chunk), and the last player's compatible holdings are summed by
    class of equal (high, low) value, so each class is credited once per prefix (razz
    ``(3-3-)45678`` vs ``A345678``: one class instead of 16,384 holdings)."""
    n = offsets.shape[0] - 1
    first_row = offsets[n - 1]
    size = offsets[n] - first_row
    n_classes = class_hi.shape[0]
    class_w = np.zeros(n_classes, np.float64)
    class_n = np.zeros(n_classes, np.int64)
    hi = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    first, last = _player_rows(offsets, start, stop)
    pos = np.empty(n, np.int64)
    chosen = np.empty(n, np.int64)
    level_used = np.empty(n, np.uint64)
    level_weight = np.empty(n, np.float64)
    _known_hands(
        masks, weights, dead_mask, pre_hi, pre_lo, cls, class_hi, class_lo, split, stats, totals,
        first, last, (first_row, size), (pos, chosen), level_used, level_weight, class_w, class_n,
        hi, lo,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _known_hands(masks, weights, dead_mask, pre_hi, pre_lo, cls, class_hi, class_lo, split,
                 stats, totals, first, last, rows, walk, level_used, level_weight, class_w,
                 class_n, hi, lo):  # fmt: skip
    """The walk of :func:`enumerate_known_hands` over its arrays, without reference counting
    (as :func:`_board_runouts`)."""
    first_row, size = rows  # the last player's holdings
    pos, chosen = walk
    n = first.shape[0]
    final = n - 1
    n_classes = class_hi.shape[0]
    level = start_walk(first, pos, level_used, level_weight, dead_mask)
    while True:
        level = next_joint_holding(
            level, final, first, last, masks, weights, pos, chosen, level_used, level_weight
        )
        if level < 0:
            break
        used = level_used[final]
        for c in range(n_classes):
            class_w[c] = 0.0
            class_n[c] = 0
        for i in range(size):
            t = first_row + i
            if masks[t] & used:
                continue
            class_w[cls[i]] += weights[t]
            class_n[cls[i]] += 1
        for q in range(final):
            hi[q] = pre_hi[chosen[q]]
            lo[q] = pre_lo[chosen[q]]
        for c in range(n_classes):
            if class_n[c] == 0 or class_w[c] == 0.0:
                continue
            hi[final] = class_hi[c]
            lo[final] = class_lo[c]
            award_split(hi, lo, n, split, level_weight[final] * class_w[c], stats)
            totals[0] += class_n[c]
