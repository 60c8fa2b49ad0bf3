"""Grading students' copies of exercises/ (scripts/grade.py): the graded exercises as the
lessons' CMakeLists.txt and test files name them, each student's answers configured, built and
tested against the course's tests, and the table, JUnit XML, gradebook and summary of the
results.

What is built comes from the tests that will run: CTest lists them (ctest --show-only=json-v1,
with the selection the grading runs), every file of the build folder that their commands name is
mapped to the CMake target that makes it (CMake's file API, codemodel-v2), and those targets are
built with the answers: the model answers' programs that the time bounds run, the PTX that the
compiled-code checks read, the GPU check. A program's own Catch2 test cases are listed only once
it is built, so the tests are listed again after each build, until nothing new is named."""

import csv
import glob
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

from course.gpus import gpus
from course.paths import ROOT
from course.progress import Progress

POINTS = 10
TEST_CASE = re.compile(r'TEST_CASE\(\s*"((?:[^"\\]|\\.)*)"\s*,\s*"([^"]*)"')
SIZES = re.compile(r"^COURSE-SIZES: (.*)$", re.M)
TIMING = re.compile(r"^(\S+: [0-9.]+ ms, .*(?:within the bound|more than).*)$", re.M)


def say(text="", end="\n"):
    print(text, end=end, flush=True)


def run(command, **kwargs):
    return subprocess.run(command, text=True, capture_output=True, **kwargs)


class Exercise:
    """A graded exercise, read from its manifest (grading/NN_topic/<name>/exercise.json, which
    cmake/CourseExercise.cmake reads too) and its test file."""

    def __init__(self, manifest):
        self.lesson_dir = lesson_dir = manifest["lesson"]
        self.nn = lesson_dir[:2]
        self.number = int(manifest["number"])
        self.name = name = manifest["name"]
        self.target = f"exercise{self.nn}_{self.number}"
        self.label = f"{self.nn} exercise {self.number}"
        test = os.path.join(ROOT, "grading", lesson_dir, name, f"test_{name}.cu")
        with open(test, encoding="utf-8") as f:
            # The [timing] case is not a test of its own: time_answer.py runs it (below).
            self.tests = [n for n, tags in TEST_CASE.findall(f.read()) if "[timing]" not in tags]
        # The checks beside the test cases (the manifest's "compiled" and "time_factor").
        self.factor = None
        if manifest.get("compiled"):
            self.tests.append("its compiled code has what the technique needs and nothing it "
                              "rules out")
        if manifest.get("time_factor") is not None:
            self.factor = str(manifest["time_factor"])
            solution = os.path.join(ROOT, "solutions", lesson_dir, f"{name}.cuh")
            if os.path.isfile(solution):
                self.tests.append(f"it takes at most {self.factor} times the model answer's time")

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


def selection(exercises):
    """The arguments that pick the exercises' tests for CTest, as the grading runs them (and the
    GPU check they require, a fixture CTest adds)."""
    labels = "|".join(re.escape(e.label) for e in exercises)
    return ["-L", "exercise", "-R", f"^({labels})/"]


def listed_tests(build_dir, exercises):
    """[(name, command)]: the tests CTest would run for the exercises, now (a program's own test
    cases only once it is built)."""
    done = run(["ctest", "--test-dir", build_dir, "--show-only=json-v1", *selection(exercises)])
    if done.returncode != 0:
        raise RuntimeError(f"ctest could not list the tests of {build_dir}: "
                           f"{(done.stderr or done.stdout).strip()[:300]}")
    return [(t["name"], t.get("command", [])) for t in json.loads(done.stdout).get("tests", [])]


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
    targets = {e.target for e in exercises}
    targets.update(made[path] for path in named if path in made)
    return sorted(targets), named, made


def build(build_dir, targets, what, doing="the answers and their tests"):
    """Builds the targets, going on past failures; returns the build's output. Shows ninja's
    progress on a terminal."""
    say(f"{what}: building {doing} ({len(targets)} targets; minutes, the first time)")
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
        run(["ctest", "--test-dir", build_dir, *selection([exercise]), "-j", str(jobs),
             "--output-junit", junit], env=dict(os.environ, COURSE_TEST_SEED=str(seed)))
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


