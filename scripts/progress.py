#!/usr/bin/env python3
"""Checks the scripts' progress line (scripts/course/progress.py: one line on a terminal, for the
long steps).

    python3 scripts/progress.py selftest
"""

import sys

from course import progress
from course.cli import bad_usage

if __name__ == "__main__":
    if sys.argv[1:] in (["--help"], ["-h"]):
        print(__doc__.strip())
        sys.exit(0)
    if sys.argv[1:] != ["selftest"]:
        sys.exit(bad_usage("progress.py", "give selftest (a module for the other scripts; this "
                                          "checks it)"))
    sys.exit(progress.selftest())
