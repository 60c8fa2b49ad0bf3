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

from course import cli, plot


def main(argv):
    if argv[1:2] in (["--help"], ["-h"]):
        print(__doc__.strip())
        return 0
    modes = {"--busbw": plot.busbw, "--curve": plot.curve, "--scaling": plot.scaling}
    draw = modes.get(argv[1] if len(argv) > 1 else "", plot.bars)
    args = argv[2:] if draw is not plot.bars else argv[1:]
    if len(args) < 3 or (draw is plot.curve and len(args) != 3) or args[0].startswith("--"):
        return cli.bad_usage("plot.py", "give OUT.png TITLE and the CSVs, after --curve (one "
                                        "CSV), --scaling, --busbw or none")
    # Bad input before matplotlib is looked for: a CSV that is not there or has no rows, a chart
    # that cannot be written (one line, exit 2).
    for path in args[2:]:
        plot.read(path)
    cli.output_file(args[0], "the chart")
    plot.need_matplotlib()
    try:
        return draw(args[0], args[1], args[2] if draw is plot.curve else args[2:])
    except KeyError as e:
        raise cli.Refusal(f"a CSV has no column {e}: is it the program's CSV?") from None


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
