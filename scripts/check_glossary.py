#!/usr/bin/env python3
"""Checks docs/glossary.md against the lessons: every term a lesson's lesson.json lists under
"terms" has one row in the glossary, naming that lesson; every row is a term some lesson lists; each
row has its Chinese term, its meaning and a link to the lesson's write-up; and each term appears
in that write-up (any case), so that the glossary names what the lessons actually say.

    python3 scripts/check_glossary.py            # exit 1, one line per problem, if any
    python3 scripts/check_glossary.py selftest   # proves that the check catches broken rows
"""

import sys

from course import glossary
from course.cli import check_main


def main(argv):
    return check_main(argv, __doc__, glossary.check, glossary.selftest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
