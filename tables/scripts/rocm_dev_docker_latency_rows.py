#!/usr/bin/env python3
"""Session 45 part A (docs/amd-dev-docker.md): AMD's own vLLM MI300X "Latency Measurements" tables as check rows of
tables/measurements.csv. Source: ROCm/vllm docs/dev-docker/README.md at two commits, read from the bare mirror
(/work/.mirror/ROCm+vllm/repo, or $ROCM_VLLM_MIRROR):
  4fee53d7bd8bb916f53d9e0dc1bed9acb4819606 - the 20250605 image (vLLM 0.9.0.1, ROCm 6.4.1; V0 by default, the
      next image's changelog entry "V1 on by default"); host 2x EPYC 9575F;
  f94ec9beeca1071cc34f9d1e206d8c7f3ac76129 - the 20250715 image (vLLM 0.9.1, ROCm 6.4.1; V1); host 2x EPYC 9554.
The selection rule (fixed before any row was priced; docs/amd-dev-docker.md): every entry of each commit's "Latency
Measurements" table (Llama 3.1 70B and 405B, FP8, TP8, batch 1-128, 128 -> 2048 and 2048 -> 2048: 32 rows a
commit). The "Throughput Measurements" tables are left out: whether their "Throughput (tokens/s)" is output or total
tokens/s was not settled (docs/amd-dev-docker.md).
Each row: benchmark_latency.py (the README's scripts: v0.6.5 at the 0605 commit, v0.8.5 at 0715) times one
LLM.generate of `batch` prompts of I tokens, each answered with exactly O tokens (ignore_eos, max_tokens = O), after
3 warm-up iterations, the mean of 5: metric batch_latency_s, a fixed_batch row with prompts = batch (one prompt per
client, all at t = 0, range_ratio 1), priced as its simulated closed loop's makespan on a warm engine. Columns from
the README's latency command at that commit (its fenced block under "### Latency Benchmark", read here; a flag or an
exported variable outside the known set refuses the commit): kv_memory_fraction from --gpu-memory-utilization; kv
from --kv-cache-dtype (fp8 at 0605), or, where the command has none (0715), vLLM's "auto" = the model dtype (the
command's --dtype float16: fp16; vllm/config.py l. 1499-1500, vllm/v1/worker/gpu_model_runner.py l. 120-121
@f94ec9be). The prompt steps the command leaves unstated take the benchmark entry point's own defaults at that commit
(amended after the review of session 45: docs/amd-dev-docker.md), each checked here against the mirror's lines:
  0715 (V1, LLM class): max_num_batched_tokens 16384 on a GPU of >= 70 GiB (vllm/engine/arg_utils.py l. 1613-1618
      @f94ec9be): max_tokens 16384, chunked as V1 always is;
  0605 (V0): chunked prefill off on ROCm (arg_utils.py l. 1466-1492 @4fee53d7: on by default only where
      current_platform.is_cuda(), else False), so the budget is max(max_model_len, 2048) (vllm/config.py
      l. 2167-2171, vllm/utils.py l. 84) = 131072 for Llama 3.1's 131,072-token context (INFERRED: the command sets
      no --max-model-len; the checkpoints' config was not read), whole prompts, and V0's scheduler runs a prompt step
      alone (vllm/core/scheduler.py l. 1285-1288, "Don't schedule decodes if prefills are scheduled"): max_tokens
      131072, prefill_alone 1.
Everything else the vLLM CDNA3 profile's default. In process (no API server). Sets the rows by id, idempotently
(appends the ones absent; re-running changes nothing); the notes sentence through csv_rows.replace_marked. Run from
the repository root."""

import os
import re
import subprocess
import sys

from csv_rows import load, replace_marked, save, upsert_rows

TABLE = "tables/measurements.csv"
MIRROR = os.environ.get("ROCM_VLLM_MIRROR", "/work/.mirror/ROCm+vllm/repo")
README = "docs/dev-docker/README.md"
MARKER = "AMD's vLLM MI300X latency table for the "
END = "(tables/scripts/rocm_dev_docker_latency_rows.py)"
# (image date, commit, vLLM as the README's image list states it, engine flavour)
COMMITS = [
    ("20250605", "4fee53d7bd8bb916f53d9e0dc1bed9acb4819606", "0.9.0.1", "V0 by default (INFERRED from the next "
     "image's changelog entry, 20250620: V1 on by default)"),
    ("20250715", "f94ec9beeca1071cc34f9d1e206d8c7f3ac76129", "0.9.1", "V1"),
]
# The latency command's flags this script knows (each either read into a column or priced as stated in the docstring),
# and the variables it may export. Anything else refuses the commit: the rule is the command's flags only.
KNOWN_FLAGS = {"--distributed-executor-backend", "--quantization", "--kv-cache-dtype", "--dtype",
               "--gpu-memory-utilization", "--trust-remote-code", "--model", "--batch-size", "--input-len",
               "--output-len", "--tensor-parallel-size", "--num-iters-warmup", "--num-iters", "--output-json"}
