#!/usr/bin/env python3
"""Runs one lesson on your GPU as the course ran it on its H100, and prints your table beside the
committed one. Each GPU's figures are fractions of its own copy bandwidth (the `% of copy` column,
measured by each run), so a T4 and an H100 can be set side by side: a version at 90% of copy on
both is as good on both, whatever the two GPUs' speeds.

    cmake --preset default && cmake --build --preset default
    python3 scripts/compare.py 02            # runs lesson02 as the committed run did, compares
    python3 scripts/compare.py 02 --mine my.csv   # compares a CSV you already have, runs nothing
    python3 scripts/compare.py selftest      # proves the comparison on made-up tables

The run is the one whose CSV the lesson's lesson.json names in "compare" (or else "glance"), with
the same arguments. `step` is the time of the version above over this version's time: the factor
its one idea gained (a library's row has none). A `<` marks a step that paid on the course's GPU (1.05 or more) but not on
yours (below 1): look it up in the checklist at the end of the lesson's part B.
Exit status: 0 when compared; 1 when the run failed a check; 2 for bad arguments or a missing
build; 77 when there is no GPU to run on.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

from course import csvs, lessons as course_lessons
from course.gpus import gpus
from course.paths import ROOT
from course.progress import Progress

COMMITTED = os.path.join(ROOT, "docs", "results", "h100-80gb-hbm3")


def number(text):
    try:
        return float(text)
    except (TypeError, ValueError):
        return None


def steps(rows):
    """Each version's step: the time of the timed version above it over its own; None for the
    first, and for a library's row (its name does not start with v and a digit)."""
    out = {}
    before = None
    for row in rows:
        ms = number(row.get("median_ms"))
        if ms is None or ms <= 0 or not re.match(r"v\d", row["version"]):
            continue
        out[row["version"]] = before / ms if before else None
        before = ms
    return out


def comparison(theirs, mine):
    """The side-by-side table (a list of lines) of two runs' rows."""
    t0, m0 = theirs[0], mine[0]
    lines = [f"course: {t0['device']}, copy {float(t0['copy_gbps']):.0f} GB/s (CUDA {t0['cuda']})",
             f"yours:  {m0['device']}, copy {float(m0['copy_gbps']):.0f} GB/s (CUDA {m0['cuda']})",
             f"run:    {m0['command']}", ""]
    header = (f"{'version':<9} {'course ms':>10} {'% copy':>7} {'step':>6} | "
              f"{'your ms':>10} {'% copy':>7} {'step':>6} | {'yours / course':>14}")
    lines += [header, "-" * len(header)]
    their_steps, my_steps = steps(theirs), steps(mine)
    mine_by_name = {row["version"]: row for row in mine}
    flagged = 0

    def cell(value, width, fmt):
        return f"{fmt.format(value):>{width}}" if value is not None else f"{'-':>{width}}"

    for row in theirs:
        name = row["version"]
        other = mine_by_name.get(name, {})
        tp, mp = number(row.get("pct_copy")), number(other.get("pct_copy"))
        ts, ms_ = their_steps.get(name), my_steps.get(name)
        mark = ""
        if ts is not None and ms_ is not None and ts >= 1.05 and ms_ < 1.0:
            mark = " <"
            flagged += 1
        share = mp / tp if tp and mp is not None else None
        lines.append(f"{name:<9} {cell(number(row.get('median_ms')), 10, '{:.4f}')} "
                     f"{cell(tp, 7, '{:.1f}')} {cell(ts, 6, '{:.2f}')} | "
                     f"{cell(number(other.get('median_ms')), 10, '{:.4f}')} "
                     f"{cell(mp, 7, '{:.1f}')} {cell(ms_, 6, '{:.2f}')} | "
                     f"{cell(share, 14, '{:.2f}')}{mark}")
    lines.append("")
    lines.append("% copy: the row's GB/s over its own GPU's copy bandwidth. step: the version "
                 "above's time over this version's.")
    if flagged:
        lines.append(f"<: {flagged} step(s) paid on the course's GPU but not on yours; see the "
                     "checklist at the end of the lesson's part B.")
    else:
        lines.append("Every step that paid on the course's GPU paid on yours too.")
    return lines


