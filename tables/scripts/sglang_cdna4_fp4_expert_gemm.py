#!/usr/bin/env python3
"""Adds the column `fp4_expert_gemm` (before `source`, 0 on every row) to tables/engines.csv if absent, and
sets it on the row "SGLang on CDNA4 (ROCm)" to AITER's MXFP4 fused-MoE rate over the MI355X expert size curve,
appending the figure's source sentence to the row's `source` text (session 38, docs/aiter-fused-moe.md §8):

  ROCm/aiter @8c5fceb424e93eca04fe124490d743737276e0dd (2026-02-26)
  aiter/configs/model_configs/dsv3_fp4_tuned_fmoe.csv, rows cu_num 256 (gfx950, MI355X), model_dim 7168,
  inter_dim 256, expert 257, topk 9, QuantType.per_1x32 (float4_e2m1fn_x2 activations and weights), Silu,
  tokens from 4,096 (the two 16,384-token rows): g4 = 0.2222 +- 0.0071 (least squares on ln rate), residual
  s 0.045 (ln)

Edits only the named field, by column name; every other engine keeps 0. Idempotent: re-running changes
nothing; a row whose fp4_expert_gemm is neither 0 nor the new value is refused. Run from the repository root:

  python3 tables/scripts/sglang_cdna4_fp4_expert_gemm.py
  python3 tables/scripts/engines_catalog_sync.py

The catalog (include/llmcost/catalog/engines.hpp) must carry the same values: the unit test
"tables/engines.csv equals catalog::all_engines, row for row" checks it (engines_catalog_sync.py writes it).
"""

from csv_rows import set_profile_column

PATH = "tables/engines.csv"
NAME = "SGLang on CDNA4 (ROCm)"
COLUMN = "fp4_expert_gemm"
VALUE = "0.2222"
SENTENCE = (
    "; fp4_expert_gemm 0.2222 (session 38, docs/aiter-fused-moe.md section 8): the routed experts' GEMMs of an "
    "MXFP4 checkpoint run W4A4 (MXFP4 experts and activations, AMD's DeepSeek-R1 MXFP4) at 0.2222 of the expert "
    "size curve, r = P_fp4 x gemm x e(rows per expert) x 0.2222: SGLang on ROCm runs them with AITER's per_1x32 "
    "fused MoE (two-stage kernels: CK moe_ck2stages FP4X2, and a FlyDSL second stage in one tuned row), whose tuner times each shape on the GPU (tokens "
    "routed top-k of the experts by random scores); fitted (least squares on ln rate; fp8_expert_gemm's rule: "
    "every row of DeepSeek-V3's TP8 expert shape from 4,096 tokens) to AITER's first tuned MXFP4 DeepSeek-V3 table, "
    "ROCm/aiter @8c5fceb424e93eca04fe124490d743737276e0dd (2026-02-26) "
    "aiter/configs/model_configs/dsv3_fp4_tuned_fmoe.csv, cu_num 256 (gfx950), model_dim 7168, inter_dim 256, "
    "expert 257, topk 9, QuantType.per_1x32, Silu, its two rows from 4,096 tokens (16,384 tokens, 573.8 rows an "
    "expert, block_m 64 and 128; the first with a FlyDSL second stage, the second AITER's flydsl_fallback, both "
    "stages CK): 2,023.9 and 2,156.8 us (us1 + us2; the second row's us column reads 2,356.8, "
    "exactly 200 us above its stages' sum, and its tflops 752.75 is the sum's), 802 and 753 TFLOP/s against "
    "3,496 on the curve (P_fp4 10,000 x gemm 0.9215 x 0.6793 n/(n + 798) x 573.8/576, n = cbrt(576 x 7,168 x "
    "256)), 2 rows, 0.2222 +- 0.0071, residual s 0.045 (ln), each row within -3.1...+3.3%; about the FP8 "
    "per_1x128 kernel's rate (721 TFLOP/s at 16,384 tokens), not twice it; the rows' images (v0.5.6-v0.5.7, "
    "AITER about v0.1.9 2d714384fa, 2025-12-22) carry no per_1x32 row in aiter/configs/tuned_fmoe.csv and ran "
    "AITER's untuned default (ASSUMED: at most the tuned table's rate; the table is two months newer than the "
    "v0.5.6 image and one newer than v0.5.7's)"
)


def main():
    set_profile_column(PATH, NAME, COLUMN, VALUE, SENTENCE)


if __name__ == "__main__":
    main()
