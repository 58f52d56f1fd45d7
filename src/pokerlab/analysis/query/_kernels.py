"""numba kernels of the query engine: deal the deals (every one, or sampled) and compute the
per-deal features a query needs. Private: no validation here (see ``runner.py``).

A *deal* is one combo index per player (``hold[d, p]``, rows of ``combos``) and a full
five-card board (``boards[d]``). A *feature* is one row of ``spec``: ``(kind, player, street,
arg)`` where ``street`` is the number of board cards seen (3 flop, 4 turn, 5 river) and ``arg``
an index into a lookup table (``in_range`` rows, ``board_sets`` slices) or a board position.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.analysis._hits_kernels import (
    INFO_SIZE,
    MAX_PARTS,
    classify_combo,
    summarize_board,
)
from pokerlab.analysis.query._kinds import (
    BOARD_IN,
    DRAW,
    EQUITY,
    HAND_CAT,
    HIT_DRAW_SCALE,
    HITS,
    IN_RANGE,
    NUT_HI,
    OUTS,
    PAIRED_BOARD,
    RANK_AT,
    SCOOPS,
    SUIT_COUNT,
    TIES_HI,
    WINS_HI,
    WINS_LO,
)
from pokerlab.engine._sampling import STOPPED, deal_many, draw_holding, draw_joint
from pokerlab.evaluation._game_kernels import OMAHA8_OFFSET, low_bit, omaha_high
from pokerlab.evaluation._kernels import EMPTY_KEY, strength

CATEGORY_SHIFT = 12
STRAIGHT_CAT = 4
FLUSH_CAT = 5
STRAIGHT_FLUSH_CAT = 8


@njit(cache=True)
def combination_table(n, k):
    """Every ``k``-subset of ``0..n-1`` in lexicographic order, one per row (uint8)."""
    count = 1
    for i in range(k):
        count = count * (n - i) // (i + 1)
    out = np.empty((count, k), dtype=np.uint8)
    idx = np.arange(k)
    for row in range(count):
        for j in range(k):
            out[row, j] = idx[j]
        j = k - 1
        while j >= 0 and idx[j] == n - k + j:
            j -= 1
        if j < 0:
            break
        idx[j] += 1
        for t in range(j + 1, k):
            idx[t] = idx[t - 1] + 1
    return out


@njit(cache=True)
def fill_exact_deals(joint, comp, unseen, combos, board, start, stop, hold_out, board_out):
    """Deals ``start..stop`` of the exact enumeration: deal ``f`` is joint holding
    ``f // len(comp)`` with board completion ``f % len(comp)``. A completion row lists
    positions in the deck left once the board, dead cards and that holding are removed
    (``unseen`` minus the holding, in order), so every joint holding has the same number of
    completions."""
    n_comp = comp.shape[0]
    k = comp.shape[1]
    b = board.shape[0]
    players = joint.shape[1]
    width = combos.shape[1]
    rest = np.empty(unseen.shape[0], dtype=np.uint8)
    current = -1
    for f in range(start, stop):
        h = f // n_comp
        r = f - h * n_comp
        if h != current:
            current = h
            held = uint64(0)
            for p in range(players):
                for j in range(width):
                    c = combos[joint[h, p], j]
                    if c < 52:
                        held |= uint64(1) << uint64(c)
            n = 0
            for c in unseen:
                if not (held >> uint64(c)) & uint64(1):
                    rest[n] = c
                    n += 1
        i = f - start
        for p in range(players):
            hold_out[i, p] = joint[h, p]
        for j in range(b):
            board_out[i, j] = board[j]
        for j in range(k):
            board_out[i, b + j] = rest[comp[r, j]]


@njit(cache=True, nogil=True)  # a watcher thread sets ``stop`` while it runs
def sample_deals(state, draw, board, dead_mask, max_rejects, hold_out, board_out, stop):
    """Fill ``hold_out``/``board_out`` with independent deals from the defined distribution by
    the equity engine's sampler (``engine._sampling``, random stream ``state``): the joint
    holding drawn by ``draw`` (a ``HoldingDraw``, see ``engine._joint_draw``), then the missing
    cards (the board's, or stud's dealt cards in street order) dealt uniformly from the cards
    left. Returns the rejected joint draws, or -1 after ``max_rejects`` in a row, or
    ``STOPPED - deals`` when ``stop[0]`` cut it short (the first ``deals`` rows are filled)."""
    masks, offsets, prob, alias, joint_rows, joint_used, joint_prob, joint_alias = draw
    n = hold_out.shape[0]
    players = hold_out.shape[1]
    b = board.shape[0]
    k = board_out.shape[1] - b
    fixed = uint64(dead_mask)
    for j in range(b):
        fixed |= uint64(1) << uint64(board[j])
    chosen = np.empty(players, np.int64)
    stats = np.zeros(2, np.int64)
    cards = np.empty(max(k, 1), np.int64)
    deck = np.empty(52, np.int64)
    for i in range(n):
        if joint_used.shape[0]:
            used = draw_joint(state, joint_rows, joint_used, joint_prob, joint_alias, fixed, chosen)
        else:
            used = draw_holding(state, masks, offsets, prob, alias, fixed, max_rejects, chosen,
                                stats, stop)  # fmt: skip
        if stats[1] == 1:
            return -1
        if stats[1]:
            return STOPPED - i
        deal_many(state, used, k, cards, deck)
        for p in range(players):
            hold_out[i, p] = chosen[p]
        for j in range(b):
            board_out[i, j] = board[j]
        for j in range(k):
            board_out[i, b + j] = cards[j]
    return stats[0]


@njit(cache=True, _nrt=False, inline="always")
def _share(hi, lo, players, p, eight):
    """Player ``p``'s pot share given every player's high strength (larger wins) and, when
    ``eight``, 8-or-better low strength (larger wins, 0 = no qualifying low)."""
    best = hi[0]
    for q in range(1, players):
        best = max(best, hi[q])
    k = 0
    for q in range(players):
        if hi[q] == best:
            k += 1
    hi_share = 1.0 / k if hi[p] == best else 0.0
    if not eight:
        return hi_share
    best_lo = 0
    for q in range(players):
        best_lo = max(best_lo, lo[q])
    if best_lo == 0:
        return hi_share
    k = 0
    for q in range(players):
        if lo[q] == best_lo:
            k += 1
    return 0.5 * hi_share + (0.5 / k if lo[p] == best_lo else 0.0)


@njit(cache=True, _nrt=False, inline="always")
def _alone_best(x, players, p):
    """1 when ``x[p]`` is positive and strictly above every other player's, else 0."""
    if x[p] <= 0:
        return 0.0
    for q in range(players):
        if q != p and x[q] >= x[p]:
            return 0.0
    return 1.0


