#!/usr/bin/env python3
"""Session 45 part T (docs/mi300x-decode-gemm.md): AMD's tuned MI300X GEMM times at the TP8 decode shapes of
Llama-3.1-70B and 405B as check rows (kind linear, fitted no) of tables/microbenchmarks.csv, B106.

Source: ROCm/aiter aiter/configs/a8w8_tuned_gemm.csv, the `cu_num = 304` (MI300X) rows, read from the bare mirror
(/work/.mirror/ROCm+aiter/repo, override with AITER_MIRROR) at fbb52ddfad72ce1fb0c65b842cbc5edc4fbfecde (the head of
aiter PR #1094: the rows re-timed, with tflops / bw columns), cross-checked against
035725098db2d65f8d5757d6c8488c6176b00b93 (the head of PR #1092, "[MI300X] tune gemm config for llama 70b/405b"); a
file whose git blob differs from the one named below is refused. Neither commit is on aiter main.
The kernel is AITER's CK `a8w8_rowwise`, tuned on INT8 data (csrc/ck_gemm_a8w8/gemm_a8w8_tune.py generate_data:
torch.randint, dtypes.i8), split-K off (splitK 0 in every row), cold-cache inputs (aiter/test_common.py perftest
rotates copies of the inputs past the cache).

Each row: m x n x k = M x N x K of the file (n the output width, k the input width, as B67 / B101), value 2MNK / t in
TFLOP/s (4 significant figures), PR #1092's time beside it in the notes. Sets the rows by id (upsert: appends the
absent, replaces the present; re-running changes nothing), and docs/sources.md's B106 line (replace_marked: an
earlier wording from its marker to its end replaced; inserted after the B105 line where absent). Prints each row and
the two commits' per-shape difference. Run from the repository root:

  python3 tables/scripts/mi300x_decode_gemm_rows.py
"""

import os
import subprocess
import sys

from csv_rows import load, replace_marked, save, upsert_rows

TABLE = "tables/microbenchmarks.csv"
SOURCES = "docs/sources.md"
MIRROR = os.environ.get("AITER_MIRROR", "/work/.mirror/ROCm+aiter/repo")
PATH = "aiter/configs/a8w8_tuned_gemm.csv"
COMMIT = "fbb52ddfad72ce1fb0c65b842cbc5edc4fbfecde"  # PR #1094's head: the rows used
BLOB = "8e914ffb8c62437d376401d141b2b49c0b73b7bd"
CHECK_COMMIT = "035725098db2d65f8d5757d6c8488c6176b00b93"  # PR #1092's head: the cross-check
CHECK_BLOB = "55179db28287e4f6f0d6f7fecd3a4ff60b260f9d"
CU_NUM = "304"  # MI300X (MI308X is 80, MI355X 256 in the same file)
PREFIX = "B106"
MS = (1, 16, 32, 64, 128, 256)
# (model, layer, N output, K input): Llama-3.1-70B and 405B under TP8
SHAPES = [
    ("70B", "qkv", 1280, 8192), ("70B", "o", 8192, 1024), ("70B", "gate_up", 7168, 8192), ("70B", "down", 8192, 3584),
    ("405B", "qkv", 2304, 16384), ("405B", "o", 16384, 2048), ("405B", "gate_up", 13312, 16384),
    ("405B", "down", 16384, 6656),
]
LAYER = {"qkv": "QKV", "o": "attention output", "gate_up": "gate_up", "down": "down"}

SOURCE_MARKER = "| B106 | "
SOURCE_END = "(ROCm/aiter) |"
SOURCE_LINE = (
    SOURCE_MARKER + "AITER's CK `a8w8_rowwise` GEMM tuned on MI300X (`cu_num = 304` rows of "
    "`aiter/configs/a8w8_tuned_gemm.csv`) at Llama-3.1-70B and 405B's TP8 decode shapes (QKV, attention output, "
    "gate_up, down) at M = 1, 16, 32, 64, 128, 256: timed on INT8 data (INFERRED carry-over to FP8: MI300X's INT8 and "
    "FP8 MFMA peaks are equal, the bytes the same), split-K off, cold-cache weights; on PR heads that never reached "
    "aiter main; not the kernel vLLM 0.9 runs (hipBLASLt through torch._scaled_mm at M >= 2, wvSplitKQ at M = 1): a "
    "stand-in; not fitted: checks MI300X's FP8 curve and 4.15 TB/s floor at decode shapes (docs/mi300x-decode-gemm.md) "
    "| {lo}–{hi} TFLOP/s | `aiter/configs/a8w8_tuned_gemm.csv` @fbb52ddf… (PR #1094's head; cross-checked @03572509…, "
    "PR #1092's head) " + SOURCE_END)


def git(*args):
    return subprocess.run(["git", "-C", MIRROR, *args], check=True, capture_output=True, text=True).stdout


