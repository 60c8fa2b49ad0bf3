#!/usr/bin/env python3
"""Checks what an answer to a graded exercise put in its objects, against the same objects built
with the model answer: an allow-list of what the answer's host code may call and define, and of
the external functions its device code may call (scripts/course/objects.py says each rule).

    python3 scripts/check_objects.py --object exercise01_1_harness.o \\
        --model solution01_1_harness.o [--ptx exercise.ptx --model-ptx solution.ptx] \\
        --namespace exercise01 \\
        [--host-calls cudaMemsetAsync,...] [--device-calls ...] --answer exercise01_1
    python3 scripts/check_objects.py selftest

The lists come from the exercise's manifest (grading/NN_topic/<name>/exercise.json: "host_calls",
"device_calls"). The objects are read with binutils' readelf and c++filt. Exit status: 0 when
every rule holds, 1 with one line per broken rule, 2 for a missing or unreadable file.
"""

import sys

from course import objects
from course.cli import OneLineParser


def names(text):
    return [n for n in text.split(",") if n]


def main(argv):
    if argv[1:] == ["selftest"]:
        return objects.selftest()
    parser = OneLineParser(description="Check what an answer's objects define and call.")
    parser.add_argument("--object", required=True, help="the harness's object, with the answer")
    parser.add_argument("--model", required=True, help="the same, with the model answer")
    parser.add_argument("--ptx", help="the harness's PTX, with the answer")
    parser.add_argument("--model-ptx", help="the same, with the model answer")
    parser.add_argument("--namespace", required=True, help="the exercise's: exerciseNN")
    parser.add_argument("--host-calls", type=names, default=[])
    parser.add_argument("--device-calls", type=names, default=[])
    parser.add_argument("--answer", required=True, help="the answer's name in the messages")
    return objects.check(parser.parse_args(argv[1:]))


if __name__ == "__main__":
    sys.exit(main(sys.argv))
