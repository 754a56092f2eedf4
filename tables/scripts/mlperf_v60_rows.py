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
AMD_BASE = "closed/AMD/src/harness_llm/common/config.yaml"


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
# How a v6.0 run's configuration is composed (closed/NVIDIA/code/main.py, closed/NVIDIA/scaleout/run_scaleout.sh,
# closed/NVIDIA/scaleout/REPRODUCE.md "Llama2-70b"): the servers are launched per "atomic system" (run_llm_server
# in --mpi_mode=leader reads that system's ATOMIC_EXPORTS, here B300-SXM-270GBx1 / GB*-NVL72_*x1: one trtllm-serve
# per GPU, --dp-multiplicity 8 or 72 of them); the loadgen client (run_harness) reads the harness system's EXPORTS
# (the x8 / x72 file: target QPS, max_concurrency, traffic_distribution_policy). Every run uses
# --core_type=trtllm_endpoint (an HTTP client of trtllm-serve; the benchmark's DEFAULT_CORE_TYPE TRTLLM_EXECUTOR is
# overridden), whose server is TensorRT-LLM's PyTorch backend (TrtllmExtraYAMLConfig.DEFAULT_RUNTIME_FLAGS
# 'trtllm_backend': 'pytorch', closed/NVIDIA/code/llmlib/config.py).
NV_L2 = [  # (tag, results system, atomic (server) config system, harness config system, GPUs, hardware, scenarios,
    #        REPRODUCE.md "### " heading under "## Llama2-70b")
    ("B300", "B300-SXM-270GBx8_TRT", "B300-SXM-270GBx1", "B300-SXM-270GBx8", 8, "B300 (HGX)", ("Offline", "Server"),
     "B300x8"),
    ("GB200x72", "GB200-NVL72_GB200-186GB_aarch64x72_TRT", "GB200-NVL72_GB200-186GB_aarch64x1",
     "GB200-NVL72_GB200-186GB_aarch64x72", 72, "GB200 (NVL72)", ("Offline",), "GB200x72"),
    ("GB300x72", "GB300-NVL72_GB300-288GB_aarch64x72_TRT", "GB300-NVL72_GB300-288GB_aarch64x1",
     "GB300-NVL72_GB300-288GB_aarch64x72", 72, "GB300 (NVL72)", ("Offline",), "GB300x72"),
]
REPRODUCE = "closed/NVIDIA/scaleout/REPRODUCE.md"
# TensorRT-LLM's PyTorch-backend defaults (the feat/1.2-mlpinf branch the runs used is not public; a main commit):
TRTLLM_ARGS = ("github.com/NVIDIA/TensorRT-LLM @0004396720054fd8e205cbf616f21f0b57c6b412 "
               "tensorrt_llm/llmapi/llm_args.py, TorchLlmArgs.cuda_graph_config and BaseCudaGraphConfig")


def repro_commands(text, model, system):
    """REPRODUCE.md's commands for `model` ("## " heading) on `system` ("### " heading): {scenario: (heading line,
    the command with its backslash continuations joined)}, one per "# Offline" / "# Server ..." / "# Interactive ..."
    comment line of the system's code block; refuses a missing section or a scenario stated twice."""
    lines = text.splitlines()
    try:
        start = lines.index(f"## {model}")
        sub = lines.index(f"### {system}", start)
    except ValueError:
        sys.exit(f"{REPRODUCE}: no '## {model}' / '### {system}' section; refused")
    if any(l.startswith("## ") for l in lines[start + 1:sub]):
        sys.exit(f"{REPRODUCE}: '### {system}' is not under '## {model}'; refused")
    out, scenario = {}, None
    for line in lines[sub + 1:]:
        if line.startswith("## ") or line.startswith("### "):
            break
        m = re.match(r"# (Offline|Server|Interactive)\b", line)
        if m:
            scenario = m.group(1)
            if scenario in out:
                sys.exit(f"{REPRODUCE}: {model} {system} states {scenario} twice; refused")
            out[scenario] = [line, ""]
        elif scenario and line.strip() and not line.startswith("#") and not line.startswith("```"):
            out[scenario][1] += " " + line.strip().rstrip("\\").strip()
    return {k: (h, " ".join(c.split())) for k, (h, c) in out.items()}


