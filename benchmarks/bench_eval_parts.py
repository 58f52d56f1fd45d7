"""Where ``evaluate_batch`` spends its time on uint8 codes: the row kernel with parts removed, and
the rewrites tried against it (issue 10's ">= 200 M/s" sits at the edge on the AMD EPYC).

    python benchmarks/bench_eval_parts.py [--rows 1000000] [--repeats 15]

One thread, warm numba cache, 1,000,000 random 7-card rows (fixed seed), rows validated as
``evaluate_batch`` validates them (a popcount sum of the masks). The variants run interleaved,
``--repeats`` rounds; printed: best and median rate. Every variant that computes strengths is
checked equal to ``evaluate_rows`` first.

* ``evaluate_rows``: the shipped kernel (key and mask summed over the 7 codes, then the hash:
  one ``displace`` read, one ``values`` read);
* ``key and mask only``: no table read after the sums (a ceiling for any lookup scheme);
* ``... + displace``: the hash's first read, not the second;
* ``flat rows``: the codes as one flat array indexed ``7 * i + j`` (a constant stride);
* ``8-byte load``: the row's 7 codes from one unaligned 8-byte read, split by shifts;
* ``two passes``: blocks of 256 rows, the hash inputs of the whole block first, then the table
  reads (more reads in flight at once);
* ``int64 rows``: the shipped kernel on the same rows as int64 (issue 10: at most 1.3x the
  uint8 time), and ``int64 narrowed``: 32 rows at a time saturated to a uint8 block (one
  ``vpmovusqb`` per four codes where AVX-512 has it) that the uint8 step evaluates, rows
  prefetched 64 ahead. On the Intel Xeon (family 6 model 167) the narrowing took the same time
  as the shipped int64 loop (memory-bound there; ``benchmarks/RESULTS.md``); on the Zen 4 EPYC
  the int64 excess measured compute (the clamps), not bandwidth, so this is the variant to try
  there.
"""

from __future__ import annotations

import argparse
import functools
import os
import time
from collections.abc import Callable
from typing import Any

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np
from llvmlite import ir
from numba import njit, types, uint64
from numba.core.extending import intrinsic

from _common import machine_line, print_rates
from pokerlab.evaluation import _kernels as K
from pokerlab.evaluation import _tables as T

SEED = 20240607
BLOCK = 256


@njit(inline="always")
def _no_read(key, mask, multiplier, displace, values):
    """A stand-in strength from the sums alone, so nothing is optimised away."""
    return uint64(key * multiplier >> uint64(50)) ^ mask


@njit(inline="always")
def _first_read(key, mask, multiplier, displace, values):
    """The hash's first read (``displace``) without the second (``values``)."""
    return K.table_index(key, mask, multiplier, displace)


@njit
def _rows_then(finish, codes, card_key, card_mask, multiplier, displace, values, out):
    """``evaluate_rows``' validating loop with its last step replaced by ``finish`` (numba
    compiles one loop per function passed)."""
    bits = uint64(0)
    for i in range(codes.shape[0]):
        key, mask = K._row_key_mask(codes[i], card_key, card_mask)
        bits += K.popcount(mask)
        out[i] = finish(key, mask, multiplier, displace, values)
    return bits


@njit(inline="always")
def _flat_key_mask(flat, j, card_key, card_mask):
    c0, c1, c2 = uint64(flat[j]), uint64(flat[j + 1]), uint64(flat[j + 2])
    c3, c4, c5 = uint64(flat[j + 3]), uint64(flat[j + 4]), uint64(flat[j + 5])
    c6 = uint64(flat[j + 6])
    key = K.EMPTY_KEY + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
    key += card_key[c4] + card_key[c5] + card_key[c6]
    mask = card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
    mask |= card_mask[c4] | card_mask[c5] | card_mask[c6]
    return key, mask


@njit(cache=True)
def _flat_rows(flat, card_key, card_mask, multiplier, displace, values, out):
    bits = uint64(0)
    for i in range(out.shape[0]):
        key, mask = _flat_key_mask(flat, uint64(7) * uint64(i), card_key, card_mask)
        bits += K.popcount(mask)
        out[i] = K.strength(key, mask, multiplier, displace, values)
    return bits


@intrinsic
def _load_u64(typingctx, arr, i):
    """An unaligned little-endian 8-byte read of a 1-D uint8 array at byte ``i``."""
    sig = types.uint64(arr, i)

    def codegen(context, builder, signature, args):
        array = context.make_array(signature.args[0])(context, builder, args[0])
        where = builder.bitcast(builder.gep(array.data, [args[1]]), ir.IntType(64).as_pointer())
        value = builder.load(where)
        value.align = 1
        return value

    return sig, codegen


