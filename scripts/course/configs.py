"""Every build configuration the README, docs/ and the write-ups tell a user to pass
(scripts/check_configs.py): the list, the check that the docs name no option or preset the list
lacks, and the run that configures each one in a scratch copy of the repository (and builds the
targets it adds, where a CPU can)."""

import os
import re
import subprocess
import tempfile
import time
from dataclasses import dataclass

from course import cli, tree
from course.paths import ROOT

# The optional libraries a run needs, by the name of its option: what check_configs.py run takes.
INPUTS = {
    "cuco": "cuCollections' include folder (holds cuco/static_map.cuh)",
    "cccl": "the cuda-cccl package's cuda/cccl/headers/include folder (CCCL 3.3 or later)",
    "nvbench": "the cuda-bench package's cuda/bench/cu<major>/nvbench/lib/cmake/nvbench folder",
    "catch2_v3": "a prefix where Catch2 v3 is installed (lib/cmake/Catch2 below it)",
    "cmake_nvbench": "a cmake 3.30.4 or newer, which NVBench's CMake package needs",
}


@dataclass(frozen=True)
class Config:
    """One documented configuration: how it is configured, what it must say, what it builds."""
    name: str
    preset: str  # the configure preset
    args: tuple = ()  # more cmake arguments; "{cuco}" and so on name an input
    needs: tuple = ()  # the INPUTS it uses
    says: tuple = ()  # regexes the configure output must match
    says_not: tuple = ()  # regexes it must not match
    build: tuple = ()  # targets to build
    test_presets: tuple = ()  # test presets that must list tests once it is configured
    covers: tuple = ()  # the options (-DNAME) and presets (preset:NAME) the docs name, covered here
    own_dir: bool = False  # its own build folder (build/<name>), not the preset's
    build_when: str = ""  # a regex the configure output must match for `build` to be built


NO_NVBENCH = r"NVBench not found|lessonNN_nvbench programs \(bench/\) are skipped"
CONFIGS = (
    Config("default", "default", says=(r"Catch2 2\.[0-9.]+ \(v2\) for the tests",),
           test_presets=("default", "exercises", "profile"),
           covers=("preset:default", "preset:exercises", "preset:profile")),
    Config("debug", "debug", build=("lesson01",), test_presets=("debug",),
           covers=("preset:debug",)),
    Config("ci", "ci", test_presets=("ci",), covers=("preset:ci",)),
    Config("ptx75", "ptx75", build=("lesson01",), test_presets=("ptx75",),
           covers=("preset:ptx75",)),
    Config("ptx80", "ptx80", build=("lesson01",), test_presets=("ptx80",),
           covers=("preset:ptx80",)),
    Config("ptx86", "ptx86", build=("lesson01",), test_presets=("ptx86",),
           covers=("preset:ptx86",)),
    Config("sm90", "default", ("-DCMAKE_CUDA_ARCHITECTURES=90",), build=("lesson01",),
           own_dir=True,
           covers=("CMAKE_CUDA_ARCHITECTURES",)),
    Config("cuco", "default", ("-DCOURSE_CUCO_INCLUDE_DIR={cuco}",), needs=("cuco",),
           says=(r"Lesson 04 uses the cuco headers in ",),
           build=("lesson04", "test_lesson04_cuco"), own_dir=True,
           covers=("COURSE_CUCO_INCLUDE_DIR",)),
    Config("cccl", "default", ("-DCOURSE_CCCL_INCLUDE_DIR={cccl}",), needs=("cccl",),
           says=(r"Lesson 06 uses the CCCL headers in ",), build=("lesson06",), own_dir=True,
           covers=("COURSE_CCCL_INCLUDE_DIR",)),
    Config("nvbench", "default", ("-Dnvbench_DIR={nvbench}",), needs=("nvbench", "cmake_nvbench"),
           # Without a GPU driver there is no NVML, which NVBench links: found, and skipped.
           says=(r"NVBench [0-9.]+: building the lessonNN_nvbench programs|NVBench found \(\S+"
                 r"nvbench-config.cmake\), but not NVML",),
           build=("lesson01_nvbench",), build_when=r"building the lessonNN_nvbench programs",
           own_dir=True, covers=("nvbench_DIR",)),
    Config("nvbench off", "default", ("-DCOURSE_NVBENCH=OFF", "-Dnvbench_DIR={nvbench}"),
           needs=("nvbench", "cmake_nvbench"), says_not=(r"NVBench [0-9.]+: building",),
           own_dir=True, covers=("COURSE_NVBENCH",)),
    Config("nccl off", "default", ("-DCOURSE_NCCL=OFF",), says_not=(r"Lesson 07: NCCL /",),
           build=("lesson07",), own_dir=True, covers=("COURSE_NCCL",)),
    Config("nccl root", "default", ("-DNCCL_ROOT={nccl_root}",),
           says=(r"Lesson 07: NCCL {nccl_root}",), own_dir=True, covers=("NCCL_ROOT",)),
    Config("no tests", "default", ("-DCOURSE_BUILD_TESTS=OFF",), says_not=(r"for the tests",),
           build=("lesson01",), own_dir=True, covers=("COURSE_BUILD_TESTS",)),
    Config("catch2 v3", "default", ("-DCMAKE_PREFIX_PATH={catch2_v3}",), needs=("catch2_v3",),
           says=(r"Catch2 3\.[0-9.]+ \(v3\) for the tests",), build=("test_common",),
           own_dir=True, covers=("CMAKE_PREFIX_PATH",)),
)

