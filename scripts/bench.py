#!/usr/bin/env python3
"""Runs every lesson's benchmarks on this machine's GPU (the runs each lessons/*/lesson.json lists),
then regenerates everything measured: the CSVs and logs under docs/results/<gpu>/, every
generated table and figure in the Markdown files (scripts/results.py), and every lesson's charts
(scripts/plot.py).

    cmake --preset default && cmake --build --preset default
    python3 scripts/bench.py                     # every lesson, then the tables and charts
    python3 scripts/bench.py --lessons 05,06     # some lessons only
    python3 scripts/bench.py --list              # print the commands, run nothing
    python3 scripts/bench.py --no-run            # tables and charts again, from the CSVs there
    python3 scripts/bench.py --out /tmp/results  # the runs alone, into another folder

<gpu> is the GPU's name as nvidia-smi gives it, lower-cased, without "NVIDIA", spaces as dashes
(NVIDIA H100 80GB HBM3: h100-80gb-hbm3). When it is not the folder the write-ups point at
(<!-- results-dir: ... -->), --retarget points them at it (--retarget docs/results/h200 --no-run
points them at a folder already there); the prose around the figures is not rewritten.

Each job runs with the results folder as its working folder, so the command each CSV records (and
each table quotes) is the one written here. The charts need matplotlib (Debian and Ubuntu:
sudo apt install python3-matplotlib); without it they are skipped, and said so. The profiler
logs the write-ups quote (*_ncu.txt, lesson03_racecheck.txt, lesson02_debug_build.txt) come from
the commands in each lesson's "Profile it yourself" section, not from this script.
Exit status: 0 when every job ran and passed its checks, 1 otherwise, 2 for bad arguments.
"""

import os
import sys

from course import bench, cli
from course.paths import ROOT
from course.cli import OneLineParser


def main(argv):
    parser = OneLineParser(description="Run every lesson's benchmarks and regenerate "
                                     "the results in the write-ups.")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--lessons", default="", help="comma-separated lesson numbers (default: all)")
    parser.add_argument("--list", action="store_true", help="print the jobs and run nothing")
    parser.add_argument("--no-run", action="store_true",
                        help="regenerate the tables and charts from the CSVs already there")
    parser.add_argument("--out", default="",
                        help="write the CSVs and logs here, and stop (copy them into "
                        "docs/results/<gpu>/, then run --no-run)")
    parser.add_argument("--retarget", nargs="?", const=True, default=False, metavar="FOLDER",
                        help="point every write-up's results-dir at this GPU's folder, or at "
                        "FOLDER (docs/results/<gpu>, which must exist; with --no-run, no GPU "
                        "is needed)")
    args = parser.parse_args(argv[1:])
    return bench.bench(args.build_dir, args.lessons, args.list, args.no_run, args.out,
                       args.retarget)


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
