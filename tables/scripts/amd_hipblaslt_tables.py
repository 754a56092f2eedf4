#!/usr/bin/env python3
"""Session 38: the hipBLASLt GEMM tables AMD's MLPerf v5.1 Llama-2-70B harness loads on MI325X, and which rows load them.

Source: mlcommons/inference_results_v5.1 @965182b03376a00fcae415c54e560e1c83937932, read from a bare mirror (first
argument, default /work/.mirror/mlcommons+inference_results_v5.1/repo). Both files open with `Git Version: aa0bda7b`
(hipBLASLt 0.15.0-aa0bda7b, the systems/*.json of the MI325X submissions) and list, per GEMM, transA, transB, ...,
M (outputs), N (tokens), K (inner), ..., lda, ..., the types (f8_fnuz_r x f8_fnuz_r -> f16_r), ..., GFLOP/s, GB/s,
µs, the chosen solution index, the arch (gfx942) and the CU count (304).

Each table measures a GEMM at token counts N that are multiples of 16 and copies the measured line to the 15 counts
below it (hipBLASLt matches the exact N), so only the multiples of 16 are measurements: this script keeps those, and
refuses a table where a copy differs from the measurement above it, a file whose git blob differs from the one named
below, or a shape other than Llama-2-70B's four projections at TP 1.

Writes, idempotently (a re-run changes nothing):
- tables/gemm_tables.csv: one row per table (id, gpu, the clock its times hold at and how that is known, the
  library, the weight layout, the source path and blob);
- tables/gemm_table_entries.csv: one row per measured entry (table, shape, m_tokens, k, n, time_us, solution): k and
  n are the GEMM's inner and output dimensions as llmcost names them (`achievable_fractions::matmul_at(m, k, n)`:
  hipBLASLt's K and M), m_tokens hipBLASLt's N;
- include/llmcost/catalog/gemm_tables.hpp, the same entries as constexpr arrays (a unit test checks the two agree
  field for field);
- tables/measurements.csv's column `gemm_table` (added at the end of the header, empty for every other row): on each
  MLPerf v5.1 MI300X / MI325X row of AMD's harness, the table its yaml loads (HIPBLASLT_TUNING_OVERRIDE_FILE in
  closed/<submitter>/code*/<benchmark>/harness_llm/models/<model>/<scenario>_<gpu>.yaml, the file it names checked
  by blob in the same code directory), empty where the yaml loads none. A row whose cell holds anything else is
  refused.
Run from the repository root: python3 tables/scripts/amd_hipblaslt_tables.py [mirror]
"""
import os
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csv_rows  # noqa: E402

REPO = "mlcommons/inference_results_v5.1"
COMMIT = "965182b03376a00fcae415c54e560e1c83937932"
MIRROR = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mlcommons+inference_results_v5.1/repo"

# Llama-2-70B's four projections on one GPU (TP 1), as hipBLASLt's (M outputs, K inner): QKV (64 + 2·8 heads of 128),
# O, gate/up (2 × 28,672), down.
SHAPES = [("qkv", 10240, 8192), ("o", 8192, 8192), ("gate_up", 57344, 8192), ("down", 8192, 28672)]

TABLES = [
    dict(id="mi325x-llama2-70b-server",
         path="closed/AMD/code/llama2-70b-99/scripts/llama2-mi325x-server-tuning.txt",
         blob="03f766458a2382bb6a08ca8805da1ba80fd1f4ee",
         clock="1700",
         clock_basis="INFERRED: no file, header, yaml, README or setup script states it; its times equal the "
                     "1,700 MHz table's (mi325x-llama2-70b-spx1700) at the 449 token counts both measure (median "
                     "ratio 1.00, no 1,700 / 1,600 signature), so the same clock; a table tuned at 1,600 MHz with "
                     "swizzled weights 6% faster everywhere is not excluded (docs/amd-hipblaslt-tables.md)",
         layout="FP8 weights swizzled (VLLM_MLPERF_SWIZZLE_FP8_LINEAR 1), lda = K",
         loaded_by="llama2-mi325x-server-tuning.txt"),
    dict(id="mi325x-llama2-70b-spx1700",
         path="closed/AMD/code/llama2-70b-99/scripts/gemm_llama2-70b/aa0bda7b/tuning_spx_1700_formatted.txt",
         blob="469b97913df4d25464991200bbd24a1d66ce0208",
         clock="1700",
         clock_basis="the file name (tuning_spx_1700); llmcost's MI325X GEMM curve is fitted to it (B15)",
         layout="FP8 weights padded by 256 (VLLM_FP8_WEIGHT_PADDING 1), lda = K + 256",
         loaded_by="tuning_spx_1700_formatted.txt"),
]
LIBRARY = "hipBLASLt 0.15.0-aa0bda7b"

# The rows' submitter directories (closed/<dir>/results/...) -> their code directory; ASUSTeK's harness is code_AMD.
CODE_DIR = {"AMD": "closed/AMD/code", "ASUSTeK": "closed/ASUSTeK/code_AMD", "Dell": "closed/Dell/code",
            "GigaComputing": "closed/GigaComputing/code", "MiTAC": "closed/MiTAC/code",
            "Quanta_Cloud_Technology": "closed/Quanta_Cloud_Technology/code", "Vultr": "closed/Vultr/code"}
