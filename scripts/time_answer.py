#!/usr/bin/env python3
"""Times an answer to a graded exercise against the model answer, in the same run: each test
program runs its [timing] test case (the graded call at a size where the technique matters,
timed by testing.hpp's report_time), in turns, and the fastest of each one's runs is kept. The
answer passes when its time is at most FACTOR times the model answer's.

    python3 scripts/time_answer.py --answer build/tests/exercise01_1 \\
        --model build/tests/solution01_1 --factor 3 --name "01 exercise 1"
    python3 scripts/time_answer.py selftest

The bound catches an answer that gets the right output without the technique (one thread doing a
block's work, one block the grid's, one lock for a whole table): docs/instructors.md gives each
exercise's factor and why. A slow but correct answer loses these points only.

Exit status: 0 within the bound, 1 past it (or a program failed its [timing] case), 77 when the
programs found no GPU, 2 for bad arguments.
"""

import argparse
import os
import re
import subprocess
import sys

TIME = re.compile(r"^COURSE-TIME: ([0-9.]+) ms", re.M)
COMPLETE = re.compile(r"^COURSE-TESTS-COMPLETE: every check passed, seed [0-9]+", re.M)


def one_run(program):
    """(ms, None) or (None, why), or (None, "SKIPPED")."""
    done = subprocess.run([program, "--needs-gpu", "[timing]"], capture_output=True, text=True,
                          env=os.environ)
    out = done.stdout + done.stderr
    if done.returncode == 77 or "SKIPPED: " in out:
        return None, "SKIPPED"
    m = TIME.search(out)
    if done.returncode != 0 or m is None or not COMPLETE.search(out):
        lines = [line for line in out.splitlines() if line.strip()]
        why = next((line for line in lines if "did not finish" in line or "FAILED" in line),
                   lines[-1] if lines else f"exit status {done.returncode}")
        return None, why.strip()
    return float(m.group(1)), None


def verdict(name, answer_ms, model_ms, factor):
    """(passed, the line that says so)."""
    ratio = answer_ms / model_ms if model_ms > 0 else float("inf")
    if ratio <= factor:
        return True, (f"{name}: {answer_ms:.4f} ms, {ratio:.2f} times the model answer's "
                      f"{model_ms:.4f} ms: within the bound of {factor:g} times")
    return False, (f"{name}: {answer_ms:.4f} ms, more than {factor:g} times the model answer's "
                   f"{model_ms:.4f} ms ({ratio:.1f} times): the technique the exercise asks for "
                   "would not take so long")


def selftest():
    ok, line = verdict("x", 2.0, 1.0, 3)
    assert ok and "within the bound of 3 times" in line, line
    ok, line = verdict("x", 3.5, 1.0, 3)
    assert not ok and "more than 3 times the model answer's" in line, line
    ok, _ = verdict("x", 1.0, 0.0, 3)
    assert not ok
    assert TIME.search("a\nCOURSE-TIME: 1.25 ms\n").group(1) == "1.25"
    print("time_answer.py selftest: ok")
    return 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    parser = argparse.ArgumentParser(description="Time an answer against the model answer.")
    parser.add_argument("--answer", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--factor", type=float, required=True)
    parser.add_argument("--name", default="the answer")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args(argv[1:])
    if args.factor < 1 or args.rounds < 1:
        parser.error("--factor must be at least 1 and --rounds at least 1")
    best = {"answer": None, "model": None}
    for _ in range(args.rounds):
        for who, program in (("model", args.model), ("answer", args.answer)):
            ms, why = one_run(program)
            if why == "SKIPPED":
                print("SKIPPED: no usable CUDA GPU: the timing needs one")
                return 77
            if why is not None:
                print(f"{args.name}: the {who}'s timed run failed: {why}")
                return 1
            best[who] = ms if best[who] is None else min(best[who], ms)
    ok, line = verdict(args.name, best["answer"], best["model"], args.factor)
    print(line)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
