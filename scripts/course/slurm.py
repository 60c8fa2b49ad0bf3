"""A class graded across a Slurm cluster (scripts/grade_slurm.py): one array job, one student per
task, each on a GPU of its own (--gres=gpu:1) with a build folder of its own, then a merge of the
tasks' gradebooks, summaries and results files into the class's, and a rerun of the students whose
task did not finish.

The work folder (on a file system every node sees) holds:
    job.json               the class, the options every task gets, the seed, the students in order
    task.sh                the array job's script: task i grades student i
    farm/<student>/<student> a link to the student's folder, so that task i runs grade.py --class
                           on a class of one and writes that class's gradebook
    tasks/<student>/       what the task's grade.py wrote (--out), and status: its exit status
    builds/<student>/      the task's build folder
    logs/                  Slurm's output of each task
A task that left no status did not finish (its node failed, it ran out of time, it was cancelled):
the merge names it, and `rerun` submits those students again."""

import csv
import json
import math
import os
import re
import secrets
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from course.paths import ROOT

# grade.py's line for each student it graded (or built, with --build-only), at the start of a
# line: not the class's total, "N students graded in X s".
STUDENT_SECONDS = re.compile(r"^(?:graded|built) in (\d+) s$", re.M)


def students_of(class_dir):
    return sorted(d for d in os.listdir(class_dir)
                  if os.path.isdir(os.path.join(class_dir, d)) and not d.startswith("."))


def task_script(work):
    """The array job's script: the student of SLURM_ARRAY_TASK_ID, graded as a class of one."""
    python = shlex.quote(sys.executable)
    return f"""#!/bin/bash
# Written by scripts/grade_slurm.py: task i of the array grades student i of job.json.
set -u
work={shlex.quote(os.path.abspath(work))}
read_job() {{  # read_job <python expression of job, the task's index i>
  {python} -c "import json, sys; job = json.load(open(sys.argv[1])); i = int(sys.argv[2]); $1" \\
    "$work/job.json" "$SLURM_ARRAY_TASK_ID"
}}
student=$(read_job 'print(job["students"][i])')
mapfile -t options < <(read_job 'print("\\n".join(job["options"]))')
out="$work/tasks/$student"
rm -rf "$out"
mkdir -p "$out"
{python} {shlex.quote(os.path.join(ROOT, "scripts", "grade.py"))} --class "$work/farm/$student" \\
  --out "$out" --build-dir "$work/builds/$student" "${{options[@]}}" > "$out/output.txt" 2>&1
echo $? > "$out/status"
"""


def prepare(args):
    """Writes the work folder for a new job; returns job.json's contents."""
    class_dir = os.path.abspath(args.class_dir)
    work = os.path.abspath(args.work)
    students = students_of(class_dir)
    if not students:
        raise ValueError(f"{args.class_dir} has no student folders")
    seed = args.seed if args.seed is not None else secrets.randbits(63)
    cpus = CPUS_PER_TASK if args.cpus_per_task is None else args.cpus_per_task
    if cpus < 1:
        raise ValueError(f"--cpus-per-task takes a whole number from 1 (got {cpus})")
    options = ["--seed", str(seed), "--hide", class_dir, "--jobs", str(cpus)]
    if args.build_only:
        options.append("--build-only")
    if not args.sandbox:
        options.append("--no-sandbox")
    if args.exercises:
        options += ["--exercises", args.exercises]
    if args.assignment:
        options += ["--assignment", args.assignment]
    if args.format:
        options += ["--format", args.format]
    for sub in ("farm", "tasks", "builds", "logs"):
        os.makedirs(os.path.join(work, sub), exist_ok=True)
    for student in students:
        folder = os.path.join(work, "farm", student)
        os.makedirs(folder, exist_ok=True)
        link = os.path.join(folder, student)
        if not os.path.islink(link):
            os.symlink(os.path.join(class_dir, student), link)
    # What sbatch is asked for, kept for a rerun (which may change it on its own command line).
    asked = {"gpus_per_task": 1 if args.gpus_per_task is None else args.gpus_per_task,
             "cpus_per_task": cpus,
             **{o: getattr(args, o, None) for o in ("partition", "account", "time")}}
    job = {"class": class_dir, "students": students, "seed": seed, "options": options,
           "build_only": bool(args.build_only), "sbatch": asked, "jobs": []}
    save(work, job)
    with open(os.path.join(work, "task.sh"), "w", encoding="utf-8") as f:
        f.write(task_script(work))
    os.chmod(os.path.join(work, "task.sh"), 0o755)
    return job