KNOWN_ENV = {"VLLM_USE_TRITON_FLASH_ATTN=0", "VLLM_V1_USE_PREFILL_DECODE_ATTENTION=1"}
# The benchmark entry point's own defaults for what the command leaves unstated: (max_tokens, prefill_alone, what
# the notes say), and the mirror's lines they rest on, (path, first line, last line, text those lines must hold).
ENTRY_DEFAULTS = {
    "20250605": ("131072", "1",
                 "entry-point defaults (V0 on ROCm): chunked prefill off (vllm/engine/arg_utils.py l. 1466-1492: on "
                 "only where current_platform.is_cuda()), budget max(max_model_len, 2048) = 131072 (vllm/config.py "
                 "l. 2167-2171, vllm/utils.py l. 84; Llama 3.1's 131,072-token context, INFERRED), whole prompts, a "
                 "prompt step alone (vllm/core/scheduler.py l. 1285-1288)",
                 [("vllm/engine/arg_utils.py", 1466, 1492, "is_gpu = current_platform.is_cuda()"),
                  ("vllm/engine/arg_utils.py", 1466, 1492, "self.enable_chunked_prefill = False"),
                  ("vllm/config.py", 2167, 2171, "self.max_model_len, DEFAULT_MAX_NUM_BATCHED_TOKENS)"),
                  ("vllm/utils.py", 84, 84, "DEFAULT_MAX_NUM_BATCHED_TOKENS = 2048"),
                  ("vllm/core/scheduler.py", 1285, 1288, "Don't schedule decodes if prefills are scheduled.")]),
    "20250715": ("16384", "",
                 "entry-point default (V1, the LLM class, a GPU of >= 70 GiB): max_num_batched_tokens 16384 "
                 "(vllm/engine/arg_utils.py l. 1613-1618), prompts chunked to it",
                 [("vllm/engine/arg_utils.py", 1613, 1618, "device_memory >= 70 * GiB_bytes"),
                  ("vllm/engine/arg_utils.py", 1613, 1618, "UsageContext.LLM_CLASS: 16384,")]),
}
MODELS = {"Llama 3.1 70B": ("Llama-3.1-70B", "70B"), "Llama 3.1 405B": ("Llama-3.1-405B", "405B")}


def show(commit, path):
    return subprocess.run(["git", "-C", MIRROR, "show", f"{commit}:{path}"], check=True, capture_output=True,
                          text=True).stdout


def checked(text, commit, vllm):
    """The README's own statements the rows rest on; refuses a commit whose README says otherwise."""
    for n in [f"- vLLM {vllm}\n", "- ROCm™ 6.4.1\n"]:
        if n not in text:
            sys.exit(f"{README}@{commit}: expected {n!r}; refused")
    cpu = re.findall(r"2x AMD EPYC (\w+) Processors", text)
    if not cpu:
        sys.exit(f"{README}@{commit}: no host CPU; refused")
    return cpu[-1]  # the latency table's footer (the last such line)


def latency_command(text, commit):
    """The latency command's flags {flag: value or ''} from the fenced block after "### Latency Benchmark"; refuses a
    flag or an exported variable outside the known sets, and a command that is not benchmark_latency.py."""
    start = text.index("### Latency Benchmark")
    fence = text.index("```", start)
    block = text[text.index("\n", fence) + 1:text.index("```", fence + 3)]
    if "benchmarks/benchmark_latency.py" not in block:
        sys.exit(f"{README}@{commit}: the latency block runs no benchmark_latency.py; refused")
    env = {line.split(None, 1)[1].strip() for line in block.splitlines() if line.startswith("export ")}
    if env - KNOWN_ENV:
        sys.exit(f"{README}@{commit}: the latency command exports {sorted(env - KNOWN_ENV)}, not in the known set; refused")
    words = block[block.index("benchmark_latency.py") + len("benchmark_latency.py"):].replace("\\\n", " ").split()
    flags, i = {}, 0
    while i < len(words):
        w = words[i]
        if not w.startswith("--"):
            sys.exit(f"{README}@{commit}: latency command word {w!r} is not a flag; refused")
        if w not in KNOWN_FLAGS:
            sys.exit(f"{README}@{commit}: latency command flag {w} is not in the known set; refused")
        has_value = i + 1 < len(words) and not words[i + 1].startswith("--")
        flags[w] = words[i + 1] if has_value else ""
        i += 2 if has_value else 1
    for f, v in [("--num-iters-warmup", "3"), ("--num-iters", "5"), ("--tensor-parallel-size", "$TP"),
                 ("--dtype", "float16")]:
        if flags.get(f) != v:
            sys.exit(f"{README}@{commit}: expected {f} {v} in the latency command, got {flags.get(f)!r}; refused")
    return flags


