"""An answer to a graded exercise timed against the model answer (scripts/time_answer.py): each
program's [timing] test case run in turns, the fastest of each kept, and the verdict within the
exercise's factor (one past it confirmed by as many turns again)."""

import contextlib
import io
import os
import re
import subprocess
import sys
import tempfile
import time

from course import built, verdicts


def answer_limit(factor, model_seconds):
    """The longest the answer's whole timed run may take, in seconds. Both programs run the same
    harness on the same sizes with the same repetitions, so an answer within the bound takes at
    most about `factor` times the model's whole run; twice that, and never under 30 s, leaves
    room for noise and a slow start. Past it, the answer is stopped and scores as too slow."""
    return max(30.0, 2.0 * factor * model_seconds)


def one_run(program, limit=None):
    """(ms, None, seconds) or (None, why, seconds); why is "SKIPPED" without a GPU and "LIMIT"
    when the run was stopped at `limit` seconds. Each run gets a key of its own (course.verdicts):
    only the lines that carry it are read."""
    key = verdicts.new_key()
    start = time.monotonic()
    try:
        done = subprocess.run([program, "--needs-gpu", "[timing]"], capture_output=True,
                              text=True, env=verdicts.keyed_env(os.environ, key), timeout=limit)
    except subprocess.TimeoutExpired:
        return None, "LIMIT", time.monotonic() - start
    seconds = time.monotonic() - start
    ms, why = read_run(done, key)
    return ms, why, seconds


def read_run(done, key):
    """(ms, None) or (None, why), or (None, "SKIPPED"), from a finished run given `key`: its exit
    status, its keyed verdicts and its one keyed COURSE-TIME line."""
    found = verdicts.read(done.stdout + done.stderr, key)
    passed, skipped, why = verdicts.outcome(found)
    if skipped or (done.returncode == 77 and not why):
        return None, "SKIPPED"
    times = found["COURSE-TIME"]
    if done.returncode != 0 or not passed:
        return None, why or (f"exit status {done.returncode}" if done.returncode else
                             "it ended without the harness's verdict")
    words = times[0].split() if len(times) == 1 else []
    if len(words) != 2 or words[1] != "ms":
        return None, f"the harness reported {len(times)} times, not one"
    try:
        return float(words[0]), None
    except ValueError:
        return None, f"the harness's time is not a number: {times[0]!r}"


def verdict(name, answer_ms, model_ms, factor):
    """(passed, the line that says so)."""
    ratio = answer_ms / model_ms if model_ms > 0 else float("inf")
    if ratio <= factor:
        return True, (f"{name}: {answer_ms:.4f} ms, {ratio:.2f} times the model answer's "
                      f"{model_ms:.4f} ms: within the bound of {factor:g} times")
    return False, (f"{name}: {answer_ms:.4f} ms, more than {factor:g} times the model answer's "
                   f"{model_ms:.4f} ms ({ratio:.1f} times): the technique the exercise asks for "
                   "would not take so long")


def stopped(name, limit, model_seconds, factor):
    """The line for an answer stopped at its limit."""
    return (f"{name}: its timed run did not end within {limit:.0f} s, more than {factor:g} times "
            f"the model answer's whole run ({model_seconds:.1f} s), and was stopped: the "
            "technique the exercise asks for would not take so long")


# What the fake test programs of selftest() print: the keyed lines of a run that passed.
PRELUDE = "import os\nk = os.environ['COURSE_RESULT_KEY']\n"
PASSED = "print('COURSE-VERDICT', k, '{\"check\": \"tests\", \"pass\": true}')\n"


