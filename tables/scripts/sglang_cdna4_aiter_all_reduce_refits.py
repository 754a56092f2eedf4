#!/usr/bin/env python3
"""Session 40 (docs/cdna-all-reduce.md section 9): with SGLang on CDNA4's TP all-reduces on AITER's custom kernel to
64 MiB (tables/scripts/sglang_cdna4_aiter_all_reduce.py, run first), SGLang on CDNA4's launch cost and front end are
refitted by the validation tool's unchanged rules (tables/validation.md "Engine fits"): one round, each new figure the
fit's at the figures of the round before (as session 39 did: sglang_cdna4_quick_reduce_refits.py).

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds the
sentence is left as it is; run from the repository root), then run `python3 tables/scripts/engines_catalog_sync.py`.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("5.08", "5.04", "5.04 +- 0.63 us"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("37970", "35540", "35.54 +- 0.43 ms"),
}
SENTENCE = ("; {field} {old} -> {new} (session 40, docs/cdna-all-reduce.md section 9): refitted by the unchanged rule "
            "(tables/validation.md, Engine fits; fit {fit}) with the TP all-reduces on AITER's custom kernel to 64 MiB")


def main():
    apply_refits(PATH, ((FITS, SENTENCE),))


if __name__ == "__main__":
    main()
