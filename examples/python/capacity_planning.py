"""A capacity planner's notebook, cell by cell: how many H100s or H200s for Llama-3.1-70B at a
50 ms TPOT target, and what a million output tokens costs. Run as a test (ctest: python.example):
every cell must run, and the asserts state what a reader should see.

    PYTHONPATH=build/main/python python3 examples/python/capacity_planning.py
"""
import numpy as np

import llmcost

# %% One question: 32 users at once on 8 × H100, 2,000-token prompts, 500-token answers.
e = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, input=2000, output=500, batch=32)
print(f"{e.model} on {e.gpus} x {e.hardware}: TTFT {e.ttft_s * 1e3:.0f} ms, TPOT {e.tpot_s * 1e3:.1f} ms, "
      f"{e.output_tokens_per_s_per_gpu:.0f} tokens/s per GPU, ${e.usd_per_million_output_tokens:.2f} per M tokens")
assert e.tpot_s < 0.05

# %% The same in FP8, and saturated: the most the KV cache admits.
fp8 = llmcost.estimate("Llama-3.1-70B", "H100", tp=8, weights="fp8", kv="fp8", input=2000, output=500, saturate=True)
print(f"FP8 saturated: batch {fp8.batch:.0f} ({fp8.limited_by}), {fp8.output_tokens_per_s_per_gpu:.0f} tokens/s per GPU")
assert fp8.output_tokens_per_s_per_gpu > e.output_tokens_per_s_per_gpu

# %% A sweep: two GPUs x four layouts x two formats x batches 1..256, as NumPy arrays.
batches = np.arange(1, 257, dtype=float)
s = llmcost.sweep("Llama-3.1-70B", ["H100", "H200"], tp=[1, 2, 4, 8], weights=[None, "fp8"],
                  input=2000, output=500, batch=batches)
c = s.coordinates()
ok = s.fits & (s.tpot_s <= 0.05)
print(f"{len(s)} configurations, {ok.sum()} fit and meet TPOT <= 50 ms")

# %% The best tokens/s per GPU under the target, per GPU type.
for g, name in enumerate(s.gpus):
    mine = ok & (c["gpu"] == g)
    best = np.argmax(np.where(mine, s.output_tokens_per_s_per_gpu, -np.inf))
    w, _ = s.formats[c["format"][best]]
    print(f"{name}: tp {c['tp'][best]}, {w or 'bf16'}, batch {c['batch'][best]:.0f}: "
          f"{s.output_tokens_per_s_per_gpu[best]:.0f} tokens/s per GPU at TPOT {s.tpot_s[best] * 1e3:.1f} ms")
    assert mine[best]

# %% Where a long context's KV cache lands.
k = llmcost.kv("Llama-3.1-70B", "H100", tp=8, context=131072, batch=64)
print(f"64 x 128k tokens: {k.in_hbm_B / 1e9:.0f} GB in HBM, {k.in_host_B / 1e9:.0f} GB spilled to DRAM, "
      f"{k.restore_s:.1f} s to bring back")

# %% Bad input is an exception that says what to change.
try:
    llmcost.estimate("Llama-3.1-70B", "H100", tp=3, input=2000, output=500, batch=32)
except llmcost.InvalidInput as err:
    print(f"refused: {err.field} = {err.value:g}: {err.rule} [{err.id}]")
    assert err.id == "llmcost.layout.tp_divides_heads"