def build_for_grading(build_dir, exercises, what):
    """Builds the answers and everything the tests that grade them run (needed_targets), listing
    the tests again after each build until nothing new is named; returns (the builds' output,
    {file: [tests]} of the files the listed tests name, {file: target})."""
    built = set()
    output = ""
    for _ in range(5):
        targets, named, made = needed_targets(build_dir, exercises)
        new = [t for t in targets if t not in built]
        if not new:
            break
        doing = ("the answers, their tests and the programs the tests run" if not built else
                 "what the tests listed after the build run: " + ", ".join(new))
        output += build(build_dir, new, what, doing)
        built.update(built_with(build_dir, new))
    return output, named, made


def not_built(exercise, named, made):
    """(why the exercise's own files were not made, or "", a course program that its tests run and
    that was not made, or None): from the files its listed tests name that do not exist."""
    mine = ""
    theirs = None
    for path, tests in sorted(named.items()):
        if os.path.exists(path) or not any(t.startswith(exercise.label + "/") for t in tests):
            continue
        target = made.get(path, "no target")
        if target == exercise.target or target.startswith(exercise.target + "_"):
            mine = mine or f"did not compile: {target} was not built (see the build output)"
        else:
            theirs = theirs or (path, target, tests[0])
    return mine, theirs


def failed_lines(output, target):
    """The build's FAILED lines and errors about `target`, for an error message."""
    lines = [line.rstrip() for line in output.splitlines()
             if ("FAILED:" in line or "error" in line) and target in line]
    return "\n".join(lines[:10]) or "(no FAILED line names it)"


def build_verdict(why_not_built):
    """An exercise's build, in words: "builds", "missing: ..." or "does not build: ..."."""
    if not why_not_built:
        return "builds"
    if why_not_built.startswith("missing: "):
        return why_not_built
    return "does not build: " + why_not_built


def grade_student(student, exercises_dir, build_dir, args):
    """Grades one student; prints a line per exercise as it goes. Returns (scores, junit cases,
    problems): scores {exercise: points}, problems [(exercise, test, reason)]. With
    args.build_only, builds the answers only, runs nothing, and gives no points: scores is empty
    and problems holds one (exercise, "(build)", reason) for each answer that does not build or
    is missing."""
    done = configure(build_dir, exercises_dir)
    if done.returncode != 0:
        say(done.stdout + done.stderr)
        raise RuntimeError("the build could not be configured")
    if args.build_only:
        output = build(build_dir, [e.target for e in args.exercises], student, "the answers")
        named, made = {}, {}
    else:
        output, named, made = build_for_grading(build_dir, args.exercises, student)
    # Why each answer did not build ("" when it did), and a course program that was not built.
    verdicts = {}
    for exercise in args.exercises:
        answer = os.path.join(exercises_dir, exercise.lesson_dir, exercise.name + ".cuh")
        why_not_built = build_problems(output, exercise)
        if not os.path.isfile(answer):
            why_not_built = f"missing: no {exercise.lesson_dir}/{exercise.name}.cuh"
        if not why_not_built and not args.build_only:
            why_not_built, theirs = not_built(exercise, named, made)
            if theirs:
                path, target, test = theirs
                say(failed_lines(output, target))
                raise RuntimeError(f"{target} ({os.path.relpath(path, build_dir)}), which "
                                   f"'{test}' runs, was not built: see the build's lines above")
        verdicts[exercise] = why_not_built
    scores = {}
    cases = []
    problems = []
    if args.build_only:
        say(f"{'lesson':<7} {'exercise':<9} build")
    else:
        say(f"{'lesson':<7} {'exercise':<9} {'tests passed':>13} {'points':>7}  note")
    for exercise in args.exercises:
        total = len(exercise.tests)
        why_not_built = verdicts[exercise]
        if args.build_only:
            say(f"{exercise.nn:<7} {exercise.number:<9} {build_verdict(why_not_built)}")
            if why_not_built:
                problems.append((exercise, "(build)", why_not_built))
            continue
        if why_not_built:
            passed, note = 0, why_not_built
            for test in exercise.tests:
                case = ET.Element("testcase", name=f"{exercise.label}/{test}",
                                  classname=exercise.label, time="0")
                ET.SubElement(case, "failure", message=why_not_built)
                cases.append(case)
            problems.append((exercise, "(build)", why_not_built))
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
    return scores, cases, problems


