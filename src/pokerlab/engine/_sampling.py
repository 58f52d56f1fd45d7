"""numba kernels of unbiased Monte Carlo equity. Private: callers validate.

The distribution sampled is the one ``shared/definitions.md`` defines: a joint holding (one combo
per player) with probability proportional to the product of the combos' weights over the joint
holdings that share no card with each other, the board or the dead cards; then the missing board
cards uniformly from the unseen cards. The joint holding is drawn as
``_joint_draw`` describes: from one alias table over the joint holdings when they are few, else
each player's combo independently from its own weighted list (Walker's alias method) with the
**whole joint draw rejected** and redrawn from the first player if any two combos conflict,
which gives exactly that distribution (drawing player by player from what is left would not).
Board cards are drawn uniformly from the 52 and
rejected when already used. A player dealt at random (a ``random`` hand: its range is every
holding of the unseen cards, equally weighted) takes no part in the joint draw: its cards are
dealt from what the drawn holdings and the board leave, which gives the same distribution
(every joint holding of the other players leaves the same number of ways to deal it), and a
full table of such hands never rejects.

Chunks: the driver calls a kernel once per fixed-size chunk of deals with that chunk's own
random stream, so the deals sampled do not depend on how many threads run the chunks.

Random numbers: xoshiro256** seeded through splitmix64; integers in ``[0, n)`` by Lemire's
multiply-and-reject method, so no modulo bias. The alias coin uses 32 random bits.
"""

from __future__ import annotations

import numpy as np
from numba import uint64

from pokerlab._jit import njit
from pokerlab.engine._generic import award_split, hand_values
from pokerlab.engine._showdown import credit, credit_heads_up
from pokerlab.engine._walk import unseen_deck
from pokerlab.evaluation._kernels import EMPTY_KEY, table_index

_ONE = np.uint64(1)
_Z = np.uint64(0)
_ONE_DEAL = np.int64(1)  # int64, not the literal 1: one specialisation of credit
_FIRST = np.int64(0)  # the same for alias_draw
_M32 = np.uint64(0xFFFFFFFF)
_TWO32 = 4294967296.0
STOP_EVERY = 1024
"""Rejected joint draws (or deals) between two reads of a kernel's ``stop`` flag: a run whose
ranges leave few valid joint holdings spends seconds rejecting draws inside one chunk, and a
time limit or a cancel must still be heard (:class:`pokerlab.engine._control.StopFlag`)."""
STOPPED = -2
"""A kernel cut short by its ``stop`` flag returns ``STOPPED - deals`` (the deals it tallied)."""


def chunk_state(seed: int, chunk: int) -> np.ndarray:
    """The xoshiro256** state of chunk ``chunk`` of a run seeded with ``seed``: independent
    streams from numpy's ``SeedSequence`` (spawn key = the chunk's index)."""
    words = np.random.SeedSequence(seed, spawn_key=(chunk,)).generate_state(4, dtype=np.uint64)
    if not words.any():  # xoshiro's one forbidden state
        words[0] = 1
    return words


def seed_state(seed: int) -> np.ndarray:
    """xoshiro256** state from a seed, expanded with splitmix64 (never all zero). A seed of 2^64
    or more is first hashed whole by numpy's ``SeedSequence`` (its low 64 bits alone made
    ``2**64`` the stream of ``0``)."""
    state = np.empty(4, dtype=np.uint64)
    x = seed & 0xFFFFFFFFFFFFFFFF
    if seed >> 64:
        x = int(np.random.SeedSequence(seed).generate_state(1, dtype=np.uint64)[0])
    for i in range(4):
        x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        state[i] = z ^ (z >> 31)
    return state


@njit(cache=True, inline="always")
def _rotl(x, k):
    return (x << uint64(k)) | (x >> uint64(64 - k))


@njit(cache=True, inline="always")
def xoshiro(s0, s1, s2, s3):
    """One xoshiro256** step of a state held in four scalars: ``(64 random bits, s0, s1, s2,
    s3)``. :func:`sample_deals` keeps its generator this way, in registers: read from and written
    back to an array around every draw, as :func:`next_u64` does, each draw waited on the stores
    of the one before (measured 6-14 % of hold'em's deal rate)."""
    result = _rotl(s1 * np.uint64(5), 7) * np.uint64(9)
    t = s1 << np.uint64(17)
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = _rotl(s3, 45)
    return result, s0, s1, s2, s3


