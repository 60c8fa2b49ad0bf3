#!/usr/bin/env python3
"""Checks the course's timer against NVBench: runs each lesson twice on the same input, once as
lessonNN (the course's timer: CUDA events, a busy kernel queued ahead, the L2 flushed, the median)
and once as lessonNN_nvbench (the same program timed by NVBench, cold), and prints both times of
every version with their ratio.

    cmake --preset default -Dnvbench_DIR=...   # with NVBench (docs/setup.md): lessonNN_nvbench
    cmake --build --preset default
    python3 scripts/timer_check.py --out timer_check          # every lesson
    python3 scripts/timer_check.py --lessons 02,06 --out tc   # some
    python3 scripts/timer_check.py --table DIR                # the table again from a run's files
    python3 scripts/timer_check.py selftest                   # proves the verdicts on made-up rows

Each lesson runs at the size of the run its lesson.json compares (scripts/compare.py), without
its experiments. The two clocks agree on a version when their ratio is within NVBench's own
noise (the relative standard deviation of its samples) or 5%, whichever is larger. Writes, under
--out, each program's log and CSV, NVBench's JSON (lessonNN_nvbench.json) and the table
(timer_check.md). Exit status: 0 when every version agrees; 1 when one does not, or a program
failed; 2 for bad arguments or a missing build; 77 without a GPU.
"""

import argparse
import json
import os
import subprocess
import sys

from course import csvs, lessons as course_lessons
from course.paths import ROOT

KEEP = {"--n", "--dist", "--type", "--k", "--reps", "--seed"}  # what sets the input and the size
TOLERANCE = 0.05


def sized_args(args):
    """The arguments that choose the input and its size; experiments and --csv dropped."""
    out, i = [], 0
    while i < len(args):
        if args[i] in KEEP and i + 1 < len(args):
            out += args[i:i + 2]
            i += 2
        else:
            i += 1
    return out + ["--cpu-reps", "1"]


def noise_by_version(json_path):
    """{version: NVBench's relative standard deviation of its cold GPU samples} from its JSON."""
    out = {}
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    for bench in doc.get("benchmarks", []):
        for state in bench.get("states", []):
            for summary in state.get("summaries", []):
                if summary.get("tag") != "nv/cold/time/gpu/stdev/relative":
                    continue
                for datum in summary.get("data", []):
                    if datum.get("name") == "value":
                        out[bench["name"]] = float(datum["value"])
    return out


def verdicts(course_rows, nvbench_rows, noise):
    """Rows (version, course ms, NVBench ms, ratio, noise, agrees) for every version both timed."""
    theirs = {r["version"]: r for r in nvbench_rows}
    out = []
    for row in course_rows:
        other = theirs.get(row["version"])
        try:
            mine, their = float(row["median_ms"]), float(other["median_ms"])
        except (TypeError, ValueError, KeyError):
            continue
        if mine <= 0 or their <= 0:
            continue
        ratio = mine / their
        spread = noise.get(row["version"], 0.0)
        out.append((row["version"], mine, their, ratio, spread,
                    abs(ratio - 1) <= max(TOLERANCE, spread)))
    return out


