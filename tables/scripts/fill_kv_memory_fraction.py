#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional column `kv_memory_fraction` from the launch flags each
row's `notes` already record (docs/kv-pool.md):

  SGLang        --mem-fraction-static F
  vLLM          --gpu-memory-utilization F
  TensorRT-LLM  free_gpu_memory_fraction F / kv_cache_free_gpu_mem_fraction F (trtllm-serve extra options)

The rule, written before the fill: a row gets F only where its own `notes` state the flag of its own
engine with a number; a figure the text calls "typical" or "in many cases" (the TensorRT-LLM
perf-overview rows' `source`) is not a launch flag of that run and stays empty (the engine's default).
A row whose notes state two different figures is refused. Run from the repository root; rewrites the
file in place, leaving every other cell byte for byte as it was.
"""


import re
import sys

from csv_rows import load, save

PATH = "tables/measurements.csv"
FLAGS = {
    "sglang": re.compile(r"--mem-fraction-static\s+([01]?\.\d+|1)\b"),
    "vllm": re.compile(r"--gpu-memory-utilization\s+([01]?\.\d+|1)\b"),
    "trtllm": re.compile(r"\b(?:kv_cache_)?free_gpu_mem(?:ory)?_fraction\s+([01]?\.\d+|1)\b"),
}
HEDGES = re.compile(r"typical|in many cases", re.I)


def main():
    rows = load(PATH)
    head = rows[0]
    if "kv_memory_fraction" not in head:
        head.append("kv_memory_fraction")
        for r in rows[1:]:
            r.append("")
    col, eng, notes = head.index("kv_memory_fraction"), head.index("engine"), head.index("notes")
    filled = 0
    for line, r in enumerate(rows[1:], start=2):
        flag = FLAGS.get(r[eng])
        found = set()
        if flag:
            for m in flag.finditer(r[notes]):
                window = r[notes][max(0, m.start() - 40):m.end() + 40]
                if not HEDGES.search(window):
                    found.add(float(m.group(1)))
        if len(found) > 1:
            sys.exit(f"{PATH}:{line}: notes state {sorted(found)} for {r[eng]}'s memory fraction; fix the notes")
        r[col] = f"{found.pop():g}" if found else ""
        filled += bool(r[col])
    save(PATH, rows)
    print(f"{PATH}: kv_memory_fraction filled on {filled} of {len(rows) - 1} rows")


if __name__ == "__main__":
    main()
