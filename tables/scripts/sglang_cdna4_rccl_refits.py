#!/usr/bin/env python3
"""Session 31 part C (docs/mi355x-prefill.md): with SGLang on CDNA4's TP all-reduce priced by its custom kernel up to
16 MiB and RCCL's curve above (tables/scripts/sglang_cdna4_rccl_all_reduce.py, run first), the profile's fit rows moved,
so its launch cost and front end are refitted by the validation tool's unchanged rules (tables/validation.md
"Engine fits"): one round, each new figure the fit's at the figures of the round before.

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds the
sentence is left as it is; run from the repository root), then run `python3 tables/scripts/engines_catalog_sync.py`.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("5.941", "5.52", "5.52 +- 0.91 us"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("40100", "39550", "39.55 +- 1.9 ms"),
}
SENTENCE = ("; {field} {old} -> {new} (session 31 part C, docs/mi355x-prefill.md): refitted by the unchanged rule "
            "(tables/validation.md, Engine fits; fit {fit}) with the TP all-reduce priced by SGLang's custom kernel up "
            "to 16 MiB and RCCL's curve above it")


def main():
    apply_refits(PATH, ((FITS, SENTENCE),))


if __name__ == "__main__":
    main()
