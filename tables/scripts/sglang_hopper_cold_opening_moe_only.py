#!/usr/bin/env python3
"""Adds the column `cold_opening_moe_only` (before `source`, 0 on every row) to tables/engines.csv if absent, and sets
it to 1 on the row "SGLang on Hopper", appending the figure's source sentence to the row's `source` text (session 52,
docs/sglang-closed-loop-ttft.md section 7): only a model with routed experts pays that profile's cold opening
(`engine_overheads::pays_cold_opening`), its one-time work at the opening's shapes being the Triton fused-MoE kernel
configs SGLang picks per batch size and compiles on first call; a dense model builds nothing per shape.

Edits only the named field, by column name; every other engine keeps 0. Idempotent: re-running changes nothing; a row
whose cold_opening_moe_only is neither 0 nor 1 is refused. Run from the repository root:

  python3 tables/scripts/sglang_hopper_cold_opening_moe_only.py
  python3 tables/scripts/engines_catalog_sync.py
"""

from csv_rows import set_profile_column

PATH = "tables/engines.csv"
NAME = "SGLang on Hopper"
COLUMN = "cold_opening_moe_only"
VALUE = "1"
SENTENCE = (
    '; cold_opening_moe_only 1 (session 52, docs/sglang-closed-loop-ttft.md §7): only a model with routed experts '
    "pays that opening, its one-time work being the Triton fused-MoE kernel configs SGLang picks by the step's "
    'token count and compiles on first call (sgl-project/sglang @7ae368efd '
    'python/sglang/srt/layers/moe/fused_moe_triton/fused_moe_triton_config.py:239; quantization/fp8.py:1008-1014 '
    "TRITON under auto); DeepGEMM's FP8 GEMMs are precompiled for all M at launch "
    '(deep_gemm_wrapper/compile_utils.py:56-62, 75-116) and a dense BF16 model runs cuBLAS and sgl-kernel FA3, '
    'built ahead of time'
)


def main():
    set_profile_column(PATH, NAME, COLUMN, VALUE, SENTENCE)


if __name__ == "__main__":
    main()
