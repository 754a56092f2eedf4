#!/usr/bin/env python3
"""Session 36: AMD's patched vLLM V0 scheduler (VLLM_LLAMA2_MLPERF_SCHED 1) on the Llama-2-70B rows of its harness.

The patch (mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932
closed/AMD/setup/vllm_patches/scheduler-change-to-have-prefill-and-decode-reach-go.patch) makes a scheduler pass
decode at most a target of the running sequences (MIN / MAX / STEP) and prefill only below MAX running and with
more than MIN_REQUIRE_PREFILL_GPU_BLOCK free KV blocks (docs/amd-v0-decode-target.md). Each row's values are its
submitter's own yaml (closed/<submitter>/code*/llama2-70b-99/harness_llm/models/llama2-70b/<scenario>_<gpu>.yaml,
read one by one in session 36; ASUSTeK's copy is under code_AMD/).

Sets, by column name, idempotently (a re-run changes nothing; a row in neither the old nor the new state is refused;
nothing is written unless every listed row is found):
- the columns decode_target_min, decode_target_max, decode_target_step, prefill_free_kv_tokens (added at the end of
  the header, empty for every other row) on the 9 Offline and 16 Server rows below;
- on the Offline rows also the V0 columns their simulated run needs: receive_interval = num_scheduler_steps,
  prefill_alone 1 (enable_chunked_prefill False), outputs_per_block 1 (enforce_eager True turns the async output
  processor off, as the Server rows of the same yamls already carry), and the dataset's length spreads
  (input_spread 171.5, output_spread 172.3: docs/amd-vllm.md, openshift-psap/performance-dashboard @71007029
  mlperf-data/summaries/llama2-70b-99.csv);
- a sentence in each row's notes saying so (its presence marks the row as done), and on the Server rows the
  phrase "not priced" of the decode cut replaced.
The rows' max_batch / max_tokens must equal the yaml's max_num_seqs / max_num_batched_tokens (refused otherwise).
Session 37 adds, on the same terms (its own sentence marks a row as done):
- on the 9 Offline rows, min_waiting_prompts 10: AMD's add-MIN_REQUIRE_PREFILL_QUERY-condition.patch (same commit,
  closed/AMD/setup/vllm_patches/, listed in each submitter's llama2 patch list: PATCH_LIST below) reads
  VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY with the default 10 (its vllm/envs.py hunk:
  `int(os.getenv("VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY", "10"))`) whenever VLLM_LLAMA2_MLPERF_SCHED is on,
  and neither the Offline yamls nor the harness's common/config.yaml set it;
- on AMD's MI355X Offline row (open/AMD/code/llama2-70b-99/harness_llm/models/llama2-70b/offline_mi355x.yaml: SCHED 1,
  MIN = MAX 3,072, STEP 256, MIN_REQUIRE_PREFILL_GPU_BLOCK unset: 0, block_size 16; open/AMD/setup/vllm_patches/
  llama2_patch_files_gfx950.txt applies both patches), the decode target's four columns and min_waiting_prompts 10
  likewise (MI355X_ROWS below). MangoBoost's MI355X rows are left out: they take that yaml ASSUMED (their own configs
  are not in the submission), and whether their LLMBoost engine carries AMD's scheduler patches is not stated.
The session-37 review adds, on the same terms (its own sentences mark a row as done):
- on AMD's MI355X Offline row, the dataset's length spreads as its 9 sibling Offline rows carry them (input_spread
  171.5, output_spread 172.3, ASSUMED for the run's answers, the same source), a sentence citing the run's vLLM
  g790cf6584 (its vllm/core/scheduler.py one line off ROCm/vllm @71faa1880's, per session 37's review), and the
  scheduler phrase reworded: MIN_REQUIRE_PREFILL_QUERY unset in the yaml (default 10);
- on the 7 Offline rows whose system JSON names vLLM 0.6.5.dev964+mlperf50, a sentence citing the mlperf50 tree
  closed/Dell_MangoBoost/code/llama2-70b-99.9/amd/setup/vllm vendors (its vllm/_version.py 0.0.0.dev1+mlperf50): the
  same gate and Q code (vllm/core/scheduler.py:1111-1118) and the same default 10 (vllm/envs.py:626).
Run from the repository root.
"""
import sys

from csv_rows import load, save

MEAS = "tables/measurements.csv"
REPO = "mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932"
NEW_COLUMNS = ["decode_target_min", "decode_target_max", "decode_target_step", "prefill_free_kv_tokens"]
BLOCK = 32  # block_size: 32 in every yaml below
SPREADS = ("171.5", "172.3")

