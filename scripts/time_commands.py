#!/usr/bin/env python3
"""Times the README's two commands as a new user meets them: in a fresh copy of the repository,
the first (build and run every lesson), then the second (build everything, run every test).

    python3 scripts/time_commands.py               # docs/results/<machine>/readme_commands.txt
    python3 scripts/time_commands.py --out FILE
    python3 scripts/time_commands.py --command 2   # the second command alone (1: the first)
    python3 scripts/time_commands.py --logs DIR    # also keep each command's output in DIR
    python3 scripts/time_commands.py --first-result [--out FILE]
                                                   # docs/students.md's two first ways, timed
    python3 scripts/time_commands.py selftest      # proves how --command merges the report

The commands are read from README.md, so what is timed is what the README says. The copy is a
git clone of HEAD when the working tree is exactly HEAD, else a copy of the working tree without
its build folders; the report says which. <machine> is the GPU's results folder (as bench.py names it), or
no-gpu-<N>-cores on a machine without one. The README quotes the seconds from these files.
A command that fails has the end of its output printed.

--command N times the README's Nth command alone, in a fresh copy as above, so that the two can be
timed in separate calls (on a machine that limits a call's time). The report keeps the other
command's line from the report already there when it was timed on the same machine, and each line
then names the copy it timed (a commit, or the working tree).
--first-result times instead the two ways to a first result that docs/students.md shows first (a
lesson's program, an exercise's tests: configure, build one target, run it), each in a fresh copy,
step by step, into docs/results/<machine>/first_result.txt.
Exit status: 0 when both commands passed (--first-result: every step did as the guide says), 1 when one failed, 2 for bad arguments.
"""

import argparse
import sys

from course import cli, time_commands
from course.cli import OneLineParser


def parser():
    p = OneLineParser(prog="time_commands.py", description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--out", help="the report (default: docs/results/<machine>/"
                                 "readme_commands.txt)")
    p.add_argument("--command", type=int, choices=(1, 2),
                   help="time only the README's Nth command, keeping the other's line")
    p.add_argument("--first-result", action="store_true",
                   help="time docs/students.md's two first ways instead (first_result.txt)")
    p.add_argument("--logs", help="a folder to keep each command's whole output in "
                                  "(command1.log, command2.log)")
    return p


def main(argv):
    if argv[1:] == ["selftest"]:
        return time_commands.selftest()
    args = parser().parse_args(argv[1:])
    # Before the commands' minutes: an --out or --logs that cannot be written is one line, exit 2.
    if args.out:
        cli.output_file(args.out, "--out", make=True)
    if args.logs:
        cli.output_folder(args.logs, "--logs")
    if args.first_result:
        if args.command or args.logs:
            raise cli.Refusal("--first-result times the guide's first ways: leave out "
                              + ("--command" if args.command else "--logs"))
        return time_commands.first_result(args.out)
    return time_commands.time_commands(args.out, args.command, args.logs)


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
