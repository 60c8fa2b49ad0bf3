"""Your GPU's table beside the course's (scripts/compare.py): runs a lesson as the committed run
did, or reads a CSV you have, and sets the two side by side as fractions of each GPU's copy
bandwidth, marking a step that paid on the course's GPU but not on yours."""

import os
import re
import subprocess
import sys
import tempfile

from course import cli, csvs
from course.gpus import gpus
from course.paths import ROOT
from course.progress import Progress

# The course's reference GPU's runs (the H200's; docs/results/h100-80gb-hbm3 holds the H100's).
COMMITTED = os.path.join(ROOT, "docs", "results", "h200")
PAID = 1.05  # a step paid when the version above took this many times its time, or more


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
        if ts is not None and ms_ is not None and ts >= PAID and ms_ < 1.0:
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
        raise cli.Refusal(f"{path} is not built: cmake --preset default && "
                          "cmake --build --preset default")
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


def compare(lesson, build_dir, mine_csv, course):
    """Prints `lesson`'s table from the course's results folder `course` beside yours: the CSV
    `mine_csv` if given, else a run of the lesson's program from `build_dir`. Relative paths are
    the repository root's. The exit status (see compare.py's help)."""
    csv_name, program, run_args = lesson.compared_run()
    # Bad input is one line and exit 2 (cli.Refusal): a --course folder without the lesson's
    # CSV, a --mine that is not there, a folder, empty, or not a lesson's CSV.
    cli.input_folder(os.path.join(ROOT, course), "--course")
    theirs_csv = cli.input_file(os.path.join(ROOT, course, csv_name), "the course's CSV")
    theirs = csvs.read_csv(theirs_csv)
    if mine_csv:
        cli.input_file(os.path.join(ROOT, mine_csv), "--mine")
        try:
            mine, status = csvs.read_csv(os.path.join(ROOT, mine_csv)), 0
            comparison(theirs, mine)
        except (OSError, ValueError, KeyError, UnicodeDecodeError) as e:
            what = f"no column {e}" if isinstance(e, KeyError) else str(e)
            raise cli.Refusal(f"--mine {mine_csv} is not a lesson {lesson.number} CSV "
                              f"({what})") from None
    else:
        # Said at the start: the lesson would otherwise run its CPU part before it found out.
        names, why = gpus()
        if not names:
            print(f"compare.py: no GPU to run on ({why}): nothing to compare; give --mine a CSV "
                  "from a machine with one", file=sys.stderr)
            return 77
        folder = tempfile.mkdtemp(prefix=f"compare{lesson.number}-")
        status, log = run_lesson(os.path.abspath(build_dir), program, run_args, folder)
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