@njit(cache=True, _nrt=False)
def next_u64(state):
    """Next 64 random bits (xoshiro256**) of the generator in the array ``state``."""
    s0, s1, s2, s3 = load_state(state)
    result, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    store_state(state, s0, s1, s2, s3)
    return result


@njit(cache=True, inline="always")
def load_state(state):
    """The generator in the array ``state`` as four scalars (see :func:`xoshiro`)."""
    return state[0], state[1], state[2], state[3]


@njit(cache=True, inline="always")
def store_state(state, s0, s1, s2, s3):
    """Write a generator held in scalars back to its array."""
    state[0] = s0
    state[1] = s1
    state[2] = s2
    state[3] = s3


@njit(cache=True, _nrt=False)
def below(state, n):
    """Uniform integer in ``[0, n)`` for ``1 <= n < 2**32`` (Lemire, exact)."""
    bound = uint64(n)
    m = (next_u64(state) >> np.uint64(32)) * bound
    low = m & _M32
    if low < bound:
        threshold = (np.uint64(4294967296) - bound) % bound
        while low < threshold:
            m = (next_u64(state) >> np.uint64(32)) * bound
            low = m & _M32
    return np.int64(m >> np.uint64(32))


@njit(cache=True, inline="always")
def _lemire32(bits, bound):
    """Map 32 random bits to ``[0, bound)``; returns ``(value, ok)`` where ``ok`` is False in the
    rare case (probability ``(2**32 mod bound) / 2**32``) that the draw must be repeated."""
    m = bits * bound
    low = m & _M32
    if low < bound and low < (np.uint64(4294967296) - bound) % bound:
        return np.int64(0), False
    return np.int64(m >> np.uint64(32)), True


@njit(cache=True, inline="always")
def _fresh_card(bits, used):
    """The card (0..51) that 32 random ``bits`` pick, its bit, and whether to take it: the draw
    is not one Lemire's method rejects, and the card is not in ``used``."""
    c, ok = _lemire32(bits, np.uint64(52))
    bit = _ONE << uint64(c)
    return c, bit, ok and not used & bit


@njit(cache=True, _nrt=False)
def deal_cards(state, used, count, cards):
    """Deal ``count`` distinct cards not in ``used`` into ``cards`` (uniform over all such sets);
    two 32-bit draws per random word. Returns the new used mask."""
    k = 0
    while k < count:
        x = next_u64(state)
        c, bit, take = _fresh_card(x >> np.uint64(32), used)
        if take:
            used |= bit
            cards[k] = c
            k += 1
        if k < count:
            c, bit, take = _fresh_card(x & _M32, used)
            if take:
                used |= bit
                cards[k] = c
                k += 1
    return used


@njit(cache=True, inline="always")
def deal_board(s0, s1, s2, s3, used, count, key, mask, card_key, card_mask):
    """:func:`deal_cards` (the same cards from the same random words) for a generator held in
    scalars (:func:`xoshiro`), adding each card to an additive hand ``key`` and ``mask`` instead
    of listing it: with no array written between the random draws, nothing waits on a store
    (measured 19 % more hold'em deals per second than dealing into an array). Returns ``(used,
    key, mask, s0, s1, s2, s3)``. Its loop is :func:`deal_cards`'s on purpose: one shared
    card-by-card helper (``_next_card``, tried) cost hold'em 3-4 % of its deal rate."""
    k = 0
    while k < count:
        x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
        c, bit, take = _fresh_card(x >> np.uint64(32), used)
        if take:
            used |= bit
            key += card_key[c]
            mask |= card_mask[c]
            k += 1
        if k < count:
            c, bit, take = _fresh_card(x & _M32, used)
            if take:
                used |= bit
                key += card_key[c]
                mask |= card_mask[c]
                k += 1
    return used, key, mask, s0, s1, s2, s3


