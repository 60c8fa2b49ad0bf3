#!/usr/bin/env python3
"""Draws Nsight Systems timelines as SVG from the CSV reports of a committed nsys run, so that a
timeline in a write-up can be regenerated and is never a screenshot nobody can check.

    python3 scripts/timeline.py update   # writes every timeline
    python3 scripts/timeline.py check    # exit 1 if a committed timeline differs from its CSVs

The runs (on the H100, from docs/results/h100-80gb-hbm3/, where each program's own output is in
lesson02_nsys_run.txt and lesson05_nsys_run.txt). nsys was the one that ships inside Nsight
Compute; any nsys takes the same commands:

    nsys profile --trace=cuda,nvtx -o lesson02 lesson02 --n 2^25 --reps 3 --cpu-reps 1
    nsys profile --trace=cuda,nvtx -o lesson05 lesson05 --n 2^14 --reps 2 --cpu-reps 1 --only v3,v5,v8
    nsys stats --report nvtx_pushpop_trace --report cuda_api_trace --report cuda_gpu_trace \\
        --format csv --output lessonNN lessonNN.nsys-rep

Each picture has three rows, as the Nsight Systems window has: the NVTX ranges of the program's
thread, the CUDA calls it made (a launch, a wait), and what the GPU ran. The GPU's work is
coloured by whose it is: the version's kernels, or the course's timer (the poison, the L2 flush,
the busy kernel queued ahead of the start event), or a copy.
"""

import sys

from course import timeline
from course.cli import bad_usage


def main(argv):
    if argv[1:] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if argv[1:] not in (["update"], ["check"]):
        return bad_usage("timeline.py", "give update or check")
    return timeline.update_or_check(argv[1])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