@njit(cache=True, _nrt=False, inline="always")
def _shares_best(x, players, p):
    """1 when ``x[p]`` is the best of ``x[:players]`` and another player has it too, else 0."""
    for q in range(players):
        if x[q] > x[p]:
            return 0.0
    for q in range(players):
        if q != p and x[q] == x[p]:
            return 1.0
    return 0.0


@njit(cache=True, _nrt=False, inline="always")
def _omaha_eight_so_far(hole, n_hole, bd, nb, values):
    """Omaha 8-or-better low of two of the hole cards and three of ``bd[:nb]`` (3..5 board
    cards; the low table is indexed by the two low-rank sets), 0 when none qualifies."""
    h = uint64(0)
    for i in range(n_hole):
        h |= low_bit(hole[i])
    b = uint64(0)
    for j in range(nb):
        b |= low_bit(bd[j])
    return values[OMAHA8_OFFSET + (h << uint64(8)) + b]


@njit(cache=True, _nrt=False)
def _pair_with_three(key2, mask2, bd, nb, card_key, card_mask, multiplier, displace, values):
    """Best high strength of two cards (their key and mask, without the empty hand's key) and
    exactly three of ``bd[:nb]``."""
    best = 0
    for x in range(nb - 2):
        for y in range(x + 1, nb - 1):
            for z in range(y + 1, nb):
                v = strength(
                    EMPTY_KEY + key2 + card_key[bd[x]] + card_key[bd[y]] + card_key[bd[z]],
                    mask2 | card_mask[bd[x]] | card_mask[bd[y]] | card_mask[bd[z]],
                    multiplier,
                    displace,
                    values,
                )
                best = max(best, v)
    return best


