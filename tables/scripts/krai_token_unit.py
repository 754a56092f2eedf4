"""Krai's MLPerf v5.1 open Llama-3.1 rows count their answers in Llama-2 tokens: check it run by run, and set the rows'
reported-count columns (docs/krai-token-unit.md).

Krai serves MLPerf's llama2-70b task (OpenOrca) with Llama-3.1-70B-Instruct. MLPerf's accuracy checker decodes the
answers with the Llama-2 tokenizer, so Krai's harness hands LoadGen each answer re-tokenised with it, Llama-2's start
token (id 1) first; LoadGen's tokens/s and TPOT count those ids (mlcommons/inference @b66003e loadgen/logging.cc
l.283-298: token_count is the SUT's n_tokens; l.475-476: TPOT = (latency - first token) / (n_tokens - 1)).

For every Krai Llama-3.1 row of tables/measurements.csv this reads, from the inference_results_v5.1 mirror at the
commit the row's source names (git show <commit>:<path>), the run's compliance TEST06 accuracy log
(open/Krai/compliance/<system>/<model>/<scenario>/TEST06/accuracy/mlperf_log_accuracy.json; `data` is the answer's
token ids as little-endian int32) and checks:
  - every id is below 32,000 (Llama-2's vocabulary; Llama-3's ids run to 128,255, its BOS 128,000);
  - every answer starts with id 1 (Llama-2's BOS) and holds token_count ids;
  - where TEST06's performance/run_1/mlperf_log_detail.txt is there, its tokens/s / samples/s (Offline:
    result_tokens_per_second / result_samples_per_second; Server, Interactive: result_completed_tokens_per_second /
    result_completed_samples_per_sec x (n - 1) / n, LoadGen's completed-sample rate counting n - 1 samples,
    loadgen/results.cc l.762, l.817) equals the log's mean token_count (within 0.05%: the detail log prints 6
    significant figures).
A run that fails any check is refused: the script exits non-zero naming the file, and changes nothing. On the rows
that pass it sets output_token_offset = 1 (the start token) and appends the evidence to the row's notes (once; a rerun
replaces it). output_token_ratio (rho, reported Llama-2 tokens per engine token) is measured run by run from the same
answers by tables/scripts/krai_token_ratio.py, run after this one (session 48; until then it was 3.94 / 3.17 = 1.2429,
assumed). The Krai Llama-2-70B row (model Llama-2-70B) is Llama-2 itself and is left as it is.

Run from the repository root: python3 tables/scripts/krai_token_unit.py [--git-dir DIR] [--check]
(--check: verify only, write nothing)."""
import argparse
import json
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from csv_rows import insert_columns, load, replace_marked, save  # noqa: E402

MEASUREMENTS = "tables/measurements.csv"
MIRROR = "/work/.mirror/mlcommons+inference_results_v5.1/repo"
COLUMNS = ("output_token_ratio", "output_token_offset")
OFFSET = "1"      # Llama-2's BOS, id 1, first in every reported answer
LLAMA2_VOCAB = 32000
LLAMA2_BOS = 1
TOLERANCE = 5e-4
SOURCE = re.compile(r"github\.com/mlcommons/inference_results_v5\.1 @([0-9a-f]{40}) "
                    r"open/Krai/results/([^/]+)/([^/]+)/([^/]+)/performance/run_1/mlperf_log_summary\.txt")
MARKER = " Answer tokens (tables/scripts/krai_token_unit.py):"
END = "[/krai_token_unit]"


def git_show(git_dir, commit, path):
    """`git show <commit>:<path>` in `git_dir`: (the file's bytes, "") or (None, git's complaint) where the commit has
    no such file. The one git read of the Krai scripts (krai_token_ratio.py imports it)."""
    p = subprocess.run(["git", f"--git-dir={git_dir}", "show", f"{commit}:{path}"], capture_output=True)
    return (p.stdout, "") if p.returncode == 0 else (None, p.stderr.decode().strip())


def show(git_dir, commit, path):
    """The file at `commit` as text, or None where the commit has no such file."""
    data, _ = git_show(git_dir, commit, path)
    return data.decode() if data is not None else None


def accuracy_log_path(system, model, scenario):
    """A Krai run's compliance TEST06 accuracy log: its answers as Llama-2 token ids."""
    return f"open/Krai/compliance/{system}/{model}/{scenario}/TEST06/accuracy/mlperf_log_accuracy.json"


def answer_ids(entry):
    """One accuracy-log entry's token ids: `data` is little-endian int32s in hex (None where its bytes are not a
    whole number of int32s)."""
    raw = bytes.fromhex(entry["data"])
    if len(raw) % 4:
        return None
    return [int.from_bytes(raw[j:j + 4], "little", signed=True) for j in range(0, len(raw), 4)]


def krai_runs(rows, c):
    """(row, run) for every Krai Llama-3.1 row of tables/measurements.csv, run = (commit, system, model, scenario) read
    from its source; refuses a row whose source is not a Krai results summary."""
    for r in rows[1:]:
        if not r or not r[c["id"]].startswith("ML51-Krai-") or r[c["model"]] != "Llama-3.1-70B":
            continue
        m = SOURCE.fullmatch(r[c["source"]])
        if not m:
            sys.exit(f"{MEASUREMENTS}: {r[c['id']]}: source {r[c['source']]!r} is not a Krai results summary; refused")
        yield r, m.groups()


def set_marked_notes(rows, c, notes, marker, end):
    """Each row whose id `notes` holds gets that note in its notes, between `marker` and `end` (once; a rerun replaces
    it: `replace_marked`)."""
    for r in rows[1:]:
        if r and r[c["id"]] in notes:
            r[c["notes"]] = replace_marked(r[c["notes"]], marker, end, notes[r[c["id"]]])


