"""numba kernels of the high-hand evaluator. Private: no validation here (see ``high.py``).

Kernels take the tables as arguments (``multiplier``, ``displace``, ``values`` of
:class:`~pokerlab.evaluation._tables.HighTables`) and work on integer arrays. The per-hand step is
split so the hot loops stay free of reference counting (a numba trap measured here: a helper that
indexes two different table arrays in its two branches ran 3.6x slower than the same code inline):
:func:`table_index` computes where to look from scalars only, and :func:`strength` does the single
read of ``values``. Card codes used as indices must be unsigned (``uint8``) so numba adds no
negative-index check per lookup.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config as numba_config
from numba import prange, types, uint64
from numba.core import cgutils
from numba.core.extending import intrinsic

from pokerlab._jit import njit
from pokerlab.evaluation import _tables as T

EMPTY_KEY = np.uint64(T.EMPTY_KEY)
FLUSH_BITS = np.uint64(T.FLUSH_BITS)
RANK_FIELD = np.uint64(T.RANK_FIELD)
BUCKET_SHIFT = np.uint64(64 - T.BUCKET_BITS)
SLOT_SHIFT = np.uint64(T.SLOT_SHIFT)
SLOT_MASK = np.uint64(T.SLOT_MASK)
FLUSH_OFFSET = np.uint64(T.FLUSH_OFFSET)
FLUSH_SUIT_SHIFT = np.uint64(T.SUIT_SHIFT + 3)
RANK_SET = np.uint64(0x1FFF)
SUIT_ONES = np.uint64(sum(1 << (T.SUIT_SHIFT + T.SUIT_BITS * s) for s in range(4)))
"""One more card in every suit counter: ``(key + SUIT_ONES) & FLUSH_BITS`` is set when some suit
has four cards (one more card of it would make a flush)."""
_NO_MASK = np.uint64(0)  # the mask is read only for a flush
_U1 = np.uint64(1)
_U16 = np.uint64(16)
_U256 = np.uint64(256)


NULL_CARD = 52  # pads short rows: adds nothing to a key or a mask
CODE_LIMIT = 256  # card tables cover every uint8 value; codes 52..255 add nothing (like NULL_CARD)


def card_tables() -> tuple[np.ndarray, np.ndarray]:
    """Per card code: its additive ``key`` and its ``mask`` bit (layouts in ``_tables``); the
    entries from :data:`NULL_CARD` up to :data:`CODE_LIMIT` are zeros, so a code that is not a
    card adds no bit to a hand's mask (which is how :func:`evaluate_rows` detects it)."""
    key = np.zeros(CODE_LIMIT, dtype=np.uint64)
    mask = np.zeros(CODE_LIMIT, dtype=np.uint64)
    for code in range(52):
        r, s = code >> 2, code & 3
        key[code] = (1 << (T.RANK_BITS * r)) + (1 << (T.SUIT_SHIFT + T.SUIT_BITS * s))
        mask[code] = 1 << (16 * s + r)
    return key, mask


CARD_KEY, CARD_MASK = card_tables()


@njit(cache=True)
def table_index(key, mask, multiplier, displace):
    """Index into ``values`` of the hand with this additive key/mask (5..7 cards)."""
    flush_bits = key & FLUSH_BITS
    if flush_bits:
        f = flush_bits >> FLUSH_SUIT_SHIFT  # one of 1, 0x10, 0x100, 0x1000
        shift = (uint64(f > _U1) + uint64(f > _U16) + uint64(f > _U256)) * _U16
        return FLUSH_OFFSET + ((mask >> shift) & RANK_SET)
    p = (key & RANK_FIELD) * multiplier
    return ((p >> SLOT_SHIFT) & SLOT_MASK) ^ uint64(displace[p >> BUCKET_SHIFT])


@njit(cache=True)
def strength(key, mask, multiplier, displace, values):
    """Strength of the hand with this additive key/mask (5..7 cards)."""
    return values[table_index(key, mask, multiplier, displace)]


