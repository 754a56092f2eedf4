#!/usr/bin/env python3
"""Session 43 (docs/trtllm-fcfs-chunked-prompts.md, "Session 43"): the TensorRT-LLM offline rows priced with the
prompt settings they ran (docs/briefs s42 research R3's findings, sources below).

Sets, idempotently (re-running changes nothing; run from the repository root), on tables/measurements.csv:

  1. `chunked_context` 1 on every TensorRT-LLM 0.17 row (engine trtllm, engine_version 0.17: the TRT17-* rows and
     T01, T05, T10; all from NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md @258c7540 and all run with
     `trtllm-bench build` + `trtllm-bench throughput --engine_dir`, as each row's notes say; the doc's GH200 runs used
     gptManagerBenchmark with --enable_chunked_context, chunked too, but no row here comes from them). Before PR #4133
     (github.com/NVIDIA/TensorRT-LLM/pull/4133, merged 2025-05-13) `trtllm-bench throughput` had no chunking option
     and never wrote `settings_config["chunking"]`, so `ExecutorSettingsConfig.chunking` kept its default True
     (tensorrt_llm/bench/dataclasses/configuration.py of that era) with `context_chunking_policy`
     FIRST_COME_FIRST_SERVED; the step's budget (and so the chunk) is the engine's build-time max_num_tokens, the
     row's `max_tokens`. INFERRED for the exact v0.17.0 tag (the versions read bracket it).
  2. `max_tokens` on the TensorRT-LLM 1.0-era PyTorch-backend rows (TRT10-*, perf-overview.md @00f37686) raised to
     max(the heuristic's max_num_tokens, max ISL + max_batch) where it is smaller, and `chunked_context` 0: with
     chunked prefill off, trtllm-bench's `get_settings` (tensorrt_llm/bench/benchmark/utils/general.py) forces
     max_num_tokens to at least the dataset's longest prompt plus the max batch size (PR #5625,
     github.com/NVIDIA/TensorRT-LLM/pull/5625, "sets the maximum number of tokens to the max of ISL+MBS when chunking
     is disabled"), and the perf YAML of those runs sets no chunking key. The datasets are fixed-length
     (prepare_dataset token-norm-dist with stdev 0: each row's notes say "requests of exactly I -> O tokens"), so the
     longest prompt is the row's input_tokens; a row whose notes do not say so is refused.
  3. `chunked_context` 1 on the MLPerf v5.1 Llama-3.1-405B Offline rows (NVIDIA's harness): each row's config,
     github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932
     closed/<submitter>/configs/<system>/Offline/llama3_1-405b.py, sets in `trtllm_runtime_flags` max_num_tokens
     1536 (the row's `max_tokens`, checked), enable_chunked_context True, context_chunking_policy
     first_come_first_served, batch_scheduler_policy max_util.

A cell holding another figure is refused, naming it. A TRT10 row's max_tokens is not checked that way: the cell is
the heuristic's figure by definition (the one being corrected), and what is written is max(cell, ISL + max batch),
PR #5625's rule. A source note is appended once to each changed row's notes.
"""

import re
import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
MIRROR = "github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932"
RULE = ("NVIDIA/TensorRT-LLM cpp/tensorrt_llm/batch_manager/microBatchScheduler.cpp "
        "@0a949d3128bfaf4ddedefb0259125622a9ec830f setCtxRequestsChunkSize<kFIRST_COME_FIRST_SERVED>")

TRT17_NOTE = (
    " Chunked context (session 43, docs/trtllm-fcfs-chunked-prompts.md): trtllm-bench throughput before "
    "github.com/NVIDIA/TensorRT-LLM/pull/4133 (2025-05-13) had no chunking option and left "
    "ExecutorSettingsConfig.chunking at its default True (tensorrt_llm/bench/dataclasses/configuration.py), "
    "context_chunking_policy first_come_first_served, so the 0.17 engine ran chunked context with the step's budget = "
    f"the engine's max_num_tokens (max_tokens) (chunked_context 1; {RULE}); INFERRED for the v0.17.0 tag.")

ML51_NOTE = (
    f" Chunked context (session 43, docs/trtllm-fcfs-chunked-prompts.md): {MIRROR} {{path}} trtllm_runtime_flags: "
    "max_num_tokens 1536 (max_tokens), enable_chunked_context True, context_chunking_policy first_come_first_served, "
    f"batch_scheduler_policy max_util (chunked_context 1; {RULE}).")


