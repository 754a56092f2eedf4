#!/usr/bin/env python3
"""Session 41 (docs/sglang-rocm-shared-expert.md): SGLang on ROCm runs DeepSeek's fused shared expert whole on every
expert-parallel rank of a TEP layout (tp = ep > 1, tensor-parallel attention, no all-to-all backend).

Read, not fitted (sgl-project/sglang, read at the upstream mirror HaiShaw/sglang; the same lines at v0.5.5.post3
7b2fb3d47, v0.5.6.post1 9a327bdfc and the amd_mori merge 00e3e6ea3): python/sglang/srt/models/deepseek_v2.py
`DeepseekV2ForCausalLM.determine_num_fused_shared_experts` (l.3271-3311) keeps the shared expert fused into the
routed-expert runner as expert 257 on HIP with capability >= gfx942 also under expert parallelism, and turns the
fusion off only with an all-to-all backend (deepep, mori); `DeepseekV2MoE.__init__` (l.644-650, PR #12201 aead0ef5e)
scales the fused shared expert's output by 1/ep because every rank computes it whole, and the MoE's all-reduce sums
the ranks. On CUDA, EP > 1 turns the fusion off (the shared expert stays TP-sharded); TensorRT-LLM and vLLM run it
as a TP-sharded MLP of its own.

Sets, by column name, idempotently (run from the repository root, then
`python3 tables/scripts/engines_catalog_sync.py`): tables/engines.csv column `shared_expert_ep_replicated` (added
before `source` if absent, 0 on every row), 1 on the SGLang CDNA3 and CDNA4 (ROCm) profiles, their source sentence
appended once.

  python3 tables/scripts/sglang_rocm_shared_expert_ep.py
"""

from csv_rows import insert_columns, load, row_named, save

ENGINES = "tables/engines.csv"
COLUMN = "shared_expert_ep_replicated"
PROFILES = ("SGLang on CDNA3 (ROCm)", "SGLang on CDNA4 (ROCm)")
NOTE = (
    "; shared_expert_ep_replicated 1 (session 41, docs/sglang-rocm-shared-expert.md; read, not fitted): on HIP >= "
    "gfx942 SGLang keeps DeepSeek's shared expert fused into the routed-expert runner under expert parallelism unless "
    "the MoE runs an all-to-all backend (deepep, mori) and scales its output by 1/ep because every EP rank computes it "
    "whole (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py determine_num_fused_shared_experts l.3271-3311, "
    "DeepseekV2MoE.__init__ l.644-650, PR #12201 aead0ef5e; the same at v0.5.5.post3 7b2fb3d47, v0.5.6.post1 "
    "9a327bdfc and 00e3e6ea3, read at the HaiShaw/sglang mirror): a TEP rank runs and holds the full-width shared "
    "expert (tables/scripts/sglang_rocm_shared_expert_ep.py)")


def main():
    rows = load(ENGINES)
    h = rows[0]
    insert_columns(rows, (COLUMN,))
    src = h.index("source")
    for name in PROFILES:
        r = row_named(rows, name, ENGINES)
        r[h.index(COLUMN)] = "1"
        if NOTE not in r[src]:
            r[src] += NOTE
    save(ENGINES, rows)
    print(f"{ENGINES}: {', '.join(PROFILES)}: {COLUMN} 1")


if __name__ == "__main__":
    main()