@intrinsic
def _ctpop(typingctx, x):
    """LLVM's ``ctpop`` on a uint64: one ``popcnt`` instruction on x86-64."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = builder.module.declare_intrinsic("llvm.ctpop", [ir.IntType(64)])
        return builder.call(fn, [args[0]])

    return sig, codegen


def _popcount_python(x):
    return uint64(int(x).bit_count())


popcount = _popcount_python if numba_config.DISABLE_JIT else _ctpop
"""Number of set bits of a uint64 (plain Python when numba's JIT is disabled)."""


@intrinsic
def _prefetch_row(typingctx, rows, i):
    """LLVM's ``prefetch`` (read, into every cache level) of the first code of ``rows[i]``
    (a 2-D array): a hint, never a fault, and nothing on a CPU without prefetch."""
    sig = types.void(rows, i)

    def codegen(context, builder, signature, args):
        rows_type = signature.args[0]
        array = context.make_array(rows_type)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        where = cgutils.get_item_pointer(
            context, builder, rows_type, array, [args[1], zero], wraparound=False
        )
        byte_ptr = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [byte_ptr, i32, i32, i32])
        fn = builder.module.declare_intrinsic("llvm.prefetch", [byte_ptr], fnty)
        # read (0), keep in every level (3), data cache (1)
        args_ = [builder.bitcast(where, byte_ptr), i32(0), i32(3), i32(1)]
        builder.call(fn, args_)
        return context.get_dummy_value()

    return sig, codegen


def _prefetch_python(rows, i):
    return None


prefetch_row = _prefetch_python if numba_config.DISABLE_JIT else _prefetch_row
"""Ask the CPU to start loading row ``i`` of a 2-D array (nothing when numba's JIT is off)."""

PREFETCH_ROWS = 64
"""How many rows ahead :func:`evaluate_rows` prefetches codes wider than a byte (an int64 row
spans most of a cache line; uint8 rows need no help)..."""
PREFETCH_FROM_BYTES = 1 << 22
"""...when the codes take more than this (beyond the caches). For 1,000,000 int64 rows: on the
AMD EPYC (Zen 3/4) development machines 1.2x faster at 16-64 rows ahead, and 7 % slower for
20,000 rows already in cache; on an Intel Xeon (family 6 model 167) int64 took 1.44x the time
of uint8 at 32 rows ahead and 1.32-1.34x at 64-256 (``benchmarks/RESULTS.md``): 64 is the
distance good on both."""


@njit(inline="always")
def _row_key_mask(r, card_key, card_mask):
    """Additive key and mask of one 7-code row, each code clamped into the card tables.
    Unrolled on purpose: a loop over the columns measured 1.7x slower."""
    limit = uint64(CODE_LIMIT - 1)
    c0 = min(uint64(r[0]), limit)
    c1 = min(uint64(r[1]), limit)
    c2 = min(uint64(r[2]), limit)
    c3 = min(uint64(r[3]), limit)
    c4 = min(uint64(r[4]), limit)
    c5 = min(uint64(r[5]), limit)
    c6 = min(uint64(r[6]), limit)
    key = EMPTY_KEY + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
    key += card_key[c4] + card_key[c5] + card_key[c6]
    mask = card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
    mask |= card_mask[c4] | card_mask[c5] | card_mask[c6]
    return key, mask


@njit(cache=True)
def evaluate_rows(codes, cards, check, card_key, card_mask, multiplier, displace, values, out):
    """``out[i]`` = strength of row ``i`` of ``codes`` (any integer dtype, exactly 7 columns in
    any order; shorter hands are padded with :data:`NULL_CARD`), each row holding ``cards`` real
    cards. With ``check``, returns whether every row is ``cards`` distinct codes in 0..51 (else
    some ``out`` entries are garbage; :func:`first_invalid_row` finds the row); without, returns
    True and trusts the rows.

    Codes are clamped into the card tables, where a non-card has an empty mask, so no input reads
    out of bounds, and a row is valid exactly when its mask has ``cards`` bits. No row can have
    more, so the check is one sum of popcounts against ``n * cards`` (a compare-and-count per row
    measured 7% slower). The check still costs about a third of the throughput, and a flag tested
    inside one loop cost as much as the check, so each case has its own loop."""
    n = codes.shape[0]
    if _prefetches(codes):
        return _evaluate_wide_rows(
            codes, cards, check, card_key, card_mask, multiplier, displace, values, out
        )
    i = 0
    if not check:
        while i + 4 <= n:
            _four_rows(codes, i, card_key, card_mask, multiplier, displace, values, out)
            i += 4
        for j in range(i, n):
            _one_row(codes, j, card_key, card_mask, multiplier, displace, values, out)
        return True
    bits = uint64(0)
    while i + 4 <= n:
        bits += _four_rows(codes, i, card_key, card_mask, multiplier, displace, values, out)
        i += 4
    for j in range(i, n):
        bits += _one_row(codes, j, card_key, card_mask, multiplier, displace, values, out)
    return bits == uint64(n) * uint64(cards)


