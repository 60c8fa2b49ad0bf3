"""Grading students' copies of exercises/ (scripts/grade.py): the graded exercises as the
lessons' CMakeLists.txt and test files name them, each student's answers configured, built and
tested against the course's tests, and the table, JUnit XML, gradebook and summary of the
results."""

import csv
import glob
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from course.gpus import gpus
from course.paths import ROOT
from course.progress import Progress

POINTS = 10
EXERCISE = re.compile(r"course_add_exercise\(\s*(\d\d)_\w+\s+(\d+)\s+(\w+)([^)]*)\)")
TEST_CASE = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"([^"]*)"')
SIZES = re.compile(r"^COURSE-SIZES: (.*)$", re.M)
TIMING = re.compile(r"^(\S+: [0-9.]+ ms, .*(?:within the bound|more than).*)$", re.M)


def say(text="", end="\n"):
    print(text, end=end, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, text=True, capture_output=True, **kwargs)


class Exercise:
    """A graded exercise, read from its lesson's CMakeLists.txt and its test file."""

    def __init__(self, lesson_dir, number, name, options=""):
        self.lesson_dir = lesson_dir
        self.nn = lesson_dir[:2]
        self.number = int(number)
        self.name = name
        self.target = f"exercise{self.nn}_{self.number}"
        self.label = f"{self.nn} exercise {self.number}"
        test = os.path.join(ROOT, "exercises", lesson_dir, "grading", f"test_{name}.cu")
        with open(test, encoding="utf-8") as f:
            # The [timing] case is not a test of its own: time_answer.py runs it (below).
            self.tests = [n for n, tags in TEST_CASE.findall(f.read()) if "[timing]" not in tags]
        # The checks beside the test cases (course_add_exercise's COMPILED and TIME_FACTOR).
        words = options.split()
        self.factor = None
        if "COMPILED" in words:
            self.tests.append("its compiled code has what the technique needs and nothing it "
                              "rules out")
        if "TIME_FACTOR" in words and words.index("TIME_FACTOR") + 1 < len(words):
            self.factor = words[words.index("TIME_FACTOR") + 1]
            solution = os.path.join(ROOT, "solutions", lesson_dir, f"{name}.cuh")
            if os.path.isfile(solution):
                self.tests.append(f"it takes at most {self.factor} times the model answer's time")

    def column(self):
        return f"{self.nn}.{self.number} {self.name}"


def exercises():
    found = []
    for cmake in sorted(glob.glob(os.path.join(ROOT, "lessons", "[0-9][0-9]_*", "CMakeLists.txt"))):
        lesson_dir = os.path.basename(os.path.dirname(cmake))
        with open(cmake, encoding="utf-8") as f:
            text = re.sub(r"#[^\n]*", "", f.read())
        for nn, number, name, options in EXERCISE.findall(text):
            found.append(Exercise(lesson_dir, number, name, options))
    return found


def student_exercises_dir(folder):
    inner = os.path.join(folder, "exercises")
    return inner if os.path.isdir(inner) else folder


def configure(build_dir, exercises_dir):
    command = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
               f"-DCOURSE_EXERCISES_DIR={exercises_dir}"]
    if os.environ.get("CMAKE_PREFIX_PATH"):
        command.append(f"-DCMAKE_PREFIX_PATH={os.environ['CMAKE_PREFIX_PATH']}")
    return run(command)