# submitter -> its harness copy
COPY = {"AMD": "closed/AMD/code", "Dell": "closed/Dell/code", "ASUS": "closed/ASUSTeK/code_AMD",
        "Giga": "closed/GigaComputing/code", "MiTAC": "closed/MiTAC/code", "QCT": "closed/Quanta_Cloud_Technology/code",
        "Vultr": "closed/Vultr/code"}

# id -> (submitter, yaml, MIN, MAX, STEP, MIN_REQUIRE_PREFILL_GPU_BLOCK, num_scheduler_steps, max_num_seqs, max_tokens)
OFFLINE = {
    "ML51-AMD-MI300X-L2-70B-off": ("AMD", "offline_mi300x", 1280, 1536, 256, 2200, 11, 1792, 40960),
    "ML51-Dell-MI300X-L2-70B-off": ("Dell", "offline_mi300x", 1280, 1536, 256, 2200, 11, 1792, 40960),
    "ML51-AMD-MI325X-L2-70B-off": ("AMD", "offline_mi325x", 2048, 2048, 256, 0, 7, 2700, 65536),
    "ML51-AMD-MI325X-v065-L2-70B-off": ("AMD", "offline_mi325x", 2048, 2048, 256, 0, 7, 2700, 65536),
    "ML51-ASUS-MI325X-L2-70B-off": ("ASUS", "offline_mi325x", 2048, 2048, 256, 0, 7, 2700, 65536),
    "ML51-Giga-MI325X-L2-70B-off": ("Giga", "offline_mi325x", 2000, 2000, 256, 0, 11, 2700, 65000),
    "ML51-MiTAC-MI325X-L2-70B-off": ("MiTAC", "offline_mi325x", 2048, 2048, 256, 0, 7, 2700, 65536),
    "ML51-QCT-MI325X-L2-70B-off": ("QCT", "offline_mi325x", 2048, 2048, 256, 0, 7, 2700, 65536),
    "ML51-Vultr-MI325X-L2-70B-off": ("Vultr", "offline_mi325x", 2000, 2000, 256, 0, 11, 2700, 65000),
}
SERVER = {}
for sub, gpu in [("AMD", "MI300X"), ("Dell", "MI300X"), ("AMD", "MI325X"), ("ASUS", "MI325X"), ("Giga", "MI325X"),
                 ("MiTAC", "MI325X"), ("QCT", "MI325X"), ("Vultr", "MI325X")]:
    for m in ("ttft", "tpot"):
        if gpu == "MI300X":  # MIN_REQUIRE_PREFILL_GPU_BLOCK 0 in the MI300X yamls, unset (default 0) in the MI325X ones
            SERVER[f"ML51-{sub}-{gpu}-L2-70B-ser-{m}"] = (sub, "server_mi300x", 352, 608, 16, 0, 9, 650, 40960)
        else:
            SERVER[f"ML51-{sub}-{gpu}-L2-70B-ser-{m}"] = (sub, "server_mi325x", 512, 832, 16, 0, 9, 1024, 40960)

OLD_PHRASE = "decodes at most floor(running/16)*16 sequences from 352 (MI300X) / 512 (MI325X) running, not priced;"
NEW_PHRASE = ("decodes at most floor(running/16)*16 sequences from 352 (MI300X) / 512 (MI325X) running, priced "
              "since session 36 (decode_target_*);")


def sentence(spec, offline):
    sub, yaml, lo, hi, step, blocks, steps, _, _ = spec
    path = f"{COPY[sub]}/llama2-70b-99/harness_llm/models/llama2-70b/{yaml}.yaml"
    s = (f" Decode target (session 36, tables/scripts/amd_v0_decode_target.py): {path} ({REPO}) sets "
         f"VLLM_LLAMA2_MLPERF_SCHED 1, MIN_TARGET_DECODE_BATCH {lo}, MAX_TARGET_DECODE_BATCH {hi}, STEP_DECODE_BATCH "
         f"{step}, MIN_REQUIRE_PREFILL_GPU_BLOCK {blocks}{'' if blocks or offline else ' (or unset: 0)'} × block_size "
         f"{BLOCK} = prefill_free_kv_tokens {blocks * BLOCK}: a pass decodes at most the target and prefills only "
         f"below MAX running and above that free KV (AMD's patch scheduler-change-to-have-prefill-and-decode-reach-"
         f"go.patch; docs/amd-v0-decode-target.md).")
    if offline:
        s += (f" Simulated (plan::offline_run) as V0 runs it: num_scheduler_steps {steps} (receive_interval), "
              f"enable_chunked_prefill False (prefill_alone 1), enforce_eager True, so the async output processor is "
              f"off and a block's answers end at its end (outputs_per_block 1); lengths ASSUMED to spread as the "
              f"dataset's (input_spread {SPREADS[0]}, output_spread {SPREADS[1]}: the OpenOrca set's prompts and "
              f"reference answers, openshift-psap/performance-dashboard @71007029fb5bced1d79808e7e64dc4c2af82ea55 "
              f"mlperf-data/summaries/llama2-70b-99.csv; the run's own answers are longer, 301 on average, their "
              f"spread unpublished).")
    return s


