#!/usr/bin/env python3
"""Writes the two autograding files of an Autolab lab for the course (Autolab's Guide for Lab
Authors: the lab's folder holds autograde-Makefile and autograde.tar, which Autolab copies, with
the student's handin file, into an empty folder of a grading instance, where it runs `make`).

    python3 grading/platforms/autolab/make_autograde_tar.py --mode gpu --out LAB_DIR
    python3 grading/platforms/autolab/make_autograde_tar.py --mode build --assignment atomics \\
        --out LAB_DIR

LAB_DIR (a folder that exists: the lab's own, or one to copy from) gets autograde-Makefile (this
folder's) and autograde.tar: autograde.json (the mode, the exercises, the sandbox) and course/,
the repository's files as they stand (git ls-files), solutions/ left out in the build mode, which
runs no test. autograde.py, in course/, does the work and says how:

- --mode gpu, for a grading instance with a CUDA GPU (Tango's Docker giving containers the GPU):
  the full grading, grade.py --format autolab, whose last line is the autoresult;
- --mode build, for an instance without one: the answers only built (grade.py --build-only), an
  autoresult of 0 points each, until a regrade with the gpu mode's files.

The lab's problems must be named as the exercises are ("01.1 per_warp_histogram", 10 points
each); the handin's base name may be anything (a tar or zip, or one .cuh). --exercises
01.1,01.2 or --assignment NAME choose the exercises (default: every one); --sandbox auto|on|off
overrides the mode's default (build: auto; gpu: on, and grade.py refuses to grade without
bubblewrap). The tar is the same bytes for the same files. Exit status 0, or 2 for bad
arguments."""

import argparse
import io
import json
import os
import shutil
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common  # noqa: E402  (grading/platforms/common.py)
from course.cli import OneLineParser  # noqa: E402


def _add(tar, name, data, executable=False):
    info = tarfile.TarInfo(name)
    info.size = len(data)
    info.mode = 0o755 if executable else 0o644
    info.mtime = 0
    info.uid = info.gid = 0
    info.uname = info.gname = ""
    tar.addfile(info, io.BytesIO(data))


def write(lab_dir, mode, wanted=None, sandbox=None):
    """Writes autograde.tar and autograde-Makefile into `lab_dir` for `mode` ("build" or "gpu"),
    grading the exercises of `wanted` (ids, or None for all); returns the course files."""
    common.exercises(wanted)
    files = common.course_files(solutions=mode == "gpu")
    settings = {"mode": mode, "exercises": list(wanted) if wanted else None, "sandbox": sandbox}
    with tarfile.open(os.path.join(lab_dir, "autograde.tar"), "w", format=tarfile.GNU_FORMAT) \
            as tar:
        _add(tar, "autograde.json", (json.dumps(settings, indent=2) + "\n").encode())
        for name in files:
            path = os.path.join(common.COURSE, name)
            with open(path, "rb") as f:
                _add(tar, "course/" + name, f.read(), os.access(path, os.X_OK))
    shutil.copyfile(os.path.join(HERE, "autograde-Makefile"),
                    os.path.join(lab_dir, "autograde-Makefile"))
    return files


def main(argv):
    parser = OneLineParser(prog="make_autograde_tar.py", description=__doc__.split("\n\n")[0],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("build", "gpu"), required=True,
                        help="gpu: the full grading, on an instance with a GPU; build: the "
                             "answers only built, 0 points")
    common.add_packing_options(parser)
    parser.add_argument("--out", required=True, metavar="LAB_DIR",
                        help="the folder that gets autograde.tar and autograde-Makefile")
    args = parser.parse_args(argv[1:])
    try:
        wanted = common.wanted_ids(args.exercises, args.assignment)
    except ValueError as error:
        parser.error(str(error))
    if not os.path.isdir(args.out):
        parser.error(f"--out {args.out} is not a folder")
    files = write(args.out, args.mode, wanted, args.sandbox)
    print(f"make_autograde_tar.py: {os.path.join(args.out, 'autograde.tar')} ({len(files)} "
          f"course files, mode {args.mode}, exercises {','.join(wanted) if wanted else 'all'}) "
          f"and {os.path.join(args.out, 'autograde-Makefile')}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
