"""What one CTest run's tests did, read from CTest's own record of the run
(scripts/ctest_summary.py): how many passed, failed, were skipped and did not run, and why, in one
line.

CTest writes Testing/Temporary/LastTest.log (LastTest_<time>.log with -T) as each test ends,
under a temporary name until the run ends: LastTest.log.tmp (CTest 3.2x), LastTest.log.tmp<5 hex
digits> (CTest 4.x: a name of its own each run). An entry per test, "k/N Testing: <name>", its
command, its output, then "Test Passed.", "Test Failed.", or "Test Pass Reason:" / "Test Fail
Reason:" and the reason. It does not record a test's exit status, and it writes "Test Passed."
for a test skipped by its SKIP_RETURN_CODE and for one that never ran, so the entries are read
this way:

  not run    its command is "" (never started): the lines CTest wrote just before the entry say
             why ("Failed test dependencies: ...", "Unable to find executable: ...")
  skipped    "Skip regular expression found", or "Test Passed." with a line of output that starts
             "SKIPPED: " (what every course program that exits 77 prints; the course's tests that
             skip by exit status alone set a SKIP_REGULAR_EXPRESSION as well)
  failed     "Test Failed." or a fail reason (a line "<prog>: not built yet: ..." names why)
  passed     the rest

Run by ctest (the summary test), the log is read through that ctest's own open file (Linux's
/proc; a Python wrapper that starts ctest, as the PyPI package's bin/ctest may, is passed over):
another ctest started in the same build folder while the run goes on (a test that lists the
tests, `ctest -N`) writes a log of its own, with CTest 3.2x under the same name (the running one's
is then no longer there by name). Without that open file, only a log of a run going on is read
by name, never an earlier run's. The tests CTest's checkpoint (CTestCheckpoint.txt) says have
ended, but that the log read lacks, are counted apart.
"""

import glob
import os
import re
import stat
import sys

from course import built

ENTRY = re.compile(r"^(\d+)/(\d+) Testing: (.*)$")
SEPARATOR = "-" * 58
# The summary's own entry (in a log read after the run): its command runs this with --to-ctest.
SELF = ("ctest_summary.py", "--to-ctest")


def parse(text):
    """Each complete entry of a CTest log, in the order the tests ended, as {"name", "index"
    (the test's number, the k of "k/N Testing:"), "status" (passed, failed, skipped, not run),
    "why", "self" (the summary's own)}. An entry still being written is left out. (N is the number
    of tests the build defines, not of those the run picked: the entries are the run's tests.)"""
    lines = text.split("\n")
    entries, before, i = [], [], 0
    while i < len(lines):
        m = ENTRY.match(lines[i])
        if not m:
            line = lines[i].strip()
            if line and line != SEPARATOR and not re.match(r"(Start|End) testing: ", line):
                before.append(line)
            i += 1
            continue
        entry, i = read_entry(lines, i, m.group(3), before)
        before = []
        if entry:
            entry["index"] = int(m.group(1))
            entries.append(entry)
    return entries


def read_entry(lines, i, name, before):
    """(entry or None, the index after it) of the entry that starts at lines[i]."""
    command, j = None, i + 1
    while j < len(lines) and lines[j] != "Output:":
        if lines[j].startswith("Command: "):
            command = lines[j][len("Command: "):].strip()
        j += 1
    j += 2  # "Output:" and its separator
    output = []
    while j + 1 < len(lines) and not (lines[j] == "<end of output>"
                                      and lines[j + 1].startswith("Test time =")):
        output.append(lines[j])
        j += 1
    j += 3  # "<end of output>", "Test time = ..." and the separator
    result = []
    end = f'"{name}" end time:'
    while j < len(lines) and not lines[j].startswith(end):
        if ENTRY.match(lines[j]):
            return None, j  # cut short: the next entry starts
        result.append(lines[j])
        j += 1
    if j >= len(lines):
        return None, j  # still being written
    status, why = judge(command, output, result, before)
    own = all(w in (command or "") for w in SELF)
    return {"name": name, "status": status, "why": why, "self": own}, j + 1


def judge(command, output, result, before):
    """(status, why) of one entry (see the module's docstring)."""
    said = " ".join(line.strip() for line in result)
    if command == '""':
        return "not run", not_run_why(before)
    if said.startswith("Test Pass Reason:") and "Skip regular expression found" in said:
        return "skipped", skip_why(output, said)
    if said.startswith("Test Passed."):
        if any(line.startswith("SKIPPED: ") for line in output):
            return "skipped", skip_why(output, said)
        return "passed", ""
    if said.startswith("Test Pass Reason:"):
        return "passed", ""
    for line in output:
        if ": not built yet: " in line:
            return "failed", "not built yet"
    return "failed", ""


