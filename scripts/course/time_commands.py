"""The README's two commands timed as a new user meets them (scripts/time_commands.py): read from
README.md, run in a fresh copy of the repository, and the report the README quotes the seconds
from, both commands in one call or each in its own."""

import os
import re
import shutil
import subprocess
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


HEADER_BOTH = "the README's two commands, one after the other, in a fresh copy of "
HEADER_APART = ("the README's two commands, timed apart, each in a fresh copy of what its line "
                "names")
MACHINE = "machine: "


def command_line(name, seconds, status, command, copied=None):
    """The report's line for one command; `copied` (what the fresh copy was made from) is named on
    the line when the two commands were timed apart."""
    line = f"{name}: {seconds:.0f} s, exit {status}  ({command})"
    return line + (f"  in a fresh copy of {copied}" if copied else "")


def merged_report(old, names, index, line, machine_line):
    """The report of a call that timed command `index` (0 or 1) alone: its `line`, and the other
    command's line from `old` (the report already there, or None) when that was timed on the same
    machine; a line from a report of both names the copy its header named. Returns (the report's
    text, a sentence on the other command's line)."""
    other = names[1 - index]
    kept, why = None, f"no earlier timing of '{other}' to keep: time it with --command {2 - index}"
    if old is not None:
        lines = old.splitlines()
        copied = next((x[len(HEADER_BOTH):] for x in lines if x.startswith(HEADER_BOTH)), None)
        found = next((x for x in lines if x.startswith(other + ": ")), None)
        if found is not None and MACHINE + machine_line not in lines:
            why = f"the earlier timing of '{other}' is dropped: it was on another machine"
        elif found is not None:
            if copied is not None and "  in a fresh copy of " not in found:
                found = f"{found}  in a fresh copy of {copied}"
            kept, why = found, f"kept the earlier timing of '{other}'"
    ordered = [line, kept] if index == 0 else [kept, line]
    text = "\n".join([HEADER_APART, MACHINE + machine_line] + [x for x in ordered if x]) + "\n"
    return text, why


