#!/usr/bin/env python3
"""Session 30 part B (docs/vllm-hopper-fp8-gemm.md): vLLM's FP8 linear layers on Hopper as measured by NVIDIA
aiconfigurator's vLLM 0.24.0 collector, at the shapes of Krai's MLPerf v5.1 open Llama-3.1-70B runs (vLLM 0.9.2,
quantization=fp8: per-tensor FP8 weights, dynamic activation scales), as check rows (fitted no) of
tables/microbenchmarks.csv: B101 (H200, Llama-3.1-70B TP1: QKV 10240 x 8192, attention output 8192 x 8192) and
B102 (H100, TP2: QKV 5120 x 8192, attention output 8192 x 4096), m 512, 2048, 8192 (whole 256-row units); B103 (H200)
and B104 (H100), the same layers at m 257, 513, 2049 (one row past a unit: the table's paired rows show the CUTLASS
kernel's 256-row M units, engine_kernels::fp8_gemm_tile_rows).
Source: github.com/ai-dynamo/aiconfigurator @095f58a51c4ca8e61b66ec108d86f223f8d559ce
aic-core/src/aiconfigurator_core/systems/data/{h200_sxm,h100_sxm}/gemm/vllm/0.24.0/gemm_perf.parquet, gemm_dtype fp8,
kernel_source CutlassFP8ScaledMMLinearKernel (collector/vllm/collect_gemm.py: RowParallelLinear with
Fp8Config(activation_scheme="dynamic", weight_block_size=None), process_weights_after_loading, the forward timed
whole under CUDA-graph replay, six weight copies, latency / 6): the activations' dynamic FP8 quantization and the
CUTLASS sm90 scaled_mm together.
Each row: value 2mnk / latency in TFLOP/s (1 decimal); kind linear_vllm (priced as the steps price one GEMM under vLLM
on Hopper's profile: max(compute at the hardware's FP8 curve on the padded rows, weights from HBM) + the kernel's
4 us; fp8_gemm_efficiency 0, gemm 1, weights 1, fp8_gemm_tile_rows 256 in tables/engines.csv).
Sets the rows by id, idempotently (appends the ones absent; re-running changes nothing); run from the
repository root."""

from csv_rows import load, save, upsert_rows

TABLE = "tables/microbenchmarks.csv"
COMMIT = "095f58a51c4ca8e61b66ec108d86f223f8d559ce"
# (id prefix, hardware, aiconfigurator system, layer names by (n, k), [(m, n, k, latency ms)])
POINTS = [
    ("B101", "H200 SXM", "h200_sxm", {(10240, 8192): "Llama-3.1-70B TP1 QKV", (8192, 8192): "Llama-3.1-70B TP1 attention output"},
     [(512, 10240, 8192, 0.07576621903313532), (2048, 10240, 8192, 0.26839645703633624),
      (8192, 10240, 8192, 0.9795484542846681), (512, 8192, 8192, 0.05585955248938668),
      (2048, 8192, 8192, 0.2189546691046821), (8192, 8192, 8192, 0.8348053296407064)]),
    ("B102", "H100 SXM5", "h100_sxm", {(5120, 8192): "Llama-3.1-70B TP2 QKV", (8192, 4096): "Llama-3.1-70B TP2 attention output"},
     [(512, 5120, 8192, 0.05508888761202494), (2048, 5120, 8192, 0.1628613339530097),
      (8192, 5120, 8192, 0.5744346512688531), (512, 8192, 4096, 0.03270311156908671),
      (2048, 8192, 4096, 0.12749155362447104), (8192, 8192, 4096, 0.514901320139567)]),
    ("B103", "H200 SXM", "h200_sxm", {(10240, 8192): "Llama-3.1-70B TP1 QKV", (8192, 8192): "Llama-3.1-70B TP1 attention output"},
     [(257, 10240, 8192, 0.0981902215215895), (513, 10240, 8192, 0.15738044844733343),
      (2049, 10240, 8192, 0.3807617823282878), (257, 8192, 8192, 0.07276444302664864),
      (513, 8192, 8192, 0.11311111185285781), (2049, 8192, 8192, 0.3182186550564236)]),
    ("B104", "H100 SXM5", "h100_sxm", {(5120, 8192): "Llama-3.1-70B TP2 QKV", (8192, 4096): "Llama-3.1-70B TP2 attention output"},
     [(257, 5120, 8192, 0.060917331112755664), (513, 5120, 8192, 0.07873421907424927),
      (2049, 5120, 8192, 0.2181288931104872), (257, 8192, 4096, 0.04271822174390157),
      (513, 8192, 4096, 0.05999022059970432), (2049, 8192, 4096, 0.1607404417461819)]),
]


def rows_to_set():
    out = []
    for prefix, hardware, system, layers, points in POINTS:
        source = (f"github.com/ai-dynamo/aiconfigurator @{COMMIT} aic-core/src/aiconfigurator_core/systems/data/{system}/"
                  f"gemm/vllm/0.24.0/gemm_perf.parquet")
        for m, n, k, ms in points:
            tflops = 2.0 * m * n * k / (ms * 1e-3) / 1e12
            notes = (f"aiconfigurator's measured vLLM 0.24.0 FP8 linear layer (Fp8LinearMethod, per-tensor FP8 weights, "
                     f"dynamic activation scales; kernel_source CutlassFP8ScaledMMLinearKernel: the activations' FP8 "
                     f"quantization and CUTLASS's sm90 scaled_mm timed together, CUDA-graph replay, six weight copies) on "
                     f"{hardware}: {ms:.6g} ms at m {m}, n {n}, k {k} ({layers[(n, k)]}, the layers of Krai's vLLM 0.9.2 "
                     f"MLPerf v5.1 open runs); not fitted: checks the hardware's FP8 curve that vLLM on Hopper prices its "
                     f"dense FP8 GEMMs on (docs/vllm-hopper-fp8-gemm.md: the rule's fit on the table, e_inf 1.00, was not "
                     f"adopted)" + (f"; {m} tokens, one past a 256-row unit: the kernel computes "
                                    f"{-(-m // 256) * 256} rows (fp8_gemm_tile_rows 256)" if m % 256 else ""))
            out.append([f"{prefix}-{m}x{n}x{k}", "linear_vllm", hardware, "fp8", f"{m}x{n}x{k}", f"{tflops:.1f}",
                        "TFLOP/s", "no", source, notes])
    return out


def main():
    rows = load(TABLE)
    new = rows_to_set()
    upsert_rows(rows, new)
    save(TABLE, rows)
    print(f"{TABLE}: " + ", ".join(f"{r[0]} {r[5]} TFLOP/s" for r in new))


if __name__ == "__main__":
    main()
