#!/usr/bin/env python3
"""Writes the Gradescope autograder zip of the course (Gradescope's Autograder Specifications: a
zip whose root holds setup.sh and run_autograder; Gradescope unpacks it into /autograder/source,
runs setup.sh once when it builds the image, and run_autograder for each submission, which must
write /autograder/results/results.json).

    python3 grading/platforms/gradescope/make_autograder.py --mode build --out autograder.zip
    python3 grading/platforms/gradescope/make_autograder.py --mode gpu --assignment atomics \\
        --out autograder-gpu.zip

The zip's root: setup.sh and run_autograder (this folder's), autograder.json (the mode, the
exercises, the sandbox) and course/, the repository's files as they stand (git ls-files: tracked,
and untracked but not ignored). autograde.py, in course/, does the work (its help says how):

- --mode build, for Gradescope's own machines, which have no GPU: each submission's answers are
  built (grade.py --build-only: the answer check and the compiler), and results.json says which
  build, for 0 points. course/ leaves out solutions/: nothing here needs the model answers.
- --mode gpu, for a machine with a CUDA GPU that runs the same image (the instructor's own, or a
  self-hosted runner): the full grading, grade.py --format gradescope, into results.json.
  course/ holds solutions/, which the time bounds run; the sandbox (bubblewrap) is on.

--exercises 01.1,01.2 or --assignment NAME (docs/instructors.md's suggested assignments) choose
the exercises graded (default: every one); --sandbox auto|on|off overrides the mode's default
(build: auto, on where bwrap can make one; gpu: on, grade.py refuses to grade without it). The
zip is the same bytes for the same files. Exit status 0, or 2 for bad arguments."""

import argparse
import json
import os
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import common  # noqa: E402  (grading/platforms/common.py)
from course.cli import OneLineParser  # noqa: E402

EPOCH = (1980, 1, 1, 0, 0, 0)  # every entry's date: the zip depends on the files alone


def _entry(z, name, data, executable=False):
    info = zipfile.ZipInfo(name, EPOCH)
    info.external_attr = (0o100755 if executable else 0o100644) << 16
    info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, data)


def write(out, mode, wanted=None, sandbox=None):
    """Writes the autograder zip `out` for `mode` ("build" or "gpu"), grading the exercises of
    `wanted` (ids, or None for all); returns the course files it holds."""
    common.exercises(wanted)  # an unknown id is refused here, not in Gradescope
    files = common.course_files(solutions=mode == "gpu")
    settings = {"mode": mode, "exercises": list(wanted) if wanted else None, "sandbox": sandbox}
    with zipfile.ZipFile(out, "w") as z:
        for name in ("setup.sh", "run_autograder"):
            with open(os.path.join(HERE, name), "rb") as f:
                _entry(z, name, f.read(), executable=True)
        _entry(z, "autograder.json", json.dumps(settings, indent=2) + "\n")
        for name in files:
            path = os.path.join(common.COURSE, name)
            with open(path, "rb") as f:
                _entry(z, "course/" + name, f.read(), os.access(path, os.X_OK))
    return files


def main(argv):
    parser = OneLineParser(prog="make_autograder.py", description=__doc__.split("\n\n")[0],
                           formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--mode", choices=("build", "gpu"), required=True,
                        help="build: Gradescope's machines, no GPU, the answers only built; "
                             "gpu: a GPU machine, the full grading")
    common.add_packing_options(parser)
    parser.add_argument("--out", default="autograder.zip", help="the zip (default: %(default)s)")
    args = parser.parse_args(argv[1:])
    try:
        wanted = common.wanted_ids(args.exercises, args.assignment)
    except ValueError as error:
        parser.error(str(error))
    folder = os.path.dirname(os.path.abspath(args.out))
    if not os.path.isdir(folder):
        parser.error(f"--out {args.out}: the folder {folder} does not exist")
    try:
        files = write(args.out, args.mode, wanted, args.sandbox)
    except ValueError as error:
        parser.error(str(error))
    print(f"make_autograder.py: {args.out}: setup.sh, run_autograder, autograder.json and "
          f"{len(files)} course files (mode {args.mode}, exercises "
          f"{','.join(wanted) if wanted else 'all'})")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
