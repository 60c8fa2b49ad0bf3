#!/usr/bin/env python3
"""Checks what an answer to a graded exercise compiled to: the PTX of its kernels (the instructions
nvcc generates, before ptxas turns them into the GPU's machine code) must hold the instructions the
exercise's technique needs and none of those it rules out. The source check
(cmake/check_exercise.cmake) reads names, which another spelling gets round (a wrapper, another
atomic function, a name in parentheses); the instructions are what runs, however it was spelt.

    python3 scripts/check_compiled.py --spec grading/per_warp_histogram_compiled.txt \\
        --ptx per_warp_histogram_harness.ptx --answer exercise01_1
    python3 scripts/check_compiled.py selftest

The spec, one rule a line ('#' starts a comment):

    kernel <regex>               the functions the rules below it apply to: every compiled function
                                 (.entry or .func) whose demangled name this matches (re.search);
                                 at least one must
    require <regex> | <what>     (the bar between spaces) at least one instruction of those functions matches <regex>
                                 (re.match on the opcode with its modifiers: atom.shared.add.u32)
    forbid <regex> | <what>      no instruction of those functions matches <regex>

<what> names the instruction and why, as the failure line says it, for example
    require atom\\.shared | a shared-memory atomic (atom.shared): each warp counts in shared memory

The PTX is the answer's harness compiled with -DGRADING_SASS (no probes, which add atomics of
their own). PTX, not the machine code (SASS), because nvcc writes it on any machine, while
cuobjdump, which reads SASS, is not in every CUDA installation. Exit status: 0 when every rule
holds, 1 with one line per broken rule, 2 for a bad spec or a PTX file that cannot be read, 3 when
the PTX is not built yet (one line names it and the command that builds it: "check_compiled.py:
not built yet: <the .ptx>: run cmake --build --preset default --target exercise01_1_ptx").
"""

import sys

from course import compiled
from course.cli import OneLineParser


def main(argv):
    if argv[1:] == ["selftest"]:
        return compiled.selftest()
    parser = OneLineParser(description="Check an answer's compiled kernels.")
    parser.add_argument("--spec", required=True)
    parser.add_argument("--ptx", required=True, nargs="+", help="the PTX file(s) to read")
    parser.add_argument("--answer", required=True, help="the answer's name in the messages")
    args = parser.parse_args(argv[1:])
    return compiled.check(args.spec, args.ptx, args.answer)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
