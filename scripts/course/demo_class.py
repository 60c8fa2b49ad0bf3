"""A class of five students for trying grade.py --class (scripts/demo_class.py), made from the
repository's own starters, solutions and wrong answers."""

import glob
import os
import re
import subprocess
import sys
import tempfile

from course import grading
from course.paths import ROOT

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


def refusals(tmp):
    """What demo_class.py says of folders it cannot make the class in, under `tmp`: [] when it
    refuses each in one line with exit 2, else what went wrong. A regular file, a path below
    one, and a folder that cannot be read (mode 0; run as root, where it can be, it holds a
    file, and is refused as not empty)."""
    regular = os.path.join(tmp, "a_file")
    with open(regular, "w") as f:
        f.write("x\n")
    unreadable = os.path.join(tmp, "unreadable")
    os.makedirs(unreadable)
    with open(os.path.join(unreadable, "a_file"), "w") as f:
        f.write("x\n")
    script = os.path.join(ROOT, "scripts", "demo_class.py")
    problems = []
    os.chmod(unreadable, 0)
    try:
        for path in (regular, os.path.join(regular, "class"), unreadable):
            done = subprocess.run([sys.executable, script, path], capture_output=True, text=True)
            said = done.stdout + done.stderr
            if (done.returncode != 2 or said.count("\n") != 1
                    or not said.startswith("demo_class.py: error: ")):
                problems.append(f"{path}: exit {done.returncode}, said {said!r}")
    finally:
        os.chmod(unreadable, 0o700)
    return problems


def selftest():
    """Makes the class in a temporary folder: every student has every exercise's file (but
    broken_build's missing one), and every deadlocked file has its endless loop. A folder it
    cannot make the class in is refused in one line, exit 2 (refusals)."""
    exercises = grading.exercises()
    with tempfile.TemporaryDirectory() as tmp:
        for problem in refusals(tmp):
            print(f"demo_class.py selftest: not refused in one line with exit 2: {problem}")
            return 1
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.devnull, "w") as quiet:
            saved, sys.stdout = sys.stdout, quiet
            try:
                make_class(tmp)
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
    print(f"demo_class.py selftest: ok ({len(exercises)} exercises, five students; a file, a "
          "path below one and an unreadable folder refused)")
    return 0


def make_class(folder):
    """Makes the five students in `folder` (which must not exist, or be empty) and says so. The
    exit status."""
    exercises = grading.exercises()
    for i, e in enumerate(exercises):
        starter = read("exercises", e.lesson_dir, e.name + ".cuh")
        solution = read("solutions", e.lesson_dir, e.name + ".cuh")
        put(os.path.join(folder, "solved"), e, solution)
        put(os.path.join(folder, "untouched"), e, starter)
        put(os.path.join(folder, "deadlocked"), e, with_spin(starter))
        if i % 2 == 0:
            wrong = sorted(glob.glob(os.path.join(ROOT, "solutions", e.lesson_dir, "wrong", e.name,
                                                  "*.cuh")))
            put(os.path.join(folder, "mixed"), e, read(wrong[(i // 2) % len(wrong)]))
        else:
            put(os.path.join(folder, "mixed"), e, solution)
        if i in (0, 7, 12):
            put(os.path.join(folder, "broken_build"), e,
                solution.replace("namespace exercise", "namespace exercise this does not compile", 1))
        elif i != 15:  # the missing one
            put(os.path.join(folder, "broken_build"), e, solution)
    print(f"made {folder}: solved, untouched, mixed, deadlocked, broken_build "
          f"({len(exercises)} exercises each)")
    return 0

