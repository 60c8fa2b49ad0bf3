#!/usr/bin/env python3
"""Checks an answer to a graded exercise in its preprocessed code: the harness with the answer, as
nvcc's preprocessor makes it for the build and for the PTX build (scripts/course/preprocessed.py
says each rule). It runs after the check of the answer's text (cmake/check_exercise.cmake) and
before anything is compiled; on a refusal it writes the answer check's verdict file again, so
that grade.py reports the answer as refused.

    python3 scripts/check_preprocessed.py --preprocessed harness.ii [--ptx-preprocessed ptx.ii] \\
        [--alone answer.ii] [--forbid=__match_any_sync,...] \\
        --answer-file build/grading/exercise01_1/per_warp_histogram.cuh \\
        --include-dir build/grading/exercise01_1/include \\
        [--verdict build/grading/exercise01_1/answer_check.json] --exercise exercise01_1
    python3 scripts/check_preprocessed.py selftest

Exit status: 0 when every rule holds, 1 with one line per problem, 2 for a file not there.
"""

import sys

from course import preprocessed
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return preprocessed.selftest()
    parser = OneLineParser(description="Check an answer's preprocessed code.")
    parser.add_argument("--preprocessed", required=True)
    parser.add_argument("--ptx-preprocessed")
    parser.add_argument("--alone", help="the answer's file preprocessed alone (for its names)")
    parser.add_argument("--forbid", help="the exercise's own forbidden names, comma-separated")
    parser.add_argument("--answer-file", required=True)
    parser.add_argument("--include-dir")
    parser.add_argument("--verdict")
    parser.add_argument("--exercise", required=True)
    return preprocessed.check(parser.parse_args(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