_SHUFFLE_FROM = 8  # dealing more cards than this shuffles the unseen deck instead of rejecting


@njit(cache=True, _nrt=False)
def deal_many(state, used, count, cards, deck):
    """:func:`deal_cards` for any ``count``: above a few cards, a partial Fisher-Yates shuffle
    of the unseen cards (``deck``: scratch of 52), one random number per card however few cards
    are left (a full table deals 49 of the 52). Returns the new used mask."""
    if count <= _SHUFFLE_FROM:
        return deal_cards(state, used, count, cards)
    nd = unseen_deck(used, deck)
    for k in range(count):
        j = k + below(state, nd - k)
        c = deck[j]
        deck[j] = deck[k]
        deck[k] = c
        cards[k] = c
        used |= _ONE << uint64(c)
    return used


@njit(cache=True, inline="always")
def alias_pick(s0, s1, s2, s3, first, size, prob, alias):
    """:func:`alias_draw` for a generator held in scalars: ``(index, s0, s1, s2, s3)``."""
    x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
    bound = uint64(size)
    m = (x >> np.uint64(32)) * bound
    low = m & _M32
    if low < bound:
        threshold = (np.uint64(4294967296) - bound) % bound
        while low < threshold:
            x, s0, s1, s2, s3 = xoshiro(s0, s1, s2, s3)
            m = (x >> np.uint64(32)) * bound
            low = m & _M32
    column = first + np.int64(m >> np.uint64(32))
    coin = np.float64(x & _M32) / _TWO32
    if coin < prob[column]:
        return column, s0, s1, s2, s3
    return first + alias[column], s0, s1, s2, s3


@njit(cache=True, _nrt=False)
def alias_draw(state, first, size, prob, alias):
    """Index (into the flat combo arrays) of a combo drawn from one player's alias table."""
    s0, s1, s2, s3 = load_state(state)
    j, s0, s1, s2, s3 = alias_pick(s0, s1, s2, s3, first, size, prob, alias)
    store_state(state, s0, s1, s2, s3)
    return j


@njit(cache=True, _nrt=False, inline="always")
def draw_joint(state, joint_rows, joint_used, joint_prob, joint_alias, fixed, chosen):
    """Draw one joint holding into ``chosen`` from a ``_joint_draw.HoldingDraw``'s table of the
    joint holdings (one draw, never rejected). Returns the mask of cards used (``fixed``
    included). A kernel unpacks the ``HoldingDraw`` once and calls this or
    :func:`draw_holding` in a branch of its own: a helper holding that branch (inlined or not),
    or the tuple passed per deal, cost a third of hold'em's deal rate (measured)."""
    j = alias_draw(state, _FIRST, joint_used.shape[0], joint_prob, joint_alias)
    for p in range(joint_rows.shape[1]):
        chosen[p] = joint_rows[j, p]
    return fixed | joint_used[j]


@njit(cache=True, _nrt=False)
def draw_holding(state, combo_masks, offsets, prob, alias, fixed, max_rejects, chosen, stats,
                 stop):  # fmt: skip
    """Draw one joint holding into ``chosen`` (flat combo indices): each player's combo from its
    alias table, the whole draw rejected on any shared card (``combo_masks``: one card mask per
    combo). Returns the mask of cards used (``fixed`` included). ``stats[0]`` += rejections;
    after ``max_rejects`` rejections in a row ``stats[1]`` is set to 1 and the draw gives up;
    once ``stop[0]`` is set (read every :data:`STOP_EVERY` rejections) it is set to 2."""
    n = offsets.shape[0] - 1
    streak = 0
    while True:
        used = fixed
        ok = True
        for p in range(n):
            t = alias_draw(state, offsets[p], offsets[p + 1] - offsets[p], prob, alias)
            m = combo_masks[t]
            if used & m:
                ok = False
                break
            used |= m
            chosen[p] = t
        if ok:
            return used
        stats[0] += 1
        streak += 1
        if streak >= max_rejects:
            stats[1] = 1
            return used
        if streak % STOP_EVERY == 0 and stop[0]:
            stats[1] = 2
            return used


