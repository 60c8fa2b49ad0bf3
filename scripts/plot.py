#!/usr/bin/env python3
"""Draws a lesson's chart from the CSVs its program wrote: effective GB/s per version, one bar per
run (size and input), on a log scale, with the measured copy bandwidth as a dashed line and the
library's bars hatched.

    python3 scripts/plot.py OUT.png TITLE a.csv b.csv ...
    python3 scripts/plot.py --curve OUT.png TITLE sweep.csv
    python3 scripts/plot.py --scaling OUT.png TITLE g1.csv g2.csv g4.csv ...
    python3 scripts/plot.py --busbw OUT.png TITLE sweep_g2.csv sweep_g4.csv ...

--curve draws a sweep's CSV (columns k, version, threads, median_ms, check; lesson06 --k-sweep):
median time against k for each version, on log scales, each line ending where the version stops.

--scaling draws strong scaling from runs on 1, 2, 4... GPUs (lesson07 --gpus G; the CSV's gpus
column): each version's speed-up over the same run's v0 against the GPUs, one panel per work, with
the ideal (speed-up = GPUs) dashed.

--busbw draws all-reduce sweeps (lesson07 --work allreduce --sweep --sweep-csv; columns bytes, gpus,
version, busbw, check): bus bandwidth against the bytes on each GPU, one line per version (NCCL's
dashed), one panel per GPU count, as nccl-tests' tables are read.

Needs matplotlib (Debian/Ubuntu: sudo apt install python3-matplotlib).
"""

import sys

from course import plot


def main(argv):
    if len(argv) < 2 or argv[1] in ("--help", "-h"):
        print(__doc__.strip())
        return 0 if len(argv) >= 2 else 2
    plot.need_matplotlib()
    if len(argv) >= 5 and argv[1] == "--busbw":
        return plot.busbw(argv[2], argv[3], argv[4:])
    if len(argv) == 5 and argv[1] == "--curve":
        return plot.curve(argv[2], argv[3], argv[4])
    if len(argv) >= 5 and argv[1] == "--scaling":
        return plot.scaling(argv[2], argv[3], argv[4:])
    if len(argv) < 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    return plot.bars(argv[1], argv[2], argv[3:])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
