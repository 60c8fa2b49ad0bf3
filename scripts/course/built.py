"""A check that reads what the build makes (a test program, an answer's PTX) and finds it not
there yet: one line that names the file and the command that builds it, and an exit status of its
own (NOT_BUILT), in place of a traceback or an OSError (scripts/time_answer.py,
scripts/check_compiled.py)."""

import json
import os
import shlex

from course.paths import ROOT

NOT_BUILT = 3  # the exit status of a check whose input is not built yet


def build_folder(path):
    """The CMake build folder that holds `path` (the nearest folder above it with a
    CMakeCache.txt), or None."""
    folder = os.path.dirname(os.path.abspath(path))
    while True:
        if os.path.isfile(os.path.join(folder, "CMakeCache.txt")):
            return folder
        above = os.path.dirname(folder)
        if above == folder:
            return None
        folder = above


def target_of(path, build):
    """The CMake target that makes `path` inside the build folder `build`, as the course's build
    lays its files out: a program in tests/ or bin/ is its target's name; a file under
    CMakeFiles/<target>.dir/ (an object, a PTX file) is <target>'s. None if neither."""
    parts = os.path.relpath(os.path.abspath(path), build).split(os.sep)
    if len(parts) == 2 and parts[0] in ("tests", "bin"):
        return parts[1]
    for above, part in zip(parts, parts[1:]):
        if above == "CMakeFiles" and part.endswith(".dir") and len(part) > 4:
            return part[:-4]
    return None


def build_presets(root):
    """The names of the build presets of the repository at `root` (CMakePresets.json)."""
    try:
        with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
            presets = json.load(f).get("buildPresets", [])
    except (OSError, ValueError):
        return set()
    return {p.get("name") for p in presets if not p.get("hidden")}


def build_command(paths, root=ROOT):
    """The command that builds the files `paths`: `cmake --build --preset NAME` for a build in
    <root>/build/NAME (a preset's folder), else `cmake --build <folder>`, with --target and the
    targets that make them when the layout names them (target_of)."""
    build = build_folder(paths[0])
    if build is None:
        return "cmake --build --preset default"
    name = os.path.basename(build)
    if (os.path.realpath(os.path.dirname(build)) == os.path.realpath(os.path.join(root, "build"))
            and name in build_presets(root)):
        command = f"cmake --build --preset {name}"
    else:
        command = f"cmake --build {shlex.quote(shown(build, root))}"
    targets = []
    for path in paths:
        target = target_of(path, build_folder(path) or build)
        if target is None:
            return command
        if target not in targets:
            targets.append(target)
    return f"{command} --target {' '.join(targets)}"


def shown(path, root=ROOT):
    """`path` as the line shows it: from the repository's root when it is inside it."""
    full = os.path.abspath(path)
    rel = os.path.relpath(full, root)
    return full if rel.startswith(os.pardir) else rel


def missing_line(prog, paths, root=ROOT):
    """The one line for the files `paths` of which none may be missing, or None when all are
    there: "<prog>: not built yet: <files>: run <command>"."""
    gone = [p for p in paths if not os.path.exists(p)]
    if not gone:
        return None
    files = ", ".join(shown(p, root) for p in gone)
    return f"{prog}: not built yet: {files}: run {build_command(gone, root)}"


def selftest():
    """The line for a program, a PTX file and two files at once, in a preset's build folder and in
    another, and none when every file is there."""
    import tempfile
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "CMakePresets.json"), "w", encoding="utf-8") as f:
            json.dump({"buildPresets": [{"name": "default"}, {"name": "hidden", "hidden": True}]},
                      f)
        preset = os.path.join(tmp, "build", "default")
        other = os.path.join(tmp, "elsewhere")
        for build in (preset, other):
            os.makedirs(os.path.join(build, "tests"))
            open(os.path.join(build, "CMakeCache.txt"), "w").close()
        program = os.path.join(preset, "tests", "solution01_1")
        ptx = os.path.join(other, "lessons", "01_x", "CMakeFiles", "exercise01_1_ptx.dir",
                           "__", "harness.ptx")
        cases = [
            ([program], "p: not built yet: build/default/tests/solution01_1: run cmake --build "
                        "--preset default --target solution01_1"),
            ([ptx], "p: not built yet: elsewhere/lessons/01_x/CMakeFiles/exercise01_1_ptx.dir/__/"
                    "harness.ptx: run cmake --build elsewhere --target exercise01_1_ptx"),
            ([os.path.join(preset, "tests", "exercise01_1"), program],
             "p: not built yet: build/default/tests/exercise01_1, build/default/tests/solution01_1:"
             " run cmake --build --preset default --target exercise01_1 solution01_1"),
            ([os.path.join(preset, "notes.txt")],
             "p: not built yet: build/default/notes.txt: run cmake --build --preset default"),
            ([os.path.join(tmp, "nowhere", "x")],
             "p: not built yet: nowhere/x: run cmake --build --preset default"),
        ]
        for paths, want in cases:
            got = missing_line("p", paths, tmp)
            if got != want:
                problems.append(f"expected {want!r}, got {got!r}")
        open(program, "w").close()
        if missing_line("p", [program], tmp) is not None:
            problems.append("a file that is there called not built")
    return problems
