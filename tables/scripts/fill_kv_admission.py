#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional column `kv_admission` (the run's KV admission policy) from the
configuration each row's harness published (docs/paged-kv-blocks.md, "Admission on the KV in use").

The rule, written before the fill: a TensorRT-LLM row run by NVIDIA's MLPerf Inference v5.1 harness gets `in_use`
where the harness config of its submitter, system, scenario and model sets `batch_scheduler_policy: 'max_util'`,
which the harness maps to TensorRT-LLM's CapacitySchedulerPolicy.MAX_UTILIZATION (closed/NVIDIA/code/llmlib/cores/
trtllm_executor_core.py and trtllm_hlapi_core.py; the harness's own default, closed/NVIDIA/code/llmlib/config.py,
is 'max_util' as well). Every config below was read with `git show` on github.com/mlcommons/inference_results_v5.1
@965182b03376a00fcae415c54e560e1c83937932 (and is checked again with --mirror GIT_DIR). Every other row stays empty
(its engine's rule): rows whose config was not read here (MLPerf v4.1 P01/P02, v6.0 ML60-*, Krai's open TensorRT-LLM
rows, which run their own harness) are left to the engine's default.

Run from the repository root; rewrites the file in place, every other cell byte for byte as it was; a second run
changes nothing. `--mirror GIT_DIR` re-reads each config from a clone of that repository and refuses a config that
does not say max_util.
"""

import subprocess
import sys

from csv_rows import insert_columns, load, save

PATH = "tables/measurements.csv"
COMMIT = "965182b03376a00fcae415c54e560e1c83937932"
# row-id prefix -> (submitter/configs/system, the harness's model file); the scenario comes from the id
# (-off Offline, -ser- Server, -int- Interactive).
SYSTEMS = {
    "ML51-NV-B200-": "NVIDIA/configs/B200-SXM-180GBx8",
    "ML51-Google-B200-": "Google/configs/B200-SXM-180GBx8",
    "ML51-Nebius-B200-": "Nebius/configs/B200-SXM-180GBx8",
    "ML51-BcmSmc-B200-": "Broadcom_Supermicro/configs/vSYS-422GA-NBRT-B200-SXM-180GBx8",
    "ML51-NV-GB200x4-": "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x4",
    "ML51-NV-GB200x72-": "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72",
    "ML51-NV-GB300x72-": "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72_TRT",
}
MODELS = {"L2-70B": "llama2-70b", "L31-405B": "llama3_1-405b", "L31-8B": "llama3_1-8b", "DSR1": "deepseek-r1"}
# The configs read, each stating batch_scheduler_policy 'max_util' (the Llama-2-70B files twice: the 99 and
# 99.9 accuracy targets).
MAX_UTIL = {
    f"closed/{s}/{sc}/{m}.py"
    for s, ms in {
        "NVIDIA/configs/B200-SXM-180GBx8": ("llama2-70b", "llama3_1-405b", "llama3_1-8b", "deepseek-r1"),
        "Google/configs/B200-SXM-180GBx8": ("llama2-70b", "llama3_1-405b", "llama3_1-8b", "deepseek-r1"),
        "Nebius/configs/B200-SXM-180GBx8": ("llama2-70b", "llama3_1-405b"),
        "Broadcom_Supermicro/configs/vSYS-422GA-NBRT-B200-SXM-180GBx8": ("llama3_1-405b",),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x4": ("llama2-70b",),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72": ("deepseek-r1",),
        "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72_TRT": ("llama3_1-405b", "deepseek-r1"),
    }.items()
    for m in ms
    for sc in ("Offline", "Server", "Interactive")
}


def config_of(row_id):
    for prefix, system in SYSTEMS.items():
        if not row_id.startswith(prefix):
            continue
        rest = row_id[len(prefix):]
        model = next((f for k, f in MODELS.items() if rest.startswith(k + "-")), None)
        scenario = ("Offline" if rest.endswith("-off") else "Server" if "-ser-" in rest
                    else "Interactive" if "-int-" in rest else None)
        if model and scenario:
            return f"closed/{system}/{scenario}/{model}.py"
    return None


def main():
    mirror = sys.argv[sys.argv.index("--mirror") + 1] if "--mirror" in sys.argv else None
    rows = load(PATH)
    head = rows[0]
    insert_columns(rows, ("kv_admission",), fill="", before=None)
    col, eng = head.index("kv_admission"), head.index("engine")
    filled = 0
    for line, r in enumerate(rows[1:], start=2):
        r[col] = ""
        if r[eng] != "trtllm":
            continue
        path = config_of(r[0])
        if path is None:
            continue
        if path not in MAX_UTIL:
            sys.exit(f"{PATH}:{line}: {r[0]}: its config {path} was not read; read it and add it above")
        if mirror:
            text = subprocess.run(["git", "--git-dir", mirror, "show", f"{COMMIT}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
            if "'batch_scheduler_policy': 'max_util'" not in text:
                sys.exit(f"{PATH}:{line}: {r[0]}: {path} does not set batch_scheduler_policy 'max_util'")
        r[col] = "in_use"
        filled += 1
    save(PATH, rows)
    print(f"{PATH}: kv_admission in_use on {filled} of {len(rows) - 1} rows")


if __name__ == "__main__":
    main()
