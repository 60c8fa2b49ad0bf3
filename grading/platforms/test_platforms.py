#!/usr/bin/env python3
"""The grading platforms' setups (grading/platforms/), tested as far as they run without a GPU,
each in a temporary folder that stands for the platform's (nothing is written in /autograder,
/grade or the repository). CTest runs each as a cpu test (common/tests/CMakeLists.txt).

    python3 grading/platforms/test_platforms.py gradescope|prairielearn|github_classroom|autolab
    python3 grading/platforms/test_platforms.py collect   # common.collect and common.unpack alone

Each builds one exercise's answer (01.1) in a fresh build folder, in the sandbox where bwrap
works, and checks the platform's file against the platform's specification with the checks of
scripts/course/formats.py (which accept each platform's published examples). Where a GPU would
grade, a stand-in grade.py (COURSE_GRADE_PY: it writes a made-up grading's file and exits with
STUB_STATUS) shows that a student who lost points (exit 1) still gets the platform's file and the
exit status the platform wants, and that a grader that failed (exit 2) is not taken for a grade.
On a machine with a GPU, the real grading's file is checked instead of the no-GPU fallback.
Exit status 0 when every check holds, 1 otherwise (one line per problem), 2 for bad arguments."""

import hashlib
import io
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import common  # noqa: E402
from course import formats  # noqa: E402
from course.gpus import gpus  # noqa: E402

EXERCISE = "01.1"
STARTER = os.path.join(common.COURSE, "exercises", "01_atomics_histogram",
                       "per_warp_histogram.cuh")
COLUMN = "01.1 per_warp_histogram"
REFUSED = "#include <thrust/sort.h>\n"
# The stand-in grade.py: a made-up grading's file in --format's format at --results (Autolab's
# printed too, as grade.py prints it), then exit STUB_STATUS; no file when STUB_STATUS is 2.
STUB = r'''
import os, sys
sys.path.insert(0, os.path.join(os.environ["STUB_COURSE"], "scripts"))
from course import formats
args = sys.argv[1:]
fmt = args[args.index("--format") + 1]
status = int(os.environ["STUB_STATUS"])
if status != 2:
    text = formats.render(fmt, *formats.made_up_gradings()["mixed"])
    with open(args[args.index("--results") + 1], "w") as f:
        f.write(text)
    if fmt == "autolab":
        print(text, end="")
print("stand-in grade.py: exit", status, flush=True)
sys.exit(status)
'''


def has_gpu():
    return bool(gpus()[0])


def run(command, cwd, env=None, timeout=900):
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=timeout)
    return done.returncode, done.stdout + done.stderr


def stub_env(tmp, status, base=None):
    stub = os.path.join(tmp, "stub_grade.py")
    with open(stub, "w", encoding="utf-8") as f:
        f.write(STUB)
    return dict(base or os.environ, COURSE_GRADE_PY=stub, STUB_STATUS=str(status),
                STUB_COURSE=common.COURSE)


def sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def read_json(path, problems, what):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as error:
        problems.append(f"{what}: no results file that can be read ({error})")
        return None


# --- collect: the answers found in a submission ----------------------------------------------

