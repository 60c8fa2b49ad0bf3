"""The lesson programs' CSVs (course::write_table_csv: one row per version, with its device,
command, times and check), and what the tables and charts take from them."""

import csv


def read_csv(path):
    """The rows of a CSV, as dicts; a CSV without rows is an error."""
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise ValueError(f"{path} has no rows")
    return rows


def number(text, digits):
    return f"{float(text):.{digits}f}" if text not in ("", None) else "-"


def row_of(rows, version, path):
    # An inline marker's names cannot hold spaces: "v5_find" there is the row "v5 find".
    for name in (version, version.replace("_", " ")):
        for r in rows:
            if r["version"] == name:
                return r
    raise ValueError(f"{path} has no row {version}")


def label(rows):
    if rows[0].get("size"):
        return rows[0]["size"]
    n = int(rows[0]["n"])
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n % size == 0:
            return f"{n // size} {unit}, {rows[0]['dist']}"
    return f"n = {n}, {rows[0]['dist']}"


def speedups(rows):
    """Strong scaling within one run (lesson 07): each checked version's speed-up over the same
    run's v0, which runs on one GPU; {} when v0 failed."""
    v0 = next((r for r in rows if r["version"] == "v0"), None)
    if v0 is None or v0["check"] != "ok":
        return {}
    return {r["version"]: float(v0["median_ms"]) / float(r["median_ms"]) for r in rows
            if r["check"] == "ok"}
