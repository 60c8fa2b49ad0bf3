#!/usr/bin/env python3
"""Grades a student's copy of exercises/ (any folder on disk) against the course's tests.

    python3 scripts/grade.py /path/to/student/exercises [--build-dir DIR] [--junit FILE]

It builds the graded exercises from the student's headers, with the tests of this repository
(so a student's copy cannot change what grades it), runs every exercise's tests, and prints one
line per exercise: tests passed / total, and points. It also writes JUnit XML (through ctest's
--output-junit) for an autograder or an LMS. An exercise that does not compile fails its own tests
only: the other exercises still build and are graded.

Each exercise is worth POINTS points, in proportion to the tests it passes; the total of an
exercise's tests is counted from the solution's copy of them, which always builds. The tests draw
fresh random inputs on every run and print their seed, so a failure can be repeated with
COURSE_TEST_SEED. Without a GPU the GPU tests are skipped, and a skipped test earns nothing: grade
on a machine with a CUDA GPU. Exit status: 0 when every exercise passes every test, 1 otherwise,
2 for bad arguments or a build that could not be configured.
"""

import argparse
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POINTS = 10
TEST_NAME = re.compile(r"^(\d\d) (exercise|solution) (\d+)/")


def run(command, **kwargs):
    return subprocess.run(command, text=True, capture_output=True, **kwargs)


def exercise_targets(build_dir, kind):
    """The ninja targets of one kind (exercise or solution) in the configured build."""
    listing = run(["cmake", "--build", build_dir, "--target", "help"]).stdout
    return sorted(set(re.findall(rf"^({kind}\d\d_\d+):", listing, re.M)))


def test_names(build_dir, label):
    """The ctest names with a label (after the build wrote the discovered test lists)."""
    listing = run(["ctest", "--test-dir", build_dir, "-N", "-L", label]).stdout
    return [m.group(1) for m in re.finditer(r"Test\s+#\d+: (.+)$", listing, re.M)]


def add_unbuilt_to_junit(junit, failed_to_build, expected_names, build_log):
    """ctest reports nothing for an exercise that did not compile; an autograder must see its
    tests as failed, with the compiler's complaint."""
    if not failed_to_build:
        return
    tree = ET.parse(junit) if os.path.exists(junit) else ET.ElementTree(ET.Element("testsuite"))
    suite = tree.getroot()
    errors = "\n".join(line for line in build_log.splitlines() if "error" in line)[:4000]
    added = 0
    for target in failed_to_build:
        m = re.match(r"exercise(\d\d)_(\d+)", target)
        key = (m.group(1), int(m.group(2)))
        for name in expected_names.get(key, []):
            case = ET.SubElement(suite, "testcase", name=f"{key[0]} exercise {key[1]}/{name}",
                                 classname=f"{key[0]} exercise {key[1]}", time="0")
            ET.SubElement(case, "failure", message="the exercise did not compile").text = errors
            added += 1
    suite.set("tests", str(int(suite.get("tests", "0")) + added))
    suite.set("failures", str(int(suite.get("failures", "0")) + added))
    tree.write(junit, encoding="UTF-8", xml_declaration=True)


def main(argv):
    parser = argparse.ArgumentParser(description="Grade a copy of exercises/.")
    parser.add_argument("exercises", help="the student's exercises folder")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "grade"))
    parser.add_argument("--junit", default=None, help="JUnit XML file (default: in the build dir)")
    args = parser.parse_args(argv[1:])

    exercises = os.path.abspath(args.exercises)
    if not os.path.isdir(exercises):
        print(f"grade.py: error: {args.exercises} is not a folder", file=sys.stderr)
        return 2
    build_dir = os.path.abspath(args.build_dir)
    junit = os.path.abspath(args.junit or os.path.join(build_dir, "grade.xml"))

    configure = ["cmake", "-S", ROOT, "-B", build_dir, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=Release",
                 f"-DCOURSE_EXERCISES_DIR={exercises}"]
    if os.environ.get("CMAKE_PREFIX_PATH"):
        configure.append(f"-DCMAKE_PREFIX_PATH={os.environ['CMAKE_PREFIX_PATH']}")
    done = run(configure)
    if done.returncode != 0:
        print(done.stdout + done.stderr, file=sys.stderr)
        print("grade.py: error: the build could not be configured", file=sys.stderr)
        return 2

    # Build every exercise and solution test program; keep going past the ones that fail.
    targets = exercise_targets(build_dir, "exercise") + exercise_targets(build_dir, "solution")
    build = run(["cmake", "--build", build_dir, "--target", *targets, "--", "-k", "0"])
    failed_to_build = sorted(set(re.findall(r"FAILED: \S*?/?(exercise\d\d_\d+)", build.stdout)))

    # Run the student's tests, with JUnit XML.
    run(["ctest", "--test-dir", build_dir, "-L", "exercise", "--output-junit", junit,
         "--timeout", "900"])

    totals = {}
    expected_names = {}
    for name in test_names(build_dir, "solution"):
        m = TEST_NAME.match(name)
        if m:
            key = (m.group(1), int(m.group(3)))
            totals[key] = totals.get(key, 0) + 1
            expected_names.setdefault(key, []).append(name.split("/", 1)[1])
    add_unbuilt_to_junit(junit, failed_to_build, expected_names, build.stdout)
    passed = {key: 0 for key in totals}
    skipped = {key: 0 for key in totals}
    if os.path.exists(junit):
        for case in ET.parse(junit).getroot().iter("testcase"):
            m = TEST_NAME.match(case.get("name", ""))
            if not m or m.group(2) != "exercise":
                continue
            key = (m.group(1), int(m.group(3)))
            if case.find("skipped") is not None:
                skipped[key] = skipped.get(key, 0) + 1
            elif case.find("failure") is None and case.find("error") is None:
                passed[key] = passed.get(key, 0) + 1

    print(f"{'lesson':<7} {'exercise':<9} {'tests passed':>13} {'points':>7}  note")
    earned = 0.0
    for key in sorted(totals):
        lesson, number = key
        total = totals[key]
        ok = min(passed.get(key, 0), total)
        points = POINTS * ok / total
        earned += points
        note = ""
        if f"exercise{lesson}_{number}" in failed_to_build:
            note = "did not compile (see the build output in " + build_dir + ")"
        elif skipped.get(key):
            note = f"{skipped[key]} skipped: no GPU"
        print(f"{lesson:<7} {number:<9} {f'{ok}/{total}':>13} {points:>7.1f}  {note}")
    print(f"{'total':<17} {'':>13} {earned:>7.1f} of {POINTS * len(totals)}")
    print(f"JUnit XML: {junit}")
    return 0 if totals and earned == POINTS * len(totals) else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
