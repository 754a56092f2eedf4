#!/usr/bin/env python3
"""PROPOSAL, NOT APPLIED in session 27 (docs/cdna-all-reduce.md section 5): it prices SGLang on CDNA4's TP
all-reduce with AITER's custom kernel up to AITER's bound, and raised the DeepSeek-class (MLA) median from
24.6% to 24.7%, over its bar (0.2463), so it was not landed. Kept so that it can be re-tried in one command
after other MI355X changes (e.g. the expert GEMM rates of session 27 part A) are merged:

  custom_all_reduce_max_KiB 24 -> 65536: the 24 KiB was the size of E61's one message, not a bound; SGLang on
    ROCm runs AITER's CustomAllreduce by default (sgl-project/sglang PR 13102, SGLANG_USE_AITER_AR default true),
    which takes messages up to max_size = 8192 * 1024 * 8 B (ROCm/aiter@8d4cb170bf
    aiter/dist/device_communicators/custom_all_reduce.py lines 56, 249-261), RCCL above. (SGLang's own kernel:
    16 MiB, sgl-project/sglang@263bc85d custom_all_reduce.py _MAX_CAR_SIZE on HIP.)
  all_reduce_latency_us 6.3 -> 6.305 and custom_all_reduce_bus_GBps 0 -> 429.6: t = t0 + 2(n-1)/n S / B, least
    squares on log time over the seven TP8 sizes (24 KiB ... 1.5 MiB) of the custom all-reduce with AITER's
    2-stage algorithm on 8 MI355X (https://github.com/vllm-project/vllm/pull/39080, 'dev' column; B97).
  launch_graph_us 8.976 -> 9.03 and request_overhead_us 24780 -> 24650: what the engine-fit rules of
    tables/validation.md gave with it (session 27 run).

The catalog row (include/llmcost/catalog/engines.hpp, sglang_cdna4) must be edited to the same values by hand.
Edits only the named fields, by column name, and appends one sentence to `source`. Idempotent: a row already in
the new state is left alone; a row in neither state is refused. Run from the repository root:

  python3 tables/scripts/cdna4_custom_all_reduce_proposal.py
"""


import sys

from csv_rows import load, save

PATH = "tables/engines.csv"
ROW = "SGLang on CDNA4 (ROCm)"
# column: (old, new)
FIELDS = {
    "custom_all_reduce_max_KiB": ("24", "65536"),
    "all_reduce_latency_us": ("6.3", "6.305"),
    "custom_all_reduce_bus_GBps": ("0", "429.6"),
    "launch_graph_us": ("8.976", "9.03"),
    "request_overhead_us": ("24780", "24650"),
}
SENTENCE = (
    "; session 27 (docs/cdna-all-reduce.md): custom_all_reduce_max_KiB 65536 (was 24, the size of E61's one "
    "message, not a bound): SGLang on ROCm runs AITER's CustomAllreduce by default (sgl-project/sglang PR 13102), "
    "messages up to max_size = 8192 x 1024 x 8 B (ROCm/aiter@8d4cb170bf aiter/dist/device_communicators/"
    "custom_all_reduce.py should_custom_ar), RCCL above; all_reduce_latency_us 6.305 +- 0.10 and "
    "custom_all_reduce_bus_GBps 429.6 +- 24: t = t0 + 2(n-1)/n S / B, least squares on log time over the seven TP8 "
    "sizes of the custom all-reduce with AITER's 2-stage algorithm on 8 MI355X, bf16 (24 KiB ... 1.5 MiB, 6.4 ... "
    "12.9 us; https://github.com/vllm-project/vllm/pull/39080 description table, 'dev' column; B97, residual s "
    "0.030 ln); the curve above 1.5 MiB is not measured (extrapolated to the 64 MiB bound); launch_graph_us 9.03 and "
    "request_overhead_us 24650 refitted with it by the rules (8.976 and 24780 before)"
)


def main():
    rows = load(PATH)
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for name in ["name", "source", *FIELDS]:
        if name not in col:
            sys.exit(f"{PATH}: no column {name!r}")
    hits = [r for r in rows[1:] if r and r[col["name"]] == ROW]
    if len(hits) != 1:
        sys.exit(f"{PATH}: {len(hits)} rows named {ROW!r}, expected 1; refused")
    row = hits[0]
    old_state = all(row[col[k]] == old for k, (old, _) in FIELDS.items()) and SENTENCE not in row[col["source"]]
    new_state = all(row[col[k]] == new for k, (_, new) in FIELDS.items()) and row[col["source"]].endswith(SENTENCE)
    if new_state:
        print(f"{PATH}: {ROW!r} already set; unchanged")
        return
    if not old_state:
        now = {k: row[col[k]] for k in FIELDS}
        sys.exit(f"{PATH}: {ROW!r}: fields {now} in neither the old nor the new state; refused")
    for k, (_, new) in FIELDS.items():
        row[col[k]] = new
    row[col["source"]] += SENTENCE
    save(PATH, rows)
    print(f"{PATH}: {ROW!r}: " + ", ".join(f"{k} {o} -> {n}" for k, (o, n) in FIELDS.items()))


if __name__ == "__main__":
    main()