def test_collect():
    problems = []
    wanted = common.exercises(["01.1", "01.2", "02.1"])
    e11, e12, e21 = wanted
    with tempfile.TemporaryDirectory(prefix="platforms-collect-") as tmp:
        sub = os.path.join(tmp, "submission")

        def put(relative, text="// answer\n"):
            path = os.path.join(sub, relative)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(text)
            return path

        put("per_warp_histogram.cuh", "// loose\n")  # flat, as PrairieLearn hands it in
        put("repo/exercises/01_atomics_histogram/per_warp_histogram.cuh", "// canonical\n")
        put("a/general_histogram.cuh")  # two equally likely: refused
        put("b/general_histogram.cuh")
        os.symlink(STARTER, os.path.join(sub, "first_add_four.cuh"))  # a link: never taken
        put("notes/readme.txt")
        student = os.path.join(tmp, "student")
        answers, notes = common.collect(sub, student, wanted)
        taken = os.path.join(student, "exercises", "01_atomics_histogram",
                             "per_warp_histogram.cuh")
        if answers.get(e11, {}).get("from") != \
                "repo/exercises/01_atomics_histogram/per_warp_histogram.cuh":
            problems.append(f"collect: 01.1 taken from {answers.get(e11)}, not exercises/...")
        elif open(taken, encoding="utf-8").read() != "// canonical\n":
            problems.append("collect: 01.1's copy is not the file taken")
        if e12 in answers or not any("general_histogram.cuh: 2 files" in n for n in notes):
            problems.append(f"collect: two equally likely 01.2 files not refused: {notes}")
        if e21 in answers or not any("first_add_four.cuh: not a plain file" in n
                                     for n in notes):
            problems.append(f"collect: a link was taken, or not said: {notes}")
        if sorted(os.listdir(os.path.join(student, "exercises"))) != ["01_atomics_histogram"]:
            problems.append("collect: copied something other than the answers taken")
        # unpack: a tar holding a path out of its folder and a link keeps neither.
        archive = os.path.join(tmp, "handin.tar")
        with tarfile.open(archive, "w") as t:
            for name, data in (("exercises/01_atomics_histogram/per_warp_histogram.cuh", b"x"),
                               ("../escaped.cuh", b"y")):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                t.addfile(info, io.BytesIO(data))
            link = tarfile.TarInfo("general_histogram.cuh")
            link.type, link.linkname = tarfile.SYMTYPE, STARTER
            t.addfile(link)
        notes = common.unpack(archive, os.path.join(tmp, "out"))
        if os.path.exists(os.path.join(tmp, "escaped.cuh")) or os.path.lexists(
                os.path.join(tmp, "out", "general_histogram.cuh")) or len(notes) != 2:
            problems.append(f"unpack: a path out of the folder or a link was unpacked: {notes}")
        if not os.path.isfile(os.path.join(tmp, "out", "exercises", "01_atomics_histogram",
                                           "per_warp_histogram.cuh")):
            problems.append("unpack: the archive's answer is not there")
        # collect.py: an export's folder and archive each become a student of a class folder.
        exported = os.path.join(tmp, "export")
        shutil.copytree(os.path.join(sub, "repo"), os.path.join(exported, "submission_1"))
        shutil.copy(archive, os.path.join(exported, "submission_2.tar"))
        class_dir = os.path.join(tmp, "class")
        status, out = run([sys.executable, os.path.join(HERE, "collect.py"), exported,
                           class_dir, "--exercises", "01.1"], tmp)
        for student in ("submission_1", "submission_2"):
            if not os.path.isfile(os.path.join(class_dir, student, "exercises",
                                               "01_atomics_histogram", "per_warp_histogram.cuh")):
                problems.append(f"collect.py: no answer for {student} (exit {status}): {out}")
    return problems


# --- Gradescope --------------------------------------------------------------------------------

def unpack_autograder(zip_path, root):
    """Gradescope's image: the zip's contents in root/source, run_autograder copied to root."""
    source = os.path.join(root, "source")
    shutil.rmtree(source, ignore_errors=True)
    with zipfile.ZipFile(zip_path) as z:
        for info in z.infolist():
            path = z.extract(info, source)
            mode = (info.external_attr >> 16) & 0o777
            if mode:
                os.chmod(path, mode)
    shutil.copy2(os.path.join(source, "run_autograder"), os.path.join(root, "run_autograder"))


def gradescope_results(root, problems, what):
    results = read_json(os.path.join(root, "results", "results.json"), problems, what)
    if results is not None:
        text = json.dumps(results)
        problems += [f"{what}: results.json: {p}" for p in formats.check_gradescope(text)]
    return results


