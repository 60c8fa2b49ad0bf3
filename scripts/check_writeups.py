#!/usr/bin/env python3
"""Checks that every lesson's write-up is the two parts and the appendix a student can finish
(docs/authoring.md, "The write-up"), and counts their words.

    python3 scripts/check_writeups.py            # exit 1 and one line per problem
    python3 scripts/check_writeups.py --words    # the prose words of every part, and check
    python3 scripts/check_writeups.py selftest   # proves each rule catches what it should

A lesson folder holds README.md (part A), part_b.md (part B) and appendix.md. Each part:
- starts with "# Lesson NN, part A: ..." (or part B), and links to the other part;
- opens with "## What you will learn" (3 to 5 bullets), then a "**What you need:**" line and a
  "**Time:**" line that gives minutes;
- has "## Check your understanding" with 3 to 5 questions, each a <details> block whose
  <summary> is the question and whose body is the answer, at least one of them asking the student
  to predict a figure ("Predict" in the question);
- holds at most WORD_BUDGET words of prose (code blocks, tables and HTML comments not counted).
Part A also has "## Results" (the table of every version at the source's size, which the
lesson contract asks of README.md). Part B has "## Run it on your GPU", with its `python3 scripts/compare.py NN` command and a
link to the checklist in docs/your_gpu.md. The appendix starts with "# Lesson NN, appendix".
"""

import sys

from course import writeups
from course.cli import bad_usage


def main(argv):
    if argv[1:] == ["selftest"]:
        return writeups.selftest()
    if argv[1:] in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    if argv[1:] not in ([], ["--words"]):
        return bad_usage("check_writeups.py", "give nothing (the check), --words or selftest")
    return writeups.check(words=argv[1:] == ["--words"])


if __name__ == "__main__":
    sys.exit(main(sys.argv))
