#!/usr/bin/env python3
"""PrairieLearn's external grader for the course (docs/externalGrading.md of PrairieLearn): the
entry point of the image that grading/platforms/prairielearn/Dockerfile describes. PrairieLearn
puts the student's files in /grade/student and reads /grade/results/results.json (which this
makes, folder and all) once the entry point ends.

    entrypoint.py [--exercises 01.1,01.2] [--root /grade] [--build-dir DIR] [--sandbox on|off|auto]

A question's info.json names it, with the exercises it grades:

    "externalGradingOptions": {"enabled": true, "timeout": 600,
        "image": "<your registry>/cuda-course-grader",
        "entrypoint": "/opt/cuda-course/grading/platforms/prairielearn/entrypoint.py
                       --exercises 01.1"}        (on one line)

Without --exercises, the exercises graded are those whose file (<name>.cuh) was handed in. The
files are copied into a student folder as grade.py reads it (common.collect: flat uploads, or a
zip of exercises/, unpacked), then graded:

- with a CUDA GPU (a grader host whose Docker runs containers with the GPU): grade.py --format
  prairielearn --results /grade/results/results.json, the collection's notes added to its output;
  the score is the points over the most, and "gradable" is false only when no answer built;
- without one (grade.py's exit 77: PrairieLearn's own graders have none): the answers are only
  built (grade.py --build-only), and results.json is "gradable": false, so that no attempt is
  counted and no points are given or taken, with each answer's build as a test worth nothing,
  the reasons of those that do not build as format_errors, and a message that says why;
- when grade.py itself fails (the course cannot be configured or built: exit 2), "gradable":
  false too, saying it is the grader's fault, not the answer's.

--root stands for /grade (GRADE_ROOT too: the course's test); the build folder is --build-dir, or
COURSE_BUILD_DIR (the image sets it to the folder it built the starters in), or one in the
system's temporary folder. The sandbox (bubblewrap) is on by default: grade.py refuses to grade
without it; --sandbox off (or COURSE_SANDBOX=off) leaves the container as the only sandbox.
Exit status 0 whenever results.json was written, which is always but for bad arguments (2)."""

import json
import os
import shutil
import sys
import tarfile
import tempfile
import time
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (grading/platforms/common.py)
from course.cli import OneLineParser  # noqa: E402

LONGEST_OUTPUT = 200_000  # characters of grade.py's output kept (PrairieLearn takes 1 MB)


def handed_in(folder):
    """The ids ("01.1") of the exercises whose answer file is somewhere in `folder`."""
    names = {e.name + ".cuh": common.exercise_id(e) for e in common.exercises()}
    seen = set()
    for _, dirs, files in os.walk(folder):
        dirs[:] = [d for d in dirs if d not in common.SKIPPED_DIRS]
        seen.update(names[f] for f in files if f in names)
    return seen


def unpack_archives(student, into):
    """A copy of the handed-in files in `into`, any zip or tar among them unpacked there (a
    pl-file-upload of exercises.zip); returns the notes of what was left out."""
    notes = []
    for name in sorted(os.listdir(student)):
        path = os.path.join(student, name)
        if os.path.isfile(path) and not os.path.islink(path) and (
                zipfile.is_zipfile(path) or tarfile.is_tarfile(path)):
            notes += common.unpack(path, os.path.join(into, name + ".unpacked"))
    return notes


def not_graded(message, report=None, notes=(), output=""):
    """results.json for a submission that could not be graded here: "gradable": false."""
    results = {"gradable": False, "message": message}
    if report:
        errors = [f"{e.column()}: {why}" for e, why in report.items() if why]
        if errors:
            results["format_errors"] = errors
        results["tests"] = [{"name": f"{e.column()}: build", "description":
                             f"{e.lesson_dir}/{e.name}.cuh", "points": 0, "max_points": 0,
                             "message": why or "builds"} for e, why in report.items()]
    lines = [message] + (common.build_lines(report) if report else []) + list(notes)
    if output:
        lines += ["", output[-LONGEST_OUTPUT:]]
    results["output"] = "\n".join(lines)
    return results


