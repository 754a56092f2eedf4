#!/usr/bin/env python3
"""Session 46 part V (docs/vllm-v0-host-loop.md): Argonne's LLM-Inference-Bench vLLM rows on H100 as check rows of
tables/measurements.csv. Source: github.com/argonne-lcf/LLM-Inference-Bench @4211f5d4e9bc0145ed541b6d372d5d8223b44235
Plots/All_results.csv (last changed ae7e7a41, 2024-09-27), read from the bare mirror
(/work/.mirror/argonne-lcf+LLM-Inference-Bench/repo, or $ARGONNE_MIRROR); the benchmark: vLLM/H100/
benchmark_throughput.py and run-throughput-bench.sh (last changed a30fdf4e, 2024-09-21).
The selection rule (research F of session 46, written before any row was priced): every row with Framework vLLM,
Hardware "Nvidia H100 GPU" and Model in {Meta-Llama-3-8B, Meta-Llama-3-70B, Llama-2-70b-hf, Llama-2-7b-hf}; the
metric is Latency (s) (Throughput is derived from it, not a second row); on a duplicate key (model, TP, batch,
length) the first occurrence (one: Llama-2-7b-hf TP1 B32 1024). 160 rows.
Each row: vLLM's benchmarks/benchmark_latency.py (the script's body is identical to vLLM v0.5.3-v0.6.0's, research F)
times one LLM.generate of `batch` prompts of L random token ids, each answered with exactly L tokens (ignore_eos,
max_tokens = L), 10 warm-up iterations, the mean of 30; flags --dtype float16 only (CUDA graphs on, KV fp16,
gpu_memory_utilization 0.9, block 16, prefix caching off). 'Num of Hardware' = TP. Metric batch_latency_s, a
fixed_batch row with prompts = batch (range_ratio 1), priced as its simulated closed loop's makespan on a warm engine.
The prompt steps at the V0 entry point's defaults: chunked prefill off (on by default only where max_model_len >
32768: vllm/engine/arg_utils.py v0.5.4 l. 747-760), so the budget is max(max_model_len, 2048) = 8192 (Llama 3) or 4096
(Llama 2), whole prompts, a prompt step alone (V0's scheduler): max_tokens = the budget, prefill_alone 1; host_loop v0.
Sets the rows by id, idempotently. Run from the repository root."""

import csv
import io
import os
import subprocess
import sys

from csv_rows import load, save, upsert_rows

COMMIT = "4211f5d4e9bc0145ed541b6d372d5d8223b44235"
MIRROR = os.environ.get("ARGONNE_MIRROR", "/work/.mirror/argonne-lcf+LLM-Inference-Bench/repo")
SOURCE = f"github.com/argonne-lcf/LLM-Inference-Bench @{COMMIT} Plots/All_results.csv (scripts vLLM/H100/benchmark_throughput.py, run-throughput-bench.sh @a30fdf4e)"
# source model -> (catalog model, short id, max_model_len, what the catalog model stands for)
MODELS = {
    "meta-llama/Meta-Llama-3-8B": ("Llama-3.1-8B", "L3-8B", 8192,
                                   "Meta-Llama-3-8B priced as the catalog's Llama-3.1-8B (the same layers and widths; max_model_len 8192)"),
    "meta-llama/Meta-Llama-3-70B": ("Llama-3.1-70B", "L3-70B", 8192,
                                    "Meta-Llama-3-70B priced as the catalog's Llama-3.1-70B (the same layers and widths; max_model_len 8192)"),
    "meta-llama/Llama-2-70b-hf": ("Llama-2-70B", "L2-70B", 4096, "meta-llama/Llama-2-70b-hf (max_model_len 4096)"),
    "meta-llama/Llama-2-7b-hf": ("configs/Llama-2-7b-hf/config.json", "L2-7B", 4096,
                                 "meta-llama/Llama-2-7b-hf (tables/configs/Llama-2-7b-hf; max_model_len 4096)"),
}


