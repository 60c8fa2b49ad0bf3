#!/usr/bin/env python3
"""Runs the commands that the README and the guides in docs/ show, so that none of them goes stale:
every fenced block of README.md, docs/setup.md, docs/students.md, docs/instructors.md and
docs/your_gpu.md, and every code cell of docs/notebook.ipynb (its first comment line is its
marker), is run, or says why not. In a lesson's write-up, lessons/NN_*/README.md, only the blocks
it marks are commands (its fast path: the lesson's program built alone, and run); its code and
logs are not, and need no marker.

    python3 scripts/doc_commands.py check                  # every block has a valid marker
    python3 scripts/doc_commands.py run --kind cpu [--build-dir build/default] [--skip REGEX]
    python3 scripts/doc_commands.py run --kind gpu [--build-dir build/default] [--skip REGEX]
    python3 scripts/doc_commands.py selftest               # proves that the checks catch faults

Each fenced block has a marker, an HTML comment that ends on the line just before its opening
fence (no blank line between; it may run over a few lines; where another comment must sit there,
such as README's <!-- test-command -->, the marker may end on the line just above that one):

  <!-- commands: cpu -->           each non-empty line is a command, run with bash -c from the
                                   repository root as on a machine without a GPU (the GPU is
                                   hidden: CUDA_VISIBLE_DEVICES is empty and nvidia-smi lists
                                   none), against the build in --build-dir
  <!-- commands: gpu -->           the same, with the GPU, run only by --kind gpu
  <!-- commands: ctest -->         a line that runs ctest is run with "-N --test-dir BUILD"
                                   appended: it lists the tests it would run, and the listing is
                                   checked (lists, lists no); its other lines run as in a cpu
                                   block. Run by --kind cpu.
  <!-- commands: not run: WHY -->  a block that must not be run (an install, a rebuild from
                                   scratch, a placeholder such as DIR), and why
  <!-- output -->                  what a program prints, not commands

Options follow the kind, each after a semicolon:

  ; exit N          the exit status each line must give (default 0)
  ; prints /RE/     a Python regex that the line's stdout and stderr must match (re.M)
  ; timeout S       seconds a line may take (default 120)
  ; lists /RE/      (ctest) the listing must match RE
  ; lists no /RE/   (ctest) the listing must not match RE
  ; K: OPTION       the option for the block's K-th command line only (its non-empty lines,
                    counted from 1); "K: not run: WHY" leaves that line out

With a --build-dir other than build/default (CI builds build/ci), "--preset default" reads
"--preset NAME", "build/default/" reads the build folder, and another test preset of the default
build ("--preset exercises") reads as its label filter ("-L exercise"). bench.py, compare.py and
timer_check.py, run by python3, are given --build-dir right after their names (a --build-dir of
the command's own comes later, and wins). So the commands run against the build that is there.

A file that a command names and creates in the repository (--csv out.csv) is removed after it;
any other new untracked file it leaves fails the line.

`check` and `run` print one line per problem or command and exit 1 if any fails; `run --kind gpu`
exits 77 without a GPU (none that CUDA sees), after naming each block it skipped. Exit status 2
for bad arguments.

Only the Python standard library is used.
"""

import sys

from course import doc_commands
from course.cli import bad_usage


def main(argv):
    args = argv[1:]
    if args == ["selftest"]:
        return doc_commands.selftest()
    if args == ["check"]:
        return doc_commands.check()
    if args[:1] == ["run"]:
        opts, rest = {"--kind": None, "--build-dir": "build/default", "--skip": None}, args[1:]
        while len(rest) >= 2 and rest[0] in opts:
            opts[rest[0]], rest = rest[1], rest[2:]
        if rest or opts["--kind"] not in ("cpu", "gpu"):
            return bad_usage("doc_commands.py",
                             "run takes --kind cpu|gpu [--build-dir DIR] [--skip REGEX]")
        return doc_commands.run_all(opts["--kind"], opts["--build-dir"], opts["--skip"])
    if args in (["--help"], ["-h"]):
        print(__doc__)
        return 0
    return bad_usage("doc_commands.py", "give check, run --kind cpu|gpu or selftest")


if __name__ == "__main__":
    sys.exit(main(sys.argv))
