"""The notes of the rows that load a GEMM table say how their pinned clock is priced (session 39, review 38 NOTE 9).

Each tables/measurements.csv row with a `gemm_table` said of its clock_MHz "recorded, not priced (tables/hardware.csv
has no clock)". That stopped being true twice: since 89037d5 (tables/hardware.csv's compute_clock_MHz, MI325X 1,700)
`plan::as_run` prices a row's clock on the GPU's compute fractions (`achievable_fractions::at_clock`: e x f / 1,700),
and since session 38 on the table's times too (`gemm_tuning::time_scale`: x the table's clock / f). Both now go
through one function, `at_engine_clock`. The sentence is replaced by what is priced, with the row's own clock and its
table's clock (tables/gemm_tables.csv).

The rows are those whose `gemm_table` is set (not a hand-picked id list), and those without a table whose GPU's
compute fractions state a clock (tables/hardware.csv compute_clock_MHz > 0: the MI325X Offline, Mixtral and Vultr
rows), whose sentence names the fractions alone; a row on a GPU that states no clock (MI300X) keeps the old sentence,
which is still true of it. A row is refused unless its notes hold the
old sentence exactly once or the new one already (then it is left: re-runnable). The GPU's fraction clock is read from
tables/hardware.csv and must be stated. Run from the repository root: python3 tables/scripts/gemm_table_clock_notes.py
"""
import sys

sys.path.insert(0, "tables/scripts")
from csv_rows import load, save  # noqa: E402

MEAS = "tables/measurements.csv"
HARDWARE = "tables/hardware.csv"
TABLES = "tables/gemm_tables.csv"
OLD = "; recorded, not priced (tables/hardware.csv has no clock)."


def mhz(text):
    """1600 -> "1,600"."""
    return f"{int(float(text)):,}"


def new_sentence(run, fractions, table_id, table_clock):
    return (f"; priced (plan::as_run, at_engine_clock): the GPU's compute fractions x {mhz(run)} / {mhz(fractions)}, the "
            f"clock tables/hardware.csv states they hold at (compute_clock_MHz, B15), and the GEMM table's times "
            f"(gemm_table {table_id}) x its {mhz(table_clock)} / {mhz(run)} (gemm_tuning::time_scale; "
            f"docs/amd-hipblaslt-tables.md).")


def fractions_sentence(run, fractions):
    return (f"; priced (plan::as_run, at_engine_clock): the GPU's compute fractions x {mhz(run)} / {mhz(fractions)}, "
            f"the clock tables/hardware.csv states they hold at (compute_clock_MHz, B15); no GEMM table.")


def main():
    rows = load(MEAS)
    col = {name: i for i, name in enumerate(rows[0])}
    hw = load(HARDWARE)
    hcol = {name: i for i, name in enumerate(hw[0])}
    clock_of_gpu = {r[hcol["name"]]: r[hcol["compute_clock_MHz"]] for r in hw[1:] if r}
    tables = load(TABLES)
    tcol = {name: i for i, name in enumerate(tables[0])}
    clock_of_table = {r[tcol["id"]]: r[tcol["clock_MHz"]] for r in tables[1:] if r}
    changed, kept = [], []
    for r in rows[1:]:
        if not r:
            continue
        name, table, gpu, run = r[col["id"]], r[col["gemm_table"]], r[col["hardware"]], r[col["clock_MHz"]]
        if not table:
            fractions = clock_of_gpu.get(gpu, "")
            notes = r[col["notes"]]
            if not run or not fractions or float(fractions) <= 0:
                continue
            new = fractions_sentence(run, fractions)
            if new in notes and OLD not in notes:
                kept.append(name)
            elif notes.count(OLD) == 1 and new not in notes:
                r[col["notes"]] = notes.replace(OLD, new)
                changed.append(name)
            elif OLD in notes or new in notes:
                sys.exit(f"{MEAS}: {name}: notes hold the old clock sentence {notes.count(OLD)} times and the new one "
                         f"{notes.count(new)} times; refused")
            continue
        if table not in clock_of_table:
            sys.exit(f"{MEAS}: {name}: gemm_table {table!r} is not in {TABLES}; refused")
        fractions = clock_of_gpu.get(gpu, "")
        if not fractions or float(fractions) <= 0:
            sys.exit(f"{MEAS}: {name}: {HARDWARE} states no compute_clock_MHz for {gpu!r}; refused")
        if not run or float(run) <= 0:
            sys.exit(f"{MEAS}: {name}: clock_MHz is {run!r}: a row that loads a table pins its clock; refused")
        new = new_sentence(run, fractions, table, clock_of_table[table])
        notes = r[col["notes"]]
        if new in notes and OLD not in notes:
            kept.append(name)
            continue
        if notes.count(OLD) != 1 or new in notes:
            sys.exit(f"{MEAS}: {name}: notes hold the old clock sentence {notes.count(OLD)} times (expected 1) "
                     f"and the new one {notes.count(new)} times; refused")
        r[col["notes"]] = notes.replace(OLD, new)
        changed.append(name)
    if not changed and not kept:
        sys.exit(f"{MEAS}: no row has a gemm_table; refused")
    save(MEAS, rows)
    print(f"{MEAS}: {len(changed)} rows' clock sentence corrected, {len(kept)} already")


if __name__ == "__main__":
    main()
