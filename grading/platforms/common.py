"""What the grading platforms' setups share (grading/platforms/<platform>/): the course they grade
with, a submission's answers put where scripts/grade.py reads them, grade.py run on them, and the
build report of `grade.py --build-only` read back, for the platforms whose machines have no GPU.

Each platform hands over a student's work in its own way: Gradescope unpacks an upload (a zip of
exercises/, loose .cuh files, or a GitHub repository) into /autograder/submission; PrairieLearn
puts the uploaded files, flat, in /grade/student; Autolab gives one handin file, an archive or one
.cuh. collect() finds each graded exercise's file (<name>.cuh, named by its manifest) wherever it
is and copies it into a student folder laid out as grade.py expects
(STUDENT/exercises/NN_topic/<name>.cuh); nothing else of the submission is kept, and nothing of it
is run here. A file is taken only when it is a plain file (no link: a link could name the
course's model answers) of at most MAX_BYTES; of several files with the same name, the one at
exercises/NN_topic/<name>.cuh, then NN_topic/<name>.cuh, then the shallowest, is taken, and two
equally good ones are refused (the exercise is then missing, and the notes say why).

Only the Python standard library is used; scripts/course is imported from the course this file
belongs to (two folders up), never changed."""

import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
COURSE = os.path.dirname(os.path.dirname(HERE))  # grading/platforms/ is two levels down
SCRIPTS = os.path.join(COURSE, "scripts")
if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)

from course import assignments, formats, grading  # noqa: E402  (the course's package)

MAX_BYTES = 1 << 20  # an answer file larger than this is not taken
NO_GPU = 77  # grade.py's exit status without a GPU (and CTest's skip)
# One line of `grade.py --build-only`'s table: lesson, exercise number, and its build's verdict
# (grading.build_verdict: "builds", "does not build: <why>", "missing: <why>").
BUILD_LINE = re.compile(r"^(\d\d) +(\d+) +(builds|does not build: .+|missing: .+)$")
SKIPPED_DIRS = {".git", "__MACOSX", "__pycache__"}


def exercise_id(exercise):
    """"01.1", as --exercises takes it."""
    return f"{exercise.nn}.{exercise.number}"


def exercises(wanted=None):
    """The graded exercises, from their manifests; only those of `wanted` (ids such as "01.1",
    or None for all), in the course's order. An id that names no exercise raises ValueError."""
    known = {exercise_id(e): e for e in grading.exercises()}
    if not wanted:
        return list(known.values())
    unknown = [w for w in wanted if w not in known]
    if unknown:
        raise ValueError(f"no exercise {', '.join(unknown)} (there are {', '.join(known)})")
    return [e for i, e in known.items() if i in wanted]


def _rank(relative, exercise):
    parts = relative.split("/")
    if parts[-3:] == ["exercises", exercise.lesson_dir, exercise.name + ".cuh"]:
        place = 0
    elif parts[-2:] == [exercise.lesson_dir, exercise.name + ".cuh"]:
        place = 1
    else:
        place = 2
    return place, len(parts)


