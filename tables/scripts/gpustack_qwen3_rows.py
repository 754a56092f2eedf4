#!/usr/bin/env python3
"""Session 46 (docs/gpustack-qwen3-h100.md): GPUStack Performance Lab's vLLM 0.11 / SGLang 0.5 runs of Qwen3-8B and
Qwen3-14B on one H100 SXM as `check` rows GPS-* of tables/measurements.csv, by the rule the doc wrote before pricing.

Each block below is transcribed from its page's printed `Serving Benchmark Result` (the pages are Markdown; the
numbers are the page's, typed as printed): successful requests, the concurrency cap (None: no cap, a burst), the
total input and generated tokens, output tok/s, mean / median / P99 TTFT (ms) and mean TPOT (ms). Every derived
value (the mean lengths, the seconds) is computed here and written into the row's notes.

Sets the rows by id (appends the ones absent, replaces the ones present); re-running changes nothing. Run from the
repository root."""

from decimal import Decimal
from fractions import Fraction

from csv_rows import load, save, upsert_rows

TABLE = "tables/measurements.csv"
REPO = "github.com/gpustack/gpustack"
PAGE_8B = f"{REPO} docs/performance-lab/qwen3-8b/h100-latency.md @1dbc3b8130da92d31539404545a1aff5c3992f8c"
PAGE_14B = f"{REPO} docs/performance-lab/qwen3-14b/h100.md @7ae332aaf05783e657560ef927c527b156e2536d"

# (id stem, model, engine, version, page, section, dataset, requests, cap, input total, output total, output tok/s,
#  mean TTFT ms, median TTFT ms, P99 TTFT ms, mean TPOT ms)
BLOCKS = [
    ("Q3-8B-sharegpt-c1", "Qwen3-8B", "vllm", "0.11.0", PAGE_8B, "Other Benchmark Cases, Baseline benchmark results, BS=1",
     "sharegpt", 100, 1, 23260, 22061, 132.86, 59.01, 60.38, 73.49, 7.28),
    ("Q3-8B-sharegpt-c2", "Qwen3-8B", "vllm", "0.11.0", PAGE_8B, "Other Benchmark Cases, Baseline benchmark results, BS=2",
     "sharegpt", 100, 2, 23260, 22061, 257.19, 63.78, 64.78, 93.70, 7.37),
    ("Q3-8B-sharegpt-c4", "Qwen3-8B", "vllm", "0.11.0", PAGE_8B,
     "1. Choosing the Inference Engine, vLLM (the same block as Baseline benchmark results, BS=4)",
     "sharegpt", 100, 4, 23260, 22061, 496.88, 64.00, 60.26, 98.59, 7.38),
    ("Q3-8B-sharegpt-c8", "Qwen3-8B", "vllm", "0.11.0", PAGE_8B, "Other Benchmark Cases, Baseline benchmark results, BS=8",
     "sharegpt", 100, 8, 23260, 22061, 917.28, 74.57, 60.77, 204.11, 7.71),
    ("Q3-8B-sharegpt-c4", "Qwen3-8B", "sglang", "0.5.3.post3", PAGE_8B, "1. Choosing the Inference Engine, SGLang",
     "sharegpt", 100, 4, 23260, 22061, 525.59, 27.70, 27.25, 43.35, 7.19),
    ("Q3-14B-sharegpt-n1000", "Qwen3-14B", "vllm", "0.11.0", PAGE_14B, "1. Choosing the Inference Engine, vLLM",
     "sharegpt", 1000, None, 217393, 201648, 3173.92, 22141.21, 21872.31, 31156.86, 226.03),
    ("Q3-14B-sharegpt-n1000", "Qwen3-14B", "sglang", "0.5.5.post1", PAGE_14B, "1. Choosing the Inference Engine, SGLang",
     "sharegpt", 1000, None, 217393, 201628, 4043.89, 9230.85, 8812.15, 19581.07, 235.33),
    ("Q3-14B-random-32k-n100", "Qwen3-14B", "vllm", "0.11.0", PAGE_14B,
     "Other Benchmark Cases, Baseline benchmark results, random 32K input",
     "random 32000/100", 100, None, 3200000, 9855, 25.48, 191024.43, 191051.49, 380407.97, 277.44),
    ("Q3-14B-random-4k-n500", "Qwen3-14B", "vllm", "0.11.0", PAGE_14B,
     "Other Benchmark Cases, Baseline benchmark results, random 4K input",
     "random 4000/200", 500, None, 1997942, 99803, 438.56, 112716.92, 110734.54, 219749.74, 132.45),
    ("Q3-14B-random-2k-n500", "Qwen3-14B", "vllm", "0.11.0", PAGE_14B,
     "Other Benchmark Cases, Baseline benchmark results, random 2K input",
     "random 2000/100", 500, None, 998175, 50000, 505.51, 50716.13, 49138.28, 94614.51, 206.51),
    ("Q3-14B-random-128-n1000", "Qwen3-14B", "vllm", "0.11.0", PAGE_14B,
     "Other Benchmark Cases, Baseline benchmark results, random 128 input",
     "random 128/4", 1000, None, 127698, 4000, 176.06, 18282.75, 18061.13, 22564.77, 525.31),
]

