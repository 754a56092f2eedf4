#!/usr/bin/env python3
"""Session 39 (docs/cdna-all-reduce.md section 7): SGLang's QuickReduce INT4 all-reduce on the single-node MI355X
SGLang DeepSeek-R1 rows.

The flag (sourced). InferenceX @2c679ab9dc476db25995c3c02ae827ddce03a13f benchmarks/dsr1_fp8_mi355x_docker.sh,
dsr1_fp8_mi355x_slurm.sh, dsr1_fp4_mi355x_docker.sh and dsr1_fp4_mi355x_slurm.sh export
ROCM_QUICK_REDUCE_QUANTIZATION=INT4 (the disaggregated script dsr1_fp8_mi355x_sglang-disagg_slurm.sh does not). So
the 45 IMX-MI355X-sglang-DSR1-* rows get `quick_reduce` = int4 (a new measurements.csv column; empty elsewhere).

The band (sourced). sgl-project/sglang @054be181dbb611d6f60d142bb606bbb5fe9f04cd
python/sglang/srt/distributed/device_communicators/quick_all_reduce.py: on gfx94/gfx95, world sizes 2/4/8, bf16 cast
to fp16 by default (ROCM_QUICK_REDUCE_CAST_BF16_TO_FP16 1), QuickReduce takes a message with
_QR_MIN_SIZE[(fp16, world)][INT4] <= size <= qr_max_size: 2 MiB at 4 and 8 ranks (1 MiB at 2), qr_max_size 2 GiB by
default; the GroupCoordinator tries its custom all-reduce first (below its cap, 16 MiB on this profile), then
QuickReduce, then RCCL. quick_reduce_min_KiB 2048, quick_reduce_max_KiB 2097152.

The curve (ASSUMED transfer). The only 8-GPU QuickReduce table found: EmbeddedLLM/vllmtests
@355978b8626c528f5e645db6848ce52c45615000 kernels/allreduce/benchmark_results_ws8.md (8 GPUs, not named; an
MI300X-class node INFERRED from its NCCL column). Rule fixed before any row was priced: t = a + 2(n-1)/n * S / B,
n = 8, least squares on ln t over every size of the table from 2 MB to 2 GB (11 sizes, the labels read as MiB/GiB),
fitted to its 'NCCL' and its 'Quick INT4' columns alike; each term of the INT4 fit is carried to MI355X by the same
term's ratio of this profile's RCCL fit (library_all_reduce_us 56.88, library_all_reduce_bus_GBps 380) to the
table's NCCL fit (ASSUMED: QuickReduce's gain over RCCL, which is how AMD states it for MI355X, transfers term by term).
Fits (this script recomputes them): NCCL a 121.52 us, B 305.64 GB/s (rms ln 0.063); INT4 a 54.24 us, B 502.84 GB/s
(rms ln 0.105). MI355X: a = 54.24 x 56.88 / 121.52 = 25.39 us, B = 502.84 x 380 / 305.64 = 625.2 GB/s.

Edits by column name; adds the columns where missing; refuses a profile cell holding another figure, or a row in an
unexpected state. Idempotent; run from the repository root, then `python3 tables/scripts/engines_catalog_sync.py`:

  python3 tables/scripts/sglang_cdna4_quick_reduce.py
"""

import math
import sys

from csv_rows import insert_columns, load, row_named, save

ENGINES, MEASUREMENTS = "tables/engines.csv", "tables/measurements.csv"
PROFILE = "SGLang on CDNA4 (ROCm)"
ROW_PREFIX = "IMX-MI355X-sglang-DSR1-"
EXPECTED_ROWS = 45
# EmbeddedLLM/vllmtests @355978b8 kernels/allreduce/benchmark_results_ws8.md, ms
SIZES_MIB = [2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048]
NCCL_MS = [0.124, 0.148, 0.157, 0.245, 0.354, 0.511, 0.869, 1.605, 3.106, 6.175, 12.224]
INT4_MS = [0.064, 0.069, 0.069, 0.111, 0.212, 0.333, 0.531, 0.977, 1.830, 3.560, 6.864]
RANKS = 8
LIBRARY_US, LIBRARY_GBPS = 56.88, 380.0  # this profile's RCCL fit (tables/engines.csv), the transfer's reference
SENTENCE = ("; quick_reduce_us, quick_reduce_bus_GBps, quick_reduce_min_KiB, quick_reduce_max_KiB (session 39, "
            "docs/cdna-all-reduce.md section 7): SGLang's QuickReduce INT4 band, 2 MiB to 2 GiB above the custom "
            "kernel's cap (sgl-project/sglang @054be181 quick_all_reduce.py _QR_MIN_SIZE[(fp16, 8)][INT4], "
            "qr_max_size), its curve EmbeddedLLM/vllmtests @355978b8 kernels/allreduce/benchmark_results_ws8.md "
            "'Quick INT4' fitted by t = a + 2(n-1)/n S / B (least squares on ln t, 2 MB to 2 GB) and carried to "
            "MI355X term by term by this profile's RCCL fit over the table's NCCL fit (ASSUMED transfer; "
            "tables/scripts/sglang_cdna4_quick_reduce.py)")
