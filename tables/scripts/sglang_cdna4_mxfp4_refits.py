#!/usr/bin/env python3
"""Session 38 (docs/aiter-fused-moe.md section 8): with SGLang on CDNA4's MXFP4 (W4A4) experts priced at AITER's MXFP4
fused-MoE rate (tables/scripts/sglang_cdna4_fp4_expert_gemm.py, run first), the profile's fit rows moved (four of its
eight launch rows and one of its two front-end rows are MXFP4 runs), so its launch cost and front end are refitted by
the validation tool's unchanged rules (tables/validation.md "Engine fits"): one round, each new figure the fit's at the
figures of the round before (as tables/scripts/sglang_cdna4_rccl_refits.py did in session 31).

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds the
sentence is left as it is; run from the repository root), then run `python3 tables/scripts/engines_catalog_sync.py`.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("5.52", "4.84", "4.84 +- 0.67 us"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("39550", "37830", "37.83 +- 0.96 ms"),
}
SENTENCE = ("; {field} {old} -> {new} (session 38, docs/aiter-fused-moe.md section 8): refitted by the unchanged rule "
            "(tables/validation.md, Engine fits; fit {fit}) with the MXFP4 experts at AITER's MXFP4 fused-MoE rate "
            "(fp4_expert_gemm)")


def main():
    apply_refits(PATH, ((FITS, SENTENCE),))


if __name__ == "__main__":
    main()
