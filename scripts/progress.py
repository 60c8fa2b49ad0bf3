#!/usr/bin/env python3
"""Checks the scripts' progress line (scripts/course/progress.py: one line on a terminal, for the
long steps).

    python3 scripts/progress.py selftest
"""

import sys

from course import progress

if __name__ == "__main__":
    if sys.argv[1:] != ["selftest"]:
        print("usage: progress.py selftest   (a module for the other scripts; this checks it)",
              file=sys.stderr)
        sys.exit(2)
    sys.exit(progress.selftest())