def short(text):
    """A reason without its details: up to its first " (", ": " or "; "."""
    return re.split(r" \(|: |; ", text.strip(), maxsplit=1)[0].strip()


def skip_why(output, said):
    """Why a test was skipped: its "SKIPPED: " line, else what its skip regex matched in its
    output (or the regex itself)."""
    for line in output:
        if line.startswith("SKIPPED: "):
            return short(line[len("SKIPPED: "):])
    m = re.search(r"Regex=\[(.*)\]", said)
    if not m:
        return ""
    try:
        found = re.search(m.group(1), "\n".join(output))
    except re.error:
        found = None
    return short(found.group(0) if found else m.group(1))


def not_run_why(before):
    for line in reversed(before):
        if line.startswith("Failed test dependencies:"):
            return "a test they need did not pass: " + line.split(":", 1)[1].strip()
        if line.startswith("Unable to find executable:"):
            return "not built"
    return before[-1] if before else ""


def counts(entries):
    """{status: {why: count}} of the entries (the last entry of each name: --repeat runs one
    test more than once), the summary's own left out."""
    last = {}
    for entry in entries:
        if not entry["self"]:
            last[entry["name"]] = entry
    out = {status: {} for status in ("passed", "failed", "skipped", "not run")}
    for entry in last.values():
        whys = out[entry["status"]]
        whys[entry["why"]] = whys.get(entry["why"], 0) + 1
    return out


def whys(by_why, most=3):
    """' (350: no usable CUDA GPU, 7: ...)' of a status's reasons, the commonest first."""
    named = sorted(((n, w) for w, n in by_why.items() if w), key=lambda p: (-p[0], p[1]))
    if not named:
        return ""
    shown = [f"{n}: {w}" for n, w in named[:most]]
    if len(named) > most:
        shown.append(f"{sum(n for n, _ in named[most:])}: other reasons")
    return f" ({', '.join(shown)})"


def summary_line(entries, build_dir=None, ended=()):
    """The one line: how many of the run's tests (the summary's own left out) passed, failed,
    were skipped and did not run, and why; with `build_dir`, the command that builds what was
    not built. `ended`: the numbers of the tests that CTest says have ended (its checkpoint): those
    without an entry are said to be lost from the log."""
    found = counts(entries)
    number = {status: sum(by_why.values()) for status, by_why in found.items()}
    lost = len(set(ended) - {e["index"] for e in entries})
    seen = sum(number.values()) + lost
    line = (f"summary of this run's {seen} test{'' if seen == 1 else 's'}: "
            f"{number['passed']} passed, {number['failed']} failed{whys(found['failed'])}, "
            f"{number['skipped']} skipped{whys(found['skipped'])}, {number['not run']} not run"
            f"{whys(found['not run'])}")
    if lost:
        line += (f"; {lost} more ended whose results are not in CTest's log (another ctest in "
                 "this build folder wrote its own log over it)")
    if number["skipped"]:
        line += "; CTest's percentage counts a skipped test as passed"
    unbuilt = [e["name"] for e in entries if not e["self"] and e["why"] in NOT_BUILT]
    if build_dir and unbuilt:
        line += f"; build first: {build_first(build_dir, unbuilt)}"
    return line


NOT_BUILT = ("not built", "not built yet")
# An exercise's tests ("01 exercise 1/...", "01 solution 1/...", or Catch2's stand-in for a
# program not built, "exercise01_1_NOT_BUILT-..."): the target exNN.K builds what they run.
EXERCISE_TEST = re.compile(r"^(\d\d) (?:exercise|solution) (\d+)/|^(?:exercise|solution)(\d\d)_"
                           r"(\d+)_NOT_BUILT")


def build_first(build_dir, names):
    """The command that builds what the tests `names` need: the exercises' targets (exNN.K)
    when they are all an exercise's, else the whole build."""
    command = built.build_command([os.path.join(build_dir, "CMakeCache.txt")])
    targets = []
    for name in names:
        m = EXERCISE_TEST.match(name)
        if not m:
            return command
        nn, k = (m.group(1), m.group(2)) if m.group(1) else (m.group(3), m.group(4))
        if f"ex{nn}.{k}" not in targets:
            targets.append(f"ex{nn}.{k}")
    return f"{command} --target {' '.join(targets)}"