def test_gradescope():
    problems = []
    maker = os.path.join(HERE, "gradescope", "make_autograder.py")
    with tempfile.TemporaryDirectory(prefix="platforms-gradescope-") as tmp:
        zips = {}
        for mode in ("build", "again", "gpu"):  # the build mode's twice: the same bytes
            zips[mode] = os.path.join(tmp, f"{mode}.zip")
            status, out = run([sys.executable, maker, "--mode", mode.replace("again", "build"),
                               "--exercises", EXERCISE, "--out", zips[mode]], tmp)
            if status != 0:
                return [f"make_autograder.py --mode {mode}: exit {status}: {out[-400:]}"]
        if sha256(zips["again"]) != sha256(zips["build"]):
            problems.append("make_autograder.py: the same files gave another zip")
        with zipfile.ZipFile(zips["build"]) as z:
            infos = {i.filename: i for i in z.infolist()}
            for name in ("setup.sh", "run_autograder"):
                if name not in infos or not (infos[name].external_attr >> 16) & 0o100:
                    problems.append(f"the zip's root has no executable {name}")
            if json.loads(z.read("autograder.json")) != {"mode": "build",
                                                         "exercises": [EXERCISE],
                                                         "sandbox": None}:
                problems.append(f"autograder.json: {z.read('autograder.json')!r}")
            if "course/scripts/grade.py" not in infos or \
                    any(n.startswith("course/solutions/") for n in infos):
                problems.append("the build mode's zip: no course/scripts/grade.py, or "
                                "solutions/ in it")
        with zipfile.ZipFile(zips["gpu"]) as z:
            if not any(n.startswith("course/solutions/") for n in z.namelist()):
                problems.append("the gpu mode's zip has no solutions/ (the time bounds run them)")
        for script in ("setup.sh", "run_autograder"):
            status, out = run(["bash", "-n", os.path.join(HERE, "gradescope", script)], tmp)
            if status != 0:
                problems.append(f"{script}: bash -n: {out.strip()}")

        # Build mode: the starters handed in as exercises/, a fresh build folder.
        root = os.path.join(tmp, "autograder")
        unpack_autograder(zips["build"], root)
        os.makedirs(os.path.join(root, "submission"))
        shutil.copytree(os.path.join(common.COURSE, "exercises"),
                        os.path.join(root, "submission", "exercises"))
        env = dict(os.environ, AUTOGRADER_ROOT=root)
        status, out = run([os.path.join(root, "run_autograder")], root, env)
        if status != 0:
            problems.append(f"build mode: run_autograder exited {status}: {out[-600:]}")
        results = gradescope_results(root, problems, "build mode")
        if results is not None:
            tests = {t.get("name"): t for t in results.get("tests", [])}
            check = tests.get(f"{COLUMN}: build", {})
            if results.get("score") != 0 or check.get("status") != "passed" or \
                    check.get("max_score") != 0 or len(tests) != 1:
                problems.append(f"build mode: not one passed build check worth 0, score 0: "
                                f"{results}")
            answer = results.get("extra_data", {}).get("answers", {}).get(COLUMN, {})
            if results.get("extra_data", {}).get("mode") != "build" or \
                    answer.get("sha256") != sha256(STARTER):
                problems.append(f"build mode: extra_data does not name the answer built: "
                                f"{results.get('extra_data')}")
            if "GPU" not in results.get("output", ""):
                problems.append("build mode: the output does not say the points come later")

        # Gpu mode, the same image's build folder: graded on a GPU, else only built, said so.
        unpack_autograder(zips["gpu"], root)
        status, out = run([os.path.join(root, "run_autograder")], root, env)
        if status != 0:
            problems.append(f"gpu mode: run_autograder exited {status}: {out[-600:]}")
        results = gradescope_results(root, problems, "gpu mode")
        if results is not None and has_gpu():
            graded = {t.get("name"): t for t in results.get("tests", [])}.get(COLUMN, {})
            if graded.get("max_score") != formats.POINTS or graded.get("status") != "failed":
                problems.append(f"gpu mode on a GPU: the starter is not a failed exercise of "
                                f"{formats.POINTS} points: {graded}")
        elif results is not None and ("no CUDA GPU" not in results.get("output", "") or
                                      results.get("extra_data", {}).get("mode") != "build"):
            problems.append(f"gpu mode without a GPU: not the build's results, saying why: "
                            f"{results.get('output')}")

        # A student who lost points (grade.py's exit 1): results.json, and exit 0.
        status, out = run([os.path.join(root, "run_autograder")], root, stub_env(tmp, 1, env))
        results = gradescope_results(root, problems, "gpu mode, grade.py exit 1")
        if status != 0 or results is None or results.get("extra_data", {}).get("mode") != "gpu":
            problems.append(f"gpu mode, grade.py exit 1: exit {status}, or not grade.py's "
                            f"results: {out[-400:]}")
        # A grader that failed (exit 2, no file): no results.json, which Gradescope shows as the
        # autograder's failure, and not exit 0.
        status, out = run([os.path.join(root, "run_autograder")], root, stub_env(tmp, 2, env))
        if status == 0 or os.path.exists(os.path.join(root, "results", "results.json")):
            problems.append(f"gpu mode, grade.py exit 2: exit {status}, or a results.json left")
    return problems


