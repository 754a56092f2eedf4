#!/usr/bin/env python3
"""Session 42 (docs/first-use-build.md): a cold benchmark run's first-use kernel build.

Fills, idempotently (run from the repository root, then `python3 tables/scripts/engines_catalog_sync.py`):

1. tables/measurements.csv column `first_use_build` (added at the end if absent, empty on every row): what makes the
   row's cold server build a kernel at first use, from its image, launch flags and client (the trigger words of
   `llmcost::first_use_trigger`), and a sentence in the row's `notes` naming the sources:
   - `prefix_extend`: SGLang's v0.5.6 release image lmsysorg/sglang:v0.5.6-cu129-amd64 on B200, launched with
     `--attention-backend trtllm_mla --disable-radix-cache` (SemiAnalysisAI/InferenceX @2c679ab9
     benchmarks/dsr1_fp8_b200_docker.sh, dsr1_fp4_b200_docker.sh): the first prompt step carrying a chunked prompt's
     continuation plans FlashInfer's ragged-prefill wrapper, whose plan() nvcc-builds the CUTLASS SM100 FMHA module
     (sgl-project/sglang @7ae368efd python/sglang/srt/models/deepseek_v2.py:391-398, 2681-2705;
     python/sglang/srt/layers/attention/trtllm_mla_backend.py:223, 633; flashinfer_mla_backend.py:100-151, 246-249;
     flashinfer-ai/flashinfer @v0.5.3 flashinfer/prefill.py:67-98); the release image has no flashinfer-jit-cache
     (sglang @7ae368efd docker/Dockerfile:19, 132-134; .github/workflows/release-docker.yml:51-60).
   - `moe_sort_switch`: SGLang's MI355X (gfx950) ROCm image v0.5.7, built without AITER's prebuilt kernels
     (sgl-project/sglang 5a8adca90 docker/rocm.Dockerfile `BUILD_AITER_ALL="0"` for gfx950, 2025-11-26, reverted by
     d94d0af57, 2026-02-10) at AITER v0.1.9.post1 (sglang@820e97d6c docker/rocm.Dockerfile:43, 45, the gfx950 stage;
     :34 is the gfx942-rocm700 stage's pin, the same tag), MXFP4 experts reaching AITER's fused_moe with per_1x32
     and Silu (sglang@820e97d6c python/sglang/srt/layers/quantization/quark/quark_moe.py:233-247), a client whose single test prompt (the first of
     the dataset's prompts, run alone before the timed run: kimbochen/bench_serving@406abc35 benchmark_serving.py;
     no warm-up before SemiAnalysisAI/InferenceX d053ae24e) has at most 1,024 tokens: the first prompt step of more
     than 1,024 tokens is the first MoE forward on AITER's separate MXFP4 quant + sort path
     (ROCm/aiter@v0.1.9.post1 aiter/fused_moe.py fused_moe_2stages, `token_num_quant_moe_sort_switch = 1024`).
     A test prompt longer than 1,024 tokens (the 8k rows: at least 0.8 x 8,192 = 6,554) ran that path first: `none`.
   - `none`: the MI355X FP8 rows on v0.5.5.post3 (7b2fb3d47, before the prebuild was turned off), and the MXFP4
     rows whose test prompt is longer than 1,024 tokens.
   Every row is checked against what its note claims (image, launch flags, model, weights, a client from the
   InferenceMAX artifacts that predate d053ae24e's warm-up); a row on a trigger's image that fails a check is `none`,
   the reason printed. The v0.5.6.post1/post2 MI355X images (prebuild off too, AITER pin not read) are `none` so.
   Every other row: empty (none).
2. tables/engines.csv column `first_use_build_s` (added before `source` if absent, 0 on every row): the stall S of
   SGLang on Blackwell and SGLang on CDNA4 (ROCm), fitted by the validation tool (`fit_first_use_builds`,
   tables/validation.md "A cold run's first-use kernel build"), their source sentence appended once (an earlier
   wording replaced from its marker to this script's name).

  python3 tables/scripts/first_use_build.py
"""

import sys

from csv_rows import insert_columns, load, replace_marked, row_named, save