# Where the docs name configurations: every English page (the Chinese twins say the same, and a
# test keeps them in step) but the claims' tables and the committed run records.
DOC_PATTERNS = ("README.md", "docs/*.md", "lessons/*/*.md", "solutions/*/*.md", "bench/*.md")
OPTION = re.compile(r"(?<![\w-])-D([A-Za-z_][A-Za-z0-9_]*)")
PRESET = re.compile(r"--preset[ =]+([a-z][a-z0-9_-]*)")


def doc_files():
    import glob
    files = []
    for pattern in DOC_PATTERNS:
        files += [f for f in sorted(glob.glob(os.path.join(ROOT, pattern)))
                  if not f.endswith(".zh-CN.md")]
    return files


def named_in(text):
    """The options (NAME) and presets (preset:NAME) a text tells a user to pass."""
    return ({m.group(1) for m in OPTION.finditer(text)}
            | {"preset:" + m.group(1) for m in PRESET.finditer(text)})


def uncovered(texts, configs=CONFIGS):
    """(file, name) for each option or preset a text names that no configuration covers."""
    covered = {c for config in configs for c in config.covers}
    return sorted((path, name) for path, text in texts for name in named_in(text)
                  if name not in covered)


def check_docs():
    texts = [(os.path.relpath(f, ROOT), open(f, encoding="utf-8").read()) for f in doc_files()]
    missing = uncovered(texts)
    for path, name in missing:
        print(f"{path}: names {name}, which no configuration in scripts/course/configs.py "
              "covers: add one (or a 'covers' entry to the one that tests it)")
    if not missing:
        print(f"every option and preset the docs name is configured by check_configs.py run "
              f"({len(texts)} pages, {len(CONFIGS)} configurations)")
    return 1 if missing else 0


def selftest():
    """The docs check catches an option and a preset no configuration covers, and passes a page
    that names only covered ones."""
    problems = []
    good = "cmake --preset default -DCOURSE_CUCO_INCLUDE_DIR=x; pass -DCMAKE_PREFIX_PATH"
    if uncovered([("good.md", good)]):
        problems.append(f"a page of covered names was refused: {uncovered([('good.md', good)])}")
    bad = "cmake --preset fast -DCOURSE_TURBO=ON"
    found = uncovered([("bad.md", bad)])
    if found != [("bad.md", "COURSE_TURBO"), ("bad.md", "preset:fast")]:
        problems.append(f"a page of uncovered names gave {found}")
    dropped = tuple(c for c in CONFIGS if c.name != "cuco")
    if uncovered([("good.md", good)], dropped) != [("good.md", "COURSE_CUCO_INCLUDE_DIR")]:
        problems.append("dropping the cuco configuration did not make its option uncovered")
    for p in problems:
        print("selftest FAILED: " + p)
    if not problems:
        print("selftest passed: uncovered options and presets are caught, covered ones are not")
    return 1 if problems else 0


