"""Grading students' copies of exercises/ (scripts/grade.py): the graded exercises as their
manifests (grading/NN_topic/<name>/exercise.json) give them, each student's answers configured,
built and tested against the course's tests, and the table, JUnit XML, gradebook and summary of
the results.

Nothing here reads a CMake file, a test source or a program's output as text. The tests are
CTest's (ctest --show-only=json-v1), each exercise's picked by its label (ex01.1; the model
answer's, sol01.1), and grade.py runs each test's command itself. What decides a test is its exit
status and the verdict lines that carry the run's key (course.verdicts: the test program's
main(), the watchdog, scripts/time_answer.py, scripts/check_compiled.py); what decides a build is
the answer check's verdict file (cmake/check_exercise.cmake) and the files the build made.

What is built comes from the tests that will run: CTest lists them (ctest --show-only=json-v1,
with the selection the grading runs), every file of the build folder that their commands name is
mapped to the CMake target that makes it (CMake's file API, codemodel-v2), and those targets are
built with the answers: the model answers' programs that the time bounds run, the PTX that the
compiled-code checks read, the GPU check. A program's own Catch2 test cases are listed only once
it is built, so the tests are listed again after each build, until nothing new is named."""

import argparse
import concurrent.futures
import contextlib
import copy
import csv
import glob
import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time

from course import formats, verdicts
from course.gpus import gpus
from course.paths import ROOT
from course.progress import Progress

POINTS = formats.POINTS  # an exercise's worth, in every format
GPU_CHECK = "exercises need a usable CUDA GPU"  # the starters' fixture (common/tests/summary)


def say(text="", end="\n"):
    print(text, end=end, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, text=True, capture_output=True, **kwargs)


class Exercise:
    """A graded exercise, read from its manifest (grading/NN_topic/<name>/exercise.json, which
    cmake/CourseExercise.cmake reads too). Its tests are CTest's, labelled `label` and named
    "<prefix>/<test>"; the model answer's are labelled `model_label`, named "<model_prefix>/..."
    (cmake/CourseExercise.cmake gives both)."""

    def __init__(self, manifest):
        self.lesson_dir = lesson_dir = manifest["lesson"]
        self.nn = lesson_dir[:2]
        self.number = int(manifest["number"])
        self.name = manifest["name"]
        self.target = f"exercise{self.nn}_{self.number}"
        self.model_target = f"solution{self.nn}_{self.number}"
        self.prefix = f"{self.nn} exercise {self.number}"
        self.model_prefix = f"{self.nn} solution {self.number}"
        self.label = f"ex{self.nn}.{self.number}"
        self.model_label = f"sol{self.nn}.{self.number}"
        self.compiled = bool(manifest.get("compiled"))
        self.factor = None if manifest.get("time_factor") is None else \
            str(manifest["time_factor"])

    def column(self):
        return f"{self.nn}.{self.number} {self.name}"


def exercises():
    """Every graded exercise, from the manifests grading/NN_topic/<name>/exercise.json of the
    lessons that lessons/ holds, by lesson and number."""
    found = []
    for path in glob.glob(os.path.join(ROOT, "grading", "[0-9][0-9]_*", "*", "exercise.json")):
        if not os.path.isdir(os.path.join(ROOT, "lessons", path.split(os.sep)[-3])):
            continue
        with open(path, encoding="utf-8") as f:
            found.append(Exercise(json.load(f)))
    return sorted(found, key=lambda e: (e.lesson_dir, e.number))


def student_exercises_dir(folder):
    inner = os.path.join(folder, "exercises")
    return inner if os.path.isdir(inner) else folder


def configure(build_dir, exercises_dir):
    """Configures the build folder for the answers in `exercises_dir`, asking CMake's file API for
    the targets and the files they make (target_files)."""
    query = os.path.join(build_dir, ".cmake", "api", "v1", "query")
    try:
        os.makedirs(query, exist_ok=True)
        open(os.path.join(query, "codemodel-v2"), "w").close()
    except OSError as error:
        return subprocess.CompletedProcess([], 1, "", f"cannot write in {build_dir}: {error}\n")
    command = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
               f"-DCOURSE_EXERCISES_DIR={exercises_dir}"]
    if os.environ.get("CMAKE_PREFIX_PATH"):
        command.append(f"-DCMAKE_PREFIX_PATH={os.environ['CMAKE_PREFIX_PATH']}")
    return run(command)


def codemodel(build_dir):
    """The targets of the configured build folder, as the file API's codemodel-v2 reply of its last
    configure gives them: [(name, its JSON object)]."""
    reply = os.path.join(build_dir, ".cmake", "api", "v1", "reply")
    indexes = sorted(glob.glob(os.path.join(reply, "index-*.json")))
    if not indexes:
        raise RuntimeError(f"CMake wrote no file-API reply in {reply}: configure it again")
    with open(indexes[-1], encoding="utf-8") as f:
        index = json.load(f)
    with open(os.path.join(reply, index["reply"]["codemodel-v2"]["jsonFile"]),
              encoding="utf-8") as f:
        model = json.load(f)
    targets = []
    for configuration in model["configurations"]:
        for entry in configuration["targets"]:
            with open(os.path.join(reply, entry["jsonFile"]), encoding="utf-8") as f:
                targets.append((entry["name"], json.load(f)))
    return targets


def target_files(build_dir):
    """{file: target}: every file a CMake target of the configured build folder makes (its
    artifacts: a program, a library, an object library's objects); real paths."""
    made = {}
    for name, target in codemodel(build_dir):
        for artifact in target.get("artifacts", []):
            made[os.path.realpath(os.path.join(build_dir, artifact["path"]))] = name
    return made


def built_with(build_dir, targets):
    """The targets that building `targets` builds: they and every target they depend on."""
    ids = {}
    depends = {}
    for name, target in codemodel(build_dir):
        ids[target["id"]] = name
        depends[name] = [d["id"] for d in target.get("dependencies", [])]
    found = set()
    todo = list(targets)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo.extend(ids[i] for i in depends.get(name, []) if i in ids)
    return found


class Test:
    """One test as CTest lists it: its name, command, labels and the properties grade.py runs it
    with (environment, working folder, time limit, skip status, whether it runs alone)."""

    def __init__(self, entry):
        properties = {p.get("name"): p.get("value") for p in entry.get("properties", [])}
        self.name = entry.get("name", "")
        self.command = entry.get("command", [])
        self.labels = properties.get("LABELS") or []
        self.environment = properties.get("ENVIRONMENT") or []
        self.directory = properties.get("WORKING_DIRECTORY")
        self.timeout = float(properties.get("TIMEOUT") or 1500)
        self.skip_code = properties.get("SKIP_RETURN_CODE")
        self.serial = bool(properties.get("RUN_SERIAL"))


# The sandbox grade.py reads CTest's listing in, once a student's answers are built (grade()):
# the files CTest reads were made by a build that ran the student's programs (Catch2 lists a
# program's test cases by running it), so they are read where they can change nothing.
LISTING_BOX = [None]


def listing(build_dir):
    """[Test]: every test CTest lists in the build folder now (a program's own test cases only
    once it is built); in LISTING_BOX's sandbox, when grade() has set one."""
    command = ["ctest", "--test-dir", build_dir, "--show-only=json-v1"]
    if LISTING_BOX[0] is not None:
        testing = os.path.join(build_dir, "Testing")  # CTest's log of the listing
        os.makedirs(testing, exist_ok=True)
        box = Sandbox(LISTING_BOX[0].build_dir, LISTING_BOX[0].hidden)
        box.shown = [(os.path.realpath(testing), os.path.realpath(testing))]
        box.shown_writable = True
        command = box.wrap(command, build_dir)
    done = run(command)
    if done.returncode != 0:
        raise RuntimeError(f"ctest could not list the tests of {build_dir}: "
                           f"{(done.stderr or done.stdout).strip()[:300]}")
    return [Test(t) for t in json.loads(done.stdout).get("tests", [])]


def labelled(tests, label):
    return [t for t in tests if label in t.labels]


def listed_tests(build_dir, exercises):
    """[(name, command)]: the tests that grade the exercises, as CTest lists them now."""
    tests = listing(build_dir)
    return [(t.name, t.command) for e in exercises for t in labelled(tests, e.label)]


def suffix(test, prefix):
    """A test's name after "<prefix>/", or None."""
    start = prefix + "/"
    return test.name[len(start):] if test.name.startswith(start) else None


def expected_tests(tests, exercise):
    """The names (after the prefix) of the tests that an answer to `exercise` must pass: the
    model answer's, as CTest lists them (its program is built with the answer's), then any of
    the answer's own that the model's do not have. (Without solutions/, the answer's alone.)"""
    names = [suffix(t, exercise.model_prefix) for t in labelled(tests, exercise.model_label)]
    names = [n for n in names if n is not None]
    for t in labelled(tests, exercise.label):
        own = suffix(t, exercise.prefix)
        if own is not None and own not in names:
            names.append(own)
    return names


def named_files(build_dir, tests):
    """{file: [test names]}: the files inside the build folder that the tests' commands name (the
    program they run, and files given as arguments: a model answer's program, PTX); real paths."""
    root = os.path.realpath(build_dir) + os.sep
    named = {}
    for name, command in tests:
        for word in command:
            if not os.path.isabs(word):
                continue
            path = os.path.realpath(word)
            if path.startswith(root):
                named.setdefault(path, []).append(name)
    return named


