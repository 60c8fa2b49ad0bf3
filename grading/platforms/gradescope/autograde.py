#!/usr/bin/env python3
"""Gradescope's side of the course's grading: run_autograder calls this for each submission, and
setup.sh once, when Gradescope builds the autograder's image (make_autograder.py writes both into
the autograder zip, with the course beside them in course/ and the settings in autograder.json).

    python3 autograde.py          # grade /autograder/submission into /autograder/results
    python3 autograde.py warm     # setup.sh: build the shipped starters once (the build folder
                                  # of the image, configured, its course programs built)

AUTOGRADER_ROOT is the folder that stands for /autograder (the course's test sets it); the build
folder is AUTOGRADER_ROOT/build, or COURSE_BUILD_DIR. The submission's answers are copied into
AUTOGRADER_ROOT/work/<student>/exercises/ (common.collect), then:

- mode "build" (Gradescope's own machines, which have no GPU): grade.py --build-only, and a
  results.json that says which answers build, each an entry worth 0 points, and that the points
  come later, from the grading on a GPU; extra_data names each answer file taken and its SHA-256,
  so that the file the instructor grades later (from Gradescope's export of the submissions) can
  be checked to be the one built here;
- mode "gpu" (the same zip on a machine with a CUDA GPU: the instructor's own, or a runner of
  Gradescope's image started with the GPU): grade.py --format gradescope --results
  AUTOGRADER_ROOT/results/results.json, the collection's notes added to its output. Without a
  GPU (grade.py's exit 77) it does what "build" does, and says why.

The exit status is 0 whenever results.json was written (a student who lost points too: grade.py's
exit 1); otherwise results.json is not there, which Gradescope shows as the autograder's failure,
and the status is grade.py's (2: the course could not be built or configured, not the student's
fault)."""

import json
import os
import shutil
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (grading/platforms/common.py)

DEFAULTS = {"mode": "build", "exercises": None, "sandbox": None}
SANDBOX = {"build": "auto", "gpu": "on"}  # unless autograder.json says otherwise


def settings():
    """autograder.json beside the course (make_autograder.py writes it), over DEFAULTS."""
    path = os.path.join(os.path.dirname(common.COURSE), "autograder.json")
    found = dict(DEFAULTS)
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            found.update(json.load(f))
    if found["mode"] not in SANDBOX:
        raise ValueError(f"autograder.json: mode {found['mode']!r} is not build or gpu")
    found["sandbox"] = found["sandbox"] or SANDBOX[found["mode"]]
    return found


def student_name(root):
    """The folder name grade.py gives the student: Gradescope's submission id, when its metadata
    is there."""
    try:
        with open(os.path.join(root, "submission_metadata.json"), encoding="utf-8") as f:
            return f"submission_{int(json.load(f)['id'])}"
    except (OSError, ValueError, KeyError, TypeError):
        return "submission"


def answer_data(answers):
    return {e.column(): dict(file=f"exercises/{e.lesson_dir}/{e.name}.cuh", **taken)
            for e, taken in answers.items()}


def build_results(student, report, notes, answers, seconds, why):
    """Gradescope's results.json (its Autograder Specifications) for answers that were only
    built: a test per exercise worth nothing, passed when its answer builds, and a score of 0."""
    built = sum(1 for reason in report.values() if not reason)
    output = [f"{student}: {built} of {len(report)} answers build ({why}). Nothing was run: the "
              "exercises' tests need a CUDA GPU, and the points come from the grading on the "
              "instructor's GPU machine, later; the score here is not the grade."]
    output += common.build_lines(report) + notes
    tests = [{"name": f"{e.column()}: build", "score": 0, "max_score": 0,
              "status": "failed" if reason else "passed",
              "output": reason or "builds (the answer check and the compiler accept it)",
              "visibility": "visible"} for e, reason in report.items()]
    return {"score": 0, "execution_time": int(round(seconds)), "output": "\n".join(output),
            "extra_data": {"mode": "build", "student": student, "answers": answer_data(answers)},
            "tests": tests}


def write_json(path, results):
    with open(path + ".part", "w", encoding="utf-8") as f:
        json.dump(results, f, indent=2)
        f.write("\n")
    os.replace(path + ".part", path)


def grade(root, config):
    start = time.time()
    results_dir = os.path.join(root, "results")
    os.makedirs(results_dir, exist_ok=True)
    results = os.path.join(results_dir, "results.json")
    if os.path.exists(results):
        os.remove(results)
    build_dir = os.environ.get("COURSE_BUILD_DIR") or os.path.join(root, "build")
    student = student_name(root)
    work = os.path.join(root, "work")
    shutil.rmtree(work, ignore_errors=True)
    student_dir = os.path.join(work, student)
    wanted = common.exercises(config["exercises"])
    answers, notes = common.collect(os.path.join(root, "submission"), student_dir, wanted)
    print(f"autograde.py: {len(answers)} of {len(wanted)} answers found in the submission "
          f"(mode {config['mode']})", flush=True)
    for line in notes:
        print(f"  {line}", flush=True)
    why = "built on Gradescope's machine, which has no GPU"
    if config["mode"] == "gpu":
        options, note = common.sandbox_options(config["sandbox"])
        status, _ = common.run_grade(
            [student_dir, "--format", "gradescope", "--results", results, "--build-dir",
             build_dir, "--exercises", ",".join(common.exercise_id(e) for e in wanted)] +
            options)
        if status in (0, 1) and os.path.isfile(results):
            with open(results, encoding="utf-8") as f:
                graded = json.load(f)
            said = [graded.get("output", "")] + notes + ([note] if note else [])
            graded["output"] = "\n".join(said).strip()
            graded.setdefault("extra_data", {}).update(mode="gpu", answers=answer_data(answers))
            write_json(results, graded)
            return 0
        if status != common.NO_GPU:
            print(f"autograde.py: grade.py exited {status} and wrote no results: see above",
                  flush=True)
            return status or 1
        why = "no CUDA GPU on the machine that ran the autograder"
        print(f"autograde.py: {why}: the answers are only built", flush=True)
    try:
        # Only built, nothing run: the sandbox where bwrap can make one.
        sandbox = "off" if config["sandbox"] == "off" else "auto"
        report, more = common.build_only(student_dir, build_dir, wanted, sandbox)
    except ValueError as error:
        print(f"autograde.py: {error}", flush=True)
        return 1
    write_json(results, build_results(student, report, notes + more, answers,
                                      time.time() - start, why))
    return 0


def warm(root, config):
    """setup.sh: the shipped starters built once, into the image's build folder, so that each
    submission's build reuses the configured folder and the course's own programs."""
    build_dir = os.environ.get("COURSE_BUILD_DIR") or os.path.join(root, "build")
    wanted = common.exercises(config["exercises"])
    report, _ = common.build_only(os.path.join(common.COURSE, "exercises"), build_dir, wanted,
                                  "off")  # an image's build has no user namespaces for bwrap
    broken = [e.column() for e, why in report.items() if why]
    if broken:
        print(f"autograde.py warm: the starters of {', '.join(broken)} do not build",
              flush=True)
        return 1
    return 0


def main(argv):
    root = os.environ.get("AUTOGRADER_ROOT") or "/autograder"
    try:
        config = settings()
        if argv[1:] == ["warm"]:
            return warm(root, config)
        if argv[1:]:
            print("usage: autograde.py [warm]", file=sys.stderr)
            return 2
        return grade(root, config)
    except ValueError as error:
        print(f"autograde.py: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