def nccl_root():
    """The prefix of the NCCL the build finds by itself, for the NCCL_ROOT configuration."""
    for prefix in ("/usr/local", "/usr", "/usr/local/cuda"):
        for lib in ("lib64", "lib", "lib/x86_64-linux-gnu"):
            if os.path.exists(os.path.join(prefix, lib, "libnccl.so")) and \
                    os.path.exists(os.path.join(prefix, "include", "nccl.h")):
                return prefix
    return None


def run(inputs, only, jobs):
    """Configures each configuration of CONFIGS (or those named in `only`) in one scratch copy,
    builds its targets, and lists its test presets. `inputs` maps INPUTS' names to paths. The
    exit status: 0 when each did what it must, 1 otherwise, 2 when an input is missing."""
    chosen = [c for c in CONFIGS if not only or c.name in only]
    unknown = set(only) - {c.name for c in CONFIGS}
    if unknown:
        return cli.refuse("check_configs.py", f"no configuration named "
                          f"{', '.join(sorted(unknown))} (there are: "
                          f"{', '.join(c.name for c in CONFIGS)})")
    values = dict(inputs)
    values["nccl_root"] = nccl_root()
    for config in chosen:
        for need in config.needs:
            if not values.get(need):
                return cli.refuse("check_configs.py", f"the '{config.name}' configuration needs "
                                  f"--{need.replace('_', '-')} ({INPUTS[need]})")
        if "{nccl_root}" in " ".join(config.args) and not values["nccl_root"]:
            return cli.refuse("check_configs.py", "the 'nccl root' configuration needs NCCL "
                              "installed (libnccl.so and nccl.h under /usr/local or /usr)")
    failed = []
    with tempfile.TemporaryDirectory(prefix="course-configs-") as scratch:
        # The presets write build/ in the copy, never in the checkout.
        tree.copy_files(tree.repository_files(), scratch)
        print(f"configuring {len(chosen)} configurations in a copy of the repository ({scratch})",
              flush=True)
        for config in chosen:
            started = time.time()
            problem = run_one(config, values, scratch, jobs)
            mark = "ok" if problem is None else "FAILED: " + problem
            print(f"  {config.name:<12} {time.time() - started:6.1f} s  {mark}", flush=True)
            if problem is not None:
                failed.append(config.name)
    print(f"{len(chosen) - len(failed)} passed, {len(failed)} failed")
    return 1 if failed else 0


def run_one(config, values, scratch, jobs):
    """None when `config` configured, said what it must, built and listed its tests; else why
    not, in a line (the tool's own output follows it on stdout)."""
    args = [a.format(**values) for a in config.args]
    cmake = values.get("cmake_nvbench") if "cmake_nvbench" in config.needs else "cmake"
    build_dir = os.path.join(scratch, "build", config.name.replace(" ", "_") if config.own_dir
                             else config.preset)
    command = [cmake, "--preset", config.preset] + args
    if config.own_dir:
        command += ["-B", build_dir]
    done = subprocess.run(command, cwd=scratch, capture_output=True, text=True)
    output = done.stdout + done.stderr
    if done.returncode != 0:
        print(output[-4000:])
        return f"the configure exited {done.returncode}: {' '.join(command)}"
    for pattern in config.says:
        if not re.search(pattern.format(**values), output):
            print(output[-4000:])
            return f"the configure did not say /{pattern.format(**values)}/"
    for pattern in config.says_not:
        if re.search(pattern.format(**values), output):
            return f"the configure said /{pattern.format(**values)}/, which it must not"
    if config.build and (not config.build_when or re.search(config.build_when, output)):
        built = subprocess.run([cmake, "--build", build_dir, "-j", str(jobs), "--target"]
                               + list(config.build), cwd=scratch, capture_output=True, text=True)
        if built.returncode != 0:
            print((built.stdout + built.stderr)[-4000:])
            return f"building {' '.join(config.build)} failed"
    for preset in config.test_presets:
        listed = subprocess.run(["ctest", "--preset", preset, "-N"], cwd=scratch,
                                capture_output=True, text=True)
        count = re.search(r"Total Tests: ([0-9]+)", listed.stdout)
        if listed.returncode != 0 or not count or int(count.group(1)) == 0:
            print((listed.stdout + listed.stderr)[-2000:])
            return f"ctest --preset {preset} -N listed no tests"
    return None