@njit(cache=True, _nrt=False)
def _evaluate(hole, n_hole, hkey, hmask, bd, nb, omaha, eight, card_key, card_mask, multiplier,
              displace, values, hi, lo):  # fmt: skip
    """Every player's high strength (``hi``) and, when ``eight``, 8-or-better low (``lo``, 0 when
    none) with the board ``bd[:nb]`` (a low of the board so far before the river). Hold'em: hole
    cards plus the board; Omaha: exactly two hole cards and three board cards."""
    players = hi.shape[0]
    bk = EMPTY_KEY
    bm = uint64(0)
    for j in range(nb):
        bk += card_key[bd[j]]
        bm |= card_mask[bd[j]]
    for p in range(players):
        if not omaha:
            hi[p] = strength(hkey[p] + bk, hmask[p] | bm, multiplier, displace, values)
        elif nb == 5:
            hi[p] = omaha_high(hole[p], n_hole, bd, card_key, card_mask, multiplier, displace,
                               values)  # fmt: skip
        else:
            best = 0
            for a in range(n_hole - 1):
                for b in range(a + 1, n_hole):
                    k2 = EMPTY_KEY + card_key[hole[p, a]] + card_key[hole[p, b]]
                    m2 = card_mask[hole[p, a]] | card_mask[hole[p, b]]
                    for x in range(nb - 2):
                        for y in range(x + 1, nb - 1):
                            for z in range(y + 1, nb):
                                v = strength(
                                    k2 + card_key[bd[x]] + card_key[bd[y]] + card_key[bd[z]],
                                    m2 | card_mask[bd[x]] | card_mask[bd[y]] | card_mask[bd[z]],
                                    multiplier,
                                    displace,
                                    values,
                                )
                                best = max(best, v)
            hi[p] = best
        lo[p] = _omaha_eight_so_far(hole[p], n_hole, bd, nb, values) if eight else 0