def needed_targets(build_dir, exercises):
    """(targets, named, made): the CMake targets that the exercises' grading needs built now (the
    answers' programs, whose test cases CTest lists only once they are built, and whatever makes
    a file that a listed test names), the files the listed tests name ({file: [tests]}) and which
    target makes each ({file: target})."""
    made = target_files(build_dir)
    named = named_files(build_dir, listed_tests(build_dir, exercises))
    known = set(made.values())
    # The model answers' programs too: their test cases are the list an answer must pass.
    targets = {e.target for e in exercises} | {e.model_target for e in exercises
                                                if e.model_target in known}
    targets.update(made[path] for path in named if path in made)
    return sorted(targets), named, made


def build(build_dir, targets, what, doing="the answers and their tests", box=None,
          limit=None):
    """Builds the targets, going on past failures; returns the build's output. Shows ninja's
    progress on a terminal. Under `box` (a Sandbox made for_build), inside it; past `limit`
    seconds, the build is stopped, with all it started, and says so in its output."""
    say(f"{what}: building {doing} ({len(targets)} targets; minutes, the first time)")
    command = ["cmake", "--build", build_dir, "--target", *targets, "--", "-k", "0"]
    if box:
        command = box.wrap(command, build_dir)
    process = subprocess.Popen(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               start_new_session=True)
    RUNNING[process.pid] = process
    lines = []
    timer = None

    def stop(why):
        lines.append(f"grade.py: the build was stopped: {why}\n")
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if limit:
        timer = threading.Timer(limit, stop, [f"it took more than {limit:.0f} s (--build-limit)"])
        timer.start()
    if box and os.path.isdir("/proc/self"):  # a student's build: its host memory is watched too
        def watch():
            while process.poll() is None:
                resident, _ = tree_usage(process.pid)
                if resident > LIMITS["memory"]:
                    stop(f"it held more than {LIMITS['memory'] / 2**30:g} GiB of host memory "
                         "(--memory-limit)")
                    return
                time.sleep(1)
        threading.Thread(target=watch, daemon=True).start()
    with Progress(f"{what}: building") as progress:
        for line in process.stdout:
            lines.append(line)
            # ninja's "[12/40] ..." (shown on a terminal only; nothing is decided by it)
            done, _, total = line[1:].partition("]")[0].partition("/")
            if line.startswith("[") and done.isdigit() and total.isdigit():
                progress.now(f"step {done} of {total}")
        process.wait()
    if timer:
        timer.cancel()
    RUNNING.pop(process.pid, None)
    return "".join(lines)


def answer_targets(exercise, made):
    """The targets that make an answer's own files (its program, its objects, its PTX): not the
    exercise's tests (<target>_tests), which are built once, from the course's files."""
    return {t for t in made.values() if t == exercise.target or
            (t.startswith(exercise.target + "_") and t != exercise.target + "_tests")}


def stage_dir(build_dir, exercise):
    return os.path.join(build_dir, "grading", exercise.target)


def forget_answers(build_dir, exercises):
    """Removes what an earlier student's answers made (their programs, objects, PTX, the answer
    check's verdicts), so that what this student's build did not make is not there to be run."""
    made = target_files(build_dir)
    for exercise in exercises:
        mine = answer_targets(exercise, made)
        for path, target in made.items():
            if target in mine and os.path.exists(path):
                os.remove(path)
        # ...and everything the answer's check left beside its staged copy (the copy, the
        # verdict, the preprocessed code): the next student's tests must not find them.
        stage = stage_dir(build_dir, exercise)
        if os.path.isdir(stage):
            for entry in os.listdir(stage):
                path = os.path.join(stage, entry)
                if os.path.isfile(path):
                    os.remove(path)


def first_error(output, exercise):
    """The compiler's first error about the answer's file, for a person to read (nothing is
    decided by it): the build output's first line naming the file and an error."""
    for line in output.splitlines():
        if exercise.name + ".cuh" in line and "error" in line:
            first, _, rest = line.strip().partition(" ")
            return (first.rsplit("/", 1)[-1] + " " + rest).strip()[:200]
    return "see the build output"


def build_problems(build_dir, exercise, answer, made, output):
    """Why an answer did not build, in one line, or "" when it did: it is missing, its answer
    check refused it (the check's verdict file), or a file its targets make was not made."""
    if not os.path.isfile(answer):
        return f"missing: no {exercise.lesson_dir}/{exercise.name}.cuh"
    check = os.path.join(stage_dir(build_dir, exercise), "answer_check.json")
    try:
        with open(check, encoding="utf-8") as f:
            verdict = json.load(f)
    except (OSError, ValueError):
        verdict = None
    if isinstance(verdict, dict) and verdict.get("pass") is False:
        if verdict.get("missing"):
            return f"missing: {verdict.get('why')}"
        return "refused: " + "; ".join(str(p) + " (not allowed in this exercise)"
                                       for p in verdict.get("problems") or [verdict.get("why")])
    if not isinstance(verdict, dict) or verdict.get("pass") is not True:
        return "did not compile: its answer check did not run (see the build output)"
    mine = answer_targets(exercise, made)
    if any(not os.path.exists(path) for path, target in made.items() if target in mine):
        return "did not compile: " + first_error(output, exercise)
    return ""


# The tests running now ({process id: Popen}): each in a session of its own, stopped with all it
# started if grade.py itself is stopped (stop_running_tests).
RUNNING = {}


def stop_running_tests(signum, _frame):
    """grade.py stopped (Ctrl-C, `timeout`, a batch system's limit): stops every test it started,
    and whatever they started, before it exits, so that nothing it ran is left on the GPU."""
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    print(f"grade.py: stopped by signal {signum}; the tests it was running were stopped too",
          file=sys.stderr, flush=True)
    os._exit(128 + signum)


def alive_in_group(group):
    """Whether a process of the process group `group` is still running (a zombie, which has
    ended and waits only to be reaped, is not): from /proc, or, without it, any member at all."""
    if not os.path.isdir("/proc/self"):
        try:
            os.killpg(group, 0)
            return True
        except ProcessLookupError:
            return False
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                # "pid (name) state ppid pgrp ...": the name may hold spaces and parentheses.
                fields = f.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(group) and fields[0] != "Z":
            return True
    return False


# What one test and all it starts may hold: host memory (grade.py --memory-limit sets it) and
# processes at once.
LIMITS = {"memory": 32 << 30, "processes": 256, "output": 64 << 20}


def tree_usage(root):
    """(resident bytes, processes) of `root` and every process below it, from /proc (a process
    in a PID namespace of its own is still listed there, under its outside number)."""
    parents = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as f:
                fields = f.read().rpartition(")")[2].split()
        except OSError:
            continue
        if fields and fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    members = {root} if root in parents else set()
    grew = True
    while grew:
        grew = False
        for pid, parent in parents.items():
            if parent in members and pid not in members:
                members.add(pid)
                grew = True
    resident = 0
    page = os.sysconf("SC_PAGE_SIZE")
    for pid in members:
        try:
            with open(f"/proc/{pid}/statm", encoding="utf-8") as f:
                resident += int(f.read().split()[1]) * page
        except (OSError, IndexError, ValueError):
            continue
    return resident, len(members)


def wait_within_limits(process, timeout, output=None):
    """Waits for `process` to end, at most `timeout` seconds, checking twice a second that it
    and all it started stay within LIMITS. Returns "" when it ended, "timeout", or why it was
    stopped."""
    start = time.monotonic()
    watch = os.path.isdir("/proc/self")
    while True:
        left = None if timeout is None else timeout - (time.monotonic() - start)
        if left is not None and left <= 0:
            return "timeout"
        try:
            process.wait(timeout=0.5 if left is None else min(0.5, left))
            return ""
        except subprocess.TimeoutExpired:
            pass
        if not watch:
            continue
        if output is not None and os.fstat(output.fileno()).st_size > LIMITS["output"]:
            return (f"it was stopped: it wrote more than {LIMITS['output'] >> 20} MiB of output")
        resident, count = tree_usage(process.pid)
        if resident > LIMITS["memory"]:
            return (f"it was stopped: it held {resident / 2**30:.1f} GiB of host memory, more "
                    f"than the limit of {LIMITS['memory'] / 2**30:g} GiB (--memory-limit)")
        if count > LIMITS["processes"]:
            return (f"it was stopped: it ran {count} processes at once, more than the limit "
                    f"of {LIMITS['processes']}")


# What a student's build may not change in the build folder, though it may write the rest: a
# program it builds runs there (Catch2 lists a program's test cases by running it), and these are
# run, read or linked later, some outside the sandbox: the model answers' programs and objects,
# the tests' objects, the course's libraries, CTest's files and the model answers' test lists.
COURSE_BUILD_FILES = [
    ("tests", "solution*"), ("CTestTestfile.cmake",), ("*", "CTestTestfile.cmake"),
    ("*", "*", "CTestTestfile.cmake"), ("*", "solution*.cmake"), ("*", "*", "solution*.cmake"),
    ("*.a",), ("*", "*.a"), ("*", "*", "*.a"), ("*", "CMakeFiles", "solution*"),
    ("*", "*", "CMakeFiles", "solution*"), ("*", "CMakeFiles", "*_tests.dir"),
    ("*", "*", "CMakeFiles", "*_tests.dir"),
    ("build.ninja",), ("CMakeCache.txt",), ("CMakeFiles",),
]