MEASUREMENTS, ENGINES = "tables/measurements.csv", "tables/engines.csv"
ROW_COLUMN, ENGINE_COLUMN = "first_use_build", "first_use_build_s"

B200_IMAGE = "lmsysorg/sglang:v0.5.6-cu129-amd64"
# The B200 chain needs both flags in the row's recorded launch flags (InferenceX @2c679ab9 dsr1_fp*_b200_docker.sh).
B200_FLAGS = ("--attention-backend trtllm_mla", "--disable-radix-cache")
# Models whose attention is MLA (catalog/: DeepSeek-V3's architecture), the only ones deepseek_v2.py's
# MHA_CHUNKED_KV dispatch (sglang @7ae368efd python/sglang/srt/models/deepseek_v2.py:391-398) serves.
MLA_MODELS = ("DeepSeek-V3",)
# The AITER-JIT gfx950 image whose AITER pin is cited: v0.5.7, built while sgl-project/sglang docker/rocm.Dockerfile
# set the gfx950 stage to BUILD_AITER_ALL="0" (:43) and AITER_COMMIT="v0.1.9.post1" (:45) (@820e97d6c, 2026-01-07;
# :34 is the gfx942-rocm700 stage's pin, the same tag). SGLang's MXFP4 MoE reaches AITER's fused_moe with
# QuantType.per_1x32 and Silu (sglang@820e97d6c python/sglang/srt/layers/quantization/quark/quark_moe.py:233-247).
MI355X_JIT_IMAGES = ("lmsysorg/sglang:v0.5.7-rocm700-mi35x",)
# Also built with BUILD_AITER_ALL="0" (5a8adca90 .. d94d0af57), but their AITER pin is not read: no rule, `none`.
MI355X_JIT_UNPINNED_IMAGES = ("lmsysorg/sglang:v0.5.6.post1-rocm700-mi35x", "lmsysorg/sglang:v0.5.6.post2-rocm700-mi35x")
MI355X_PREBUILT_IMAGES = ("lmsysorg/sglang:v0.5.5.post3-rocm700-mi35x",)
AITER_SWITCH = 1024  # ROCm/aiter@v0.1.9.post1 aiter/fused_moe.py:890: token_num_quant_moe_sort_switch (<= 1024: fused)
# A client with no warm-up (a single test prompt, then the timed run): the InferenceMAX artifacts stored in
# gminneci/mantile were all committed in 1d3c259 (2026-01-19), before SemiAnalysisAI/InferenceX d053ae24e
# (2026-01-21) added the 2 x concurrency warm-up that would absorb the build (benchmarks/benchmark_lib.sh:248).
PRE_WARMUP_SOURCE = ("github.com/gminneci/mantile @72ff84ebfd56ee0b15bd17d7d49a70fbb4e50256 "
                     "reconcile/sources/inferencemax/raw/run_")

# The fitted stall (s) a profile carries: tables/validation.md, "A cold run's first-use kernel build". "0": the rule
# finds the build not systematic there (a triggered run that did not stall; session 42, fix C).
FITTED = {"SGLang on Blackwell": "0", "SGLang on CDNA4 (ROCm)": "21.64"}

ROW_MARKER = "; first_use_build "
ROW_END = "(tables/scripts/first_use_build.py)"
PREFIX_NOTE = (
    ROW_MARKER + "prefix_extend (session 42, docs/first-use-build.md): the release image has no flashinfer-jit-cache "
    "(sgl-project/sglang @7ae368efd docker/Dockerfile:19, 132-134) and the run uses --attention-backend trtllm_mla "
    "--disable-radix-cache (SemiAnalysisAI/InferenceX @2c679ab9 benchmarks/dsr1_fp8_b200_docker.sh, "
    "dsr1_fp4_b200_docker.sh), so the first prompt step carrying a chunked prompt's continuation nvcc-builds "
    "FlashInfer's CUTLASS SM100 FMHA module (sglang @7ae368efd python/sglang/srt/layers/attention/"
    "flashinfer_mla_backend.py:100-151; flashinfer-ai/flashinfer @v0.5.3 flashinfer/prefill.py:67-98) "
    + ROW_END)
