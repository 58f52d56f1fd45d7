"""``evaluate_batch``'s row kernel against the same algorithm written in C: is numba the limit?

    python benchmarks/bench_eval_c.py [--rows 1000000] [--rounds 15]

Needs a C compiler (``cc``; skipped without one). The script writes pokerlab's own tables
(``CARD_KEY``, ``CARD_MASK``, ``displace``, ``values``) and 1,000,000 random 7-card uint8 rows
(fixed seed) to a temporary folder, compiles a small C program with ``-O3 -march=native`` that
evaluates the rows with the same key, mask and hash as ``_kernels.evaluate_rows``, and times,
interleaved round by round (one C process per round, its own clock around each loop, after
one untimed pass that touches the output's pages and brings the tables into the caches):

* C, each row's mask OR-ed and popcounted (the row check) and its strength stored: what
  ``evaluate_batch`` does;
* C, strengths stored, no row check;
* C, strengths summed, no row check: the shape of OMPEval's random-hand benchmark loop (cards
  added to a hand, ``sum += evaluate(hand)``), whose 237-251 M/s issue 10 quotes. With nothing
  else reading the mask, the compiler computes it only for hands with a flush;
* numba: ``evaluate_rows`` with and without the check (the shipped kernel, 1 thread);
* C and numba on the same rows as int64 codes (what a user's ``np.array`` of ints holds), with
  the row check: each code clamped into the card tables and each row prefetched
  ``PREFETCH_ROWS`` rows ahead, as the shipped kernel does for codes beyond the caches.

Every C variant's strengths are checked equal to pokerlab's. Printed: best and median M rows/s
and each against the shipped kernel with its check; then what int64 input costs over uint8 in C
and in numba (issue 10: at most 1.3x).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

os.environ.setdefault("NUMBA_NUM_THREADS", "1")

import numpy as np

from _common import machine_line, print_rates
from pokerlab.evaluation import _kernels as K
from pokerlab.evaluation import _tables as T

SEED = 20240607

C_SOURCE = r"""
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static uint64_t KEY[256], MASK[256];
static uint32_t DISPLACE[1 << BUCKET_BITS];
static uint16_t VALUES[VALUES_SIZE];

static inline uint16_t strength(uint64_t key, uint64_t mask) {
    uint64_t flush = key & FLUSH_BITS;
    if (flush) {
        uint64_t f = flush >> FLUSH_SUIT_SHIFT;
        uint64_t shift = ((f > 1) + (f > 16) + (f > 256)) * 16;
        return VALUES[FLUSH_OFFSET + ((mask >> shift) & 0x1fff)];
    }
    uint64_t p = (key & RANK_FIELD) * MULTIPLIER;
    return VALUES[((p >> SLOT_SHIFT) & SLOT_MASK) ^ DISPLACE[p >> BUCKET_SHIFT]];
}

#define ROW_KEY uint64_t key = EMPTY_KEY + KEY[r[0]] + KEY[r[1]] + KEY[r[2]] + KEY[r[3]] \
    + KEY[r[4]] + KEY[r[5]] + KEY[r[6]]
#define ROW_MASK uint64_t mask = MASK[r[0]] | MASK[r[1]] | MASK[r[2]] | MASK[r[3]] \
    | MASK[r[4]] | MASK[r[5]] | MASK[r[6]]

__attribute__((noinline)) static uint64_t checked(const uint8_t *codes, size_t n, uint16_t *out) {
    uint64_t bits = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = codes + 7 * i;
        ROW_KEY; ROW_MASK;
        bits += (uint64_t)__builtin_popcountll(mask);
        out[i] = strength(key, mask);
    }
    return bits;
}

__attribute__((noinline)) static void stored(const uint8_t *codes, size_t n, uint16_t *out) {
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = codes + 7 * i;
        ROW_KEY; ROW_MASK;
        out[i] = strength(key, mask);
    }
}