def time_commands(out, which=None, logs=None):
    """Times the README's commands in a fresh copy and writes the report to `out` (default
    docs/results/<machine>/readme_commands.txt): both, one after the other, or only command
    `which` (1 or 2), keeping the other's line of the report already there; with `logs` (a
    folder), each command's whole output is kept there as commandN.log. The exit status: 0
    when every command timed passed, 1 when one failed."""
    folder, machine_line = machine()
    out = os.path.abspath(out or os.path.join(ROOT, folder, "readme_commands.txt"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    commands = readme_commands()
    lines = []
    ok = True
    with tempfile.TemporaryDirectory() as scratch:
        copy = os.path.join(scratch, "course")
        commit = fresh_copy(copy)
        if which is None:
            lines.append(HEADER_BOTH + commit)
        else:
            lines.append(f"the README's command {which} alone, in a fresh copy of {commit}")
        lines.append(MACHINE + machine_line)
        print("\n".join(lines), flush=True)
        for i, (name, command) in enumerate(commands, 1):
            if which is not None and i != which:
                continue
            log = os.path.join(scratch, f"command{i}.log")
            status, seconds = run_step(command, copy, log, name)
            if logs:
                os.makedirs(logs, exist_ok=True)
                shutil.copy(log, os.path.join(logs, f"command{i}.log"))
            line = command_line(name, seconds, status, command)
            print(line, flush=True)
            lines.append(line if which is None else
                         command_line(name, seconds, status, command, commit))
            if status != 0:
                print_tail(log)
            ok = ok and status == 0
    if which is None:
        text = "\n".join(lines) + "\n"
    else:
        old = None
        if os.path.exists(out):
            with open(out, encoding="utf-8") as f:
                old = f.read()
        text, why = merged_report(old, [name for name, _ in commands], which - 1, lines[-1],
                                  machine_line)
        print(why)
    with open(out, "w", encoding="utf-8") as f:
        f.write(text)
    print(f"wrote {out}")
    return 0 if ok else 1


def first_ways():
    """The two ways to a first result that docs/students.md shows first (the first two fenced
    blocks after its "## First:" heading, read as doc_commands.py reads them): [(name,
    [commands], {step: the exit status its marker says, when it names one})]. The second way
    starts with the first's configure, which the guide says to run once."""
    from course import doc_commands
    with open(os.path.join(ROOT, "docs", "students.md"), encoding="utf-8") as f:
        text = f.read()
    heading = text.find("\n## First:")
    first = text.count("\n", 0, heading) + 1 if heading >= 0 else None
    found = [b for b in doc_commands.blocks(text) if first is not None and b[0] > first][:2]
    if len(found) < 2:
        raise SystemExit("time_commands.py: error: docs/students.md no longer shows the two "
                         "first ways (a lesson's program, an exercise's tests) in its first "
                         "section")
    ways = []
    for _, _, marker, commands, _ in found:
        spec, _ = doc_commands.parse_marker(marker or "")
        opts = (spec or {}).get("opts", {})
        exits = {k: o["exit"] for k, o in opts.items() if k is not None and "exit" in o}
        ways.append(([command for _, command in commands], exits))
    (lesson, lesson_exits), (exercise, _) = ways
    configure = [c for c in lesson if c.startswith("cmake --preset")]
    target = re.search(r"--target (\S+)", lesson[-2] if len(lesson) > 1 else "")
    named = re.search(r"--target (\S+)", exercise[0])
    return [(target.group(1) if target else "a lesson", lesson, lesson_exits),
            (named.group(1) if named else "an exercise", configure[:1] + exercise, {})]


def run_step(command, cwd, log, name):
    """Runs one command line in `cwd` with its output in `log`; (exit status, seconds)."""
    started = time.monotonic()
    with open(log, "w") as f, Progress(name):
        status = subprocess.run(["bash", "-c", command], cwd=cwd, stdout=f,
                                stderr=subprocess.STDOUT).returncode
    return status, time.monotonic() - started


def print_tail(log, lines=30):
    with open(log, encoding="utf-8", errors="replace") as f:
        print("".join(f.readlines()[-lines:]))


def first_result(out):
    """Times docs/students.md's two ways to a first result, each in a fresh copy of its own (the
    configure, the build of one target and its run), and writes the report to `out` (default
    docs/results/<machine>/first_result.txt): each step's seconds and exit status, and each
    way's total. A step whose marker names an exit status (the lesson's 77 without a GPU) is
    held to it where there is no GPU; a build must exit 0. The exit status: 0 when every step
    did as the guide says, 1 when one did not."""
    folder, machine_line = machine()
    out = os.path.abspath(out or os.path.join(ROOT, folder, "first_result.txt"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    ways = first_ways()
    lines, ok = [], True
    for name, commands, exits in ways:
        with tempfile.TemporaryDirectory() as scratch:
            copy = os.path.join(scratch, "course")
            commit = fresh_copy(copy)
            if not lines:
                lines += [f"a student's first result (docs/students.md's first section), each "
                          f"way in a fresh copy of {commit}", MACHINE + machine_line]
                print("\n".join(lines), flush=True)
            total = 0.0
            for step, command in enumerate(commands, 1):
                log = os.path.join(scratch, f"step{step}.log")
                status, seconds = run_step(command, copy, log, f"{name}, step {step}")
                total += seconds
                line = f"{name}, step {step}: {seconds:.1f} s, exit {status}  ({command})"
                lines.append(line)
                print(line, flush=True)
                # Without a GPU a marked step exits as its marker says (77); with one, 0. An
                # exercise's untouched starter fails its tests (ctest: 8), as it should.
                wanted = {0, exits[step]} if step in exits else (
                    {0, 8} if command.startswith("ctest") else {0})
                if status not in wanted:
                    ok = False
                    print_tail(log)
            lines.append(f"{name}: {total:.1f} s in all, the configure included")
            print(lines[-1], flush=True)
    with open(out, "w", encoding="utf-8") as f:
        f.write("\n".join(lines) + "\n")
    print(f"wrote {out}")
    return 0 if ok else 1


def selftest():
    """merged_report on made-up reports: the other command's line is kept (naming its copy), or
    dropped from another machine, and the README's patterns still find both figures."""
    names = [name for name, _ in COMMANDS]
    both = (HEADER_BOTH + "commit 1111111\nmachine: no GPU, 2 CPU cores\n"
            f"{names[0]}: 204 s, exit 0  (one)\n{names[1]}: 1075 s, exit 0  (two)\n")
    second = command_line(names[1], 900.4, 0, "two", "commit 2222222")
    problems = []
    text, _ = merged_report(both, names, 1, second, "no GPU, 2 CPU cores")
    want = (HEADER_APART + "\nmachine: no GPU, 2 CPU cores\n"
            f"{names[0]}: 204 s, exit 0  (one)  in a fresh copy of commit 1111111\n"
            f"{names[1]}: 900 s, exit 0  (two)  in a fresh copy of commit 2222222\n")
    if text != want:
        problems.append(f"command 2 after a report of both:\n{text}")
    # The README's patterns (README.md's table of these timings).
    for pattern, figure in ((r"every lesson: (\d+) s", "204"), (r"every test: (\d+) s", "900"),
                            (r"machine: (.*)", "no GPU, 2 CPU cores")):
        m = re.search(pattern, text)
        if m is None or m.group(1) != figure:
            problems.append(f"/{pattern}/ does not find {figure}")
    first = command_line(names[0], 210, 0, "one", "commit 3333333")
    again, _ = merged_report(text, names, 0, first, "no GPU, 2 CPU cores")
    if again.splitlines()[2:] != [first, want.splitlines()[3]]:
        problems.append(f"command 1 after a report of one at a time:\n{again}")
    moved, why = merged_report(both, names, 1, second, "NVIDIA H100 80GB HBM3, 16 CPU cores")
    if names[0] in moved or "another machine" not in why:
        problems.append(f"a line from another machine is kept:\n{moved}")
    ways = first_ways()
    if [len(w[1]) for w in ways] != [3, 3] or not ways[1][1][0].startswith("cmake --preset"):
        problems.append(f"docs/students.md's first ways read as {ways}")
    alone, why = merged_report(None, names, 0, first, "no GPU, 2 CPU cores")
    if alone.splitlines()[2:] != [first] or "--command 2" not in why:
        problems.append(f"no earlier report:\n{alone}{why}")
    for problem in problems:
        print(f"time_commands.py selftest: FAILED: {problem}")
    if not problems:
        print("time_commands.py selftest: ok (--command keeps the other command's line from the "
              "same machine, naming each line's copy)")
    return 1 if problems else 0