def kv_of(flags, commit):
    """The KV format the command gives: --kv-cache-dtype, or vLLM's auto = the model dtype (--dtype)."""
    kv = flags.get("--kv-cache-dtype", "auto")
    if kv == "fp8":
        return "fp8", "--kv-cache-dtype fp8"
    if kv == "auto" and flags["--dtype"] == "float16":
        return "fp16", "no --kv-cache-dtype: vLLM's auto = the model dtype, --dtype float16"
    sys.exit(f"{README}@{commit}: KV format {kv!r} with --dtype {flags['--dtype']}: not known here; refused")


def entry_defaults(image, commit):
    """The entry point's defaults for the unstated prompt steps, each line they rest on checked in the mirror."""
    max_tokens, alone, words, lines = ENTRY_DEFAULTS[image]
    for path, first, last, want in lines:
        got = "\n".join(show(commit, path).splitlines()[first - 1:last])
        if want not in got:
            sys.exit(f"{path}@{commit} l. {first}-{last}: expected {want!r}; refused")
    return max_tokens, alone, words


def latency_entries(text, commit):
    """(model words, batch, input, output, seconds) of the "Latency Measurements" table, in order."""
    start = text.index("### Latency Measurements")
    body = text[start:text.index("*TP stands for", start)]
    out, model = [], None
    for line in body.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 7 or not cells[3].isdigit():
            continue
        if cells[0]:
            model = next((k for k in MODELS if cells[0].startswith(k)), None)
            if model is None or "-FP8-KV" not in cells[0] or cells[1] != "FP8" or cells[2] != "8":
                sys.exit(f"{README}@{commit}: unexpected latency row {line!r}; refused")
        out.append((model, int(cells[3]), int(cells[4]), int(cells[5]), cells[6]))
    if len(out) != 32:
        sys.exit(f"{README}@{commit}: {len(out)} latency entries, expected 32; refused")
    return out


def rows_to_set(rows):
    header = rows[0]
    col = {name: i for i, name in enumerate(header)}
    notes_before = {r[0]: r[col["notes"]] for r in rows[1:] if r}  # a row set before: its notes, this note replaced
    new = []
    for image, commit, vllm, flavour in COMMITS:
        text = show(commit, README)
        cpu = checked(text, commit, vllm)
        flags = latency_command(text, commit)
        kv, kv_how = kv_of(flags, commit)
        memory = flags["--gpu-memory-utilization"]
        max_tokens, alone, defaults = entry_defaults(image, commit)
        source = f"github.com/ROCm/vllm @{commit} {README} (Latency Measurements)"
        for model_words, b, i, o, seconds in latency_entries(text, commit):
            model, short = MODELS[model_words]
            r = [""] * len(header)
            cells = {"id": f"ROCMDD-{image}-MI300X-L31-{short}-tp8-b{b}-{i}x{o}-lat", "role": "check", "model": model,
                     "hardware": "MI300X", "engine": "vllm",
                     "engine_version": f"{vllm} (ROCm 6.4.1, AMD's vLLM dev image {image}, {flavour.split(' (')[0]})",
                     "tp": "8", "pp": "1", "ep": "1", "dp": "1", "weights": "fp8", "kv": kv,
                     "scenario": "fixed_batch", "batch": str(b), "prompts": str(b), "range_ratio": "1",
                     "input_tokens": str(i), "output_tokens": str(o), "metric": "batch_latency_s", "value": seconds,
                     "unit": "s", "source": source, "kv_memory_fraction": memory,
                     "max_tokens": max_tokens, "prefill_alone": alone}
            for k, v in cells.items():
                r[col[k]] = v
            note = (f"{MARKER}{image} image (vLLM {vllm}, {flavour}; "
                    f"Supermicro AS-8125GS-TNMR2, 2x EPYC {cpu}, 8x MI300X 750 W): benchmark_latency.py, one "
                    f"LLM.generate of {b} prompts of {i} tokens each answered with exactly {o} (ignore_eos, max_tokens), "
                    f"3 warm-up iterations, mean of 5: {seconds} s; amd/{model}-Instruct-FP8-KV (Quark FP8 weights and "
                    f"activations), tp 8, {kv_how}, --gpu-memory-utilization {memory}; the prompt steps at the "
                    f"{defaults} (ROCm/vllm @{commit[:8]}); other settings the vLLM CDNA3 profile's defaults; priced as the simulated closed loop's makespan on a warm engine "
                    f"(docs/amd-dev-docker.md) {END}")
            r[col["notes"]] = replace_marked(notes_before.get(cells["id"], ""), MARKER, END, note)
            new.append(r)
    return new


def main():
    rows = load(TABLE)
    new = rows_to_set(rows)
    upsert_rows(rows, new)
    save(TABLE, rows)
    print(f"{TABLE}: {len(new)} rows set: " + ", ".join(f"{r[0]} {r[rows[0].index('value')]} s" for r in new[:3]) + " ...")


if __name__ == "__main__":
    main()