def build(build_dir, targets, what):
    """Builds the targets, going on past failures; returns the build's output. Shows ninja's
    progress on a terminal."""
    say(f"{what}: building the answers and their tests (minutes, the first time)")
    command = ["cmake", "--build", build_dir, "--target", *targets, "--", "-k", "0"]
    process = subprocess.Popen(command, text=True, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    lines = []
    step = re.compile(r"^\[(\d+)/(\d+)\]")
    with Progress(f"{what}: building") as progress:
        for line in process.stdout:
            lines.append(line)
            m = step.match(line)
            if m:
                progress.now(f"step {m.group(1)} of {m.group(2)}")
        process.wait()
    return "".join(lines)


def build_problems(output, exercise):
    """Why an exercise did not build, in one line, or "" when it did."""
    ours = [line.strip() for line in output.splitlines()
            if line.strip().startswith(exercise.target + ": ")]
    refused = [line.split(": ", 1)[1] for line in ours if "not allowed" in line]
    if refused:
        return "refused: " + "; ".join(refused)
    missing = [line.split(": ", 1)[1] for line in ours if " is missing" in line]
    if missing:
        return "missing: " + missing[0]
    if re.search(rf"FAILED: .*\b{exercise.target}(_answer|_tests|\b)", output):
        errors = [line.strip() for line in output.splitlines()
                  if exercise.name in line and "error" in line]
        first = errors[0] if errors else "see the build output"
        return "did not compile: " + re.sub(r"^\S*/", "", first)[:200]
    return ""


def failure_reason(case):
    """What a failed test's output says went wrong, in one line: the watchdog's or the answer
    check's line if there is one, else the first failed check's messages and expansion."""
    node = case.find("failure")
    if node is None:
        node = case.find("error")
    out = case.findtext("system-out") or ""
    text = "\n".join(filter(None, [out, node.get("message", "") if node is not None else "",
                                   (node.text or "") if node is not None else ""]))
    for line in text.splitlines():
        if any(mark in line for mark in ("did not finish in", "not allowed", "compiled code of",
                                         "times the model answer's", "timed run failed",
                                         "no compiled function matches")):
            return line.strip()
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if not line.rstrip().endswith("FAILED:"):
            continue
        part = "check"
        found = {"check": [], "expansion": [], "messages": []}
        for later in lines[i + 1:]:
            stripped = later.strip()
            if not stripped or stripped.startswith(("----", "====", "~~~~")):
                break
            if stripped == "with expansion:":
                part = "expansion"
            elif stripped in ("with message:", "with messages:"):
                part = "messages"
            else:
                found[part].append(stripped)
        expansion = " ".join(found["expansion"])
        if found["messages"]:
            reason = " ".join(found["messages"])
            return f"{reason} [{expansion}]" if expansion else reason
        return f"{' '.join(found['check'])} [{expansion}]" if expansion else " ".join(found["check"])
    for line in lines:
        if "failed:" in line or "Error" in line:
            return line.strip()
    return "failed"


def run_tests(build_dir, exercise, jobs, seed):
    """Runs one exercise's tests with the grading's seed; returns ({test name: (None if it passed,
    else why not; its JUnit testcase)}, [what the tests reported: their sizes, the time bound])."""
    with tempfile.TemporaryDirectory() as scratch:
        junit = os.path.join(scratch, "tests.xml")
        run(["ctest", "--test-dir", build_dir, "-L", "exercise", "-R",
             "^" + re.escape(exercise.label) + "/", "-j", str(jobs), "--output-junit", junit],
            env=dict(os.environ, COURSE_TEST_SEED=str(seed)))
        results = {}
        notes = []
        if os.path.exists(junit):
            for case in ET.parse(junit).getroot().iter("testcase"):
                out = case.findtext("system-out") or ""
                for line in SIZES.findall(out) + TIMING.findall(out):
                    if line not in notes:
                        notes.append(line)
                name = case.get("name", "").split("/", 1)[-1]
                skipped = case.find("skipped")
                if skipped is not None:
                    why = skipped.get("message") or "no usable GPU, or its test program is missing"
                    results[name] = (f"not run: {why}", case)
                elif case.find("failure") is not None or case.find("error") is not None:
                    results[name] = (failure_reason(case), case)
                else:
                    results[name] = (None, case)
        return results, notes


def grade_student(student, exercises_dir, build_dir, args, gpu):
    """Grades one student; prints a line per exercise as it goes. Returns (scores, junit cases,
    problems): scores {exercise: points}, problems [(exercise, test, reason)]."""
    done = configure(build_dir, exercises_dir)
    if done.returncode != 0:
        say(done.stdout + done.stderr)
        raise RuntimeError("the build could not be configured")
    output = build(build_dir, [e.target for e in args.exercises], student)
    scores = {}
    cases = []
    problems = []
    say(f"{'lesson':<7} {'exercise':<9} {'tests passed':>13} {'points':>7}  note")
    for exercise in args.exercises:
        total = len(exercise.tests)
        answer = os.path.join(exercises_dir, exercise.lesson_dir, exercise.name + ".cuh")
        why_not_built = build_problems(output, exercise)
        if not os.path.isfile(answer):
            why_not_built = f"missing: no {exercise.lesson_dir}/{exercise.name}.cuh"
        if why_not_built:
            passed, note = 0, why_not_built
            for test in exercise.tests:
                case = ET.Element("testcase", name=f"{exercise.label}/{test}",
                                  classname=exercise.label, time="0")
                ET.SubElement(case, "failure", message=why_not_built)
                cases.append(case)
            problems.append((exercise, "(build)", why_not_built))
        elif not gpu:
            passed, note = 0, "built; not graded (no GPU)"
        else:
            results, notes = run_tests(build_dir, exercise, args.jobs, args.seed)
            passed = 0
            failed = []
            for test in exercise.tests:
                if test not in results:
                    failed.append(test)
                    problems.append((exercise, test, "did not run"))
                    case = ET.Element("testcase", name=f"{exercise.label}/{test}",
                                      classname=exercise.label, time="0")
                    ET.SubElement(case, "failure", message="did not run")
                    cases.append(case)
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
        if args.build_only:
            say(f"{exercise.nn:<7} {exercise.number:<9} {'-':>13} {'-':>7}  "
                f"{why_not_built or 'builds'}".rstrip())
            continue
        say(f"{exercise.nn:<7} {exercise.number:<9} {f'{passed}/{total}':>13} {points:>7.1f}  "
            f"{note}".rstrip())
        if gpu and not why_not_built:
            for line in notes:
                say(f"{'':<17} {line}")
                problems.append((exercise, "(report)", line))
    earned = sum(scores.values())
    if args.build_only:
        built = sum(1 for p in problems if p[1] == "(build)")
        say(f"built only: {len(args.exercises) - built} of {len(args.exercises)} answers build; "
            "nothing was run or graded")
    else:
        say(f"{'total':<17} {'':>13} {earned:>7.1f} of {POINTS * len(args.exercises)}")
    return scores, cases, problems


def write_junit(path, student, cases):
    suite = ET.Element("testsuite", name=student, tests=str(len(cases)))
    failures = 0
    for case in cases:
        failures += case.find("failure") is not None or case.find("error") is not None
        suite.append(case)
    suite.set("failures", str(failures))
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(suite).write(path, encoding="UTF-8", xml_declaration=True)


def grade(args):
    """Grades one student (args.student) or a class (args.class_dir), as grade.py's arguments
    say; prints as it goes and writes the JUnit XML, or the gradebook, JUnit files and summary.
    The exit status (see grade.py's help)."""
    args.exercises = exercises()
    names, why = gpus()
    gpu = bool(names)
    gpu_text = f"GPU 0: {names[0]}" if gpu else why
    if not gpu and not args.build_only:
        print(f"grade.py: no CUDA GPU ({gpu_text}): the exercises' tests need one. Grade on a GPU "
              "machine, or use --build-only to check that the answers build.", file=sys.stderr)
        return 77
    build_dir = os.path.abspath(args.build_dir)
    args.gpus = len(names)
    if gpu:
        say(f"grading on {gpu_text}" + (f" and {args.gpus - 1} more" if args.gpus > 1 else ""))
        say(f"seed {args.seed}: every test's inputs and sizes come from it "
            f"(grade.py --seed {args.seed} grades again with the same ones)")

    if args.student:
        student = os.path.basename(os.path.abspath(args.student).rstrip(os.sep))
        start = time.time()
        try:
            scores, cases, _ = grade_student(student, student_exercises_dir(
                os.path.abspath(args.student)), build_dir, args, gpu)
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        junit = os.path.abspath(args.junit or os.path.join(build_dir, "grade.xml"))
        write_junit(junit, student, cases)
        say(f"JUnit XML: {junit}")
        say(f"graded in {time.time() - start:.0f} s")
        if args.build_only:
            return 0
        return 0 if sum(scores.values()) == POINTS * len(args.exercises) else 1

    class_dir = os.path.abspath(args.class_dir)
    students = sorted(d for d in os.listdir(class_dir)
                      if os.path.isdir(os.path.join(class_dir, d)) and not d.startswith("."))
    if not students:
        print(f"grade.py: error: {args.class_dir} has no student folders", file=sys.stderr)
        return 2
    out = os.path.abspath(args.out or os.path.join(os.path.dirname(class_dir), "grades"))
    os.makedirs(os.path.join(out, "junit"), exist_ok=True)
    rows = []
    summary = []
    class_start = time.time()
    for i, student in enumerate(students, 1):
        say(f"\n=== student {i} of {len(students)}: {student}")
        start = time.time()
        try:
            scores, cases, problems = grade_student(
                student, student_exercises_dir(os.path.join(class_dir, student)), build_dir,
                args, gpu)
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        seconds = time.time() - start
        say(f"graded in {seconds:.0f} s")
        write_junit(os.path.join(out, "junit", f"{student}.xml"), student, cases)
        rows.append([student] + [f"{scores[e]:.1f}" for e in args.exercises] +
                    [f"{sum(scores.values()):.1f}", f"{seconds:.0f}", str(args.seed)])
        summary.append(f"{student}: {sum(scores.values()):.1f} of "
                       f"{POINTS * len(args.exercises)} (seed {args.seed})")
        for exercise, test, reason in problems:
            summary.append(f"  {exercise.label} ({exercise.name}), {test}: {reason}")
    with open(os.path.join(out, "gradebook.csv"), "w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f, lineterminator="\n")
        writer.writerow(["student"] + [e.column() for e in args.exercises] +
                        [f"total (of {POINTS * len(args.exercises)})", "seconds", "seed"])
        writer.writerows(rows)
    with open(os.path.join(out, "summary.txt"), "w", encoding="utf-8") as f:
        f.write("\n".join(summary) + "\n")
    say(f"\n{len(students)} students graded in {time.time() - class_start:.0f} s: "
        f"{os.path.join(out, 'gradebook.csv')}, {os.path.join(out, 'summary.txt')}, "
        f"{os.path.join(out, 'junit')}/")
    return 0