# LastTest.log, LastTest_<time>.log (-T), and either being written (.tmp, CTest 3.2x; .tmp and 5
# hex digits, CTest 4.x); not LastTestsFailed.log.
LOG_NAME = re.compile(r"^LastTest(_[^/]*)?\.log(\.tmp[0-9a-f]*)?$")


def being_written(path):
    """Whether `path` is named as the log of a run still going (LastTest*.log.tmp*)."""
    m = LOG_NAME.match(os.path.basename(path))
    return bool(m and m.group(2))


def find_log(build_dir, going=False):
    """The newest record of a CTest run in the build folder: the log of a run still going
    (LastTest*.log.tmp*), or else (unless `going`) of the last one; None if there is none."""
    folder = os.path.join(build_dir, "Testing", "Temporary")
    found = []
    for path in glob.glob(os.path.join(folder, "LastTest*")):
        if LOG_NAME.match(os.path.basename(path)) and (being_written(path) or not going):
            try:
                found.append((os.path.getmtime(path), path))
            except OSError:  # renamed as the run it records ended
                continue
    return max(found)[1] if found else None


def undeleted(target):
    """A /proc link's target without the " (deleted)" Linux adds once its file is removed."""
    return target[:-len(" (deleted)")] if target.endswith(" (deleted)") else target


def running_log(pid, build_dir=None):
    """(a path that reads it, its folder) of the log that the running ctest `pid` writes (one of
    its open files, LastTest*.log.tmp*), or (None, None). Read through /proc, it is this run's
    whole log even where another ctest in the same build folder (a test that lists the tests,
    ctest -N) has since written a log of its own under its name. A ctest started by a test of
    another ctest may have that one's log open as well: the log in `build_dir` is taken, else the
    one opened last (its file number the highest)."""
    logs = list(open_logs(pid))
    if build_dir:
        mine = os.path.realpath(os.path.join(build_dir, "Testing", "Temporary"))
        for log, folder in logs:
            if os.path.realpath(folder) == mine:
                return log, folder
    return logs[-1] if logs else (None, None)


def open_logs(pid):
    """(a path that reads it, its folder) of each log of a run going on that process `pid` has
    open (a ctest's tests inherit its log's file as well)."""
    try:
        fds = sorted(os.listdir(f"/proc/{pid}/fd"), key=int)
    except (OSError, ValueError):
        return
    for fd in fds:
        try:
            path = undeleted(os.readlink(f"/proc/{pid}/fd/{fd}"))
        except OSError:
            continue
        if being_written(path):
            yield f"/proc/{pid}/fd/{fd}", os.path.dirname(path)


def checkpoint(folder):
    """The numbers of the tests that have ended in the run going on (CTestCheckpoint.txt, which
    CTest writes as each test ends, and which a ctest -N leaves alone), or () without it."""
    try:
        with open(os.path.join(folder, "CTestCheckpoint.txt"), encoding="utf-8") as f:
            return {int(w) for w in f.read().split() if w.isdigit()}
    except OSError:
        return ()


# --- the line on CTest's own output --------------------------------------------------------------

QUIET_OR_VERBOSE = {"-V", "-VV", "--verbose", "--extra-verbose", "-Q", "--quiet"}


def may_write(ctest_args, is_file, appends):
    """Whether the summary may write its line on CTest's standard output: not when CTest shows
    the tests' output itself (-V, -VV) or is told to be quiet (-Q), nor into a regular file that
    CTest does not append to (CTest's next line, written at its own offset, would overwrite it)."""
    if any(a in QUIET_OR_VERBOSE for a in ctest_args):
        return False
    return appends or not is_file


def ctest_process(start=None):
    """The pid of the nearest ctest above this process (Linux's /proc), or None."""
    pid = os.getppid() if start is None else start
    while pid > 1:
        try:
            exe = os.path.basename(undeleted(os.readlink(f"/proc/{pid}/exe")))
            with open(f"/proc/{pid}/stat", encoding="utf-8") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            return None
        if exe == "ctest" or exe.startswith("ctest."):
            return pid
        pid = parent
    return None