def asked_of(job, args):
    """What to ask sbatch for: what the submit asked for (job.json), each given again on this
    command line replacing it."""
    asked = dict(job.get("sbatch", {"gpus_per_task": 1}))  # (a job from before it was kept)
    asked.setdefault("cpus_per_task", CPUS_PER_TASK)
    for option in ("gpus_per_task", "cpus_per_task", "partition", "account", "time"):
        if getattr(args, option, None) is not None:
            asked[option] = getattr(args, option)
    if asked["cpus_per_task"] < 1:
        raise ValueError(f"--cpus-per-task takes a whole number from 1 (got "
                         f"{asked['cpus_per_task']})")
    return asked


CPUS_PER_TASK = 8  # grade.py's default --jobs, on a machine of 8 or more CPUs


def sbatch(work, indices, args, job):
    """Submits the array job of the students `indices`; returns the job's id (sbatch's, or the
    COURSE_SBATCH program's, which the selftest sets), and keeps it in job.json. A build-only job
    asks for no GPU. Each task asks for the CPUs its grade.py runs tests on (--jobs)."""
    command = [os.environ.get("COURSE_SBATCH", "sbatch"), "--parsable",
               "--array=" + ",".join(str(i) for i in indices), "--job-name=grade",
               "--output=" + os.path.join(work, "logs", "task_%A_%a.txt")]
    asked = asked_of(job, args)
    if not job["build_only"] and asked.get("gpus_per_task"):
        command.append(f"--gres=gpu:{asked['gpus_per_task']}")
    command.append(f"--cpus-per-task={asked['cpus_per_task']}")
    options = job["options"]
    if "--jobs" in options:  # the tasks' grade.py runs as many tests at once as it has CPUs
        options[options.index("--jobs") + 1] = str(asked["cpus_per_task"])
    for option in ("partition", "account", "time"):
        if asked.get(option):
            command.append(f"--{option}={asked[option]}")
    command.append(os.path.join(work, "task.sh"))
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"sbatch failed: {(done.stderr or done.stdout).strip()[:300]}")
    job_id = done.stdout.strip().split(";")[0]
    job.setdefault("jobs", []).append(job_id)
    save(work, job)
    return job_id


def in_queue(job, env=None):
    """The indices of the students whose task is still pending or running in one of the job's
    Slurm jobs (squeue, or the COURSE_SQUEUE program, which the selftest sets): a rerun must not
    submit them again, since the new task would empty the folder the running one writes in.
    RuntimeError when squeue fails for another reason than jobs Slurm has already forgotten.
    `env`: squeue's environment (the test cluster's SLURM_CONF), this process's by default."""
    if not job.get("jobs"):
        return set()
    command = [os.environ.get("COURSE_SQUEUE", "squeue"), "--noheader", "--array",
               "--states=PENDING,RUNNING,CONFIGURING,SUSPENDED,REQUEUED",
               "--format=%K", "--jobs=" + ",".join(job["jobs"])]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=120, env=env)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeError(f"squeue could not be run: {error}") from None
    if done.returncode != 0:
        if "Invalid job id" in done.stderr:  # every one of them finished long ago
            return set()
        raise RuntimeError(f"squeue failed: {(done.stderr or done.stdout).strip()[:300]}")
    indices = set()
    for line in done.stdout.split():
        if re.fullmatch(r"\d+", line):
            indices.add(int(line))
        elif re.fullmatch(r"\[?[\d,\-%]+\]?", line):  # a range still pending, [3-5,7%2]
            for part in line.strip("[]").split("%")[0].split(","):
                low, _, high = part.partition("-")
                indices.update(range(int(low), int(high or low) + 1))
    return indices


