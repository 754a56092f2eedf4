#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional column `kv_admission` (the run's KV admission policy) from the
configuration each row's harness published (docs/paged-kv-blocks.md, "Admission on the KV in use").

The rule, written before the fill: a TensorRT-LLM row run by NVIDIA's MLPerf Inference harness (v5.1 or v6.0) gets
`in_use` where the harness config of its submitter, system, scenario and model sets `batch_scheduler_policy:
'max_util'`, or sets no policy and the harness's own default at that commit is 'max_util' (closed/NVIDIA/code/llmlib/
config.py, TrtllmHarnessConfig.DEFAULT_RUNTIME_FLAGS). The harness maps that word to TensorRT-LLM's
CapacitySchedulerPolicy.MAX_UTILIZATION (closed/NVIDIA/code/llmlib/cores/trtllm_executor_core.py and
trtllm_hlapi_core.py; in v6.0 the endpoint cores write it as the extra YAML's scheduler_config
capacity_scheduler_policy, config.py). The configs were read with `git show` at two commits:
- MLPerf v5.1: github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932, every config
  stating 'max_util';
- MLPerf v6.0: github.com/gbeezybez/inference_results_v6.0 @232fbf90fceb1d55b633030556fb02deddb4517b (a public copy
  of mlcommons/inference_results_v6.0); the DeepSeek-R1 configs state 'max_util', the Llama-2-70B configs state no
  policy, so the default applies (config.py at that commit: 'max_util'; the model's DEFAULT_CORE_TYPE is the
  executor core, closed/NVIDIA/code/llama2-70b/tensorrt/__init__.py). The config folder is the result folder's
  system without its "_TRT" suffix (closed/NVIDIA/code/common/workload.py appends it to the system id).
Every other row stays empty (its engine's rule): rows whose config was not read here (MLPerf v4.1 P01/P02, Krai's
open TensorRT-LLM rows, which run their own harness) and rows not run by NVIDIA's harness (ML60-AMD-*, vLLM) are left
to the engine's default.

Run from the repository root; rewrites the file in place, every other cell byte for byte as it was; a second run
changes nothing. `--mirror GIT_DIR` (repeatable; give a clone of each repository above) re-reads each config, and the
harness default where the config states none, from the clone holding its commit, and refuses a config that does not
say max_util the way the table below records it, or a commit no given clone holds. A `--mirror` without a value, or
any other argument, is refused; so is a config the table says states no policy (DEFAULT) in which any spelling of a
scheduler-policy key appears (e.g. `capacity_scheduler_policy`, `batch_scheduler_policy=`): the harness default
applies only where the config sets nothing.