class Sandbox:
    """Where a test runs, and an answer builds, by default (--no-sandbox: not): bubblewrap
    (bwrap), with the file system read-only, the checkout and the build folder among it (the build
    folder writable for a build, for_build), and `hidden` (solutions/, the class's folder, the
    staged copies of the model answers) emptied (an empty tmpfs over each); a private /tmp; no
    network; its own PID namespace, so that nothing a test starts outlives it; and a minimal /dev
    with the NVIDIA devices added."""

    def __init__(self, build_dir, hidden=()):
        self.build_dir = os.path.realpath(build_dir)
        self.hidden = list(hidden)  # folders, or glob patterns read at each test

    def for_build(self, student_dir):
        """The same sandbox for building one student's answers: the build folder writable, the
        student's own folder visible again (read-only) inside the hidden class folder."""
        box = Sandbox(self.build_dir, self.hidden)
        box.writable = True
        box.kept = [os.path.join(glob.escape(self.build_dir), *p) for p in COURSE_BUILD_FILES]
        real = os.path.realpath(student_dir)
        # At its real path, and at the path the build names it by, if a link leads there.
        box.shown = [(real, real)] + ([(real, os.path.abspath(student_dir))]
                                      if os.path.abspath(student_dir) != real else [])
        return box

    writable = False
    shown = ()
    kept = ()  # glob patterns, in a writable build folder, of what stays read-only
    shown_writable = False

    @classmethod
    def for_grading(cls, build_dir, students, more=()):
        """The sandbox grade.py uses: hidden are solutions/, the student's (or the class's) folder,
        any `more` (--hide), and the copies of the model answers' sources that the build stages
        beside their programs (build/grading/solutionNN_k/; their programs stay, for the time
        bounds). A folder that
        holds the checkout or the build folder is not hidden: the tests need those."""
        build_dir = os.path.abspath(build_dir)
        needed = [os.path.realpath(p) + os.sep for p in (ROOT, build_dir)]
        # (.git too: the model answers are in its history.)
        folders = dict.fromkeys((os.path.join(ROOT, "solutions"), os.path.join(ROOT, ".git"),
                                 os.path.abspath(students), *(os.path.abspath(m) for m in more)))
        hidden = [glob.escape(h) for h in folders
                  if not any(n.startswith(os.path.realpath(h) + os.sep) for n in needed)]
        staged = [os.path.join(glob.escape(build_dir), "grading", "solution*")]
        # ...and those of any other build folder in the checkout (the presets' build/default/),
        # which an answer could otherwise include by a relative path.
        for pattern in (("build", "*", "grading", "solution*"), ("build*", "grading", "solution*")):
            staged.append(os.path.join(glob.escape(ROOT), *pattern))
        return cls(build_dir, hidden + staged)

    @staticmethod
    def missing():
        """Why the sandbox cannot be used here, or "" when it can."""
        if shutil.which("bwrap") is None:
            return "bubblewrap (bwrap) is not installed (Debian and Ubuntu: apt install bubblewrap)"
        done = run(["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
                    "--unshare-pid", "--unshare-net", "true"])
        if done.returncode != 0:
            return f"bwrap cannot make a sandbox here: {(done.stderr or done.stdout).strip()[:200]}"
        return ""

    def wrap(self, command, directory):
        devices = sorted(glob.glob("/dev/nvidia*"))
        # No capabilities: run as root, bwrap would otherwise leave the test those it has, and a
        # test could unmount what hides a folder or remount the file system writable.
        wrapped = ["bwrap", "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-net",
                   "--unshare-ipc", "--cap-drop", "ALL", "--ro-bind", "/", "/", "--dev", "/dev",
                   "--proc", "/proc", "--tmpfs", "/tmp"]
        # The checkout and the build folder may sit under /tmp: visible again, read-only (the
        # build folder writable for a build).
        wrapped += ["--ro-bind", os.path.realpath(ROOT), os.path.realpath(ROOT)]
        wrapped += ["--bind" if self.writable else "--ro-bind", self.build_dir, self.build_dir]
        for device in devices:  # /dev/nvidia0, nvidiactl, nvidia-uvm, the nvidia-caps folder...
            wrapped += ["--dev-bind", device, device]
        # A test needs nothing the build staged (the answers' copies, their preprocessed code):
        # those are hidden from the tests, not from a build.
        staged = [] if self.writable else [os.path.join(glob.escape(self.build_dir), "grading")]
        for pattern in self.hidden + staged:
            for path in sorted(glob.glob(pattern)):
                if os.path.isdir(path):
                    wrapped += ["--tmpfs", os.path.realpath(path)]
        for source, seen in self.shown:
            wrapped += ["--bind" if self.shown_writable else "--ro-bind", source, seen]
        for pattern in self.kept:
            for path in sorted(glob.glob(pattern)):
                wrapped += ["--ro-bind", os.path.realpath(path), os.path.realpath(path)]
        return wrapped + ["--chdir", directory or self.build_dir, "--", *command]


def time_ratio(found):
    """The answer's time over the model answer's, from a run's keyed time verdict (both times are
    in it, passed or not: scripts/time_answer.py), or None when it has none."""
    for verdict in found:
        answer, model = verdict.get("answer_ms"), verdict.get("model_ms")
        if verdict.get("check") == "time" and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) for v in (answer, model)):
            if model > 0 and answer >= 0:
                return answer / model
    return None


def sizes_lines(lines):
    """The keyed COURSE-SIZES lines worth reporting: of the harness's form, "<what> = <whole
    numbers, comma-separated> (seed N)", short, and at most 40 (a test that printed others, or
    more, had answer code print them: they are not copied into any report)."""
    kept = []
    for line in lines:
        what, equals, rest = line.partition(" = ")
        numbers = rest.rsplit(" (seed ", 1)[0]
        if (equals and len(line) <= 400 and re.fullmatch(r"[A-Za-z0-9_ ,.()'/+^-]{1,80}", what)
                and re.fullmatch(r"\d+(, \d+)*", numbers)):
            kept.append(line)
    return kept[:40]