def unfinished(work, job):
    """The indices of the students whose task left no status."""
    return [i for i, s in enumerate(job["students"])
            if not os.path.isfile(os.path.join(work, "tasks", s, "status"))]


def save(work, job):
    with open(os.path.join(work, "job.json"), "w", encoding="utf-8") as f:
        json.dump(job, f, indent=2)
        f.write("\n")


def load(work):
    with open(os.path.join(work, "job.json"), encoding="utf-8") as f:
        return json.load(f)


def merge(work, out):
    """Merges the tasks' files into `out`: gradebook.csv (or build_report.txt for --build-only),
    summary.txt, and each results folder; returns the students whose task did not finish."""
    job = load(work)
    os.makedirs(out, exist_ok=True)
    missing = [job["students"][i] for i in unfinished(work, job)]
    header, rows, summary = None, [], []
    for student in job["students"]:
        task = os.path.join(work, "tasks", student)
        if student in missing:
            summary.append(f"{student}: not graded: its task did not finish (its node failed, "
                           f"it ran out of time or was cancelled; grade_slurm.py rerun "
                           f"--work {work})")
            continue
        name = "build_report.txt" if job["build_only"] else "summary.txt"
        try:
            with open(os.path.join(task, name), encoding="utf-8") as f:
                summary += f.read().splitlines()
        except OSError:
            with open(os.path.join(task, "status"), encoding="utf-8") as f:
                status = f.read().strip()
            summary.append(f"{student}: its task ended with status {status} and wrote no "
                           f"{name} (see {os.path.join(task, 'output.txt')})")
        book = os.path.join(task, "gradebook.csv")
        if os.path.isfile(book):
            with open(book, newline="", encoding="utf-8") as f:
                table = list(csv.reader(f))
            header = header or table[0]
            rows += table[1:]
        for entry in os.listdir(task):
            inner = os.path.join(task, entry)
            if os.path.isdir(inner):  # junit/, gradescope/ ...: one file per student
                os.makedirs(os.path.join(out, entry), exist_ok=True)
                for name_ in os.listdir(inner):
                    shutil.copy2(os.path.join(inner, name_), os.path.join(out, entry, name_))
    if header:
        with open(os.path.join(out, "gradebook.csv"), "w", newline="", encoding="utf-8") as f:
            writer = csv.writer(f, lineterminator="\n")
            writer.writerow(header)
            writer.writerows(rows)
    name = "build_report.txt" if job["build_only"] else "summary.txt"
    with open(os.path.join(out, name), "w", encoding="utf-8") as f:
        f.write("\n".join(summary) + "\n")
    return missing


def wait(work, job, indices, timeout):
    """Waits until every task of `indices` has left its status, or `timeout` seconds."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if not [i for i in indices if i in unfinished(work, job)]:
            return True
        time.sleep(2)
    return False


def fake_sbatch(folder):
    """A stand-in for sbatch, for the selftest: runs the array's tasks one after another, except
    those listed in COURSE_FAKE_FAIL (a node that failed), and prints a job id."""
    path = os.path.join(folder, "sbatch")
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"""#!{sys.executable}
import os, subprocess, sys
array = [a for a in sys.argv if a.startswith("--array=")][0].split("=", 1)[1]
failing = set(os.environ.get("COURSE_FAKE_FAIL", "").split(","))
with open(os.path.join(os.path.dirname(sys.argv[0]), "sbatch_calls.txt"), "a") as f:
    f.write(" ".join(sys.argv[1:-1]) + "\\n")
for index in array.split(","):
    if index not in failing:
        subprocess.run([sys.argv[-1]], env=dict(os.environ, SLURM_ARRAY_TASK_ID=index))
