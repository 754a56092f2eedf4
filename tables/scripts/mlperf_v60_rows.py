#!/usr/bin/env python3
"""Session 34 (docs/mlperf-v60-out-of-sample.md): MLPerf Inference v6.0 closed-division runs of NVIDIA and AMD as
`check` rows ML60-* of tables/measurements.csv, an out-of-sample test of the library as it is (nothing fitted).

Reads a public copy of mlcommons/inference_results_v6.0 (the official repository cannot be fetched here):
github.com/gbeezybez/inference_results_v6.0 @232fbf90fceb1d55b633030556fb02deddb4517b, a bare git directory at
$LLMCOST_V60_MIRROR (default /work/.mirror/gbeezybez+inference_results_v6.0/repo), read with `git show`:
each run's performance/run_1/mlperf_log_summary.txt (the metric, samples/s, tokens/s) and mlperf_log_detail.txt
(result_scheduled_samples_per_sec), its system json (engine version) and its harness configuration (engine
limits). Every configuration value a row uses is read from the configuration text, and the script refuses a
configuration that states something the rule in the doc does not expect (a parallelism, a limit), naming the
file and the setting, so a row is never filled from a guess the file contradicts.

Sets the rows by id (appends the ones absent, replaces the ones present); re-running changes nothing. Run from the
repository root."""

import os
import re
import subprocess
import sys

from csv_rows import load, save, upsert_rows

TABLE = "tables/measurements.csv"
MIRROR = os.environ.get("LLMCOST_V60_MIRROR", "/work/.mirror/gbeezybez+inference_results_v6.0/repo")
COMMIT = "232fbf90fceb1d55b633030556fb02deddb4517b"
REPO = (f"github.com/gbeezybez/inference_results_v6.0 @{COMMIT} (a public copy of "
        f"github.com/mlcommons/inference_results_v6.0, which cannot be fetched here)")
DASHBOARD = ("github.com/openshift-psap/performance-dashboard @71007029fb5bced1d79808e7e64dc4c2af82ea55 "
             "mlperf-data/summaries")
V1_PATCH = "closed/AMD/setup/llama2-70b-99/patches/llama2-70b_vllm_gfx950.patch"


