#!/usr/bin/env python3
"""Session 31 (docs/mlperf-scheduled-rate.md): the MLPerf v5.1 Server/Interactive rows (ids ML51-*, scenario online)
are offered the Poisson schedule's arrival rate, not LoadGen's completed rate.

LoadGen (github.com/mlcommons/inference @b66003e10e2db4b8c36a448b0545ec90fcc6e9e9 loadgen/results.cc lines 759-763;
the runs used LoadGen 5.0.21 to 5.1.0; every detail log names results.cc lines 760 and 763 for the two keys) logs two Server rates:
  result_scheduled_samples_per_sec = (N - 1) / final_query_scheduled_time    (the arrivals: the Poisson schedule)
  result_completed_samples_per_sec = (N - 1) / final_query_all_samples_done_time
the second diluted by the last-issued query's own latency. The rows' rate_per_s was the completed rate divided
by the number of independent instances the row's notes name; an online model is offered the arrivals.

Sets, by column name, idempotently (re-running changes nothing; run from the repository root), on every row of
tables/measurements.csv whose id starts ML51- and whose scenario is online:
  rate_per_s = result_scheduled_samples_per_sec / d, 4 significant figures, read from the run's
      mlperf_log_detail.txt (the detail log beside the summary the row's `source` names, in
      github.com/mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932, read from the local
      mirror), d the divisor the row's notes state ("<Q> completed samples/s ÷ d ..." or "/ d"; no divisor stated:
      d = 1, the whole system's rate);
  and appends one sentence to the row's `notes` (once) naming the key, the figures and the file.
Refuses (exit 1, naming the row, the field, the value and the rule) unless, before the change, the row's
rate_per_s equals Q / d at 4 significant figures (relative 5e-4) and the notes' quoted completed figure Q
equals the log's result_completed_samples_per_sec at 2 decimals, |Q - key| <= 0.005 (as the summary prints).
A row already carrying the sentence is left as it is (its rate must then equal the scheduled figure / d).
output_tokens (tokens/s over samples/s, both completed, so the same time divides both) and every other cell are
untouched.
"""

import json
import re
import subprocess
import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
MIRROR = "/work/.mirror/mlcommons+inference_results_v5.1/repo"
COMMIT = "965182b03376a00fcae415c54e560e1c83937932"
PREFIX = f"github.com/mlcommons/inference_results_v5.1 @{COMMIT} "
SCHED, COMPL = "result_scheduled_samples_per_sec", "result_completed_samples_per_sec"
MARK = " Offered rate (session 31, docs/mlperf-scheduled-rate.md):"
QUOTED = re.compile(r"([0-9][0-9.]*) completed samples/s(?: (?:÷|/) ([0-9]+) [a-z ]*(?:instances|replicas))?")


def detail_keys(path):
    """The detail log's scheduled and completed rates (`:::MLLOG {json}` lines with "key" and "value")."""
    text = subprocess.run(["git", "-C", MIRROR, "show", f"{COMMIT}:{path}"], capture_output=True, text=True,
                          check=True).stdout
    keys = {}
    for line in text.splitlines():
        if line.startswith(":::MLLOG "):
            entry = json.loads(line[len(":::MLLOG "):])
            if entry["key"] in (SCHED, COMPL):
                keys[entry["key"]] = float(entry["value"])
    if set(keys) != {SCHED, COMPL}:
        sys.exit(f"{path}: lacks {SCHED} or {COMPL}; refused")
    return keys


def four_figures(x):
    """x to 4 significant figures, without a trailing zero or point (the table's style: 10.49, 0.9494, 124.9)."""
    text = f"{float(f'{x:.4g}'):.6f}".rstrip("0").rstrip(".")
    return text


def main():
    rows = load(MEAS)
    head = rows[0]
    col = {k: head.index(k) for k in ("id", "scenario", "rate_per_s", "source", "notes")}
    changed = seen = 0
    for row in rows[1:]:
        if not row or not row[col["id"]].startswith("ML51-") or row[col["scenario"]] != "online":
            continue
        seen += 1
        rid, source, notes = row[col["id"]], row[col["source"]], row[col["notes"]]
        if not source.startswith(PREFIX) or not source.endswith("/mlperf_log_summary.txt"):
            sys.exit(f"{MEAS}: {rid}: source {source!r} is not a {PREFIX}.../mlperf_log_summary.txt path; refused")
        detail = source[len(PREFIX):].replace("mlperf_log_summary.txt", "mlperf_log_detail.txt")
        keys = detail_keys(detail)
        quoted = QUOTED.findall(notes.split(MARK)[0])
        if len(quoted) != 1:
            sys.exit(f"{MEAS}: {rid}: notes state the completed rate {len(quoted)} times, expected once; refused")
        q, d = quoted[0][0], int(quoted[0][1] or 1)
        new = four_figures(keys[SCHED] / d)
        if MARK in notes:
            if row[col["rate_per_s"]] != new:
                sys.exit(f"{MEAS}: {rid}: rate_per_s is {row[col['rate_per_s']]!r}, the notes say it was set to "
                         f"{SCHED} / {d} = {new}; refused")
            continue
        rate = float(row[col["rate_per_s"]])
        if abs(float(q) - keys[COMPL]) > 0.005 + 1e-9:
            sys.exit(f"{MEAS}: {rid}: notes quote {q} completed samples/s, the log's {COMPL} is {keys[COMPL]} "
                     f"(rule: within 0.005, the summary's 2 decimals); refused")
        if abs(rate - float(q) / d) > 5e-4 * float(q) / d:
            sys.exit(f"{MEAS}: {rid}: rate_per_s is {rate}, the notes' {q} completed samples/s ÷ {d} = {float(q) / d} "
                     f"(rule: equal at 4 significant figures); refused")
        row[col["rate_per_s"]] = new
        row[col["notes"]] += (
            f"{MARK} rate_per_s = {SCHED} {keys[SCHED]:g} ÷ {d} = {new} (was {q} completed samples/s ÷ {d} = "
            f"{rate:g}): the Poisson schedule's arrival rate, which LoadGen logs as (N − 1) ÷ the last query's "
            f"scheduled time, where {COMPL} {keys[COMPL]:g} divides by the last-issued query's completion time and "
            f"so is diluted by that query's own latency (github.com/mlcommons/inference "
            f"@b66003e10e2db4b8c36a448b0545ec90fcc6e9e9 loadgen/results.cc lines 759-763); read from {PREFIX}"
            f"{detail}.")
        changed += 1
    if seen != 112:
        sys.exit(f"{MEAS}: {seen} ML51 online rows, expected 112; refused")
    save(MEAS, rows)
    print(f"{MEAS}: {changed} of {seen} ML51 online rows set to the scheduled rate")


if __name__ == "__main__":
    main()
