#!/usr/bin/env python3
"""Grades students' copies of exercises/ against the course's tests, one student or a whole class.

    python3 scripts/grade.py STUDENT_DIR [--build-dir DIR] [--format FORMAT] [--results FILE]
    python3 scripts/grade.py --class CLASS_DIR [--out DIR] [--build-dir DIR] [--format FORMAT]
    python3 scripts/grade.py --build-only (STUDENT_DIR | --class CLASS_DIR [--out DIR])
    python3 scripts/grade.py selftest plan | arguments | build-only | runner | formats
    python3 scripts/grade.py selftest names [BUILD_DIR]

STUDENT_DIR is a student's copy of exercises/ (or a folder that holds one, named exercises).
CLASS_DIR holds one such folder per student; the folder's name is the student's name in the
gradebook.

Each graded exercise is the one header the student edits (exercises/NN_topic/<name>.cuh). It is
checked first (cmake/check_exercise.cmake: only the standard library, CUDA's headers and the
exercise's support header may be included, and no library, course or lesson code named), then built
with the exercise's harness and tested by this repository's tests, so nothing else in the student's
folder takes part. One exercise that does not build, or whose kernel never finishes (the watchdog
stops it within seconds), costs only that exercise. Each exercise's line is printed as soon as it
is graded.

The build folder (--build-dir) may be new: grade.py configures it, asks CTest which tests it will
run, and builds every program and file their commands name (the model answers' programs that the
time bounds run, the PTX that the compiled-code checks read) with the answers, listing the tests
again after the build until nothing new is named. It is reused from student to student.

An exercise is worth POINTS points when every one of its tests passes, and nothing otherwise: a
kernel that is wrong at one size, or right by a technique the exercise does not ask for, is wrong
(--partial-credit gives points in proportion to the tests passed instead). The failing tests' own
words are in the report, for an instructor who wants to give partial credit by hand.

Output, for one student: the table on the terminal and the results in --format's format: junit
(the default: JUnit XML), gradescope (Gradescope's results.json), prairielearn (PrairieLearn's
external grader's results.json) or autolab (Autolab's autoresult, whose last line is also the
last line printed), in --results FILE (--junit FILE for JUnit XML; its folder must exist and be
writable; default grade.xml, gradescope.json, prairielearn.json or autolab.txt in the build
folder). For a class (--out DIR, default CLASS_DIR/../grades; made if its parent folder exists and
is writable): gradebook.csv (one row per student, one column per exercise, and the total),
<format>/<student>.xml, .json or .txt (junit/<student>.xml by default), and summary.txt (who
failed which test, and why). A bad --junit, --results or --out is refused before anything is
configured. In every format an exercise is one test worth POINTS points, its checks listed beside
it (worth nothing) with each failed one's reason: an answer refused, missing or not compiled fails
its build check with that reason (scripts/course/formats.py).

--build-only builds the answers and nothing else, runs nothing and gives no points (no GPU needed):
one line per exercise, "builds", "does not build: <why>" or "missing: <why>". It writes no
results and no gradebook, so an earlier grading's files are never overwritten; for a class it
writes build_report.txt in --out (the answers that do not build, or are missing, student by
student).

The tests need a CUDA GPU. Without one, grade.py says so and exits 77; --build-only still checks
that every answer builds. Exit status: 0 when grading finished (for one student: and every exercise
earned its points) or, with --build-only, when every answer builds; 1 when a student lost points,
or with --build-only when an answer does not build or is missing; 2 for bad arguments or a build
that could not be configured; 77 without a GPU.

`grade.py selftest CASE` checks the grader on this machine, no GPU needed: plan (a fresh build
folder, configured only: what grade.py would build makes every file that the tests it would run
name), arguments (bad --junit, --results and --out paths refused at once, exit 2, nothing configured
or made), build-only (one exercise, three students: exit 1, a line each, no gradebook written),
names (CMake's labels and test names for each exercise, in BUILD_DIR or a fresh build folder, are
the ones grade.py expects, the manifest's checks among them, and the answer's test cases are the
model answer's where both are built; grade.py's names spelt otherwise fail it), runner (a test
passes only on exit status 0 and its run's own keyed verdict; a forged line, a time limit, a process
left behind, too much memory or too many processes fail; the sandbox hides what it should and lets a
build write its folder, where bwrap works; the time verdict's ratio is read), formats (each format's
writer, on made-up gradings, against its platform's published specification and examples; a mutation
of each format's file is caught; a class's --format all writes every format's file).

By default the answers are built, and the tests run, in a bubblewrap sandbox (bwrap): without
bwrap, grade.py refuses (exit 2) unless given --no-sandbox.

How a result is read: grade.py runs each test's command itself, with a key drawn for that run
(COURSE_RESULT_KEY), and reads only the lines that carry it (scripts/course/verdicts.py).
"""

