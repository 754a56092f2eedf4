#!/usr/bin/env python3
"""Session 28 (docs/shared-expert-kernels.md): DeepSeek's shared expert, a gated MLP of its own beside the
routed-expert runner.

Sets, by column name, idempotently (re-running changes nothing; run from the repository root):
  tables/engines.csv, columns `shared_expert_kernels` and `shared_expert_stream` (each added before `source`
  if absent, 0 on every row), then on "TensorRT-LLM on Blackwell": shared_expert_kernels = 3,
  shared_expert_stream = 1, source text appended once.
  Read, not fitted: NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/modeling_deepseekv3.py
  @000561df0bd751d793257102bbe59cb4a64b2fd5 (Deepseekv3MoE: shared_experts = GatedMLP, run with the router
  and routed experts through maybe_execute_in_parallel on the MoeShared auxiliary stream);
  tensorrt_llm/_torch/modules/multi_stream_utils.py @05b58881e64f2c21a3d2dbfcc52fc1b8b0051114 (parallel only
  under do_multi_stream(), which the CUDA-graph runner sets for its capture: with_multi_stream(True));
  tech blog 1 @01c4ece911eb569e72cf4177f83238a0520641c2 (Module 11 "Shared Expert Overlaps partially with
  Module10 and Module 12"; "Multi Stream to overlap shared expert with sparse experts" 67 -> 73 TPS/user).
"""

import sys

from csv_rows import insert_columns, load, row_named, save

ENGINES = "tables/engines.csv"
PROFILE = "TensorRT-LLM on Blackwell"
COLUMNS = ("shared_expert_kernels", "shared_expert_stream")
VALUES = {"shared_expert_kernels": "3", "shared_expert_stream": "1"}
NOTE = (
    "; shared_expert_kernels 3 and shared_expert_stream 1 (session 28, docs/shared-expert-kernels.md; read, not "
    "fitted): DeepSeek's shared expert is a GatedMLP of its own (gate-up GEMM, SwiGLU + quantization, down GEMM) "
    "outside the TRTLLM-Gen runner (whose moe_runner_kernels 6 were read on gpt-oss, which has none), run "
    "beside the router and the routed experts on the MoeShared auxiliary stream (NVIDIA/TensorRT-LLM "
    "tensorrt_llm/_torch/models/modeling_deepseekv3.py @000561df0bd751d793257102bbe59cb4a64b2fd5 "
    "Deepseekv3MoE.forward maybe_execute_in_parallel), in parallel only under CUDA-graph capture "
    "(tensorrt_llm/_torch/modules/multi_stream_utils.py @05b58881e64f2c21a3d2dbfcc52fc1b8b0051114 "
    "do_multi_stream; the graph runner's with_multi_stream(True)); tech blog 1 "
    "@01c4ece911eb569e72cf4177f83238a0520641c2 Module 11 overlaps partially with Modules 10 and 12: a decode "
    "step adds max(0, 3 - 6) = 0 kernels a MoE layer, an eager (prompt) step 3, launched by the host")


def main():
    rows = load(ENGINES)
    h = rows[0]
    insert_columns(rows, COLUMNS)
    src = h.index("source")
    r = row_named(rows, PROFILE, ENGINES)
    for col, value in VALUES.items():
        r[h.index(col)] = value
    if NOTE not in r[src]:
        r[src] += NOTE
    save(ENGINES, rows)
    print(f"{ENGINES}: {PROFILE}: " + ", ".join(f"{c} {v}" for c, v in VALUES.items()))


if __name__ == "__main__":
    main()