print("4242")
""")
    os.chmod(path, 0o755)
    return path


def selftest():
    """The job's plan without a cluster: a stand-in sbatch grades a class of two in build-only
    mode (one exercise, no GPU; one student hands in nothing), and one task "fails"; the merge
    names that student, and a rerun grades it alone; the merged build report is the local
    --class --build-only run's, with the same seed. And the estimate's reading and arithmetic."""
    from types import SimpleNamespace
    problems = []
    exercise = "01.1"
    with tempfile.TemporaryDirectory(prefix="grade-slurm-") as tmp:
        for name, text in (("gradebook.csv", "student,01.1,total,seconds\nann,10,10,200\n"
                            "bob,0,0,100\ncal,0,0,\n"),
                           ("output.txt", "ann\ngraded in 200 s\nbob\ngraded in 100 s\n\n"
                                          "2 students graded in 300 s: ...\n")):
            with open(os.path.join(tmp, name), "w", encoding="utf-8") as f:
                f.write(text)
            if seconds_in(os.path.join(tmp, name)) != [200.0, 100.0]:
                problems.append(f"estimate read {seconds_in(os.path.join(tmp, name))} from a "
                                f"{name} of 200 s and 100 s")
        lines = estimate([200.0, 100.0], students=200, gpus=(1, 8, 64))
        want = ["200 s a student", "1 GPU: 200 in a row on each, about 11.1 h",
                "8 GPUs: 25 in a row on each, about 83 min",
                "64 GPUs: 4 in a row on each, about 13 min"]
        for part, line in zip(want, lines):
            if part not in line:
                problems.append(f"estimate said {line!r}, not {part!r}")
        class_dir = os.path.join(tmp, "class")
        starter = os.path.join(ROOT, "exercises", "01_atomics_histogram", "per_warp_histogram.cuh")
        for student in ("ann", "bob"):
            folder = os.path.join(class_dir, student, "exercises", "01_atomics_histogram")
            os.makedirs(folder)
            if student != "bob":  # bob hands in nothing
                shutil.copy(starter, folder)
        os.environ["COURSE_SBATCH"] = fake_sbatch(tmp)
        os.environ["COURSE_FAKE_FAIL"] = "1"
        work = os.path.join(tmp, "work")
        args = SimpleNamespace(class_dir=class_dir, work=work, seed=7, build_only=True,
                               sandbox=shutil.which("bwrap") is not None, exercises=exercise,
                               assignment=None, format=None, gpus_per_task=1, partition="p1",
                               account=None, time="0:30:00", cpus_per_task=2)
        job = prepare(args)
        sbatch(work, range(len(job["students"])), args, job)
        missing = merge(work, os.path.join(tmp, "out"))
        if missing != ["bob"]:
            problems.append(f"the failed task's student is not named alone: {missing}")
        os.environ["COURSE_FAKE_FAIL"] = ""
        # squeue's answers: bob's task still pending (a range), then the job forgotten by Slurm.
        squeue = os.path.join(tmp, "squeue")
        with open(squeue, "w", encoding="utf-8") as f:
            f.write(f"#!{sys.executable}\nimport os, sys\n"
                    "if os.environ.get('COURSE_FAKE_QUEUE'):\n"
                    "    print(os.environ['COURSE_FAKE_QUEUE'])\n"
                    "else:\n"
                    "    sys.exit('slurm_load_jobs error: Invalid job id specified')\n")
        os.chmod(squeue, 0o755)
        os.environ["COURSE_SQUEUE"] = squeue
        os.environ["COURSE_FAKE_QUEUE"] = "[1-3%2]"
        if in_queue(load(work)) != {1, 2, 3}:
            problems.append(f"squeue's pending range [1-3%2] read as {in_queue(load(work))}")
        os.environ["COURSE_FAKE_QUEUE"] = ""
        if in_queue(load(work)) != set():
            problems.append("a job Slurm has forgotten read as still in its queue")
        if load(work).get("jobs") != ["4242"]:
            problems.append(f"job.json keeps the jobs {load(work).get('jobs')}, not ['4242']")
        # The rerun, as grade_slurm.py rerun makes it: none of the submit's options given again.
        again = SimpleNamespace(build_only=False, gpus_per_task=None, partition=None,
                                account=None, time=None, cpus_per_task=None)
        sbatch(work, unfinished(work, load(work)), again, load(work))
        missing = merge(work, os.path.join(tmp, "out"))
        if missing:
            problems.append(f"after the rerun, still not graded: {missing}")
        with open(os.path.join(tmp, "sbatch_calls.txt"), encoding="utf-8") as f:
            calls = f.read().splitlines()
        for call in calls:
            if ("--gres" in call or "--partition=p1" not in call or "--time=0:30:00" not in call
                    or "--cpus-per-task=2" not in call):
                problems.append(f"sbatch asked for other than the submit's options (a GPU for "
                                f"a build-only job, or not its partition, time and CPUs): {call}")
        local = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade.py"),
                                "--class", class_dir, "--out", os.path.join(tmp, "local"),
                                "--build-dir", os.path.join(tmp, "local-build"),
                                "--build-only", "--exercises", exercise, "--seed", "7"]
                               + ([] if args.sandbox else ["--no-sandbox"]),
                               capture_output=True, text=True)
        mine = open(os.path.join(tmp, "out", "build_report.txt"), encoding="utf-8").read()
        try:
            theirs = open(os.path.join(tmp, "local", "build_report.txt"), encoding="utf-8").read()
        except OSError:
            theirs = f"(none: {local.stdout[-300:]}{local.stderr[-300:]})"
        if mine != theirs:
            problems.append(f"the merged build report is not the local run's:\n{mine}\n---\n"
                            f"{theirs}")
    print("grade_slurm.py selftest: " + ("ok (a class of two, a failed task named, rerun "
                                         "alone, squeue read, the merge as a local run's, the "
                                         "estimate)"
                                         if not problems else "FAILED"))
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


def _graded_seconds(work, student):
    """The seconds the student's task took, from its grade.py output ("graded in N s", or
    "built in N s" for --build-only), or None."""
    try:
        with open(os.path.join(work, "tasks", student, "output.txt"), encoding="utf-8") as f:
            found = STUDENT_SECONDS.findall(f.read())
    except OSError:
        return None
    return int(found[0]) if found else None


def seconds_in(path):
    """The seconds per student that a file records: a gradebook's seconds column (gradebook.csv,
    merged or local), or else every "graded in N s" (or "built in N s") line of grade.py's
    output. A list, empty when there is none."""
    with open(path, newline="", encoding="utf-8", errors="replace") as f:
        text = f.read()
    rows = list(csv.reader(text.splitlines()))
    if rows and "seconds" in rows[0]:
        column = rows[0].index("seconds")
        return [float(r[column]) for r in rows[1:]
                if len(r) > column and re.fullmatch(r"\d+(\.\d*)?", r[column])]
    return [float(n) for n in STUDENT_SECONDS.findall(text)]


def _duration(seconds):
    return f"{seconds / 3600:.1f} h" if seconds >= 5400 else f"{seconds / 60:.0f} min"


def estimate(seconds, students=200, gpus=(1, 8, 64)):
    """Lines: how long `students` take at the longest of `seconds` a student (on Slurm every task
    builds the course's programs, which a local run's first student alone does), each student's
    task on one GPU and the GPUs busy all the time: ceil(students / g) tasks in a row on each of g
    GPUs. Time waiting in the queue, and a node's other work, come on top."""
    longest = max(seconds)
    each = ", ".join(f"{s:.0f}" for s in seconds)
    lines = [f"at {longest:.0f} s a student (the longest of {each} s), {students} students take:"]
    for g in gpus:
        row = math.ceil(students / g)
        lines.append(f"  on {g} GPU{'s' if g > 1 else ''}: {row} in a row on each, about "
                     f"{_duration(row * longest)}")
    return lines