def tell_ctest(line):
    """Writes the line on the standard output of the ctest that runs this test, where it shows
    after the last test's line (CTest shows a passing test's own output only with -V). Nothing
    where that cannot be done (no /proc, no ctest above, see may_write). Whether it wrote."""
    pid = ctest_process()
    if pid is None:
        return False
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            args = [a.decode("utf-8", "replace") for a in f.read().split(b"\0")]
        target = f"/proc/{pid}/fd/1"
        is_file = stat.S_ISREG(os.stat(target).st_mode)
        with open(f"/proc/{pid}/fdinfo/1", encoding="utf-8") as f:
            flags = re.search(r"^flags:\s*([0-7]+)", f.read(), re.M)
        appends = bool(flags and int(flags.group(1), 8) & os.O_APPEND)
        if not may_write(args[1:], is_file, appends):
            return False
        with open(target, "a", encoding="utf-8") as out:
            out.write(line + "\n")
        return True
    except OSError:
        return False


def summarise(build_dir=None, log=None, to_ctest=False):
    """Prints the line for the run recorded in `log`; or, run by ctest, for that ctest's run (the
    log it writes, and its checkpoint; else the build folder's newest log of a run going on, never
    an earlier run's); or else for the build folder's newest record. With `to_ctest`, on the
    running ctest's output too. The exit status: 0, or 2 without a record to read."""
    ended, pid = (), None
    if log is None:
        pid = ctest_process()
        log, folder = running_log(pid, build_dir) if pid else (None, None)
        if log:
            ended = checkpoint(folder)
    if log is None:
        log = find_log(build_dir, going=pid is not None)
        if log and being_written(log):  # a run going on, its log read by name
            ended = checkpoint(os.path.dirname(log))
        if log is None:
            running = f" going on (ctest, pid {pid})" if pid else ""
            print(f"ctest_summary.py: error: no record of a CTest run{running} in "
                  f"{os.path.join(build_dir, 'Testing', 'Temporary')}", file=sys.stderr)
            return 2
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read().replace("\0", "")  # what another ctest's log cut out reads as NULs
    except OSError as e:
        print(f"ctest_summary.py: error: cannot read {log}: {e.strerror}", file=sys.stderr)
        return 2
    line = summary_line(parse(text), build_dir, ended)
    print(line, flush=True)
    if to_ctest:
        tell_ctest(line)
    return 0


# --- selftest ------------------------------------------------------------------------------------

def made_up_entry(k, n, name, output, result, command='"/bin/true"', before=""):
    """One entry as CTest 3.25 writes it to LastTest.log."""
    started = "" if command == '""' else "Dec 02 15:39 UTC"
    body = "".join(line + "\n" for line in output)
    return (f"{before}{k}/{n} Testing: {name}\n{k}/{n} Test: {name}\nCommand: {command}\n"
            f"Directory: /b\n\"{name}\" start time: {started}\nOutput:\n{SEPARATOR}\n{body}"
            f"<end of output>\nTest time =   0.05 sec\n{SEPARATOR}\n{result}\n"
            f"\"{name}\" end time: Dec 02 15:39 UTC\n\"{name}\" time elapsed: 00:00:00\n"
            f"{SEPARATOR}\n\n")


def made_up_log(n=13, cut=False):
    """A log of a run of n tests, its entries out of order as in a parallel run: one of each
    kind, and the summary's own last (cut: its entry still being written)."""
    passed, failed = "Test Passed.", "Test Failed."
    skip_regex = "Test Pass Reason:\nSkip regular expression found in output. Regex=[SKIPPED: ]"
    entries = [
        made_up_entry(5, n, "exercises need a usable CUDA GPU", ["no usable CUDA GPU (none)"],
                      failed),
        made_up_entry(1, n, "a plain pass", ["ok"], passed),
        made_up_entry(2, n, "a pass by its regex", ["COURSE-TESTS-COMPLETE"],
                      "Test Pass Reason:\nRequired regular expression found. Regex=[COURSE]"),
        made_up_entry(3, n, "a GPU test without a GPU", ["SKIPPED: no usable CUDA GPU (no "
                                                         "NVIDIA driver is loaded)"], skip_regex),
        made_up_entry(4, n, "a time bound without a GPU",
                      ["SKIPPED: no usable CUDA GPU: the timing needs one"], passed),
        made_up_entry(6, n, "01 exercise 1/counts", [], passed, '""',
                      "Failed test dependencies: exercises need a usable CUDA GPU\n"),
        made_up_entry(7, n, "01 exercise 1/NOT_BUILT", [], passed, '""',
                      "Unable to find executable: exercise01_1_NOT_BUILT\n"),
        made_up_entry(8, n, "01 exercise 1/its time", ["time_answer.py: not built yet: "
                                                       "build/default/tests/solution01_1: run x"],
                      failed),
        made_up_entry(9, n, "a check that failed", ["FAILED:"],
                      "Test Fail Reason:\nRequired regular expression not found. Regex=[x\n]"),
        made_up_entry(10, n, "a sanitizer run without a GPU",
                      ["lesson01: no usable CUDA GPU: the CPU part runs, then exit 77"],
                      "Test Pass Reason:\nSkip regular expression found in output. "
                      "Regex=[no usable CUDA GPU]"),
        made_up_entry(11, n, "a skip of another kind", ["SKIPPED: compute-sanitizer not found"],
                      skip_regex),
        made_up_entry(13, n, "the summary's selftest", ["ctest_summary.py selftest: ok"], passed,
                      '"/usr/bin/python3" "/r/scripts/ctest_summary.py" "selftest"'),
    ]
    text = "Start testing: Dec 02 15:39 UTC\n" + SEPARATOR + "\n" + "".join(entries)
    own = made_up_entry(12, n, "the summary", ["summary of ..."], passed,
                        '"/usr/bin/python3" "/r/scripts/ctest_summary.py" "--build-dir" "/b" '
                        '"--to-ctest"')
    if cut:
        return text + own[:own.index("<end of output>")]
    return text + own + "End testing: Dec 02 15:40 UTC\n"


