#!/usr/bin/env python3
"""Session 29 part C (docs/mla-replicated-down-projection.md): with MLA's down-projections q_a and kv_a priced whole
on every TP rank (`replicated_down_projection_bytes`), the SGLang fit rows (DeepSeek-R1 at TP8 / TP4) moved, so the
launch cost, front end and cold opening are refitted by the validation tool's unchanged rules (tables/validation.md
"Engine fits"): one round, each new figure the fit's at the figures of the round before.

Sets, by column name, each figure once (csv_rows.set_once: old -> new with its sentence; a row that already holds
the sentence is left as it is; run from the repository root, after tables/scripts/checkpoint_composition_refits.py, whose figures these replace), then run
`python3 tables/scripts/engines_catalog_sync.py` for the catalog.
"""

from csv_rows import apply_refits

PATH = "tables/engines.csv"
# (profile, column): (old, new, the fit as tables/validation.md prints it)
FITS = {
    ("SGLang on Hopper", "launch_graph_us"): ("1.47", "1.194", "1.19 +- 0.38 us"),
    ("SGLang on Blackwell", "launch_graph_us"): ("1.33", "1.192", "1.19 +- 0.4 us"),
    ("SGLang on CDNA3 (ROCm)", "launch_graph_us"): ("13.51", "13.01", "13 +- 1.1 us"),
    ("SGLang on CDNA4 (ROCm)", "launch_graph_us"): ("6.36", "5.941", "5.94 +- 1 us"),
    ("SGLang on Hopper", "request_overhead_us"): ("47660", "46680", "46.68 +- 0.16 ms"),
    ("SGLang on Blackwell", "request_overhead_us"): ("13810", "13710", "13.71 +- 9.7 ms"),
    ("SGLang on CDNA3 (ROCm)", "request_overhead_us"): ("74050", "69090", "69.09 +- 21 ms"),
    ("SGLang on CDNA4 (ROCm)", "request_overhead_us"): ("40350", "40100", "40.1 +- 1.8 ms"),
    ("SGLang on Blackwell", "cold_start_ms"): ("181.4", "185.3", "0.1853 +- 0.3 s"),
    ("SGLang on Blackwell", "cold_prompt_token_us"): ("131.7", "129.7", "129.7 +- 41 us"),
    ("SGLang on CDNA3 (ROCm)", "cold_start_ms"): ("2568", "2516", "2.516 +- 0.66 s"),
    ("SGLang on CDNA3 (ROCm)", "cold_prompt_token_us"): ("28.3", "26.06", "26.06 +- 14 us"),
}
# A second round where the first's next fit was not within its standard error (the lead, at the merge: SGLang on
# Hopper's front end read 46.38 +- 0.16 ms at the first round's figures).
ROUND2 = {("SGLang on Hopper", "request_overhead_us"): ("46680", "46380", "46.38 +- 0.16 ms")}
SENTENCE = ("; {field} {old} -> {new} (session 29 part C, docs/mla-replicated-down-projection.md): refitted by the "
            "unchanged rule (tables/validation.md, Engine fits; fit {fit}) with MLA's q_a and kv_a down-projections "
            "priced whole on every TP rank (ReplicatedLinear in SGLang and vLLM, an unsharded Linear in TensorRT-LLM)")


def main():
    apply_refits(PATH, ((FITS, SENTENCE), (ROUND2, SENTENCE.replace("refitted by", "a second round of"))))


if __name__ == "__main__":
    main()