def estimate_main(paths, students, gpus):
    """grade_slurm.py estimate: the seconds of the files' students, then estimate's lines."""
    seconds = []
    for path in paths:
        try:
            found = seconds_in(path)
        except OSError as error:
            raise ValueError(f"cannot read {path}: {error.strerror}") from None
        if not found:
            raise ValueError(f"{path} records no student's seconds (a gradebook's seconds "
                             "column, or grade.py's \"graded in N s\")")
        seconds += found
    for line in estimate(seconds, students, gpus):
        print(line)
    return 0


def cluster_test(gpus=0, class_dir=None, exercises="01.1", compare=True, keep=None, rerun=True,
                 cpus=None):
    """grade_slurm.py against the real Slurm: a cluster of one node started on this machine
    (course.slurm_cluster; with `gpus`, that many GPUs as its gres), the class submitted through
    sbatch as one array job and merged; one task's status then removed (a task that did not
    finish) and `rerun` grades that student alone; with `compare`, the merged gradebook (or build
    report) equal to a local grade.py --class run's with the same seed (without `rerun`, no task
    removed; `cpus`: each task's CPUs and --jobs, by default 8 or this machine's fewer). Without
    `class_dir`, the selftest's class of two (a starter, nothing handed in). Without GPUs,
    --build-only. Prints each student's seconds; with `keep`, leaves the merged results and the
    times there.
    Returns 0, 1 when something does not hold, 77 when Slurm or munge is not installed."""
    from course import slurm_cluster
    absent = slurm_cluster.missing_tools()
    if absent:
        print(f"grade_slurm.py cluster-test: skipped: not installed: {', '.join(absent)} "
              "(Debian: apt install slurm-wlm munge)")
        return 77
    problems = []
    seed = "11"
    build_only = not gpus
    grade_slurm = [sys.executable, os.path.join(ROOT, "scripts", "grade_slurm.py")]
    with tempfile.TemporaryDirectory(prefix="grade-slurm-cluster-",
                                     ignore_cleanup_errors=True) as tmp:
        if class_dir is None:
            class_dir = os.path.join(tmp, "class")
            starter = os.path.join(ROOT, "exercises", "01_atomics_histogram",
                                   "per_warp_histogram.cuh")
            for student in ("ann", "bob"):
                folder = os.path.join(class_dir, student, "exercises", "01_atomics_histogram")
                os.makedirs(folder)
                if student == "ann":
                    shutil.copy(starter, folder)
        class_dir = os.path.abspath(class_dir)
        students = students_of(class_dir)
        work = os.path.join(tmp, "work")
        cpus = ["--cpus-per-task", str(cpus or min(CPUS_PER_TASK, os.cpu_count() or 1))]
        options = ["--seed", seed] + (
            [] if exercises == "all" else ["--exercises", exercises]) + (
            ["--build-only"] if build_only else []) + (
            [] if shutil.which("bwrap") else ["--no-sandbox"])
        report = "build_report.txt" if build_only else "gradebook.csv"
        try:
            with slurm_cluster.started(os.path.join(tmp, "cluster"), gpus=gpus) as env:
                start = time.monotonic()
                done = subprocess.run(grade_slurm + ["submit", "--class", class_dir, "--work",
                                                     work, "--wait", "3000"] + cpus + options,
                                      capture_output=True, text=True, env=env)
                job_seconds = time.monotonic() - start
                print(done.stdout.strip())
                if done.returncode != 0:
                    problems.append(f"submit: status {done.returncode}: "
                                    f"{(done.stderr or done.stdout).strip()[-400:]}")
                merged = os.path.join(tmp, "merged")
                done = subprocess.run(grade_slurm + ["merge", "--work", work, "--out", merged],
                                      capture_output=True, text=True, env=env)
                if done.returncode != 0:
                    problems.append(f"merge: status {done.returncode}: {done.stdout.strip()}")
                for student in students:
                    print(f"{student}: its task took {_graded_seconds(work, student)} s")
                print(f"the whole job, submit to the last task's end: {job_seconds:.0f} s for "
                      f"{len(students)} student{'s' if len(students) != 1 else ''}")
                took = [_graded_seconds(work, s) for s in students]
                if None not in took:
                    print(f"Slurm's share: {job_seconds - sum(took):.0f} s of the job's "
                          f"{job_seconds:.0f} s were not inside a task's grade.py")
                    for line in estimate([float(t) for t in took]):
                        print(line)
                if rerun:
                    # A task that did not finish: its status removed; rerun grades it alone. First
                    # every task out of Slurm's queue (a task that wrote its status may still be
                    # running for a moment, and rerun leaves a task in the queue alone).
                    for _ in range(60):
                        if not in_queue(load(work), env):
                            break
                        time.sleep(1)
                    last = students[-1]
                    os.remove(os.path.join(work, "tasks", last, "status"))
                    kept = {s: os.path.getmtime(os.path.join(work, "tasks", s, "status"))
                            for s in students[:-1]}
                    done = subprocess.run(
                        grade_slurm + ["rerun", "--work", work, "--wait", "3000"],
                        capture_output=True, text=True, env=env)
                    if done.returncode != 0 or not os.path.isfile(
                            os.path.join(work, "tasks", last, "status")):
                        problems.append(f"rerun did not grade {last}: status {done.returncode}: "
                                        f"{(done.stderr or done.stdout).strip()[-300:]}")
                    for s, mtime in kept.items():
                        if os.path.getmtime(os.path.join(work, "tasks", s, "status")) != mtime:
                            problems.append(f"rerun graded {s} again, whose task had finished")
                    again = os.path.join(tmp, "merged-again")
                    subprocess.run(grade_slurm + ["merge", "--work", work, "--out", again],
                                   capture_output=True, text=True, env=env)
                    if _read(os.path.join(again, report), drop_seconds=True) != _read(
                            os.path.join(merged, report), drop_seconds=True):
                        problems.append(f"after the rerun, the merged {report} changed")
        except RuntimeError as error:
            problems.append(f"the cluster: {error}")
            merged = None
            if keep:  # the daemons' logs and configuration, to see why
                shutil.copytree(os.path.join(tmp, "cluster"), os.path.join(keep, "cluster"),
                                dirs_exist_ok=True, ignore=shutil.ignore_patterns(
                                    "munge.key", "munge.socket*", "state", "spool"))
        if compare and merged and not problems:
            local = os.path.join(tmp, "local")
            done = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "grade.py"),
                                   "--class", class_dir, "--out", local, "--build-dir",
                                   os.path.join(tmp, "local-build")] + options,
                                  capture_output=True, text=True)
            mine = _read(os.path.join(merged, report), drop_seconds=True)
            theirs = _read(os.path.join(local, report), drop_seconds=True)
            if mine != theirs:
                problems.append(f"the merged {report} is not the local run's:\n{mine}\n---\n"
                                f"{theirs}\n{done.stdout[-300:]}")
            else:
                print(f"the merged {report} is the local grade.py --class run's (seed {seed})")
        if keep and merged:
            shutil.copytree(merged, os.path.join(keep, "merged"), dirs_exist_ok=True)
            shutil.copytree(os.path.join(work, "tasks"), os.path.join(keep, "tasks"),
                            dirs_exist_ok=True)
    print("grade_slurm.py cluster-test: " + (
        f"ok (a class of {len(students)} on a Slurm cluster of this machine"
        f"{f' with {gpus} GPU' if gpus else ', build-only'}"
        f"{', a task rerun alone' if rerun else ''}"
        f"{', the merge as a local run' + chr(39) + 's' if compare else ''})"
        if not problems else "FAILED"))
    for line in problems:
        print("  " + line)
    return 1 if problems else 0


def _read(path, drop_seconds=False):
    """A merged file's text; for a gradebook, without its seconds column (a time, not a grade)."""
    try:
        with open(path, newline="", encoding="utf-8") as f:
            rows = list(csv.reader(f))
    except OSError:
        return None
    if drop_seconds and rows and "seconds" in rows[0]:
        column = rows[0].index("seconds")
        rows = [row[:column] + row[column + 1:] for row in rows]
    return "\n".join(",".join(row) for row in rows)
