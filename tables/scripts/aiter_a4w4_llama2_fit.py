#!/usr/bin/env python3
"""Fits the dense MXFP4 GEMM size curve of vLLM on CDNA4 (engines.csv `fp4_gemm_efficiency`,
`fp4_gemm_half_dim` of "vLLM on CDNA4 (ROCm)") to AITER's tuned gfx950 a4w4 GEMM table at
Llama-2-70B's TP1 projections (session 53, docs/mi355x-mxfp4-gemm.md), and prints the rows copied to
tables/microbenchmarks.csv (B110).

Source: ROCm/aiter @6af8b687480509d67f42a69bca7ed092c432e8dc (2025-12-05; the AITER commit the MLPerf
v6.0 AMD MI355X system json names, aiter-6af8b687) aiter/configs/a4w4_blockscale_tuned_gemm.csv,
read from the bare mirror (/work/.mirror/ROCm+aiter/repo; --git-dir may name another). Columns
cu_num, M, N, K, kernelId, splitK, us, kernelName, tflops, bw, errRatio; cu_num 256 = gfx950 (MI355X).

The rule, fixed before fitting: the four Llama-2-70B projections on one GPU (N x K = 10240 x 8192 QKV,
8192 x 8192 O, 57344 x 8192 gate/up, 8192 x 28672 down), every M the table lists from 256 up (decode
batches of the harness's 3,072-sequence target and prompt steps up to 40,960 tokens); below 256 the
rows are weight-read bound and the library prices them on HBM, not on the curve. Least squares of the
library's size curve on the fraction of the datasheet FP4 peak (tables/hardware.csv MI355X 10,000
TFLOP/s): f = 2MNK / (t * P) = e_inf * n / (n + n0) * M / p, n = cbrt(p * N * K), p = M padded to
64-row tiles (`achievable_fractions::padded_rows`). Gauss-Newton, standard errors from the residual.

--apply writes the rows of MICRO_M (kind gemm_vllm, id B110-<shape>-<M>) into tables/microbenchmarks.csv
(replacing rows of the same id), and sets the two fields (rounded as printed) on tables/engines.csv's "vLLM on CDNA4 (ROCm)" row with a
source sentence, once (csv_rows.set_field: refused unless the cell holds 0 or the value). The catalog
(include/llmcost/catalog/engines.hpp, hand-kept) must carry the same values. Run from the repository root.
"""
import argparse
import math
import subprocess
import sys

sys.path.insert(0, "tables/scripts")
from csv_rows import load, row_named, save, set_field, upsert_rows  # noqa: E402

COMMIT = "6af8b687480509d67f42a69bca7ed092c432e8dc"
PATH = "aiter/configs/a4w4_blockscale_tuned_gemm.csv"
SHAPES = {(10240, 8192): "QKV", (8192, 8192): "O", (57344, 8192): "gate/up", (8192, 28672): "down"}
PEAK = 10000e12  # MI355X dense FP4, tables/hardware.csv
MIN_M = 256
MICRO_M = (256, 1024, 4096, 16384)  # the rows copied to microbenchmarks.csv (calibration rows)


def padded(m):
    return math.ceil(m / 8) * 8 if m < 64 else math.ceil(m / 64) * 64