def write_junit(path, student, cases):
    suite = ET.Element("testsuite", name=student, tests=str(len(cases)))
    failures = 0
    for case in cases:
        failures += case.find("failure") is not None or case.find("error") is not None
        suite.append(case)
    suite.set("failures", str(failures))
    ET.ElementTree(suite).write(path, encoding="UTF-8", xml_declaration=True)


def grade(args):
    """Grades one student (args.student) or a class (args.class_dir), as grade.py's arguments
    say; prints as it goes and writes the JUnit XML, or the gradebook, JUnit files and summary.
    With args.build_only, only builds the answers and says which build: no points, no JUnit XML,
    no gradebook (a class's build_report.txt in args.out instead). args.out is the class's output
    folder, checked by grade.py; args.exercises, when set, the exercises to grade (default: all).
    The exit status (see grade.py's help)."""
    if not getattr(args, "exercises", None):
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
    if gpu and not args.build_only:
        say(f"grading on {gpu_text}" + (f" and {args.gpus - 1} more" if args.gpus > 1 else ""))
        say(f"seed {args.seed}: every test's inputs and sizes come from it "
            f"(grade.py --seed {args.seed} grades again with the same ones)")

    if args.student:
        student = os.path.basename(os.path.abspath(args.student).rstrip(os.sep))
        start = time.time()
        try:
            scores, cases, problems = grade_student(student, student_exercises_dir(
                os.path.abspath(args.student)), build_dir, args)
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        if args.build_only:
            say(f"built in {time.time() - start:.0f} s")
            return 1 if problems else 0
        junit = os.path.abspath(args.junit or os.path.join(build_dir, "grade.xml"))
        write_junit(junit, student, cases)
        say(f"JUnit XML: {junit}")
        say(f"graded in {time.time() - start:.0f} s")
        return 0 if sum(scores.values()) == POINTS * len(args.exercises) else 1

    class_dir = os.path.abspath(args.class_dir)
    students = sorted(d for d in os.listdir(class_dir)
                      if os.path.isdir(os.path.join(class_dir, d)) and not d.startswith("."))
    if not students:
        print(f"grade.py: error: {args.class_dir} has no student folders", file=sys.stderr)
        return 2
    out = os.path.abspath(args.out or os.path.join(os.path.dirname(class_dir), "grades"))
    rows = []
    summary = []
    class_start = time.time()
    for i, student in enumerate(students, 1):
        say(f"\n=== student {i} of {len(students)}: {student}")
        start = time.time()
        try:
            scores, cases, problems = grade_student(
                student, student_exercises_dir(os.path.join(class_dir, student)), build_dir,
                args)
        except RuntimeError as error:
            print(f"grade.py: error: {error}", file=sys.stderr)
            return 2
        seconds = time.time() - start
        if args.build_only:
            say(f"built in {seconds:.0f} s")
            summary.append(f"{student}: {len(args.exercises) - len(problems)} of "
                           f"{len(args.exercises)} answers build")
            for exercise, _, reason in problems:
                summary.append(f"  {exercise.label} ({exercise.name}): {build_verdict(reason)}")
            continue
        say(f"graded in {seconds:.0f} s")
        if not rows:
            os.makedirs(os.path.join(out, "junit"), exist_ok=True)
        write_junit(os.path.join(out, "junit", f"{student}.xml"), student, cases)
        rows.append([student] + [f"{scores[e]:.1f}" for e in args.exercises] +
                    [f"{sum(scores.values()):.1f}", f"{seconds:.0f}", str(args.seed)])
        summary.append(f"{student}: {sum(scores.values()):.1f} of "
                       f"{POINTS * len(args.exercises)} (seed {args.seed})")
        for exercise, test, reason in problems:
            summary.append(f"  {exercise.label} ({exercise.name}), {test}: {reason}")
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
    say(f"\n{len(students)} students graded in {time.time() - class_start:.0f} s: "
        f"{os.path.join(out, 'gradebook.csv')}, {os.path.join(out, 'summary.txt')}, "
        f"{os.path.join(out, 'junit')}/")
    return 0


# grade.py selftest CASE: checks of the grader that need no GPU (common/tests/CMakeLists.txt runs
# each as a cpu test).

