#!/usr/bin/env python3
"""Grades students' copies of exercises/ against the course's tests, one student or a whole class.

    python3 scripts/grade.py STUDENT_DIR [--build-dir DIR] [--junit FILE]
    python3 scripts/grade.py --class CLASS_DIR [--out DIR] [--build-dir DIR]

STUDENT_DIR is a student's copy of exercises/ (or a folder that holds one, named exercises).
CLASS_DIR holds one such folder per student; the folder's name is the student's name in the
gradebook.

Each graded exercise is the one header the student edits (exercises/NN_topic/<name>.cuh). It is
checked first (scripts/check_exercise.cmake: only a fixed set of standard headers, such as
<algorithm>, <cstdint> and <cmath> but not <vector>, CUDA's <cuda/atomic>, <cuda/std/...> and
<cooperative_groups.h>, and the exercise's support headers may be included, and no library, course
or lesson code named), then built
with the exercise's harness and tested by this repository's tests, so nothing else in the student's
folder takes part. One exercise that does not build, or whose kernel never finishes (the watchdog
stops it within seconds), costs only that exercise. Each exercise's line is printed as soon as it
is graded.

An exercise is worth POINTS points when every one of its tests passes, and nothing otherwise: a
kernel that is wrong at one size, or right by a technique the exercise does not ask for, is wrong
(--partial-credit gives points in proportion to the tests passed instead). The failing tests' own
words are in the report, for an instructor who wants to give partial credit by hand.

Output, for one student: the table on the terminal and JUnit XML (--junit, default in the build
folder). For a class (--out, default CLASS_DIR/../grades): gradebook.csv (one row per student, one
column per exercise, and the total), junit/<student>.xml, and summary.txt (who failed which test,
and why).

The tests need a CUDA GPU. Without one, grade.py says so and exits 77; --build-only still checks
that every answer builds. Exit status: 0 when grading finished (for one student: and every exercise
earned its points), 1 when a student lost points, 2 for bad arguments or a build that could not be
configured, 77 without a GPU.
"""

import argparse
import os
import random
import sys

from course import grading
from course.paths import ROOT


def parse(argv):
    parser = argparse.ArgumentParser(
        prog="grade.py", description=__doc__.split("\n\n")[0],
        epilog="See the top of this script, and docs/instructors.md, for what is graded and how.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("student", nargs="?", help="one student's exercises folder")
    parser.add_argument("--class", dest="class_dir", metavar="DIR",
                        help="a folder with one exercises folder per student")
    parser.add_argument("--out", help="where --class writes the gradebook, JUnit files and summary "
                                      "(default: CLASS_DIR/../grades)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "grade"),
                        help="the build folder, reused from student to student")
    parser.add_argument("--junit", help="one student: the JUnit XML file (default: in the build "
                                        "folder)")
    parser.add_argument("--partial-credit", action="store_true",
                        help="points in proportion to the tests passed, not all or nothing")
    parser.add_argument("--build-only", action="store_true",
                        help="check that every answer builds; run nothing (no GPU needed)")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                        help="test programs run at once (default: min(8, CPUs))")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of the tests' inputs and sizes (default: a fresh one, "
                             "printed; give it again to grade with the same inputs)")
    args = parser.parse_args(argv[1:])
    if (args.student is None) == (args.class_dir is None):
        parser.error("give one student's folder, or --class DIR")
    folder = args.student or args.class_dir
    if not os.path.isdir(folder):
        parser.error(f"{folder} is not a folder")
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1 << 63)
    elif not 0 <= args.seed < 1 << 64:
        parser.error("--seed must be from 0 to 2^64 - 1")
    return args


def main(argv):
    return grading.grade(parse(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
