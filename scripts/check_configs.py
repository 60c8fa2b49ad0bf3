#!/usr/bin/env python3
"""Configures every build configuration the README, docs/ and the write-ups tell a user to pass,
each in a scratch copy of the repository, and builds the targets it adds (scripts/course/configs.py
lists them: the presets, the optional libraries' include folders, NVBench on and off, NCCL off and
named, the tests off, Catch2 v2 and v3).

    python3 scripts/check_configs.py docs        # every option and preset the docs name is listed
    python3 scripts/check_configs.py selftest    # proves the docs check catches an unlisted one
    python3 scripts/check_configs.py list        # the configurations, and what each needs
    python3 scripts/check_configs.py run --cuco DIR --cccl DIR --nvbench DIR --catch2-v3 PREFIX \\
        --cmake-nvbench CMAKE [--only NAME,NAME] [--jobs N]

.ci/run gives `run` every input (cuCollections from the steering copy beside the checkout, CCCL
and NVBench from their PyPI wheels, Catch2 v3 built from Debian's source package, a newer CMake
from PyPI). It needs no GPU. Exit status: 0 when every configuration configured, said what it
must, built and listed its tests; 1 when one did not; 2 for bad arguments or a missing input.
"""

import argparse
import os
import sys

from course import configs
from course.cli import OneLineParser


def main(argv):
    if argv[1:2] == ["docs"] and len(argv) == 2:
        return configs.check_docs()
    if argv[1:2] == ["selftest"] and len(argv) == 2:
        return configs.selftest()
    if argv[1:2] == ["list"] and len(argv) == 2:
        for c in configs.CONFIGS:
            extra = " ".join(c.args)
            print(f"{c.name:<12} --preset {c.preset} {extra}".rstrip()
                  + (f"  (needs {', '.join(c.needs)})" if c.needs else "")
                  + (f"  builds {' '.join(c.build)}" if c.build else ""))
        return 0
    parser = OneLineParser(prog="check_configs.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=["run"])
    for name, what in configs.INPUTS.items():
        parser.add_argument("--" + name.replace("_", "-"), dest=name, default="", help=what)
    parser.add_argument("--only", default="", help="comma-separated configuration names")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv[1:])
    inputs = {name: getattr(args, name) for name in configs.INPUTS}
    for name, path in inputs.items():
        if path and not os.path.exists(path):
            parser.error(f"--{name.replace('_', '-')} {path} does not exist")
        if path and name != "cmake_nvbench":
            inputs[name] = os.path.abspath(path)
    only = [x for x in args.only.split(",") if x]
    return configs.run(inputs, only, args.jobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