def dry_run_makes(build_dir, targets):
    """The files (real paths) that building `targets` would make in a build folder never built:
    ninja's dry run, explaining why it would run each step. Independent of the file API."""
    done = run(["ninja", "-C", build_dir, "-n", "-d", "explain", *targets])
    made = set()
    for line in (done.stdout + done.stderr).splitlines():
        m = re.match(r"ninja explain: (?:output )?(\S+) (?:is dirty|doesn't exist)", line)
        if m:
            made.add(os.path.realpath(os.path.join(build_dir, m.group(1))))
    return made


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
                problems.append(f"{e.label}: its program {e.target} is not built")
            solution = os.path.realpath(os.path.join(build_dir, "tests",
                                                     f"solution{e.nn}_{e.number}"))
            if e.factor and any("model answer's time" in t for t in e.tests) and \
                    solution not in named:
                problems.append(f"{e.label}: no test listed names the model answer's program "
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
        if not problems:
            say(f"grade.py selftest plan: ok ({len(targets)} targets make the {len(named)} files "
                f"that the tests of {len(all_exercises)} exercises name)")
        return problems


def selftest_arguments():
    """Bad --junit and --out paths, and options of the other mode: exit 2 and one error line, at
    once (a cmake on the PATH that records being called is never called, the build folder never
    made), and no folder created; good ones get past the check."""
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
        ]
        if locked:
            bad += [([student, "--junit", os.path.join(locked, "x.xml")], "--junit", None),
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
    cases, and what grade.py would build grows by the GPU check that they require. (The solved
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

        def build_only(*argv):
            args = parse(["grade.py", *argv, "--build-dir", build_dir, "--build-only"])
            args.exercises = [exercise]
            saved, sys.stdout = sys.stdout, io.StringIO()
            try:
                status = grade(args)
            finally:
                text, sys.stdout = sys.stdout.getvalue(), saved
            return status, text

        status, text = build_only(os.path.join(class_dir, "a_solved"))
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
        if program not in named or "course_gpu_probe" not in targets:
            problems.append(f"once {exercise.target} is built, its test cases and the GPU check "
                            f"they require are not in what grade.py builds: {targets}")
    if not problems:
        say("grade.py selftest build-only: ok (builds, does not build, missing; exit 1; no "
            "gradebook written; the second listing adds the GPU check)")
    return problems


def names_problems(build_dir, all_exercises):
    """Where the tests CTest lists for each exercise in `build_dir` (as the grading selects them)
    and the names grade.py expects (Exercise.tests: the test file's TEST_CASEs but [timing], the
    compiled-code and time checks its manifest names) disagree. A program's own test cases are
    listed only once it is built: for an exercise whose program is not, only the tests CMake adds
    itself are compared (each must be expected, and each expected check listed). Returns
    (problems, how many exercises were compared in full)."""
    problems = []
    full = 0
    checks = ("its compiled code has", "it takes at most ")
    for e in all_exercises:
        prefix = e.label + "/"
        listed = {name[len(prefix):] for name, _ in listed_tests(build_dir, [e])
                  if name.startswith(prefix)}
        expected = set(e.tests)
        if os.path.isfile(os.path.join(build_dir, "tests", e.target)):
            full += 1
            missing, extra = expected - listed, listed - expected
        else:
            missing = {t for t in expected if t.startswith(checks)} - listed
            extra = listed - expected
        for name in sorted(missing):
            problems.append(f"{e.label}: grade.py expects '{name}', which CTest does not list")
        for name in sorted(extra):
            problems.append(f"{e.label}: CTest lists '{name}', which grade.py does not expect")
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
        if not problems:
            say(f"grade.py selftest names: ok ({len(all_exercises)} exercises, {full} of them "
                f"built and compared test case by test case)")
        return problems


def selftest(case, parse, build_dir=None):
    """grade.py selftest CASE (plan, arguments, build-only or names, the last optionally in a
    given build folder); `parse` is grade.py's argument parser. The exit status: 0 when every
    check holds, 1 with a line per problem."""
    start = time.time()
    if case == "plan":
        problems = selftest_plan()
    elif case == "arguments":
        problems = selftest_arguments()
    elif case == "names":
        problems = selftest_names(build_dir)
    else:
        problems = selftest_build_only(parse)
    for problem in problems:
        print(f"grade.py selftest {case}: {problem}", file=sys.stderr)
    say(f"grade.py selftest {case}: {time.time() - start:.0f} s")
    return 1 if problems else 0