def run_lesson(build_dir, program, args, folder):
    """Runs the program with `args` in `folder`; returns (exit status, log path)."""
    path = os.path.join(build_dir, "bin", program)
    if not os.path.exists(path):
        print(f"compare.py: error: {path} is not built: cmake --preset default && "
              f"cmake --build --preset default", file=sys.stderr)
        sys.exit(2)
    log = os.path.join(folder, program + ".txt")
    print(f"running {program} {' '.join(args)} (its output: {log})", flush=True)
    with open(log, "w") as f, Progress(program):
        status = subprocess.run([path] + args, cwd=folder, stdout=f,
                                stderr=subprocess.STDOUT).returncode
    return status, log


def selftest():
    theirs = [{"version": "v0", "median_ms": "4.0", "pct_copy": "20", "device": "A",
               "copy_gbps": "3000", "cuda": "13.0", "command": "x"},
              {"version": "v1", "median_ms": "2.0", "pct_copy": "40"},
              {"version": "v2", "median_ms": "1.0", "pct_copy": "80"},
              {"version": "CUB", "median_ms": "1.0", "pct_copy": "80"}]
    mine = [{"version": "v0", "median_ms": "8.0", "pct_copy": "25", "device": "B",
             "copy_gbps": "900", "cuda": "12.4", "command": "x"},
            {"version": "v1", "median_ms": "9.0", "pct_copy": "22"},
            {"version": "v2", "median_ms": "3.0", "pct_copy": "67"}]
    text = "\n".join(comparison(theirs, mine))
    problems = []
    v1 = next(line for line in text.splitlines() if line.startswith("v1 "))
    if not v1.endswith(" <"):
        problems.append(f"v1 lost time on 'yours' but is not marked: {v1!r}")
    v2 = next(line for line in text.splitlines() if line.startswith("v2 "))
    if v2.endswith("<") or "0.84" not in v2:
        problems.append(f"v2 gained on both (share 67/80 = 0.84): {v2!r}")
    cub = next(line for line in text.splitlines() if line.startswith("CUB "))
    if cub.split("|")[1].split()[0] != "-":
        problems.append(f"a row missing from 'yours' must show '-': {cub!r}")
    if cub.split("|")[0].split()[-1] != "-":
        problems.append(f"a library's row has no step: {cub!r}")
    if "1 step(s)" not in text:
        problems.append("the count of steps that did not pay is not 1")
    for p in problems:
        print("compare.py selftest: FAILED:", p)
    if not problems:
        print("compare.py selftest: passed (a lost step is marked, a gained one is not, a missing "
              "row shows '-')")
    return 1 if problems else 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    lessons = course_lessons.by_number(course_lessons.load())
    parser = argparse.ArgumentParser(description="Your GPU's table beside the course's.")
    parser.add_argument("lesson", help="the lesson's number: " + ", ".join(sorted(lessons)))
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--mine", default="", help="a CSV of yours to compare; runs nothing")
    parser.add_argument("--course", default=COMMITTED, help="the folder of the course's results")
    args = parser.parse_args(argv[1:])
    if args.lesson not in lessons:
        print(f"compare.py: error: no lesson {args.lesson!r}; the lessons are "
              f"{', '.join(sorted(lessons))}", file=sys.stderr)
        return 2
    csv_name, program, run_args = lessons[args.lesson].compared_run()
    # Relative paths are the repository root's.
    theirs = csvs.read_csv(os.path.join(ROOT, args.course, csv_name))
    if args.mine:
        if not os.path.exists(args.mine):
            print(f"compare.py: error: --mine: no file {args.mine}", file=sys.stderr)
            return 2
        mine, status = csvs.read_csv(os.path.join(ROOT, args.mine)), 0
    else:
        # Said at the start: the lesson would otherwise run its CPU part before it found out.
        names, why = gpus()
        if not names:
            print(f"compare.py: no GPU to run on ({why}): nothing to compare; give --mine a CSV "
                  "from a machine with one", file=sys.stderr)
            return 77
        folder = tempfile.mkdtemp(prefix=f"compare{args.lesson}-")
        status, log = run_lesson(os.path.abspath(args.build_dir), program, run_args, folder)
        if status == 77:
            print(f"compare.py: no GPU to run on ({log} says why)", file=sys.stderr)
            return 77
        if not os.path.exists(os.path.join(folder, csv_name)):
            print(f"compare.py: error: {program} exited {status} and wrote no CSV; see {log}",
                  file=sys.stderr)
            return 1
        mine = csvs.read_csv(os.path.join(folder, csv_name))
    print("\n".join(comparison(theirs, mine)))
    if status != 0:
        print(f"\nyour run FAILED a check (exit {status}): see {log}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
