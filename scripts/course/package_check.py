"""The package's own check (scripts/check_package.py): each module of scripts/course/ imported in a
fresh interpreter that refuses any file it reads or folder it lists in the repository outside the
package, and any program it starts; and ROOT set in course/paths.py only."""

import os
import re
import subprocess
import sys
import tempfile

# Run in a fresh interpreter: imports one module with an audit hook that refuses what an import
# must not do. argv: the repository, the package's folder, the module's name.
PROBE = r"""
import os, sys
root, package, module = sys.argv[1:4]
scripts = os.path.dirname(package)

def refuse(what):
    raise RuntimeError(f"importing {module} {what}")

def hook(event, args):
    if event in ("open", "os.listdir", "os.scandir", "glob.glob"):
        path = args[0]
        if path is None or isinstance(path, int):
            return
        path = os.path.abspath(os.fsdecode(path))
        inside = path == root or path.startswith(root + os.sep)
        # The import system lists the scripts' folder (sys.path[0]) and reads the package.
        if inside and path != scripts and not path.startswith(package):
            refuse(f"touched {os.path.relpath(path, root)} ({event})")
    elif event in ("subprocess.Popen", "os.system", "os.exec", "os.posix_spawn", "os.spawn",
                   "os.fork"):
        refuse(f"started a program ({event})")

sys.path[0] = scripts  # not the working folder, which "-c" puts first
sys.addaudithook(hook)
__import__(module)
"""

ROOT_SET = re.compile(r"^ROOT\s*=", re.M)


def modules(package):
    """The package and each of its modules, by import name."""
    name = os.path.basename(package)
    return [name] + [f"{name}.{f[:-3]}" for f in sorted(os.listdir(package))
                     if f.endswith(".py") and f != "__init__.py"]


def import_problems(root, package):
    """One line per module that does something when imported. An nvidia-smi is put first on the
    PATH, so that a module that would ask it for the GPUs at import starts it, and is caught, on a
    machine without one too."""
    out = []
    with tempfile.TemporaryDirectory() as bin_dir:
        smi = os.path.join(bin_dir, "nvidia-smi")
        with open(smi, "w") as f:
            f.write("#!/bin/sh\necho 'NVIDIA H100 80GB HBM3'\n")
        os.chmod(smi, 0o755)
        env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
        for module in modules(package):
            out += probe(root, package, module, env)
    return out


def probe(root, package, module, env):
    """[a line saying what importing `module` did], or [] when it did nothing."""
    done = subprocess.run([sys.executable, "-B", "-c", PROBE, root, package, module],
                          capture_output=True, text=True, cwd=root, env=env)
    if done.returncode == 0:
        return []
    last = done.stderr.strip().splitlines() or ["exit status " + str(done.returncode)]
    return [f"{module}: {last[-1]}"]


def root_problems(scripts):
    """One line per file of scripts/ other than course/paths.py that sets ROOT."""
    out = []
    for folder, _, files in os.walk(scripts):
        for name in sorted(files):
            path = os.path.join(folder, name)
            if not name.endswith(".py") or path == os.path.join(scripts, "course", "paths.py"):
                continue
            with open(path, encoding="utf-8") as f:
                if ROOT_SET.search(f.read()):
                    out.append(f"{os.path.relpath(path, scripts)}: sets ROOT; import it from "
                               "course.paths")
    return out


def check(root):
    scripts = os.path.join(root, "scripts")
    found = import_problems(root, os.path.join(scripts, "course")) + root_problems(scripts)
    for problem in found:
        print(f"check_package.py: {problem}")
    if not found:
        print(f"check_package.py: ok, {len(modules(os.path.join(scripts, 'course')))} modules of "
              "scripts/course/ import without touching the repository, ROOT set once")
    return 1 if found else 0


def selftest():
    """A package in a scratch repository: modules that read a lesson's file, list the lessons,
    start a program or set ROOT again must be caught; the quiet ones must not."""
    cases = {
        "quiet": ("import os\nHERE = os.path.dirname(os.path.abspath(__file__))\n"
                  "def load():\n    return open(os.path.join(HERE, '..', '..', 'lessons', "
                  "'lesson.json')).read()\n", False),
        "reads": ("import os\nROOT = os.path.dirname(os.path.dirname(os.path.dirname("
                  "os.path.abspath(__file__))))\nTEXT = open(os.path.join(ROOT, 'lessons', "
                  "'lesson.json')).read()\n", True),
        "lists": ("import glob, os\nHERE = os.path.dirname(os.path.abspath(__file__))\n"
                  "FOUND = glob.glob(os.path.join(HERE, '..', '..', 'lessons', '*'))\n", True),
        "runs": ("import subprocess\nsubprocess.run(['true'])\n", True),
        "asks": ("import shutil, subprocess\nsmi = shutil.which('nvidia-smi')\n"
                 "GPUS = smi and subprocess.run([smi], capture_output=True).stdout\n", True),
    }
    problems = []
    with tempfile.TemporaryDirectory() as root:
        root = os.path.realpath(root)
        package = os.path.join(root, "scripts", "course")
        os.makedirs(package)
        os.makedirs(os.path.join(root, "lessons"))
        with open(os.path.join(root, "lessons", "lesson.json"), "w") as f:
            f.write("{}\n")
        for name, (text, _) in cases.items():
            with open(os.path.join(package, name + ".py"), "w") as f:
                f.write(text)
        with open(os.path.join(package, "__init__.py"), "w") as f:
            f.write("")
        with open(os.path.join(package, "paths.py"), "w") as f:
            f.write("ROOT = '/'\n")
        found = import_problems(root, package)
        for name, (_, caught) in cases.items():
            if any(p.startswith(f"course.{name}:") for p in found) != caught:
                problems.append(f"{name}: {'not caught' if caught else 'caught'} ({found})")
        roots = root_problems(os.path.join(root, "scripts"))
        if roots != ["course/reads.py: sets ROOT; import it from course.paths"]:
            problems.append(f"ROOT set outside course/paths.py: {roots}")
    for problem in problems:
        print(f"check_package.py selftest: {problem}", file=sys.stderr)
    print("check_package.py selftest: " + ("FAILED" if problems else "ok"))
    return 1 if problems else 0
