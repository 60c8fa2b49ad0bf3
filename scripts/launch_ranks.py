#!/usr/bin/env python3
"""Starts one process per GPU on this host, as torchrun or mpirun would, for lesson 07's ranks:

    python3 scripts/launch_ranks.py --nproc 4 -- build/default/bin/lesson07 --work dot \\
        --rank env --rendezvous tcp:127.0.0.1:{port} --n 2^30

Each process gets the variables torchrun sets (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE),
and in its arguments {port} becomes a TCP port that was free a moment ago and {tmp} a new empty
folder (the same for every rank). Each line a rank prints is shown with its rank in front. When a
rank fails, the others are stopped; so are all of them after --timeout seconds.

--nproc 0 (the default) starts one process per GPU the ranks will see (nvidia-smi's list, less
those CUDA_VISIBLE_DEVICES hides), and one when there is none (the rank then says there is no GPU,
and exits 77). `launch_ranks.py selftest` checks how nvidia-smi -L and CUDA_VISIBLE_DEVICES
are read.

Exit status: the ranks' worst (0 when all passed, 77 when every rank found no GPU), 124 when they
ran out of time, 2 for bad arguments.
"""

import argparse
import sys

from course import gpus, launch_ranks
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return gpus.selftest()
    parser = OneLineParser(description="Start one process per GPU, as torchrun does.")
    parser.add_argument("--nproc", type=int, default=0,
                        help="processes to start (0: one per GPU, at least one)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before all are stopped")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="-- then the program and its arguments")
    args = parser.parse_args(argv[1:])
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.nproc < 0:
        parser.error("give -- and the program to start, and an --nproc of 0 or more")
    return launch_ranks.launch(command, args.nproc, args.timeout)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