@njit(inline="always")
def _one_row(codes, i, card_key, card_mask, multiplier, displace, values, out):
    """Row ``i`` into ``out``; returns the popcount of its mask (see :func:`_four_rows`)."""
    key, mask = _row_key_mask(codes[i], card_key, card_mask)
    out[i] = strength(key, mask, multiplier, displace, values)
    return popcount(mask)


@njit(inline="always")
def _four_rows(codes, i, card_key, card_mask, multiplier, displace, values, out):
    """Rows ``i .. i + 3`` into ``out``; returns the popcount sum of their masks (unused, and
    so not computed, where nothing checks). Four rows a step, their keys first: 1.2x the rate
    of one row a step on uint8 codes on the Zen 3 machine, 1.0-1.1x on int64 input (which
    waits on memory), measured in ``benchmarks/RESULTS.md``."""
    k0, m0 = _row_key_mask(codes[i], card_key, card_mask)
    k1, m1 = _row_key_mask(codes[i + 1], card_key, card_mask)
    k2, m2 = _row_key_mask(codes[i + 2], card_key, card_mask)
    k3, m3 = _row_key_mask(codes[i + 3], card_key, card_mask)
    out[i] = strength(k0, m0, multiplier, displace, values)
    out[i + 1] = strength(k1, m1, multiplier, displace, values)
    out[i + 2] = strength(k2, m2, multiplier, displace, values)
    out[i + 3] = strength(k3, m3, multiplier, displace, values)
    return popcount(m0) + popcount(m1) + popcount(m2) + popcount(m3)


@njit(cache=True, inline="always")
def _prefetches(codes):
    """Whether ``codes`` are wider than a byte and beyond the caches (see
    :data:`PREFETCH_FROM_BYTES`)."""
    return codes.itemsize > 1 and codes.size * codes.itemsize > PREFETCH_FROM_BYTES


@njit(cache=True)
def _evaluate_wide_rows(codes, cards, check, card_key, card_mask, multiplier, displace, values,
                        out):  # fmt: skip
    """:func:`evaluate_rows` for codes wider than a byte, beyond the caches: the same loops,
    each row prefetched :data:`PREFETCH_ROWS` rows ahead. (Its own function: the same test
    inside the uint8 loops cost them 4-6 %.)"""
    n = codes.shape[0]
    i = 0
    if not check:
        while i + 4 <= n:
            _prefetch_four(codes, i, n)
            _four_rows(codes, i, card_key, card_mask, multiplier, displace, values, out)
            i += 4
        for j in range(i, n):
            _one_row(codes, j, card_key, card_mask, multiplier, displace, values, out)
        return True
    bits = uint64(0)
    while i + 4 <= n:
        _prefetch_four(codes, i, n)
        bits += _four_rows(codes, i, card_key, card_mask, multiplier, displace, values, out)
        i += 4
    for j in range(i, n):
        bits += _one_row(codes, j, card_key, card_mask, multiplier, displace, values, out)
    return bits == uint64(n) * uint64(cards)


@njit(inline="always")
def _prefetch_four(codes, i, n):
    """Prefetch rows ``i + PREFETCH_ROWS .. + 3`` (the last row past the end)."""
    for r in range(4):
        prefetch_row(codes, min(i + PREFETCH_ROWS + r, n - 1))


ROW_CHUNK = 1 << 14
"""Rows per task of :func:`evaluate_rows_parallel` (a fixed size, so the work split never
depends on the thread count; the results never do anyway: one row, one answer)."""


