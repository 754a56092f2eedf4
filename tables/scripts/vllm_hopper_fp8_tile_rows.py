#!/usr/bin/env python3
"""Session 30 part B (docs/vllm-hopper-fp8-gemm.md): the rows vLLM's dense FP8 GEMM kernel on Hopper computes
(`engine_kernels::fp8_gemm_tile_rows`, the column `fp8_gemm_tile_rows`): 256 on "vLLM on Hopper".

vLLM's FP8 linear layers (Fp8LinearMethod: per-tensor FP8 weights; activations quantized per token in a kernel of
their own) run cutlass_scaled_mm, whose sm90 dispatch picks the CUTLASS 3 config by mp2 = max(64, next_pow2(m)):
64 x 64 x 128 tile with a 1 x 8 cluster up to 64 tokens, 64 x 128 x 128 with a 2 x 1 cluster up to 128, and
128 x 128 x 128 with a 2 x 1 cluster above (csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh,
vllm-project/vllm @44d638a89638f617e8315b25ad699a5a72e845b9): a 2 x 1 cluster launches CTAs in pairs along M, so
above 128 tokens the kernel covers M in 256-row units. aiconfigurator's measured vLLM FP8 linear layers
(CutlassFP8ScaledMMLinearKernel; github.com/ai-dynamo/aiconfigurator @095f58a51c4ca8e61b66ec108d86f223f8d559ce
aic-core/src/aiconfigurator_core/systems/data/{h100_sxm,h200_sxm}/gemm/vllm/0.24.0/gemm_perf.parquet) show it: at
the 36 dense-model shapes, 257 tokens take 2.07x (H200) / 1.79x (H100) the time of 256 (median; BF16 1.08x /
1.05x), 513 ... 1,025 tokens 1.70x / 1.63x of one fewer; the same in the 0.14.0 and 0.19.0 tables.

Adds the column (before `source`, 0 elsewhere) if absent and sets the cell, its sentence appended to the row's
source. Idempotent: re-running changes nothing. Then run tables/scripts/engines_catalog_sync.py. Run from the
repository root."""


from csv_rows import set_profile_column

PATH = "tables/engines.csv"
COLUMN = "fp8_gemm_tile_rows"
PROFILE, VALUE = "vLLM on Hopper", "256"
SENTENCE = (
    "; fp8_gemm_tile_rows 256 (session 30, docs/vllm-hopper-fp8-gemm.md): vLLM's dense FP8 linear layers "
    "(Fp8LinearMethod, per-tensor FP8 weights, activations quantized per token in a kernel of their own) run "
    "cutlass_scaled_mm, whose sm90 dispatch picks the CUTLASS 3 config by mp2 = max(64, next_pow2(m)): 64 x 64 x 128 "
    "tile, 1 x 8 cluster up to 64 tokens; 64 x 128 x 128, 2 x 1 cluster up to 128; 128 x 128 x 128, 2 x 1 cluster "
    "above (csrc/quantization/cutlass_w8a8/c3x/scaled_mm_sm90_fp8_dispatch.cuh, vllm-project/vllm "
    "@44d638a89638f617e8315b25ad699a5a72e845b9; the v0.9.2 file not read): CTAs launch in pairs along M, so the kernel "
    "computes ceil(m / u) x u rows, u = min(256, mp2) (fp8_gemm_padded_rows), the dense projections priced at "
    "e(p) x m / p; aiconfigurator's measured vLLM 0.24.0 FP8 linear layers (kernel_source CutlassFP8ScaledMMLinearKernel, "
    "github.com/ai-dynamo/aiconfigurator @095f58a51c4ca8e61b66ec108d86f223f8d559ce aic-core/src/aiconfigurator_core/"
    "systems/data/h200_sxm/gemm/vllm/0.24.0/gemm_perf.parquet and h100_sxm) take 2.07x (H200) and 1.79x (H100) at 257 "
    "tokens the time at 256 (median of the 36 dense-model shapes; BF16 1.08x, 1.05x), 1.70x / 1.63x at 513-1,025 "
    "against one fewer (the 0.14.0 and 0.19.0 tables alike); the padding gives 1.09x at the median of m = 256j + 1 "
    "(j 1-17) where the tables give 1.18-1.24x, so it is about half of what the tables show")


def main():
    set_profile_column(PATH, PROFILE, COLUMN, VALUE, SENTENCE)


if __name__ == "__main__":
    main()
