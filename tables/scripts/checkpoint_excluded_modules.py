#!/usr/bin/env python3
"""Session 29 (docs/checkpoint-composition.md): FP4 checkpoints of DeepSeek-R1-0528 quantize the FFNs (routed and
shared experts, the first layers' dense FFNs) but keep their quantizer's excluded modules in BF16; the library
priced them FP4 throughout. This sets, by column name, idempotently (re-running changes nothing; run from the
repository root), tables/measurements.csv column `excluded_modules` (added if absent; empty = every weight in the
row's `weights` format), with a note appended once to each changed row's `notes`:

  nvidia/DeepSeek-R1-0528-FP4-v2 rows (the InferenceMAX SGLang B200 NVFP4 rows, the Dynamo GB200 TensorRT-LLM rows):
      `attention_in attention_kv_b lm_head embedding` - ModelOpt's DeepSeek PTQ disables every `*attn*` and `*head*`
      quantizer (NVIDIA/TensorRT-Model-Optimizer examples/deepseek/ptq.py @1030a2210d8dbd654e7f51af85f0b3a3b64f4d38,
      `mtq_cfg["quant_cfg"]["*attn*"] = {"enable": False}`, `["*head*"]` likewise) and v2 turns wo's back on
      (`--enable_wo_quant`; huggingface.co/nvidia/DeepSeek-R1-0528-FP4-v2 model card: "Compared to
      nvidia/DeepSeek-R1-0528-FP4, this checkpoint additionally quantizes the wo module in attention layers");
      the embedding is no Linear, so it stays BF16.
  nvidia/DeepSeek-R1-0528-FP4 (v1) rows (the SGLang B200 gist row, which names "DeepSeek-R1-0528-FP4"):
      `attention_in attention_kv_b attention_out lm_head embedding` (the same PTQ without --enable_wo_quant).
  amd/DeepSeek-R1-0528-MXFP4-Preview rows (SGLang MI355X): Quark `exclude_layers "*self_attn* *mlp.gate.* *lm_head"`
      (huggingface.co/amd/DeepSeek-R1-0528-MXFP4-Preview README @d53b0ef56d45f2a0f40b715d023940c05427c042, as
      docs/sglang-fp8-activation-quant.md reads it), served by SGLang on gfx950, which re-quantizes kv_b_proj's
      W_kc and W_vc to MXFP4 at load (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py
      @3e4a39ee73308590c5c753108bdcb8d333f7f1c6, `quark_post_load_weights(self_attn, w, "mxfp4")`, its BF16
      branch): `attention_in attention_out lm_head embedding`.
  Every other row keeps its cell: all-linear NVFP4 / MXFP4 checkpoints (Llama) are FP4 throughout, gpt-oss's MXFP4
  experts are the model's own format, and NVIDIA's MLPerf DeepSeek-R1 fp4 rows do not state their exclude list.
"""

import re

from csv_rows import load, save

MEAS = "tables/measurements.csv"
COLUMN = "excluded_modules"
APPLIES = "which the library applies to every weight"
BUT = " but its excluded modules (excluded_modules)"
MODELOPT = ("NVIDIA/TensorRT-Model-Optimizer examples/deepseek/ptq.py @1030a2210d8dbd654e7f51af85f0b3a3b64f4d38 "
            "disables the *attn* and *head* quantizers")
RULES = [  # (checkpoint named in the row's notes, exact-case, its cell, the note)
    ("DeepSeek-R1-0528-FP4-v2", "attention_in attention_kv_b lm_head embedding",
     " excluded_modules: nvidia/DeepSeek-R1-0528-FP4-v2 keeps its attention projections but wo, the LM head and the "
     "embedding in BF16 (" + MODELOPT + "; v2 adds --enable_wo_quant, per its model card: it additionally "
     "quantizes the wo module in attention layers); the experts, shared experts and dense FFNs NVFP4 "
     "(docs/checkpoint-composition.md)."),
    ("DeepSeek-R1-0528-FP4-V2", "attention_in attention_kv_b lm_head embedding", None),
    ("DeepSeek-R1-0528-FP4 (", "attention_in attention_kv_b attention_out lm_head embedding",
     " excluded_modules: nvidia/DeepSeek-R1-0528-FP4 (v1, ASSUMED from the name the source prints) keeps every "
     "attention projection, the LM head and the embedding in BF16 (" + MODELOPT + "); the FFNs NVFP4 "
     "(docs/checkpoint-composition.md)."),
    ("DeepSeek-R1-0528-MXFP4-Preview", "attention_in attention_out lm_head embedding",
     " excluded_modules: amd/DeepSeek-R1-0528-MXFP4-Preview keeps self_attn, the router gate and lm_head in BF16 "
     "(Quark exclude_layers \"*self_attn* *mlp.gate.* *lm_head\", huggingface.co/amd/DeepSeek-R1-0528-MXFP4-Preview "
     "README @d53b0ef56d45f2a0f40b715d023940c05427c042); SGLang on gfx950 re-quantizes kv_b_proj (W_kc, W_vc) to "
     "MXFP4 at load (sgl-project/sglang python/sglang/srt/models/deepseek_v2.py "
     "@3e4a39ee73308590c5c753108bdcb8d333f7f1c6 quark_post_load_weights), so it is served MXFP4; the FFNs MXFP4 "
     "(docs/checkpoint-composition.md)."),
]
RULES[1] = (RULES[1][0], RULES[1][1], RULES[0][2].replace("FP4-v2 keeps", "FP4-v2 (printed FP4-V2) keeps"))


def measurements():
    rows = load(MEAS)
    h = rows[0]
    if COLUMN not in h:
        h.append(COLUMN)
        for r in rows[1:]:
            r.append("")
    c = {k: h.index(k) for k in ("id", "model", "weights", "notes", COLUMN)}
    counts = {}
    for r in rows[1:]:
        if r[c["model"]] != "DeepSeek-V3" or "fp4" not in r[c["weights"]]:
            continue
        stated = r[c["notes"]].split(" excluded_modules:")[0]  # the row's own notes, not this script's note
        for name, cell, note in RULES:
            if name in stated:
                r[c[COLUMN]] = cell
                if note not in r[c["notes"]]:
                    r[c["notes"]] += note
                # The row's own sentence, true before this column, names the exclusions; the note joins it after a ';'.
                r[c["notes"]] = re.sub(re.escape(APPLIES) + r"(?! but its excluded)", APPLIES + BUT, r[c["notes"]])
                r[c["notes"]] = re.sub(r"([^.;]) excluded_modules: ", r"\1; excluded_modules: ", r[c["notes"]])
                counts[name] = counts.get(name, 0) + 1
                break
    save(MEAS, rows)
    for name, n in counts.items():
        print(f"{MEAS}: {COLUMN} set on {n} rows naming {name}")


if __name__ == "__main__":
    measurements()