def write_json(path, results):
    with open(path + ".part", "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    os.replace(path + ".part", path)


def grade(root, wanted, build_dir, sandbox, work):
    """Grades root/student into root/results/results.json, working in the folder `work`;
    returns 0."""
    start = time.time()
    results_dir = os.path.join(root, "results")
    os.makedirs(results_dir, exist_ok=True)
    results = os.path.join(results_dir, "results.json")
    if os.path.exists(results):
        os.remove(results)
    submission = os.path.join(root, "student")
    notes = unpack_archives(submission, os.path.join(work, "unpacked"))
    found = handed_in(submission) | handed_in(os.path.join(work, "unpacked"))
    wanted = wanted or [e for e in common.exercises() if common.exercise_id(e) in found]
    if not wanted:
        expected = ", ".join(e.name + ".cuh" for e in common.exercises())
        write_json(results, not_graded(f"no answer file was handed in (one of: {expected})"))
        return 0
    student_dir = os.path.join(work, "student")
    answers, more = common.collect(submission, student_dir, wanted)
    missing = [e for e in wanted if e not in answers]
    if missing and os.path.isdir(os.path.join(work, "unpacked")):
        extra, more2 = common.collect(os.path.join(work, "unpacked"), student_dir, missing)
        answers.update(extra)
        more += more2
    notes += more
    print(f"entrypoint.py: {len(answers)} of {len(wanted)} answers handed in", flush=True)
    for line in notes:
        print(f"  {line}", flush=True)
    options, note = common.sandbox_options(sandbox)
    status, output = common.run_grade(
        [student_dir, "--format", "prairielearn", "--results", results, "--build-dir", build_dir,
         "--exercises", ",".join(common.exercise_id(e) for e in wanted)] + options)
    if status in (0, 1) and os.path.isfile(results):
        with open(results, encoding="utf-8") as f:
            graded = json.load(f)
        said = [graded.get("output", "")] + notes + ([note] if note else [])
        graded["output"] = "\n".join(said).strip()
        write_json(results, graded)
        return 0
    if status == common.NO_GPU:
        try:
            report, built_notes = common.build_only(
                student_dir, build_dir, wanted, "off" if sandbox == "off" else "auto")
        except ValueError as error:
            write_json(results, not_graded(f"not graded: the grader failed ({error}); this is "
                                           "not your answer's fault"))
            return 0
        built = sum(1 for why in report.values() if not why)
        write_json(results, not_graded(
            f"not graded: this grader has no CUDA GPU, which the tests need ({built} of "
            f"{len(report)} answers build); no attempt is counted, no points given or taken",
            report, notes + built_notes))
        print(f"entrypoint.py: no GPU: {built} of {len(report)} answers build, not graded "
              f"({time.time() - start:.0f} s)", flush=True)
        return 0
    write_json(results, not_graded(
        f"not graded: the grader failed (grade.py exited {status}); this is not your answer's "
        "fault, and no attempt is counted", notes=notes, output=output))
    return 0


def main(argv):
    parser = OneLineParser(prog="entrypoint.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("--exercises", metavar="LIST",
                        help="the exercises graded, e.g. 01.1 (default: those handed in)")
    parser.add_argument("--root", default=os.environ.get("GRADE_ROOT") or "/grade",
                        help="the folder that stands for /grade")
    parser.add_argument("--build-dir", default=os.environ.get("COURSE_BUILD_DIR") or
                        os.path.join(tempfile.gettempdir(), "cuda-course-build"))
    parser.add_argument("--sandbox", choices=("on", "off", "auto"),
                        default=os.environ.get("COURSE_SANDBOX") or "on")
    args = parser.parse_args(argv[1:])
    wanted = None
    if args.exercises:
        try:
            wanted = common.exercises([x.strip() for x in args.exercises.split(",")])
        except ValueError as error:
            parser.error(str(error))
    if args.sandbox not in ("on", "off", "auto"):
        parser.error(f"COURSE_SANDBOX={args.sandbox}: not on, off or auto")
    if not os.path.isdir(os.path.join(args.root, "student")):
        parser.error(f"{os.path.join(args.root, 'student')} is not a folder")
    work = tempfile.mkdtemp(prefix="cuda-course-pl-")
    try:
        return grade(args.root, wanted, args.build_dir, args.sandbox, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