@njit(cache=True)
def _eight_byte_load(flat, card_key, card_mask, multiplier, displace, values, out):
    n = out.shape[0]
    bits = uint64(0)
    low = uint64(0xFF)
    for i in range(n - 1):  # the last row read alone: its 8th byte is past the array
        w: int = _load_u64(flat, uint64(7) * uint64(i))
        c0, c1, c2 = w & low, (w >> uint64(8)) & low, (w >> uint64(16)) & low
        c3, c4, c5 = (w >> uint64(24)) & low, (w >> uint64(32)) & low, (w >> uint64(40)) & low
        c6 = (w >> uint64(48)) & low
        key = K.EMPTY_KEY + card_key[c0] + card_key[c1] + card_key[c2] + card_key[c3]
        key += card_key[c4] + card_key[c5] + card_key[c6]
        mask = card_mask[c0] | card_mask[c1] | card_mask[c2] | card_mask[c3]
        mask |= card_mask[c4] | card_mask[c5] | card_mask[c6]
        bits += K.popcount(mask)
        out[i] = K.strength(key, mask, multiplier, displace, values)
    key, mask = _flat_key_mask(flat, uint64(7) * uint64(n - 1), card_key, card_mask)
    bits += K.popcount(mask)
    out[n - 1] = K.strength(key, mask, multiplier, displace, values)
    return bits


@njit(cache=True)
def _two_passes(codes, card_key, card_mask, multiplier, displace, values, out):
    n = codes.shape[0]
    bits = uint64(0)
    index = np.empty(BLOCK, np.uint64)
    for start in range(0, n, BLOCK):
        stop = min(start + BLOCK, n)
        for i in range(start, stop):
            key, mask = K._row_key_mask(codes[i], card_key, card_mask)
            bits += K.popcount(mask)
            index[i - start] = K.table_index(key, mask, multiplier, displace)
        for i in range(start, stop):
            out[i] = values[index[i - start]]
    return bits


NARROW = 32


@njit(cache=True)
def _narrowed_wide_rows(codes, card_key, card_mask, multiplier, displace, values, out):
    n = codes.shape[0]
    flat = codes.reshape(-1)
    block = np.empty((NARROW, 7), np.uint8)
    narrow = block.reshape(-1)
    limit = uint64(255)
    bits = uint64(0)
    for lo in range(0, n, NARROW):
        hi = min(lo + NARROW, n)
        base = uint64(lo) * uint64(7)
        for j in range(uint64(hi - lo) * uint64(7)):
            narrow[j] = min(uint64(flat[base + j]), limit)
        for i in range(hi - lo):
            if i % 4 == 0:
                for r in range(4):
                    K.prefetch_row(codes, min(lo + i + K.PREFETCH_ROWS + r, n - 1))
            key, mask = K._row_key_mask(block[i], card_key, card_mask)
            bits += K.popcount(mask)
            out[lo + i] = K.strength(key, mask, multiplier, displace, values)
    return bits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    print(machine_line(1))
    tables = T.load_high_tables()
    rng = np.random.default_rng(SEED)
    codes = np.argsort(rng.random((args.rows, 52)), axis=1)[:, :7].astype(np.uint8)
    flat = codes.ravel()
    wide = codes.astype(np.int64)
    common = (K.CARD_KEY, K.CARD_MASK, np.uint64(tables.multiplier), tables.displace,
              tables.values)  # fmt: skip
    want = np.empty(args.rows, dtype=np.uint16)
    K.evaluate_rows(codes, 7, True, *common, want)

    def shipped(rows: Any, *rest: Any) -> Any:
        return K.evaluate_rows(rows, 7, True, *rest)

    variants: list[tuple[str, Callable[..., Any], Any, bool]] = [
        ("evaluate_rows (shipped)", shipped, codes, True),
        (
            "key and mask only (no table read)",
            functools.partial(_rows_then, _no_read),
            codes,
            False,
        ),
        (
            "key and mask + displace (no values read)",
            functools.partial(_rows_then, _first_read),
            codes,
            False,
        ),
        ("flat rows, stride 7", _flat_rows, flat, True),
        ("8-byte load per row", _eight_byte_load, flat, True),
        (f"two passes over blocks of {BLOCK}", _two_passes, codes, True),
        ("int64 rows (shipped evaluate_rows)", shipped, wide, True),
        (f"int64 narrowed {NARROW} rows at a time", _narrowed_wide_rows, wide, True),
    ]
    out = np.empty(args.rows, dtype=np.uint16)
    for name, fn, rows, strengths in variants:
        fn(rows, *common, out)  # compile (or load) and check
        if strengths and not np.array_equal(out, want):
            raise SystemExit(f"{name}: strengths differ from evaluate_rows")
    times: dict[str, list[float]] = {name: [] for name, *_ in variants}
    for _ in range(args.repeats):
        for name, fn, rows, _strengths in variants:
            started = time.perf_counter()
            fn(rows, *common, out)
            times[name].append(time.perf_counter() - started)
    print_rates(times, args.rows, variants[0][0])


if __name__ == "__main__":
    main()
