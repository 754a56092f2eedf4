#!/usr/bin/env python3
"""Session 29 (docs/checkpoint-composition.md): with the FP4 DeepSeek-R1 checkpoints' excluded modules priced in
BF16 (tables/measurements.csv `excluded_modules`, set by tables/scripts/checkpoint_excluded_modules.py), the fit
rows of SGLang on CDNA4 (the MI355X MXFP4-Preview rows) and SGLang on Blackwell (the B200 NVFP4-v2 rows) moved, so
their launch cost, front end (and, on Blackwell, cold opening) are refitted by the validation tool's unchanged rules
(tables/validation.md "Engine fits"): one round, each new figure the fit's at the figures of the round before, the
round after checked to be within its standard error of these.

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds
the sentence is left as it is, a later refit having moved it; run from the repository root, after
tables/scripts/sglang_fp8_attention_quant.py and sglang_blackwell_cold_opening.py, whose figures these replace), then run `python3 tables/scripts/engines_catalog_sync.py` for the catalog.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("6.776", "6.36", "6.36 +- 1.1 us"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("39980", "40350", "40.35 +- 1.7 ms"),
    ("SGLang on Blackwell", "launch_graph_us"): ("1.45", "1.33", "1.33 +- 0.38 us"),
    ("SGLang on Blackwell", "request_overhead_us"): ("13590", "13810", "13.81 +- 10 ms"),
    ("SGLang on Blackwell", "cold_start_ms"): ("117.9", "181.4", "0.1814 +- 0.30 s"),
    ("SGLang on Blackwell", "cold_prompt_token_us"): ("132.1", "131.7", "131.7 +- 41 us"),
}
SENTENCE = ("; {field} {old} -> {new} (session 29, docs/checkpoint-composition.md): refitted by the unchanged rule "
            "(tables/validation.md, Engine fits; fit {fit}) with the FP4 checkpoints' excluded modules (BF16 "
            "attention projections, LM head, embedding; tables/measurements.csv excluded_modules) priced")


def main():
    apply_refits(PATH, ((FITS, SENTENCE),))


if __name__ == "__main__":
    main()