import argparse
import os
import random
import sys

from course import assignments, formats, grading
from course.cli import OneLineParser, Refusal, output_file, writable
from course.paths import ROOT


def parse(argv):
    parser = OneLineParser(
        prog="grade.py", description=__doc__.split("\n\n")[0],
        epilog="See the top of this script, and docs/instructors.md, for what is graded and how.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("student", nargs="?", help="one student's exercises folder")
    parser.add_argument("--class", dest="class_dir", metavar="DIR",
                        help="a folder with one exercises folder per student")
    parser.add_argument("--out", help="where --class writes the gradebook, the results files "
                                      "(in <format>/) and the summary (default: "
                                      "CLASS_DIR/../grades; made if its parent folder exists)")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "grade"),
                        help="the build folder, made if new, reused from student to student")
    parser.add_argument("--junit", help="one student: the JUnit XML file, in a folder that exists "
                                        "(default: grade.xml in the build folder)")
    parser.add_argument("--format", choices=formats.FORMATS + ("all",), default=None,
                        help="the results' format: junit (the default), gradescope (its "
                             "results.json), prairielearn (its external grader's results.json) "
                             "or autolab (its autoresult, also printed as the output's last "
                             "line); for a class, one file per student in --out/<format>/, "
                             "and with all, every format's folder from the one grading")
    parser.add_argument("--results", metavar="FILE",
                        help="one student: the results file, in a folder that exists "
                             "(default: grade.xml, gradescope.json, prairielearn.json or "
                             "autolab.txt in the build folder)")
    parser.add_argument("--partial-credit", action="store_true",
                        help="points in proportion to the tests passed, not all or nothing")
    parser.add_argument("--build-only", action="store_true",
                        help="say which answers build (exit 1 if one does not, or is "
                             "missing); run nothing, give no points, write no grades (no GPU "
                             "needed)")
    box = parser.add_mutually_exclusive_group()
    box.add_argument("--sandbox", dest="sandbox", action="store_true", default=True,
                     help="the default: build each student's answers and run each test in a "
                          "bubblewrap sandbox (bwrap): the file system read-only but the build "
                          "folder while building, solutions/ and the other students' folders "
                          "hidden, a private /tmp, no network, nothing left running after a "
                          "test; without bwrap, grade.py refuses to grade")
    box.add_argument("--no-sandbox", dest="sandbox", action="store_false",
                     help="grade without the sandbox (an answer can then read and write what "
                          "the grader can)")
    parser.add_argument("--hide", action="append", default=[], metavar="DIR",
                        help="a folder the sandbox hides too (grade_slurm.py hides the whole "
                             "class from a task that grades one student)")
    parser.add_argument("--build-limit", type=float, default=1800, metavar="SECONDS",
                        help="stop a student's build after this long (default: 1800)")
    parser.add_argument("--memory-limit", type=float, default=32, metavar="GIB",
                        help="stop a test whose processes hold more host memory than this "
                             "(default: 32)")
    parser.add_argument("--jobs", type=int, default=min(8, os.cpu_count() or 1),
                        help="test programs run at once (default: min(8, CPUs))")
    choose = parser.add_mutually_exclusive_group()
    choose.add_argument("--exercises", metavar="LIST",
                        help="grade only these, e.g. 01.1,01.2 (default: every exercise); the "
                             "total, the exit status and the files cover just these")
    choose.add_argument("--assignment", choices=sorted(assignments.ASSIGNMENTS),
                        help="grade one suggested assignment's graded exercises "
                             "(docs/instructors.md)")
    parser.add_argument("--seed", type=int, default=None,
                        help="the seed of the tests' inputs and sizes (default: a fresh one, "
                             "printed; give it again to grade with the same inputs)")
    args = parser.parse_args(argv[1:])
    if (args.student is None) == (args.class_dir is None):
        parser.error("give one student's folder, or --class DIR")
    folder = args.student or args.class_dir
    if not os.path.isdir(folder):
        parser.error(f"{folder} is not a folder")
    if args.class_dir and args.junit:
        parser.error("--junit is for one student (a class's JUnit files go to --out DIR/junit/)")
    if args.student and args.out:
        parser.error("--out is for --class (one student's JUnit XML goes to --junit FILE)")
    if args.class_dir and args.results:
        parser.error("--results is for one student (a class's files go to --out "
                     "DIR/<format>/)")
    if args.build_only and args.junit:
        parser.error("--build-only grades nothing and writes no JUnit XML: leave out --junit")
    if args.build_only and (args.results or args.format):
        parser.error("--build-only grades nothing and writes no results: leave out "
                     f"{'--results' if args.results else '--format'}")
    if args.junit and args.results:
        parser.error("--junit is --results for the JUnit XML: give one of them")
    if args.format == "all" and not args.class_dir:
        parser.error("--format all is for --class (one student: one --format, one --results "
                     "file)")
    if args.junit and args.format not in (None, "junit"):
        parser.error(f"--junit is the JUnit XML's file: with --format {args.format}, give "
                     "--results FILE")
    args.format = args.format or "junit"
    # Bad output paths are refused now, before anything is configured, built or run.
    for option, path in (("--junit", args.junit), ("--results", args.results)):
        if path:
            try:
                output_file(path, option)
            except Refusal as refusal:
                parser.error(str(refusal))
    if args.class_dir:
        given = args.out is not None
        out = os.path.abspath(args.out if given else
                              os.path.join(os.path.dirname(os.path.abspath(args.class_dir)),
                                           "grades"))
        what = f"--out {args.out}" if given else f"the class's output folder {out} (--out)"
        parent = os.path.dirname(out)
        if os.path.exists(out) and not os.path.isdir(out):
            parser.error(f"{what} is not a folder")
        if not os.path.isdir(out) and not os.path.isdir(parent):
            parser.error(f"{what}: the folder {parent} does not exist")
        if not writable(out if os.path.isdir(out) else parent):
            parser.error(f"{what}: cannot write in {out if os.path.isdir(out) else parent}")
        args.out = out
    if args.exercises is not None or args.assignment:
        known = {f"{e.nn}.{e.number}": e for e in grading.exercises()}
        wanted = (assignments.ASSIGNMENTS[args.assignment][1] if args.assignment else
                  [x.strip() for x in args.exercises.split(",") if x.strip()])
        unknown = [x for x in wanted if x not in known]
        if not wanted or unknown:
            parser.error(f"--exercises takes exercises such as 01.1,02.3, not "
                         f"{','.join(unknown) or repr(args.exercises)} (there are "
                         f"{', '.join(known)})")
        args.exercises = [known[x] for x in known if x in wanted]
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(1, 1 << 63)
    elif not 0 <= args.seed < 1 << 64:
        parser.error("--seed must be from 0 to 2^64 - 1")
    return args


def main(argv):
    # (Two words, so that a student's folder named selftest is still graded.)
    if argv[1:] == ["selftest", "assignments"]:
        return assignments.selftest()
    if argv[1:2] == ["selftest"] and argv[2:] in (["plan"], ["arguments"], ["build-only"],
                                                  ["runner"], ["formats"]):
        return grading.selftest(argv[2], parse)
    if argv[1:2] == ["selftest"] and argv[2:3] == ["names"] and len(argv) <= 4:
        return grading.selftest("names", parse, argv[3] if len(argv) == 4 else None)
    return grading.grade(parse(argv))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