def collect(submission, student_dir, wanted):
    """Copies the answer of each exercise of `wanted` found in the folder `submission` into
    `student_dir`/exercises/NN_topic/<name>.cuh (made). Returns (answers, notes): answers
    {exercise: {"from": its path in the submission, "sha256": its digest}} for each file taken,
    notes [lines] about those not taken (a link, too large, two equally likely files)."""
    names = {e.name + ".cuh": e for e in wanted}
    found = {e: [] for e in wanted}
    notes = []
    for folder, dirs, files in os.walk(submission):
        dirs[:] = sorted(d for d in dirs if d not in SKIPPED_DIRS)
        for name in sorted(files):
            exercise = names.get(name)
            if exercise is None:
                continue
            path = os.path.join(folder, name)
            relative = os.path.relpath(path, submission).replace(os.sep, "/")
            if os.path.islink(path) or not os.path.isfile(path):
                notes.append(f"{relative}: not a plain file (a link?): not taken")
            elif os.path.getsize(path) > MAX_BYTES:
                notes.append(f"{relative}: more than {MAX_BYTES} bytes: not taken")
            else:
                found[exercise].append((_rank(relative, exercise), relative, path))
    answers = {}
    for exercise in wanted:
        candidates = sorted(found[exercise])
        if not candidates:
            continue
        best = [c for c in candidates if c[0] == candidates[0][0]]
        if len(best) > 1:
            notes.append(f"{exercise.name}.cuh: {len(best)} files could be the answer "
                         f"({', '.join(c[1] for c in best)}): none taken; hand in one")
            continue
        _, relative, path = best[0]
        with open(path, "rb") as f:
            data = f.read()
        target = os.path.join(student_dir, "exercises", exercise.lesson_dir,
                              exercise.name + ".cuh")
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "wb") as f:
            f.write(data)
        answers[exercise] = {"from": relative, "sha256": hashlib.sha256(data).hexdigest()}
    return answers, notes


def _inside(dest, name):
    target = os.path.realpath(os.path.join(dest, name))
    return target == os.path.realpath(dest) or target.startswith(os.path.realpath(dest) + os.sep)


def unpack(archive, dest):
    """Unpacks the zip or tar `archive` into the folder `dest`: plain files and folders only (no
    link, device or path leading out of `dest`). Returns the notes [lines] about what was left
    out; raises ValueError for a file that is neither."""
    notes = []
    os.makedirs(dest, exist_ok=True)
    if zipfile.is_zipfile(archive):
        with zipfile.ZipFile(archive) as z:
            for info in z.infolist():
                kind = (info.external_attr >> 16) & 0o170000
                if kind not in (0, 0o100000, 0o040000) or not _inside(dest, info.filename):
                    notes.append(f"{info.filename}: not a plain file inside the archive: left out")
                    continue
                z.extract(info, dest)
        return notes
    if tarfile.is_tarfile(archive):
        with tarfile.open(archive) as t:
            for member in t.getmembers():
                if not (member.isfile() or member.isdir()) or not _inside(dest, member.name):
                    notes.append(f"{member.name}: not a plain file inside the archive: left out")
                    continue
                if member.isdir():
                    os.makedirs(os.path.join(dest, member.name), exist_ok=True)
                    continue
                target = os.path.join(dest, member.name)
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with t.extractfile(member) as src, open(target, "wb") as out:
                    shutil.copyfileobj(src, out)
        return notes
    raise ValueError(f"{os.path.basename(archive)} is neither a zip nor a tar archive")


def grade_command():
    """[python, grade.py]: the course's grade.py, or the script that COURSE_GRADE_PY names (the
    platform tests' stand-in for a GPU grading)."""
    return [sys.executable, os.environ.get("COURSE_GRADE_PY") or
            os.path.join(SCRIPTS, "grade.py")]


def environment():
    """grade.py's environment: this one, with the CUDA Toolkit's bin folder on PATH when nvcc is
    not on it (the platforms' images install the toolkit in /usr/local/cuda or
    /usr/local/cuda-X.Y)."""
    env = dict(os.environ)
    if shutil.which("nvcc", path=env.get("PATH")) is None:
        found = sorted(glob.glob("/usr/local/cuda-*/bin/nvcc"), reverse=True)
        for nvcc in ["/usr/local/cuda/bin/nvcc"] + found:
            if os.path.isfile(nvcc):
                env["PATH"] = os.path.dirname(nvcc) + os.pathsep + env.get("PATH", "")
                break
    return env


def sandbox_options(setting):
    """(grade.py's options, a note or "") for the sandbox `setting`: "on" (grade.py's default:
    it refuses without bubblewrap), "off" (--no-sandbox), or "auto" (on where bwrap can make a
    sandbox here, else off, said in the note: for a build alone, where no answer runs, in a
    container that is itself thrown away)."""
    if setting == "off":
        return ["--no-sandbox"], "built without the sandbox (configured so)"
    if setting == "auto":
        why = grading.Sandbox.missing()
        if why:
            return ["--no-sandbox"], f"built without the sandbox: {why}"
    return [], ""