def table(lesson_rows):
    lines = ["| lesson | version | course median (ms) | NVBench cold (ms) | course / NVBench | "
             "NVBench noise | agree |", "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for lesson, rows in lesson_rows:
        for version, mine, their, ratio, spread, agrees in rows:
            lines.append(f"| {lesson} | {version} | {mine:.4f} | {their:.4f} | {ratio:.3f} | "
                         f"{100 * spread:.1f}% | {'yes' if agrees else 'no'} |")
    return "\n".join(lines) + "\n"


def run_lesson(meta, bin_dir, out):
    """Runs lessonNN and lessonNN_nvbench; returns their exit statuses."""
    number = meta.number
    _, program, args = meta.compared_run()
    args = sized_args(args)
    statuses = []
    for name, extra in ((program, []),
                        (program + "_nvbench",
                         ["--nvbench", f"--json {os.path.join(out, program + '_nvbench.json')}"])):
        exe = os.path.join(bin_dir, name)
        if not os.path.exists(exe):
            raise SystemExit(f"timer_check.py: error: {exe} is not built (lessonNN_nvbench needs "
                             "NVBench: docs/setup.md)")
        csv = os.path.join(out, f"{name}.csv")
        command = [exe] + args + ["--csv", csv] + extra
        print(f"  {number}: {' '.join([name] + args + extra)}", flush=True)
        with open(os.path.join(out, f"{name}.txt"), "w", encoding="utf-8") as log:
            statuses.append(subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode)
    return statuses


def lesson_rows(meta, out):
    program = meta.compared_run()[1]
    # Relative paths are the repository root's, as in compare.py.
    course = csvs.read_csv(os.path.join(ROOT, out, f"{program}.csv"))
    nvbench = csvs.read_csv(os.path.join(ROOT, out, f"{program}_nvbench.csv"))
    noise = noise_by_version(os.path.join(out, f"{program}_nvbench.json"))
    return verdicts(course, nvbench, noise)


def selftest():
    course = [{"version": "v0", "median_ms": "10.0"}, {"version": "v1", "median_ms": "1.00"},
              {"version": "v2", "median_ms": "0.50"}, {"version": "CUB", "median_ms": "0.40"},
              {"version": "v3", "median_ms": "skipped"}]
    nvbench = [{"version": "v0", "median_ms": "10.4"}, {"version": "v1", "median_ms": "1.20"},
               {"version": "v2", "median_ms": "0.60"}, {"version": "CUB", "median_ms": "0.41"}]
    got = {v: agrees for v, _, _, _, _, agrees in verdicts(course, nvbench, {"v2": 0.2})}
    want = {"v0": True, "v1": False, "v2": True, "CUB": True}
    if got != want:
        print(f"timer_check.py selftest: FAILED: {got} != {want}")
        return 1
    if sized_args("--n 2^24 --show-race --reps 20 --csv x.csv".split()) != \
            ["--n", "2^24", "--reps", "20", "--cpu-reps", "1"]:
        print("timer_check.py selftest: FAILED: sized_args")
        return 1
    print("timer_check.py selftest: ok")
    return 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lessons", help="comma-separated lesson numbers (default: all)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--out", help="run the programs; write their files and the table here")
    parser.add_argument("--table", metavar="DIR", help="print the table of a run's files; run "
                        "nothing")
    a = parser.parse_args(argv[1:])
    if bool(a.out) == bool(a.table):
        parser.error("give one of --out (run) and --table (read a run's files)")
    lessons = course_lessons.load()
    if a.lessons:
        wanted = a.lessons.split(",")
        lessons = [m for m in lessons if m.number in wanted]
        if len(lessons) != len(wanted):
            parser.error(f"--lessons: no such lesson among {a.lessons}")
    folder = a.out or a.table
    failed = False
    if a.out:
        os.makedirs(folder, exist_ok=True)
        for meta in lessons:
            statuses = run_lesson(meta, os.path.join(a.build_dir, "bin"), folder)
            if 77 in statuses:
                print("timer_check.py: no usable GPU: nothing to compare")
                return 77
            failed |= any(s != 0 for s in statuses)
    rows = [(m.number, lesson_rows(m, folder)) for m in lessons]
    text = table(rows)
    print(text)
    if a.out:
        with open(os.path.join(folder, "timer_check.md"), "w", encoding="utf-8") as f:
            f.write(text)
    disagree = [f"{n} {r[0]}" for n, rs in rows for r in rs if not r[5]]
    if disagree:
        print("the clocks disagree (more than NVBench's noise or 5%) on: " + ", ".join(disagree))
    return 1 if failed or disagree else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