# --- PrairieLearn ------------------------------------------------------------------------------

def pl_results(root, problems, what):
    results = read_json(os.path.join(root, "results", "results.json"), problems, what)
    if results is not None:
        problems += [f"{what}: results.json: {p}"
                     for p in formats.check_prairielearn(json.dumps(results))]
    return results


def test_prairielearn():
    problems = []
    entry = os.path.join(HERE, "prairielearn", "entrypoint.py")
    if not os.access(entry, os.X_OK):
        problems.append("entrypoint.py is not executable (the image runs it as it is)")
    with open(os.path.join(HERE, "prairielearn", "Dockerfile"), encoding="utf-8") as f:
        dockerfile = f.read()
    for needed in ("FROM ${CUDA_IMAGE}", "nvidia/cuda:", "COPY . /opt/cuda-course", "bubblewrap",
                   "catch2", "cmake", "ninja-build",
                   'ENTRYPOINT ["/opt/cuda-course/grading/platforms/prairielearn/entrypoint.py"]'):
        if needed not in dockerfile:
            problems.append(f"the Dockerfile has no {needed!r}")
    with tempfile.TemporaryDirectory(prefix="platforms-prairielearn-") as tmp:
        root = os.path.join(tmp, "grade")
        os.makedirs(os.path.join(root, "student"))
        env = dict(os.environ, GRADE_ROOT=root)
        build = os.path.join(tmp, "build")
        # Nothing handed in: not gradable, saying so.
        status, out = run([sys.executable, entry, "--build-dir", build], tmp, env)
        results = pl_results(root, problems, "nothing handed in")
        if status != 0 or not results or results.get("gradable") is not False or \
                "no answer file" not in results.get("message", ""):
            problems.append(f"nothing handed in: exit {status}, {results}")
        # The starter, flat, as pl-file-upload hands it in.
        shutil.copy(STARTER, os.path.join(root, "student"))
        status, out = run([sys.executable, entry, "--build-dir", build], tmp, env)
        if status != 0:
            problems.append(f"the starter: entrypoint.py exited {status}: {out[-600:]}")
        results = pl_results(root, problems, "the starter")
        if results is not None and has_gpu():
            if results.get("gradable") is not True or results.get("score") != 0:
                problems.append(f"the starter on a GPU: not gradable with score 0: {results}")
        elif results is not None:
            tests = results.get("tests", [])
            if results.get("gradable") is not False or "score" in results or \
                    "no CUDA GPU" not in results.get("message", "") or \
                    "format_errors" in results or \
                    [(t.get("name"), t.get("message"), t.get("max_points")) for t in tests] != \
                    [(f"{COLUMN}: build", "builds", 0)]:
                problems.append(f"the starter without a GPU: not 'gradable': false with its "
                                f"build, saying why: {results}")
        # A student who lost points (exit 1): grade.py's results, gradable; a failed grader
        # (exit 2): not gradable, saying it is not the answer. Exit 0 both times.
        for status_given, gradable in ((1, True), (2, False)):
            status, out = run([sys.executable, entry, "--build-dir", build, "--exercises",
                               EXERCISE], tmp, stub_env(tmp, status_given, env))
            results = pl_results(root, problems, f"grade.py exit {status_given}")
            if status != 0 or not results or results.get("gradable") is not gradable or \
                    (not gradable and "not your answer" not in results.get("message", "")):
                problems.append(f"grade.py exit {status_given}: exit {status}, {results}")
    return problems


# --- GitHub Classroom --------------------------------------------------------------------------

