#!/usr/bin/env python3
"""Session 27 (docs/trtllm-eager-prompt.md): TensorRT-LLM's PyTorch backend runs a step with context
requests without a CUDA graph (NVIDIA/TensorRT-LLM tensorrt_llm/_torch/pyexecutor/scheduler.py
@b93e14ca093e446615f3009cae6ca5a33c4f2f56, `can_run_cuda_graph`: `not self.context_requests`), so a
prompt step lasts at least the host's launch H = kernels x prefill_launch_us.

Sets, by column name, idempotently (re-running changes nothing; run from the repository root):
  tables/engines.csv, "TensorRT-LLM on Blackwell": prefill_launch_us = 75.89 (borrowed from SGLang on
      Blackwell, sgl-project/sglang PR 12160; no TensorRT-LLM figure published), source text appended once.
  tables/measurements.csv, column `eager_prompt` (added if absent):
      `serial` on the Dynamo + TensorRT-LLM disaggregated rows (id IMX-GB200-dynamo-trt-*): their prefill
          workers run with disable_overlap_scheduler: True (ai-dynamo/dynamo
          components/backends/trtllm/performance_sweeps/scripts/gen_yaml.py
          @357f7dfc469b487f26c8e01ee21ee8036469f977, prefill_config), so nothing hides H;
      `0` on TensorRT-LLM rows that state cuda_graphs 1 and run a TensorRT engine build (their notes
          cite `trtllm_build_flags`: NVIDIA's MLPerf Llama-3.1-8B configs): the C++ executor, not the
          PyTorch backend's eager launch, so the borrowed per-kernel figure is not theirs;
      `0` on the other TensorRT-LLM rows that state cuda_graphs 1 (PyTorch backend, overlap scheduler on:
          InferenceMAX's GPT-OSS trtllm-serve rows, NVIDIA's MLPerf DeepSeek-R1 rows): their prompt steps
          do run eagerly, overlapped, but priced with the borrowed figure they moved the front end's fit
          (29.84 -> 12.06 ms) and made their own groups and the overall median worse
          (docs/trtllm-eager-prompt.md section 5), so the overlapped launch is left to the fitted front end;
      every other row keeps its cell (empty: the profile's rule, graphs on -> eager prompt, overlapped).
  A note is appended once to each changed row's `notes`.
"""


import sys

from csv_rows import load, save

ENGINES, MEAS = "tables/engines.csv", "tables/measurements.csv"
PROFILE = "TensorRT-LLM on Blackwell"
T_HOST = "75.89"
ENGINE_NOTE = (
    "; prefill_launch_us 75.89 (session 27, docs/trtllm-eager-prompt.md): TensorRT-LLM's PyTorch backend never "
    "replays a CUDA graph for a step with context requests (NVIDIA/TensorRT-LLM "
    "tensorrt_llm/_torch/pyexecutor/scheduler.py @b93e14ca093e446615f3009cae6ca5a33c4f2f56 can_run_cuda_graph: "
    "not self.context_requests), so a prompt step lasts at least kernels x t_host; no TensorRT-LLM figure for "
    "t_host is published, so SGLang on Blackwell's is borrowed (the same class: a Python PyTorch eager forward "
    "of DeepSeek-V3 on Blackwell, 82.64 ms eager vs 23.10 ms as a graph, sgl-project/sglang PR 12160), not "
    "fitted; read only where a row states how its prompt steps run (tables/measurements.csv eager_prompt: the "
    "Dynamo prefill workers, serial); the rows that state cuda_graphs 1 state eager_prompt 0 (the overlapped "
    "launch not priced: the front end request_overhead_us, fitted on such rows, carries what it adds there)")
SERIAL_NOTE = (
    " eager_prompt serial: the prefill workers' prompt steps run eagerly (TensorRT-LLM PyTorch backend, "
    "scheduler.py can_run_cuda_graph false with context requests) with the overlap scheduler off "
    "(ai-dynamo/dynamo components/backends/trtllm/performance_sweeps/scripts/gen_yaml.py "
    "@357f7dfc469b487f26c8e01ee21ee8036469f977 prefill_config: disable_overlap_scheduler: True; "
    "docs/trtllm-eager-prompt.md).")
OVERLAP_NOTE = (
    " eager_prompt 0: prompt steps run eagerly under the PyTorch backend's overlap scheduler; that overlapped "
    "launch is not priced with the borrowed per-kernel figure (it over-priced these rows; the front end "
    "request_overhead_us, fitted on such rows, carries what it adds; docs/trtllm-eager-prompt.md).")
NONE_NOTE = (
    " eager_prompt 0: a TensorRT engine build (trtllm_build_flags) run by the C++ executor, not the PyTorch "
    "backend whose eager prompt launch prefill_launch_us prices (docs/trtllm-eager-prompt.md).")


def engines():
    rows = load(ENGINES)
    h = rows[0]
    name, col, src = h.index("name"), h.index("prefill_launch_us"), h.index("source")
    hit = [r for r in rows[1:] if r[name] == PROFILE]
    if len(hit) != 1:
        sys.exit(f"{ENGINES}: expected one row named {PROFILE!r}, found {len(hit)}")
    r = hit[0]
    r[col] = T_HOST
    for note in (ENGINE_NOTE,):
        if note not in r[src]:
            r[src] += note
    save(ENGINES, rows)


def measurements():
    rows = load(MEAS)
    h = rows[0]
    if "eager_prompt" not in h:
        h.append("eager_prompt")
        for r in rows[1:]:
            r.append("")
    c = {k: h.index(k) for k in ("id", "engine", "cuda_graphs", "notes", "eager_prompt")}
    counts = {"serial": 0, "0": 0}
    for r in rows[1:]:
        value, note = None, None
        if r[c["id"]].startswith("IMX-GB200-dynamo-trt-"):
            value, note = "serial", SERIAL_NOTE
        elif r[c["engine"]] == "trtllm" and r[c["cuda_graphs"]] == "1":
            value, note = "0", NONE_NOTE if "trtllm_build_flags" in r[c["notes"]] else OVERLAP_NOTE
        if value is None:
            continue
        r[c["eager_prompt"]] = value
        if note not in r[c["notes"]]:
            r[c["notes"]] += note
        counts[value] += 1
    save(MEAS, rows)
    print(f"{MEAS}: eager_prompt serial on {counts['serial']} rows, 0 on {counts['0']} rows")


if __name__ == "__main__":
    engines()
    measurements()
