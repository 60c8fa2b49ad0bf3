#!/usr/bin/env python3
"""Checks the run records under docs/results/: each is cited by a page (a generated part, a link,
its path or its name beside its folder's), read by a script (results.py, timeline.py,
timer_check.py --table) or declared by a lesson.json (a run's log or CSV, a chart); and none holds
an absolute path of the machine that made it (/tmp/, /home/, /root/, /work/).

    python3 scripts/check_records.py            # exit 1, one line per problem, if any
    python3 scripts/check_records.py selftest   # proves that the check catches both kinds
"""

import sys

from course import records
from course.cli import check_main


def main(argv):
    return check_main(argv, __doc__, records.check, records.selftest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
