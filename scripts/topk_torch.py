#!/usr/bin/env python3
"""torch.topk on this machine's GPU, timed as lesson06 times its versions: the reference figure that
lesson 06's write-up quotes.

    python3 scripts/topk_torch.py [--n 10000000] [--reps 50] [--ks 10,100,1024,16384] [--csv F]

The input is the source's kind: random ints from 0 to 2^31 - 1, every even index negated (drawn by
torch, so the values differ from lesson06's, but not their distribution), as int32 and as float32.
Each timed call runs after a warm-up, between CUDA events, with the L2 cache flushed before it (by
reading a buffer twice its size, which leaves no dirty lines behind), as lesson06 does; the median of --reps calls is printed, and
the same without the flush. --csv writes the flushed times as rows of lesson06's CSV (version
torch.topk), which the README's table at a glance joins to lesson06's own run. Needs PyTorch with
CUDA; without it, says so and exits 77.
"""

import sys

from course import cli, topk_torch
from course.cli import OneLineParser


def main(argv):
    parser = OneLineParser(description="Time torch.topk the way lesson06 times its versions.")
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--ks", default="10,100,1024,16384")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--csv", default="", help="also write the flushed times to this CSV")
    args = parser.parse_args(argv[1:])
    try:
        ks = [int(k) for k in args.ks.split(",")]
    except ValueError:
        parser.error(f"--ks must be whole numbers, not {args.ks}")
    if args.n < 1 or args.reps < 1 or any(k < 1 or k > args.n for k in ks):
        parser.error("need n >= 1, reps >= 1 and every k from 1 to n")
    if args.csv:
        cli.output_file(args.csv, "--csv")  # before PyTorch and the timing: one line, exit 2
    return topk_torch.measure(args.n, args.reps, ks, args.seed, args.csv,
                              "topk_torch.py " + " ".join(argv[1:]))


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