SWITCH_NOTE = (
    ROW_MARKER + "moe_sort_switch (session 42, docs/first-use-build.md): the gfx950 image was built without AITER's "
    "prebuilt kernels (sgl-project/sglang 5a8adca90 docker/rocm.Dockerfile, BUILD_AITER_ALL 0 from 2025-11-26 to "
    "d94d0af57) at AITER v0.1.9.post1 (sglang@820e97d6c docker/rocm.Dockerfile:43, 45, the gfx950 stage), SGLang's "
    "MXFP4 MoE calls AITER's fused_moe with QuantType.per_1x32 and Silu (sglang@820e97d6c "
    "python/sglang/srt/layers/quantization/quark/quark_moe.py:233-247) and the client's single test prompt has at most {max} tokens (kimbochen/bench_serving@406abc35 "
    "benchmark_serving.py; no warm-up before SemiAnalysisAI/InferenceX d053ae24e), so the first prompt step of more "
    "than 1,024 tokens is the first on AITER's separate MXFP4 quant + sort path (ROCm/aiter@v0.1.9.post1 "
    "aiter/fused_moe.py:890 fused_moe_2stages, token_num_quant_moe_sort_switch = 1024; a forward of at most 1,024 "
    "tokens takes the fused path, so a test prompt of exactly 1,024 tokens, the longest draw, does too unless the "
    "server adds a token) " + ROW_END)
NONE_NOTE = (
    ROW_MARKER + "none (session 42, docs/first-use-build.md): {why} " + ROW_END)

ENGINE_MARKER = "; first_use_build_s "
ENGINE_END = "(tables/scripts/first_use_build.py)"
ENGINE_NOTE = (
    ENGINE_MARKER + "{s} (session 42, docs/first-use-build.md; fitted, not published): a cold benchmark run's "
    "first-use kernel build, paid once at the first prompt step that meets the run's trigger (tables/measurements.csv "
    "first_use_build), fitted with plan::calibrate on the TTFT means of a rule-chosen third of the stalled runs "
    "(tables/validation.md, A cold run's first-use kernel build) " + ENGINE_END)
ENGINE_NOTE_ZERO = (
    ENGINE_MARKER + "0 (session 42, docs/first-use-build.md): the runs' rows keep their first-use build trigger as "
    "data, but not every triggered run stalled (the stall is probabilistic, INFERRED a JIT cache kept by some runners), "
    "so the rule does not fit S and it stays 0 (tables/validation.md, A cold run's first-use kernel build) " + ENGINE_END)


def image_of(version):
    """The image tag in an engine_version cell '0.5.7 (image lmsysorg/sglang:...)'; empty if none."""
    if "(image " not in version:
        return ""
    return version.split("(image ", 1)[1].split(")", 1)[0].strip()


def set_note(row, col, note):
    """Appends `note` to the row's notes once; an earlier wording (from the marker to the script's name) replaced."""
    row[col] = replace_marked(row[col], ROW_MARKER, ROW_END, note)


def launch_notes(r, c):
    """The row's notes before this script's sentence (the recorded launch flags live there)."""
    return r[c["notes"]].split(ROW_MARKER, 1)[0]


def refuse_to_none(r, c, why):
    """A row on a trigger's image that fails one of its checks: `none`, the reason printed."""
    print(f"{MEASUREMENTS}: {r[c['id']]}: first_use_build none: {why}")
    return "none", NONE_NOTE.format(why=why)


