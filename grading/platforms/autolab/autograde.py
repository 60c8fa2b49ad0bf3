#!/usr/bin/env python3
"""Autolab's side of the course's grading: the autograde-Makefile runs this in the job's folder,
once autograde.tar is unpacked there (course/ and autograde.json, the settings that
make_autograde_tar.py wrote), beside the student's handin file. It prints, last, the autoresult
that Autolab reads (Autolab's Guide for Lab Authors: the output's last line, a JSON object of
"scores" by problem name; the problems are named as the exercises are, "01.1
per_warp_histogram").

The handin is whatever file the job's folder holds besides those: a tar or zip of exercises/ (or
of some of its lessons' folders, or of loose .cuh files), or one .cuh file (for a lab of one
exercise, under whatever base name the lab gives the handin). Its answers are copied
into work/student/exercises/ (common.collect), then:

- mode "gpu" (a grading instance with a CUDA GPU): grade.py --format autolab, which prints the
  lines for a person, Autolab's semantic feedback line and, last, the autoresult (the points of
  each exercise, and a scoreboard); exit status 0, a student who lost points too (grade.py's 1).
  Without a GPU (grade.py's exit 77), or when the course itself cannot be built (2), it says so
  and prints no autoresult, and exits with that status: Autolab then reports that the autoresult
  could not be read, shows this output, and keeps the scores the submission had (a new one's are
  0), for a regrade on an instance with a GPU;
- mode "build" (an instance without a GPU): grade.py --build-only, a line per answer, the
  semantic feedback of their builds and an autoresult of 0 points each, which the GPU grading
  (a regrade with the gpu mode's autograde.tar) replaces; exit status 0.

The build folder is build/ in the job's folder (each job's is new), or COURSE_BUILD_DIR."""

import json
import os
import shutil
import sys
import tarfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
import common  # noqa: E402  (grading/platforms/common.py)

OURS = {"Makefile", "autograde.tar", "autograde.json", "course", "work", "build", "output.log"}
SANDBOX = {"build": "auto", "gpu": "on"}


def say(line=""):
    print(line, flush=True)


def settings(job):
    path = os.path.join(job, "autograde.json")
    found = {"mode": "gpu", "exercises": None, "sandbox": None}
    if os.path.isfile(path):
        with open(path, encoding="utf-8") as f:
            found.update(json.load(f))
    if found["mode"] not in SANDBOX:
        raise ValueError(f"autograde.json: mode {found['mode']!r} is not build or gpu")
    found["sandbox"] = found["sandbox"] or SANDBOX[found["mode"]]
    return found


def handin(job, into, wanted):
    """Copies (or unpacks) the job folder's handin files into `into`; returns notes. Autolab
    renames the handin to the lab's base name: one .cuh handed in for a lab of one exercise is
    that exercise's answer, whatever the base name."""
    notes = []
    os.makedirs(into, exist_ok=True)
    names = [n for n in sorted(os.listdir(job)) if n not in OURS and not n.startswith(".") and
             os.path.isfile(os.path.join(job, n)) and not os.path.islink(os.path.join(job, n))]
    for name in names:
        path = os.path.join(job, name)
        try:
            if zipfile.is_zipfile(path) or tarfile.is_tarfile(path):
                notes += common.unpack(path, os.path.join(into, name + ".unpacked"))
            elif name.endswith(".cuh") and len(names) == 1 and len(wanted) == 1:
                shutil.copyfile(path, os.path.join(into, wanted[0].name + ".cuh"))
            else:
                shutil.copyfile(path, os.path.join(into, name))
        except (ValueError, OSError) as error:
            notes.append(f"{name}: cannot be read ({error})")
    return notes


def built_feedback(report):
    """Autolab's semantic feedback (Formatted Feedback) of builds only: a stage per exercise."""
    feedback = {"_presentation": "semantic", "stages": [e.column() for e in report]}
    for exercise, why in report.items():
        feedback[exercise.column()] = {"build": {"passed": True} if not why else
                                       {"passed": False, "hint": why}}
    return feedback


def grade(job, config):
    work = os.path.join(job, "work")
    shutil.rmtree(work, ignore_errors=True)
    build_dir = os.environ.get("COURSE_BUILD_DIR") or os.path.join(job, "build")
    wanted = common.exercises(config["exercises"])
    notes = handin(job, os.path.join(work, "handin"), wanted)
    student_dir = os.path.join(work, "student")
    answers, more = common.collect(os.path.join(work, "handin"), student_dir, wanted)
    say(f"autograde.py: {len(answers)} of {len(wanted)} answers found in the handin "
        f"(mode {config['mode']})")
    for line in notes + more:
        say(f"  {line}")
    ids = ",".join(common.exercise_id(e) for e in wanted)
    if config["mode"] == "gpu":
        results = os.path.join(work, "autolab.txt")
        options, note = common.sandbox_options(config["sandbox"])
        if note:
            say(f"autograde.py: {note}")
        status, output = common.run_grade([student_dir, "--format", "autolab", "--results",
                                           results, "--build-dir", build_dir, "--exercises",
                                           ids] + options)
        if status in (0, 1) and os.path.isfile(results):
            with open(results, encoding="utf-8") as f:
                written = f.read().splitlines()
            printed = output.rstrip().splitlines()
            if not printed or printed[-1] != written[-1]:
                say(written[-2])  # the semantic feedback, then the autoresult, last
                say(written[-1])
            return 0
        if status == common.NO_GPU:
            say("autograde.py: no CUDA GPU on this grading instance: nothing was graded, and "
                "there is no autoresult; Autolab keeps the scores the submission had. Regrade "
                "on an instance with a GPU (or use the build mode's autograde.tar here).")
        else:
            say(f"autograde.py: grade.py exited {status} without results: the grader failed, "
                "not the answer (see above); nothing was graded, and there is no autoresult.")
        return status or 1
    try:
        report, built = common.build_only(student_dir, build_dir, wanted, config["sandbox"])
    except ValueError as error:
        say(f"autograde.py: {error}: nothing was graded, and there is no autoresult.")
        return 1
    done = sum(1 for why in report.values() if not why)
    say(f"{done} of {len(report)} answers build. Nothing was run: the tests need a CUDA GPU, "
        "which this grading instance has not; the points (0 here) come from the grading on a "
        "GPU, later.")
    for line in common.build_lines(report) + built:
        say(line)
    say(json.dumps(built_feedback(report)))
    say(json.dumps({"scores": {e.column(): 0.0 for e in report}}))
    return 0


def main(argv):
    job = os.getcwd()
    try:
        return grade(job, settings(job))
    except ValueError as error:
        say(f"autograde.py: {error}")
        return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