def selftest():
    ok, line = verdict("x", 2.0, 1.0, 3)
    assert ok and "within the bound of 3 times" in line, line
    ok, line = verdict("x", 3.5, 1.0, 3)
    assert not ok and "more than 3 times the model answer's" in line, line
    ok, _ = verdict("x", 1.0, 0.0, 3)
    assert not ok
    assert answer_limit(3, 2.0) == 30.0 and answer_limit(3, 10.0) == 60.0
    # The stopped line must match what CMake's "expect: slow" tests look for.
    assert re.search(r"more than [0-9.]+ times the model answer's", stopped("x", 60, 10, 3))
    # A run past its limit is stopped, and says so; a run within it is read.
    with tempfile.TemporaryDirectory() as folder:
        sleeper = os.path.join(folder, "sleeper")
        with open(sleeper, "w") as f:
            f.write(f"#!{sys.executable}\nimport time\ntime.sleep(5)\n")
        os.chmod(sleeper, 0o755)
        ms, why, seconds = one_run(sleeper, limit=0.5)
        assert ms is None and why == "LIMIT" and seconds < 4, (why, seconds)
        quick = os.path.join(folder, "quick")
        with open(quick, "w") as f:
            f.write(f"#!{sys.executable}\n{PRELUDE}print('COURSE-TIME', k, '2.5 ms')\n"
                    f"{PASSED}")
        os.chmod(quick, 0o755)
        ms, why, seconds = one_run(quick, limit=30)
        assert ms == 2.5 and why is None, (ms, why)
        # A verdict past the bound is confirmed by more turns: an answer slowed in its first turns
        # only passes, one slow in every turn fails, and a fast one is not run again.
        for times, passes, runs in (([9, 9, 1, 9], True, 4), ([9] * 4, False, 4),
                                    ([1, 1, 9, 9], True, 2)):
            script = os.path.join(folder, f"answer_{len(os.listdir(folder))}")
            count = script + ".count"
            with open(script, "w") as f:
                f.write(f"#!{sys.executable}\nimport os\nc = {count!r}\n"
                        "n = int(open(c).read()) if os.path.exists(c) else 0\n"
                        "open(c, 'w').write(str(n + 1))\n"
                        f"{PRELUDE}print('COURSE-TIME', k, '%d ms' % {times}[n])\n"
                        f"{PASSED}")
            os.chmod(script, 0o755)
            with contextlib.redirect_stdout(io.StringIO()) as said:
                status = time_answer(script, quick, 3, "x", 2)
            assert (status == 0) == passes and int(open(count).read()) == runs, (times, status)
            assert ("best of 4 turns" in said.getvalue()) == (runs == 4), said.getvalue()
            assert ("x: past the bound after 2 turns; 2 more before the verdict\n"
                    in said.getvalue()) == (runs == 4), said.getvalue()
        # Lines without the run's key are not the harness's: a time printed by the answer, a
        # second time, a verdict with a key of its own, exit 0 without a verdict.
        for body, why in (("print('COURSE-TIME: 0.1 ms')\n" + PASSED, "reported 0 times"),
                          ("print('COURSE-TIME', k, '1 ms')\nprint('COURSE-TIME', k, '2 ms')\n"
                           + PASSED, "reported 2 times"),
                          ("print('COURSE-TIME', k, '1 ms')\nprint('COURSE-VERDICT 0123456789abcdef"
                           "0123456789abcdef {\"check\": \"tests\", \"pass\": true}')\n",
                           "without the harness's verdict")):
            forged = os.path.join(folder, f"forged_{len(os.listdir(folder))}")
            with open(forged, "w") as f:
                f.write(f"#!{sys.executable}\n{PRELUDE}{body}")
            os.chmod(forged, 0o755)
            ms, got, _ = one_run(forged, limit=30)
            assert ms is None and why in got, (body, got)
        # A program not built yet: one line naming it and the command that builds it, exit 3,
        # the model not run.
        gone = os.path.join(folder, "tests", "solution01_1")
        with contextlib.redirect_stderr(io.StringIO()) as said:
            status = time_answer(quick, gone, 3, "x", 2)
        line = said.getvalue()
        assert status == built.NOT_BUILT and line.count("\n") == 1, (status, line)
        assert line.startswith("time_answer.py: not built yet: ") and "solution01_1: run cmake " \
            "--build" in line, line
    problems = built.selftest()
    assert not problems, problems
    print("time_answer.py selftest: ok")
    return 0


def time_answer(answer, model, factor, name, rounds):
    """Runs the model answer's and the answer's [timing] cases in turns, `rounds` times each, and
    prints the verdict. A verdict past the bound is confirmed first: as many turns again, and the
    fastest of all (a burst of work from another program on the machine can slow every run of
    the first turns); a run stopped at its limit is not. The exit status (see time_answer.py's
    help): NOT_BUILT, after one line, when a program is not built yet."""
    gone = built.missing_line("time_answer.py", [answer, model])
    if gone:
        print(gone, file=sys.stderr)
        verdicts.say("time", False, gone)
        return built.NOT_BUILT
    best = {"answer": None, "model": None}
    model_seconds = None
    confirming = False
    for turn in range(2 * rounds):
        if turn == rounds:
            ok, line = verdict(name, best["answer"], best["model"], factor)
            if ok:
                break
            confirming = True
            print(f"{name}: past the bound after {rounds} turn"
                  f"{'s' if rounds > 1 else ''}; {rounds} more before the verdict", flush=True)
        for who, program in (("model", model), ("answer", answer)):
            limit = None if who == "model" else answer_limit(factor, model_seconds)
            ms, why, seconds = one_run(program, limit)
            if who == "model":
                model_seconds = seconds if model_seconds is None else min(model_seconds, seconds)
            if why == "LIMIT":
                print(stopped(name, limit, model_seconds, factor))
                verdicts.say("time", False, stopped(name, limit, model_seconds, factor))
                return 1
            if why == "SKIPPED":
                print("SKIPPED: no usable CUDA GPU: the timing needs one")
                verdicts.say("time", None, "no usable CUDA GPU", skip=True)
                return 77
            if why is not None:
                print(f"{name}: the {who}'s timed run failed: {why}")
                verdicts.say("time", False, f"the {who}'s timed run failed: {why}")
                return 1
            best[who] = ms if best[who] is None else min(best[who], ms)
    ok, line = verdict(name, best["answer"], best["model"], factor)
    if confirming:
        first = f"the first {rounds} were" if rounds > 1 else "the first was"
        line += f" (best of {2 * rounds} turns; {first} past the bound)"
    print(line)
    verdicts.say("time", ok, line, answer_ms=best["answer"], model_ms=best["model"])
    return 0 if ok else 1
