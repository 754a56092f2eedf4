#!/usr/bin/env python3
"""Rewrites the client sentence of tables/measurements.csv's disaggregated InferenceMAX rows (session 39,
research A39; docs/closed-loop-prompt-count.md) where a source now says how many prompts the client sent.
No number changes: every `prompts` cell stays 10 x batch.

- IMX-MI355X-sglang-disagg-DSR1-FP8 (60 rows): 10 x conc is sourced, no longer ASSUMED. InferenceX
  @e264c0eed benchmarks/dsr1_fp8_mi355x_sglang-disagg_slurm.sh clones billishyahao/sglang_disagg branch
  sa-260107 (head 22ad2937fe223590d0a73e340a25effd2f09ed3a) and runs its submit_disagg.sh, which exports
  BENCH_NUM_PROMPTS_MULTIPLIER=10; sglang_disagg_server.sh hands it to bench.sh, which runs
  --num-prompts $(( max_concurrency * num_prompts_multiplier )).
- IMX-GB200-dynamo-trt-DSR1-FP4 (72 rows): still ASSUMED; the sentence now says what would contradict it
  (research A39, INFERRED, not read at the run's release branch): the stored versions of ai-dynamo/dynamo's
  components/backends/trtllm/performance_sweeps/benchmark_disagg.slurm default MULTI_ROUND to 8, and its
  scripts/bench.sh sends concurrency x multi_round prompts; the run's TTFT statistics read 8-10 x conc.

Edits only `notes`, by column name. Idempotent: a row already in the new state is left alone; a row in
neither state is refused, as is a prefix whose row count or `prompts` differs from what is expected.
Run from the repository root:

  python3 tables/scripts/disagg_client_prompt_count.py
"""


import sys

from csv_rows import load, save

PATH = "tables/measurements.csv"
OLD = ("ASSUMED to be InferenceMAX's client settings as on its single-node runs (README, Benchmark Client "
       "Configuration) - the artifact prints neither, but its own figures agree")
NEW = {
    "IMX-MI355X-sglang-disagg-DSR1-FP8": (
        60,
        "as the launch sends them (the prompt count sourced in session 39, ASSUMED before: InferenceX @e264c0eed "
        "benchmarks/dsr1_fp8_mi355x_sglang-disagg_slurm.sh clones billishyahao/sglang_disagg branch sa-260107, "
        "@22ad2937fe223590d0a73e340a25effd2f09ed3a, whose submit_disagg.sh exports BENCH_NUM_PROMPTS_MULTIPLIER=10 "
        "and whose bench.sh runs --num-prompts max_concurrency x 10; the range ratio InferenceMAX's workflow passes "
        "as RANDOM_RANGE_RATIO, its value ASSUMED as on the single-node runs) - the artifact prints neither, and its "
        "own figures agree"),
    "IMX-GB200-dynamo-trt-DSR1-FP4": (
        72,
        "ASSUMED to be InferenceMAX's client settings as on its single-node runs (README, Benchmark Client "
        "Configuration; session 39, research A39, INFERRED and not read at the run's branch "
        "release/0.5.1-rc0.20251105: the stored versions of ai-dynamo/dynamo's benchmark_disagg.slurm default "
        "MULTI_ROUND to 8 and its scripts/bench.sh sends concurrency x multi_round prompts, 8 x conc; the run's "
        "own TTFT statistics read 8-10 x conc, not decisive, so 10 x is kept) - the artifact prints neither, but "
        "its own figures agree"),
}


def main():
    rows = load(PATH)
    col = {name: i for i, name in enumerate(rows[0])}
    for name in ("id", "batch", "prompts", "notes"):
        if name not in col:
            sys.exit(f"{PATH}: no column {name!r}")
    seen = {prefix: 0 for prefix in NEW}
    changed = 0
    for n, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        prefix = next((p for p in NEW if row[col["id"]].startswith(p)), None)
        if prefix is None:
            continue
        seen[prefix] += 1
        if float(row[col["prompts"]]) != 10 * float(row[col["batch"]]):
            sys.exit(f"{PATH}:{n}: row {row[col['id']]}: prompts {row[col['prompts']]} is not 10 x batch "
                     f"{row[col['batch']]}; refused")
        notes, new = row[col["notes"]], NEW[prefix][1]
        if new in notes:
            continue
        if notes.count(OLD) != 1:
            sys.exit(f"{PATH}:{n}: row {row[col['id']]}: notes in neither the old nor the new state; refused")
        row[col["notes"]] = notes.replace(OLD, new)
        changed += 1
    for prefix, count in seen.items():
        if count != NEW[prefix][0]:
            sys.exit(f"{PATH}: {count} rows with id prefix {prefix}, expected {NEW[prefix][0]}; refused")
    save(PATH, rows)
    print(f"{PATH}: {changed} client sentences rewritten ({', '.join(f'{p}: {c}' for p, c in seen.items())})")


if __name__ == "__main__":
    main()
