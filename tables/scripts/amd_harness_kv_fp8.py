#!/usr/bin/env python3
"""Session 34: the KV cache of AMD's MLPerf v5.1 vLLM harness is FP8, not the checkpoint's FP16.

The harness merges every model yaml over its base configuration (harness_llm/common/config_parser.py:
`self.base_config = OmegaConf.load(Path(__file__).parent / "config.yaml")`, then
`OmegaConf.merge(self.base_config, self.model_cfg)`), and that base sets `vllm_engine_config.kv_cache_dtype: fp8`
(harness_llm/common/config.yaml line 55). The Llama-2-70B Offline, Server and Interactive yamls for MI300X and
MI325X set no kv_cache_dtype of their own, so they inherit fp8. Every submitter's copy of the harness says the same
(mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932: closed/AMD/code/,
closed/ASUSTeK/code_AMD/, closed/Dell/code/, closed/GigaComputing/code/, closed/MiTAC/code/,
closed/Quanta_Cloud_Technology/code/, closed/Vultr/code/ — llama2-70b-99/harness_llm/common/config.yaml:55).
The rows read the yaml alone and stated "kv_cache_dtype unset (vLLM 'auto' = the checkpoint's FP16 KV cache)".

Sets, by column name, idempotently (re-running changes nothing; a row in neither state is refused), on every
tables/measurements.csv row whose id starts with ML51-, engine vllm, model Llama-2-70B, whose notes hold the old
phrase or the new one: kv fp16 -> fp8, and the phrase replaced. Krai's MI300X row (its own harness and command
line, not AMD's) does not hold the phrase and is not touched. Run from the repository root.
"""
import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
OLD = "kv_cache_dtype unset (vLLM 'auto' = the checkpoint's FP16 KV cache)"
NEW = ("kv_cache_dtype fp8 (session 34: the yaml sets none, so the harness's base configuration's applies, "
       "harness_llm/common/config.yaml:55 `kv_cache_dtype: fp8`, merged under every model yaml by "
       "harness_llm/common/config_parser.py; the rows said unset, the checkpoint's FP16, until then)")
EXPECTED = 41


def main():
    rows = load(MEAS)
    h = rows[0]
    col = {name: i for i, name in enumerate(h)}
    seen = changed = 0
    for r in rows[1:]:
        if not r or not r[col["id"]].startswith("ML51-") or r[col["engine"]] != "vllm" or r[col["model"]] != "Llama-2-70B":
            continue
        notes = r[col["notes"]]
        if OLD in notes:
            if r[col["kv"]] != "fp16":
                sys.exit(f"{MEAS}: {r[col['id']]}: the old phrase with kv {r[col['kv']]!r}, not fp16; refused")
            r[col["kv"]] = "fp8"
            r[col["notes"]] = notes.replace(OLD, NEW)
            changed += 1
        elif NEW in notes:
            if r[col["kv"]] != "fp8":
                sys.exit(f"{MEAS}: {r[col['id']]}: the new phrase with kv {r[col['kv']]!r}, not fp8; refused")
        else:
            continue
        seen += 1
    if seen != EXPECTED:
        sys.exit(f"{MEAS}: {seen} rows of AMD's harness found, expected {EXPECTED}; refused (nothing written)")
    save(MEAS, rows)
    print(f"{MEAS}: {changed} of {seen} AMD-harness Llama-2-70B rows set to an FP8 KV cache")


if __name__ == "__main__":
    main()
