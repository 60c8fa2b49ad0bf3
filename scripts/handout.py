#!/usr/bin/env python3
"""Writes the students' handout: a copy of the repository without solutions/ (the model answers,
the wrong answers that are their near twins, and the written exercises' answers), and checks it.

    python3 scripts/handout.py write OUT      # OUT must not exist; then checks it
    python3 scripts/handout.py check OUT      # a handout made another way (a git archive, say)
    python3 scripts/handout.py selftest       # a planted near copy is caught, the real handout passes
    python3 scripts/handout.py selftest build # the handout builds a starter (and, on a GPU, it fails)

The check fails when the folder holds solutions/ or any code file within 5 changed lines of a
model answer (blank lines and // comment lines left out). Students build and test it as they
would the repository: `cmake --preset default`, then `ctest --preset exercises`. Exit status: 0 when
the handout passes, 1 when it does not, 2 for bad arguments.
"""

import os
import shutil
import subprocess
import sys
import tempfile

from course import handout
from course.cli import OneLineParser, writable


def selftest():
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "handout")
        handout.write(out)
        problems = []
        if handout.check(out) != 0:
            problems.append("the repository's own handout was refused")
        answers = handout.model_answers()
        answer = next(iter(answers))
        with open(os.path.join(handout.ROOT, answer), encoding="utf-8") as f:
            text = f.read().splitlines()
        # The model answer with three lines changed, under another name: a near copy.
        code = [i for i, line in enumerate(text) if line.strip() and
                not line.strip().startswith("//")]
        for i in code[len(code) // 2:len(code) // 2 + 3]:
            text[i] = text[i] + " // changed"
            text[i] = "int changed_" + str(i) + " = 0;"
        planted = os.path.join(out, "exercises", "planted.cuh")
        with open(planted, "w", encoding="utf-8") as f:
            f.write("\n".join(text) + "\n")
        if not any(p == "exercises/planted.cuh" for p, _, _ in
                   handout.near_copies(out, answers)):
            problems.append(f"a copy of {answer} with three lines changed was not caught")
        # A starter that holds its whole answer is a copy too.
        starter = os.path.join(out, "exercises", *answer.split(os.sep)[1:])
        with open(os.path.join(handout.ROOT, answer), encoding="utf-8") as f:
            solved = f.read()
        with open(starter, "w", encoding="utf-8") as f:
            f.write("// TODO: finish me\n" + solved)
        if not any(p == os.path.relpath(starter, out) for p, _, _ in
                   handout.near_copies(out, answers)):
            problems.append(f"a starter holding all of {answer} was not caught")
        shutil.copytree(os.path.join(handout.ROOT, "solutions"), os.path.join(out, "solutions"))
        if handout.check(out) == 0:
            problems.append("a handout holding solutions/ passed")
    for p in problems:
        print("handout.py selftest FAILED: " + p)
    if not problems:
        print("handout.py selftest: ok (the handout passes; a near copy and solutions/ are caught)")
    return 1 if problems else 0


def selftest_build():
    """The handout configures and builds a starter with its tests (exercise 01.1) on its own,
    without solutions/; where a GPU is, the untouched starter's tests fail there."""
    from course.gpus import gpus
    with tempfile.TemporaryDirectory() as tmp:
        out, build = os.path.join(tmp, "handout"), os.path.join(tmp, "build")
        handout.write(out)
        steps = [["cmake", "--preset", "ci", "-B", build],
                 ["cmake", "--build", build, "--target", "exercise01_1"]]
        for step in steps:
            done = subprocess.run(step, cwd=out, capture_output=True, text=True)
            if done.returncode != 0:
                print((done.stdout + done.stderr)[-3000:])
                print(f"handout.py selftest build FAILED: {' '.join(step)} exited "
                      f"{done.returncode} in the handout")
                return 1
        names, why = gpus()
        if not names:
            print(f"handout.py selftest build: ok (the handout builds exercise 01.1's starter; "
                  f"its tests not run: {why})")
            return 0
        ran = subprocess.run(["ctest", "--test-dir", build, "-L", "exercise", "-R",
                              "^01 exercise 1/"], cwd=out, capture_output=True, text=True)
        listed = subprocess.run(["ctest", "--test-dir", build, "-N", "-L", "exercise", "-R",
                                 "^01 exercise 1/"], capture_output=True, text=True).stdout
        if ran.returncode == 0 or "Total Tests: 0" in listed:
            print(ran.stdout[-3000:])
            print("handout.py selftest build FAILED: the untouched starter of 01.1 passed its tests "
                  "in the handout")
            return 1
        print("handout.py selftest build: ok (the handout builds exercise 01.1's starter, and the "
              "untouched starter fails its tests)")
        return 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    if argv[1:] == ["selftest", "build"]:
        return selftest_build()
    parser = OneLineParser(prog="handout.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("mode", choices=["write", "check"])
    parser.add_argument("out", help="the handout's folder")
    args = parser.parse_args(argv[1:])
    if args.mode == "write":
        if os.path.exists(args.out):
            parser.error(f"{args.out} exists: give a folder that does not")
        parent = os.path.dirname(os.path.abspath(args.out))
        if not os.path.isdir(parent) or not writable(parent):
            parser.error(f"cannot make {args.out}: {parent} is not a folder that can be written")
        files = handout.write(args.out)
        print(f"handout.py: wrote {len(files)} files to {args.out} (no solutions/)")
    elif not os.path.isdir(args.out):
        parser.error(f"{args.out} is not a folder")
    return handout.check(args.out)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