def trt10_note(old, new):
    return (" Token budget (session 43, docs/trtllm-fcfs-chunked-prompts.md): with chunked prefill off (the perf "
            "YAML sets no chunking key), trtllm-bench get_settings (tensorrt_llm/bench/benchmark/utils/general.py) "
            "forces max_num_tokens to max(heuristic, dataset max ISL + max batch) "
            f"(github.com/NVIDIA/TensorRT-LLM/pull/5625): the heuristic's {old} raised to {new} (fixed-length prompts: "
            "max ISL = input_tokens); chunked_context 0.")


TRT10_CHUNK_OFF_NOTE = (
    " Chunked prefill off (session 43, docs/trtllm-fcfs-chunked-prompts.md): the PyTorch backend's trtllm-bench "
    "throughput ran without chunking (the perf YAML sets no chunking key; get_settings in "
    "tensorrt_llm/bench/benchmark/utils/general.py, github.com/NVIDIA/TensorRT-LLM/pull/5625); max_tokens already "
    "holds the longest prompt plus the max batch (chunked_context 0).")


def put(r, c, rid, field, value):
    """Sets r[field] = value; refuses a cell holding a figure that is neither empty nor the value."""
    if r[c[field]] not in ("", value):
        sys.exit(f"{MEAS}: {rid}: {field} is {r[c[field]]!r}, neither empty nor {value!r}; refused")
    r[c[field]] = value


def main():
    rows = load(MEAS)
    h = rows[0]
    c = {k: h.index(k) for k in ("id", "engine", "engine_version", "scenario", "max_batch", "max_tokens",
                                 "input_tokens", "input_spread", "chunked_context", "notes")}
    counts = {"trt17": 0, "trt10": 0, "trt10_raised": 0, "ml51": 0}
    changed = 0
    for r in rows[1:]:
        if not r:
            continue
        rid, notes = r[c["id"]], r[c["notes"]]
        before = list(r)
        if r[c["engine"]] == "trtllm" and r[c["engine_version"]] == "0.17":
            if "trtllm-bench" not in notes or r[c["scenario"]] != "offline":
                sys.exit(f"{MEAS}: {rid}: a TensorRT-LLM 0.17 row not from trtllm-bench offline; refused")
            put(r, c, rid, "chunked_context", "1")
            if TRT17_NOTE not in notes:
                r[c["notes"]] += TRT17_NOTE
            counts["trt17"] += 1
        elif rid.startswith("TRT10-"):
            if r[c["engine"]] != "trtllm" or "PyTorch backend" not in r[c["engine_version"]]:
                sys.exit(f"{MEAS}: {rid}: expected a TensorRT-LLM PyTorch-backend row; refused")
            if not re.search(r"requests of exactly \d+ -> \d+ tokens", notes) or r[c["input_spread"]] not in ("", "0"):
                sys.exit(f"{MEAS}: {rid}: the notes do not state fixed-length prompts; the longest prompt is unknown; refused")
            budget, isl, mbs = (int(r[c[k]]) for k in ("max_tokens", "input_tokens", "max_batch"))
            need = isl + mbs
            put(r, c, rid, "chunked_context", "0")
            if budget < need:
                r[c["max_tokens"]] = str(need)  # max(cell, ISL + MBS): the cell is the heuristic's figure
                r[c["notes"]] += trt10_note(budget, need)
                counts["trt10_raised"] += 1
            elif "Token budget (session 43" not in notes and TRT10_CHUNK_OFF_NOTE not in notes:
                r[c["notes"]] += TRT10_CHUNK_OFF_NOTE
            if "Token budget (session 43" in notes:
                counts["trt10_raised"] += 1  # corrected on an earlier run
            counts["trt10"] += 1
        elif rid.startswith("ML51-") and "-L31-405B-off" in rid:
            m = re.search(r"config (closed/\S+/Offline/llama3_1-405b\.py)", notes)
            if r[c["engine"]] != "trtllm" or r[c["scenario"]] != "offline" or not m:
                sys.exit(f"{MEAS}: {rid}: expected an offline trtllm row citing its Offline config; refused")
            put(r, c, rid, "max_tokens", "1536")
            put(r, c, rid, "chunked_context", "1")
            text = ML51_NOTE.format(path=m.group(1))
            if text not in notes:
                r[c["notes"]] += text
            counts["ml51"] += 1
        changed += r != before
    expected = {"trt17": 187, "trt10": 60, "trt10_raised": 17, "ml51": 5}
    if counts != expected:
        sys.exit(f"{MEAS}: rows found {counts}, expected {expected}; refused")
    save(MEAS, rows)
    print(f"{MEAS}: chunked_context 1 on {counts['trt17']} TensorRT-LLM 0.17 and {counts['ml51']} MLPerf 405B Offline "
          f"rows, 0 on {counts['trt10']} TRT10 rows ({counts['trt10_raised']} with max_tokens raised to ISL + max "
          f"batch); {changed} rows changed")


if __name__ == "__main__":
    main()
