"""The suggested assignments of docs/instructors.md as grade.py's --assignment takes them, and
the check that the page's table names the same graded exercises (grade.py selftest assignments)."""

import os
import re

from course.paths import ROOT

# Name: (the table's first column, the graded exercises). The written exercises are not graded.
ASSIGNMENTS = {
    "atomics": ("Atomics and privatisation", ("01.1", "01.2")),
    "warps": ("Warp-level programming", ("01.3", "02.2")),
    "reduction": ("Reduction", ("02.1", "02.3")),
    "locks": ("Locks and memory ordering", ("03.1", "03.2")),
    "data-structures": ("Concurrent data structures", ("04.1", "04.2", "04.3")),
    "sorting": ("Sorting", ("05.1", "05.2", "05.4")),
    "selection": ("Selection", ("06.1", "06.2", "06.4")),
    "multi-gpu": ("More than one GPU", ("07.1", "07.2")),
}

ROW = re.compile(r"^\| ([^|]+?) \| ([^|]+?) \| [^|]+ \|$", re.M)
TOKEN = re.compile(r"(\d\d): |(\d+)|\((graded|written)")


def graded_in(cell):
    """The graded exercises a table cell names, a kind in brackets applying to the numbers before
    it: "01: 1 and 2 (graded), 4 (written)" gives ["01.1", "01.2"], "01: 3; 02: 2 (graded)" gives
    ["01.3", "02.2"]."""
    out, pending, nn = [], [], None
    for lesson, number, kind in TOKEN.findall(cell):
        if lesson:
            nn = lesson
        elif number and nn:
            pending.append(f"{nn}.{number}")
        elif kind:
            if kind == "graded":
                out += pending
            pending = []
    return out


def table_problems(text):
    """Where docs/instructors.md's suggested-assignments table and ASSIGNMENTS disagree."""
    section = text.split("## Suggested assignments", 1)[-1].split("\n## ", 1)[0]
    rows = {title: graded_in(cell) for title, cell in ROW.findall(section)
            if title not in ("assignment", "---")}
    problems = []
    for name, (title, graded) in ASSIGNMENTS.items():
        if title not in rows:
            problems.append(f"--assignment {name}: no row '{title}' in the table")
        elif sorted(rows[title]) != sorted(graded):
            problems.append(f"--assignment {name} grades {', '.join(graded)}; the table's row "
                            f"'{title}' names {', '.join(rows[title]) or 'none'}")
    for title in rows:
        if title not in {t for t, _ in ASSIGNMENTS.values()}:
            problems.append(f"the table's row '{title}' is no --assignment")
    return problems


def selftest():
    """The page's table agrees with ASSIGNMENTS, and a changed row is caught."""
    with open(os.path.join(ROOT, "docs", "instructors.md"), encoding="utf-8") as f:
        text = f.read()
    problems = table_problems(text)
    changed = text.replace("| Reduction | 02: 1 and 3 (graded)", "| Reduction | 02: 1 (graded)")
    if changed == text or not table_problems(changed):
        problems.append("selftest: a row that drops a graded exercise was not caught")
    for p in problems:
        print("grade.py selftest assignments: " + p)
    if not problems:
        print(f"grade.py selftest assignments: the {len(ASSIGNMENTS)} assignments are the table's")
    return 1 if problems else 0