def nv_llama2_deployment(repro, tag, atomic, gpus, scenarios, section):
    """Checks that each priced scenario's own REPRODUCE.md command runs `gpus` aggregated servers of the atomic system
    with the trtllm_endpoint core; returns the ids of the rows of the system's disaggregated online runs (removed)."""
    cmds = repro_commands(repro, "Llama2-70b", section)
    disagg = []
    for scenario in ("Offline", "Server", "Interactive"):
        if scenario not in cmds:
            if scenario in scenarios:
                sys.exit(f"{REPRODUCE}: Llama2-70b {section} gives no {scenario} command; refused")
            continue
        heading, cmd = cmds[scenario]
        if "disaggregated" in heading:
            if scenario in scenarios:
                sys.exit(f"{REPRODUCE}: Llama2-70b {section} {heading!r}: a disaggregated run, which the rule does "
                         f"not price as a colocated deployment; refused")
            disagg += [f"ML60-NV-{tag}-L2-70B-{SHORT[scenario]}-{m}" for m in ("ttft", "tpot")]
            continue
        if scenario not in scenarios:
            sys.exit(f"{REPRODUCE}: Llama2-70b {section} {scenario} is an aggregated run the rule does not read; "
                     f"refused")
        for s in ("run_scaleout.sh", f"--atomic-system {atomic} ", f"--dp-multiplicity {gpus} ",
                  f"--scenarios={scenario} ", "--core_type=trtllm_endpoint"):
            if s not in cmd + " ":
                sys.exit(f"{REPRODUCE}: Llama2-70b {section} {scenario} command {cmd!r} lacks {s.strip()!r} (the "
                         f"rule of docs/mlperf-v60-out-of-sample.md); refused")
    return disagg


# The NVL72 x72 Llama-2-70B Server and Interactive runs were disaggregated (REPRODUCE.md: "Server (disaggregated, run
# from closed/NVIDIA/scripts/slurm_llm)", llama2_70b_disagg.sh with 28 context and 44 generation servers); the
# library prices a disaggregated deployment only as a closed-loop client's run, so these Poisson rows are not
# priced as the colocated deployment they were not: removed (docs/mlperf-v60-out-of-sample.md). Their ids are the
# ones whose REPRODUCE.md heading says "disaggregated" (nv_llama2_deployment).
NV_L2_DISAGG = []
SHORT = {"Server": "ser", "Interactive": "int"}