def run_one(test, seed, sandbox=None):
    """Runs one test's command as CTest would (its environment, folder and time limit), given a
    fresh result key and the grading's seed; under `sandbox` (a Sandbox), inside it. Returns (None
    if it passed, else why not; skipped; seconds; the keyed lines worth reporting; its time
    verdict's ratio, time_ratio's, or None). It passes when it exits with status 0, its keyed
    verdicts say it passed and none says it failed, and it left no process behind: every process
    of its process group is stopped when it ends."""
    key = verdicts.new_key()
    env = dict(os.environ)
    for entry in test.environment:
        name, _, value = entry.partition("=")
        env[name] = value
    env = verdicts.keyed_env(env, key, seed)
    start = time.monotonic()
    timed_out = False
    left = False
    with tempfile.TemporaryFile(mode="w+", encoding="utf-8", errors="replace") as out:
        command = sandbox.wrap(test.command, test.directory) if sandbox else test.command
        try:
            process = subprocess.Popen(command, cwd=test.directory or None, env=env,
                                       stdin=subprocess.DEVNULL, stdout=out,
                                       stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as error:
            return f"could not be started: {error}", False, 0.0, [], None
        RUNNING[process.pid] = process
        stopped = wait_within_limits(process, test.timeout, out)
        timed_out = stopped == "timeout"
        left = not stopped and alive_in_group(process.pid)
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()
        RUNNING.pop(process.pid, None)
        seconds = time.monotonic() - start
        out.seek(0)
        found = verdicts.read(out.read(LIMITS["output"]), key)
    passed, skipped, why = verdicts.outcome(found)
    notes = sizes_lines(found["COURSE-SIZES"]) + [str(v.get("why")) for v in found["verdicts"]
                                     if v.get("check") == "time" and v.get("pass") is True]
    status = process.returncode
    ratio = time_ratio(found["verdicts"])
    if timed_out:
        why = f"did not finish in {test.timeout:.0f} s (CTest's limit for it)"
        return why, False, seconds, notes, ratio
    if stopped:
        return stopped, False, seconds, notes, ratio
    if test.skip_code is not None and status == int(test.skip_code):
        return f"not run: {why or 'no usable GPU, or too few'}", True, seconds, notes, ratio
    if skipped:
        return f"not run: {why}", True, seconds, notes, ratio
    if why:
        return why, False, seconds, notes, ratio
    if status != 0:
        ended = (f"was stopped by signal {-status}" if status < 0 else
                 f"ended with exit status {status}")
        return f"it {ended} before its checks were done", False, seconds, notes, ratio
    if not passed:
        return "it ended with status 0 without the harness's verdict (its checks did not all " \
               "run)", False, seconds, notes, ratio
    if left:
        return "it left a process running after it ended", False, seconds, notes, ratio
    return None, False, seconds, notes, ratio


def run_tests(tests, exercise, jobs, seed, sandbox=None):
    """Runs one exercise's tests (those of `tests`, CTest's listing, under its label), `jobs` at a
    time and the RUN_SERIAL ones alone; returns ({test name after the prefix: (None if it passed,
    else why not; its JUnit testcase)}, [what the tests reported: their sizes, the time bound],
    the answer's time over the model answer's, from its time verdict, or None)."""
    tests = labelled(tests, exercise.label)
    results = {}
    notes = []
    ratios = []

    def record(test, outcome):
        why, skipped, seconds, said, ratio = outcome
        if ratio is not None:
            ratios.append(ratio)
        for line in said:
            if line not in notes:
                notes.append(line)
        case = formats.junit_case(test.name, exercise.prefix, seconds,
                                  failure=None if why is None or skipped else why,
                                  skipped=why if skipped else None, notes=said)
        results[suffix(test, exercise.prefix) or test.name] = (why, case)

    together = [t for t in tests if not t.serial]
    with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as pool:
        for test, outcome in zip(together,
                                 pool.map(lambda t: run_one(t, seed, sandbox), together)):
            record(test, outcome)
    for test in tests:
        if test.serial:
            record(test, run_one(test, seed, sandbox))
    return results, notes, (ratios[0] if ratios else None)


def build_for_grading(build_dir, exercises, what, box=None, limit=None):
    """Builds the answers and everything the tests that grade them run (needed_targets), listing
    the tests again after each build until nothing new is named; returns (the builds' output,
    {file: [tests]} of the files the listed tests name, {file: target}). Under `box`, the
    course's targets (the model answers', the tests' objects) are built first, outside it, and
    the answers' own targets then inside it."""
    built = set()
    output = ""
    for _ in range(5):
        targets, named, made = needed_targets(build_dir, exercises)
        new = [t for t in targets if t not in built]
        if not new:
            break
        doing = ("the answers, their tests and the programs the tests run" if not built else
                 "what the tests listed after the build run: " + ", ".join(new))
        theirs = set().union(*(answer_targets(e, made) for e in exercises)) if box else set()
        course = [t for t in new if t not in theirs]
        if box and not built:  # what the answers' programs are linked from (not theirs to change)
            course += ["course_test_main"] + [e.target + "_tests" for e in exercises]
        if theirs and course:
            output += build(build_dir, course, what, "the course's programs the tests run")
            built.update(built_with(build_dir, course))
        answers = [t for t in new if t in theirs] if theirs else new
        if answers:
            output += build(build_dir, answers, what,
                            doing + (", in the sandbox" if box else ""), box, limit)
            built.update(built_with(build_dir, answers))
    return output, named, made


def not_built(build_dir, exercise, named, made):
    """A course file (not the answer's own) that was not made: one the exercise's tests run, or
    one its program is built from (the tests' objects, the shared main()), as (path, target, what
    needs it), or None. Then the course is broken, not the answer, and nobody is graded."""
    mine = answer_targets(exercise, made)
    for path, tests in sorted(named.items()):
        if os.path.exists(path) or not any(t.startswith(exercise.prefix + "/") for t in tests):
            continue
        target = made.get(path, "no target")
        if target not in mine:
            return path, target, f"'{tests[0]}' runs"
    needed = built_with(build_dir, [exercise.target]) - mine
    for path, target in sorted(made.items()):
        if target in needed and not os.path.exists(path):
            return path, target, f"{exercise.target} is built from"
    return None


def failed_lines(output, target):
    """The build's FAILED lines and errors about `target`, for an error message."""
    lines = output.splitlines()
    failed = [line.rstrip() for line in lines if "FAILED:" in line and target in line]
    errors = [line.rstrip() for line in lines if "error" in line][:10]
    return "\n".join(failed[:3] + errors) or "(no FAILED line names it)"


def build_verdict(why_not_built):
    """An exercise's build, in words: "builds", "missing: ..." or "does not build: ..."."""
    if not why_not_built:
        return "builds"
    if why_not_built.startswith("missing: "):
        return why_not_built
    return "does not build: " + why_not_built


def grade_student(student, exercises_dir, build_dir, args):
    """Grades one student; prints a line per exercise as it goes. Returns (scores, junit cases,
    problems, ratios): scores {exercise: points}, problems [(exercise, test, reason)], ratios
    {exercise: its answer's time over the model answer's, from its time verdict}. With
    args.build_only, builds the answers only, runs nothing, and gives no points: scores is empty
    and problems holds one (exercise, "(build)", reason) for each answer that does not build or
    is missing."""
    done = configure(build_dir, exercises_dir)
    if done.returncode != 0:
        say(done.stdout + done.stderr)
        raise RuntimeError("the build could not be configured")
    forget_answers(build_dir, args.exercises)
    box = args.box.for_build(exercises_dir) if args.box else None
    limit = getattr(args, "build_limit", None)
    if args.build_only:
        output = ""
        if box:  # the course's code first, outside the sandbox, which may not change it
            output = build(build_dir, ["course_test_main"] + [e.target + "_tests"
                                                                for e in args.exercises],
                           student, "the course's code the answers are built with")
        output += build(build_dir, [e.target for e in args.exercises], student,
                        "the answers" + (", in the sandbox" if box else ""), box, limit)
        named, made = {}, target_files(build_dir)
    else:
        output, named, made = build_for_grading(build_dir, args.exercises, student, box, limit)
    # Why each answer did not build ("" when it did), and a course program that was not built.
    built = {}
    for exercise in args.exercises:
        answer = os.path.join(exercises_dir, exercise.lesson_dir, exercise.name + ".cuh")
        built[exercise] = build_problems(build_dir, exercise, answer, made, output)
        theirs = not_built(build_dir, exercise, named, made)
        if theirs:
            path, target, needs = theirs
            say(failed_lines(output, target))
            raise RuntimeError(f"{target} ({os.path.relpath(path, build_dir)}), which {needs}, "
                               "was not built: see the build's lines above (the course's own "
                               "code, not the answer)")
    tests = [] if args.build_only else listing(build_dir)
    expected = {e: expected_tests(tests, e) for e in args.exercises}
    scores = {}
    cases = []
    problems = []
    ratios = {}
    if args.build_only:
        say(f"{'lesson':<7} {'exercise':<9} build")
    else:
        say(f"{'lesson':<7} {'exercise':<9} {'tests passed':>13} {'points':>7}  note")
    for exercise in args.exercises:
        names = expected.get(exercise, [])
        total = len(names)
        why_not_built = built[exercise]
        if args.build_only:
            say(f"{exercise.nn:<7} {exercise.number:<9} {build_verdict(why_not_built)}")
            if why_not_built:
                problems.append((exercise, "(build)", why_not_built))
            continue
        if why_not_built:
            passed, note = 0, why_not_built
            for test in names:
                cases.append(formats.junit_case(f"{exercise.prefix}/{test}", exercise.prefix,
                                                failure=why_not_built))
            problems.append((exercise, "(build)", why_not_built))
        else:
            results, notes, ratio = run_tests(tests, exercise, args.jobs, args.seed,
                                              getattr(args, "box", None))
            if ratio is not None:
                ratios[exercise] = ratio
            passed = 0
            failed = []
            for test in names:
                if test not in results:
                    failed.append(test)
                    problems.append((exercise, test, "did not run"))
                    cases.append(formats.junit_case(f"{exercise.prefix}/{test}",
                                                    exercise.prefix, failure="did not run"))
                    continue
                reason, case = results[test]
                cases.append(case)
                if reason is None:
                    passed += 1
                else:
                    failed.append(test)
                    problems.append((exercise, test, reason))
            note = ""
            if failed:
                first = next(p for p in problems if p[0] is exercise)
                note = first[2] if len(first[2]) <= 120 else first[2][:117] + "..."
            if exercise.nn == "07" and args.gpus < 2:
                notes.append("graded on 1 GPU: device placement not checked (every rank shares "
                             "GPU 0; grade lesson 07 on a machine with 2 GPUs or more)")
        if args.partial_credit:
            points = POINTS * passed / total if total else 0.0
        else:
            points = float(POINTS) if total and passed == total else 0.0
        scores[exercise] = points
        say(f"{exercise.nn:<7} {exercise.number:<9} {f'{passed}/{total}':>13} {points:>7.1f}  "
            f"{note}".rstrip())
        if not why_not_built:
            for line in notes:
                say(f"{'':<17} {line}")
                problems.append((exercise, "(report)", line))
    if args.build_only:
        missing = sum(1 for p in problems if p[2].startswith("missing: "))
        broken = len(problems) - missing
        say(f"built only: {len(args.exercises) - len(problems)} of {len(args.exercises)} answers "
            f"build, {broken} {'does' if broken == 1 else 'do'} not, {missing} missing; nothing "
            "was run or graded")
    else:
        say(f"{'total':<17} {'':>13} {sum(scores.values()):>7.1f} of "
            f"{POINTS * len(args.exercises)}")
    return scores, cases, problems, ratios


def write_results(path, fmt, student, args, graded, seconds):
    """Writes one student's results (`graded`: grade_student's) in `fmt` (course.formats) at
    `path`; gives the text written."""
    scores, cases, problems, ratios = graded
    text = formats.render(fmt, student, args.exercises, scores, problems, ratios, args.seed,
                          seconds, formats.tests_of(args.exercises, cases), cases)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return text


def grade(args):
    """Grades one student (args.student) or a class (args.class_dir), as grade.py's arguments
    say; prints as it goes and writes the results in args.format (course.formats; JUnit XML by
    default) at args.results (default: the format's file in the build folder), or the gradebook,
    one results file per student in args.out/<format>/ and the summary. Autolab's autoresult,
    for one student, is also printed last. With args.build_only, only builds the answers and
    says which build: no points, no results, no gradebook (a class's build_report.txt in args.out
    instead). args.out is the class's output folder, checked by grade.py; args.exercises, when
    set, the exercises to grade (default: all). The exit status (see grade.py's help)."""
    if not getattr(args, "exercises", None):
        args.exercises = exercises()
    fmt = getattr(args, "format", None) or "junit"
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, stop_running_tests)
    names, why = gpus()
    gpu = bool(names)
    gpu_text = f"GPU 0: {names[0]}" if gpu else why
    if not gpu and not args.build_only:
        print(f"grade.py: no CUDA GPU ({gpu_text}): the exercises' tests need one. Grade on a GPU "
              "machine, or use --build-only to check that the answers build.", file=sys.stderr)
        return 77
    LIMITS["memory"] = int(getattr(args, "memory_limit", 32) * 2**30)
    args.box = None
    if getattr(args, "sandbox", True):
        why = Sandbox.missing()
        if why:
            print(f"grade.py: error: no sandbox: {why}; or grade without one (--no-sandbox), "
                  "which lets an answer read and write what the grader can", file=sys.stderr)
            return 2
        args.box = Sandbox.for_grading(args.build_dir, args.class_dir or args.student,
                                       getattr(args, "hide", ()))
        LISTING_BOX[0] = args.box
        say("sandbox: each answer is built, and each test run, in bubblewrap; hidden from them: "
            + ", ".join(args.box.hidden))
    build_dir = os.path.abspath(args.build_dir)
    args.gpus = len(names)
    if gpu and not args.build_only:
        say(f"grading on {gpu_text}" + (f" and {args.gpus - 1} more" if args.gpus > 1 else ""))
        say(f"seed {args.seed}: every test's inputs and sizes come from it "
            f"(grade.py --seed {args.seed} grades again with the same ones)")

    if args.student:
        student = os.path.basename(os.path.abspath(args.student).rstrip(os.sep))
        start = time.time()
        try:
            graded = grade_student(student, student_exercises_dir(
                os.path.abspath(args.student)), build_dir, args)
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        scores, problems = graded[0], graded[2]
        if args.build_only:
            say(f"built in {time.time() - start:.0f} s")
            return 1 if problems else 0
        path = os.path.abspath(getattr(args, "results", None) or args.junit or
                               os.path.join(build_dir, formats.DEFAULT_FILE[fmt]))
        seconds = time.time() - start
        text = write_results(path, fmt, student, args, graded, seconds)
        say(f"{formats.TITLE[fmt]}: {path}")
        say(f"graded in {seconds:.0f} s")
        if fmt == "autolab":  # its autoresult is the last line of the output
            say(text, end="")
        return 0 if sum(scores.values()) == POINTS * len(args.exercises) else 1

    class_dir = os.path.abspath(args.class_dir)
    students = sorted(d for d in os.listdir(class_dir)
                      if os.path.isdir(os.path.join(class_dir, d)) and not d.startswith("."))
    if not students:
        print(f"grade.py: error: {args.class_dir} has no student folders", file=sys.stderr)
        return 2
    out = os.path.abspath(args.out or os.path.join(os.path.dirname(class_dir), "grades"))
    written = list(formats.FORMATS) if fmt == "all" else [fmt]
    rows = []
    summary = []
    class_start = time.time()
    for i, student in enumerate(students, 1):
        say(f"\n=== student {i} of {len(students)}: {student}")
        start = time.time()
        try:
            graded = grade_student(
                student, student_exercises_dir(os.path.join(class_dir, student)), build_dir,
                args)
            scores, problems = graded[0], graded[2]
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        seconds = time.time() - start
        if args.build_only:
            say(f"built in {seconds:.0f} s")
            summary.append(f"{student}: {len(args.exercises) - len(problems)} of "
                           f"{len(args.exercises)} answers build")
            for exercise, _, reason in problems:
                summary.append(f"  {exercise.prefix} ({exercise.name}): {build_verdict(reason)}")
            continue
        say(f"graded in {seconds:.0f} s")
        for each in written:  # --format all: every format's file, from this one grading
            os.makedirs(os.path.join(out, each), exist_ok=True)
            write_results(os.path.join(out, each, student + formats.EXTENSION[each]), each,
                          student, args, graded, seconds)
        rows.append([student] + [f"{scores[e]:.1f}" for e in args.exercises] +
                    [f"{sum(scores.values()):.1f}", f"{seconds:.0f}", str(args.seed)])
        summary.append(f"{student}: {sum(scores.values()):.1f} of "
                       f"{POINTS * len(args.exercises)} (seed {args.seed})")
        for exercise, test, reason in problems:
            summary.append(f"  {exercise.prefix} ({exercise.name}), {test}: {reason}")
    if args.build_only:
        # No points were given: the gradebook, summary and JUnit files of a grading stay as
        # they are.
        os.makedirs(out, exist_ok=True)
        report = os.path.join(out, "build_report.txt")
        with open(report, "w", encoding="utf-8") as f:
            f.write("\n".join(summary) + "\n")
        broken = sum(1 for line in summary if line.startswith("  "))
        say(f"\n{len(students)} students' answers built in {time.time() - class_start:.0f} s, "
            f"nothing run or graded: {report}")
        return 1 if broken else 0
    with open(os.path.join(out, "gradebook.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["student"] + [e.column() for e in args.exercises] +
                        [f"total (of {POINTS * len(args.exercises)})", "seconds", "seed"])
        writer.writerows(rows)
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(summary) + "\n")
    noun = "student" if len(students) == 1 else "students"
    say(f"\n{len(students)} {noun} graded in {time.time() - class_start:.0f} s: "
        f"{os.path.join(out, 'gradebook.csv')}, {os.path.join(out, 'summary.txt')}, "
        + ", ".join(os.path.join(out, each) + "/" for each in written))
    return 0


