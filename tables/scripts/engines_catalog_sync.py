#!/usr/bin/env python3
"""Writes each `from_row(engine_row{...})` row of include/llmcost/catalog/engines.hpp from the row of
tables/engines.csv with the same name, field for field in the table's column order (all columns but `source`;
a cell that is not a number, such as kv_pool_rule's or router_whole_bf16's names, is written as a string literal). The catalog is the compiled copy of the table
(tests/unit/unit-engines.cpp checks that they agree); this keeps it so after a script edits the table.
Idempotent; run from the repository root. Refuses a catalog row whose name the table does not have."""

import re
import sys

from csv_rows import load

ENGINES, CATALOG = "tables/engines.csv", "include/llmcost/catalog/engines.hpp"


def is_number(cell):
    try:
        float(cell)
        return True
    except ValueError:
        return False


def main():
    rows = load(ENGINES)
    head = rows[0]
    columns = [c for c in head if c != "source"]
    by_name = {r[head.index("name")]: r for r in rows[1:] if r}
    text = open(CATALOG, encoding="utf-8").read()

    def rewrite(m):
        name = re.match(r'\s*"([^"]*)"', m.group(2)).group(1)
        if name not in by_name:
            sys.exit(f"{CATALOG}: catalog row {name!r} is not in {ENGINES}; refused")
        r = by_name[name]
        cells = [r[head.index(c)] for c in columns]
        return m.group(1) + ", ".join(c if is_number(c) else '"' + c + '"' for c in cells) + m.group(3)

    new = re.sub(r"(from_row\(engine_row\{)(.*?)(\}\);)", rewrite, text, flags=re.S)
    if new != text:
        open(CATALOG, "w", encoding="utf-8").write(new)
    print(f"{CATALOG}: {len(re.findall(r'from_row[(]engine_row[{]', new))} rows written from {ENGINES}")


if __name__ == "__main__":
    main()