def run_grade(arguments, echo=True):
    """Runs grade.py with `arguments`; returns (exit status, its output, stdout and stderr
    together). With `echo`, each line is printed as it comes (the platform's log)."""
    process = subprocess.Popen(grade_command() + list(arguments), stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, env=environment(),
                               errors="replace")
    lines = []
    for line in process.stdout:
        lines.append(line)
        if echo:
            print(line, end="", flush=True)
    return process.wait(), "".join(lines)


def build_report(status, output, wanted):
    """{exercise: why its answer does not build, or "" when it builds}, read from the table that
    `grade.py --build-only` printed (`output`, exit `status`): one line per exercise. Raises
    ValueError when the table is not all there, or says otherwise than the exit status."""
    report = {}
    by_id = {exercise_id(e): e for e in wanted}
    for line in output.splitlines():
        match = BUILD_LINE.match(line.rstrip())
        if match and f"{match.group(1)}.{match.group(2)}" in by_id:
            verdict = match.group(3)
            why = "" if verdict == "builds" else verdict.replace("does not build: ", "", 1)
            report[by_id[f"{match.group(1)}.{match.group(2)}"]] = why
    missing = [exercise_id(e) for e in wanted if e not in report]
    if missing:
        raise ValueError(f"grade.py --build-only (exit {status}) printed no build line for "
                         f"{', '.join(missing)}")
    if status not in (0, 1) or (status == 1) != any(report.values()):
        raise ValueError(f"grade.py --build-only exited {status}, but its lines say "
                         f"{sum(not w for w in report.values())} of {len(report)} answers build")
    return report


def build_only(student_dir, build_dir, wanted, sandbox, echo=True):
    """Builds the answers of `student_dir` alone (grade.py --build-only, no GPU needed); returns
    (report, notes): build_report()'s, and the sandbox's note if any. Raises ValueError when
    grade.py could not say."""
    options, note = sandbox_options(sandbox)
    status, output = run_grade([student_dir, "--build-only", "--build-dir", build_dir,
                                "--exercises", ",".join(exercise_id(e) for e in wanted)] +
                               options, echo)
    return build_report(status, output, wanted), [note] if note else []


def build_lines(report):
    """One line per exercise for a person: "01.1 per_warp_histogram: builds" or its reason."""
    return [f"{e.column()}: {grading.build_verdict(why)}" for e, why in report.items()]


POINTS = formats.POINTS


def course_files(solutions):
    """The course's files as they stand (git ls-files: tracked, and untracked but not ignored),
    relative to it; solutions/ only if `solutions` (a grading that runs the tests needs the
    model answers, which the time bounds run; one that only builds does not)."""
    from course import tree  # runs git: only when called
    return [n for n in tree.repository_files(COURSE)
            if solutions or not n.startswith("solutions/")]


def add_packing_options(parser):
    """The options every platform's packer takes beside its mode: which exercises, and the
    sandbox's setting (make_autograder.py, make_autograde_tar.py)."""
    choose = parser.add_mutually_exclusive_group()
    choose.add_argument("--exercises", metavar="LIST", help="e.g. 01.1,01.2 (default: all)")
    choose.add_argument("--assignment", choices=sorted(assignments.ASSIGNMENTS),
                        help="a suggested assignment's graded exercises")
    parser.add_argument("--sandbox", choices=("auto", "on", "off"),
                        help="override the mode's default (build: auto; gpu: on)")


def wanted_ids(exercises_option, assignment):
    """The exercise ids that --exercises LIST or --assignment NAME give (None: every exercise);
    an id that names no exercise raises ValueError."""
    if assignment:
        ids = list(assignments.ASSIGNMENTS[assignment][1])
    elif exercises_option:
        ids = [x.strip() for x in exercises_option.split(",") if x.strip()]
    else:
        return None
    exercises(ids)
    return ids