# grade.py selftest CASE: checks of the grader that need no GPU (common/tests/CMakeLists.txt runs
# each as a cpu test).

def dry_run_makes(build_dir, targets):
    """The files (real paths) that building `targets` would make in a build folder never built:
    every output of a step in ninja's graph of them (ninja -t graph), as the graph's file nodes
    that a step's arrow points to. Independent of the file API, and of how a version of ninja
    explains a dry run (1.13 explains only the first reason of each step)."""
    done = run(["ninja", "-C", build_dir, "-t", "graph", *targets])
    labels, outputs = {}, []
    for line in done.stdout.splitlines():
        # '"0x1" [label="tests/x"]' a file; '"0x2" [label="rule", shape=ellipse]' a step;
        # '"0x2" -> "0x1"' a step's output ('"0x1" -> "0x3" [label=" phony"]' a one-input step's);
        # '"0x4" -> "0x2" [arrowhead=none]' an input of a step
        node = re.match(r'"([^"]+)" \[label="([^"]*)"(, shape=ellipse)?\]$', line)
        if node:
            if not node.group(3):
                labels[node.group(1)] = node.group(2)
            continue
        arrow = re.match(r'"[^"]+" -> "([^"]+)"(.*)$', line)
        if arrow and "arrowhead=none" not in arrow.group(2):
            outputs.append(arrow.group(1))
    return {os.path.realpath(os.path.join(build_dir, labels[o])) for o in outputs if o in labels}


def selftest_plan():
    """A fresh build folder, configured only: every file inside it that the tests grade.py would
    run name (their programs, the model answers' programs, the PTX) is made by building the
    targets that grade.py would build, and those are not the whole build."""
    all_exercises = exercises()
    with tempfile.TemporaryDirectory(prefix="grade-plan-") as tmp:
        build_dir = os.path.join(tmp, "build")
        done = configure(build_dir, os.path.join(ROOT, "exercises"))
        if done.returncode != 0:
            return [f"the fresh build folder could not be configured:\n{done.stdout}{done.stderr}"]
        targets, named, _ = needed_targets(build_dir, all_exercises)
        problems = []
        for e in all_exercises:
            if e.target not in targets:
                problems.append(f"{e.prefix}: its program {e.target} is not built")
            if e.model_target not in targets:
                problems.append(f"{e.prefix}: the model answer's program {e.model_target} is "
                                "not built (its test cases are the list an answer must pass)")
            solution = os.path.realpath(os.path.join(build_dir, "tests", e.model_target))
            if e.factor and solution not in named:
                problems.append(f"{e.prefix}: no test listed names the model answer's program "
                                f"{solution} (the listing of the tests is wrong)")
        if any(t.startswith("wrong") for t in targets):
            problems.append(f"the wrong answers are built too: {targets}")
        makes = dry_run_makes(build_dir, targets)
        if not makes:
            problems.append("ninja's dry run says it would make nothing")
        for path, tests in sorted(named.items()):
            if path not in makes:
                problems.append(f"'{tests[0]}' runs {os.path.relpath(path, build_dir)}, which "
                                f"building grade.py's targets does not make")
        # What the tests read of the model answers (their programs, objects and PTX, for the time
        # bounds and the objects check) must stay read-only while a student's answers build.
        # (the files made empty here, in this folder that is never built, for the sandbox's globs
        # to find them, or a folder above them, as they would in a built one)
        for path in named:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if not os.path.exists(path):
                open(path, "w").close()
        kept = {os.path.realpath(found) for pattern in
                Sandbox(build_dir).for_build(build_dir).kept for found in glob.glob(pattern)}
        for path, tests in sorted(named.items()):
            above = {path[:i] for i, c in enumerate(path) if c == os.sep} | {path}
            if "solution" in os.path.relpath(path, build_dir) and not above & kept:
                problems.append(f"'{tests[0]}' reads {os.path.relpath(path, build_dir)}, which a "
                                "student's build may write (not among COURSE_BUILD_FILES)")
        if not problems:
            say(f"grade.py selftest plan: ok ({len(targets)} targets make the {len(named)} files "
                f"that the tests of {len(all_exercises)} exercises name)")
        return problems