def detail_value(text, key):
    m = re.search(r'"key": "' + re.escape(key) + r'", "value": ([-0-9.e+]+)', text)
    return float(m.group(1)) if m else None


def check_run(git_dir, commit, system, model, scenario):
    """The TEST06 evidence of one run as a note, or exits naming the file that fails."""
    base = f"open/Krai/compliance/{system}/{model}/{scenario}/TEST06"
    acc_path = accuracy_log_path(system, model, scenario)
    text = show(git_dir, commit, acc_path)
    if text is None:
        sys.exit(f"{acc_path} @{commit}: missing; refused (no evidence of the answers' token unit)")
    log = json.loads(text)
    if not log:
        sys.exit(f"{acc_path} @{commit}: no answers; refused")
    top, counts = 0, []
    for i, e in enumerate(log):
        ids = answer_ids(e)
        if ids is None:
            sys.exit(f"{acc_path} @{commit}: answer {i} (qsl_idx {e['qsl_idx']}): {len(e['data']) // 2} bytes, not int32 "
                     "ids; refused")
        if len(ids) != e["token_count"]:
            sys.exit(f"{acc_path} @{commit}: answer {i}: {len(ids)} ids but token_count {e['token_count']}; refused")
        if not ids or ids[0] != LLAMA2_BOS:
            sys.exit(f"{acc_path} @{commit}: answer {i} (qsl_idx {e['qsl_idx']}) starts with id "
                     f"{ids[0] if ids else None}, not Llama-2's BOS {LLAMA2_BOS}; refused")
        if min(ids) < 0 or max(ids) >= LLAMA2_VOCAB:
            sys.exit(f"{acc_path} @{commit}: answer {i} (qsl_idx {e['qsl_idx']}) holds id {max(ids)} (or {min(ids)}), "
                     f"outside Llama-2's vocabulary 0..{LLAMA2_VOCAB - 1}; refused")
        top = max(top, max(ids))
        counts.append(len(ids))
    mean = sum(counts) / len(counts)
    note = (f"{MARKER} its TEST06 accuracy log ({acc_path}) holds {len(counts)} answers of {min(counts)}-{max(counts)} "
            f"ids, every id below {LLAMA2_VOCAB:,} (max {top:,}: Llama-2's vocabulary) and every answer starting with "
            f"id {LLAMA2_BOS} (Llama-2's BOS), mean token_count {mean:.1f}")
    detail_path = f"{base}/performance/run_1/mlperf_log_detail.txt"
    detail = show(git_dir, commit, detail_path)
    if detail is not None:
        offline = scenario == "offline"
        tok_key = "result_tokens_per_second" if offline else "result_completed_tokens_per_second"
        smp_key = "result_samples_per_second" if offline else "result_completed_samples_per_sec"
        tok, smp = detail_value(detail, tok_key), detail_value(detail, smp_key)
        if tok is None or smp is None or smp <= 0:
            sys.exit(f"{detail_path} @{commit}: no {tok_key} / {smp_key}; refused")
        # Offline: both over the same time; Server, Interactive: completed samples/s is (n - 1) / T, tokens/s
        # token_count / T (mlcommons/inference @b66003e loadgen/results.cc l.762, l.817), so tokens a sample =
        # tok / smp x (n - 1) / n.
        n = len(counts)
        per = tok / smp if offline else tok / smp * (n - 1) / n
        if abs(per / mean - 1.0) > TOLERANCE:
            sys.exit(f"{detail_path} @{commit}: {tok_key} / {smp_key} = {tok:g} / {smp:g} = {per:.2f} tokens a sample, "
                     f"not the accuracy log's mean token_count {mean:.2f}: LoadGen did not count these ids; refused")
        scale = "" if offline else f" x {n - 1}/{n}"
        note += (f"; the TEST06 run's {tok_key} / {smp_key}{scale} = {tok:g} / {smp:g}{scale} = {per:.2f} = that mean, so LoadGen's "
                 f"tokens/s and TPOT count these Llama-2 ids")
    note += (f". So output_tokens, tok/s and TPOT are in Llama-2 tokens, BOS included: output_token_offset {OFFSET} (the "
             f"BOS) and output_token_ratio measured from these answers (tables/scripts/krai_token_ratio.py, below); "
             f"priced on (O - 1) / ratio engine tokens (docs/krai-token-unit.md). {END}")
    return note


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", default=MIRROR)
    ap.add_argument("--check", action="store_true", help="verify only, write nothing")
    args = ap.parse_args()
    rows = load(MEASUREMENTS)
    h = rows[0]
    insert_columns(rows, COLUMNS, fill="", before=None)
    c = {name: i for i, name in enumerate(h)}
    notes, runs = {}, {}
    for r, key in krai_runs(rows, c):
        if key not in runs:
            runs[key] = check_run(args.git_dir, *key)
        notes[r[c["id"]]] = runs[key]
    if not notes:
        sys.exit(f"{MEASUREMENTS}: no Krai Llama-3.1 rows; refused")
    for key in runs:
        print("passed: " + "/".join(key[1:]))
    if args.check:
        print(f"{len(runs)} runs, {len(notes)} rows checked; nothing written (--check)")
        return
    for r in rows[1:]:
        if r and r[c["id"]] in notes:
            r[c["output_token_offset"]] = OFFSET
    set_marked_notes(rows, c, notes, MARKER, END)
    save(MEASUREMENTS, rows)
    print(f"{MEASUREMENTS}: {len(runs)} runs passed; output_token_offset {OFFSET} on {len(notes)} rows (now run "
          f"tables/scripts/krai_token_ratio.py for output_token_ratio)")


if __name__ == "__main__":
    main()