def times(commit, blob):
    """{(M, N, K): (us, kernelName, splitK)} of the file's cu_num 304 rows at `commit`; refused where its blob is not
    `blob` or a key repeats."""
    got = git("rev-parse", f"{commit}:{PATH}").strip()
    if got != blob:
        sys.exit(f"{PATH} @{commit}: blob {got}, expected {blob}; refused")
    lines = git("show", f"{commit}:{PATH}").splitlines()
    head = lines[0].split(",")
    c = {name: i for i, name in enumerate(head)}
    out = {}
    for line in lines[1:]:
        f = line.split(",")
        if f[c["cu_num"]] != CU_NUM:
            continue
        key = (int(f[c["M"]]), int(f[c["N"]]), int(f[c["K"]]))
        if key in out:
            sys.exit(f"{PATH} @{commit}: two cu_num {CU_NUM} rows at M, N, K = {key}; refused")
        out[key] = (float(f[c["us"]]), f[c["kernelName"]], f[c["splitK"]])
    return out


def sig4(x):
    """x to 4 significant figures, without an exponent."""
    digits = max(0, 4 - len(str(int(abs(x)))) + (1 if abs(x) < 1 else 0))
    return f"{x:.{digits}f}"


def rows_to_set(main, check):
    out = []
    for model, layer, n, k in SHAPES:
        for m in MS:
            if (m, n, k) not in main:
                sys.exit(f"{PATH} @{COMMIT}: no cu_num {CU_NUM} row at M {m}, N {n}, K {k}; refused")
            us, kernel, split = main[(m, n, k)]
            if split != "0":
                sys.exit(f"{PATH} @{COMMIT}: M {m}, N {n}, K {k} has splitK {split}, the notes say split-K off; refused")
            tflops = 2.0 * m * n * k / (us * 1e-6) / 1e12
            other = check.get((m, n, k))
            cross = (f"PR #1092's head @{CHECK_COMMIT[:10]}: {other[0]:g} us ({(other[0] / us - 1) * 100:+.0f}%)" if other
                     else f"PR #1092's head @{CHECK_COMMIT[:10]} has no row at this shape")
            notes = (
                f"AITER's CK a8w8_rowwise kernel ({kernel}, splitK 0) tuned on MI300X (cu_num 304): {us:g} us at M {m}, "
                f"N {n}, K {k} (Llama-3.1-{model} TP8 {LAYER[layer]}, {k} -> {n}); {cross}; timed on INT8 data "
                f"(csrc/ck_gemm_a8w8/gemm_a8w8_tune.py generate_data: torch.randint, i8): MI300X's INT8 and FP8 MFMA "
                f"peaks are equal and the bytes the same, so the carry-over to FP8 is INFERRED; split-K off; cold-cache "
                f"weights (aiter/test_common.py perftest rotates input copies past the cache); the rows are on PR heads "
                f"(#1094, #1092) that never reached aiter main; not the kernel vLLM 0.9 runs at M >= 2 (torch._scaled_mm "
                f"-> hipBLASLt, ROCm/vllm@4fee53d7 vllm/model_executor/layers/quantization/utils/w8a8_utils.py "
                f"214-233) nor at M = 1 (wvSplitKQ): a stand-in; not fitted: checks MI300X's FP8 curve and weight "
                f"stream at decode shapes, priced as a linear layer (no TensorRT-LLM profile on CDNA3: the hardware's "
                f"curve, default kernel factors) (docs/mi300x-decode-gemm.md)")
            out.append([f"{PREFIX}-{model}-{layer}-m{m}", "linear", "MI300X", "fp8", f"{m}x{n}x{k}", sig4(tflops),
                        "TFLOP/s", "no", f"github.com/ROCm/aiter {PATH} @{COMMIT}", notes])
    return out


def set_sources(lo, hi):
    text = open(SOURCES).read()
    line = SOURCE_LINE.format(lo=lo, hi=hi)
    if SOURCE_MARKER in text:
        text = replace_marked(text, SOURCE_MARKER, SOURCE_END, line)
    else:
        at = text.index("| B105 | ")
        at = text.index("\n", at) + 1
        text = text[:at] + line + "\n" + text[at:]
    text = text.replace("B101–B105)", "B101–B106)")
    open(SOURCES, "w").write(text)


def main():
    used = times(COMMIT, BLOB)
    check = times(CHECK_COMMIT, CHECK_BLOB)
    rows = load(TABLE)
    new = rows_to_set(used, check)
    upsert_rows(rows, new)
    save(TABLE, rows)
    values = [float(r[5]) for r in new]
    set_sources(sig4(min(values)), sig4(max(values)))
    for r in new:
        print(f"{r[0]} {r[4]} {r[5]} TFLOP/s")
    for model, layer, n, k in SHAPES:
        diffs = [check[(m, n, k)][0] / used[(m, n, k)][0] - 1 for m in MS if (m, n, k) in check]
        print(f"{model} {layer}: PR #1092 vs #1094 time {min(diffs) * 100:+.1f}% .. {max(diffs) * 100:+.1f}% "
              f"({len(diffs)} of {len(MS)} M)")
    for m in MS:
        for model in ("70B", "405B"):
            keys = [(m, n, k) for mo, _, n, k in SHAPES if mo == model]
            a = sum(used[key][0] for key in keys)
            b = sum(check[key][0] for key in keys) if all(key in check for key in keys) else float("nan")
            print(f"{model} M {m}: per-layer sum {a:.1f} us (PR #1092: {b:.1f} us)")


if __name__ == "__main__":
    main()
