#!/usr/bin/env python3
"""Makes a class of five students for trying grade.py --class, from the repository's own files.

    python3 scripts/demo_class.py DIR
    python3 scripts/grade.py --class DIR

Each student is a folder DIR/<name>/exercises/NN_topic/<name>.cuh, as a student hands it in:

  solved        every exercise's solution
  untouched     every starter, as handed out
  mixed         every other exercise solved; the rest one of the exercise's wrong answers
                (grading/wrong/): refused by the answer check, wrong, or never finishing
  deadlocked    every starter with a loop that never ends at its first TODO in device code (in
                host code where the exercise has none: lesson 07's)
  broken_build  every solution, but three files that do not compile and one that is missing

A grader expects full marks for solved; nothing for untouched and deadlocked; for broken_build the
points of the exercises that build, all solved; and for mixed the points of its solved exercises.
DIR must not exist yet, or be empty. `demo_class.py selftest` makes the class in a temporary folder
and checks that every student has every exercise, and every deadlocked one its endless loop.
"""

import argparse
import glob
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import grade  # noqa: E402  (the list of exercises)

from course.paths import ROOT  # noqa: E402
SPIN = "  for (;;)\n    __nanosleep(1000);  // never ends\n"
HOST_SPIN = "  for (volatile unsigned spin = 0;; spin = spin + 1) {\n  }  // never ends\n"


def put(student_dir, exercise, text):
    path = os.path.join(student_dir, "exercises", exercise.lesson_dir, exercise.name + ".cuh")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def read(*parts):
    with open(os.path.join(ROOT, *parts), encoding="utf-8") as f:
        return f.read()


def with_spin(text):
    """The starter with SPIN before its first TODO that lies in device code (not in a constexpr
    host function); where no TODO does (lesson 07's exercises are host code), HOST_SPIN before the
    first TODO."""
    todos = list(re.finditer(r"^ *// TODO", text, re.M))
    for todo in todos:
        before = text[:todo.start()]
        header = max(before.rfind("__global__"), before.rfind("__device__"),
                     before.rfind("constexpr std::size_t phases_for"))
        if header >= 0 and not before[header:].startswith("constexpr"):
            return text[:todo.start()] + SPIN + text[todo.start():]
    if not todos:
        raise ValueError("no TODO")
    return text[:todos[0].start()] + HOST_SPIN + text[todos[0].start():]


def selftest():
    """Makes the class in a temporary folder: every student has every exercise's file (but
    broken_build's missing one), and every deadlocked file has its endless loop."""
    import tempfile
    exercises = grade.exercises()
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.devnull, "w") as quiet:
            saved, sys.stdout = sys.stdout, quiet
            try:
                main(["demo_class.py", tmp])
            finally:
                sys.stdout = saved
        for student in ("solved", "untouched", "mixed", "deadlocked", "broken_build"):
            files = glob.glob(os.path.join(tmp, student, "exercises", "*", "*.cuh"))
            expected = len(exercises) - (1 if student == "broken_build" else 0)
            if len(files) != expected:
                print(f"demo_class.py selftest: {student} has {len(files)} files, not {expected}")
                return 1
        for path in glob.glob(os.path.join(tmp, "deadlocked", "exercises", "*", "*.cuh")):
            if "never ends" not in read(path):
                print(f"demo_class.py selftest: {path} has no endless loop")
                return 1
    print(f"demo_class.py selftest: ok ({len(exercises)} exercises, five students)")
    return 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="the class folder to make")
    args = parser.parse_args(argv[1:])
    if os.path.exists(args.dir) and os.listdir(args.dir):
        parser.error(f"{args.dir} exists and is not empty")
    exercises = grade.exercises()
    for i, e in enumerate(exercises):
        starter = read("exercises", e.lesson_dir, e.name + ".cuh")
        solution = read("solutions", e.lesson_dir, e.name + ".cuh")
        put(os.path.join(args.dir, "solved"), e, solution)
        put(os.path.join(args.dir, "untouched"), e, starter)
        put(os.path.join(args.dir, "deadlocked"), e, with_spin(starter))
        if i % 2 == 0:
            wrong = sorted(glob.glob(os.path.join(ROOT, "exercises", e.lesson_dir, "grading",
                                                  "wrong", e.name, "*.cuh")))
            put(os.path.join(args.dir, "mixed"), e, read(wrong[(i // 2) % len(wrong)]))
        else:
            put(os.path.join(args.dir, "mixed"), e, solution)
        if i in (0, 7, 12):
            put(os.path.join(args.dir, "broken_build"), e,
                solution.replace("namespace exercise", "namespace exercise this does not compile", 1))
        elif i != 15:  # the missing one
            put(os.path.join(args.dir, "broken_build"), e, solution)
    print(f"made {args.dir}: solved, untouched, mixed, deadlocked, broken_build "
          f"({len(exercises)} exercises each)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