def selftest_arguments():
    """Bad --junit, --results and --out paths, --format's options that do not go together, and
    options of the other mode: exit 2 and one error line, at once (a cmake on the PATH that
    records being called is never called, the build folder never made), and no folder created;
    good ones get past the check."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="grade-arguments-") as tmp:
        fake_bin = os.path.join(tmp, "bin")
        os.makedirs(fake_bin)
        called = os.path.join(tmp, "cmake-was-called")
        with open(os.path.join(fake_bin, "cmake"), "w", encoding="utf-8") as f:
            f.write(f"#!/bin/sh\necho \"$@\" >> '{called}'\nexit 1\n")
        os.chmod(os.path.join(fake_bin, "cmake"), 0o755)
        env = dict(os.environ, PATH=fake_bin + os.pathsep + os.environ.get("PATH", ""))
        student = os.path.join(tmp, "class", "ada")
        os.makedirs(os.path.join(student, "exercises"))
        class_dir = os.path.join(tmp, "class")
        a_file = os.path.join(tmp, "a-file")
        open(a_file, "w").close()
        locked = os.path.join(tmp, "locked")
        os.makedirs(locked)
        os.chmod(locked, 0o500)
        try:
            with tempfile.TemporaryFile(dir=locked):
                pass
            # Root writes in any folder: a folder where nobody can make a file, if there is one.
            locked = "/proc" if os.path.isdir("/proc/self") else None
        except OSError:
            pass
        build_dir = os.path.join(tmp, "build")
        missing = os.path.join(tmp, "nonexist")
        bad = [
            ([student, "--junit", os.path.join(missing, "x.xml")], "--junit", missing),
            ([student, "--junit", os.path.join(missing, "deeper", "x.xml")], "--junit", missing),
            ([student, "--junit", tmp], "--junit", None),
            ([student, "--junit", os.path.join(a_file, "x.xml")], "--junit", None),
            (["--class", class_dir, "--out", os.path.join(missing, "grades")], "--out", missing),
            (["--class", class_dir, "--build-only", "--out", os.path.join(missing, "grades")],
             "--out", missing),
            (["--class", class_dir, "--out", a_file], "--out", None),
            (["--class", class_dir, "--out", os.path.join(a_file, "grades")], "--out", None),
            (["--class", class_dir, "--junit", os.path.join(tmp, "x.xml")], "--junit", None),
            ([student, "--out", os.path.join(tmp, "grades")], "--out", None),
            ([student, "--build-only", "--junit", os.path.join(tmp, "x.xml")], "--junit", None),
            ([student, "--results", os.path.join(missing, "x.json")], "--results", missing),
            ([student, "--format", "gradescope", "--results", tmp], "--results", None),
            ([student, "--format", "autolab", "--results", os.path.join(a_file, "x.txt")],
             "--results", None),
            (["--class", class_dir, "--results", os.path.join(tmp, "x.json")], "--results", None),
            ([student, "--build-only", "--results", os.path.join(tmp, "x.json")], "--results",
             None),
            ([student, "--build-only", "--format", "gradescope"], "--format", None),
            ([student, "--format", "prairielearn", "--junit", os.path.join(tmp, "x.xml")],
             "--junit", None),
            ([student, "--junit", os.path.join(tmp, "x.xml"), "--results",
              os.path.join(tmp, "y.xml")], "--junit", None),
            ([student, "--format", "moodle"], "--format", None),
            ([student, "--format", "all"], "--format", None),
            (["--class", class_dir, "--format", "all", "--junit", os.path.join(tmp, "x.xml")],
             "--junit", None),
        ]
        if locked:
            bad += [([student, "--junit", os.path.join(locked, "x.xml")], "--junit", None),
                    ([student, "--format", "prairielearn", "--results",
                      os.path.join(locked, "x.json")], "--results", None),
                    (["--class", class_dir, "--out", os.path.join(locked, "grades")], "--out",
                     None)]
        else:
            say("grade.py selftest arguments: no unwritable folder here (root, and no /proc): "
                "that case is not checked")
        grade_py = os.path.join(ROOT, "scripts", "grade.py")
        for extra, option, absent in bad:
            command = [sys.executable, grade_py, *extra, "--build-dir", build_dir]
            done = run(command, env=env, timeout=60)
            errors = [line for line in done.stderr.splitlines() if "error:" in line]
            shown = " ".join(extra)
            if done.returncode != 2:
                problems.append(f"grade.py {shown}: exit {done.returncode}, not 2")
            if len(errors) != 1 or option not in errors[0]:
                problems.append(f"grade.py {shown}: not one error line about {option}: "
                                f"{done.stderr.strip()!r}")
            if os.path.exists(called) or os.path.exists(build_dir):
                problems.append(f"grade.py {shown}: configured the build before refusing")
            if absent and os.path.exists(absent):
                problems.append(f"grade.py {shown}: made {absent}")
            for path in (called, build_dir):
                if os.path.isdir(path):
                    shutil.rmtree(path)
                elif os.path.exists(path):
                    os.remove(path)
            if os.path.isdir(missing):
                shutil.rmtree(missing)
        # Good paths get past the check: to the configure (the fake cmake), or to the GPU check.
        good = [[student, "--junit", os.path.join(tmp, "x.xml")],
                [student, "--format", "gradescope", "--results", os.path.join(tmp, "x.json")],
                [student, "--format", "autolab"],
                ["--class", class_dir, "--format", "prairielearn", "--out",
                 os.path.join(tmp, "pl-grades")],
                ["--class", class_dir, "--format", "all", "--out",
                 os.path.join(tmp, "all-grades")],
                ["--class", class_dir, "--build-only", "--out", os.path.join(tmp, "new-grades")],
                ["--class", class_dir, "--build-only"]]
        for extra in good:
            done = run([sys.executable, grade_py, *extra, "--build-dir", build_dir], env=env,
                       timeout=60)
            shown = " ".join(extra)
            if not (done.returncode == 77 or os.path.exists(called)):
                problems.append(f"grade.py {shown}: refused (exit {done.returncode}): "
                                f"{done.stderr.strip()!r}")
            if os.path.exists(called):
                os.remove(called)
        if locked and locked.startswith(tmp):
            os.chmod(locked, 0o700)
    if not problems:
        say(f"grade.py selftest arguments: ok ({len(bad)} refused at once, {len(good)} let "
            "through)")
    return problems


def selftest_build_only(parse):
    """--build-only on one exercise (01.1), in a fresh build folder: a solved student alone, exit 0
    and no JUnit XML; then a class of three, the solved student, one with no answer and one whose
    answer the check refuses: a line each, exit 1, no gradebook, summary or JUnit files written
    over an earlier grading's, a build report. Then, the answer built, CTest lists its test
    cases, and what grade.py would build holds its program and the model answer's. (The solved
    student comes first: its answer compiles beside the test programs' main, on two cores.)"""
    problems = []
    exercise = next(e for e in exercises() if e.target == "exercise01_1")
    solution = os.path.join(ROOT, "solutions", exercise.lesson_dir, exercise.name + ".cuh")
    with open(solution, encoding="utf-8") as f:
        solved = f.read()
    with tempfile.TemporaryDirectory(prefix="grade-build-only-") as tmp:
        class_dir = os.path.join(tmp, "class")
        answers = {"a_solved": solved, "b_missing": None,
                   "c_refused": solved + "\nstatic_assert(sizeof(cub::Sum) > 0, \"\");\n"}
        for student, text in answers.items():
            folder = os.path.join(class_dir, student, "exercises", exercise.lesson_dir)
            os.makedirs(folder)
            if text is not None:
                with open(os.path.join(folder, exercise.name + ".cuh"), "w",
                          encoding="utf-8") as f:
                    f.write(text)
        out = os.path.join(tmp, "grades")
        os.makedirs(out)
        earlier = {"gradebook.csv": "student,total (of 190)\na_solved,190.0\n",
                   "summary.txt": "a_solved: 190.0 of 190\n"}
        for name, text in earlier.items():
            with open(os.path.join(out, name), "w", encoding="utf-8") as f:
                f.write(text)
        build_dir = os.path.join(tmp, "build")

        # In the sandbox, as grade.py builds by default, where bwrap works (CI installs it).
        boxed = not Sandbox.missing()

        def build_only(*argv):
            args = parse(["grade.py", *argv, "--build-dir", build_dir, "--build-only"] +
                         ([] if boxed else ["--no-sandbox"]))
            args.exercises = [exercise]
            saved, sys.stdout = sys.stdout, io.StringIO()
            try:
                status = grade(args)
            finally:
                text, sys.stdout = sys.stdout.getvalue(), saved
            return status, text

        status, text = build_only(os.path.join(class_dir, "a_solved"))
        if boxed and "in the sandbox" not in text:
            problems.append(f"--build-only did not build in the sandbox:\n{text[-400:]}")
        if not boxed:
            say(f"grade.py selftest build-only: without the sandbox ({Sandbox.missing()})")
        if status != 0 or "graded in" in text or "built in" not in text:
            problems.append(f"--build-only, a solved student: exit {status}, not 0, or its last "
                            f"line is not 'built in N s':\n{text[-400:]}")
        if os.path.exists(os.path.join(build_dir, "grade.xml")):
            problems.append("--build-only, one student: wrote JUnit XML")

        status, text = build_only("--class", class_dir, "--out", out)
        lines = {}
        student = None
        for line in text.splitlines():
            if line.startswith("=== student"):
                student = line.rsplit(": ", 1)[1]
            elif line.startswith(f"{exercise.nn}      {exercise.number} "):
                lines[student] = line.split(None, 2)[2]
        want = {"a_solved": "builds", "c_refused": "does not build: refused: ",
                "b_missing": f"missing: no {exercise.lesson_dir}/{exercise.name}.cuh"}
        for student, start in want.items():
            if not lines.get(student, "").startswith(start):
                problems.append(f"--build-only --class: {student}'s line is "
                                f"{lines.get(student)!r}, not {start!r}...")
        if status != 1:
            problems.append(f"--build-only --class: exit {status}, not 1 (an answer does not "
                            "build, one is missing)")
        if "graded in" in text or "nothing run or graded" not in text:
            problems.append(f"--build-only --class: its last lines are not true:\n{text[-400:]}")
        for name, was in earlier.items():
            with open(os.path.join(out, name), encoding="utf-8") as f:
                if f.read() != was:
                    problems.append(f"--build-only --class wrote over {name}")
        if os.path.exists(os.path.join(out, "junit")):
            problems.append("--build-only --class wrote JUnit files")
        report = os.path.join(out, "build_report.txt")
        if not os.path.isfile(report):
            problems.append("--build-only --class wrote no build_report.txt")
        else:
            with open(report, encoding="utf-8") as f:
                written = f.read()
            if "refused" not in written or "missing" not in written:
                problems.append(f"build_report.txt does not name both answers:\n{written}")
        try:
            targets, named, _ = needed_targets(build_dir, [exercise])
        except RuntimeError as error:
            targets, named = [str(error)], {}
        program = os.path.realpath(os.path.join(build_dir, "tests", exercise.target))
        if program not in named or exercise.model_target not in targets:
            problems.append(f"once {exercise.target} is built, its test cases and the model "
                            f"answer's program are not in what grade.py builds: {targets}")
    if not problems:
        say("grade.py selftest build-only: ok (builds, does not build, missing; exit 1; no "
            "gradebook written; the second listing names the answer's program)")
    return problems