__attribute__((noinline)) static uint64_t summed(const uint8_t *codes, size_t n) {
    uint64_t sum = 0;
    for (size_t i = 0; i < n; i++) {
        const uint8_t *r = codes + 7 * i;
        ROW_KEY; ROW_MASK;
        sum += strength(key, mask);
    }
    return sum;
}

#define CLAMP(x) ((uint64_t)(x) > 255 ? 255 : (uint64_t)(x))

__attribute__((noinline)) static uint64_t checked64(const int64_t *codes, size_t n,
                                                    uint16_t *out) {
    uint64_t bits = 0;
    for (size_t i = 0; i < n; i++) {
        const int64_t *row = codes + 7 * i;
        __builtin_prefetch(row + 7 * PREFETCH_ROWS, 0, 3);
        uint64_t r[7] = {CLAMP(row[0]), CLAMP(row[1]), CLAMP(row[2]), CLAMP(row[3]),
                         CLAMP(row[4]), CLAMP(row[5]), CLAMP(row[6])};
        ROW_KEY; ROW_MASK;
        bits += (uint64_t)__builtin_popcountll(mask);
        out[i] = strength(key, mask);
    }
    return bits;
}

static void load(const char *dir, const char *name, void *to, size_t size) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f || fread(to, 1, size, f) != size) { fprintf(stderr, "cannot read %s\n", path); exit(2); }
    fclose(f);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + 1e-9 * t.tv_nsec;
}