# submitter -> its list of vLLM patches that names add-MIN_REQUIRE_PREFILL_QUERY-condition.patch (read one by one)
PATCH_LIST = {"AMD": "closed/AMD/setup/vllm_patches/llama2_patch_files_gfx942.txt",
              "Dell": "closed/Dell/setup/vllm_patches/llama2_patch_files_gfx942.txt",
              "ASUS": "closed/ASUSTeK/setup_AMD/vllm_patches/llama2_patch_files_gfx942.txt",
              "Giga": "closed/GigaComputing/setup/vllm_patches/llama2_patch_files_gfx942.txt",
              "MiTAC": "closed/MiTAC/setup/vllm_patches/llama2_patch_files_gfx942.txt",
              "QCT": "closed/Quanta_Cloud_Technology/setup/vllm_patches/llama2_patch_files_gfx942.txt",
              "Vultr": "closed/Vultr/setup/vllm_patches/llama2_patch_files.txt"}
QUERY_DEFAULT = 10
QUERY_PATCH = "add-MIN_REQUIRE_PREFILL_QUERY-condition.patch"

# id -> (harness copy, yaml, MIN, MAX, STEP, MIN_REQUIRE_PREFILL_GPU_BLOCK, block_size, max_num_seqs, max_tokens)
MI355X_ROWS = {
    "ML51-AMD-MI355Xx8-L2-70B-mxfp4-off": ("open/AMD/code", "offline_mi355x", 3072, 3072, 256, 0, 16, 3450, 40960),
}
MI355X_OLD = "(AMD's MLPerf scheduler, not priced; no MIN_REQUIRE_PREFILL_QUERY set)"
MI355X_NEW = "(AMD's MLPerf scheduler, priced since session 37: decode_target_*, min_waiting_prompts; no MIN_REQUIRE_PREFILL_QUERY set)"


def query_sentence(patches):
    return (f" Session 37 (tables/scripts/amd_v0_decode_target.py): min_waiting_prompts {QUERY_DEFAULT}, "
            f"AMD's {QUERY_PATCH} ({REPO}, applied by {patches}) gates each prefill on "
            f"len(waiting) >= VLLM_LLAMA2_MLPERF_MIN_REQUIRE_PREFILL_QUERY or the last pass having declined, the "
            f"variable's default {QUERY_DEFAULT} (the patch's vllm/envs.py: os.getenv(\"VLLM_LLAMA2_MLPERF_MIN_REQUIRE_"
            f"PREFILL_QUERY\", \"10\")) as this yaml and the harness's common/config.yaml leave it unset; after the "
            f"prefill gate (docs/amd-v0-decode-target.md).")


def mi355x_sentence(spec):
    copy, yaml, lo, hi, step, blocks, block, _, _ = spec
    return (f" Decode target (session 37, tables/scripts/amd_v0_decode_target.py): {copy}/llama2-70b-99/harness_llm/"
            f"models/llama2-70b/{yaml}.yaml ({REPO}) sets VLLM_LLAMA2_MLPERF_SCHED 1, MIN_TARGET_DECODE_BATCH {lo}, "
            f"MAX_TARGET_DECODE_BATCH {hi}, STEP_DECODE_BATCH {step}, MIN_REQUIRE_PREFILL_GPU_BLOCK unset ({blocks}) × "
            f"block_size {block} = prefill_free_kv_tokens {blocks * block}; open/AMD/setup/vllm_patches/"
            f"llama2_patch_files_gfx950.txt applies scheduler-change-to-have-prefill-and-decode-reach-go.patch: a pass "
            f"decodes at most the target and prefills only below MAX running (docs/amd-v0-decode-target.md).")