@njit(cache=True, parallel=True)
def evaluate_rows_parallel(
    codes, cards, check, card_key, card_mask, multiplier, displace, values, out
):
    """:func:`evaluate_rows` over chunks of :data:`ROW_CHUNK` rows in parallel (numba's thread
    count, set by the caller); True when every chunk is valid."""
    n = codes.shape[0]
    chunks = (n + ROW_CHUNK - 1) // ROW_CHUNK
    ok = np.empty(chunks, np.bool_)
    wide = _prefetches(codes)  # decided for the whole array: each chunk alone is small
    for c in prange(chunks):
        lo = c * ROW_CHUNK
        hi = min(n, lo + ROW_CHUNK)
        if wide:
            ok[c] = _evaluate_wide_rows(
                codes[lo:hi], cards, check, card_key, card_mask, multiplier, displace, values,
                out[lo:hi],
            )  # fmt: skip
        else:
            ok[c] = evaluate_rows(
                codes[lo:hi], cards, check, card_key, card_mask, multiplier, displace, values,
                out[lo:hi],
            )  # fmt: skip
    return ok.all()


@njit(cache=True)
def rows_hold_distinct_cards(first, second, card_mask):
    """Whether every row ``i`` of ``first`` and ``second`` (two integer arrays with the same
    number of rows, e.g. hole cards and boards) together holds distinct codes in 0..51. One
    popcount sum as in :func:`evaluate_rows`; :func:`first_invalid_row` then finds the row."""
    limit = uint64(CODE_LIMIT - 1)
    n = first.shape[0]
    bits = uint64(0)
    for i in range(n):
        mask = uint64(0)
        for j in range(first.shape[1]):
            mask |= card_mask[min(uint64(first[i, j]), limit)]
        for j in range(second.shape[1]):
            mask |= card_mask[min(uint64(second[i, j]), limit)]
        bits += popcount(mask)
    return bits == uint64(n) * uint64(first.shape[1] + second.shape[1])


@njit(cache=True)
def first_invalid_row(codes):
    """Index of the first row with a code outside 0..51 or a repeated card, else -1."""
    for i in range(codes.shape[0]):
        seen = uint64(0)
        for j in range(codes.shape[1]):
            c = codes[i, j]
            if c < 0 or c > 51:
                return i
            bit = uint64(1) << uint64(c)
            if seen & bit:
                return i
            seen |= bit
    return -1


@njit(inline="always")
def _counted(v, count, last, run, hist):
    """``count`` more hands of strength ``v`` after a run of ``run`` hands of strength ``last``:
    the run goes on, or is added to ``hist`` and a new one starts. Returns ``(last, run)``."""
    if v == last:
        return last, run + count
    if run:
        hist[last] += run
    return v, count


@njit(cache=True, _nrt=False)
def _last_two_cards(key, mask, free, start, group_end, card_key, card_mask, multiplier, displace,
                    values, hist):  # fmt: skip
    """Count the strengths of the hand ``key``/``mask`` plus each pair of ``free[start:]`` into
    ``hist``, a run of equal strengths at a time.

    Why runs: ``hist[v] += 1`` for consecutive hands that land in the same bin makes each
    increment wait for the store of the one before (store-to-load forwarding); issue 10 measured
    a one-histogram walk at a quarter of the summing loop's rate on an AMD EPYC. With ``free`` in
    code order, the last card runs through the four suits of a rank in a row, and without a
    flush they make the same hand: a run of equal strengths is counted in a register and added
    once. Better still, when no suit has four cards among the hand and the second-to-last
    card, no last card can make a flush, so every card of a rank (a group of ``free``:
    ``group_end[j]`` is where the group holding ``free[j]`` ends) makes the same hand: it is
    evaluated once and counted for the whole group. Why two cards: one call per choice of the
    cards before them (C(50, 3) calls for a 5-card board, not C(50, 4)) keeps the runs longer
    and the calls fewer. On the Zen 3 machine the walk counts boards at about 2.1x the rate of
    the two interleaved sub-histograms it replaces (benchmarks/RESULTS.md).

    A separate function compiled without reference counting (``_nrt=False``): inlined into the
    walk (``inline="always"``) or with reference counting, the arrays it indexes were
    incref'd/decref'd per call and the walk ran at half the rate."""
    n = free.shape[0]
    last = np.int64(-1)
    run = 0
    for i in range(start, n - 1):
        c0 = free[uint64(i)]
        key1 = key + card_key[c0]
        mask1 = mask | card_mask[c0]
        if (key1 + SUIT_ONES) & FLUSH_BITS:  # some suit has four cards: one more is a flush
            for j in range(i + 1, n):
                c = free[uint64(j)]
                v = np.int64(values[table_index(key1 + card_key[c], mask1 | card_mask[c],
                                                 multiplier, displace)])  # fmt: skip
                last, run = _counted(v, 1, last, run, hist)
        else:  # no flush: a rank's cards make one hand
            j = i + 1
            while j < n:
                end = group_end[uint64(j)]
                v = np.int64(values[table_index(key1 + card_key[free[uint64(j)]], _NO_MASK,
                                                 multiplier, displace)])  # fmt: skip
                last, run = _counted(v, end - j, last, run, hist)
                j = end
    if run:
        hist[last] += run


