"""The grader's results channel: the lines a test program, scripts/time_answer.py and
scripts/check_compiled.py print for grade.py, each carrying the run's key.

A run is given a fresh key in its environment (COURSE_RESULT_KEY: 32 hex digits, drawn here for
each run). A test program's main() takes it and wipes it from its environment before any test
runs (common/test_main.cpp), so the answer's code, which runs later, inside the tests, is not
given it. Every line a grader reads is then one of

    COURSE-VERDICT <key> <JSON object>   a check's verdict: "check", and "pass" (true or false) or
                                         "skip" (true), "why", and what else the check adds
    COURSE-TIME <key> <ms> ms            the [timing] case's median (testing.hpp)
    COURSE-SIZES <key> <what> = ...      the sizes a test drew from the seed (testing.hpp)

and a line without the run's key is not the harness's, whoever printed it (an answer that prints a
verdict of its own, say). Human messages are free to change: nothing reads them."""

import json
import os
import secrets

KEY = "COURSE_RESULT_KEY"


def new_key():
    return secrets.token_hex(16)


def keyed_env(env, key, seed=None):
    """A copy of `env` that gives a run `key` (and the tests' seed, when given)."""
    env = dict(env)
    env[KEY] = key
    if seed is not None:
        env["COURSE_TEST_SEED"] = str(seed)
    return env


def read(output, key):
    """What the run's keyed lines say: {"verdicts": [dict], "COURSE-TIME": [text],
    "COURSE-SIZES": [text]}. A line whose key is not `key` is skipped, as is a verdict whose JSON
    is not an object with a "check"."""
    found = {"verdicts": [], "COURSE-TIME": [], "COURSE-SIZES": []}
    for line in output.splitlines():
        kind, _, rest = line.partition(" ")
        if kind not in ("COURSE-VERDICT", "COURSE-TIME", "COURSE-SIZES"):
            continue
        given, _, text = rest.partition(" ")
        if given != key or not key:
            continue
        if kind != "COURSE-VERDICT":
            found[kind].append(text.strip())
            continue
        try:
            verdict = json.loads(text)
        except ValueError:
            continue
        if isinstance(verdict, dict) and isinstance(verdict.get("check"), str):
            found["verdicts"].append(verdict)
    return found


def outcome(found):
    """(passed, skipped, why) from what read() found: passed when a verdict says "pass": true and
    none says false; skipped when one says "skip"; why is the first failed verdict's "why" (or
    the skip's), else ""."""
    verdicts = found["verdicts"]
    failed = [v for v in verdicts if v.get("pass") is False]
    if failed:
        return False, False, str(failed[0].get("why") or f"{failed[0]['check']} failed")
    skipped = [v for v in verdicts if v.get("skip") is True]
    if skipped:
        return False, True, str(skipped[0].get("why") or "skipped")
    return any(v.get("pass") is True for v in verdicts), False, ""


def say(check, passed, why, **extra):
    """Prints this process's own verdict, when its caller gave it a key (the environment's
    COURSE_RESULT_KEY): grade.py reads it. Without a key, prints nothing."""
    key = os.environ.get(KEY, "")
    if not key:
        return
    verdict = {"check": check, "why": why, **extra}
    if passed is not None:  # None: neither (a skip)
        verdict["pass"] = bool(passed)
    print(f"COURSE-VERDICT {key} {json.dumps(verdict)}", flush=True)


def selftest():
    """The reading of keyed lines: the key's own lines only, bad JSON skipped, the outcome."""
    key, other = new_key(), new_key()
    text = "\n".join([
        f"COURSE-SIZES {key} n = 1, 2 (seed 3)",
        f"COURSE-SIZES {other} n = 9",
        "COURSE-TIME: 1.0 ms",
        f"COURSE-TIME {key} 2.5000 ms",
        f"COURSE-VERDICT {other} {{\"check\": \"tests\", \"pass\": false, \"why\": \"x\"}}",
        f"COURSE-VERDICT {key} not json",
        f"COURSE-VERDICT {key} [1]",
        f"COURSE-VERDICT {key} {{\"check\": \"tests\", \"pass\": true, \"seed\": 3}}",
    ])
    found = read(text, key)
    assert found["COURSE-SIZES"] == ["n = 1, 2 (seed 3)"], found
    assert found["COURSE-TIME"] == ["2.5000 ms"], found
    assert outcome(found) == (True, False, ""), outcome(found)
    assert outcome(read(text, other)) == (False, False, "x")
    assert outcome(read(text, "")) == (False, False, "")
    failed = (text + f"\nCOURSE-VERDICT {key} "
              "{\"check\": \"catch2\", \"pass\": false, \"why\": \"y\"}")
    assert outcome(read(failed, key)) == (False, False, "y")
    skipped = f"COURSE-VERDICT {key} {{\"check\": \"gpu\", \"skip\": true, \"why\": \"no GPU\"}}"
    assert outcome(read(skipped, key)) == (False, True, "no GPU")
    print("verdicts selftest: ok")
    return 0