def names_problems(build_dir, all_exercises):
    """Where CMake's tests and grade.py's names for them disagree, in `build_dir` (a configured
    build folder): each exercise's label (ex01.1) and its model answer's (sol01.1) have tests,
    named with the prefixes grade.py expects, the objects check (where there is a model answer)
    and the compiled-code and time checks its manifest names among them; every test labelled
    "exercise" but the GPU check carries exactly one exercise's label; and where both programs
    are built, the answer's tests are the model's, name by name. Returns (problems, how many
    exercises were compared name by name)."""
    tests = listing(build_dir)
    known = {e.label for e in all_exercises}
    problems = []
    full = 0
    for e in all_exercises:
        mine = labelled(tests, e.label)
        model = labelled(tests, e.model_label)
        solution = os.path.isfile(os.path.join(ROOT, "solutions", e.lesson_dir, e.name + ".cuh"))
        if not mine:
            problems.append(f"{e.prefix}: CTest lists no test labelled {e.label}")
        if solution and not model:
            problems.append(f"{e.prefix}: CTest lists no test labelled {e.model_label}")
        for test, prefix in [(t, e.prefix) for t in mine] + [(t, e.model_prefix) for t in model]:
            if suffix(test, prefix) is None:
                problems.append(f"{e.prefix}: '{test.name}' is labelled {test.labels}, but its "
                                f"name does not start with '{prefix}/'")
        scripts = {os.path.basename(word) for t in mine for word in t.command}
        if e.compiled and "check_compiled.py" not in scripts:
            problems.append(f"{e.prefix}: its manifest names a compiled-code spec, and no test "
                            f"labelled {e.label} runs check_compiled.py")
        if solution and "check_objects.py" not in scripts:
            problems.append(f"{e.prefix}: it has a model answer, and no test labelled {e.label} "
                            "runs check_objects.py")
        if e.factor and solution and "time_answer.py" not in scripts:
            problems.append(f"{e.prefix}: its manifest names a time factor, and no test labelled "
                            f"{e.label} runs time_answer.py")
        built = all(os.path.isfile(os.path.join(build_dir, "tests", target))
                    for target in (e.target, e.model_target))
        if built and solution:
            full += 1
            own = {suffix(t, e.prefix) for t in mine}
            theirs = {suffix(t, e.model_prefix) for t in model}
            for name in sorted(theirs - own, key=str):
                problems.append(f"{e.prefix}: the model answer has the test '{name}', which the "
                                "answer's program does not list")
            for name in sorted(own - theirs, key=str):
                problems.append(f"{e.prefix}: the answer's program lists '{name}', which the "
                                "model answer's does not")
    for test in tests:
        if "exercise" not in test.labels or test.name == GPU_CHECK:
            continue
        ours = [label for label in test.labels if label in known]
        if len(ours) != 1:
            problems.append(f"'{test.name}' is labelled exercise and carries {len(ours)} "
                            f"labels of the exercises' own (ex01.1 and so on): {test.labels}")
    return problems, full


def selftest_names(build_dir=None):
    """CTest's test names, in `build_dir` (a configured build folder; by default a fresh one,
    configured only), against grade.py's expected names, exercise by exercise."""
    all_exercises = exercises()
    with tempfile.TemporaryDirectory(prefix="grade-names-") as tmp:
        if build_dir is None:
            build_dir = os.path.join(tmp, "build")
            done = configure(build_dir, os.path.join(ROOT, "exercises"))
            if done.returncode != 0:
                return [f"the fresh build folder could not be configured:\n{done.stdout}"
                        f"{done.stderr}"]
        problems, full = names_problems(build_dir, all_exercises)
        # The check can fail: grade.py's names for one exercise spelt as CMake does not spell them.
        for field, wrong in (("label", "ex01.9"), ("prefix", "01 exercise 9"),
                             ("model_label", "solution01.1"), ("model_prefix", "01 model 1")):
            changed = copy.copy(all_exercises[0])
            setattr(changed, field, wrong)
            found, _ = names_problems(build_dir, [changed] + all_exercises[1:])
            if not found:
                problems.append(f"with grade.py's {field} of {changed.prefix} changed to "
                                f"{wrong!r}, the names still agree: the check cannot fail")
        if not problems:
            say(f"grade.py selftest names: ok ({len(all_exercises)} exercises, {full} of them "
                f"built and compared with the model answer's test case by test case)")
        return problems


# What a made-up test program of the runner's selftest prints to pass.
PASS_LINE = "verdict('{\"check\": \"tests\", \"pass\": true}')"


def selftest_runner():
    """How grade.py decides a test, on made-up test programs (no GPU, no build): a pass needs exit
    status 0 and the run's own keyed verdict; a line with another key, a verdict without the exit
    status, a skip, a time limit and a process left behind each fail, with their reason; a process
    a test leaves behind is stopped; and grade.py stopped mid-test stops the test too."""
    problems = []
    with tempfile.TemporaryDirectory(prefix="grade-runner-") as tmp:
        def program(name, body):
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(f"#!{sys.executable}\nimport os, subprocess, sys, time\n"
                        "k = os.environ.get('COURSE_RESULT_KEY', '')\n"
                        "def verdict(text):\n    print('COURSE-VERDICT', k, text, flush=True)\n"
                        f"{body}\n")
            os.chmod(path, 0o755)
            return path

        passed = PASS_LINE
        leftover = os.path.join(tmp, "leftover.pid")
        cases = [
            ("passes", passed, None),
            ("no verdict", "pass", "without the harness's verdict"),
            ("a verdict with its own key",
             "print('COURSE-VERDICT 0123456789abcdef0123456789abcdef {\"check\": \"tests\", "
             "\"pass\": true}')", "without the harness's verdict"),
            ("a verdict, then exit 1", passed + "\nsys.exit(1)", "ended with exit status 1"),
            ("a pass and a failed check",
             passed + "\nverdict('{\"check\": \"catch2\", \"pass\": false, \"why\": \"x == 1\"}')",
             "x == 1"),
            ("the watchdog", "verdict('{\"check\": \"watchdog\", \"pass\": false, \"why\": "
             "\"the kernel did not finish in 10 s\"}')\nos._exit(1)", "did not finish in 10 s"),
            ("a skip", "sys.exit(77)", "not run: "),
            ("too long", passed + "\ntime.sleep(30)", "did not finish in 2 s"),
            ("a process left behind",
             f"p = subprocess.Popen(['sleep', '60'])\nopen({leftover!r}, 'w').write(str(p.pid))\n"
             + passed, "left a process running"),
            ("too much memory", "b = bytearray(96 << 20)\ntime.sleep(5)\n" + passed,
             "more than the limit of"),
            ("too many processes",
             "ps = [subprocess.Popen(['sleep', '5']) for _ in range(12)]\ntime.sleep(5)\n" + passed,
             "processes at once"),
            ("a time verdict", "verdict('{\"check\": \"time\", \"pass\": true, \"why\": \"x: "
             "1.0000 ms, 0.50 times\", \"answer_ms\": 1.0, \"model_ms\": 2.0}')", None),
        ]
        limits = dict(LIMITS)
        LIMITS.update(memory=64 << 20, processes=8)  # small, for the two cases above
        for name, body, want in cases:
            test = Test({"name": f"99 exercise 1/{name}",
                         "command": [program(name.replace(" ", "_"), body)],
                         "properties": [{"name": "TIMEOUT", "value": 2},
                                        {"name": "SKIP_RETURN_CODE", "value": 77}]})
            why, skipped, _, _, ratio = run_one(test, 1)
            if ratio != (0.5 if name == "a time verdict" else None):
                problems.append(f"'{name}': the time ratio read is {ratio}")
            if want is None and why is not None:
                problems.append(f"'{name}': failed ({why}), should pass")
            elif want is not None and (why is None or want not in why):
                problems.append(f"'{name}': {why!r}, not a failure saying {want!r}")
            if (name == "a skip") != skipped:
                problems.append(f"'{name}': skipped is {skipped}")
        LIMITS.update(limits)
        if os.path.exists(leftover):
            with open(leftover, encoding="utf-8") as f:
                pid = int(f.read())
            time.sleep(0.2)
            try:
                os.kill(pid, 0)
                with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                    alive = f.read().split()[2] != "Z"
            except (ProcessLookupError, FileNotFoundError):
                alive = False
            if alive:
                problems.append("the process a test left behind is still running")
                os.kill(pid, signal.SIGKILL)
        else:
            problems.append("the test that leaves a process behind did not start it")
        # grade.py stopped while a test runs: the test, and what it started, stop too.
        started = os.path.join(tmp, "started.pid")
        sleeper = program("sleeper", f"p = subprocess.Popen(['sleep', '60'])\n"
                                     f"open({started!r}, 'w').write(str(p.pid))\ntime.sleep(60)")
        driver = os.path.join(tmp, "driver.py")
        with open(driver, "w", encoding="utf-8") as f:
            scripts = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
            f.write(f"import signal, sys\nsys.path.insert(0, {scripts!r})\n"
                    "from course import grading\n"
                    "signal.signal(signal.SIGTERM, grading.stop_running_tests)\n"
                    f"test = grading.Test({{'name': 's', 'command': [{sleeper!r}]}})\n"
                    "grading.run_one(test, 1)\n")
        process = subprocess.Popen([sys.executable, driver], stderr=subprocess.DEVNULL)
        for _ in range(100):
            if os.path.exists(started) and os.path.getsize(started):
                break
            time.sleep(0.1)
        process.send_signal(signal.SIGTERM)
        status = process.wait(timeout=30)
        time.sleep(0.2)
        if status != 128 + signal.SIGTERM:
            problems.append(f"grade.py stopped by SIGTERM exited {status}, not "
                            f"{128 + signal.SIGTERM}")
        try:
            with open(started, encoding="utf-8") as f:
                pid = int(f.read())
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                if f.read().split()[2] != "Z":
                    problems.append("grade.py stopped mid-test left the test's process running")
                    os.kill(pid, signal.SIGKILL)
        except (OSError, ValueError):
            pass
        problems += selftest_sandbox(tmp, program)
    if not problems:
        say(f"grade.py selftest runner: ok ({len(cases)} made-up tests decided as they should; "
            "what a test left behind, and a stopped grade.py's test, stopped; the limits on "
            "memory and processes)")
    return problems