MI355X_NEWER = ("(AMD's MLPerf scheduler, priced since session 37: decode_target_*, min_waiting_prompts; "
                "MIN_REQUIRE_PREFILL_QUERY unset in the yaml (default 10))")
MI355X_VLLM = "0.9.1.dev2+g790cf6584"
MLPERF50 = "0.6.5.dev964+mlperf50"


def mi355x_review_sentence():
    return (f" Session 37 review (tables/scripts/amd_v0_decode_target.py): lengths ASSUMED to spread as the dataset's "
            f"(input_spread {SPREADS[0]}, output_spread {SPREADS[1]}: the OpenOrca set's prompts and reference answers, "
            f"openshift-psap/performance-dashboard @71007029fb5bced1d79808e7e64dc4c2af82ea55 mlperf-data/summaries/"
            f"llama2-70b-99.csv; the run's own answers are longer, 279 on average, their spread unpublished), as the 9 "
            f"Llama-2-70B Offline rows of AMD's harness carry them; the run's vLLM is {MI355X_VLLM} (the system JSON), "
            f"whose vllm/core/scheduler.py differs from ROCm/vllm @71faa1880's by one line (session 37's review): the "
            f"same patched V0 scheduler.")


def mlperf50_sentence():
    return (f" Session 37 review (tables/scripts/amd_v0_decode_target.py): vLLM {MLPERF50} is the patched tree "
            f"closed/Dell_MangoBoost/code/llama2-70b-99.9/amd/setup/vllm vendors ({REPO}; its vllm/_version.py "
            f"0.0.0.dev1+mlperf50): vllm/core/scheduler.py:1111-1118 carries the same prefill gate and "
            f"MIN_REQUIRE_PREFILL_QUERY turn, vllm/envs.py:626 the same default 10.")


def set_once(r, col, rid, want, marker):
    """Sets `want` (column -> value) on row r and appends `marker` to its notes, once: a row whose notes carry the
    marker must already hold the values; one without it must hold them or nothing (refused otherwise)."""
    done = marker in r[col["notes"]]
    for c, v in want.items():
        if r[col[c]] == v:
            continue
        if done or r[col[c]] != "":
            sys.exit(f"{MEAS}: {rid}: {c} is {r[col[c]]!r}, neither empty nor {v!r}; refused")
    if done:
        return 0
    for c, v in want.items():
        r[col[c]] = v
    r[col["notes"]] += marker
    return 1


def session37(rows, col):
    seen = changed = 0
    for r in rows[1:]:
        if not r:
            continue
        rid = r[col["id"]]
        if rid in OFFLINE:
            seen += 1
            if r[col["decode_target_max"]] != str(OFFLINE[rid][3]):
                sys.exit(f"{MEAS}: {rid}: decode_target_max is {r[col['decode_target_max']]!r}; session 36's step first")
            patches = PATCH_LIST[OFFLINE[rid][0]]
            changed += set_once(r, col, rid, {"min_waiting_prompts": str(QUERY_DEFAULT)}, query_sentence(patches))
        elif rid in MI355X_ROWS:
            seen += 1
            spec = MI355X_ROWS[rid]
            if r[col["max_batch"]] != str(spec[7]) or r[col["max_tokens"]] != str(spec[8]):
                sys.exit(f"{MEAS}: {rid}: max_batch {r[col['max_batch']]!r} / max_tokens {r[col['max_tokens']]!r}, "
                         f"not the yaml's {spec[7]} / {spec[8]}; refused")
            marker = mi355x_sentence(spec) + query_sentence("open/AMD/setup/vllm_patches/llama2_patch_files_gfx950.txt")
            if marker not in r[col["notes"]]:
                if MI355X_OLD not in r[col["notes"]]:
                    sys.exit(f"{MEAS}: {rid}: the notes lack the phrase on AMD's scheduler; refused")
                r[col["notes"]] = r[col["notes"]].replace(MI355X_OLD, MI355X_NEW)
            changed += set_once(r, col, rid, {"decode_target_min": str(spec[2]), "decode_target_max": str(spec[3]),
                                              "decode_target_step": str(spec[4]),
                                              "prefill_free_kv_tokens": str(spec[5] * spec[6]),
                                              "min_waiting_prompts": str(QUERY_DEFAULT)}, marker)
    expected = len(OFFLINE) + len(MI355X_ROWS)
    if seen != expected:
        sys.exit(f"{MEAS}: {seen} of the {expected} session-37 rows found; refused (nothing written)")
    return changed


