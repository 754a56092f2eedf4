#!/usr/bin/env python3
"""Sets `fp8_expert_gemm` of tables/engines.csv's row "SGLang on CDNA4 (ROCm)" to AITER's fused-MoE
(expert GEMM) rate over the MI355X expert size curve, and appends the figure's source sentence to the
row's `source` text (session 27, docs/aiter-fused-moe.md):

  ROCm/aiter @0f6aede14c09bb1ad6b85898eb2447287dd24efe (2026-04-13)
  aiter/configs/model_configs/a8w8_blockscale_tuned_fmoe_ds_v3.csv, rows cu_num 256 (gfx950, MI355X),
  model_dim 7168, inter_dim 256, expert 257, topk 9, QuantType.per_1x128, Silu, doweight_stage1 0,
  tokens 4096-32768: g8 = 0.4421 +- 0.036 (least squares on ln rate), residual s 0.162 (ln)

Edits only the named fields, by column name (so it re-applies after columns are added or rows are
reordered, and after another branch's edits to other fields). Idempotent: a row already at the new value
with the sentence in its source is left alone; a row whose fp8_expert_gemm is neither 0 (none) nor the
new value is refused. Run from the repository root:

  python3 tables/scripts/sglang_cdna4_fp8_expert_gemm.py

Rewrites the file in place, every other cell byte for byte as it was. The catalog
(include/llmcost/catalog/engines.hpp, hand-kept) must carry the same value: the unit test
"tables/engines.csv equals catalog::all_engines, row for row" checks it.
"""


import sys

from csv_rows import load, save

PATH = "tables/engines.csv"
NAME = "SGLang on CDNA4 (ROCm)"
FIELDS = {"fp8_expert_gemm": "0.4421"}
SENTENCE = (
    "; fp8_expert_gemm 0.4421 (session 27, docs/aiter-fused-moe.md): the routed experts' GEMMs of an FP8 "
    "block-scaled checkpoint (FP8 weights and activations, DeepSeek-R1's) run at 0.4421 of the expert size curve, "
    "r = P_fp8 x gemm x e(rows per expert) x 0.4421: SGLang on ROCm runs them with AITER's fused MoE (FP8 "
    "128x128-block kernels, fmoe_bf16_blockscaleFp8_g1u1 asm and CK 2-stage), whose tuner times each shape on "
    "the GPU (csrc/ck_gemm_moe_2stages_codegen/gemm_moe_tune.py: tokens routed top-k of the experts by random "
    "scores); fitted (least squares on ln rate; the rule, as B87's: every MI355X row of DeepSeek-V3's TP8 "
    "expert shape from 4,096 tokens) to ROCm/aiter @0f6aede14c09bb1ad6b85898eb2447287dd24efe (2026-04-13) "
    "aiter/configs/model_configs/a8w8_blockscale_tuned_fmoe_ds_v3.csv, cu_num 256 (gfx950), model_dim 7168, "
    "inter_dim 256, expert 257, topk 9 (the shared expert fused), QuantType.per_1x128, Silu, tokens 4,096, "
    "8,192, 16,384 and 32,768 (143-1,148 rows an expert): 605, 641, 721 and 724 TFLOP/s against 1,098, 1,437, "
    "1,748 and 1,922 on the curve (P_fp8 5,000 x gemm 0.9215 x 0.6793 n/(n + 798), n = cbrt(padded rows x "
    "7,168 x 256)), 4 rows, 0.4421 +- 0.036, residual s 0.162 (ln), each row within -14.8...+24.6%; "
    "one multiplier does not follow the table across rows (0.55 of the curve at 143 rows an expert, 0.38 at "
    "1,148: the kernel's rate flattens near 720 TFLOP/s while the curve keeps rising); the images of the rows "
    "(December 2025) carry no tuned row above 1,024 tokens for this shape (ROCm/aiter v0.1.9 "
    "aiter/configs/tuned_fmoe.csv, 1,024 tokens: 359.5 us, where the 2026-04 table has 385.4 us), so the "
    "2026-04 table stands in for them; no MI355X row of the expert-parallel shape (inter_dim 2048) exists, so "
    "the disaggregated rows' TEP8 and DEP8 experts take the TP8 shape's multiplier (MI325X's EP8 rows, "
    "ROCm/aiter @84493f0e5b, run at 0.81 of MI325X's curve: not applied here)"
)


def main():
    rows = load(PATH)
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for name in ["name", "source", *FIELDS]:
        if name not in col:
            sys.exit(f"{PATH}: no column {name!r}")
    hits = [n for n, row in enumerate(rows) if n > 0 and row and row[col["name"]] == NAME]
    if len(hits) != 1:
        sys.exit(f"{PATH}: {len(hits)} rows named {NAME!r}, expected 1; refused")
    row = rows[hits[0]]
    changed = False
    for field, value in FIELDS.items():
        now = row[col[field]]
        if now == value:
            continue
        if now not in ("0", ""):
            sys.exit(f"{PATH}:{hits[0] + 1}: {NAME}: {field} is {now!r}, neither 0 (none) nor {value!r}; refused")
        row[col[field]] = value
        changed = True
    if SENTENCE not in row[col["source"]]:
        row[col["source"]] = row[col["source"]] + SENTENCE
        changed = True
    if changed:
        save(PATH, rows)
    print(f"{PATH}: {NAME}: " + ", ".join(f"{f} = {v}" for f, v in FIELDS.items()) + (" (set)" if changed else " (already set)"))


if __name__ == "__main__":
    main()
