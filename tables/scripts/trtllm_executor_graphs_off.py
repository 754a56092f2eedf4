#!/usr/bin/env python3
"""Session 34 (docs/host-enqueue.md, "The Llama-3.1-8B runs: no graphs either"): NVIDIA's MLPerf v5.1 harness runs
Llama-3.1-8B on its TensorRT-LLM *executor* core, and that core never turns CUDA graphs on, whatever the config's
`use_graphs` says.

- The core: code/llama3_1-8b/tensorrt/__init__.py sets DEFAULT_CORE_TYPE = TRTLLM_EXECUTOR, and no run command
  passes --core_type (mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932 closed/NVIDIA/).
- It builds trtllm.ExecutorConfig(...) without an extended_runtime_perf_knob_config
  (closed/NVIDIA/code/llmlib/cores/trtllm_executor_core.py, the `executor_config = trtllm.ExecutorConfig(` call),
  and ExtendedRuntimePerfKnobConfig's cudaGraphMode defaults to false (NVIDIA/TensorRT-LLM
  cpp/include/tensorrt_llm/executor/executor.h @0165bd7ac275dae69796767cdbb71ce1963506f3, the class's constructor).
- The harness says so itself for the TensorRT (C++) backend: `if not using_pytorch and
  runtime_flags['use_cuda_graphs']: raise NotImplementedError("CUDA Graphs are not supported in TRT/C++ backend
  yet.")` (closed/NVIDIA/code/llmlib/config.py, the trtllm-serve config builder).
So the 8 Llama-3.1-8B rows (NVIDIA's and Google's, B200) run graphs off, like the Llama-2-70B and 405B rows of the
same harness (docs/host-enqueue.md): cuda_graphs 1 -> 0, and eager_prompt 0 -> empty (the column prices the PyTorch
backend's eager prompt; an executor row without graphs leaves it empty, as the 70B and 405B rows do).

Edits tables/measurements.csv by column name, idempotently (re-running changes nothing; a row in neither the old
nor the new state is refused). Run from the repository root.
"""
import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
IDS = [f"ML51-NV-B200-L31-8B-{s}" for s in ("off", "ser-ttft", "ser-tpot", "int-ttft", "int-tpot")] + \
      [f"ML51-Google-B200-L31-8B-{s}" for s in ("off", "ser-ttft", "ser-tpot")]
NOTE = (" Graphs (session 34, docs/host-enqueue.md): cuda_graphs 0, was 1 (read from the config's use_graphs True):"
        " the harness runs Llama-3.1-8B on its TensorRT-LLM executor core (code/llama3_1-8b/tensorrt/__init__.py"
        " DEFAULT_CORE_TYPE TRTLLM_EXECUTOR), which builds trtllm.ExecutorConfig without an"
        " ExtendedRuntimePerfKnobConfig (code/llmlib/cores/trtllm_executor_core.py), whose cudaGraphMode defaults to"
        " false (NVIDIA/TensorRT-LLM cpp/include/tensorrt_llm/executor/executor.h"
        " @0165bd7ac275dae69796767cdbb71ce1963506f3); the harness's own TRT/C++ path refuses graphs ('CUDA Graphs"
        " are not supported in TRT/C++ backend yet', code/llmlib/config.py). eager_prompt 0 -> empty, as on this"
        " harness's Llama-2-70B and 405B rows.")


def main():
    rows = load(MEAS)
    h = rows[0]
    col = {name: i for i, name in enumerate(h)}
    changed = 0
    for rid in IDS:
        hit = [r for r in rows[1:] if r and r[col["id"]] == rid]
        if len(hit) != 1:
            sys.exit(f"{MEAS}: {len(hit)} rows with id {rid!r}, expected 1; refused")
        r = hit[0]
        state = (r[col["cuda_graphs"]], r[col["eager_prompt"]], NOTE in r[col["notes"]])
        if state == ("0", "", True):
            continue
        if state != ("1", "0", False):
            sys.exit(f"{MEAS}: {rid}: cuda_graphs {state[0]!r}, eager_prompt {state[1]!r}, note present {state[2]}:"
                     " neither the old state (1, 0, no note) nor the new (0, empty, note); refused")
        r[col["cuda_graphs"]], r[col["eager_prompt"]] = "0", ""
        r[col["notes"]] += NOTE
        changed += 1
    save(MEAS, rows)
    print(f"{MEAS}: {changed} rows set to graphs off")


if __name__ == "__main__":
    main()