def selftest_sandbox(tmp, program):
    """The sandbox, where bwrap works: a made-up test that passes only if, inside, the hidden folder
    is not there, the build folder cannot be written, /tmp is its own, there is no network but the
    loopback, it sees only its own processes and has no capabilities; what it leaves running is
    gone after it ends."""
    why = Sandbox.missing()
    if why:
        say(f"grade.py selftest runner: the sandbox is not checked here ({why})")
        return []
    build_dir = os.path.join(tmp, "sandbox-build")
    hidden = os.path.join(build_dir, "hidden")  # visible inside, but for the sandbox's hiding
    os.makedirs(build_dir)
    os.makedirs(hidden)
    with open(os.path.join(hidden, "model_answer.cuh"), "w", encoding="utf-8") as f:
        f.write("// the answer\n")
    with open(os.path.join(tmp, "outside.txt"), "w", encoding="utf-8") as f:
        f.write("a file in the grader's /tmp\n")
    marker = f"{61 + os.getpid() % 1000 / 1000:.3f}"  # a sleep no other process runs
    body = f"""import socket
def fail(code, why):
    print(why, flush=True)
    sys.exit(code)
if os.path.exists({os.path.join(hidden, "model_answer.cuh")!r}):
    fail(3, "the hidden folder is visible")
if os.path.exists({os.path.join(tmp, "outside.txt")!r}):
    fail(4, "the grader's /tmp is visible")
try:
    open({os.path.join(build_dir, "written")!r}, "w")
    fail(5, "the build folder is writable")
except OSError:
    pass
open("/tmp/mine", "w").write("x")
if [name for _, name in socket.if_nameindex() if name != "lo"]:
    fail(6, "a network device other than the loopback")
if len([p for p in os.listdir("/proc") if p.isdigit()]) > 3:
    fail(7, "other processes are visible")
if [l for l in open("/proc/self/status") if l.startswith("CapEff:") and int(l.split()[1], 16)]:
    fail(8, "it has capabilities (as root, it could unmount what hides a folder)")
subprocess.Popen(["sleep", {marker!r}])
{PASS_LINE}"""
    path = program("sandboxed", body)
    moved = os.path.join(build_dir, "sandboxed")
    os.rename(path, moved)
    test = Test({"name": "99 exercise 1/sandboxed", "command": [moved],
                 "properties": [{"name": "TIMEOUT", "value": 20}]})
    outcome, _, _, _, _ = run_one(test, 1, Sandbox(build_dir, [hidden]))
    problems = []
    if outcome is not None:
        problems.append(f"under the sandbox, the made-up test failed: {outcome}")
    time.sleep(0.3)
    for entry in os.listdir("/proc"):
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                if marker.encode() in f.read():
                    problems.append("a process the sandboxed test left is still running")
                    os.kill(int(entry), signal.SIGKILL)
        except (OSError, ValueError):
            continue
    # A build's sandbox: the build folder writable, the student's folder (inside the hidden
    # class folder) readable, the hidden answer still not there.
    student = os.path.join(hidden, "student")
    os.makedirs(student)
    with open(os.path.join(student, "answer.cuh"), "w", encoding="utf-8") as f:
        f.write("// the student's\n")
    model = os.path.join(hidden, "model_answer.cuh")
    script = (f"import os, sys\nassert not os.path.exists({model!r}), 'hidden'\n"
              f"open({os.path.join(student, 'answer.cuh')!r}).read()\n"
              f"open({os.path.join(build_dir, 'built.o')!r}, 'w').write('x')\n")
    box = Sandbox(build_dir, [hidden]).for_build(student)
    done = run(box.wrap([sys.executable, "-c", script], build_dir))
    if done.returncode != 0 or not os.path.exists(os.path.join(build_dir, "built.o")):
        problems.append("the build's sandbox did not let a build read the student's folder and "
                        "write the build folder, or showed the hidden answer: "
                        f"{done.stderr[-300:]}")
    return problems


def selftest_class_formats():
    """grade.py --class --format all, with grade_student and the GPU check stood in for by the
    made-up grading "mixed" (course.formats): every format's folder holds each student's file,
    and each file is the format's and says what the grading says."""
    problems = []
    mixed = formats.made_up_gradings()["mixed"]
    module = sys.modules[__name__]
    saved = {name: getattr(module, name) for name in ("grade_student", "gpus")}
    handlers = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)}
    students = ("ada", "bo")

    def made_up(student, *_):
        _, _, scores, found, ratios, _, _, _, cases = mixed
        return scores, cases, found, ratios

    with tempfile.TemporaryDirectory(prefix="grade-formats-") as tmp:
        for student in students:
            os.makedirs(os.path.join(tmp, "class", student, "exercises"))
        args = argparse.Namespace(
            exercises=mixed[1], format="all", build_only=False, sandbox=False, memory_limit=1,
            build_dir=os.path.join(tmp, "build"), class_dir=os.path.join(tmp, "class"),
            student=None, out=os.path.join(tmp, "out"), seed=mixed[5], junit=None)
        try:
            module.grade_student, module.gpus = made_up, lambda: (["a made-up GPU"], "")
            with contextlib.redirect_stdout(io.StringIO()):
                status = grade(args)
        finally:
            for name, value in saved.items():
                setattr(module, name, value)
            for number, handler in handlers.items():
                signal.signal(number, handler)
        if status != 0:
            problems.append(f"--class --format all: exit {status}, not 0")
        for fmt in formats.FORMATS:
            for student in students:
                path = os.path.join(tmp, "out", fmt, student + formats.EXTENSION[fmt])
                if not os.path.isfile(path):
                    problems.append(f"--class --format all wrote no {fmt}/{student}"
                                    f"{formats.EXTENSION[fmt]}")
                    continue
                with open(path, encoding="utf-8") as f:
                    text = f.read()
                grading = (student,) + tuple(mixed[1:])
                for problem in formats.check(fmt, text, grading):
                    problems.append(f"--class --format all, {fmt}/{student}: {problem}")
    return problems


def selftest(case, parse, build_dir=None):
    """grade.py selftest CASE (plan, arguments, build-only, runner, formats or names, the last
    optionally in a given build folder); `parse` is grade.py's argument parser. The exit status:
    0 when every check holds, 1 with a line per problem."""
    start = time.time()
    if case == "plan":
        problems = selftest_plan()
    elif case == "arguments":
        problems = selftest_arguments()
    elif case == "names":
        problems = selftest_names(build_dir)
    elif case == "runner":
        verdicts.selftest()  # the keyed lines' reading (it asserts)
        problems = selftest_runner()
    elif case == "formats":
        problems = formats.selftest() + selftest_class_formats()
    else:
        problems = selftest_build_only(parse)
    for problem in problems:
        print(f"grade.py selftest {case}: {problem}", file=sys.stderr)
    say(f"grade.py selftest {case}: {time.time() - start:.0f} s")
    return 1 if problems else 0
