#!/usr/bin/env python3
"""Times an answer to a graded exercise against the model answer, in the same run: each test
program runs its [timing] test case (the graded call at a size where the technique matters,
timed by testing.hpp's report_time), in turns, and the fastest of each one's runs is kept. The
answer passes when its time is at most FACTOR times the model answer's; a time past that gets
--rounds more turns each before the verdict (another program's work can slow the first ones).

    python3 scripts/time_answer.py --answer build/tests/exercise01_1 \\
        --model build/tests/solution01_1 --factor 3 --name "01 exercise 1"
    python3 scripts/time_answer.py selftest

The bound catches an answer that gets the right output without the technique (one thread doing a
block's work, one block the grid's, one lock for a whole table): docs/instructors.md gives each
exercise's factor and why. A slow but correct answer loses these points only.

Exit status: 0 within the bound, 1 past it (or a program failed its [timing] case), 77 when the
programs found no GPU, 2 for bad arguments, 3 when a program is not built yet (one line names it
and the command that builds it: "time_answer.py: not built yet: build/default/tests/solution01_1:
run cmake --build --preset default --target solution01_1").
"""

import sys

from course import time_answer
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return time_answer.selftest()
    parser = OneLineParser(description="Time an answer against the model answer.")
    parser.add_argument("--answer", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--factor", type=float, required=True)
    parser.add_argument("--name", default="the answer")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv[1:])
    if args.factor < 1 or args.rounds < 1:
        parser.error("--factor must be at least 1 and --rounds at least 1")
    return time_answer.time_answer(args.answer, args.model, args.factor, args.name, args.rounds)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