WANT_FULL = ("summary of this run's 12 tests: 3 passed, 3 failed (1: not built yet), 4 skipped "
             "(3: no usable CUDA GPU, 1: compute-sanitizer not found), 2 not run (1: a test they "
             "need did not pass: exercises need a usable CUDA GPU, 1: not built); CTest's "
             "percentage counts a skipped test as passed")


def selftest_made_up():
    """The made-up logs' lines; the problems, one line each."""
    import tempfile
    problems = []

    def expect(what, got, want):
        if got != want:
            problems.append(f"{what}: expected\n    {want!r}\n  got\n    {got!r}")

    for cut in (True, False):
        expect(f"a run of 13 (the summary's entry {'being written' if cut else 'done'})",
               summary_line(parse(made_up_log(cut=cut))), WANT_FULL)
    # A filtered run (-R): its own tests only (their entries keep the build's k/N).
    kept = [e for e in made_up_log().split("\n\n") if re.search(r"^(1|2|3)/13 Testing", e, re.M)]
    expect("a run of 3 of the 13 tests", summary_line(parse("\n\n".join(kept) + "\n\n")),
           "summary of this run's 3 tests: 2 passed, 0 failed, 1 skipped (1: no usable CUDA GPU), "
           "0 not run; CTest's percentage counts a skipped test as passed")
    # The same test twice (--repeat until-pass): its last entry counts.
    twice = (made_up_entry(1, 1, "flaky", [], "Test Failed.")
             + made_up_entry(1, 1, "flaky", [], "Test Passed."))
    expect("a test run twice", summary_line(parse(twice)),
           "summary of this run's 1 test: 1 passed, 0 failed, 0 skipped, 0 not run")
    # Output that looks like the log's own lines does not end the entry early.
    tricky = made_up_entry(1, 1, "tricky", ["<end of output>", "Test Passed.", SEPARATOR],
                           "Test Failed.")
    expect("an output holding the log's words", summary_line(parse(tricky)),
           "summary of this run's 1 test: 0 passed, 1 failed, 0 skipped, 0 not run")
    # Not built: an exercise's tests name its target; any other test, the whole build.
    gone = made_up_entry(1, 3, "01 exercise 1/its time", ["time_answer.py: not built yet: x"],
                         "Test Failed.")
    stand_in = made_up_entry(2, 3, "exercise02_3_NOT_BUILT-d921937", [], "Test Passed.", '""',
                             "Unable to find executable: exercise02_3_NOT_BUILT-d921937\n")
    lesson = made_up_entry(3, 3, "test_lesson01_NOT_BUILT-d921937", [], "Test Passed.", '""',
                           "Unable to find executable: test_lesson01_NOT_BUILT-d921937\n")
    with tempfile.TemporaryDirectory() as build:
        open(os.path.join(build, "CMakeCache.txt"), "w").close()
        for text, want in ((gone + stand_in, f"cmake --build {build} --target ex01.1 ex02.3"),
                           (gone + lesson, f"cmake --build {build}")):
            got = summary_line(parse(text), build)
            expect("the command that builds what was not built", got[got.find("; build first:"):],
                   f"; build first: {want}")
    # Tests CTest's checkpoint says have ended, whose entries the log lacks, are said to be lost.
    expect("two tests ended without an entry", summary_line(parse(twice), ended={1, 4, 5}),
           "summary of this run's 3 tests: 1 passed, 0 failed, 0 skipped, 0 not run; 2 more "
           "ended whose results are not in CTest's log (another ctest in this build folder wrote "
           "its own log over it)")
    # A skip regex of alternatives: what it matched names the reason.
    either = made_up_entry(1, 1, "07/lesson07 --processes",
                           ["lesson07: 1 GPU found; the versions that need 2 were skipped"],
                           "Test Pass Reason:\nSkip regular expression found in output. Regex=[no "
                           "usable CUDA GPU|the versions that need 2 were skipped]")
    expect("a skip regex of alternatives", summary_line(parse(either)),
           "summary of this run's 1 test: 0 passed, 0 failed, 1 skipped (1: the versions that need "
           "2 were skipped), 0 not run; CTest's percentage counts a skipped test as passed")
    def base(path):
        return path and os.path.basename(path)

    # The log of the run: the newest LastTest*.log or .tmp (CTest 3.2x) or .tmp<5 hex digits>
    # (CTest 4.x), never LastTestsFailed.log; a run going on, never an earlier run's.
    for going in ("LastTest_20261202-1500.log.tmp", "LastTest.log.tmp8afb9",
                  "LastTest_20261202-1500.log.tmp3d03a"):
        with tempfile.TemporaryDirectory() as build:
            folder = os.path.join(build, "Testing", "Temporary")
            os.makedirs(folder)
            for k, name in enumerate(("LastTest.log", "LastTestsFailed.log",
                                      "LastTestsDisabled.log", going, "CTestCostData.txt",
                                      "LastTestsFailed.log.tmp1a2b3")):
                with open(os.path.join(folder, name), "w", encoding="utf-8") as f:
                    f.write("x")
                os.utime(os.path.join(folder, name), (1000 + k, 1000 + k))
            expect(f"the log found ({going})", base(find_log(build)), going)
            expect(f"the log of a run going on ({going})",
                   base(find_log(build, going=True)), going)
            os.remove(os.path.join(folder, going))
            expect("the log found after the run", base(find_log(build)), "LastTest.log")
            expect("no log of a run going on after the run", find_log(build, going=True), None)
    problems += selftest_proc()
    expect("an empty log", summary_line(parse("")),
           "summary of this run's 0 tests: 0 passed, 0 failed, 0 skipped, 0 not run")
    # The line goes on CTest's output unless CTest shows the output itself or is quiet, or it is
    # a file CTest does not append to.
    for args, is_file, appends, want in ((["--preset", "default"], False, False, True),
                                         (["-V"], False, False, False),
                                         (["-Q"], False, False, False),
                                         ([], True, False, False), ([], True, True, True)):
        expect(f"may_write({args}, file={is_file}, append={appends})",
               may_write(args, is_file, appends), want)
    return problems


