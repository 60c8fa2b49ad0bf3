"""The run records' check (scripts/check_records.py): every file under docs/results/ is one a
reader needs to check a figure, and none holds a path of the machine that made it.

A record is accounted for when
- a page's generated parts read it (results.py's markers, regenerated here without writing), or a
  script reads it (timeline.py's nsys CSVs; timer_check.py --table's three files of each lesson
  beside a timer_check.md);
- a lesson.json declares it: a run's log or the CSV it writes (bench.py), a chart or the CSVs it
  is drawn from (plot.py), or the machine.txt bench.py writes beside them;
- a file of the repository names it: by its path (docs/results/..., a `*` matching any part of
  a name), by a Markdown link, or by its name alone (or its path below its GPU's folder) in a
  file that also names its folder; a record that is accounted for counts as such a file too (a
  summary that names the logs it quotes).
Only the Python standard library is used.
"""

import builtins
import contextlib
import fnmatch
import os
import re
from dataclasses import dataclass, field

from course.paths import ROOT

RESULTS = "docs/results"
# An absolute path of the machine a record was made on. A name like build/tmp/ is not one.
MACHINE_PATH = re.compile(r"(?<![A-Za-z0-9_.~$-])/(?:tmp|home|root|work)/[^\s'\"`)]*")
FULL = re.compile(r"docs/results/[A-Za-z0-9_./*+-]*[A-Za-z0-9_*+-]")
LINK = re.compile(r"\]\(([^)\s#]+)")
NAME = re.compile(r"(?<![A-Za-z0-9_./*+-])((?:[A-Za-z0-9_*+-][A-Za-z0-9_.*+-]*/)*"
                  r"[A-Za-z0-9_*+-][A-Za-z0-9_.*+-]*\.(?:txt|csv|log|json|png|md|svg))")
RESULTS_DIR = re.compile(r"<!-- results-dir: (\S+) -->")
SKIP_DIRS = {".git", ".deps", ".whl", "scratch", "__pycache__", "node_modules"}
TEXT = (".md", ".py", ".json", ".txt", ".cmake", ".cu", ".cuh", ".h", ".hpp", ".cpp", ".ipynb",
        ".sh", ".toml", ".yml", ".yaml", ".csv", ".log", ".in")


def machine_paths(text):
    """The machine paths in a record's text, in order."""
    return [m.group(0) for m in MACHINE_PATH.finditer(text)]


def _folder_named(text, folder):
    return (re.search(re.escape(folder) + r"(?![A-Za-z0-9_.+-])", text) is not None
            or any(m.group(1).rstrip("/") == folder for m in RESULTS_DIR.finditer(text)))


def cited_by(path, text, records):
    """The records (repository paths, of `records`) that the file `path` with `text` names."""
    found = set()
    for m in FULL.finditer(text):
        ref = m.group(0)
        found |= {r for r in records if r == ref or ("*" in ref and fnmatch.fnmatchcase(r, ref))}
    if path.endswith(".md"):
        for m in LINK.finditer(text):
            target = os.path.normpath(os.path.join(os.path.dirname(path), m.group(1)))
            if target in records:
                found.add(target)
    names = {m.group(1) for m in NAME.finditer(text)}
    if names:
        for record in records:
            folder = os.path.dirname(record)
            here = os.path.dirname(path) == folder  # a record naming its neighbours
            if not here and not _folder_named(text, folder) and not _folder_named(
                    text, "/".join(record.split("/")[:3])):
                continue
            for name in names:
                tail = "/".join(record.split("/")[-(name.count("/") + 1):])
                if tail == name or ("*" in name and fnmatch.fnmatchcase(tail, name)):
                    found.add(record)
    return found


@dataclass
class Tree:
    """What the check reads: the records ({path: text, or None for a picture}), the other files
    ({path: text}), the records that pages and scripts read, and the names lesson.json
    declares."""
    records: dict
    sources: dict
    read: set = field(default_factory=set)
    declared: set = field(default_factory=set)


def problems(tree):
    """One line per record that nothing accounts for, and per machine path in a record."""
    records = set(tree.records)
    cited = {r for r in records if r in tree.read or os.path.basename(r) in tree.declared}
    for path, text in tree.sources.items():
        cited |= cited_by(path, text, records)
    todo = list(cited)
    while todo:  # a record that is accounted for vouches for those it names
        path = todo.pop()
        text = tree.records[path]
        if text is None:
            continue
        for record in cited_by(path, text, records) - cited:
            cited.add(record)
            todo.append(record)
    out = [f"{r}: no page cites it and no script reads it (cite it, or git rm it)"
           for r in sorted(records - cited)]
    for path in sorted(records):
        text = tree.records[path]
        for found in machine_paths(text or "")[:3]:
            out.append(f"{path}: holds a path of the machine that made it: {found} (write it "
                       "relative to the repository, or as BUILD/, OUT/...)")
    return out


