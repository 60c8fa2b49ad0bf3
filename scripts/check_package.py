#!/usr/bin/env python3
"""Checks that scripts/ is one package whose modules do nothing when they are imported: each
module of scripts/course/ is imported in a fresh interpreter that fails on any file it opens or
folder it lists in the repository outside the package's own files (a lesson.json, a CSV, a
Markdown file) and on any program it starts. And ROOT is set in one place, course/paths.py.

    python3 scripts/check_package.py            # exit 1, one line per problem, if any
    python3 scripts/check_package.py selftest   # proves that the check catches a module that
                                                # reads a file or starts a program at import
"""

import sys

from course import package_check
from course.cli import check_main
from course.paths import ROOT


def main(argv):
    return check_main(argv, __doc__, lambda: package_check.check(ROOT),
                      package_check.selftest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
