#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional columns `kv_block_tokens` (the run's own KV block size) and
`kv_watermark` (vLLM V0's admission watermark) from what each row's harness states (docs/paged-kv-blocks.md).

kv_block_tokens, the rule written before the fill: a vLLM row gets B where
  - its `notes` state the launch flag (`block_size=N`, `block_size N`, `block_size: N`), or
  - its `notes` cite an MLPerf Inference v5.1 harness yaml whose `vllm_engine_config.block_size` is transcribed
    below (github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932, each file read
    with `git show` on that commit);
a row whose sources state two different sizes is refused; every other row stays empty (the engine profile's).

kv_watermark = 0.01 where the row runs vLLM V0's block manager (BlockSpaceManager.can_allocate keeps
watermark 0.01 of the GPU blocks free at admission; github.com/ROCm/vllm @71faa188073d427c57862c45bf17745f3b54b1b1
vllm/core/block_manager.py, as docs/online-caps.md cites it): a vLLM row whose version is below 0.8 (V0 is the
only engine there), whose notes state `VLLM_USE_V1: 0`, or whose cited harness yaml runs V0 (its own
`vllm_env_config.VLLM_USE_V1`, else its harness's common/config.yaml `VLLM_USE_V1: 0`, transcribed below).
A yaml that sets VLLM_USE_V1 1 on a build of 0.8 or later runs V1's KVCacheManager: no watermark. Empty elsewhere.

Run from the repository root; rewrites the file in place, every other cell byte for byte as it was; a second run
changes nothing.
"""

import re
import sys

from csv_rows import insert_columns, load, save

PATH = "tables/measurements.csv"
COMMIT = "965182b03376a00fcae415c54e560e1c83937932"
# harness yaml -> (block_size, runs V1): block_size from the yaml's vllm_engine_config; V1 from the yaml's
# vllm_env_config VLLM_USE_V1 where it sets one, else the harness's common/config.yaml (VLLM_USE_V1: 0 in each).
V1, V0 = True, False
YAMLS = {
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi300x.yaml": (32, V0),
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi325x.yaml": (16, V1),
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi300x.yaml": (32, V0),
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi300x.yaml": (32, V0),
    "closed/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
    "closed/AMD/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi300x.yaml": (32, V0),
    "closed/AMD/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi325x.yaml": (16, V0),
    "closed/AMD/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi300x.yaml": (16, V0),
    "closed/AMD/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi325x.yaml": (16, V0),
    "closed/ASUSTeK/code_AMD/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/ASUSTeK/code_AMD/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
    "closed/ASUSTeK/code_AMD/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi325x.yaml": (16, V0),
    "closed/Dell/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi300x.yaml": (32, V0),
    "closed/Dell/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi300x.yaml": (32, V0),
    "closed/Dell/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi300x.yaml": (32, V0),
    "closed/Dell/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi300x.yaml": (32, V0),
    "closed/Dell/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi300x.yaml": (16, V0),
    "closed/GigaComputing/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi325x.yaml": (16, V1),
    "closed/GigaComputing/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/GigaComputing/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
    "closed/GigaComputing/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi325x.yaml": (16, V0),
    "closed/GigaComputing/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi325x.yaml": (16, V0),
    "closed/MiTAC/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi325x.yaml": (16, V1),
    "closed/MiTAC/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/MiTAC/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
    "closed/MiTAC/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi325x.yaml": (16, V0),
    "closed/MiTAC/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi325x.yaml": (16, V0),
    "closed/Quanta_Cloud_Technology/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi325x.yaml": (16, V1),
    "closed/Quanta_Cloud_Technology/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/Quanta_Cloud_Technology/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
    "closed/Quanta_Cloud_Technology/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/offline_mi325x.yaml": (16, V0),
    "closed/Quanta_Cloud_Technology/code/mixtral-8x7b/harness_llm/models/mixtral-8x7b/server_mi325x.yaml": (16, V0),
    "closed/Vultr/code/llama2-70b-99/harness_llm/models/llama2-70b/interactive_mi325x.yaml": (16, V1),
    "closed/Vultr/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi325x.yaml": (32, V0),
    "closed/Vultr/code/llama2-70b-99/harness_llm/models/llama2-70b/server_mi325x.yaml": (32, V0),
}
FLAG = re.compile(r"\bblock_size(?:=|:\s*|\s+)(\d+)\b")
CITED = re.compile(r"(closed/\S+?\.yaml)")
WATERMARK = "0.01"


def version_below_0_8(version):
    m = re.match(r"(\d+)\.(\d+)", version)
    return bool(m) and (int(m.group(1)), int(m.group(2))) < (0, 8)


def main():
    rows = load(PATH)
    head = rows[0]
    insert_columns(rows, ("kv_block_tokens", "kv_watermark"), fill="", before=None)
    col_b, col_w = head.index("kv_block_tokens"), head.index("kv_watermark")
    eng, ver, notes = head.index("engine"), head.index("engine_version"), head.index("notes")
    filled_b = filled_w = 0
    for line, r in enumerate(rows[1:], start=2):
        r[col_b] = r[col_w] = ""
        if r[eng] != "vllm":
            continue
        cited = [y for y in CITED.findall(r[notes]) if y in YAMLS]
        sizes = {int(n) for n in FLAG.findall(r[notes])} | {YAMLS[y][0] for y in cited}
        if len(sizes) > 1:
            sys.exit(f"{PATH}:{line}: the row's sources state block sizes {sorted(sizes)}; fix the notes")
        if sizes:
            r[col_b] = str(sizes.pop())
            filled_b += 1
        # A cited yaml that sets VLLM_USE_V1: 1 wins over the system json's stated version: those runs use the stock
        # V1 scheduler (docs/amd-vllm.md, "The MI325X Interactive rows"; ROCm/vllm @71faa1880), no watermark.
        v1_cited = any(YAMLS[y][1] for y in cited)
        v0 = not v1_cited and (version_below_0_8(r[ver]) or "VLLM_USE_V1: 0" in r[notes]
                               or any(not YAMLS[y][1] for y in cited))
        if v0:
            r[col_w] = WATERMARK
            filled_w += 1
    save(PATH, rows)
    print(f"{PATH}: kv_block_tokens filled on {filled_b}, kv_watermark on {filled_w} of {len(rows) - 1} rows")


if __name__ == "__main__":
    main()
