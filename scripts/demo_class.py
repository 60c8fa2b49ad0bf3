#!/usr/bin/env python3
"""Makes a class of five students for trying grade.py --class, from the repository's own files.

    python3 scripts/demo_class.py DIR
    python3 scripts/grade.py --class DIR

Each student is a folder DIR/<name>/exercises/NN_topic/<name>.cuh, as a student hands it in:

  solved        every exercise's solution
  untouched     every starter, as handed out
  mixed         every other exercise solved; the rest one of the exercise's wrong answers
                (solutions/NN_topic/wrong/): refused by the answer check, wrong, or never finishing
  deadlocked    every starter with a loop that never ends at its first TODO in device code (in
                host code where the exercise has none: lesson 07's)
  broken_build  every solution, but three files that do not compile and one that is missing

A grader expects full marks for solved; nothing for untouched and deadlocked; for broken_build the
points of the exercises that build, all solved; and for mixed the points of its solved exercises.
DIR must not exist yet, or be empty. `demo_class.py selftest` makes the class in a temporary folder
and checks that every student has every exercise, and every deadlocked one its endless loop.
"""

import sys

from course import cli, demo_class


def main(argv):
    if argv[1:] == ["selftest"]:
        return demo_class.selftest()
    parser = cli.OneLineParser(prog="demo_class.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="the class folder to make")
    args = parser.parse_args(argv[1:])
    # A file, a folder that cannot be read or holds files, one that cannot be made: one line.
    cli.output_folder(args.dir, empty=True)
    try:
        return demo_class.make_class(args.dir)
    except OSError as e:
        raise cli.Refusal(f"cannot write the class in {args.dir}: {e}") from None


if __name__ == "__main__":
    sys.exit(cli.run(main, sys.argv))
