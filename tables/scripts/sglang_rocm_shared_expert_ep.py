#!/usr/bin/env python3
"""Session 41 (docs/sglang-rocm-shared-expert.md): SGLang on ROCm runs DeepSeek's fused shared expert whole on every
expert-parallel rank of a TEP layout (tp = ep > 1, tensor-parallel attention, no all-to-all backend).

Read, not fitted (sgl-project/sglang, read at the upstream mirror HaiShaw/sglang; line numbers @00e3e6ea3, the amd_mori
merge): python/sglang/srt/models/deepseek_v2.py `DeepseekV2ForCausalLM.determine_num_fused_shared_experts`
(l.3271-3311) fuses the shared expert into the routed-expert runner as expert 257 for the DeepSeek-V3/R1 shape only
(l.3279-3284: DeepseekV3ForCausalLM, 256 routed experts, 1 shared), on HIP with capability >= gfx942 also under
expert parallelism, and turns the fusion off with an all-to-all backend (deepep, mori); `DeepseekV2MoE.__init__`
(l.644-650) scales the fused shared expert's output by 1/ep because every rank computes it whole, and the MoE's
all-reduce sums the ranks. The window: fusion under EP on ROCm from PR #12201 (aead0ef5e, 2025-11-13), first released
in v0.5.5.post3 (7b2fb3d47); before it any EP > 1 turned the fusion off. On CUDA, EP > 1 turns the fusion off up to
v0.5.6 (l.3220-3223 @7b2fb3d47); from 2ecee7571 (PR #14432, in v0.5.6.post1 9a327bdfc) CUDA sm80+ keeps it under EP
too, INFERRED replicated alike and not priced (the B200 SGLang TEP rows' image, v0.5.6 7ae368efd, predates it).
TensorRT-LLM and vLLM run the shared expert as a TP-sharded MLP of its own.

Sets, by column name, idempotently (run from the repository root, then
`python3 tables/scripts/engines_catalog_sync.py`): tables/engines.csv column `shared_expert_ep_replicated` (added
before `source` if absent, 0 on every row), 1 on the SGLang CDNA3 and CDNA4 (ROCm) profiles, their source sentence
appended once (an earlier wording of it, from its marker to this script's name, replaced).

  python3 tables/scripts/sglang_rocm_shared_expert_ep.py
"""

from csv_rows import insert_columns, load, replace_marked, row_named, save

ENGINES = "tables/engines.csv"
COLUMN = "shared_expert_ep_replicated"
PROFILES = ("SGLang on CDNA3 (ROCm)", "SGLang on CDNA4 (ROCm)")
MARKER = "; shared_expert_ep_replicated 1 (session 41"
END = "(tables/scripts/sglang_rocm_shared_expert_ep.py)"
NOTE = (
    MARKER + ", docs/sglang-rocm-shared-expert.md; read, not fitted): on HIP >= gfx942 SGLang keeps DeepSeek-V3/R1's "
    "shared expert (256 routed, 1 shared) fused into the routed-expert runner under expert parallelism unless the MoE "
    "runs an all-to-all backend (deepep, mori) and scales its output by 1/ep because every EP rank computes it whole "
    "(sgl-project/sglang python/sglang/srt/models/deepseek_v2.py @00e3e6ea3 determine_num_fused_shared_experts "
    "l.3271-3311, DeepseekV2MoE.__init__ l.644-650; read at the HaiShaw/sglang mirror): a TEP rank runs and holds the "
    "full-width shared expert; from v0.5.5.post3 (PR #12201 aead0ef5e), before it off under EP "
    + END)


def main():
    rows = load(ENGINES)
    h = rows[0]
    insert_columns(rows, (COLUMN,))
    src = h.index("source")
    for name in PROFILES:
        r = row_named(rows, name, ENGINES)
        r[h.index(COLUMN)] = "1"
        r[src] = replace_marked(r[src], MARKER, END, NOTE)  # an earlier wording: replaced, marker to script name
    save(ENGINES, rows)
    print(f"{ENGINES}: {', '.join(PROFILES)}: {COLUMN} 1")


if __name__ == "__main__":
    main()