@njit(cache=True)
def strength_histogram(
    fixed_key, fixed_mask, free, k, card_key, card_mask, multiplier, displace, values, hist
):
    """Add 1 to ``hist[strength]`` for every ``k``-subset (``0 <= k <= 7``) of the codes
    ``free`` (uint8, in code order for speed: see :func:`_last_two_cards`) joined to a fixed
    partial hand; return the number of subsets.

    Five nested loops choose the first ``k - 2`` cards, each adding its card to the key of the
    level above; the innermost ``k - 2`` levels choose, the outer ones run once and add
    nothing (so a level that chooses nothing costs nothing per subset). The last two cards'
    loops are :func:`_last_two_cards`, called from this one place so that LLVM inlines it:
    called from one place per level it stayed a call, and that (or an iterative walk with a
    depth stack, or returning its count) cost 20-25% of the rate."""
    n = free.shape[0]  # indices into free go unsigned: no negative-index check per lookup
    if k == 0:
        hist[values[table_index(fixed_key, fixed_mask, multiplier, displace)]] += 1
        return 1
    ck, cm = card_key, card_mask
    if k == 1:
        for j in range(n):
            c = free[uint64(j)]
            hist[values[table_index(fixed_key + ck[c], fixed_mask | cm[c], multiplier,
                                    displace)]] += 1  # fmt: skip
        return n
    group_end = np.empty(n, np.int64)  # free[j:group_end[j]]: cards of free[j]'s rank in a row
    for j in range(n - 1, -1, -1):
        same = j + 1 < n and (free[j + 1] >> 2) == (free[j] >> 2)
        group_end[j] = group_end[j + 1] if same else j + 1
    count = 0
    for a in range(0, n) if k > 6 else range(-1, 0):
        k1 = fixed_key + ck[free[uint64(a)]] if k > 6 else fixed_key
        m1 = fixed_mask | cm[free[uint64(a)]] if k > 6 else fixed_mask
        for b in range(a + 1, n) if k > 5 else range(a, a + 1):
            k2 = k1 + ck[free[uint64(b)]] if k > 5 else k1
            m2 = m1 | cm[free[uint64(b)]] if k > 5 else m1
            for c in range(b + 1, n) if k > 4 else range(b, b + 1):
                k3 = k2 + ck[free[uint64(c)]] if k > 4 else k2
                m3 = m2 | cm[free[uint64(c)]] if k > 4 else m2
                for d in range(c + 1, n) if k > 3 else range(c, c + 1):
                    k4 = k3 + ck[free[uint64(d)]] if k > 3 else k3
                    m4 = m3 | cm[free[uint64(d)]] if k > 3 else m3
                    for e in range(d + 1, n) if k > 2 else range(d, d + 1):
                        k5 = k4 + ck[free[uint64(e)]] if k > 2 else k4
                        m5 = m4 | cm[free[uint64(e)]] if k > 2 else m4
                        _last_two_cards(k5, m5, free, e + 1, group_end, ck, cm, multiplier,
                                        displace, values, hist)  # fmt: skip
                        left = n - e - 1
                        count += left * (left - 1) // 2
    return count