def test_github_classroom():
    problems = []
    sys.path.insert(0, os.path.join(HERE, "github_classroom"))
    import make_workflow  # noqa: E402
    sys.path.insert(0, common.SCRIPTS)
    import grade  # noqa: E402  (scripts/grade.py: its parser)
    with open(make_workflow.WORKFLOW, encoding="utf-8") as f:
        committed = f.read()
    if committed != make_workflow.text():
        problems.append("classroom.yml is not what make_workflow.py writes from the manifests: "
                        "run grading/platforms/github_classroom/make_workflow.py write")
    read = make_workflow.read_steps(committed)
    want = [common.exercise_id(e) for e in common.exercises()]
    if read != make_workflow.steps():
        problems.append("classroom.yml's steps, read back, are not one per exercise")
    for needed in ("uses: classroom-resources/autograding-grading-reporter@v1",
                   f"runners: {','.join(s['id'] for s in read)}", "run-autograding-tests:",
                   "name: Autograding Tests"):
        if needed not in committed:
            problems.append(f"classroom.yml has no {needed!r}")
    with tempfile.TemporaryDirectory(prefix="platforms-classroom-") as tmp:
        workspace = os.path.join(tmp, "work", "student-repo")  # the runner's checkout
        shutil.copytree(os.path.join(common.COURSE, "exercises"),
                        os.path.join(workspace, "exercises"))
        home = os.path.join(tmp, "home")
        os.makedirs(home)
        os.symlink(common.COURSE, os.path.join(home, "cuda-course"))
        seen = []
        for step in read:
            words = shlex.split(step.get("command", ""))
            if words[:2] != ["python3", "$HOME/cuda-course/scripts/grade.py"]:
                problems.append(f"{step['id']}: not the runner's grade.py: {words[:2]}")
                continue
            saved = os.getcwd()
            os.chdir(workspace)
            try:
                args = grade.parse(["grade.py"] + words[2:])
                seen += [common.exercise_id(e) for e in args.exercises]
                if len(args.exercises) != 1 or step["test-name"] != args.exercises[0].column():
                    problems.append(f"{step['id']}: grades {args.exercises}, not its exercise")
            except SystemExit as error:
                problems.append(f"{step['id']}: grade.py refuses its command (exit {error})")
            finally:
                os.chdir(saved)
            if step.get("max-score") != formats.POINTS or not 0 < step.get("timeout", 0) <= 360:
                problems.append(f"{step['id']}: max-score or timeout (minutes) out of range")
        if seen != want:
            problems.append(f"the steps grade {seen}, not every exercise {want}")
        # The first step's command as the grader action runs it: a shell, PATH and HOME alone.
        env = {"PATH": os.environ.get("PATH", ""), "HOME": home, "FORCE_COLOR": "true",
               "DOTNET_CLI_HOME": "/tmp", "DOTNET_NOLOGO": "true"}
        first = read[0]["command"]
        if not has_gpu():
            status, out = run(["/bin/sh", "-c", first], workspace, env)
            if status != common.NO_GPU or "no CUDA GPU" not in out:
                problems.append(f"{read[0]['id']}'s command without a GPU: exit {status}, not "
                                f"77 saying so: {out[-400:]}")
        status, out = run(["/bin/sh", "-c", first + " --build-only"], workspace, env)
        if status != 0 or not any(common.BUILD_LINE.match(line) and line.endswith("builds")
                                  for line in out.splitlines()):
            problems.append(f"{read[0]['id']}'s command with --build-only: exit {status}, not "
                            f"0 with the starter built: {out[-600:]}")
    return problems


# --- Autolab -----------------------------------------------------------------------------------

def autolab_job(tmp, name, lab, handin):
    """A job's folder as Autolab makes it: the Makefile, autograde.tar and the handin file."""
    job = os.path.join(tmp, name)
    os.makedirs(job)
    shutil.copy(os.path.join(lab, "autograde-Makefile"), os.path.join(job, "Makefile"))
    shutil.copy(os.path.join(lab, "autograde.tar"), job)
    for target, data in handin.items():
        with open(os.path.join(job, target), "wb") as f:
            f.write(data)
    return job