SCENARIO = {"Offline": "offline", "Server": "server", "Interactive": "interactive"}
MODEL_DIR = {"llama2-70b-99": "llama2-70b", "llama2-70b-99.9": "llama2-70b", "mixtral-8x7b": "mixtral-8x7b"}


def git(*args):
    return subprocess.run(["git", "-C", MIRROR, *args], check=True, capture_output=True, text=True).stdout


def blob_of(path):
    return git("rev-parse", f"{COMMIT}:{path}").strip()


def parse(table):
    """The measured entries of one table: {(shape, m): (time_us, solution)}; refuses anything unexpected."""
    if blob_of(table["path"]) != table["blob"]:
        sys.exit(f"{table['path']}: blob {blob_of(table['path'])}, expected {table['blob']}; refused")
    lines = git("show", f"{COMMIT}:{table['path']}").splitlines()
    if not lines[0].startswith("Git Version: aa0bda7b"):
        sys.exit(f"{table['path']}: first line {lines[0]!r}, expected 'Git Version: aa0bda7b'; refused")
    shape_of = {(M, K): name for name, M, K in SHAPES}
    rows = {}
    for number, line in enumerate(lines[1:], start=2):
        f = [x.strip() for x in line.split(",")]
        g = next(i for i, x in enumerate(f) if x.startswith("gfx"))
        M, N, K = int(f[4]), int(f[5]), int(f[6])
        if (M, K) not in shape_of or f[17:20] != ["f8_fnuz_r", "f8_fnuz_r", "f16_r"] or f[g] != "gfx942:sramecc+:xnack-":
            sys.exit(f"{table['path']}:{number}: GEMM M {M} K {K} types {f[17:20]} on {f[g]}: not one of Llama-2-70B's "
                     "four FP8 projections on gfx942; refused")
        key = (shape_of[(M, K)], N)
        if key in rows:
            sys.exit(f"{table['path']}:{number}: {key} listed twice; refused")
        rows[key] = (f[g - 2], int(f[g - 1]))
    measured = {k: v for k, v in rows.items() if k[1] % 16 == 0}
    for (shape, n), value in rows.items():  # every other line is a copy of the measurement above it
        up = (shape, -(-n // 16) * 16)
        if up not in measured or measured[up] != value:
            sys.exit(f"{table['path']}: {shape} at {n} tokens is not a copy of the measured {up[1]}; refused")
    return measured



def main():
    root = os.getcwd()
    tables_csv = [["id", "gpu", "clock_MHz", "clock_basis", "library", "weights", "entries", "source", "blob"]]
    entries_csv = [["table", "shape", "m_tokens", "k", "n", "time_us", "solution"]]
    data = {}
    for t in TABLES:
        measured = parse(t)
        data[t["id"]] = measured
        tables_csv.append([t["id"], "MI325X", t["clock"], t["clock_basis"], LIBRARY, t["layout"], str(len(measured)),
                           f"github.com/{REPO} @{COMMIT} {t['path']}", t["blob"]])
        for name, M, K in SHAPES:
            for n in sorted(n for (s, n) in measured if s == name):
                us, sol = measured[(name, n)]
                entries_csv.append([t["id"], name, str(n), str(K), str(M), us, str(sol)])
    csv_rows.save(os.path.join(root, "tables/gemm_tables.csv"), tables_csv)
    csv_rows.save(os.path.join(root, "tables/gemm_table_entries.csv"), entries_csv)
    write_header(os.path.join(root, "include/llmcost/catalog/gemm_tables.hpp"), tables_csv, entries_csv)
    set_rows(os.path.join(root, "tables/measurements.csv"))


def ident(table_id):
    return table_id.replace("-", "_")


def write_header(path, tables_csv, entries_csv):
    out = ["#pragma once",
           "/// \\file",
           "/// Catalog of measured GEMM tables (`gemm_table`): generated by tables/scripts/amd_hipblaslt_tables.py from",
           "/// tables/gemm_tables.csv and tables/gemm_table_entries.csv; do not edit by hand (a unit test checks both",
           "/// agree field for field). The sources, the clock caveat and the rules: docs/amd-hipblaslt-tables.md.",
           "",
           "#include <llmcost/descriptors/gemm_table.hpp>",
           "",
           "#include <array>",
           "#include <span>",
           "#include <string_view>",
           "",
           "namespace llmcost::catalog {",
           "",
           "namespace gemm_table_data {  // the entries, apart: catalog users that import llmcost and llmcost::catalog keep one detail"]
    head = tables_csv[0]
    for row in tables_csv[1:]:
        t = dict(zip(head, row))
        rows = [r for r in entries_csv[1:] if r[0] == t["id"]]
        out.append(f"/// {t['id']}: {t['source']} (blob {t['blob']})")
        out.append(f"inline constexpr std::array<gemm_table_entry, {len(rows)}> {ident(t['id'])}_entries{{{{")
        shape_index = {name: i for i, (name, _, _) in enumerate(SHAPES)}
        for r in rows:
            out.append(f"    {{{shape_index[r[1]]}, {r[2]}, {r[5]}}},")
        out.append("}};")
    out.append("}  // namespace gemm_table_data")
    out.append("")
    shapes = ", ".join(f"gemm_shape{{\"{n}\", {K}, {M}}}" for n, M, K in SHAPES)
    for row in tables_csv[1:]:
        t = dict(zip(head, row))
        out.append(f"/// {t['library']} on {t['gpu']}, {t['weights']}; times at {t['clock_MHz']} MHz ({t['clock_basis'].split(':')[0]}).")
        out.append(f"inline constexpr gemm_table {ident(t['id'])} = make_gemm_table(")
        out.append(f"    \"{t['id']}\", \"{t['gpu']}\", {t['clock_MHz']}.0, {{{shapes}}},")
        out.append(f"    gemm_table_data::{ident(t['id'])}_entries);")
        out.append("")
    ids = ", ".join(f"&{ident(dict(zip(head, r))['id'])}" for r in tables_csv[1:])
    out.append("/// Every catalog GEMM table, for lookup by id (`gemm_table_by_id`).")
    out.append(f"inline constexpr std::array<const gemm_table*, {len(tables_csv) - 1}> gemm_tables{{{ids}}};")
    out.append("")
    out.append("/// The catalog table named `id`; nullptr where none is (the caller names `gemm_tables`' ids in its refusal).")
    out.append("[[nodiscard]] constexpr const gemm_table* gemm_table_by_id(std::string_view id) {")
    out.append("    for (const gemm_table* g : gemm_tables)")
    out.append("        if (g->id == id) return g;")
    out.append("    return nullptr;")
    out.append("}")
    out.append("")
    out.append("}  // namespace llmcost::catalog")
    text = "\n".join(out) + "\n"
    if not os.path.exists(path) or open(path).read() != text:
        open(path, "w").write(text)


def yaml_table(code_root, bench, model_dir, scenario, gpu):
    """The table id the yaml loads (None: none), after checking the file it names is in its code directory."""
    yaml = f"{code_root}/{bench}/harness_llm/models/{model_dir}/{scenario}_{gpu}.yaml"
    text = git("show", f"{COMMIT}:{yaml}")
    hits = re.findall(r"^\s*HIPBLASLT_TUNING_OVERRIDE_FILE:\s*(\S+)", text, re.M)
    if not hits:
        return None, yaml
    if len(hits) > 1:
        sys.exit(f"{yaml}: {len(hits)} HIPBLASLT_TUNING_OVERRIDE_FILE lines; refused")
    loaded = hits[0]
    prefix = "/lab-mlperf-inference/code/"
    if not loaded.startswith(prefix):
        sys.exit(f"{yaml}: HIPBLASLT_TUNING_OVERRIDE_FILE {loaded} outside {prefix}; refused")
    for t in TABLES:
        if loaded.endswith("/" + t["loaded_by"]):
            local = f"{code_root}/{bench}/{loaded[len(prefix):]}"
            if blob_of(local) != t["blob"]:
                sys.exit(f"{local}: blob {blob_of(local)}, not {t['id']}'s {t['blob']}; refused")
            return t["id"], yaml
    sys.exit(f"{yaml}: loads {loaded}, not a table this script knows; refused")


def set_rows(path):
    rows = csv_rows.load(path)
    head = rows[0]
    if "gemm_table" not in head:
        head.append("gemm_table")
        for r in rows[1:]:
            if r:
                r.append("")
    col = {c: i for i, c in enumerate(head)}
    source = re.compile(r"@" + COMMIT + r" closed/([^/]+)/results/[^/]+/([^/]+)/([A-Za-z]+)/")
    changed = 0
    for r in rows[1:]:
        if not r or not r[col["id"]].startswith("ML51-") or r[col["hardware"]] not in ("MI300X", "MI325X"):
            continue
        m = source.search(r[col["source"]])
        if not m or m.group(1) not in CODE_DIR:
            continue
        submitter, bench, scenario = m.groups()
        want, yaml = yaml_table(CODE_DIR[submitter], bench, MODEL_DIR[bench], SCENARIO[scenario],
                                r[col["hardware"]].lower())
        want = want or ""
        if want and r[col["model"]] != "Llama-2-70B":
            sys.exit(f"{path}: {r[col['id']]}: {yaml} loads {want}, a Llama-2-70B table, on {r[col['model']]}; refused")
        if r[col["gemm_table"]] not in ("", want):
            sys.exit(f"{path}: {r[col['id']]}: gemm_table is {r[col['gemm_table']]!r}, {yaml} says {want!r}; refused")
        if r[col["gemm_table"]] != want:
            r[col["gemm_table"]] = want
            changed += 1
        print(f"{r[col['id']]}: {want or '(none)'} <- {yaml} ({blob_of(yaml)[:8]})")
    csv_rows.save(path, rows)
    print(f"{path}: {changed} rows set")


if __name__ == "__main__":
    main()
