#!/usr/bin/env python3
"""Adds the column `router_whole_bf16` (before `source`, "none" on every row) to tables/engines.csv if absent, and sets
each profile's value with its source sentence appended to the row's `source` text (session 53; the engine set session 52
wrote as a switch on the engine kind in `keeps_router_whole`, costs/parallel.hpp; docs/kv-pool.md): the MoE models whose
router (gate) the engine keeps whole on every rank in BF16, unsharded and unquantized, where the library's shard prices
it in the weights' format / tp. Values: none, every_moe, latent_moe (`router_whole_models`, descriptors/engine.hpp).

Edits only that column and the source cells, by column name. Idempotent: a row whose source already holds its sentence
is left as it is; a cell that holds neither "none" nor the value is refused. Run from the repository root:

  python3 tables/scripts/router_whole_bf16.py
  python3 tables/scripts/engines_catalog_sync.py
"""

import sys

from csv_rows import insert_columns, load, row_named, save

PATH = "tables/engines.csv"
COLUMN = "router_whole_bf16"

SGLANG = (
    "; router_whole_bf16 every_moe (session 53, the rule session 51-52 read): every MoE model's gate is "
    "MoEGate.weight = nn.Parameter(torch.empty((n_routed_experts, hidden_size))), unsharded, in the model's dtype "
    "(sgl-project/sglang v0.5.6 @7ae368efd python/sglang/srt/models/deepseek_v2.py l.523; docs/kv-pool.md)"
)
VLLM = (
    "; router_whole_bf16 every_moe (session 53, the rule session 52 read): the gate is ReplicatedLinear(hidden, "
    "experts, bias=False, quant_config=None), whole on every rank and unquantized, in DeepSeek-V2/V3 (deepseek_v2.py "
    "l.122-126), Qwen3-MoE (qwen3_moe.py l.122-126), Mixtral (mixtral.py l.82-86, params_dtype the model's) and Llama-4 "
    "(llama4.py l.69-73) at ROCm/vllm @f8c9a385233a8e1f724411785a1c326006640df5 vllm/model_executor/models/ (ROCm's fork "
    "of vLLM, read for every vLLM profile), and gpt-oss's torch.nn.Linear(hidden, experts, "
    "dtype=torch.bfloat16) (gpt_oss.py l.196-198 at ROCm/vllm @0f3854d292a2f45231ae7478c91da67d2e28f3c4); Qwen3-Next "
    "not read (no row; docs/kv-pool.md)"
)
TRTLLM = (
    "; router_whole_bf16 latent_moe (session 53, the rule session 52 read): on the PyTorch backend a latent-attention "
    "(DeepSeek-V3 class) MoE model's gate is DeepseekV3Gate, weight = nn.Parameter(torch.empty((num_experts, "
    "hidden_size), dtype=config.torch_dtype)) loaded whole (NVIDIA/TensorRT-LLM @000561df0bd751d793257102bbe59cb4a64b2fd5 "
    "tensorrt_llm/_torch/models/modeling_deepseekv3.py); Qwen3-MoE's Qwen3Gate is the same (modeling_qwen3_moe.py "
    "@03441af14b6675ec38275167cfd514595defb505) but no model field picks Qwen3-MoE out and no row runs it; Mixtral's "
    "and gpt-oss's routers not read: their shard stays (docs/kv-pool.md)"
)
TRT_ENGINE = (
    "; router_whole_bf16 none (session 53): the TensorRT engine's MixtureOfExperts keeps its router whole on every "
    "rank but in FP32, RowLinear(hidden_size, num_experts, bias=False, dtype=trt.float32, tp_group=None, tp_size=1, "
    "strict_dtype=True), the input cast to FP32 (NVIDIA/TensorRT-LLM tensorrt_llm/layers/moe.py at a stored version, "
    "commit 03961722f65265573cad179baca3bc5fe8c03f76, its release not pinned to 0.9-0.16): 4 B a parameter, which the "
    "BF16 rule does not price, so the library's shard stays; no row of this profile runs an MoE model"
)

VALUES = {
    "TensorRT-LLM on Hopper": ("latent_moe", TRTLLM),
    "TensorRT-LLM on Blackwell": ("latent_moe", TRTLLM),
    "vLLM on Hopper": ("every_moe", VLLM),
    "vLLM on Blackwell": ("every_moe", VLLM),
    "vLLM on CDNA3 (ROCm)": ("every_moe", VLLM),
    "vLLM on CDNA4 (ROCm)": ("every_moe", VLLM),
    "SGLang on Hopper": ("every_moe", SGLANG),
    "SGLang on Blackwell": ("every_moe", SGLANG),
    "SGLang on CDNA3 (ROCm)": ("every_moe", SGLANG),
    "SGLang on CDNA4 (ROCm)": ("every_moe", SGLANG),
    "TensorRT-LLM 0.9-0.16 on Hopper (TensorRT engine + Triton)": ("none", TRT_ENGINE),
}


def main():
    rows = load(PATH)
    changed = bool(insert_columns(rows, [COLUMN], fill="none"))
    head = rows[0]
    col, src = head.index(COLUMN), head.index("source")
    names = {r[head.index("name")] for r in rows[1:] if r}
    if names != set(VALUES):
        sys.exit(f"{PATH}: profiles {sorted(names ^ set(VALUES))} are in the table or the script, not both; refused")
    for name, (value, sentence) in VALUES.items():
        r = row_named(rows, name, PATH)
        if sentence in r[src]:
            continue
        if r[col] not in ("none", value):
            sys.exit(f"{PATH}: {name}: {COLUMN} is {r[col]!r}, neither 'none' nor {value!r}; refused")
        r[col] = value
        r[src] += sentence
        changed = True
    if changed:
        save(PATH, rows)
    print(f"{PATH}: {COLUMN} " + ", ".join(f"{n} = {v}" for n, (v, _) in VALUES.items()) + ("" if changed else " (already set)"))


if __name__ == "__main__":
    main()
