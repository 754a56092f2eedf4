"""The CSV round trip the tables/scripts maintenance scripts share: read a table whose rows must come back
byte for byte when written again (so a script changes only the cells it means to), and write it back.
The scripts import it from their own directory; run them from the repository root."""
import csv
import io
import sys


def dump(rows):
    """The rows as the tables keep them: csv's minimal quoting, "\\n" line ends."""
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(rows)
    return out.getvalue()


def load(path):
    """The rows of `path`; refuses a file that would not be rewritten byte for byte."""
    text = open(path, newline="").read()
    rows = list(csv.reader(io.StringIO(text)))
    if dump(rows) != text:
        sys.exit(f"{path}: the CSV does not round-trip byte for byte; refusing to rewrite it")
    return rows


def save(path, rows):
    open(path, "w", newline="").write(dump(rows))



def row_named(rows, name, path):
    """The one row of `rows` (a table with a `name` column) whose name is `name`; refuses none or several."""
    col = rows[0].index("name")
    hits = [r for r in rows[1:] if r and r[col] == name]
    if len(hits) != 1:
        sys.exit(f"{path}: {len(hits)} rows named {name!r}, expected 1; refused")
    return hits[0]


def set_profile_once(path, profile, values, note):
    """Set `values` (column -> text) on the row named `profile` of the table at `path` and append `note` to its source,
    once: a row whose source already holds the note is left as it is (a later refit may have moved its figures), so a
    second run changes nothing."""
    rows = load(path)
    head = rows[0]
    src = head.index("source")
    r = row_named(rows, profile, path)
    if note not in r[src]:
        for k, v in values.items():
            r[head.index(k)] = v
        r[src] += note
    save(path, rows)


def insert_columns(rows, columns, fill="0", before="source"):
    """Add each of `columns` the header lacks, in order, just before the `before` column (None: at the end), every row
    (blank lines kept blank) filled with `fill`; the names added."""
    head = rows[0]
    added = [c for c in columns if c not in head]
    for column in added:
        at = head.index(before) if before else len(head)
        for r in rows:
            if r:
                r.insert(at, column if r is head else fill)
    return added


def set_once(row, col, field, old, new, sentence, path, name):
    """A figure a script sets once, `old` -> `new`, its `sentence` appended to the row's `source`. A row whose source
    already holds the sentence was set by this script before, and a later script (a refit) may have moved the cell
    since: it is left as it is, so every script can be re-run in any order. Otherwise the cell must hold `old` or
    `new` (refused, naming the table, row and cell, if not) and is set to `new`. True when the row changed."""
    if sentence in row[col["source"]]:
        return False
    if row[col[field]] not in (old, new):
        sys.exit(f"{path}: {name}: {field} is {row[col[field]]!r}, neither {old!r} nor {new!r}; refused")
    row[col[field]] = new
    row[col["source"]] += sentence
    return True


def set_field(row, col, field, value, sentence, path, name):
    """A cell a script owns: refused unless it holds 0, nothing or `value` (naming the table, row and cell), set to
    `value`, and `sentence` appended to the row's `source` once. True when the row changed."""
    changed = False
    if row[col[field]] not in ("0", "", value):
        sys.exit(f"{path}: {name}: {field} is {row[col[field]]!r}, neither 0 nor {value!r}; refused")
    if row[col[field]] != value:
        row[col[field]] = value
        changed = True
    if sentence not in row[col["source"]]:
        row[col["source"]] += sentence
        changed = True
    return changed


def set_profile_column(path, profile, column, value, sentence):
    """The whole job of a script that owns one engine column: adds `column` (0 on every row, before `source`) if the
    table lacks it, sets it to `value` on the row `profile` by `set_field`'s rule, saves only if something changed, and
    prints what it did."""
    rows = load(path)
    changed = bool(insert_columns(rows, [column]))
    col = {name: i for i, name in enumerate(rows[0])}
    changed |= set_field(row_named(rows, profile, path), col, column, value, sentence, path, profile)
    if changed:
        save(path, rows)
    print(f"{path}: {profile}: {column} = {value}" + (" (set)" if changed else " (already set)"))


def upsert_rows(rows, new):
    """Each row of `new` replaces the row of `rows` with the same id (first cell), or is appended after the last."""
    ids = {r[0]: i for i, r in enumerate(rows) if r}
    for r in new:
        if r[0] in ids:
            rows[ids[r[0]]] = r
        else:
            rows.append(r)
            ids[r[0]] = len(rows) - 1


def apply_refits(path, rounds):
    """The engine fits' refit scripts: for each (fits, sentence) round in order, set each (profile, column) from old to new
    once (set_once) with the sentence formatted by field, old, new and fit; save, and print what was set.
    fits maps (profile, column) -> (old, new, the fit as tables/validation.md prints it)."""
    rows = load(path)
    col = {name: i for i, name in enumerate(rows[0])}
    for fits, sentence in rounds:
        for (profile, field), (old, new, fit) in fits.items():
            set_once(row_named(rows, profile, path), col, field, old, new,
                     sentence.format(field=field, old=old, new=new, fit=fit), path, profile)
    save(path, rows)
    print(f"{path}: " + ", ".join(f"{p} {f} = {v[1]}" for fits, _ in rounds for (p, f), v in fits.items()))


def replace_marked(cell, marker, end, note):
    """`cell` with its span from `marker` to `end` (an earlier wording of a script's note) replaced by `note`, or with
    `note` appended where the cell has no such span: a script's sentence in a notes cell, once."""
    if marker in cell and end in cell:
        a = cell.index(marker)
        b = cell.index(end, a) + len(end)
        return cell[:a] + note + cell[b:]
    return cell + note
