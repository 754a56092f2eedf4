#!/usr/bin/env python3
"""Fills tables/measurements.csv's optional column `replica_share_max`: the largest replica's share of an MLPerf
Offline run's samples, where AMD's vLLM harness gives its replicas fixed, unequal shares (docs/amd-vllm.md, "The
slowest replica ends an Offline run"; `plan::offline_run_rate`).

The harness (mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932, each file read with
`git show` on that commit from a local mirror):
  - closed/AMD/code/llama2-70b-99/harness_llm/backends/common/offline_sut.py:251-277 `issue_queries`: each of the
    replicas is sent one contiguous range of the samples, which it runs in one `LLM.generate` and answers at its end
    (backends/vllm/vllm_engine.py:35-40, 133-142), so LoadGen's run ends with the last replica;
  - common/sorting.py:56-73, 211-214: `sorting: strategy: buckets` gives replica i int(w_i / 100 x N) samples (the
    last one the rest, N the samples of the query); any other strategy an equal split (`make_ranges`).

THE RULE, written before the fill: every closed vLLM Offline row of the v5.1 results on an AMD Instinct GPU (hardware
MI...) whose source cites a run under closed/<submitter>/results/ is read with its own harness yaml, closed/<submitter>/<code dir>/<benchmark>/harness_llm/
models/<model>/offline_<gpu>.yaml (the code dir `code`, or `code_AMD` where the submitter keeps AMD's harness so);
N is the run's `generated_samples_per_query` (its mlperf_log_detail.txt beside the cited summary). Where the yaml's
`harness_config.sorting.strategy` is `buckets` the cell is the largest bucket's samples / N, else it stays empty (an
equal split). A yaml whose `device_count` or bucket count differs from the row's dp, a cell already holding another
figure, or a row whose files are missing is refused, naming the table, line and row.

Run from the repository root with the mirror's git directory as the argument (default
/work/.mirror/mlcommons+inference_results_v5.1/repo); rewrites the file in place, every other cell byte for byte as
it was; a second run changes nothing.
"""

import re
import subprocess
import sys

import yaml

from csv_rows import insert_columns, load, save

PATH = "tables/measurements.csv"
COMMIT = "965182b03376a00fcae415c54e560e1c83937932"
REPO = "github.com/mlcommons/inference_results_v5.1"
CITED = re.compile(r"closed/([^/]+)/results/([^/]+)/([^/]+)/Offline/performance/run_1/mlperf_log_summary\.txt")
MODEL_DIR = {"llama2-70b-99": "llama2-70b", "llama2-70b-99.9": "llama2-70b", "mixtral-8x7b": "mixtral-8x7b"}
SAMPLES = re.compile(r'"key": "generated_samples_per_query", "value": (\d+)')


def show(mirror, path):
    """The file at `path` on COMMIT, or None where the commit has none."""
    p = subprocess.run(["git", "--git-dir", mirror, "show", f"{COMMIT}:{path}"], capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def bucket_sizes(percentages, total):
    """common/sorting.py make_bucket_ranges: int(w / 100 x N) each, the last bucket the rest."""
    sizes, start = [], 0
    for i, w in enumerate(percentages):
        size = int((w / 100.0) * total)
        end = start + size
        if i == len(percentages) - 1 or end > total:
            sizes.append(total - start)
            break
        sizes.append(size)
        start = end
    return sizes


def main():
    mirror = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mlcommons+inference_results_v5.1/repo"
    rows = load(PATH)
    head = rows[0]
    insert_columns(rows, ("replica_share_max",), fill="", before=None)
    col = {c: head.index(c) for c in ("id", "engine", "scenario", "hardware", "dp", "source", "replica_share_max")}
    filled = 0
    for line, r in enumerate(rows[1:], start=2):
        if not r or r[col["engine"]] != "vllm" or r[col["scenario"]] != "offline" or REPO not in r[col["source"]]:
            continue
        m = CITED.search(r[col["source"]])
        if not m or COMMIT not in r[col["source"]]:
            continue
        submitter, system, benchmark = m.groups()
        where = f"{PATH}:{line}: {r[col['id']]}"
        gpu = r[col["hardware"]].split()[0].lower()
        if not gpu.startswith("mi"):  # AMD's harness runs on AMD Instinct GPUs only
            continue
        if benchmark not in MODEL_DIR:
            sys.exit(f"{where}: benchmark {benchmark!r} has no harness model folder here; refused")
        config = None
        for code in ("code", "code_AMD"):
            path = f"closed/{submitter}/{code}/{benchmark}/harness_llm/models/{MODEL_DIR[benchmark]}/offline_{gpu}.yaml"
            config = show(mirror, path)
            if config is not None:
                break
        if config is None:
            sys.exit(f"{where}: no offline_{gpu}.yaml under closed/{submitter}/code*/{benchmark}; refused")
        harness = yaml.safe_load(config)["harness_config"]
        dp = int(r[col["dp"]])
        if int(harness["device_count"]) != dp:
            sys.exit(f"{where}: {path} device_count {harness['device_count']} but the row's dp is {dp}; refused")
        sorting = harness.get("sorting") or {}
        share = ""
        if sorting.get("strategy") == "buckets":
            buckets = [float(w) for w in sorting["buckets"]]
            if len(buckets) != dp:
                sys.exit(f"{where}: {path} has {len(buckets)} buckets but the row's dp is {dp}; refused")
            log = show(mirror, m.group(0).replace("mlperf_log_summary.txt", "mlperf_log_detail.txt"))
            n = SAMPLES.search(log or "")
            if not n:
                sys.exit(f"{where}: no generated_samples_per_query in the run's mlperf_log_detail.txt; refused")
            total = int(n.group(1))
            share = f"{max(bucket_sizes(buckets, total)) / total:.6f}"
        if r[col["replica_share_max"]] not in ("", share):
            sys.exit(f"{where}: replica_share_max is {r[col['replica_share_max']]!r}, the yaml gives {share!r}; refused")
        r[col["replica_share_max"]] = share
        filled += 1 if share else 0
        print(f"{r[col['id']]}: {path}: {sorting.get('strategy', 'none')} -> {share or 'equal split'}")
    save(PATH, rows)
    print(f"{PATH}: replica_share_max filled on {filled} rows")


if __name__ == "__main__":
    main()
