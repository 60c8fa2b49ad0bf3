#!/usr/bin/env python3
"""Writes GitHub Classroom's autograding workflow for the course (classroom.yml, beside this
file), from the exercises' manifests (grading/NN_topic/<name>/exercise.json), so that a new
exercise gets its step.

    python3 grading/platforms/github_classroom/make_workflow.py write   # classroom.yml
    python3 grading/platforms/github_classroom/make_workflow.py check   # exit 1 if it is stale
    python3 grading/platforms/github_classroom/make_workflow.py print --assignment atomics

The workflow is GitHub Classroom's own shape (the "Autograding Tests" workflow of its template
repositories, job run-autograding-tests, whose check run the reporter updates): the student's
repository checked out, then one step per exercise of classroom-resources/
autograding-command-grader@v1 (inputs test-name, setup-command, command, timeout in minutes,
max-score: the command's exit status 0 earns max-score points, any other none), then
classroom-resources/autograding-grading-reporter@v1, given each step's result (the environment
variable <STEP ID>_RESULTS) and the steps' ids (runners), which sends the total to GitHub
Classroom.

Each command is grade.py for one exercise, from the runner's own copy of the course (--course,
default $HOME/cuda-course: a clone with solutions/, never the student's copy of the scripts), on
the student's exercises/ folder, with a build folder beside the checkout (../cuda-course-build,
kept from push to push). The grader action runs it with PATH and HOME alone in its environment, so
the runner's PATH must hold nvcc, CMake 3.24 or newer and ninja, and Catch2 must be installed
where CMake finds it by itself. grade.py exits 0 when the exercise earned its points, 1 when it
did not, 77 without a GPU and 2 when the course cannot be built: only 0 earns the points. The
job runs on a self-hosted runner (--runs-on, default "self-hosted, gpu") with a CUDA GPU and
bubblewrap (grade.py's sandbox).

`print` writes the workflow to stdout, for --course, --runs-on, --exercises or --assignment other
than the committed file's (which has the defaults: every exercise). Exit status 0; 1 when `check`
finds classroom.yml not what `write` writes; 2 for bad arguments."""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common  # noqa: E402  (grading/platforms/common.py)
from course import assignments  # noqa: E402
from course.cli import OneLineParser  # noqa: E402

WORKFLOW = os.path.join(HERE, "classroom.yml")
COURSE = "$HOME/cuda-course"
BUILD_DIR = "../cuda-course-build"
RUNS_ON = ("self-hosted", "gpu")
TIMEOUT = 30  # minutes a step may take: grade.py's build limit (1800 s) with the tests after it
GRADER = "classroom-resources/autograding-command-grader@v1"
REPORTER = "classroom-resources/autograding-grading-reporter@v1"
HEADER = """\
# GitHub Classroom's autograding workflow for the course, for a self-hosted runner with a CUDA GPU:
# copy it into the assignment's template repository as .github/workflows/classroom.yml.
# Written by grading/platforms/github_classroom/make_workflow.py from the exercises' manifests:
# do not edit it by hand (make_workflow.py write; its help says what each part is).
"""


def step_id(exercise):
    """The step's id ("ex01-1"): the reporter reads its result from EX01-1_RESULTS."""
    return f"ex{exercise.nn}-{exercise.number}"


def command(exercise, course=COURSE):
    return (f'python3 "{course}/scripts/grade.py" exercises --exercises '
            f'{common.exercise_id(exercise)} --build-dir {BUILD_DIR}')


def steps(wanted=None, course=COURSE):
    """[{"id", "test-name", "command", "timeout", "max-score"}]: one per exercise of `wanted`
    (ids, or None for every one)."""
    return [{"id": step_id(e), "test-name": e.column(), "command": command(e, course),
             "timeout": TIMEOUT, "max-score": common.POINTS} for e in common.exercises(wanted)]


