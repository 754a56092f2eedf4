#!/usr/bin/env python3
"""Session 51 (docs/kv-pool.md, "SGLang's pool as SGLang computes it"): with SGLang's KV pool priced as SGLang
computes it (f x (H - R_init) - W on the runtime's capacity, the weights as SGLang lays them out), the H200 8k/1k
run at 64 clients no longer holds every prompt in its pool, and the validation tool's unchanged cold-opening rule
(`fit_cold_openings`, examples/tools/validation/validation.cpp) finds the opening systematic on SGLang's H200 runs
(6 of 6 runs not stalled short of their measured mean by more than of their median; before, 5 of 6), as
docs/sglang-closed-loop-ttft.md section 5.3 predicted. Its subset is the front end's two 4-client rows, so the start
alone is free.

Sets, by column name, once (re-running changes nothing, and a row whose source already holds the note is left as it
is; run from the repository root): tables/engines.csv, "SGLang on Hopper": cold_start_ms as the rule fits it
(tables/validation.md, Engine fits), the source text appended once. Then
`python3 tables/scripts/engines_catalog_sync.py` writes the catalog's row from the table.
"""

from csv_rows import set_profile_once

ENGINES = "tables/engines.csv"
PROFILE = "SGLang on Hopper"
VALUES = {"cold_start_ms": "611.1"}
NOTE = (
    "; cold_start_ms 611.1 (session 51, docs/kv-pool.md): a benchmark run's cold opening (engine_overheads::cold_opening, "
    "read only by the simulated closed-loop run whose server starts just before the client's burst), fitted with "
    "plan::calibrate by the validation tool's unchanged rule (fit_cold_openings) once SGLang's pool is priced as SGLang "
    "computes it: 0.6111 +- 0.07 s, the start alone free (two rows: IMX-H200-sglang-DSR1-tp8-1kx1k-c4-ttft, "
    "IMX-H200-sglang-DSR1-tp8-8kx1k-c4-ttft; residual s 0.041 ln); cold_prompt_token_us stays 0 (not free)")


def main():
    set_profile_once(ENGINES, PROFILE, VALUES, NOTE)


if __name__ == "__main__":
    main()
