#!/usr/bin/env python3
"""Sets the KV cache format of tables/measurements.csv's MI355X SGLang disaggregated rows (id prefix
IMX-MI355X-sglang-disagg-DSR1-FP8, 60 rows, session 23) to FP8, as their launch script runs them
(docs/mi355x-disagg-decode.md §1):

  billishyahao/sglang_disagg @22ad2937fe223590d0a73e340a25effd2f09ed3a sglang_disagg_server.sh line 51,
  MODEL_BASE_CONFIGS["DeepSeek-R1"] (both pools): --kv-cache-dtype fp8_e4m3 --attention-backend aiter

Edits only existing fields, by column name (so it re-applies after columns are added): `kv` bf16 -> fp8,
and two sentences of `notes`. Idempotent: a row already at fp8 with the new sentences is left alone; a row
in neither state is refused. Run from the repository root:

  python3 tables/scripts/mi355x_disagg_kv_fp8.py

Rewrites the file in place, every other cell byte for byte as it was.
"""


import sys

from csv_rows import load, save

PATH = "tables/measurements.csv"
PREFIX = "IMX-MI355X-sglang-disagg-DSR1-FP8"
EXPECTED_ROWS = 60
NOTES = [
    (
        "BF16 KV cache (SGLang's 'auto' KV dtype ASSUMED, as on the single-node MI355X rows; not in the artifact)",
        "FP8 (e4m3) KV cache: the launch script's --kv-cache-dtype fp8_e4m3 on both pools "
        "(billishyahao/sglang_disagg @22ad2937fe223590d0a73e340a25effd2f09ed3a sglang_disagg_server.sh line 51, "
        "MODEL_BASE_CONFIGS, with --attention-backend aiter; set in session 26, docs/mi355x-disagg-decode.md; "
        "BF16, SGLang's 'auto', was ASSUMED in session 23)",
    ),
    (
        "both pools run --kv-cache-dtype fp8_e4m3, against this row's BF16 KV (ASSUMED in session 23; reported to the lead, not changed here)",
        "both pools run --kv-cache-dtype fp8_e4m3 (this row's kv since session 26: SGLang's aiter backend "
        "decodes MLA from the FP8 latent cache, mla_decode_fwd with kv_scale, without dequantising it)",
    ),
]


def main():
    rows = load(PATH)
    head = rows[0]
    col = {name: i for i, name in enumerate(head)}
    for name in ("id", "kv", "notes"):
        if name not in col:
            sys.exit(f"{PATH}: no column {name!r}")
    seen = changed = 0
    for n, row in enumerate(rows[1:], start=2):
        if not row or not row[col["id"]].startswith(PREFIX):
            continue
        seen += 1
        kv, notes = row[col["kv"]], row[col["notes"]]
        old_state = kv == "bf16" and all(old in notes for old, _ in NOTES)
        new_state = kv == "fp8" and all(new in notes for _, new in NOTES)
        if new_state:
            continue
        if not old_state:
            sys.exit(f"{PATH}:{n}: row {row[col['id']]}: kv {kv!r} and notes in neither the old nor the new state; refused")
        row[col["kv"]] = "fp8"
        for old, new in NOTES:
            notes = notes.replace(old, new)
        row[col["notes"]] = notes
        changed += 1
    if seen != EXPECTED_ROWS:
        sys.exit(f"{PATH}: {seen} rows with id prefix {PREFIX}, expected {EXPECTED_ROWS}; refused")
    save(PATH, rows)
    print(f"{PATH}: {changed} of {seen} {PREFIX} rows set to kv fp8")


if __name__ == "__main__":
    main()