def selftest_proc():
    """Linux's /proc read: the log found among a process's open files (its CTest 3.2x and 4.x
    names, removed), the nearest ctest above a process (started by a Python wrapper, as the
    PyPI package's bin/ctest may, its file removed). The problems; none without /proc."""
    import shutil
    import subprocess
    import tempfile
    if not os.path.isdir(f"/proc/{os.getpid()}/fd") or not os.path.exists("/bin/sh"):
        return []
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("LastTest.log.tmp", "LastTest.log.tmp94c8a", "LastTest_20261203-1250.log"
                     ".tmpaf794"):
            path = os.path.join(tmp, name)
            with open(path, "w", encoding="utf-8") as f:
                f.write("1/1 Testing: x\n")
                f.flush()
                for removed in (False, True):
                    if removed:
                        os.remove(path)
                    # (Run by ctest, this process has that ctest's log open too.)
                    found = list(open_logs(os.getpid()))
                    mine = (f"/proc/{os.getpid()}/fd/{f.fileno()}", tmp)
                    text = open(mine[0], encoding="utf-8").read() if mine in found else None
                    if text != "1/1 Testing: x\n":
                        problems.append(f"the open log {name}{' (removed)' if removed else ''} "
                                        f"not found: {found}, {text!r}")
        # Two logs open (a ctest started by another's test): the one in the build folder named,
        # else the one opened last.
        build = os.path.join(tmp, "build")
        folder = os.path.join(build, "Testing", "Temporary")
        os.makedirs(folder)
        with open(os.path.join(folder, "LastTest.log.tmp1a2b3"), "w", encoding="utf-8") as mine, \
                open(os.path.join(tmp, "LastTest.log.tmp"), "w", encoding="utf-8") as last:
            for build_dir, want, whose in ((build, (mine, folder), "the build folder's"),
                                           (None, (last, tmp), "the one opened last"),
                                           (tmp, (last, tmp), "the one opened last")):
                got = running_log(os.getpid(), build_dir)
                want = (f"/proc/{os.getpid()}/fd/{want[0].fileno()}", want[1])
                if got != want:
                    problems.append(f"of two logs open, {whose} (build folder {build_dir}): "
                                    f"expected {want}, got {got}")
        fake = os.path.join(tmp, "ctest")
        shutil.copy("/bin/sh", fake)
        # Run by a ctest ("ctest", a copy of sh) without a log open, the summary reads the build
        # folder's log of a run going on, never the last run's.
        script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                              "ctest_summary.py")
        folder = os.path.join(tmp, "Testing", "Temporary")
        os.makedirs(folder)
        with open(os.path.join(folder, "LastTest.log"), "w", encoding="utf-8") as f:
            f.write(made_up_entry(1, 1, "the last run's", [], "Test Failed."))
        for going, want in (("", "no record of a CTest run going on"),
                            ("LastTest.log.tmp8afb9", "summary of this run's 1 test: 1 passed")):
            if going:
                with open(os.path.join(folder, going), "w", encoding="utf-8") as f:
                    f.write(made_up_entry(1, 1, "this run's", [], "Test Passed."))
            done = subprocess.run([fake, "-c", '"$@"; :', "sh", sys.executable, script,
                                   "--build-dir", tmp], capture_output=True, text=True)
            if want not in done.stdout + done.stderr:
                problems.append(f"run by a ctest without its log open, the logs LastTest.log "
                                f"{going}: expected {want!r}, got {done.stdout}{done.stderr}")
        # A Python wrapper starts "ctest", which starts a shell, which starts a test (sleep): the
        # walk up from the test passes the shell, stops at "ctest".
        wrapper = subprocess.Popen([sys.executable, "-c", "import subprocess, sys; "
                                    "sys.exit(subprocess.call(sys.argv[1:], close_fds=False))",
                                    fake, "-c", "/bin/sh -c 'sleep 60 & echo $PPID $!; wait'; :"],
                                   stdout=subprocess.PIPE, text=True)
        try:
            ctest, test = (int(w) for w in wrapper.stdout.readline().split())
            try:
                for removed in (False, True):
                    if removed:
                        os.remove(fake)
                    if ctest_process(test) != ctest:
                        problems.append(f"the ctest above a test, started by a Python wrapper"
                                        f"{' (its file removed)' if removed else ''}: expected "
                                        f"{ctest}, got {ctest_process(test)}")
            finally:
                try:
                    os.kill(test, 15)
                except ProcessLookupError:
                    pass
        finally:
            wrapper.stdout.close()
            wrapper.wait()
    return problems


