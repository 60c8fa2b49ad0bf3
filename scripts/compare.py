#!/usr/bin/env python3
"""Runs one lesson on your GPU as the course ran it on its H200, and prints your table beside the
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

import os
import sys

from course import cli, compare, lessons as course_lessons
from course.paths import ROOT
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return compare.selftest()
    lessons = course_lessons.by_number(course_lessons.load())
    parser = OneLineParser(description="Your GPU's table beside the course's.")
    parser.add_argument("lesson", help="the lesson's number: " + ", ".join(sorted(lessons)))
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--mine", default="", help="a CSV of yours to compare; runs nothing")
    parser.add_argument("--course", default=compare.COMMITTED,
                        help="the folder of the course's results")
    args = parser.parse_args(argv[1:])
    if args.lesson not in lessons:
        parser.error(f"no lesson {args.lesson!r}; the lessons are {', '.join(sorted(lessons))}")
    return compare.compare(lessons[args.lesson], args.build_dir, args.mine, args.course)


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