def nv_llama2_rows():
    rows = []
    for tag, system, atomic, harness, gpus, hardware, scenarios, section in NV_L2:
        json_path, fw, _ = framework("NVIDIA", system)
        version = f"MLPerf v6.0 NVIDIA harness ({fw.split(', NVIDIA Dynamo')[0]})"
        NV_L2_DISAGG.extend(nv_llama2_deployment(show(REPRODUCE), tag, atomic, gpus, scenarios, section))
        for scenario in scenarios:
            cfg_path = f"closed/NVIDIA/configs/{atomic}/{scenario}/llama2-70b.py"
            cfg = show(cfg_path)
            hcfg_path = f"closed/NVIDIA/configs/{harness}/{scenario}/llama2-70b.py"
            hcfg = show(hcfg_path)
            for s in ("model_fields.precision: 'fp4'", "'kv_cache_dtype': 'fp8'", "llm_fields.tensor_parallelism: 1,",
                      "llm_fields.pipeline_parallelism: 1,", "'context_chunking_policy': 'first_come_first_served'",
                      "'enable_chunked_context': True", "harness_fields.use_graphs: False",
                      "'enable_piecewise_cuda_graph': True", "'batch_scheduler_policy': 'max_util'"):
                need(cfg, s, cfg_path)
            for s in ("trtllm_backend", "disable_overlap_scheduler", "cuda_graph_batch_sizes", "trtllm_yml_override"):
                refuse(cfg, s, cfg_path, "the rule reads a PyTorch-backend trtllm-serve with the overlap scheduler on")
            for s in ("tensor_parallelism", "gpu_batch_size", "use_graphs: True", "trtllm_yml_override"):
                refuse(hcfg, s, hcfg_path, "the rule reads the harness file as the client's settings only")
            batch = number(cfg, r"'llama2-70b': ([0-9]+)", cfg_path)
            need(cfg, "llm_fields.trtllm_runtime_flags", cfg_path)
            runtime = cfg.split("llm_fields.trtllm_runtime_flags")[1]
            tokens = number(runtime, r"'max_num_tokens': ([0-9]+)", cfg_path)
            frac = number(runtime, r"'kvcache_free_gpu_mem_frac': ([0-9.]+)", cfg_path)
            stream = number(runtime, r"'stream_interval': ([0-9]+)", cfg_path)
            capture = number(cfg, r"'capture_num_tokens': \[1, [0-9, ]*?([0-9]+)\]", cfg_path)
            conc = number(hcfg, r"'max_concurrency': ([0-9]+)", hcfg_path)
            policy = number(hcfg, r"traffic_distribution_policy: '([a-z_]+)'", hcfg_path)
            if policy != "isl_load_balancing":
                sys.exit(f"{hcfg_path}: traffic_distribution_policy {policy!r}; the rule reads isl_load_balancing")
            r = run_logs("NVIDIA", system, "llama2-70b-99", scenario)
            out_tokens = round(r["tokens"] / r["samples"])
            online = scenario != "Offline"
            base = {"id": f"ML60-NV-{tag}-L2-70B", "role": "check", "model": "Llama-2-70B", "hardware": hardware,
                    "engine": "trtllm", "engine_version": version, "tp": 1, "pp": 1, "ep": 1, "dp": gpus,
                    "weights": "fp4", "kv": "fp8", "input_tokens": 222, "output_tokens": out_tokens,
                    "max_batch": batch, "max_tokens": tokens, "cuda_graphs": 1, "kv_memory_fraction": frac,
                    "eager_prompt": 0}
            if online:
                base.update({"chunked_context": 1, "replica_dispatch": "round_robin", "api_server": 1})
            notes = (
                f"MLPerf Inference v6.0 closed llama2-70b-99 {{SCENARIO}}, submitter NVIDIA, system {system} (engine "
                f"trtllm, version as {json_path} states it: {fw}); {REPO}. Deployment ({REPRODUCE}, "
                f"closed/NVIDIA/scaleout/run_scaleout.sh, closed/NVIDIA/code/main.py): {gpus} trtllm-serve servers, "
                f"one per GPU, each configured by the atomic system's ATOMIC_EXPORTS ({cfg_path}), the loadgen client "
                f"by the harness system's EXPORTS ({hcfg_path}); --core_type=trtllm_endpoint, TensorRT-LLM's PyTorch "
                f"backend (TrtllmExtraYAMLConfig.DEFAULT_RUNTIME_FLAGS trtllm_backend 'pytorch', "
                f"closed/NVIDIA/code/llmlib/config.py). Server config: tensor_parallelism 1, pipeline_parallelism 1 "
                f"(dp {gpus}), precision fp4, kv_cache_dtype fp8, gpu_batch_size {batch} (the yaml's max_batch_size: "
                f"max_batch), runtime max_num_tokens {tokens} (max_tokens), kvcache_free_gpu_mem_frac {frac} "
                f"(kv_memory_fraction), batch_scheduler_policy max_util, enable_chunked_context True with "
                f"context_chunking_policy first_come_first_served "
                + ("(chunked_context 1)" if online else
                   "(recorded, not priced: the library chunks only on online rows; an offline row's closed form "
                   "does not)")
                + f", stream_interval {stream} (recorded, not priced). Graphs: harness use_graphs False, so the "
                f"harness writes no cuda_graph_config into trtllm-serve's yaml (TrtllmExtraYAMLConfig."
                f"_generate_extra_config_yaml) and TensorRT-LLM's default holds: default decode-only CUDA graphs "
                f"(small batch sizes: TorchLlmArgs.cuda_graph_config defaults to a CudaGraphConfig: graphs for decode-only "
                f"steps of batch 1 to 31, 32, 64 or 128, no padding, {TRTLLM_ARGS}; the run's batches reach max_batch "
                f"{batch}) plus piecewise "
                f"graphs (torch_compile_config enable_piecewise_cuda_graph True: each step's kernels outside "
                f"attention for token counts 1 to {capture}, every step up to max_num_tokens), and the PyTorch "
                f"backend's overlap scheduler is on "
                f"(disable_overlap_scheduler unset): cuda_graphs 1 (the C++ executor's host-enqueue floor of "
                f"cuda_graphs 0 is not this backend's; attention launched eagerly between the pieces is recorded, "
                f"not priced) and eager_prompt 0, the convention of the PyTorch-backend TensorRT-LLM rows "
                f"(tables/scripts/trtllm_eager_prompt.py, docs/trtllm-eager-prompt.md section 5). norm_quant_fusion "
                f"'enable' sits in trtllm_build_flags, a TensorRT engine build flag the PyTorch backend does not "
                f"build with: not priced (norm_quant_fusion empty). Client: max_concurrency {conc} per core (one "
                f"core per server), "
                + ("the same cap as max_batch" if conc == batch else f"against max_batch {batch}")
                + f"; sampler_type TRTLLMSampler and num_postprocess_workers "
                f"4 recorded, not priced; traffic_distribution_policy {policy} "
                + ("(closed/NVIDIA/code/llmlib/factory.py: each query to the core with the smallest running total of "
                   "input tokens ever sent, a total never decremented: a round robin weighted by prompt length, so "
                   "replica_dispatch round_robin); api_server 1: an HTTP client of trtllm-serve (its front end in "
                   "the TTFT)." if online else "(recorded: Offline queues every sample).")
                + f" Input: the dataset's 24,576 OpenOrca samples, mean input 222.3 tokens ({DASHBOARD}/llama2-70b-99.csv);"
                f" output {out_tokens} tokens = the run's tokens/s ÷ samples/s ({plain(r['tokens'])} ÷ "
                f"{plain(r['samples'])} = {r['tokens'] / r['samples']:.1f}).")
            if scenario == "Offline":
                rows.append(offline_row(base, r, 1, notes))
            else:
                rows += online_rows(base, r, gpus, scenario, SHORT[scenario], notes)
    return rows


