#!/usr/bin/env python3
"""Checks the course's timer against NVBench: runs each lesson twice on the same input, once as
lessonNN (the course's timer: CUDA events, a busy kernel queued ahead, the L2 flushed, the median)
and once as lessonNN_nvbench (the same program timed by NVBench, cold), and prints both times of
every version with their ratio.

    cmake --preset default -Dnvbench_DIR=...   # with NVBench (docs/setup.md): lessonNN_nvbench
    cmake --build --preset default
    python3 scripts/timer_check.py --out timer_check          # every lesson with NVBench timing
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

import os
import sys

from course import cli, lessons as course_lessons, timer_check
from course.paths import ROOT
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return timer_check.selftest()
    parser = OneLineParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lessons", help="comma-separated lesson numbers (default: every lesson that builds lessonNN_nvbench; not 07)")
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
        for m in lessons:
            if not m.has_nvbench_program():
                parser.error(f"--lessons: lesson {m.number} has no lessonNN_nvbench "
                             "(NO_NVBENCH in its CMakeLists.txt)")
    else:
        lessons = [m for m in lessons if m.has_nvbench_program()]
    return timer_check.check(lessons, a.build_dir, a.out, a.table)


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