def curve(e, n0, m, n, k):
    p = padded(m)
    s = (p * n * k) ** (1 / 3)
    return e * s / (s + n0) * m / p


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--git-dir", default="/work/.mirror/ROCm+aiter/repo")
    ap.add_argument("--apply", action="store_true", help="set the fields on tables/engines.csv")
    a = ap.parse_args()
    text = subprocess.run(["git", "--git-dir", a.git_dir, "show", f"{COMMIT}:{PATH}"], check=True,
                          capture_output=True, text=True).stdout.splitlines()
    head = text[0].split(",")
    col = {c: i for i, c in enumerate(head)}
    rows = []
    for line_no, line in enumerate(text[1:], start=2):
        f = line.split(",")
        cu, m, n, k = int(f[col["cu_num"]]), int(f[col["M"]]), int(f[col["N"]]), int(f[col["K"]])
        if cu != 256 or (n, k) not in SHAPES or m < MIN_M:
            continue
        us = float(f[col["us"]])
        rows.append((m, n, k, us, f[col["kernelName"]], line_no))
    pts = [(m, n, k, 2.0 * m * n * k / (us * 1e-6) / PEAK) for m, n, k, us, _, _ in rows]
    e, n0 = 0.5, 1000.0
    for _ in range(200):  # Gauss-Newton on (e, n0)
        jtj = [[0.0, 0.0], [0.0, 0.0]]
        jtr = [0.0, 0.0]
        for m, n, k, y in pts:
            p = padded(m)
            s = (p * n * k) ** (1 / 3)
            g = s / (s + n0) * m / p
            r = y - e * g
            j = (g, -e * s / (s + n0) ** 2 * m / p)
            for i in range(2):
                jtr[i] += j[i] * r
                for l in range(2):
                    jtj[i][l] += j[i] * j[l]
        det = jtj[0][0] * jtj[1][1] - jtj[0][1] * jtj[1][0]
        de = (jtj[1][1] * jtr[0] - jtj[0][1] * jtr[1]) / det
        dn = (jtj[0][0] * jtr[1] - jtj[1][0] * jtr[0]) / det
        e, n0 = e + de, n0 + dn
        if abs(de) < 1e-12 and abs(dn) < 1e-9:
            break
    res = [y - curve(e, n0, m, n, k) for m, n, k, y in pts]
    dof = len(pts) - 2
    s2 = sum(r * r for r in res) / dof
    inv = [[jtj[1][1] / det, -jtj[0][1] / det], [-jtj[1][0] / det, jtj[0][0] / det]]
    print(f"{len(pts)} rows (M >= {MIN_M}, four shapes), ROCm/aiter @{COMMIT} {PATH}")
    print(f"e_inf = {e:.4f} +- {math.sqrt(s2 * inv[0][0]):.4f}, n0 = {n0:.1f} +- {math.sqrt(s2 * inv[1][1]):.1f}, "
          f"residual s = {math.sqrt(s2):.4f} of the peak")
    print("rows for tables/microbenchmarks.csv (M x N x K, TFLOP/s = 2MNK / t, line, kernel):")
    for m, n, k, us, kern, line_no in rows:
        if m in MICRO_M:
            tf = 2.0 * m * n * k / (us * 1e-6) / 1e12
            print(f"  {SHAPES[(n, k)]:8s} {m}x{n}x{k} {us} us {tf:.1f} TFLOP/s line {line_no} {kern} "
                  f"(curve {curve(e, n0, m, n, k) * PEAK / 1e12:.1f})")
    if a.apply:
        values = {"fp4_gemm_efficiency": f"{e:.4f}", "fp4_gemm_half_dim": f"{n0:.0f}"}
        sentence = (f"; fp4_gemm_efficiency {values['fp4_gemm_efficiency']}, fp4_gemm_half_dim "
                    f"{values['fp4_gemm_half_dim']} (session 53, docs/mi355x-mxfp4-gemm.md): the dense MXFP4 "
                    "linears of a Quark W4A4 checkpoint run AITER's gemm_a4w4 asm kernels (f4gemm_bf16_per1x32Fp4, "
                    "VLLM_TRITON_FP4_GEMM_USE_ASM 1 in AMD's MLPerf MI355X yamls); e(n) = e_inf n / (n + n0) of the "
                    "datasheet FP4 peak, least squares on ROCm/aiter @" + COMMIT + " " + PATH + ", cu_num 256 "
                    "(gfx950), Llama-2-70B's TP1 projections (N x K 10240 x 8192, 8192 x 8192, 57344 x 8192, "
                    f"8192 x 28672), every M from {MIN_M}: {len(pts)} rows, e_inf {e:.4f} +- "
                    f"{math.sqrt(s2 * inv[0][0]):.4f}, n0 {n0:.0f} +- {math.sqrt(s2 * inv[1][1]):.0f}, residual s "
                    f"{math.sqrt(s2):.4f} of the peak (tables/scripts/aiter_a4w4_llama2_fit.py; B110)")
        micro = []
        for m, n, k, us, kern, line_no in rows:
            if m not in MICRO_M:
                continue
            name = SHAPES[(n, k)]
            tf = 2.0 * m * n * k / (us * 1e-6) / 1e12
            micro.append([
                f"B110-{name.replace('/', '')}-{m}", "gemm_vllm", "MI355X", "mxfp4", f"{m}x{n}x{k}", f"{tf:.1f}", "TFLOP/s",
                "yes", f"github.com/ROCm/aiter {PATH} @{COMMIT} line {line_no}",
                f"AITER's tuned MXFP4 GEMM (gemm_a4w4, asm kernel {kern.replace('_ZN5aiter41', '').replace('_ZN5aiter42', '').rstrip('E')}, "
                f"per-1x32 E8M0 scales, weights pre-shuffled) on gfx950, 256 CUs: {us} us at M={m}, N={n}, K={k} "
                f"(Llama-2-70B's {name} projection on one GPU), the time AITER's tuner measured for its kernel choice "
                "(ROCm/aiter @6af8b687 is the AITER of the MLPerf v6.0 AMD MI355X system, aiter-6af8b687); AMD's "
                "MLPerf MI355X Llama-2-70B harness runs its MXFP4 linears on AITER's gemm_a4w4 asm kernels "
                "(VLLM_TRITON_FP4_GEMM_USE_ASM 1); one of the "
                f"{len(pts)} rows the vLLM CDNA4 profile's fp4_gemm_efficiency / fp4_gemm_half_dim are fitted to "
                "(docs/mi355x-mxfp4-gemm.md); priced with that curve (kind gemm_vllm)"])
        bench = "tables/microbenchmarks.csv"
        table = load(bench)
        upsert_rows(table, micro)
        save(bench, table)
        print(f"{bench}: {len(micro)} rows B110 written")
        engines = "tables/engines.csv"
        table = load(engines)
        col = {name: i for i, name in enumerate(table[0])}
        profile = "vLLM on CDNA4 (ROCm)"
        row = row_named(table, profile, engines)
        changed = False
        for field, value in values.items():
            changed |= set_field(row, col, field, value, sentence, engines, profile)
        if changed:
            save(engines, table)
        print(f"{engines}: {profile}: {values}" + (" (set)" if changed else " (already set)"))


if __name__ == "__main__":
    main()
