"""The course's timer against NVBench (scripts/timer_check.py): each lesson run as lessonNN and
as lessonNN_nvbench on the same input, and a table of both times of every version, their ratio and
whether the two clocks agree within NVBench's noise or 5%."""

import json
import os
import subprocess

from course import cli, csvs
from course.paths import ROOT

KEEP = {"--n", "--dist", "--type", "--k", "--reps", "--seed"}  # what sets the input and the size
TOLERANCE = 0.05


def sized_args(args):
    """The arguments that choose the input and its size; experiments and --csv dropped."""
    out, i = [], 0
    while i < len(args):
        if args[i] in KEEP and i + 1 < len(args):
            out += args[i:i + 2]
            i += 2
        else:
            i += 1
    return out + ["--cpu-reps", "1"]


def noise_by_version(json_path):
    """{version: NVBench's relative standard deviation of its cold GPU samples} from its JSON."""
    out = {}
    with open(json_path, encoding="utf-8") as f:
        doc = json.load(f)
    for bench in doc.get("benchmarks", []):
        for state in bench.get("states", []):
            for summary in state.get("summaries", []):
                if summary.get("tag") != "nv/cold/time/gpu/stdev/relative":
                    continue
                for datum in summary.get("data", []):
                    if datum.get("name") == "value":
                        out[bench["name"]] = float(datum["value"])
    return out


def verdicts(course_rows, nvbench_rows, noise):
    """Rows (version, course ms, NVBench ms, ratio, noise, agrees) for every version both timed."""
    theirs = {r["version"]: r for r in nvbench_rows}
    out = []
    for row in course_rows:
        other = theirs.get(row["version"])
        try:
            mine, their = float(row["median_ms"]), float(other["median_ms"])
        except (TypeError, ValueError, KeyError):
            continue
        if mine <= 0 or their <= 0:
            continue
        ratio = mine / their
        spread = noise.get(row["version"], 0.0)
        out.append((row["version"], mine, their, ratio, spread,
                    abs(ratio - 1) <= max(TOLERANCE, spread)))
    return out


def table(lesson_rows):
    lines = ["| lesson | version | course median (ms) | NVBench cold (ms) | course / NVBench | "
             "NVBench noise | agree |", "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for lesson, rows in lesson_rows:
        for version, mine, their, ratio, spread, agrees in rows:
            lines.append(f"| {lesson} | {version} | {mine:.4f} | {their:.4f} | {ratio:.3f} | "
                         f"{100 * spread:.1f}% | {'yes' if agrees else 'no'} |")
    return "\n".join(lines) + "\n"


def run_lesson(meta, bin_dir, out):
    """Runs lessonNN and lessonNN_nvbench; returns their exit statuses."""
    number = meta.number
    _, program, args = meta.compared_run()
    args = sized_args(args)
    statuses = []
    for name, extra in ((program, []),
                        (program + "_nvbench",
                         ["--nvbench", f"--json {os.path.join(out, program + '_nvbench.json')}"])):
        exe = os.path.join(bin_dir, name)
        if not os.path.exists(exe):
            raise cli.Refusal(f"{exe} is not built (lessonNN_nvbench needs "
                              "NVBench: docs/setup.md)")
        csv = os.path.join(out, f"{name}.csv")
        command = [exe] + args + ["--csv", csv] + extra
        print(f"  {number}: {' '.join([name] + args + extra)}", flush=True)
        with open(os.path.join(out, f"{name}.txt"), "w", encoding="utf-8") as log:
            statuses.append(subprocess.run(command, stdout=log, stderr=subprocess.STDOUT).returncode)
    return statuses


def lesson_rows(meta, out):
    program = meta.compared_run()[1]
    # Relative paths are the repository root's, as in compare.py.
    course = csvs.read_csv(os.path.join(ROOT, out, f"{program}.csv"))
    nvbench = csvs.read_csv(os.path.join(ROOT, out, f"{program}_nvbench.csv"))
    noise = noise_by_version(os.path.join(out, f"{program}_nvbench.json"))
    return verdicts(course, nvbench, noise)


def selftest():
    course = [{"version": "v0", "median_ms": "10.0"}, {"version": "v1", "median_ms": "1.00"},
              {"version": "v2", "median_ms": "0.50"}, {"version": "CUB", "median_ms": "0.40"},
              {"version": "v3", "median_ms": "skipped"}]
    nvbench = [{"version": "v0", "median_ms": "10.4"}, {"version": "v1", "median_ms": "1.20"},
               {"version": "v2", "median_ms": "0.60"}, {"version": "CUB", "median_ms": "0.41"}]
    got = {v: agrees for v, _, _, _, _, agrees in verdicts(course, nvbench, {"v2": 0.2})}
    want = {"v0": True, "v1": False, "v2": True, "CUB": True}
    if got != want:
        print(f"timer_check.py selftest: FAILED: {got} != {want}")
        return 1
    if sized_args("--n 2^24 --show-race --reps 20 --csv x.csv".split()) != \
            ["--n", "2^24", "--reps", "20", "--cpu-reps", "1"]:
        print("timer_check.py selftest: FAILED: sized_args")
        return 1
    print("timer_check.py selftest: ok")
    return 0


def check(lessons, build_dir, out=None, table_dir=None):
    """Runs each of `lessons` from `build_dir` into `out` and prints the table, or prints the table
    of a run's files in `table_dir` (one of the two). The exit status (see timer_check.py's
    help)."""
    folder = out or table_dir
    failed = False
    # Bad folders are one line and exit 2 before any work (cli.Refusal): an --out that cannot be
    # written, a --table folder without a lesson's three files.
    if out:
        cli.output_folder(out, "--out")
    else:
        cli.input_folder(table_dir, "--table")
        for meta in lessons:
            program = meta.compared_run()[1]
            for name in (f"{program}.csv", f"{program}_nvbench.csv", f"{program}_nvbench.json"):
                cli.input_file(os.path.join(ROOT, table_dir, name), "--table's")
    if out:
        os.makedirs(folder, exist_ok=True)
        for meta in lessons:
            statuses = run_lesson(meta, os.path.join(build_dir, "bin"), folder)
            if 77 in statuses:
                print("timer_check.py: no usable GPU: nothing to compare")
                return 77
            failed |= any(s != 0 for s in statuses)
    rows = [(m.number, lesson_rows(m, folder)) for m in lessons]
    text = table(rows)
    print(text)
    if out:
        with open(os.path.join(folder, "timer_check.md"), "w", encoding="utf-8") as f:
            f.write(text)
    disagree = [f"{n} {r[0]}" for n, rs in rows for r in rs if not r[5]]
    if disagree:
        print("the clocks disagree (more than NVBench's noise or 5%) on: " + ", ".join(disagree))
    return 1 if failed or disagree else 0