ROW_NOTE = ("; quick_reduce int4: the launch script exports ROCM_QUICK_REDUCE_QUANTIZATION=INT4 (InferenceX "
            "benchmarks/dsr1_fp8_mi355x_* and dsr1_fp4_mi355x_* @2c679ab9dc476db25995c3c02ae827ddce03a13f), so SGLang's "
            "TP all-reduces from 2 MiB to 2 GiB above its custom kernel's cap ran QuickReduce INT4, priced on the "
            "profile's QuickReduce curve (docs/cdna-all-reduce.md section 7)")


def fit(times_ms, sizes_mib=None):
    """(a us, B GB/s, rms of ln residuals): t = a + 2(n-1)/n S / B, least squares on ln t (nested golden sections),
    one time a size: `sizes_mib` (MiB), or the table's SIZES_MIB when it is None; refused unless the lengths agree."""
    sizes = [s * 2 ** 20 for s in (sizes_mib if sizes_mib is not None else SIZES_MIB)]
    times = [t * 1e-3 for t in times_ms]
    if len(sizes) != len(times):
        sys.exit(f"fit: {len(times)} times against {len(sizes)} sizes; one time a size; refused")

    def cost(a, b):
        return sum((math.log(a * 1e-6 + 2 * (RANKS - 1) / RANKS * s / (b * 1e9)) - math.log(t)) ** 2
                   for s, t in zip(sizes, times))

    def golden(f, lo, hi):
        g = (math.sqrt(5) - 1) / 2
        for _ in range(200):
            x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
            if f(x1) < f(x2):
                hi = x2
            else:
                lo = x1
        return (lo + hi) / 2

    best_a = lambda b: golden(lambda a: cost(a, b), 0.0, 1000.0)
    b = golden(lambda b: cost(best_a(b), b), 10.0, 5000.0)
    a = best_a(b)
    return a, b, math.sqrt(cost(a, b) / len(times))


def figures():
    a_lib, b_lib, r_lib = fit(NCCL_MS)
    a_q, b_q, r_q = fit(INT4_MS)
    print(f"NCCL fit a {a_lib:.2f} us B {b_lib:.2f} GB/s rms ln {r_lib:.3f}; INT4 fit a {a_q:.2f} us B {b_q:.2f} GB/s "
          f"rms ln {r_q:.3f}")
    return {"quick_reduce_us": f"{a_q * LIBRARY_US / a_lib:.2f}",
            "quick_reduce_bus_GBps": f"{b_q * LIBRARY_GBPS / b_lib:.1f}",
            "quick_reduce_min_KiB": "2048", "quick_reduce_max_KiB": str(2 * 1024 * 1024)}


def profile_row(want):
    """engines.csv with `want`'s columns added (0 elsewhere), its column index and the profile's row, whose RCCL fit
    must still be the reference both transfers (QuickReduce's, AITER's) are scaled by."""
    engines = load(ENGINES)
    insert_columns(engines, list(want), fill="0", before="source")
    col = {name: i for i, name in enumerate(engines[0])}
    row = row_named(engines, PROFILE, ENGINES)
    if row[col["library_all_reduce_us"]] != str(LIBRARY_US) or row[col["library_all_reduce_bus_GBps"]] != "380":
        sys.exit(f"{ENGINES}: {PROFILE}: the RCCL fit is not 56.88 us / 380 GB/s, the transfer's reference; refused")
    return engines, col, row


def main():
    want = figures()
    engines, col, row = profile_row(want)
    for name, value in want.items():
        if row[col[name]] not in ("0", value):
            sys.exit(f"{ENGINES}: {PROFILE}: {name} is {row[col[name]]!r}, neither 0 nor {value!r}; refused")
        row[col[name]] = value
    if SENTENCE not in row[col["source"]]:
        row[col["source"]] += SENTENCE
    save(ENGINES, engines)

    rows = load(MEASUREMENTS)
    insert_columns(rows, ["quick_reduce"], fill="", before=None)
    mcol = {name: i for i, name in enumerate(rows[0])}
    hits = [r for r in rows[1:] if r and r[mcol["id"]].startswith(ROW_PREFIX)]
    if len(hits) != EXPECTED_ROWS:
        sys.exit(f"{MEASUREMENTS}: {len(hits)} rows start with {ROW_PREFIX!r}, expected {EXPECTED_ROWS}; refused")
    for r in hits:
        rid = r[mcol["id"]]
        if r[mcol["engine"]] != "sglang" or r[mcol["hardware"]] != "MI355X" or r[mcol["prefill_workers"]] not in ("", "0"):
            sys.exit(f"{MEASUREMENTS}: {rid}: not a single-node SGLang MI355X row; refused")
        if r[mcol["quick_reduce"]] not in ("", "int4"):
            sys.exit(f"{MEASUREMENTS}: {rid}: quick_reduce is {r[mcol['quick_reduce']]!r}, neither empty nor int4; refused")
        r[mcol["quick_reduce"]] = "int4"
        if ROW_NOTE not in r[mcol["notes"]]:
            r[mcol["notes"]] += ROW_NOTE
    save(MEASUREMENTS, rows)
    print(f"{ENGINES}: {PROFILE} " + ", ".join(f"{k} {v}" for k, v in want.items()) +
          f"; {MEASUREMENTS}: {len(hits)} rows quick_reduce int4")


if __name__ == "__main__":
    main()
