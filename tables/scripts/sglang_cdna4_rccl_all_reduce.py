#!/usr/bin/env python3
"""Session 31 part C (docs/mi355x-prefill.md): SGLang on CDNA4's TP all-reduce, the custom kernel to its own bound and
RCCL's measured curve above it.

Sets, by column name, idempotently (re-running changes nothing; run from the repository root, then
`python3 tables/scripts/engines_catalog_sync.py` for the catalog):
  tables/engines.csv, "SGLang on CDNA4 (ROCm)":
    custom_all_reduce_max_KiB 24 -> 16384: SGLang's ROCm custom all-reduce runs messages below
        _MAX_CAR_SIZE = 2 * 8192 * 1024 B ("crossover is at 16MB buffer size for ROCm"; sgl-project/sglang@263bc85d
        python/sglang/srt/distributed/device_communicators/custom_all_reduce.py), RCCL (PyNccl) above; the 24 KiB
        was the size of E61's one message (vLLM's kernel, 6.3 us), not a bound (docs/cdna-all-reduce.md section 1);
    library_all_reduce_us 0 -> 56.88 and library_all_reduce_bus_GBps 0 -> 380: RCCL's all-reduce above the bound,
        t = a + 2(n-1)/n S / B_bus, least squares on log time over RCCL 2.22.3's out-of-place all_reduce_perf table
        on 8 MI300X from 16 MiB to 1 GiB (B105 in tables/microbenchmarks.csv; ROCm/rocm-blogs@0e81c2ca
        blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md): a 56.88 +- 0.71 us, B_bus 316.7 +- 0.8 GB/s
        = 0.7070 of MI300X's 448 GB/s xGMI per direction, residual s 0.0047 (ln). No 8-GPU MI355X RCCL table is
        published (docs/cdna-all-reduce.md section 5), so ASSUMED: the same fraction of MI355X's 537.5 GB/s
        (0.7070 x 537.5 = 380.0 GB/s) and the same a; the one MI355X figure, busbw at 8 GiB (390 GB/s, ROCm/cvs
        acceptance threshold; 381 GB/s third party), is within 2.6% of the scaled curve's 379.4 there.
  tables/microbenchmarks.csv: rows B105-16MiB ... B105-1GiB (RCCL 2.22.3 on 8 MI300X, the fit's seven sizes).
"""

import sys

from csv_rows import load, row_named, save, set_field, set_once, upsert_rows

ENGINES, MICRO = "tables/engines.csv", "tables/microbenchmarks.csv"
PROFILE = "SGLang on CDNA4 (ROCm)"
BOUND_SENTENCE = (
    "; custom_all_reduce_max_KiB 24 -> 16384 (session 31 part C, docs/mi355x-prefill.md): SGLang's ROCm custom "
    "all-reduce runs messages below _MAX_CAR_SIZE = 2 * 8192 * 1024 B (\"crossover is at 16MB buffer size for ROCm\"; "
    "sgl-project/sglang@263bc85d python/sglang/srt/distributed/device_communicators/custom_all_reduce.py), RCCL above; "
    "24 KiB was the size of E61's message, not a bound (docs/cdna-all-reduce.md); AITER's CustomAllreduce (sglang PR "
    "13102, SGLANG_USE_AITER_AR default on, on main by 2025-12-18) runs to 64 MiB if the image carries it (not pinned)")
RCCL_SENTENCE = (
    "; library_all_reduce_us 56.88 and library_all_reduce_bus_GBps 380 (session 31 part C, docs/mi355x-prefill.md): "
    "RCCL's all-reduce above the custom bound, t = a + 2(n-1)/n S / B_bus fitted (least squares on log time) to RCCL "
    "2.22.3's all_reduce_perf on 8 MI300X from 16 MiB to 1 GiB (B105; ROCm/rocm-blogs@0e81c2ca "
    "blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md): a 56.88 +- 0.71 us, B_bus 316.7 +- 0.8 GB/s = "
    "0.7070 of MI300X's 448 GB/s a direction, residual s 0.0047; ASSUMPTION (no 8-GPU MI355X RCCL table published): "
    "the same fraction of MI355X's 537.5 GB/s, 380.0 GB/s, and the same a (RCCL's bandwidth is set by the slowest "
    "xGMI link, the blog's mechanism; MI355X busbw at 8 GiB: 390 GB/s ROCm/cvs threshold, 381 third party, against "
    "379.4 on this curve)")

SOURCE = ("github.com/ROCm/rocm-blogs blogs/software-tools-optimization/mi300x-rccl-xgmi/README.md "
          "@0e81c2ca45881844429731ad502be4a839ca96f0")
# (label, bytes, out-of-place time us) from the blog's first rccl-tests table (RCCL 2.22.3, ROCm 6.3, graphs off)
SIZES = [("16MiB", 16777216, 148.8), ("32MiB", 33554432, 244.1), ("64MiB", 67108864, 429.1),
         ("128MiB", 134217728, 797.4), ("256MiB", 268435456, 1537.1), ("512MiB", 536870912, 3026.2),
         ("1GiB", 1073741824, 5970.6)]


def micro_rows(head):
    out = []
    for label, size, us in SIZES:
        bus = 1.75 * size / (us * 1e3)  # GB/s: 2(n-1)/n S / t, n = 8
        rec = {"id": f"B105-{label}", "kind": "all_reduce", "hardware": "MI300X", "precision": "",
               "size": f"8x{size}", "value": f"{bus:.2f}", "unit": "GB/s", "fitted": "yes", "source": SOURCE,
               "notes": (f"RCCL 2.22.3 all_reduce_perf, 8x MI300X, float sum, out-of-place, {size} B in {us} us "
                         "(the table's busbw column, 2(n-1)/n S / t); fitted: the seven sizes 16 MiB-1 GiB set "
                         "SGLang on CDNA4's RCCL curve above its custom bound (a 56.88 us, B_bus 316.7 GB/s on "
                         "MI300X, 0.7070 of its 448 GB/s, carried to MI355X's 537.5 GB/s as an assumption: "
                         "docs/mi355x-prefill.md); priced here by MI300X's link model (no CDNA profile prices a "
                         "micro-benchmark all-reduce)")}
        missing = [k for k in rec if k not in head]
        if missing:
            sys.exit(f"{MICRO}: no column(s) {missing}")
        out.append([rec[c] for c in head])
    return out


def main():
    rows = load(ENGINES)
    col = {name: i for i, name in enumerate(rows[0])}
    r = row_named(rows, PROFILE, ENGINES)
    set_once(r, col, "custom_all_reduce_max_KiB", "24", "16384", BOUND_SENTENCE, ENGINES, PROFILE)
    set_field(r, col, "library_all_reduce_us", "56.88", RCCL_SENTENCE, ENGINES, PROFILE)
    set_field(r, col, "library_all_reduce_bus_GBps", "380", RCCL_SENTENCE, ENGINES, PROFILE)
    save(ENGINES, rows)
    micro = load(MICRO)
    upsert_rows(micro, micro_rows(micro[0]))
    save(MICRO, micro)
    print(f"{ENGINES}: {PROFILE} custom_all_reduce_max_KiB 16384, library_all_reduce_us 56.88, "
          f"library_all_reduce_bus_GBps 380; {MICRO}: B105 ({len(SIZES)} rows)")


if __name__ == "__main__":
    main()