@njit(cache=True)
def sample_holdings(draw, fixed, n_samples, state, out):
    """``out[i]`` = the flat holding indices of the i-th sampled joint holding (for tests and
    diagnostics of the sampler's distribution)."""
    stats = np.zeros(2, np.int64)
    masks, offsets, prob, alias, joint_rows, joint_used, joint_prob, joint_alias = draw
    for i in range(n_samples):
        if joint_used.shape[0]:
            draw_joint(state, joint_rows, joint_used, joint_prob, joint_alias, fixed, out[i])
        else:
            draw_holding(state, masks, offsets, prob, alias, fixed, 1_000_000, out[i], stats,
                         np.zeros(1, np.uint8))  # fmt: skip
        if stats[1]:
            return -1
    return stats[0]


@njit(cache=True, _nrt=False)
def _deal_joint_batch(state, size, fixed, to_come, board_key, board_mask, joint_rows, joint_used,
                      joint_prob, joint_alias, hole_key, hole_mask, card_key, card_mask, keys,
                      masks):  # fmt: skip
    """:func:`sample_deals`' common case, ``size`` deals of it: a joint holding from the joint
    table, the board, every player's key and mask into ``keys``/``masks``, with the generator
    held in scalars for the whole batch (see :func:`xoshiro`; the same random words, so the same
    deals, as the array-state path). Kept out of the kernel's general loop on purpose: inside
    it, beside the rarer paths, it measured no faster than the array-state loop."""
    n = joint_rows.shape[1]
    n_joint = joint_used.shape[0]
    s0, s1, s2, s3 = load_state(state)
    for s in range(size):
        j, s0, s1, s2, s3 = alias_pick(s0, s1, s2, s3, _FIRST, n_joint, joint_prob, joint_alias)
        _used, deal_key, deal_mask, s0, s1, s2, s3 = deal_board(
            s0, s1, s2, s3, fixed | joint_used[j], to_come, board_key, board_mask, card_key,
            card_mask,
        )  # fmt: skip
        for p in range(n):
            t = joint_rows[j, p]
            keys[s * n + p] = deal_key + hole_key[t]
            masks[s * n + p] = deal_mask | hole_mask[t]
    store_state(state, s0, s1, s2, s3)


@njit(cache=True, nogil=True)
def sample_deals(
    combo_cards,
    held,
    draw,
    board,
    dead_mask,
    n_samples,
    max_rejects,
    state,
    counts,
    tables,
    stop,
):
    """Hold'em (two hole cards, one high pot): draw ``n_samples`` deals and add their showdowns
    to ``counts`` (layout of ``_showdown``), the joint holdings drawn by ``draw`` (a
    ``_joint_draw.HoldingDraw``). A player with ``held[p] == 0`` has one empty
    holding (mask 0) and is dealt two cards from what is left. Returns the number of rejected
    joint draws, or -1 if ``max_rejects`` consecutive draws were rejected (the ranges leave
    almost no valid deal), or ``STOPPED - deals`` when ``stop[0]`` cut it short (read before
    each batch of deals and while rejecting draws)."""
    card_key, card_mask = tables[0], tables[1]
    n = held.shape[0]
    nb = board.shape[0]
    fixed = dead_mask
    board_key = EMPTY_KEY
    board_mask = _Z
    for i in range(nb):
        c = board[i]
        fixed |= _ONE << uint64(c)
        board_key += card_key[c]
        board_mask |= card_mask[c]
    n_dealt = np.int64(0)  # typed, not a literal 0: numba compiled _sample_batches for both
    for p in range(n):
        if held[p] == 0:
            n_dealt += 1
    batch = 256
    keys = np.empty(batch * n, np.uint64)
    masks = np.empty(batch * n, np.uint64)
    strengths = np.empty(batch * n, np.int64)
    chosen = np.empty(n, np.int64)
    stats = np.zeros(2, np.int64)
    holes = np.empty(2 * n, np.int64)
    deck = np.empty(52, np.int64)
    to_come = 5 - nb
    # each combo's hole cards as a key and a mask, once: a deal then adds one of each per player
    # (measured 4-5 % more deals per second than two card lookups per player and deal)
    n_combos = combo_cards.shape[0]
    hole_key = np.empty(n_combos, np.uint64)
    hole_mask = np.empty(n_combos, np.uint64)
    for t in range(n_combos):
        hole_key[t] = card_key[combo_cards[t, 0]] + card_key[combo_cards[t, 1]]
        hole_mask[t] = card_mask[combo_cards[t, 0]] | card_mask[combo_cards[t, 1]]
    return _sample_batches(
        (n_samples, max_rejects, n_dealt, to_come), fixed, board_key, board_mask, draw,
        held, state, counts, stop, keys, masks, strengths, chosen, stats, holes, deck, hole_key,
        hole_mask, tables,
    )  # fmt: skip