`python3 tables/scripts/fill_kv_admission.py --self-test` checks those refusals on made-up inputs (no table is read
or written, no clone needed) and prints "self-test: ok".
"""

import re
import subprocess
import sys

from csv_rows import insert_columns, load, save

PATH = "tables/measurements.csv"
V51 = "965182b03376a00fcae415c54e560e1c83937932"  # mlcommons/inference_results_v5.1
V60 = "232fbf90fceb1d55b633030556fb02deddb4517b"  # gbeezybez/inference_results_v6.0
# row-id prefix -> (commit, submitter/configs/system); the harness's model file comes from MODELS, the scenario from
# the id (-off Offline, -ser- Server, -int- Interactive).
SYSTEMS = {
    "ML51-NV-B200-": (V51, "NVIDIA/configs/B200-SXM-180GBx8"),
    "ML51-Google-B200-": (V51, "Google/configs/B200-SXM-180GBx8"),
    "ML51-Nebius-B200-": (V51, "Nebius/configs/B200-SXM-180GBx8"),
    "ML51-BcmSmc-B200-": (V51, "Broadcom_Supermicro/configs/vSYS-422GA-NBRT-B200-SXM-180GBx8"),
    "ML51-NV-GB200x4-": (V51, "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x4"),
    "ML51-NV-GB200x72-": (V51, "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72"),
    "ML51-NV-GB300x72-": (V51, "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72_TRT"),
    # v6.0: results/B300-SXM-270GBx8_TRT, results/GB200-NVL72_GB200-186GB_aarch64x72_TRT,
    # results/GB300-NVL72_GB300-288GB_aarch64x72_TRT (the rows' source paths)
    "ML60-NV-B300-": (V60, "NVIDIA/configs/B300-SXM-270GBx8"),
    "ML60-NV-GB200x72-": (V60, "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72"),
    "ML60-NV-GB300x72-": (V60, "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72"),
}
MODELS = {"L2-70B": "llama2-70b", "L31-405B": "llama3_1-405b", "L31-8B": "llama3_1-8b", "DSR1": "deepseek-r1"}
STATED, DEFAULT = "stated", "default"


def configs(commit, how, table):
    return {(commit, f"closed/{s}/{sc}/{m}.py"): how
            for s, (scs, ms) in table.items() for m in ms for sc in scs}


ALL = ("Offline", "Server", "Interactive")
# The configs read: (commit, path) -> how it says max_util (STATED: `'batch_scheduler_policy': 'max_util'` in the
# file; DEFAULT: no policy in the file, the harness's default at that commit). The v5.1 Llama-2-70B files serve both
# accuracy targets (99 and 99.9); the v6.0 Llama-2-70B rows are the 99 target (AccuracyTarget(0.99) in each file).
MAX_UTIL = (
    configs(V51, STATED, {
        "NVIDIA/configs/B200-SXM-180GBx8": (ALL, ("llama2-70b", "llama3_1-405b", "llama3_1-8b", "deepseek-r1")),
        "Google/configs/B200-SXM-180GBx8": (ALL, ("llama2-70b", "llama3_1-405b", "llama3_1-8b", "deepseek-r1")),
        "Nebius/configs/B200-SXM-180GBx8": (ALL, ("llama2-70b", "llama3_1-405b")),
        "Broadcom_Supermicro/configs/vSYS-422GA-NBRT-B200-SXM-180GBx8": (ALL, ("llama3_1-405b",)),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x4": (ALL, ("llama2-70b",)),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72": (ALL, ("deepseek-r1",)),
        "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72_TRT": (ALL, ("llama3_1-405b", "deepseek-r1")),
    })
    | configs(V60, STATED, {
        "NVIDIA/configs/B300-SXM-270GBx8": (("Offline", "Server"), ("deepseek-r1",)),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72": (("Offline", "Server"), ("deepseek-r1",)),
        "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72": (("Offline", "Server"), ("deepseek-r1",)),
    })
    | configs(V60, DEFAULT, {
        "NVIDIA/configs/B300-SXM-270GBx8": (("Offline", "Server"), ("llama2-70b",)),
        "NVIDIA/configs/GB200-NVL72_GB200-186GB_aarch64x72": (("Offline",), ("llama2-70b",)),
        "NVIDIA/configs/GB300-NVL72_GB300-288GB_aarch64x72": (("Offline",), ("llama2-70b",)),
    })
)
HARNESS_DEFAULTS = "closed/NVIDIA/code/llmlib/config.py"
POLICY = re.compile(r"""['"]batch_scheduler_policy['"]\s*:\s*['"](\w+)['"]""")
# Any spelling of a scheduler-policy key (the dict key above, a keyword argument, TensorRT-LLM's own
# capacity_scheduler_policy, CapacitySchedulerPolicy): in a DEFAULT config, any of them means it may set a policy.
ANY_POLICY_KEY = re.compile(r"\w*scheduler_?policy\w*", re.IGNORECASE)
USAGE = "usage: fill_kv_admission.py [--mirror GIT_DIR]... | --self-test"


def config_of(row_id):
    for prefix, (commit, system) in SYSTEMS.items():
        if not row_id.startswith(prefix):
            continue
        rest = row_id[len(prefix):]
        model = next((f for k, f in MODELS.items() if rest.startswith(k + "-")), None)
        scenario = ("Offline" if rest.endswith("-off") else "Server" if "-ser-" in rest
                    else "Interactive" if "-int-" in rest else None)
        if model and scenario:
            return commit, f"closed/{system}/{scenario}/{model}.py"
    return None


def git_show(mirrors, commit, path):
    """The file at commit:path from the first clone holding the commit; refuses when none does."""
    for m in mirrors:
        if subprocess.run(["git", "--git-dir", m, "cat-file", "-e", f"{commit}^{{commit}}"],
                          capture_output=True).returncode == 0:
            return subprocess.run(["git", "--git-dir", m, "show", f"{commit}:{path}"], check=True,
                                  capture_output=True, text=True).stdout
    sys.exit(f"--mirror: no clone given holds commit {commit} (needed for {path}); give one with --mirror GIT_DIR")


def harness_default(text):
    """The 'batch_scheduler_policy' of config.py's TrtllmHarnessConfig.DEFAULT_RUNTIME_FLAGS, or None."""
    at = text.find("class TrtllmHarnessConfig(")
    at = text.find("DEFAULT_RUNTIME_FLAGS = {", at) if at >= 0 else -1
    if at < 0:
        return None
    found = POLICY.search(text, at, text.find("}", at))
    return found.group(1) if found else None


def check_config(text, how, commit, path, where, harness_text):
    """Refuses (naming the row) a config text that does not say max_util the way MAX_UTIL records it; `harness_text()`
    gives config.py at the commit, read only where the config states no policy."""
    said = POLICY.findall(text)
    if how == STATED and (not said or set(said) != {"max_util"}):
        sys.exit(f"{where}: {path} @{commit} states batch_scheduler_policy {said or 'nowhere'}, not only 'max_util'")
    if how == DEFAULT:
        if said:
            sys.exit(f"{where}: {path} @{commit} states batch_scheduler_policy {said}; the table says it states none")
        other = ANY_POLICY_KEY.search(text)
        if other:
            line = text.count("\n", 0, other.start()) + 1
            sys.exit(f"{where}: {path} @{commit}:{line} names the policy key {other.group(0)!r}; the table says the "
                     "config states no policy, so the harness default applies only if no spelling of the key appears")
        default = harness_default(harness_text())
        if default != "max_util":
            sys.exit(f"{where}: {HARNESS_DEFAULTS} @{commit}: the harness default is {default!r}, not 'max_util'")


def verify(mirrors, commit, path, how, where):
    """`check_config` on the config read from the clones."""
    check_config(git_show(mirrors, commit, path), how, commit, path, where,
                 lambda: git_show(mirrors, commit, HARNESS_DEFAULTS))


def parse_args(args):
    """The clones given with --mirror (each needs its GIT_DIR); any other argument is refused, named."""
    mirrors = []
    i = 0
    while i < len(args):
        if args[i] != "--mirror":
            sys.exit(f"{args[i]!r}: not an argument of this script ({USAGE})")
        if i + 1 >= len(args) or args[i + 1].startswith("--"):
            sys.exit(f"--mirror: needs a value, the git directory of a clone (--mirror GIT_DIR); {USAGE}")
        mirrors.append(args[i + 1])
        i += 2
    return mirrors


def self_test():
    """The refusals above on made-up inputs; each must exit naming its argument or key."""
    def refusal(f):
        try:
            f()
        except SystemExit as e:
            return str(e.code)
        return ""

    assert parse_args([]) == [] and parse_args(["--mirror", "a", "--mirror", "b"]) == ["a", "b"]
    assert "--mirror: needs a value" in refusal(lambda: parse_args(["--mirror"]))
    assert "--mirror: needs a value" in refusal(lambda: parse_args(["--mirror", "a", "--mirror"]))
    assert "--mirror: needs a value" in refusal(lambda: parse_args(["--mirror", "--mirror", "a"]))
    assert "'--mirrors': not an argument" in refusal(lambda: parse_args(["--mirrors", "a"]))
    harness = "class TrtllmHarnessConfig(x):\n    DEFAULT_RUNTIME_FLAGS = {'batch_scheduler_policy': 'max_util'}\n"
    default = lambda text: refusal(lambda: check_config(text, DEFAULT, "c0", "p.py", "row", lambda: harness))
    assert default("x = {'tensor_parallelism': 8}\n") == ""  # no policy: the harness default, max_util
    assert "'capacity_scheduler_policy'" in default("a = 1\nb = {'capacity_scheduler_policy': 'max_util'}\n")
    assert "p.py @c0:2" in default("a = 1\nb = {'capacity_scheduler_policy': 'max_util'}\n")
    assert "'batch_scheduler_policy'" in default("f(batch_scheduler_policy='guaranteed_no_evict')\n")
    assert "'CapacitySchedulerPolicy'" in default("p = CapacitySchedulerPolicy.GUARANTEED_NO_EVICT\n")
    assert "states batch_scheduler_policy ['max_util']" in default("{'batch_scheduler_policy': 'max_util'}\n")
    stated = lambda text: refusal(lambda: check_config(text, STATED, "c0", "p.py", "row", lambda: harness))
    assert stated("{'batch_scheduler_policy': 'max_util'}\n") == ""
    assert "not only 'max_util'" in stated("{'batch_scheduler_policy': 'static'}\n")
    print("self-test: ok")


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        self_test()
        return
    mirrors = parse_args(args)
    rows = load(PATH)
    head = rows[0]
    insert_columns(rows, ("kv_admission",), fill="", before=None)
    col, eng = head.index("kv_admission"), head.index("engine")
    filled = 0
    for line, r in enumerate(rows[1:], start=2):
        r[col] = ""
        if r[eng] != "trtllm":
            continue
        found = config_of(r[0])
        if found is None:
            continue
        if found not in MAX_UTIL:
            sys.exit(f"{PATH}:{line}: {r[0]}: its config {found[1]} @{found[0]} was not read; read it and add it above")
        if mirrors:
            verify(mirrors, *found, MAX_UTIL[found], f"{PATH}:{line}: {r[0]}")
        r[col] = "in_use"
        filled += 1
    save(PATH, rows)
    print(f"{PATH}: kv_admission in_use on {filled} of {len(rows) - 1} rows")


if __name__ == "__main__":
    main()
