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
