#!/usr/bin/env python3
"""Session 39 (docs/mi355x-prompt-count.md): the 45 single-node InferenceMAX MI355X SGLang DeepSeek-R1 rows
(IMX-MI355X-sglang-DSR1-*, FP8 run 20609406656 and MXFP4 run 20905985411; not the disaggregated
IMX-MI355X-sglang-disagg-* rows) sent 50 x concurrency prompts, not the README's 10 x: InferenceX's MI355X
launcher (runners/launch_mi355x-amd.sh @2c679ab9dc476db25995c3c02ae827ddce03a13f, single-node branch) exports
NUM_PROMPTS = CONC * 50 for amd/DeepSeek-R1-0528-MXFP4-Preview and deepseek-ai/DeepSeek-R1-0528 at OSL 1,024
(CONC * 20 at OSL 8,192, CONC * 10 for every other model), from commit 15b7c00b0 (2025-10-06) until d053ae24e
(2026-01-21) removed NUM_PROMPTS; the dsr1_fp8_mi355x_* and dsr1_fp4_mi355x_* scripts at that commit pass
--num-prompts "$NUM_PROMPTS"; the runs' artifacts were committed to gminneci/mantile in 1d3c259 on 2026-01-19.

Sets, by column name, `prompts` = 50 x `batch` on those rows (refusing a row whose prompts is neither 10 x nor
50 x its batch, or whose output_tokens is not the OSL-1,024 mean 922), and rewrites the notes' two client
sentences (refusing a row holding neither the old nor the new text). Idempotent; run from the repository root:

  python3 tables/scripts/mi355x_sglang_prompt_count.py
"""

import sys

from csv_rows import load, save

PATH = "tables/measurements.csv"
PREFIX = "IMX-MI355X-sglang-DSR1-"
EXPECTED_ROWS = 45
OLD_COUNT = "10 x {c} prompts (InferenceMAX's client settings)"
NEW_COUNT = "50 x {c} prompts (InferenceX's MI355X launcher for DeepSeek-R1 at OSL 1,024, below)"
OLD_FLAG = "--num-prompts $(( CONC * 10 ))"
NEW_FLAG = ("--num-prompts $NUM_PROMPTS, which for this run is CONC x 50, not the README's CONC x 10 "
            "(github.com/SemiAnalysisAI/InferenceX runners/launch_mi355x-amd.sh @2c679ab9dc476db25995c3c02ae827ddce03a13f, "
            "single-node branch: NUM_PROMPTS=$(( CONC * 50 )) for amd/DeepSeek-R1-0528-MXFP4-Preview and "
            "deepseek-ai/DeepSeek-R1-0528 at OSL 1024, CONC * 20 at OSL 8192, CONC * 10 for other models; from "
            "15b7c00b0 2025-10-06 to d053ae24e 2026-01-21, which removed NUM_PROMPTS; the dsr1_fp8_mi355x_* and "
            "dsr1_fp4_mi355x_* scripts pass --num-prompts \"$NUM_PROMPTS\"; this run's artifact was committed to "
            "gminneci/mantile in 1d3c259 on 2026-01-19, before d053ae24e; checked against the artifact's own TTFT "
            "statistics: with the c opening requests at v = median + N (mean - median) / c and the rest at the "
            "median, N = 50c predicts the MXFP4 run's TTFT standard deviations within 4% in 8 of its 9 runs (8k c4: 27%) and "
            "N = 10c less than half, docs/mi355x-prompt-count.md)")
# The flag sentence as session 39's first pass wrote it ("within 1-5%"; review 39 N2 recomputed 0.3-3.3%): rewritten.
PRIOR_FLAG = NEW_FLAG.replace("within 4% in 8 of its 9", "within 1-5% in 8 of its 9")


def main():
    rows = load(PATH)
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for name in ("id", "batch", "prompts", "output_tokens", "notes"):
        if name not in col:
            sys.exit(f"{PATH}: no column {name!r}")
    hits = [r for r in rows[1:] if r and r[col["id"]].startswith(PREFIX)]
    if len(hits) != EXPECTED_ROWS:
        sys.exit(f"{PATH}: {len(hits)} rows start with {PREFIX!r}, expected {EXPECTED_ROWS}; refused")
    changed = 0
    for r in hits:
        rid = r[col["id"]]
        if r[col["output_tokens"]] != "922":
            sys.exit(f"{PATH}: {rid}: output_tokens is {r[col['output_tokens']]!r}, not 922 (OSL 1,024); refused")
        c = int(r[col["batch"]])
        before = list(r)
        if r[col["prompts"]] not in (str(10 * c), str(50 * c)):
            sys.exit(f"{PATH}: {rid}: prompts is {r[col['prompts']]!r}, neither 10 x nor 50 x batch {c}; refused")
        r[col["prompts"]] = str(50 * c)
        notes = r[col["notes"]]
        for olds, new in (((OLD_COUNT.format(c=c),), NEW_COUNT.format(c=c)), ((PRIOR_FLAG, OLD_FLAG), NEW_FLAG)):
            if notes.count(new) == 1 and not any(old in notes for old in olds):
                continue
            found = [old for old in olds if notes.count(old) == 1]
            if not found:
                sys.exit(f"{PATH}: {rid}: notes hold neither {olds[0][:40]!r}... once nor its replacement; refused")
            notes = notes.replace(found[0], new)
        r[col["notes"]] = notes
        changed += r != before
    save(PATH, rows)
    print(f"{PATH}: {changed} of {len(hits)} {PREFIX}* rows set to prompts = 50 x batch")


if __name__ == "__main__":
    main()
