#!/usr/bin/env python3
"""Says in one line what a CTest run's tests did: how many passed, failed, were skipped and did not
run, and why, read from CTest's own record of the run (Testing/Temporary/LastTest.log). CTest
counts a skipped test as passed ("100% tests passed" where most were skipped for want of a GPU);
this line does not.

    python3 scripts/ctest_summary.py --build-dir build/default [--to-ctest]
    python3 scripts/ctest_summary.py --log build/default/Testing/Temporary/LastTest.log
    python3 scripts/ctest_summary.py selftest

Every test of the course requires a CTest fixture whose cleanup test runs this with --to-ctest
(common/tests/summary), so that it runs after the other tests of every run, whatever -R, -E, -L or
a preset picks, and reads the log of the run still going; --to-ctest writes the line on that
ctest's own output too, after the last test's line (CTest shows a passing test's output only with
-V). Afterwards, --build-dir reads the build folder's last run, and --log any log.

Exit status: 0 (whatever the tests did: CTest's own status says that), 2 for bad arguments or no
record of a run to read.
"""

import sys

from course import ctest_summary
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return ctest_summary.selftest()
    parser = OneLineParser(prog="ctest_summary.py", description=__doc__.split("\n\n")[0])
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("--build-dir", help="the build folder whose newest run to read")
    where.add_argument("--log", help="a CTest log (LastTest.log) to read")
    parser.add_argument("--to-ctest", action="store_true",
                        help="also write the line on the output of the ctest running this")
    args = parser.parse_args(argv[1:])
    return ctest_summary.summarise(args.build_dir, args.log, args.to_ctest)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