@njit(cache=True, nogil=True)
def deal_features(
    hold,
    boards,
    spec,
    combos,
    in_range,
    board_sets,
    set_offsets,
    dead_mask,
    omaha,
    eight,
    card_key,
    card_mask,
    multiplier,
    displace,
    values,
    levels,
    categories,
    straight_top,
    windows,
    out,
):
    """``out[d, f]`` = feature ``spec[f]`` of deal ``d`` (see the module docstring; booleans are
    0/1, hand types the strength's ``>> 12`` (the category 0..8; in short deck its place in that
    game's order), ranks 2..14, board hits as :data:`HIT_DRAW_SCALE` says, from the
    range-analytics classifier; ``categories``/``straight_top``/``windows`` are its tables,
    ``_hits_kernels.hit_tables``).
    ``omaha``: hands use exactly two hole cards; ``eight``: the pot is split with an 8-or-better
    low (``values`` is then the combined table of ``evaluation._game_tables``, else the high
    table, or the short-deck table); ``levels[c]``: the place of the usual category ``c`` (0..8)
    on ``values``' scale (``c`` itself but in short deck), which the draws compare on.

    Street equities enumerate the cards still to come exactly; they and the nut checks are
    reused while consecutive deals share the holding and the board so far (as the exact
    enumeration orders them). Releases the GIL: the runner computes slices of a chunk on
    several threads (each deal's features depend on that deal alone)."""
    n_deals = hold.shape[0]
    players = hold.shape[1]
    width = combos.shape[1]
    n_feat = spec.shape[0]
    hole = np.zeros((players, width), dtype=np.uint8)
    hkey = np.zeros(players, dtype=np.uint64)
    hmask = np.zeros(players, dtype=np.uint64)
    hbits = np.zeros(players, dtype=np.uint64)
    bkey = np.zeros(6, dtype=np.uint64)
    bmask = np.zeros(6, dtype=np.uint64)
    bbits = np.zeros(6, dtype=np.uint64)
    bd = np.zeros(5, dtype=np.uint8)
    st = np.zeros((6, players), dtype=np.int64)
    st_lo = np.zeros((6, players), dtype=np.int64)
    tmp = np.zeros(players, dtype=np.int64)
    tmp_lo = np.zeros(players, dtype=np.int64)
    eq = np.zeros((6, players), dtype=np.float64)
    eq_valid = np.zeros(6, dtype=np.bool_)
    eq_bits = np.zeros(6, dtype=np.uint64)
    cache_valid = np.zeros(n_feat, dtype=np.bool_)
    cache_bits = np.zeros(n_feat, dtype=np.uint64)
    cache_val = np.zeros(n_feat, dtype=np.float64)
    free = np.zeros(52, dtype=np.uint8)
    need = np.zeros(6, dtype=np.bool_)
    hit_info = np.zeros((6, INFO_SIZE), dtype=np.int64)  # board summaries per street
    hit_keys = np.zeros((6, MAX_PARTS), dtype=np.uint64)
    hit_masks = np.zeros((6, MAX_PARTS), dtype=np.uint64)
    hit_valid = np.zeros(6, dtype=np.bool_)
    hit_bits = np.zeros(6, dtype=np.uint64)
    # typed values, not literals: a literal argument would compile ``_evaluate`` once more
    river = np.int64(5)
    no_low = np.bool_(False)
    for f in range(n_feat):
        kind = spec[f, 0]
        if kind in (EQUITY, WINS_HI, TIES_HI, HAND_CAT, OUTS, SCOOPS, WINS_LO, DRAW, NUT_HI):
            need[spec[f, 2]] = True
    for d in range(n_deals):
        same_hold = d > 0
        used = uint64(dead_mask)
        for p in range(players):
            c = hold[d, p]
            if d > 0 and hold[d - 1, p] != c:
                same_hold = False
            k = uint64(0)
            m = uint64(0)
            bits = uint64(0)
            for j in range(width):
                card = combos[c, j]
                hole[p, j] = card
                if card < 52:
                    k += card_key[card]
                    m |= card_mask[card]
                    bits |= uint64(1) << uint64(card)
            hkey[p] = k
            hmask[p] = m
            hbits[p] = bits
            used |= bits
        k = EMPTY_KEY  # the board's key carries the empty hand's suit counters
        m = uint64(0)
        bits = uint64(0)
        for j in range(5):
            card = boards[d, j]
            bd[j] = card
            k += card_key[card]
            m |= card_mask[card]
            bits |= uint64(1) << uint64(card)
            bkey[j + 1] = k
            bmask[j + 1] = m
            bbits[j + 1] = bits
        for s in range(3, 6):
            if need[s]:
                _evaluate(hole, width, hkey, hmask, bd, s, omaha, eight, card_key, card_mask,
                          multiplier, displace, values, tmp, tmp_lo)  # fmt: skip
                for p in range(players):
                    st[s, p] = tmp[p]
                    st_lo[s, p] = tmp_lo[p]
        for f in range(n_feat):
            kind = spec[f, 0]
            p = spec[f, 1]
            s = spec[f, 2]
            arg = spec[f, 3]
            v = 0.0
            if kind == EQUITY:
                if s == 5:
                    for q in range(players):
                        tmp[q] = st[5, q]
                        tmp_lo[q] = st_lo[5, q]
                    v = _share(tmp, tmp_lo, players, p, eight)
                else:
                    if not (eq_valid[s] and same_hold and eq_bits[s] == bbits[s]):
                        n_free = 0
                        taken = used | bbits[s]
                        for c in range(52):
                            if not (taken >> uint64(c)) & uint64(1):
                                free[n_free] = c
                                n_free += 1
                        for q in range(players):
                            eq[s, q] = 0.0
                        runs = 0
                        # from the flop: every turn-and-river pair (a < e); from the turn:
                        # every river (a), the inner loop running once
                        for a in range(n_free):
                            bd[s] = free[a]
                            for e in range(a + 1 if s == 3 else 0, n_free if s == 3 else 1):
                                if s == 3:
                                    bd[4] = free[e]
                                _evaluate(hole, width, hkey, hmask, bd, river, omaha, eight,
                                          card_key, card_mask, multiplier, displace, values,
                                          tmp, tmp_lo)  # fmt: skip
                                for q in range(players):
                                    eq[s, q] += _share(tmp, tmp_lo, players, q, eight)
                                runs += 1
                        for q in range(players):
                            eq[s, q] /= runs
                        eq_valid[s] = True
                        eq_bits[s] = bbits[s]
                        for j in range(5):
                            bd[j] = boards[d, j]
                    v = eq[s, p]
            elif kind == WINS_HI:
                for q in range(players):
                    tmp[q] = st[5, q]  # high strengths are all >= 1
                v = _alone_best(tmp, players, p)
            elif kind == TIES_HI:
                for q in range(players):
                    tmp[q] = st[5, q]
                v = _shares_best(tmp, players, p)
            elif kind == SCOOPS:
                for q in range(players):
                    tmp[q] = st[5, q]
                    tmp_lo[q] = st_lo[5, q]
                v = 1.0 if _share(tmp, tmp_lo, players, p, eight) == 1.0 else 0.0
            elif kind == WINS_LO:
                for q in range(players):
                    tmp_lo[q] = st_lo[5, q]
                v = _alone_best(tmp_lo, players, p)
            elif kind == HAND_CAT:
                v = float(st[s, p] >> CATEGORY_SHIFT)
            elif kind == OUTS:
                for q in range(players):
                    tmp[q] = st[s, q]
                    tmp_lo[q] = st_lo[s, q]
                if _share(tmp, tmp_lo, players, p, eight) < 1.0:
                    taken = used | bbits[s]
                    count = 0
                    for c in range(52):
                        if (taken >> uint64(c)) & uint64(1):
                            continue
                        bd[s] = c
                        _evaluate(hole, width, hkey, hmask, bd, s + 1, omaha, eight, card_key,
                                  card_mask, multiplier, displace, values, tmp, tmp_lo)  # fmt: skip
                        if _share(tmp, tmp_lo, players, p, eight) == 1.0:
                            count += 1
                    bd[s] = boards[d, s]
                    v = float(count)
            elif kind == DRAW:
                # arg 0: flush draw (below a flush, some card the player cannot see makes a
                # flush or straight flush), arg 1: straight draw (below a straight, some card
                # makes a straight or straight flush); none at the river
                low_cat = levels[FLUSH_CAT if arg == 0 else STRAIGHT_CAT]
                if s < 5 and (st[s, p] >> CATEGORY_SHIFT) < low_cat:
                    taken = uint64(dead_mask) | hbits[p] | bbits[s]
                    for c in range(52):
                        if (taken >> uint64(c)) & uint64(1):
                            continue
                        bd[s] = c
                        _evaluate(hole, width, hkey, hmask, bd, s + 1, omaha, no_low, card_key,
                                  card_mask, multiplier, displace, values, tmp, tmp_lo)  # fmt: skip
                        cat = tmp[p] >> CATEGORY_SHIFT
                        if cat == low_cat or cat == levels[STRAIGHT_FLUSH_CAT]:
                            v = 1.0
                            break
                    bd[s] = boards[d, s]
            elif kind == HITS:
                if not (hit_valid[s] and hit_bits[s] == bbits[s]):
                    summarize_board(bd, s, omaha, card_key, card_mask, hit_info[s], hit_keys[s],
                                    hit_masks[s])  # fmt: skip
                    hit_valid[s] = True
                    hit_bits[s] = bbits[s]
                made, draw_bits = classify_combo(hole[p], width, omaha, s, hit_info[s],
                                                 hit_keys[s], hit_masks[s], card_key, card_mask,
                                                 multiplier, displace, values, categories,
                                                 straight_top, windows)  # fmt: skip
                v = float(made + HIT_DRAW_SCALE * draw_bits)
            elif kind == NUT_HI:
                same = d > 0 and hold[d - 1, p] == hold[d, p]
                if cache_valid[f] and same and cache_bits[f] == bbits[s]:
                    v = cache_val[f]
                else:
                    mine = st[s, p]  # Omaha: exactly two hole and three board cards
                    if not omaha:
                        mine = strength(
                            hkey[p] + bkey[s], hmask[p] | bmask[s], multiplier, displace, values
                        )
                    taken = uint64(dead_mask) | hbits[p] | bbits[s]
                    n_free = 0
                    for c in range(51, -1, -1):  # high cards first: a better hand shows sooner
                        if not (taken >> uint64(c)) & uint64(1):
                            free[n_free] = c
                            n_free += 1
                    v = 1.0
                    for a in range(n_free):
                        ca = free[a]
                        ka = bkey[s] + card_key[ca]
                        ma = bmask[s] | card_mask[ca]
                        for e in range(a + 1, n_free):
                            ce = free[e]
                            if omaha:  # the two cards and three of the board
                                other = _pair_with_three(card_key[ca] + card_key[ce],
                                                         card_mask[ca] | card_mask[ce], bd, s,
                                                         card_key, card_mask, multiplier,
                                                         displace, values)  # fmt: skip
                            else:
                                other = strength(ka + card_key[ce], ma | card_mask[ce],
                                                 multiplier, displace, values)  # fmt: skip
                            if other > mine:
                                v = 0.0
                                break
                        if v == 0.0:
                            break
                    cache_valid[f] = True
                    cache_bits[f] = bbits[s]
                    cache_val[f] = v
            elif kind == RANK_AT:
                if arg >= 3:
                    v = float((boards[d, arg] >> 2) + 2)
                else:  # flop cards come unordered: the arg-th highest flop rank
                    r0 = boards[d, 0] >> 2
                    r1 = boards[d, 1] >> 2
                    r2 = boards[d, 2] >> 2
                    top = max(r0, r1, r2)
                    low = min(r0, r1, r2)
                    mid = r0 + r1 + r2 - top - low
                    v = float((top if arg == 0 else mid if arg == 1 else low) + 2)
            elif kind == SUIT_COUNT:
                most = 0
                for suit in range(4):
                    n_suit = 0
                    for j in range(s):
                        if boards[d, j] & 3 == suit:
                            n_suit += 1
                    most = max(most, n_suit)
                v = float(most)
            elif kind == PAIRED_BOARD:
                ranks = 0
                v = 0.0
                for j in range(s):
                    r = 1 << (boards[d, j] >> 2)
                    if ranks & r:
                        v = 1.0
                    ranks |= r
            elif kind == IN_RANGE:
                v = float(in_range[arg, hold[d, p]])
            elif kind == BOARD_IN:
                key = bbits[s]
                lo = set_offsets[arg]
                hi = set_offsets[arg + 1]
                while lo < hi:
                    mid = (lo + hi) // 2
                    if board_sets[mid] < key:
                        lo = mid + 1
                    else:
                        hi = mid
                v = 1.0 if lo < set_offsets[arg + 1] and board_sets[lo] == key else 0.0
            out[d, f] = v