@njit(cache=True, nogil=True, _nrt=False)
def _sample_batches(sizes, fixed, board_key, board_mask, draw, held, state, counts, stop, keys,
                    masks, strengths, chosen, stats, holes, deck, hole_key, hole_mask,
                    tables):  # fmt: skip
    """The batch loop of :func:`sample_deals`, which allocates its arrays and passes them here.
    Without reference counting (``_nrt=False``): with it, each batch's calls counted references
    to the arrays they take, atomic operations on counters both threads share (10 % of a
    heads-up range-vs-range run on an Intel Xeon, ``perf``)."""
    n_samples, max_rejects, n_dealt, to_come = sizes
    card_key, card_mask, mult, displace, values = tables
    masks_, offsets, prob, alias, joint_rows, joint_used, joint_prob, joint_alias = draw
    joint = joint_used.shape[0] > 0
    n = held.shape[0]
    batch = keys.shape[0] // n
    done = 0
    # In batches: deal, then evaluate every hand of the batch in one tight loop (the table
    # lookups of independent hands overlap; measured 27% faster than deal-evaluate-credit per
    # deal), then credit.
    fast = joint and n_dealt == 0
    while done < n_samples:
        if stop[0]:
            return STOPPED - done
        size = min(batch, n_samples - done)
        cut = False
        if fast:
            _deal_joint_batch(state, size, fixed, to_come, board_key, board_mask, joint_rows,
                              joint_used, joint_prob, joint_alias, hole_key, hole_mask, card_key,
                              card_mask, keys, masks)  # fmt: skip
        else:
            for s in range(size):
                if joint:  # a branch here, not in a helper: see draw_joint
                    used = draw_joint(state, joint_rows, joint_used, joint_prob, joint_alias, fixed,
                                      chosen)  # fmt: skip
                else:
                    used = draw_holding(state, masks_, offsets, prob, alias, fixed, max_rejects,
                                        chosen, stats, stop)  # fmt: skip
                if stats[1] == 1:
                    return -1
                if stats[1]:  # stopped: the deals before this one are tallied
                    size = s
                    cut = True
                    break
                s0, s1, s2, s3 = load_state(state)
                used, deal_key, deal_mask, s0, s1, s2, s3 = deal_board(
                    s0, s1, s2, s3, used, to_come, board_key, board_mask, card_key, card_mask
                )
                store_state(state, s0, s1, s2, s3)
                if n_dealt == 0:  # no `random` hand: no branch per player (measured ~10 %)
                    for p in range(n):
                        t = chosen[p]
                        keys[s * n + p] = deal_key + hole_key[t]
                        masks[s * n + p] = deal_mask | hole_mask[t]
                    continue
                deal_many(state, used, 2 * n_dealt, holes, deck)
                r = 0
                for p in range(n):
                    if held[p] == 0:
                        a = holes[r]
                        b = holes[r + 1]
                        r += 2
                        keys[s * n + p] = deal_key + card_key[a] + card_key[b]
                        masks[s * n + p] = deal_mask | card_mask[a] | card_mask[b]
                    else:
                        t = chosen[p]
                        keys[s * n + p] = deal_key + hole_key[t]
                        masks[s * n + p] = deal_mask | hole_mask[t]
        for i in range(size * n):
            strengths[i] = values[table_index(keys[i], masks[i], mult, displace)]
        if n == 2:
            credit_heads_up(strengths, size, counts)
        else:
            for s in range(size):
                credit(strengths, s * n, n, _ONE_DEAL, counts)
        done += size
        if cut:
            return STOPPED - done
    return stats[0]