def trigger(r, c):
    """(word, note) for one row of measurements.csv; ("", None) where the script does not speak."""
    if r[c["engine"]] != "sglang" or r[c["prefill_workers"]] not in ("", "0") or not r[c["prompts"]]:
        return "", None
    image = image_of(r[c["engine_version"]])
    if r[c["hardware"]].startswith("B200") and image == B200_IMAGE:
        if r[c["model"]] not in MLA_MODELS:
            return refuse_to_none(r, c, f"model {r[c['model']]} is not an MLA model ({', '.join(MLA_MODELS)}), so "
                                        "trtllm_mla's chunked-KV prefill does not serve it")
        flags = launch_notes(r, c)
        missing = [f for f in B200_FLAGS if f not in flags]
        if missing:
            return refuse_to_none(r, c, f"the row's launch flags lack {', '.join(missing)}")
        if not r[c["source"]].startswith(PRE_WARMUP_SOURCE):
            return refuse_to_none(r, c, "the row's client is not shown to predate the warm-up of "
                                        "SemiAnalysisAI/InferenceX d053ae24e")
        return "prefix_extend", PREFIX_NOTE
    if r[c["hardware"]] == "MI355X" and image in MI355X_PREBUILT_IMAGES:
        return "none", NONE_NOTE.format(why="the image predates the gfx950 AITER prebuild switch-off "
                                            "(sgl-project/sglang 7b2fb3d47 before 5a8adca90): its kernels are prebuilt")
    if r[c["hardware"]] == "MI355X" and image in MI355X_JIT_UNPINNED_IMAGES:
        return refuse_to_none(r, c, f"image {image}: its AITER pin is not read, so the switch is not known")
    if r[c["hardware"]] == "MI355X" and image in MI355X_JIT_IMAGES:
        if r[c["weights"]] != "mxfp4":
            return refuse_to_none(r, c, f"{r[c['weights']]} weights: the switch is on AITER's MXFP4 (per_1x32) path")
        if not r[c["source"]].startswith(PRE_WARMUP_SOURCE):
            return refuse_to_none(r, c, "the row's client is not shown to predate the warm-up of "
                                        "SemiAnalysisAI/InferenceX d053ae24e")
        # The dataset's longest prompt: the mean is (ratio + 1) / 2 of it (bench_serving's random dataset).
        ratio, mean = float(r[c["range_ratio"]]), float(r[c["input_tokens"]])
        longest = round(2 * mean / (1 + ratio))
        shortest = ratio * longest
        # A longest prompt of exactly 1,024 (the 1k rows) sits on the switch: <= 1,024 takes the fused path, so the
        # test prompt (one draw in [819, 1,024]) reads as fused unless the server adds a token (BOS, re-tokenizing).
        if longest <= AITER_SWITCH:
            return "moe_sort_switch", SWITCH_NOTE.format(max=f"{longest:,}")
        if shortest > AITER_SWITCH:
            return "none", NONE_NOTE.format(
                why=f"the client's single test prompt has at least {shortest:,.0f} tokens, more than AITER's 1,024-token "
                    "MXFP4 quant + sort switch (ROCm/aiter@v0.1.9.post1 aiter/fused_moe.py fused_moe_2stages), so it "
                    "ran that path before the timed run")
        sys.exit(f"{MEASUREMENTS}: {r[c['id']]}: test prompt {shortest:.0f}-{longest} tokens straddles 1,024; refused")
    return "", None


def main():
    rows = load(MEASUREMENTS)
    h = rows[0]
    insert_columns(rows, (ROW_COLUMN,), fill="", before=None)
    c = {name: i for i, name in enumerate(h)}
    counts = {}
    for r in rows[1:]:
        if not r:
            continue
        word, note = trigger(r, c)
        r[c[ROW_COLUMN]] = word
        if note:
            set_note(r, c["notes"], note)
            counts[word] = counts.get(word, 0) + 1
    save(MEASUREMENTS, rows)
    print(f"{MEASUREMENTS}: {ROW_COLUMN}: " + ", ".join(f"{k} on {v} rows" for k, v in sorted(counts.items())))

    rows = load(ENGINES)
    h = rows[0]
    insert_columns(rows, (ENGINE_COLUMN,))
    src, col = h.index("source"), h.index(ENGINE_COLUMN)
    for name, s in FITTED.items():
        r = row_named(rows, name, ENGINES)
        r[col] = s
        note = ENGINE_NOTE_ZERO if s == "0" else ENGINE_NOTE.format(s=s)
        r[src] = replace_marked(r[src], ENGINE_MARKER, ENGINE_END, note)
    save(ENGINES, rows)
    print(f"{ENGINES}: {ENGINE_COLUMN}: " + ", ".join(f"{n} {s} s" for n, s in FITTED.items()))


if __name__ == "__main__":
    main()