ENGINE = {
    "vllm": ("vllm serve Qwen/Qwen3-X (no other flag)", "1024", "8192", "0.9",
             "max_batch 1024 and max_tokens 8192 are vLLM 0.11's API-server defaults on a GPU of 70 GiB or more "
             "(max_num_seqs, max_num_batched_tokens; the vLLM-on-Hopper profile's own), kv_memory_fraction 0.9 its "
             "default gpu_memory_utilization"),
    "sglang": ("python3 -m sglang.launch_server --model-path Qwen/Qwen3-X (no other flag)", "", "8192", "",
               "max_tokens 8192 is the chunked-prefill size SGLang picks for an 80 GB GPU (ASSUMED from its server_args "
               "memory tiers); the running-request cap and the memory fraction are the profile's (SGLang sizes them from "
               "the KV pool)"),
}

METRICS = [("tok", "output_tokens_per_s", "tok/s"), ("ttft", "ttft_s", "s"), ("tpot", "tpot_s", "s")]


def fmt(x):
    return f"{x:.6g}"


def eq(num, den):
    """'=' where fmt(num / den) is the decimal quotient exactly, '≈' where fmt rounded it (1997942 / 500 ≈ 3995.88)."""
    exact = Fraction(Decimal(str(num))) / den
    return "=" if Fraction(Decimal(fmt(num / den))) == exact else "≈"


def rows_for(header, b):
    (stem, model, engine, version, page, section, dataset, n, cap, tin, tout, tok_s, ttft, ttft_med, ttft_p99,
     tpot) = b
    serve, max_batch, max_tokens, kv_frac, caps = ENGINE[engine]
    serve = serve.replace("Qwen3-X", model)
    i, o = tin / n, tout / n
    clients = cap if cap else n
    loop = (f"--max-concurrency {cap} --num-prompts {n}, request rate inf: a closed loop of {cap} clients and {n} prompts"
            if cap else
            f"--num-prompts {n} with no concurrency cap, request rate inf: a burst, every request sent at time 0 "
            f"(peak concurrent requests {n} as printed), priced as a closed loop of {n} clients with one prompt each")
    lengths = (f"lengths the run's totals / successful requests: {tin} / {n} {eq(tin, n)} {fmt(i)} input, {tout} / {n} {eq(tout, n)} {fmt(o)} "
               f"output, every request at the mean (range_ratio 1)"
               + ("; ShareGPT's spread not carried (datasets.csv's sharegpt4 is another cut and tokenizer; no standard "
                  "deviation printed)" if dataset == "sharegpt" else
                  "; the random dataset's lengths are fixed (--random-range-ratio default), the totals short of the "
                  "nominal by the chat template's re-tokenisation (input) and early EOS (no --ignore-eos, output)"))
    common = (f"GPUStack Performance Lab, Qwen/{model} BF16 on one H100 SXM ({'vLLM' if engine == 'vllm' else 'SGLang'} "
              f"{version}); server: {serve}; client: vllm bench serve --backend openai-chat --endpoint "
              f"/v1/chat/completions --dataset-name {dataset.split()[0]}"
              f"{' (' + dataset.split(' ', 1)[1] + ', --seed 42)' if dataset != 'sharegpt' else ''}, {loop}; {lengths}; "
              f"the chat endpoint through the API server (api_server 1); {caps}; "
              f"section '{section}'; successful requests {n}; no speculative decoding; thinking mode on by default (the "
              f"chat template's tokens not in the client's input count)")
    values = {
        "tok": (fmt(tok_s), f"Output token throughput {tok_s} tok/s as printed"),
        "ttft": (fmt(ttft / 1000), f"Mean TTFT {ttft} ms {eq(ttft, 1000)} {fmt(ttft / 1000)} s (median {ttft_med} ms, P99 {ttft_p99} ms)"),
        "tpot": (fmt(tpot / 1000), f"Mean TPOT (excl. 1st token) {tpot} ms {eq(tpot, 1000)} {fmt(tpot / 1000)} s"),
    }
    out = []
    for suffix, metric, unit in METRICS:
        value, what = values[suffix]
        cells = dict.fromkeys(header, "")
        cells.update({
            "id": f"GPS-H100-{engine}-{stem}-{suffix}", "role": "check", "model": model, "hardware": "H100 SXM5",
            "engine": engine, "engine_version": version, "tp": "1", "pp": "1", "ep": "1", "dp": "1",
            "scenario": "fixed_batch", "max_batch": max_batch, "max_tokens": max_tokens, "batch": str(clients),
            "prompts": str(n), "range_ratio": "1", "input_tokens": fmt(i), "output_tokens": fmt(o),
            "metric": metric, "value": value, "unit": unit, "source": page, "notes": f"{what}; {common}",
            "api_server": "1", "kv_memory_fraction": kv_frac,
        })
        if suffix == "ttft":
            cells["ttft_median_s"] = fmt(ttft_med / 1000)
            cells["ttft_p99_s"] = fmt(ttft_p99 / 1000)
        out.append([cells[h] for h in header])
    return out


def main():
    rows = load(TABLE)
    header = rows[0]
    new = [r for b in BLOCKS for r in rows_for(header, b)]
    upsert_rows(rows, new)
    save(TABLE, rows)
    print(f"{len(new)} GPS rows set in {TABLE}")


if __name__ == "__main__":
    main()
