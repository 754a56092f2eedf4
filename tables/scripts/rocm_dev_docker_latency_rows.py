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
the README's latency command at that commit where the command states the flag and the table has the column:
kv_memory_fraction 0.9 (--gpu-memory-utilization 0.9); kv fp8 at 0605 (--kv-cache-dtype fp8), fp16 at 0715 (no
--kv-cache-dtype: vLLM's "auto" = the model dtype, --dtype float16); everything else the vLLM CDNA3 profile's
default. In process (no API server). Sets the rows by id, idempotently (appends the ones absent; re-running changes
nothing); the notes sentence through csv_rows.replace_marked. Run from the repository root."""

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
# (image date, commit, vLLM as the README's image list states it, engine flavour, kv word, kv as the command sets it)
COMMITS = [
    ("20250605", "4fee53d7bd8bb916f53d9e0dc1bed9acb4819606", "0.9.0.1", "V0 by default (INFERRED from the next "
     "image's changelog entry, 20250620: V1 on by default)", "fp8", "--kv-cache-dtype fp8"),
    ("20250715", "f94ec9beeca1071cc34f9d1e206d8c7f3ac76129", "0.9.1", "V1", "fp16",
     "no --kv-cache-dtype: vLLM's auto = the model dtype, --dtype float16"),
]
MODELS = {"Llama 3.1 70B": ("Llama-3.1-70B", "70B"), "Llama 3.1 405B": ("Llama-3.1-405B", "405B")}


def readme(commit):
    return subprocess.run(["git", "-C", MIRROR, "show", f"{commit}:{README}"], check=True, capture_output=True,
                          text=True).stdout


def checked(text, commit, vllm):
    """The README's own statements the rows rest on; refuses a commit whose README says otherwise."""
    need = [f"- vLLM {vllm}\n", "- ROCm™ 6.4.1\n", "benchmark_latency.py", "--num-iters-warmup 3", "--num-iters 5",
            "--gpu-memory-utilization 0.9", "--tensor-parallel-size $TP", "--dtype float16"]
    for n in need:
        if n not in text:
            sys.exit(f"{README}@{commit}: expected {n!r}; refused")
    cpu = re.findall(r"2x AMD EPYC (\w+) Processors", text)
    if not cpu:
        sys.exit(f"{README}@{commit}: no host CPU; refused")
    return cpu[-1]  # the latency table's footer (the last such line)


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
    for image, commit, vllm, flavour, kv, kv_how in COMMITS:
        text = readme(commit)
        cpu = checked(text, commit, vllm)
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
                     "unit": "s", "source": source, "kv_memory_fraction": "0.9"}
            for k, v in cells.items():
                r[col[k]] = v
            note = (f"{MARKER}{image} image (vLLM {vllm}, {flavour}; "
                    f"Supermicro AS-8125GS-TNMR2, 2x EPYC {cpu}, 8x MI300X 750 W): benchmark_latency.py, one "
                    f"LLM.generate of {b} prompts of {i} tokens each answered with exactly {o} (ignore_eos, max_tokens), "
                    f"3 warm-up iterations, mean of 5: {seconds} s; amd/{model}-Instruct-FP8-KV (Quark FP8 weights and "
                    f"activations), tp 8, {kv_how}, --gpu-memory-utilization 0.9; other settings the vLLM CDNA3 "
                    f"profile's defaults; priced as the simulated closed loop's makespan on a warm engine "
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