def selftest_ctest():
    """A real CTest run of a made-up project, the summary its fixture's cleanup test, whole and
    filtered: the line on CTest's output, with the counts of what ran. None when there is no
    cmake or ctest here; else the problems."""
    import shutil
    import subprocess
    import tempfile
    cmake, ctest = shutil.which("cmake"), shutil.which("ctest")
    if not cmake or not ctest:
        return None
    script = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                          "ctest_summary.py")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        source, build = os.path.join(tmp, "src"), os.path.join(tmp, "build")
        os.makedirs(source)
        tests = [("pass", "echo ok", ""),
                 ("fail", "echo wrong; exit 1", ""),
                 ("skip by exit", "echo 'SKIPPED: no usable CUDA GPU (none)'; exit 77",
                  "SKIP_RETURN_CODE 77"),
                 ("skip by regex", "echo 'lesson01: no usable CUDA GPU: the CPU part runs'; "
                  "exit 77", "SKIP_RETURN_CODE 77 SKIP_REGULAR_EXPRESSION [[no usable CUDA GPU]]"),
                 ("gpu check", "exit 1", "FIXTURES_SETUP gpu"),
                 ("needs the gpu check", "echo never", "FIXTURES_REQUIRED [[gpu;summary]]"),
                 ("not built yet", "echo 'time_answer.py: not built yet: x: run y' >&2; exit 3",
                  ""),
                 # Another ctest in the same build folder, after two tests have ended: it writes a
                 # log of its own over the name of the running one's, which the summary reads
                 # through the running ctest's open file, whole.
                 ("lists the tests", f"ctest -N --test-dir '{build}' > /dev/null",
                  "DEPENDS [[pass;fail]]")]
        lists = ["cmake_minimum_required(VERSION 3.20)", "project(summary_selftest NONE)",
                 "enable_testing()"]
        for name, command, properties in tests:
            lists.append(f"add_test(NAME [[{name}]] COMMAND sh -c [[{command}]])")
            if "FIXTURES_REQUIRED" not in properties:
                properties += " FIXTURES_REQUIRED summary"
            lists.append(f"set_tests_properties([[{name}]] PROPERTIES {properties})")
        lists.append("add_test(NAME missing COMMAND no-such-program-here)")
        lists.append("set_tests_properties(missing PROPERTIES FIXTURES_REQUIRED summary)")
        lists.append(f"add_test(NAME summary COMMAND [[{sys.executable}]] [[{script}]] "
                     f"--build-dir [[{build}]] --to-ctest)")
        lists.append("set_tests_properties(summary PROPERTIES FIXTURES_CLEANUP summary)")
        with open(os.path.join(source, "CMakeLists.txt"), "w", encoding="utf-8") as f:
            f.write("\n".join(lists) + "\n")
        done = subprocess.run([cmake, "-S", source, "-B", build], capture_output=True, text=True)
        if done.returncode != 0:
            return [f"the made-up project did not configure: {done.stdout}{done.stderr}"[-800:]]
        # ctest itself, or started by a Python wrapper that waits for it (as the PyPI package's
        # bin/ctest may; CMake 4.4's execs it instead, which is ctest itself).
        itself = []
        wrapped = [sys.executable, "-c", "import subprocess, sys; "
                   "sys.exit(subprocess.call(sys.argv[1:], close_fds=False))"]
        runs = [
            (itself, ["-E", "^lists the tests$"],
             "summary of this run's 8 tests: 1 passed, 3 failed (1: not built yet), 2 skipped "
             "(2: no usable CUDA GPU), 2 not run (1: a test they need did not pass: gpu check, "
             "1: not built); CTest's percentage counts a skipped test as passed; build first: "
             f"cmake --build {build}"),
            (itself, ["-R", "^(pass|skip by exit)$"],
             "summary of this run's 2 tests: 1 passed, 0 failed, 1 skipped (1: no usable CUDA "
             "GPU), 0 not run; CTest's percentage counts a skipped test as passed"),
            (itself, ["-R", "^(pass|fail|lists the tests)$"],
             "summary of this run's 3 tests: 2 passed, 1 failed, 0 skipped, 0 not run"),
            (itself, ["-V", "-R", "^pass$"], None),
            (wrapped, ["-R", "^(pass|fail)$"],
             "summary of this run's 2 tests: 1 passed, 1 failed, 0 skipped, 0 not run"),
        ]
        for start, args, want in runs:
            done = subprocess.run([*start, ctest, "--test-dir", build, "-j", "3", *args],
                                  capture_output=True, text=True)
            if start:
                args = ["(by a Python wrapper)", *args]
            said = [line for line in done.stdout.split("\n") if line.startswith("summary of")]
            if want is None:  # -V: CTest shows the summary's own output; nothing written twice
                if said:
                    problems.append(f"ctest {' '.join(args)}: the line written on CTest's output "
                                    f"as well as shown by -V:\n{done.stdout[-1500:]}")
                if "summary of this run's 1 test: 1 passed" not in done.stdout:
                    problems.append(f"ctest {' '.join(args)}: no summary in its output:\n"
                                    f"{done.stdout[-1500:]}")
                continue
            if said != [want]:
                problems.append(f"ctest {' '.join(args)}: expected the line\n    {want}\n  on "
                                f"CTest's output, got {said}:\n{done.stdout[-2500:]}")
            elif done.stdout.find(want) > done.stdout.find("tests passed"):
                problems.append(f"ctest {' '.join(args)}: the line after CTest's own count")
    return problems


def selftest():
    """The exit status of the selftest: made-up logs, then a real CTest run."""
    problems = selftest_made_up()
    real = selftest_ctest()
    problems += real or []
    for p in problems:
        print(f"ctest_summary.py selftest FAILED: {p}")
    if not problems:
        tail = "" if real is not None else " (no cmake here: the real CTest run not made)"
        print(f"ctest_summary.py selftest: ok{tail}")
    return 1 if problems else 0
