#!/usr/bin/env python3
"""Adds the B97 and B98 rows to tables/microbenchmarks.csv (session 27, part B; docs/cdna-all-reduce.md): the
custom all-reduce on 8 MI355X GPUs, TP8, bf16, (tokens, 3072) messages, from the table in
https://github.com/vllm-project/vllm/pull/39080's description. B97: the 'dev' column, vLLM with AITER's
2-stage all-reduce algorithm (the PR: "change 2-stage all-reduce algorithm for CDNA cards from aiter's
all-reduce"); its seven sizes set SGLang on CDNA4's custom all-reduce curve (SGLang 0.5.6+ on ROCm runs
AITER's CustomAllreduce by default), fitted. B98: the 'vllm' column, vLLM's own ROCm custom all-reduce before
the PR (E61 is its 24 KiB row), not fitted: a check of the other kernel. Bus bandwidth as the table gives it
('bw', 2(n-1)/n S / t with n 8).

Idempotent: rows already present (same id, same cells) are left alone; an id present with other cells is
refused. Appended after the last row, by the file's own column names. Run from the repository root:

  python3 tables/scripts/mi355x_custom_all_reduce_rows.py
"""


import sys

from csv_rows import load, save

PATH = "tables/microbenchmarks.csv"
SOURCE = "https://github.com/vllm-project/vllm/pull/39080 (PR description, TP8 (bf16, dim=3072) table)"
# (id prefix, column, fitted, tokens, size label, time us, bus GB/s as published)
ROWS = [("B97", "dev", "no", 4, "24KiB", 6.4, 6.7), ("B97", "dev", "no", 8, "48KiB", 6.7, 12.8),
        ("B97", "dev", "no", 16, "96KiB", 6.8, 25.2), ("B97", "dev", "no", 32, "192KiB", 7.0, 49.3),
        ("B97", "dev", "no", 64, "384KiB", 7.5, 91.4), ("B97", "dev", "no", 128, "768KiB", 9.6, 143.0),
        ("B97", "dev", "no", 256, "1536KiB", 12.9, 213.9),
        ("B98", "vllm", "no", 4, "24KiB", 6.3, 6.8), ("B98", "vllm", "no", 8, "48KiB", 6.7, 12.8),
        ("B98", "vllm", "no", 16, "96KiB", 7.6, 22.6), ("B98", "vllm", "no", 32, "192KiB", 10.0, 34.4),
        ("B98", "vllm", "no", 64, "384KiB", 13.1, 52.6), ("B98", "vllm", "no", 128, "768KiB", 16.0, 85.8),
        ("B98", "vllm", "no", 256, "1536KiB", 24.2, 113.9)]


def record(prefix, column, fitted, tokens, label, us, bw):
    size = tokens * 3072 * 2
    if column == "dev":
        what = ("custom all-reduce with AITER's 2-stage algorithm (the PR's 'dev' column), 8x MI355X, TP8, bf16 "
                f"({tokens}, 3072) = {size} B in {us} us, bus bandwidth {bw} GB/s as the table gives it; not fitted: "
                "checks the link model (2 x 3.7 us + 2(n-1)/n S / 537.5 GB/s) SGLang on CDNA4 prices messages above "
                "24 KiB with (the least-squares curve of the seven sizes, t0 6.305 us, B 429.6 GB/s, is not applied: "
                "docs/cdna-all-reduce.md)")
    else:
        what = ("vLLM's own ROCm custom all-reduce before the PR (its 'vllm' column), 8x MI355X, TP8, bf16 "
                f"({tokens}, 3072) = {size} B in {us} us, bus bandwidth {bw} GB/s as the table gives it; not fitted: "
                "checks the link model SGLang on CDNA4 prices messages above 24 KiB with (docs/cdna-all-reduce.md)")
    return {"id": f"{prefix}-{label}", "kind": "all_reduce", "hardware": "MI355X", "precision": "", "size": f"8x{size}",
            "value": f"{bw}", "unit": "GB/s", "fitted": fitted, "source": SOURCE, "notes": what}


def main():
    rows = load(PATH)
    head = rows[0]
    have = {r[0]: r for r in rows[1:] if r}
    added = 0
    for t in ROWS:
        rec = record(*t)
        missing = [k for k in rec if k not in head]
        if missing:
            sys.exit(f"{PATH}: no column(s) {missing}")
        cells = [rec.get(name, "") for name in head]
        if rec["id"] in have:
            if have[rec["id"]] != cells:
                sys.exit(f"{PATH}: {rec['id']} present with other cells; refused")
            continue
        rows.append(cells)
        added += 1
    save(PATH, rows)
    print(f"{PATH}: {added} B97/B98 rows added, {len(ROWS) - added} already present")


if __name__ == "__main__":
    main()