def _read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (UnicodeDecodeError, OSError):
        return None


@contextlib.contextmanager
def _recording(seen):
    """Every file under docs/results/ that the code inside opens, added to `seen`."""
    real = builtins.open
    top = os.path.join(ROOT, RESULTS) + os.sep

    def recording_open(file, *args, **kwargs):
        if isinstance(file, str):
            full = os.path.abspath(os.path.join(ROOT, file))
            if full.startswith(top):
                seen.add(os.path.relpath(full, ROOT).replace(os.sep, "/"))
        return real(file, *args, **kwargs)

    builtins.open = recording_open
    try:
        yield
    finally:
        builtins.open = real


def _declared(all_lessons):
    names = {"machine.txt"}
    for lesson in all_lessons:
        for run in lesson.runs:
            names.add(run.log + ".txt")
            args = run.args.split()
            for i, arg in enumerate(args[:-1]):
                if arg in ("--csv", "--sweep-csv"):
                    names.add(os.path.basename(args[i + 1]))
        for chart in lesson.charts:
            names.add(chart.file)
            names |= {c for c in chart.csvs if not c.startswith("--")}
    return names


def load():
    """The Tree of the working copy."""
    from course import lessons as course_lessons, results, timeline

    all_lessons = tuple(course_lessons.load())
    records, sources = {}, {}
    for folder, dirs, files in os.walk(ROOT):
        rel = os.path.relpath(folder, ROOT).replace(os.sep, "/")
        dirs[:] = [d for d in dirs if d not in SKIP_DIRS and not d.startswith("build")
                   and not (rel == "." and d.startswith("."))]
        for name in files:
            path = name if rel == "." else f"{rel}/{name}"
            if path.startswith(RESULTS + "/"):
                records[path] = None if name.endswith(".png") else _read_text(
                    os.path.join(ROOT, path))
            elif name.endswith(TEXT):
                text = _read_text(os.path.join(ROOT, path))
                if text is not None:
                    sources[path] = text
    read = set()
    with _recording(read):
        for page in results.markdown_files():
            with open(page, encoding="utf-8") as f:
                results.regenerate(f.read(), results.Page(page, all_lessons))
        timeline.pictures()
    for record in records:
        if os.path.basename(record) == "timer_check.md":
            folder = os.path.dirname(record)
            for meta in all_lessons:
                if meta.glance or meta.compare:
                    program = meta.compared_run()[1]
                    read |= {f"{folder}/{program}{tail}"
                             for tail in (".csv", "_nvbench.csv", "_nvbench.json")}
    return Tree(records, sources, read, _declared(all_lessons))


def check():
    """The check of the working copy: prints each problem; the exit status."""
    found = problems(load())
    for line in found:
        print(line)
    print("check_records.py:", f"{len(found)} problems" if found else "every record is cited "
          "or read, and none holds a machine's path")
    return 1 if found else 0


def selftest():
    """Proves the check on a made-up folder: what it finds, and what it lets through."""
    r = "docs/results/gpu"
    tree = Tree(
        records={f"{r}/a.txt": "x: 1\n", f"{r}/b.csv": "", f"{r}/sub/c.txt": "", f"{r}/d.txt": "",
                 f"{r}/e_1.csv": "", f"{r}/f.png": None, f"{r}/g.txt": "see h.txt\n",
                 f"{r}/h.txt": "", f"{r}/lost.txt": "", f"{r}/paths.txt": "cd /tmp/w/build\n",
                 f"{r}/run.txt": "", f"{r}/ok.txt": "in build/tmp/x and $HOME/work/\n"},
        sources={"lessons/01/README.md": f"<!--l {r}/a.txt /x: (1)/-->1<!--/l-->, "
                                         f"![c](../../{r}/f.png), `e_*.csv`, `g.txt`\n",
                 "docs/x.md": f"in `{r}/`: `sub/c.txt`; `{r}/paths.txt`; `{r}/ok.txt`\n",
                 "docs/y.md": "`d.txt` (no folder named: not a citation)\n"},
        read={f"{r}/b.csv"}, declared={"run.txt"})
    got = problems(tree)
    want = [f"{r}/d.txt: no page cites it and no script reads it (cite it, or git rm it)",
            f"{r}/lost.txt: no page cites it and no script reads it (cite it, or git rm it)",
            f"{r}/paths.txt: holds a path of the machine that made it: /tmp/w/build (write it "
            "relative to the repository, or as BUILD/, OUT/...)"]
    ok = got == want
    print("check_records.py selftest:", "ok" if ok else f"FAILED: {got}")
    return 0 if ok else 1
