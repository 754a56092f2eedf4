#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional column `expert_routing` (how a run chose each token's experts) from each
row's own launch source, and appends the source to the row's notes (once).

The rule (read by hand, session 53; the sources, at the commits the rows' notes cite):
- AMD's MI355X SGLang disaggregated runs (notes cite billishyahao/sglang_disagg @22ad2937): sglang_disagg_server.sh
  line 51 puts `--ep-dispatch-algorithm fake` in MODEL_BASE_CONFIGS, both pools; line 63 adds `--moe-a2a-backend mori`
  only where the pool runs DP attention (MODEL_DP_CONFIGS). In the image's SGLang (HaiShaw/sglang@00e3e6ea3)
  `DeepseekV2MoE.forward` takes `forward_deepep` only with an all-to-all backend (deepseek_v2.py l.758-760, 770-801),
  and only that path passes `ExpertLocationDispatchInfo.init_new` to `select_experts` (l.991-998), whose
  `transform_select_experts_inputs` then draws the logits uniformly (eplb/expert_location_dispatch.py l.64-73).
  So DEP pools (dp > 1) route `uniform`; TEP pools (dp 1, `forward_normal`, no dispatch info) the `model`'s router.
  A row whose two pools differ is refused (one column cannot carry both).
- InferenceMAX aggregated SGLang rows (notes cite benchmarks/dsr1_*_docker.sh or _slurm.sh of SemiAnalysisAI/InferenceX):
  no script sets --ep-dispatch-algorithm (SGLang's default None: the model's router) -> `model`.
- Every other row: empty (not read).

`--mirror GIT_DIR` (billishyahao/sglang_disagg's) re-reads lines 51 and 63 of the script at 22ad2937 and refuses if
they no longer say so. `--self-test` checks the row rule on made-up rows (no table read or written).
Run from the repository root: python3 tables/scripts/fill_expert_routing.py [--mirror GIT_DIR]
"""
import subprocess
import sys

from csv_rows import insert_columns, load, save

PATH = "tables/measurements.csv"
DISAGG = "sglang_disagg @22ad2937"
DISAGG_COMMIT = "22ad2937fe223590d0a73e340a25effd2f09ed3a"
AGG_SCRIPTS = ("benchmarks/dsr1_fp8_", "benchmarks/dsr1_fp4_")
NOTE_MARK = "expert routing:"
NOTE_UNIFORM = (
    " expert routing: uniform (session 53): the launch sets --ep-dispatch-algorithm fake on both pools "
    "(billishyahao/sglang_disagg @22ad2937 sglang_disagg_server.sh l.51, MODEL_BASE_CONFIGS) and, with DP attention, "
    "--moe-a2a-backend mori (l.63), so SGLang's forward_deepep passes ExpertLocationDispatchInfo to select_experts, whose "
    "transform_select_experts_inputs overwrites the router logits with uniform_(5, 10) and zeroes the correction bias "
    "(HaiShaw/sglang@00e3e6ea3 python/sglang/srt/eplb/expert_location_dispatch.py l.64-73, models/deepseek_v2.py "
    "l.758-760, 991-998): each token's experts drawn uniformly at random, no router skew (routing_cv 0)."
)
NOTE_TEP = (
    " expert routing: model (session 53): the launch sets --ep-dispatch-algorithm fake (billishyahao/sglang_disagg "
    "@22ad2937 sglang_disagg_server.sh l.51) but no all-to-all backend without DP attention (l.63), so SGLang runs "
    "forward_normal, which passes no ExpertLocationDispatchInfo to select_experts (HaiShaw/sglang@00e3e6ea3 "
    "models/deepseek_v2.py l.778-799, 857): the flag is inert, the model's router chooses."
)
NOTE_AGG = (
    " expert routing: model (session 53): the InferenceX launch script sets no --ep-dispatch-algorithm "
    "(SGLang's default None: the model's router)."
)
USAGE = "usage: fill_expert_routing.py [--mirror GIT_DIR] | --self-test"


def routing_of(row):
    """(value, note) for a row given as a dict of the columns read; ("", "") where no launch source was read."""
    if row["engine"] != "sglang":
        return "", ""
    notes = row["notes"]
    if DISAGG in notes:
        dep = [row["dp"] not in ("", "1"), row["prefill_dp"] not in ("", "1")]
        if dep[0] != dep[1]:
            sys.exit(f"{row['id']}: prefill and decode pools differ in DP attention; one column cannot carry both")
        return ("uniform", NOTE_UNIFORM) if dep[0] else ("model", NOTE_TEP)
    if "InferenceX" in notes and any(s in notes for s in AGG_SCRIPTS):
        return "model", NOTE_AGG
    return "", ""


def verify(mirror):
    text = subprocess.run(["git", "--git-dir", mirror, "show", f"{DISAGG_COMMIT}:sglang_disagg_server.sh"],
                          check=True, capture_output=True, text=True).stdout.split("\n")
    if "--ep-dispatch-algorithm fake" not in text[50] or "MODEL_BASE_CONFIGS" not in text[49]:
        sys.exit("sglang_disagg_server.sh l.51 no longer sets --ep-dispatch-algorithm fake in MODEL_BASE_CONFIGS")
    if "--moe-a2a-backend mori" not in text[62] or "--enable-dp-attention" not in text[62]:
        sys.exit("sglang_disagg_server.sh l.63 no longer pairs --moe-a2a-backend mori with --enable-dp-attention")


def self_test():
    base = {"id": "r", "engine": "sglang", "dp": "8", "prefill_dp": "8", "notes": "x " + DISAGG + " y"}
    assert routing_of(base)[0] == "uniform"
    assert routing_of(dict(base, dp="1", prefill_dp="1"))[0] == "model"
    assert routing_of(dict(base, engine="vllm"))[0] == ""
    assert routing_of(dict(base, notes="InferenceX benchmarks/dsr1_fp8_b200_docker.sh"))[0] == "model"
    assert routing_of(dict(base, notes="somewhere else"))[0] == ""
    try:
        routing_of(dict(base, dp="1"))
        raise AssertionError("mixed pools not refused")
    except SystemExit as e:
        assert "pools differ" in str(e)
    print("self-test: ok")


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
        return
    if args and (len(args) != 2 or args[0] != "--mirror"):
        sys.exit(USAGE)
    if args:
        verify(args[1])
    rows = load(PATH)
    head = rows[0]
    insert_columns(rows, ("expert_routing",), fill="", before=None)
    col, notes = head.index("expert_routing"), head.index("notes")
    counts = {}
    for r in rows[1:]:
        value, note = routing_of(dict(zip(head, r)))
        r[col] = value
        if value and NOTE_MARK not in r[notes]:
            r[notes] = r[notes].rstrip() + note
        counts[value] = counts.get(value, 0) + 1
    save(PATH, rows)
    summary = ", ".join(f"{v or 'empty'} {n}" for v, n in sorted(counts.items()))
    print(f"{PATH}: expert_routing {summary}")


if __name__ == "__main__":
    main()