@njit(cache=True, nogil=True)
def sample_deals_generic(
    combos,
    held,
    draw,
    board,
    dead_mask,
    hole_total,
    board_total,
    n_samples,
    max_rejects,
    state,
    hi_code,
    lo_code,
    split,
    stats,
    tables,
    stop,
):
    """Monte Carlo for any game (see ``_generic``): draw a joint holding (``draw``: a
    ``_joint_draw.HoldingDraw``), deal the missing board cards (up to ``board_total``) and each
    player's missing hole cards (``hole_total - held[p]``: stud, or a ``random`` hand),
    evaluate, credit the split pot into ``stats``. Returns rejections, or -1 after
    ``max_rejects`` in a row, or ``STOPPED - deals`` when ``stop[0]`` cut it short."""
    card_key, card_mask, mult, displace, values = tables
    masks_, offsets, prob, alias, joint_rows, joint_used, joint_prob, joint_alias = draw
    joint = joint_used.shape[0] > 0
    n = held.shape[0]
    nb = board.shape[0]
    fixed = dead_mask
    full_board = np.empty(5, np.uint8)
    for i in range(nb):
        full_board[i] = board[i]
        fixed |= _ONE << uint64(board[i])
    n_board = board_total
    to_come = n_board - nb
    chosen = np.empty(n, np.int64)
    counters = np.zeros(2, np.int64)
    dealt = np.empty(52, np.int64)
    deck = np.empty(52, np.int64)
    hole = np.empty(8, np.uint8)
    scratch = np.empty(16, np.uint8)
    hi = np.empty(n, np.int64)
    lo = np.empty(n, np.int64)
    for i in range(n_samples):
        if i % STOP_EVERY == 0 and stop[0]:
            return STOPPED - i
        if joint:
            used = draw_joint(state, joint_rows, joint_used, joint_prob, joint_alias, fixed, chosen)
        else:
            used = draw_holding(state, masks_, offsets, prob, alias, fixed, max_rejects, chosen,
                                counters, stop)  # fmt: skip
        if counters[1] == 1:
            return -1
        if counters[1]:
            return STOPPED - i
        used = deal_cards(state, used, to_come, dealt)
        for k in range(to_come):
            full_board[nb + k] = dealt[k]
        for p in range(n):
            t = chosen[p]
            for j in range(held[p]):
                hole[j] = combos[t, j]
            missing = hole_total - held[p]
            if missing > 0:
                used = deal_many(state, used, missing, dealt, deck)
                for k in range(missing):
                    hole[held[p] + k] = dealt[k]
            hi[p], lo[p] = hand_values(
                hi_code, lo_code, hole, hole_total, full_board, n_board, scratch, card_key,
                card_mask, mult, displace, values,
            )  # fmt: skip
        award_split(hi, lo, n, split, 1.0, stats)
    return counters[0]


@njit(cache=True)
def alias_slice(scaled, prob, alias):
    """Vose's alias table of one player's combos, in place (``prob``, ``alias`` relative to the
    slice, given as full columns: 1.0 and each column its own index; a column left on a stack at
    the end, a numerical leftover, stays full): ``scaled`` is the weights times their count over
    their sum (so they average 1), used up as columns are filled. Smaller and larger columns are
    stacks, taken from the top.
    A loop in Python took 1.4 s for 6-card Omaha's 1.2 M weighted ``AA****`` holdings."""
    n = scaled.shape[0]
    small = np.empty(n, np.int64)
    large = np.empty(n, np.int64)
    n_small = 0
    n_large = 0
    for i in range(n):
        if scaled[i] < 1.0:
            small[n_small] = i
            n_small += 1
        else:
            large[n_large] = i
            n_large += 1
    while n_small and n_large:
        n_small -= 1
        n_large -= 1
        s = small[n_small]
        g = large[n_large]
        prob[s] = scaled[s]
        alias[s] = g
        scaled[g] -= 1.0 - scaled[s]
        if scaled[g] < 1.0:
            small[n_small] = g
            n_small += 1
        else:
            large[n_large] = g
            n_large += 1