def text(wanted=None, course=COURSE, runs_on=RUNS_ON):
    """The workflow's YAML (each string a JSON string: YAML's double-quoted form)."""
    q = json.dumps
    lines = HEADER.splitlines() + [
        "name: Autograding Tests",
        '"on":', "  - push", "  - workflow_dispatch", "  - repository_dispatch",
        "permissions:", "  checks: write", "  actions: read", "  contents: read",
        "jobs:", "  run-autograding-tests:",
        f"    runs-on: [{', '.join(runs_on)}]",
        "    if: github.actor != 'github-classroom[bot]'",
        "    steps:", "      - name: Checkout code", "        uses: actions/checkout@v4"]
    listed = steps(wanted, course)
    for step in listed:
        lines += [f"      - name: {q(step['test-name'])}", f"        id: {step['id']}",
                  f"        uses: {GRADER}", "        with:",
                  f"          test-name: {q(step['test-name'])}",
                  '          setup-command: ""',
                  f"          command: {q(step['command'])}",
                  f"          timeout: {step['timeout']}",
                  f"          max-score: {step['max-score']}"]
    lines += ["      - name: Autograding Reporter", f"        uses: {REPORTER}", "        env:"]
    lines += [f"          {s['id'].upper()}_RESULTS: "
              f"{q('${{steps.' + s['id'] + '.outputs.result}}')}" for s in listed]
    lines += ["        with:", f"          runners: {','.join(s['id'] for s in listed)}"]
    return "\n".join(lines) + "\n"


def read_steps(workflow_text):
    """The grader steps of a workflow's text as text() writes it: [{"id", "test-name",
    "command", "timeout", "max-score"}], read back line by line (no YAML library needed)."""
    found, current = [], None
    for line in workflow_text.splitlines():
        stripped = line.strip()
        if stripped.startswith("id: "):
            current = {"id": stripped[4:]}
            found.append(current)
        elif current is not None and ":" in stripped and line.startswith(" " * 10):
            key, _, value = stripped.partition(": ")
            if key in ("test-name", "command"):
                current[key] = json.loads(value)
            elif key in ("timeout", "max-score"):
                current[key] = int(value)
    return found


def main(argv):
    parser = OneLineParser(prog="make_workflow.py", description=__doc__.split("\n\n")[0],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("action", choices=("write", "check", "print"))
    parser.add_argument("--course", default=COURSE,
                        help="the runner's copy of the course (default: %(default)s)")
    parser.add_argument("--runs-on", default=", ".join(RUNS_ON),
                        help="the runner's labels (default: %(default)s)")
    choose = parser.add_mutually_exclusive_group()
    choose.add_argument("--exercises", metavar="LIST", help="e.g. 01.1,01.2 (default: all)")
    choose.add_argument("--assignment", choices=sorted(assignments.ASSIGNMENTS),
                        help="a suggested assignment's graded exercises")
    args = parser.parse_args(argv[1:])
    try:
        wanted = common.wanted_ids(args.exercises, args.assignment)
    except ValueError as error:
        parser.error(str(error))
    labels = tuple(x.strip() for x in args.runs_on.split(",") if x.strip())
    custom = wanted is not None or args.course != COURSE or labels != RUNS_ON
    if args.action != "print" and custom:
        parser.error(f"{args.action} is for the committed file, of the defaults: use print")
    written = text(wanted, args.course, labels)
    if args.action == "print":
        sys.stdout.write(written)
        return 0
    if args.action == "write":
        with open(WORKFLOW, "w", encoding="utf-8") as f:
            f.write(written)
        print(f"make_workflow.py: {os.path.relpath(WORKFLOW, common.COURSE)}: "
              f"{len(steps())} exercises")
        return 0
    try:
        with open(WORKFLOW, encoding="utf-8") as f:
            committed = f.read()
    except OSError:
        committed = None
    if committed != written:
        print(f"make_workflow.py: {os.path.relpath(WORKFLOW, common.COURSE)} is not what the "
              "manifests give (an exercise added, removed or renamed?): run make_workflow.py "
              "write", file=sys.stderr)
        return 1
    print(f"make_workflow.py: {os.path.relpath(WORKFLOW, common.COURSE)}: in step with the "
          f"manifests ({len(steps())} exercises)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