def main():
    text = subprocess.run(["git", "-C", MIRROR, "show", f"{COMMIT}:Plots/All_results.csv"], check=True,
                          capture_output=True, text=True).stdout
    src = list(csv.DictReader(io.StringIO(text)))
    rows = load("tables/measurements.csv")
    header = rows[0]
    if "host_loop" not in header:
        sys.exit("tables/measurements.csv has no host_loop column; run v0_host_loop_rows.py first")
    seen, new = set(), []
    for s in src:
        if s["Framework"] != "vLLM" or s["Hardware"] != "Nvidia H100 GPU" or s["Model"] not in MODELS:
            continue
        tp, batch, length = int(s["Num of Hardware"]), int(s["Batch Size"]), int(s["Input Output Length"])
        key = (s["Model"], tp, batch, length)
        if key in seen:
            continue  # the rule: the first occurrence of a duplicate key
        seen.add(key)
        model, short, budget, what = MODELS[s["Model"]]
        latency = s["Latency"]
        r = dict.fromkeys(header, "")
        r.update({
            "id": f"ARG-H100-{short}-tp{tp}-b{batch}-{length}x{length}-lat", "role": "check", "model": model,
            "hardware": "H100 SXM5", "engine": "vllm",
            "engine_version": "0.5.3-0.6.0 (V0; INFERRED: the benchmark script matches v0.5.3-v0.6.0, runs of 2024-09)",
            "tp": str(tp), "pp": "1", "ep": "1", "dp": "1", "weights": "fp16", "kv": "fp16", "scenario": "fixed_batch",
            "max_tokens": str(budget), "batch": str(batch), "prompts": str(batch), "range_ratio": "1",
            "input_tokens": str(length), "output_tokens": str(length), "metric": "batch_latency_s", "value": latency,
            "unit": "s", "source": SOURCE, "prefill_alone": "1", "kv_memory_fraction": "0.9", "host_loop": "v0",
            "notes": (f"Argonne LLM-Inference-Bench (arXiv 2411.00136), vLLM on H100 at ALCF's JLSE testbed: benchmark_latency.py "
                      f"(vLLM's, plus a CSV writer), one LLM.generate of {batch} prompts of {length} random token ids each "
                      f"answered with exactly {length} (ignore_eos, max_tokens), 10 warm-up iterations, mean of 30: {latency} s; "
                      f"{what}, --dtype float16, tp {tp} ('Num of Hardware'), vLLM defaults otherwise (CUDA graphs on, KV fp16, "
                      f"gpu_memory_utilization 0.9); engine version 0.5.3-0.6.0, V0 (INFERRED: the script's body is vLLM's "
                      f"benchmark_latency.py of v0.5.3-v0.6.0, README 'pip install vllm', runs of 2024-09); H100 SXM (INFERRED: "
                      f"the repo says 'H100 GPU'; Llama-3-8B decodes a step in about 7.8 ms, under the 8.0 ms a 2.0 TB/s PCIe "
                      f"card needs to read 16 GB), NVLink between the TP ranks ASSUMED; the prompt steps at V0's defaults: "
                      f"chunked prefill off (on only above a 32768-token max_model_len, vllm/engine/arg_utils.py v0.5.4 "
                      f"l. 747-760), budget max(max_model_len, 2048) = {budget}, whole prompts, a prompt step alone; runs "
                      f"vLLM's V0 LLMEngine loop (host_loop v0, docs/vllm-v0-host-loop.md); priced as the simulated closed "
                      f"loop's makespan on a warm engine (tables/scripts/argonne_h100_latency_rows.py)"),
        })
        new.append([r[c] for c in header])
    if len(new) != 160:
        sys.exit(f"{len(new)} rows by the rule, expected 160; refused")
    upsert_rows(rows, new)
    save("tables/measurements.csv", rows)
    print(f"{len(new)} Argonne H100 rows set")


if __name__ == "__main__":
    main()