def show(path):
    """The text of `path` at COMMIT in the mirror; refuses a missing mirror or file."""
    try:
        return subprocess.run(["git", "-C", MIRROR, "show", f"{COMMIT}:{path}"], check=True, capture_output=True,
                              text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        sys.exit(f"{MIRROR}: cannot read {path} at {COMMIT} ({e}); refused")


def number(text, pattern, path):
    m = re.search(pattern, text, re.M)
    if not m:
        sys.exit(f"{path}: no match for {pattern!r}; refused")
    return m.group(1)


def need(text, snippet, path):
    if snippet not in text:
        sys.exit(f"{path}: expected {snippet!r} (the rule of docs/mlperf-v60-out-of-sample.md); refused")


def refuse(text, snippet, path, why):
    if snippet in text:
        sys.exit(f"{path}: states {snippet!r}, which the rule does not expect ({why}); refused")


def run_logs(submitter, system, model, scenario):
    """The run's figures: summary (path, samples/s, tokens/s, mean TTFT ns, mean TPOT ns) and the scheduled rate."""
    base = f"closed/{submitter}/results/{system}/{model}/{scenario}/performance/run_1"
    summary_path = f"{base}/mlperf_log_summary.txt"
    s = show(summary_path)
    need(s, "Result is : VALID", summary_path)
    r = {"summary": summary_path, "detail": f"{base}/mlperf_log_detail.txt"}
    if scenario == "Offline":
        r["samples"] = float(number(s, r"^Samples per second\s*:\s*([0-9.eE+]+)", summary_path))
        r["tokens"] = float(number(s, r"^Tokens per second\s*:\s*([0-9.eE+]+)", summary_path))
    else:
        r["samples"] = float(number(s, r"^Completed samples per second\s*:\s*([0-9.eE+]+)", summary_path))
        r["tokens"] = float(number(s, r"^Completed tokens per second\s*:\s*([0-9.eE+]+)", summary_path))
        r["ttft_ns"] = int(number(s, r"^Mean First Token latency \(ns\)\s*:\s*([0-9]+)", summary_path))
        r["tpot_ns"] = int(number(s, r"^Mean Time per Output Token \(ns\)\s*:\s*([0-9]+)", summary_path))
        d = show(r["detail"])
        r["scheduled"] = float(number(d, r'"key": "result_scheduled_samples_per_sec", "value": ([0-9.]+)', r["detail"]))
    return r


def framework(submitter, system):
    path = f"closed/{submitter}/systems/{system}.json"
    j = show(path)
    f = number(j, r'"framework": "([^"]*)"', path)
    other = number(j, r'"other_software_stack": "([^"]*)"', path)
    return path, f, other


def plain(x):
    """A logged figure without an exponent (the logs print 1.12685e+06 for 1,126,850)."""
    return f"{x:.6f}".rstrip("0").rstrip(".")


def fmt(x, digits=4):
    """A figure as the table keeps it: `digits` significant figures, no exponent."""
    return f"{float(f'{x:.{digits}g}'):g}" if x < 10 ** digits else f"{x:.0f}"


HEADER = None


def make(values):
    row = [""] * len(HEADER)
    for k, v in values.items():
        row[HEADER.index(k)] = str(v)
    return row


def rate_sentence(r, replicas, rate):
    return (f"Offered rate (docs/mlperf-scheduled-rate.md): rate_per_s = result_scheduled_samples_per_sec "
            f"{r['scheduled']:g} ÷ {replicas} = {rate} (completed: {plain(r['samples'])} samples/s), the Poisson "
            f"schedule's arrival rate; read from {REPO} {r['detail']}.")


def online_rows(base, r, replicas, scenario_word, short, common_notes):
    rate = fmt(r["scheduled"] / replicas)
    out = []
    for metric, key, label in (("ttft_s", "ttft_ns", "mean first-token latency"),
                               ("tpot_s", "tpot_ns", "mean time per output token")):
        v = dict(base)
        v.update({"id": f"{base['id']}-{short}-{metric[:4]}", "scenario": "online", "rate_per_s": rate,
                  "metric": metric, "value": f"{r[key] / 1e9:.9f}".rstrip("0").rstrip("."), "unit": "s",
                  "source": f"{REPO} {r['summary']}"})
        v["notes"] = (common_notes.replace("{SCENARIO}", scenario_word) +
                      f" {scenario_word}: Poisson arrivals; the log's {label} {r[key]} ns = {v['value']} s. " +
                      rate_sentence(r, replicas, rate))
        out.append(make(v))
    return out


def offline_row(base, r, instances, common_notes):
    v = dict(base)
    value = r["tokens"] / instances
    v.update({"id": f"{base['id']}-off", "scenario": "offline", "requests": "0", "metric": "output_tokens_per_s",
              "value": fmt(value, 7) if instances > 1 else plain(r["tokens"]), "unit": "tok/s",
              "source": f"{REPO} {r['summary']}"})
    per = (f" for {instances} identical instances: per instance {plain(r['tokens'])} ÷ {instances} = {v['value']}"
           if instances > 1 else "")
    v["notes"] = (common_notes.replace("{SCENARIO}", "Offline") +
                  f" Offline: all samples queued, steady state; 'Tokens per second' {plain(r['tokens'])}{per}.")
    return make(v)


# ---- NVIDIA Llama-2-70B ---------------------------------------------------------------------------------------
NV_L2 = [  # (tag, results system, configs system, GPUs, hardware, scenarios)
    ("B300", "B300-SXM-270GBx8_TRT", "B300-SXM-270GBx8", 8, "B300 (HGX)", ("Offline", "Server")),
    ("GB200x72", "GB200-NVL72_GB200-186GB_aarch64x72_TRT", "GB200-NVL72_GB200-186GB_aarch64x72", 72, "GB200 (NVL72)",
     ("Offline", "Server", "Interactive")),
    ("GB300x72", "GB300-NVL72_GB300-288GB_aarch64x72_TRT", "GB300-NVL72_GB300-288GB_aarch64x72", 72, "GB300 (NVL72)",
     ("Offline", "Server", "Interactive")),
]
SHORT = {"Server": "ser", "Interactive": "int"}


def nv_llama2_rows():
    rows = []
    for tag, system, cfgsys, gpus, hardware, scenarios in NV_L2:
        json_path, fw, _ = framework("NVIDIA", system)
        version = f"MLPerf v6.0 NVIDIA harness ({fw.split(', NVIDIA Dynamo')[0]})"
        for scenario in scenarios:
            cfg_path = f"closed/NVIDIA/configs/{cfgsys}/{scenario}/llama2-70b.py"
            cfg = show(cfg_path)
            need(cfg, "model_fields.precision: 'fp4'", cfg_path)
            need(cfg, "'kv_cache_dtype': 'fp8'", cfg_path)
            for s in ("tensor_parallelism", "gpu_batch_size", "max_num_tokens", "kvcache_free_gpu_mem_frac",
                      "enable_chunked_context", "use_graphs: True", "core_type"):
                refuse(cfg, s, cfg_path, "the rule reads the v6.0 Llama-2-70B configs as stating none of these")
            graphs = "use_graphs: False" in cfg
            conc = number(cfg, r"'max_concurrency': ([0-9]+)", cfg_path)
            policy = number(cfg, r"traffic_distribution_policy: '([a-z_]+)'", cfg_path)
            r = run_logs("NVIDIA", system, "llama2-70b-99", scenario)
            out_tokens = round(r["tokens"] / r["samples"])
            base = {"id": f"ML60-NV-{tag}-L2-70B", "role": "check", "model": "Llama-2-70B", "hardware": hardware,
                    "engine": "trtllm", "engine_version": version, "tp": 1, "pp": 1, "ep": 1, "dp": gpus,
                    "weights": "fp4", "kv": "fp8", "input_tokens": 222, "output_tokens": out_tokens,
                    "cuda_graphs": 0, "kv_memory_fraction": "0.8"}
            notes = (
                f"MLPerf Inference v6.0 closed llama2-70b-99 {{SCENARIO}}, submitter NVIDIA, system {system} (engine "
                f"trtllm, version as {json_path} states it: {fw}); {REPO}. Config {cfg_path}: precision fp4, "
                f"kv_cache_dtype fp8; it states no tensor_parallelism, gpu_batch_size or max_num_tokens, so the row "
                f"takes the harness default tensor_parallelism 1 (HarnessConfig in closed/NVIDIA/code/llmlib/config.py; "
                f"the v5.1 Llama-2-70B runs were TP 1 too): {gpus} replicas (dp {gpus}); max_batch and max_tokens "
                f"left empty, priced at TensorRT-LLM on Blackwell's profile defaults (2,048 sequences, 8,192 tokens): "
                f"ASSUMED, the engine's limits not being in the repository. KV memory flag: kvcache_free_gpu_mem_frac "
                f"unset, the harness default 0.80 (TrtllmHarnessConfig.DEFAULT_RUNTIME_FLAGS). Graphs: use_graphs "
                f"{'False in the config' if graphs else 'unset, the harness default False'} (cuda_graphs 0). Chunked "
                f"context: enable_chunked_context unset, the harness default False (chunked_context empty). Recorded, "
                f"not priced: max_concurrency {conc} (the harness's in-flight cap per core), sampler_type TRTLLMSampler, "
                f"traffic_distribution_policy {policy} (no replica_dispatch rule for it: empty, a random split); "
                f"norm_quant_fusion not stated (no trtllm_build_flags). Input: the dataset's 24,576 OpenOrca samples, "
                f"mean input 222.3 tokens ({DASHBOARD}/llama2-70b-99.csv); output {out_tokens} tokens = the run's "
                f"tokens/s ÷ samples/s ({plain(r['tokens'])} ÷ {plain(r['samples'])} = {r['tokens'] / r['samples']:.1f}).")
            if scenario == "Offline":
                rows.append(offline_row(base, r, 1, notes))
            else:
                rows += online_rows(base, r, gpus, scenario, SHORT[scenario], notes)
    return rows


# ---- NVIDIA DeepSeek-R1 ---------------------------------------------------------------------------------------
NV_DSR1 = [  # (tag, results system, configs system, 8-GPU instances, hardware)
    ("B300", "B300-SXM-270GBx8_TRT", "B300-SXM-270GBx8", 1, "B300 (HGX)"),
    ("GB200x72", "GB200-NVL72_GB200-186GB_aarch64x72_TRT", "GB200-NVL72_GB200-186GB_aarch64x72", 9, "GB200 (NVL72)"),
    ("GB300x72", "GB300-NVL72_GB300-288GB_aarch64x72_TRT", "GB300-NVL72_GB300-288GB_aarch64x72", 9, "GB300 (NVL72)"),
]


def nv_dsr1_rows():
    rows = []
    for tag, system, cfgsys, instances, hardware in NV_DSR1:
        json_path, fw, _ = framework("NVIDIA", system)
        version = f"MLPerf v6.0 NVIDIA harness ({fw.split(', NVIDIA Dynamo')[0]})"
        for scenario in ("Offline", "Server"):
            cfg_path = f"closed/NVIDIA/configs/{cfgsys}/{scenario}/deepseek-r1.py"
            cfg = show(cfg_path)
            for s in ("llm_fields.tensor_parallelism: 8", "llm_fields.moe_expert_parallelism: 8",
                      "'enable_attention_dp': True", "model_fields.precision: 'fp4'", "'kv_cache_dtype': 'fp8'",
                      "harness_fields.use_graphs: True", "'enable_chunked_context': False"):
                need(cfg, s, cfg_path)
            for s in ("trtllm_yml_override", "speculative_decoding", "decoding_type"):
                refuse(cfg, s, cfg_path, "an aggregated trtllm-serve run without speculative decoding is the rule's")
            batch = number(cfg, r"'deepseek-r1': ([0-9]+)", cfg_path)
            runtime = cfg.split("llm_fields.trtllm_runtime_flags")[1]
            tokens = number(runtime, r"'max_num_tokens': ([0-9]+)", cfg_path)
            frac = number(runtime, r"'kvcache_free_gpu_mem_frac': ([0-9.]+)", cfg_path)
            wait = number(runtime, r'"adp_balancing_batching_wait_iters": ([0-9]+)', cfg_path)
            timeout = number(runtime, r'"adp_balancing_timeout_iters": ([0-9]+)', cfg_path)
            moe = number(runtime, r"'moe_backend': '([A-Z]+)'", cfg_path)
            conc = number(runtime, r"'max_concurrency': ([0-9]+)", cfg_path)
            r = run_logs("NVIDIA", system, "deepseek-r1", scenario)
            out_tokens = round(r["tokens"] / r["samples"])
            base = {"id": f"ML60-NV-{tag}-DSR1", "role": "check", "model": "DeepSeek-V3", "hardware": hardware,
                    "engine": "trtllm", "engine_version": version, "tp": 1, "pp": 1, "ep": 8, "dp": 8,
                    "weights": "fp4", "kv": "fp8", "input_tokens": 804, "output_tokens": out_tokens,
                    "input_spread": "405.6", "output_spread": round(out_tokens * 1.114), "cuda_graphs": 1,
                    "kv_memory_fraction": frac, "eager_prompt": 0}
            layout = (f"{instances * 8} GPUs as {instances} instances" if instances > 1 else "8 GPUs as one instance")
            notes = (
                f"MLPerf Inference v6.0 closed deepseek-r1 {{SCENARIO}}, submitter NVIDIA, system {system} (engine "
                f"trtllm, version as {json_path} states it: {fw}); {REPO}. Config {cfg_path}: {layout} of "
                f"tensor_parallelism 8 with enable_attention_dp (the library's dp 8) and moe_expert_parallelism 8"
                f"{' (the layout type cannot hold 9 EP groups, so the row is one 8-GPU instance)' if instances > 1 else ''}, "
                f"precision fp4, kv_cache_dtype fp8, gpu_batch_size {batch} per attention rank, runtime max_num_tokens "
                f"{tokens} (what the harness writes into trtllm-serve's yaml), enable_chunked_context False, "
                f"use_graphs True (cuda_graphs 1); DeepSeek-R1 has DeepSeek-V3's architecture (the catalog's "
                f"DeepSeek-V3). KV memory flag: kvcache_free_gpu_mem_frac {frac}. Recorded, not priced: moe_backend "
                f"{moe}, max_concurrency {conc}. eager_prompt 0 as the v5.1 DeepSeek-R1 rows (docs/trtllm-eager-prompt.md "
                f"section 5). Input: the dataset's 4,388 samples (v6.0 runs the same set: min_query_count 105,312 = "
                f"24 × 4,388), mean input 803.8 tokens ({DASHBOARD}/deepseek-r1.csv); output {out_tokens} tokens = the "
                f"run's tokens/s ÷ samples/s ({plain(r['tokens'])} ÷ {plain(r['samples'])} = {r['tokens'] / r['samples']:.1f}). "
                f"Lengths vary: input_spread 405.6 = the standard deviation of the dataset's prompt lengths; "
                f"output_spread = the run's mean output × 1.114, the coefficient of variation of the dataset's "
                f"reference outputs capped at max_output_len 20,000 (closed/NVIDIA/code/deepseek-r1/tensorrt/"
                f"generation_config.json, unchanged in v6.0), as the v5.1 rows.")
            if scenario == "Offline":
                v = dict(base, max_batch=batch, max_tokens=tokens)
                rows.append(offline_row(v, r, instances, notes))
            else:
                v = dict(base, api_server=1, adp_timeout_iters=timeout, adp_batching_wait_iters=wait)
                notes += (f" adp_timeout_iters {timeout} and adp_batching_wait_iters {wait}: the config's "
                          f"adp_balancing_timeout_iters and adp_balancing_batching_wait_iters (TensorRT-LLM's "
                          f"attention-DP balance, simulated over the 8 attention ranks as the v5.1 Server rows, "
                          f"docs/trtllm-dsr1-server.md); max_batch and max_tokens left empty as the v5.1 DeepSeek-R1 "
                          f"Server rows; api_server 1: deepseek-r1's default core is TRTLLM_ENDPOINT, an HTTP client of "
                          f"trtllm-serve (closed/NVIDIA/code/deepseek-r1/tensorrt/__init__.py).")
                if instances > 1:
                    notes += f" {instances} independent instances: the rate per instance is the system's ÷ {instances}."
                rows += online_rows(v, r, instances, "Server", "ser", notes)
    return rows


# ---- AMD Llama-2-70B ------------------------------------------------------------------------------------------
def amd_rows():
    rows = []
    system = "8xMI355X_2xEPYC_9575F"
    json_path, fw, other = framework("AMD", system)
    version = f"{other} ({fw})"
    for scenario in ("Offline", "Server", "Interactive"):
        cfg_path = f"closed/AMD/src/llama2-70b-99/{scenario.lower()}_mi355x.yaml"
        cfg = show(cfg_path)
        for s in ("VLLM_USE_V1: 1", "tensor_parallel_size: 1", "quantization: quark", "kv_cache_dtype: fp8",
                  "enforce_eager: False", "enable_chunked_prefill: True", "async_scheduling: True"):
            need(cfg, s, cfg_path)
        refuse(cfg, "num_scheduler_steps", cfg_path, "a V0 multi-step setting; the rule reads these runs as vLLM V1")
        seqs = number(cfg, r"^\s*max_num_seqs: ([0-9]+)", cfg_path)
        tokens = number(cfg, r"^\s*max_num_batched_tokens: ([0-9]+)", cfg_path)
        util = number(cfg, r"^\s*gpu_memory_utilization: ([0-9.]+)", cfg_path)
        steps = number(cfg, r"^\s*VLLM_SUBSEQUENT_DECODE_STEPS: ([0-9]+)", cfg_path)
        m = re.search(r"^\s*VLLM_MIN_REQUEST_DECODE_STEP: ([0-9]+)", cfg, re.M)
        min_running = m.group(1) if m else "unset (0)"
        r = run_logs("AMD", system, "llama2-70b-99", scenario)
        out_tokens = round(r["tokens"] / r["samples"])
        base = {"id": "ML60-AMD-MI355Xx8-L2-70B", "role": "check", "model": "Llama-2-70B", "hardware": "MI355X",
                "engine": "vllm", "engine_version": version, "tp": 1, "pp": 1, "ep": 1, "dp": 8, "weights": "mxfp4",
                "kv": "fp8", "max_batch": seqs, "max_tokens": tokens, "input_tokens": 222, "output_tokens": out_tokens,
                "cuda_graphs": 1, "kv_memory_fraction": util}
        notes = (
            f"MLPerf Inference v6.0 closed llama2-70b-99 {{SCENARIO}}, submitter AMD, system {system} (engine vllm, "
            f"version as {json_path} states it: {other}; {fw}); {REPO}. Config {cfg_path}: vLLM V1 (VLLM_USE_V1 1), "
            f"tensor_parallel_size 1 on each of 8 GPUs (8 replicas), quantization quark (the FP4 checkpoint "
            f"fp4_quantized_gptq: MXFP4 weights), kv_cache_dtype fp8, max_num_seqs {seqs} (max_batch), "
            f"max_num_batched_tokens {tokens} (max_tokens), enable_chunked_prefill True, async_scheduling True, "
            f"enforce_eager False with cudagraph_mode FULL_AND_PIECEWISE (cuda_graphs 1); KV memory flag: "
            f"gpu_memory_utilization {util}. No clock pin: closed/AMD/src/scripts/power_settings.sh sets none for "
            f"mi355x (clock_MHz empty). V1 runs no multi-step blocks and no prompt-only steps: receive_interval, "
            f"prefill_alone, outputs_per_block and min_waiting_prompts (the v5.1 V0 harness's) are not set. Recorded, "
            f"not priced: AMD's V1 scheduler patch ({V1_PATCH}, vllm/v1/core/sched/scheduler.py) admits waiting "
            f"prompts only on every (VLLM_SUBSEQUENT_DECODE_STEPS + 1)-th step while at least "
            f"VLLM_MIN_REQUEST_DECODE_STEP sequences run: {steps} and {min_running} in this config. Input: the "
            f"dataset's 24,576 OpenOrca samples, mean input 222.3 tokens ({DASHBOARD}/llama2-70b-99.csv); output "
            f"{out_tokens} tokens = the run's tokens/s ÷ samples/s ({plain(r['tokens'])} ÷ {plain(r['samples'])} = "
            f"{r['tokens'] / r['samples']:.1f}).")
        if scenario == "Offline":
            rows.append(offline_row(base, r, 1, notes))
        else:
            rows += online_rows(base, r, 8, scenario, SHORT[scenario], notes)
    return rows


def main():
    global HEADER
    rows = load(TABLE)
    HEADER = rows[0]
    new = nv_llama2_rows() + nv_dsr1_rows() + amd_rows()
    upsert_rows(rows, new)
    save(TABLE, rows)
    print(f"{TABLE}: {len(new)} ML60 rows set: " + ", ".join(r[0] for r in new))


if __name__ == "__main__":
    main()