# ---- NVIDIA DeepSeek-R1 ---------------------------------------------------------------------------------------
NV_DSR1 = [  # (tag, results system, atomic (server) config system, harness config system, 8-GPU instances, hardware)
    ("B300", "B300-SXM-270GBx8_TRT", "B300-SXM-270GBx8", "B300-SXM-270GBx8", 1, "B300 (HGX)"),
    ("GB200x72", "GB200-NVL72_GB200-186GB_aarch64x72_TRT", "GB200-NVL72_GB200-186GB_aarch64x8",
     "GB200-NVL72_GB200-186GB_aarch64x72", 9, "GB200 (NVL72)"),
    ("GB300x72", "GB300-NVL72_GB300-288GB_aarch64x72_TRT", "GB300-NVL72_GB300-288GB_aarch64x8",
     "GB300-NVL72_GB300-288GB_aarch64x72", 9, "GB300 (NVL72)"),
]


DSR1_INIT = "closed/NVIDIA/code/deepseek-r1/tensorrt/__init__.py"


def nv_dsr1_rows():
    rows = []
    for tag, system, atomic, harness, instances, hardware in NV_DSR1:
        json_path, fw, _ = framework("NVIDIA", system)
        version = f"MLPerf v6.0 NVIDIA harness ({fw.split(', NVIDIA Dynamo')[0]})"
        for scenario in ("Offline", "Server"):
            # The x72 runs: 9 servers of the atomic x8 system (ATOMIC_EXPORTS, --mpi_mode=leader), the client read
            # from the x72 file (REPRODUCE.md "DeepSeek-R1", --atomic-system ...x8 --dp-multiplicity 9).
            # The core: REPRODUCE.md's --core_type=trtllm_endpoint for the x72 runs (below); B300 runs without
            # scaleout, so its core is the benchmark's default.
            need(show(DSR1_INIT), "DEFAULT_CORE_TYPE = CoreType.TRTLLM_ENDPOINT", DSR1_INIT)
            if atomic != harness:
                need(show(REPRODUCE), f"--atomic-system {atomic} --gpus-per-node 4 --dp-multiplicity {instances} "
                     f"--run-args \"--benchmarks=deepseek-r1 --scenarios={scenario} --core_type=trtllm_endpoint\"", REPRODUCE)
            cfg_path = f"closed/NVIDIA/configs/{atomic}/{scenario}/deepseek-r1.py"
            cfg = show(cfg_path)
            need(cfg, "ATOMIC_EXPORTS", cfg_path)
            hcfg_path = f"closed/NVIDIA/configs/{harness}/{scenario}/deepseek-r1.py"
            hcfg = show(hcfg_path)
            for s in ("llm_fields.tensor_parallelism: 8", "llm_fields.moe_expert_parallelism: 8",
                      "'enable_attention_dp': True", "model_fields.precision: 'fp4'", "'kv_cache_dtype': 'fp8'",
                      "harness_fields.use_graphs: True", "'enable_chunked_context': False"):
                need(cfg, s, cfg_path)
            for s in ("trtllm_yml_override", "speculative_decoding", "decoding_type"):
                refuse(cfg, s, cfg_path, "an aggregated trtllm-serve run without speculative decoding is the rule's")
            batch = number(cfg, r"'deepseek-r1': ([0-9]+)", cfg_path)
            need(cfg, "llm_fields.trtllm_runtime_flags", cfg_path)
            runtime = cfg.split("llm_fields.trtllm_runtime_flags")[1]
            tokens = number(runtime, r"'max_num_tokens': ([0-9]+)", cfg_path)
            frac = number(runtime, r"'kvcache_free_gpu_mem_frac': ([0-9.]+)", cfg_path)
            wait = number(runtime, r'"adp_balancing_batching_wait_iters": ([0-9]+)', cfg_path)
            timeout = number(runtime, r'"adp_balancing_timeout_iters": ([0-9]+)', cfg_path)
            moe = number(runtime, r"'moe_backend': '([A-Z]+)'", cfg_path)
            need(hcfg, "llm_fields.trtllm_runtime_flags", hcfg_path)
            conc = number(hcfg.split("llm_fields.trtllm_runtime_flags")[1], r"'max_concurrency': ([0-9]+)", hcfg_path)
            stream = re.search(r'"stream_interval": ([0-9]+)', runtime)
            stream = stream.group(1) if stream else "unset (1, TrtllmExtraYAMLConfig.DEFAULT_EXTRA_CONFIG)"
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
                f"trtllm, version as {json_path} states it: {fw}); {REPO}. Server config {cfg_path}"
                + (f" (the atomic system's ATOMIC_EXPORTS: {REPRODUCE} runs {instances} trtllm-serve instances of it "
                   f"in --mpi_mode=leader; the loadgen client reads {hcfg_path})" if atomic != harness else "")
                + f": {layout} of "
                f"tensor_parallelism 8 with enable_attention_dp (the library's dp 8) and moe_expert_parallelism 8"
                f"{' (the layout type cannot hold 9 EP groups, so the row is one 8-GPU instance)' if instances > 1 else ''}, "
                f"precision fp4, kv_cache_dtype fp8, gpu_batch_size {batch} per attention rank, runtime max_num_tokens "
                f"{tokens} (what the harness writes into trtllm-serve's yaml), enable_chunked_context False, "
                f"use_graphs True (cuda_graphs 1); DeepSeek-R1 has DeepSeek-V3's architecture (the catalog's "
                f"DeepSeek-V3). KV memory flag: kvcache_free_gpu_mem_frac {frac}. Recorded, not priced: moe_backend "
                f"{moe}, stream_interval {stream}, the client's max_concurrency {conc} ({hcfg_path}). eager_prompt 0 as the v5.1 DeepSeek-R1 rows (docs/trtllm-eager-prompt.md "
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
                          f"trtllm-serve ({DSR1_INIT}).")
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
            need(show(AMD_BASE), "schedule_algo: shortest_queue", AMD_BASE)
            refuse(cfg, "schedule_algo", cfg_path, "the rule reads the base config's shortest_queue")
            base["replica_dispatch"] = "least_pending"
            notes += (f" Dispatch: the config sets no schedule_algo, so the harness's base config's shortest_queue "
                      f"holds ({AMD_BASE}, merged under the model yaml by closed/AMD/src/harness_llm/common/"
                      f"config_parser.py): each query to the engine with the fewest sent − finished, ties to the first "
                      f"(closed/AMD/src/harness_llm/backends/common/server_utils.py DeviceSelector.next_best_device_id, "
                      f"server_sut.py; Interactive runs the same server SUT, its yaml's scenario: server): "
                      f"replica_dispatch least_pending (the library's ties go to one of the tied at random: recorded).")
            rows += online_rows(base, r, 8, scenario, SHORT[scenario], notes)
    return rows


def main():
    global HEADER
    rows = load(TABLE)
    HEADER = rows[0]
    new = nv_llama2_rows() + nv_dsr1_rows() + amd_rows()
    gone = [r[0] for r in rows if r and r[0] in NV_L2_DISAGG]
    rows[:] = [r for r in rows if not (r and r[0] in NV_L2_DISAGG)]
    upsert_rows(rows, new)
    save(TABLE, rows)
    print(f"{TABLE}: {len(new)} ML60 rows set: " + ", ".join(r[0] for r in new))
    if gone:
        print(f"{TABLE}: removed (disaggregated online runs, not priced): " + ", ".join(gone))


if __name__ == "__main__":
    main()