int main(int argc, char **argv) {
    const char *dir = argv[1];
    size_t n = strtoull(argv[2], NULL, 10);
    load(dir, "key.bin", KEY, sizeof KEY);
    load(dir, "mask.bin", MASK, sizeof MASK);
    load(dir, "displace.bin", DISPLACE, sizeof DISPLACE);
    load(dir, "values.bin", VALUES, sizeof VALUES);
    uint8_t *codes = malloc(7 * n);
    int64_t *wide = malloc(7 * 8 * n + 7 * 8 * PREFETCH_ROWS);  /* prefetched past the end */
    uint16_t *want = malloc(2 * n), *out = malloc(2 * n);
    load(dir, "codes.bin", codes, 7 * n);
    for (size_t i = 0; i < 7 * n; i++) wide[i] = codes[i];
    load(dir, "want.bin", want, 2 * n);
    uint64_t expected_sum = 0;
    for (size_t i = 0; i < n; i++) expected_sum += want[i];
    checked(codes, n, out);  /* untimed: the pages of out, the tables into the caches */
    double t0 = now();
    uint64_t bits = checked(codes, n, out);
    double t1 = now();
    if (bits != 7 * n || memcmp(out, want, 2 * n)) { puts("checked: WRONG"); return 1; }
    memset(out, 0, 2 * n);
    double t2 = now();
    stored(codes, n, out);
    double t3 = now();
    if (memcmp(out, want, 2 * n)) { puts("stored: WRONG"); return 1; }
    double t4 = now();
    uint64_t sum = summed(codes, n);
    double t5 = now();
    if (sum != expected_sum) { puts("summed: WRONG"); return 1; }
    memset(out, 0, 2 * n);
    checked64(wide, n, out);  /* untimed, as above */
    double t6 = now();
    bits = checked64(wide, n, out);
    double t7 = now();
    if (bits != 7 * n || memcmp(out, want, 2 * n)) { puts("checked64: WRONG"); return 1; }
    printf("%.9f %.9f %.9f %.9f\n", t1 - t0, t3 - t2, t5 - t4, t7 - t6);
    return 0;
}
"""

C_NAMES = (
    "C: mask popcounted (row check), strengths stored",
    "C: strengths stored, no row check",
    "C: strengths summed, no row check (OMPEval's loop)",
    "C: int64 codes, row check",
)


def _defines() -> list[str]:
    constants = {
        "BUCKET_BITS": T.BUCKET_BITS,
        "VALUES_SIZE": T.FLUSH_OFFSET + 8192,
        "EMPTY_KEY": f"{int(K.EMPTY_KEY)}ULL",
        "FLUSH_BITS": f"{int(K.FLUSH_BITS)}ULL",
        "FLUSH_SUIT_SHIFT": int(K.FLUSH_SUIT_SHIFT),
        "FLUSH_OFFSET": int(K.FLUSH_OFFSET),
        "RANK_FIELD": f"{int(K.RANK_FIELD)}ULL",
        "MULTIPLIER": f"{int(T.load_high_tables().multiplier)}ULL",
        "SLOT_SHIFT": int(K.SLOT_SHIFT),
        "SLOT_MASK": int(K.SLOT_MASK),
        "BUCKET_SHIFT": int(K.BUCKET_SHIFT),
        "PREFETCH_ROWS": K.PREFETCH_ROWS,
    }
    return [f"-D{name}={value}" for name, value in constants.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(machine_line(1))
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        print("no C compiler (cc, gcc) on PATH: skipped")
        return
    tables = T.load_high_tables()
    if tables.values.shape[0] != T.FLUSH_OFFSET + 8192 or tables.displace.dtype != np.uint32:
        raise SystemExit("the table layout changed: update the C program")
    rng = np.random.default_rng(SEED)
    codes = np.argsort(rng.random((args.rows, 52)), axis=1)[:, :7].astype(np.uint8)
    common = (K.CARD_KEY, K.CARD_MASK, np.uint64(tables.multiplier), tables.displace,
              tables.values)  # fmt: skip
    want = np.empty(args.rows, dtype=np.uint16)
    K.evaluate_rows(codes, 7, True, *common, want)
    with tempfile.TemporaryDirectory(prefix="bench_eval_c_") as tmp:
        folder = Path(tmp)
        for name, array in (("key", K.CARD_KEY), ("mask", K.CARD_MASK),
                            ("displace", tables.displace), ("values", tables.values),
                            ("codes", codes), ("want", want)):  # fmt: skip
            np.ascontiguousarray(array).tofile(folder / f"{name}.bin")
        (folder / "eval.c").write_text(C_SOURCE)
        binary = folder / "eval"
        subprocess.run([compiler, "-O3", "-march=native", *_defines(), "-o", str(binary),
                        str(folder / "eval.c")], check=True)  # fmt: skip
        out = np.empty(args.rows, dtype=np.uint16)
        names = [*C_NAMES, "numba: evaluate_rows, row check (shipped)",
                 "numba: evaluate_rows, check=False", "numba: int64 codes, row check"]  # fmt: skip
        wide = codes.astype(np.int64)
        times: dict[str, list[float]] = {name: [] for name in names}
        for _ in range(args.rounds):
            line = subprocess.run([str(binary), tmp, str(args.rows)], check=True,
                                  capture_output=True, text=True).stdout.split()  # fmt: skip
            for name, seconds in zip(C_NAMES, line, strict=True):
                times[name].append(float(seconds))
            for name, rows, check in ((names[4], codes, True), (names[5], codes, False),
                                      (names[6], wide, True)):  # fmt: skip
                started = time.perf_counter()
                K.evaluate_rows(rows, 7, check, *common, out)
                times[name].append(time.perf_counter() - started)
                if not np.array_equal(out, want):
                    raise SystemExit(f"{name}: strengths differ")
    print(f"compiler: {compiler} -O3 -march=native; {args.rows:,} rows, {args.rounds} rounds")
    print_rates(times, args.rows, names[4])
    for who, narrow, wide_name in (("C", names[0], names[3]), ("numba", names[4], names[6])):
        cost = float(np.median(times[wide_name]) / np.median(times[narrow]))
        print(f"{who}: int64 codes take {cost:.2f}x the time of uint8 (medians)")


if __name__ == "__main__":
    main()
