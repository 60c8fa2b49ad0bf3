#!/usr/bin/env python3
"""Times the README's two commands as a new user meets them: in a fresh copy of the repository,
the first (build and run every lesson), then the second (build everything, run every test).

    python3 scripts/time_commands.py               # docs/results/<machine>/readme_commands.txt
    python3 scripts/time_commands.py --out FILE

The commands are read from README.md, so what is timed is what the README says. The copy is a
git clone of HEAD when the working tree is exactly HEAD, else a copy of the working tree without
its build folders; the report says which. <machine> is the GPU's results folder (as bench.py names it), or
no-gpu-<N>-cores on a machine without one. The README quotes the seconds from these files.
A command that fails has the end of its output printed.
Exit status: 0 when both commands passed, 1 when one failed, 2 for bad arguments.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from course.gpus import gpu_folder, gpu_name
from course.paths import ROOT
from course.progress import Progress

COMMANDS = [
    ("build and run every lesson",
     re.compile(r"Build and run every lesson at its default size:\n\n(?:<!--[^\n]*-->\n)*```\n"
                r"(.*?)\n```", re.S)),
    ("build everything and run every test",
     re.compile(r"<!-- test-command -->\n```\n(.*?)\n```", re.S)),
]


def readme_commands():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    found = []
    for name, pattern in COMMANDS:
        m = pattern.search(text)
        if m is None:
            raise SystemExit(f"time_commands.py: error: README.md no longer has the command to "
                             f"{name}")
        found.append((name, m.group(1).strip()))
    return found


def machine():
    """(the results folder, a line naming the machine)."""
    cores = os.cpu_count() or 1
    folder = gpu_folder()
    if folder is None:
        return os.path.join("docs", "results", f"no-gpu-{cores}-cores"), f"no GPU, {cores} CPU cores"
    return folder, f"{gpu_name()}, {cores} CPU cores"


def clean_checkout():
    """HEAD's short hash when the working tree is exactly HEAD (nothing changed, nothing new that
    git would take), else None."""
    if not (os.path.isdir(os.path.join(ROOT, ".git")) and shutil.which("git")):
        return None
    status = subprocess.run(["git", "-C", ROOT, "status", "--porcelain"], capture_output=True,
                            text=True)
    if status.returncode != 0 or status.stdout.strip():
        return None
    return subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"],
                          capture_output=True, text=True).stdout.strip() or None


def fresh_copy(into):
    """A clean copy of the repository in `into`; returns what was copied: a commit when the
    working tree is exactly that commit (a git clone), else "the working tree" (a copy without the
    build folders), so that the report never names a commit it did not time."""
    commit = clean_checkout()
    if commit:
        subprocess.run(["git", "clone", "-q", ROOT, into], check=True)
        return f"commit {commit}"
    shutil.copytree(ROOT, into, ignore=shutil.ignore_patterns("build", ".deps", "scratch", ".git"))
    return "the working tree (not a clean commit)"


def main(argv):
    parser = argparse.ArgumentParser(prog="time_commands.py", description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--out", help="the report (default: docs/results/<machine>/"
                                      "readme_commands.txt)")
    args = parser.parse_args(argv[1:])
    folder, machine_line = machine()
    out = os.path.abspath(args.out or os.path.join(ROOT, folder, "readme_commands.txt"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    commands = readme_commands()
    lines = []
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "course")
        commit = fresh_copy(copy)
        lines.append(f"the README's two commands, one after the other, in a fresh copy of {commit}")
        lines.append(f"machine: {machine_line}")
        print("\n".join(lines), flush=True)
        for i, (name, command) in enumerate(commands, 1):
            log = os.path.join(scratch, f"command{i}.log")
            started = time.monotonic()
            with open(log, "w") as f, Progress(name):
                status = subprocess.run(["bash", "-c", command], cwd=copy, stdout=f,
                                        stderr=subprocess.STDOUT).returncode
            seconds = time.monotonic() - started
            line = f"{name}: {seconds:.0f} s, exit {status}  ({command})"
            print(line, flush=True)
            lines.append(line)
            if status != 0:
                with open(log, encoding="utf-8", errors="replace") as f:
                    print("".join(f.readlines()[-30:]))
            ok = ok and status == 0
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