def session37_review(rows, col):
    seen = changed = 0
    for r in rows[1:]:
        if not r:
            continue
        rid = r[col["id"]]
        if rid in MI355X_ROWS:
            seen += 1
            if MI355X_VLLM not in r[col["engine_version"]]:
                sys.exit(f"{MEAS}: {rid}: engine_version {r[col['engine_version']]!r} lacks {MI355X_VLLM}; refused")
            if MI355X_NEWER not in r[col["notes"]]:
                if MI355X_NEW not in r[col["notes"]]:
                    sys.exit(f"{MEAS}: {rid}: the notes lack the phrase on AMD's scheduler; refused")
                r[col["notes"]] = r[col["notes"]].replace(MI355X_NEW, MI355X_NEWER)
            changed += set_once(r, col, rid, {"input_spread": SPREADS[0], "output_spread": SPREADS[1]},
                                mi355x_review_sentence())
        elif rid in OFFLINE and MLPERF50 in r[col["engine_version"]]:
            seen += 1
            changed += set_once(r, col, rid, {}, mlperf50_sentence())
    expected = len(MI355X_ROWS) + 7
    if seen != expected:
        sys.exit(f"{MEAS}: {seen} of the {expected} rows of session 37's review found; refused (nothing written)")
    return changed


def main():
    rows = load(MEAS)
    h = rows[0]
    for c in NEW_COLUMNS:
        if c not in h:
            for r in rows:
                if r:
                    r.append(c if r is h else "")
    col = {name: i for i, name in enumerate(h)}
    seen = changed = 0
    for r in rows[1:]:
        if not r:
            continue
        rid = r[col["id"]]
        offline = rid in OFFLINE
        if not offline and rid not in SERVER:
            continue
        spec = (OFFLINE if offline else SERVER)[rid]
        seen += 1
        if r[col["max_batch"]] != str(spec[7]) or r[col["max_tokens"]] != str(spec[8]):
            sys.exit(f"{MEAS}: {rid}: max_batch {r[col['max_batch']]!r} / max_tokens {r[col['max_tokens']]!r}, "
                     f"not the yaml's {spec[7]} / {spec[8]}; refused")
        want = {"decode_target_min": str(spec[2]), "decode_target_max": str(spec[3]),
                "decode_target_step": str(spec[4]), "prefill_free_kv_tokens": str(spec[5] * BLOCK)}
        if offline:
            want.update({"receive_interval": str(spec[6]), "prefill_alone": "1", "outputs_per_block": "1",
                         "input_spread": SPREADS[0], "output_spread": SPREADS[1]})
        else:  # the Server rows already run V0's block (their scheduler columns, session 11 onward)
            for c, v in (("receive_interval", str(spec[6])), ("prefill_alone", "1"), ("outputs_per_block", "1")):
                if r[col[c]] != v:
                    sys.exit(f"{MEAS}: {rid}: {c} is {r[col[c]]!r}, not {v!r}; refused")
        s = sentence(spec, offline)
        done = s in r[col["notes"]]
        for c, v in want.items():
            if r[col[c]] == v:
                continue
            if done or r[col[c]] not in ("",):
                sys.exit(f"{MEAS}: {rid}: {c} is {r[col[c]]!r}, neither empty nor {v!r}; refused")
        if done:
            continue
        for c, v in want.items():
            r[col[c]] = v
        if not offline:
            if OLD_PHRASE not in r[col["notes"]]:
                sys.exit(f"{MEAS}: {rid}: the notes lack the phrase on the decode cut; refused")
            r[col["notes"]] = r[col["notes"]].replace(OLD_PHRASE, NEW_PHRASE)
        r[col["notes"]] += s
        changed += 1
    expected = len(OFFLINE) + len(SERVER)
    if seen != expected:
        sys.exit(f"{MEAS}: {seen} of the {expected} rows found; refused (nothing written)")
    changed37 = session37(rows, col)
    changed37r = session37_review(rows, col)
    save(MEAS, rows)
    print(f"{MEAS}: {changed} of {seen} rows set (decode target; Offline rows simulated as V0 runs them); "
          f"{changed37} set in session 37 (MIN_REQUIRE_PREFILL_QUERY's default, the MI355X decode target); "
          f"{changed37r} in session 37's review (the MI355X row's spreads, the mlperf50 tree cited)")


if __name__ == "__main__":
    main()