def test_autolab():
    problems = []
    maker = os.path.join(HERE, "autolab", "make_autograde_tar.py")
    with open(os.path.join(HERE, "autolab", "autograde-Makefile"), encoding="utf-8") as f:
        makefile = f.read()
    first = next(line for line in makefile.splitlines() if line and not line.startswith("#"))
    if first != "autograde:":
        problems.append(f"the Makefile's first target (the one make runs) is {first!r}")
    with tempfile.TemporaryDirectory(prefix="platforms-autolab-") as tmp:
        labs = {}
        for mode in ("build", "gpu"):
            labs[mode] = os.path.join(tmp, f"lab-{mode}")
            os.makedirs(labs[mode])
            status, out = run([sys.executable, maker, "--mode", mode, "--exercises", EXERCISE,
                               "--out", labs[mode]], tmp)
            if status != 0:
                return [f"make_autograde_tar.py --mode {mode}: exit {status}: {out[-400:]}"]
        with tarfile.open(os.path.join(labs["build"], "autograde.tar")) as t:
            names = t.getnames()
        if "course/scripts/grade.py" not in names or "autograde.json" not in names or \
                any(n.startswith("course/solutions/") for n in names):
            problems.append("the build mode's autograde.tar: no grade.py or settings, or "
                            "solutions/ in it")
        # Build mode: a handin.tar of exercises/ whose answer the answer check refuses.
        with open(STARTER, "rb") as f:
            refused = f.read() + REFUSED.encode()
        handin = io.BytesIO()
        with tarfile.open(fileobj=handin, mode="w") as t:
            info = tarfile.TarInfo("exercises/01_atomics_histogram/per_warp_histogram.cuh")
            info.size = len(refused)
            t.addfile(info, io.BytesIO(refused))
        job = autolab_job(tmp, "job-build", labs["build"], {"handin.tar": handin.getvalue()})
        status, out = run(["make"], job)
        problems += [f"build mode: the output: {p}" for p in formats.check_autolab(out)]
        lines = out.rstrip().splitlines()
        try:
            autoresult, feedback = json.loads(lines[-1]), json.loads(lines[-2])
            hint = feedback[COLUMN]["build"]
            if status != 0 or autoresult != {"scores": {COLUMN: 0.0}} or \
                    hint.get("passed") is not False or "refused" not in hint.get("hint", ""):
                problems.append(f"build mode: exit {status}; the refused answer's feedback and "
                                f"autoresult: {lines[-2:]}")
        except (ValueError, KeyError, IndexError):
            problems.append(f"build mode: no feedback and autoresult last: {out[-600:]}")
        # Gpu mode, one .cuh as the handin: graded on a GPU; without one, said so, no
        # autoresult, make fails (Autolab keeps the scores it had).
        with open(STARTER, "rb") as f:
            starter = f.read()
        job = autolab_job(tmp, "job-gpu", labs["gpu"], {"per_warp_histogram.cuh": starter})
        status, out = run(["make"], job)
        if has_gpu():
            if status != 0 or formats.check_autolab(out):
                problems.append(f"gpu mode on a GPU: exit {status}: {out[-600:]}")
        elif status == 0 or "no CUDA GPU" not in out or not formats.check_autolab(out):
            problems.append(f"gpu mode without a GPU: exit {status}, or an autoresult printed, "
                            f"or the output does not say why: {out[-400:]}")
        # A student who lost points (grade.py's exit 1): the autoresult last, make exits 0.
        job = autolab_job(tmp, "job-stub", labs["gpu"], {"handin.cuh": starter})
        status, out = run(["make"], job, stub_env(tmp, 1))
        if "1 of 1 answers found" not in out:
            problems.append("a lab of one exercise: its one .cuh, under the lab's base name "
                            "(handin.cuh), is not taken as the answer")
        if status != 0 or formats.check_autolab(out):
            problems.append(f"gpu mode, grade.py exit 1: exit {status}, "
                            f"{formats.check_autolab(out)}: {out[-400:]}")
    return problems


TESTS = {"collect": test_collect, "gradescope": test_gradescope,
         "prairielearn": test_prairielearn, "github_classroom": test_github_classroom,
         "autolab": test_autolab}


def main(argv):
    if len(argv) != 2 or argv[1] not in TESTS:
        print(f"test_platforms.py: error: give one of {', '.join(TESTS)}", file=sys.stderr)
        return 2
    problems = TESTS[argv[1]]()
    if argv[1] != "collect":
        problems = test_collect() + problems
    for problem in problems:
        print(f"test_platforms.py {argv[1]}: {problem}")
    if problems:
        return 1
    print(f"test_platforms.py {argv[1]}: ok" + ("" if has_gpu() else
                                              " (no GPU here: the no-GPU paths checked)"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
