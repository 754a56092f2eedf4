#!/usr/bin/env python3
"""Session 46 part V (docs/vllm-v0-host-loop.md): the `host_loop` column of tables/measurements.csv, set to `v0` on
the rows that drive vLLM's V0 LLMEngine loop, by a rule written before any row was priced with the term:
  a vllm row runs V0 where (1) its engine_version is a vLLM release before 0.7 (V1 first shipped in 0.7 as an opt-in,
  default from 0.8; every such row in the table is 0.5.x-0.6.x), or (2) it runs V0 multi-step (receive_interval > 1:
  num_scheduler_steps exists only in V0; AMD's and its partners' MLPerf vLLM rows, Krai's vllm065 row, AMD's and
  MangoBoost's MI355X rows, whose notes say V0 / VLLM_USE_V1 0), or (3) it is a row of AMD's 20250605 dev image
  (ROCMDD-20250605-*: vLLM 0.9.0.1, V0 by default, docs/amd-dev-docker.md), or (4) it is an Argonne H100 row (ARG-H100-*:
  0.5.3-0.6.0). Every other row keeps the column empty (the profile's own loop: V1 for vLLM's profiles; the 20250715
  image, Krai 0.9.x, InferenceMAX, Red Hat rows). Adds the column (at the end) if absent; idempotent; prints the ids
  set. Run from the repository root."""

import re

from csv_rows import load, save

PATH = "tables/measurements.csv"


def release_before_0_7(version):
    m = re.match(r"\s*(\d+)\.(\d+)", version)
    return bool(m) and (int(m.group(1)), int(m.group(2))) < (0, 7)


def runs_v0(row):
    if row["engine"] != "vllm":
        return False
    ri = row["receive_interval"].strip()
    return (release_before_0_7(row["engine_version"]) or (ri != "" and float(ri) > 1.0)
            or row["id"].startswith("ROCMDD-20250605-") or row["id"].startswith("ARG-H100-"))


def main():
    rows = load(PATH)
    head = rows[0]
    if "host_loop" not in head:
        head.append("host_loop")
        for r in rows[1:]:
            if r:
                r.append("")
    col = head.index("host_loop")
    ids = []
    for r in rows[1:]:
        if not r:
            continue
        row = dict(zip(head, r))
        r[col] = "v0" if runs_v0(row) else ""
        if r[col]:
            ids.append(r[0])
    save(PATH, rows)
    print(f"{len(ids)} rows host_loop v0:")
    for i in ids:
        print(" ", i)


if __name__ == "__main__":
    main()
