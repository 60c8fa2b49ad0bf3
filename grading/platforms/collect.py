#!/usr/bin/env python3
"""Makes a class folder for `grade.py --class` out of the submissions a platform exports
(Gradescope's Export Submissions: a folder per submission, submission_<id>; Autolab's handin
folder: a file per student), finding each graded exercise's answer in each as the platforms'
setups do (grading/platforms/common.py's collect: <name>.cuh anywhere, a zip or tar unpacked
first).

    python3 grading/platforms/collect.py SUBMISSIONS CLASS_DIR [--exercises LIST]
    python3 scripts/grade.py --class CLASS_DIR

Each folder, zip or tar in SUBMISSIONS becomes CLASS_DIR/<its name, less the archive's
extension>/exercises/NN_topic/<name>.cuh, the name the build mode's results gave the student
(Gradescope's extra_data "student", with the SHA-256 of each file it built, which this prints
too, to compare). CLASS_DIR must not exist. Exit status 0, or 2 for bad arguments."""

import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import common  # noqa: E402
from course import assignments  # noqa: E402
from course.cli import OneLineParser  # noqa: E402

ARCHIVES = (".tar.gz", ".tgz", ".tar", ".zip")


def collect_class(submissions, class_dir, wanted):
    """{student: (answers, notes)} for each submission of the folder `submissions`, copied into
    `class_dir` (made)."""
    done = {}
    os.makedirs(class_dir)
    for entry in sorted(os.listdir(submissions)):
        path = os.path.join(submissions, entry)
        if entry.startswith(".") or os.path.islink(path):
            continue
        student = next((entry[:-len(a)] for a in ARCHIVES if entry.endswith(a)), entry)
        if os.path.isdir(path):
            done[student] = common.collect(path, os.path.join(class_dir, student), wanted)
        elif student != entry:
            with tempfile.TemporaryDirectory() as tmp:
                try:
                    notes = common.unpack(path, tmp)
                except ValueError as error:
                    done[student] = ({}, [str(error)])
                    continue
                answers, more = common.collect(tmp, os.path.join(class_dir, student), wanted)
                done[student] = (answers, notes + more)
    return done


def main(argv):
    parser = OneLineParser(prog="collect.py", description=__doc__.split("\n\n")[0],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("submissions", help="a folder of submissions: folders, zips or tars")
    parser.add_argument("class_dir", help="the class folder to make (must not exist)")
    choose = parser.add_mutually_exclusive_group()
    choose.add_argument("--exercises", metavar="LIST", help="e.g. 01.1,01.2 (default: all)")
    choose.add_argument("--assignment", choices=sorted(assignments.ASSIGNMENTS),
                        help="a suggested assignment's graded exercises")
    args = parser.parse_args(argv[1:])
    try:
        wanted = common.exercises(common.wanted_ids(args.exercises, args.assignment))
    except ValueError as error:
        parser.error(str(error))
    if not os.path.isdir(args.submissions):
        parser.error(f"{args.submissions} is not a folder")
    if os.path.lexists(args.class_dir):
        parser.error(f"{args.class_dir} exists already")
    done = collect_class(args.submissions, args.class_dir, wanted)
    for student, (answers, notes) in done.items():
        print(f"{student}: {len(answers)} of {len(wanted)} answers")
        for exercise, taken in answers.items():
            print(f"  {exercise.column()}: {taken['from']} (sha256 {taken['sha256']})")
        for line in notes:
            print(f"  {line}")
    print(f"collect.py: {len(done)} students in {args.class_dir}: python3 scripts/grade.py "
          f"--class {args.class_dir}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
