#!/usr/bin/env python3
"""Session 39 (docs/mi355x-prompt-count.md section 5): with the MI355X single-node SGLang rows at the prompt count their
launcher ran (tables/scripts/mi355x_sglang_prompt_count.py) and their TP all-reduces on SGLang's QuickReduce INT4 band
(tables/scripts/sglang_cdna4_quick_reduce.py), both run first, SGLang on CDNA4's launch cost and front end are
refitted by the validation tool's unchanged rules (tables/validation.md "Engine fits"): one round, each new figure the
fit's at the figures of the round before (as sessions 31 and 38 did: sglang_cdna4_rccl_refits.py,
sglang_cdna4_mxfp4_refits.py).

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds the
sentence is left as it is; run from the repository root), then run `python3 tables/scripts/engines_catalog_sync.py`.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("4.84", "5.08", "5.08 +- 0.65 us"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("37830", "37970", "37.97 +- 1.7 ms"),
}
SENTENCE = ("; {field} {old} -> {new} (session 39, docs/mi355x-prompt-count.md section 5): refitted by the unchanged rule "
            "(tables/validation.md, Engine fits; fit {fit}) with the MI355X single-node rows at 50 x concurrency prompts "
            "and their all-reduces on QuickReduce INT4")


def main():
    apply_refits(PATH, ((FITS, SENTENCE),))


if __name__ == "__main__":
    main()
