"""The lesson model: each lesson's folder (lessons/NN_*/) and its lesson.json, as dataclasses.

    {"name": "top-k", "teaches": "...", "source": "...", "concepts": "...", "builds_on": "05",
     "terms": ["..."], "glance": "lesson06_k10.csv", "compare": "lesson06_k10.csv",
     "zh-CN": {"name": "...", "teaches": "...", "source": "...", "concepts": "...",
               "builds_on": "..."},             # the same fields in Chinese, for the twins
     "runs": [{"log": "lesson06_k10", "program": "lesson06", "args": "--k 10 --csv ...",
               "status": 1, "why": "...",     # status (default 0): the exit the run must give
               "gpus": 2}],                   # gpus (default 1): the GPUs the run needs
     "charts": [{"file": "lesson06.png", "title": "...", "csvs": ["lesson06_k10.csv"]}]}

A run that writes a CSV says so with --csv; its log is the program's output. A chart whose csvs
start with "--curve" draws a time-against-size chart from a sweep's CSV, "--scaling" the speed-up
against the GPUs from runs on 1, 2, 4... GPUs (plot.py). Fields this model does not name are kept
in `extra`. The course's one list of lessons is its folders: load() reads them, in order.
"""

import glob
import json
import os
import re
from dataclasses import dataclass, field

from course.paths import ROOT


@dataclass(frozen=True)
class Run:
    """One benchmark run of a lesson (bench.py runs it with the results folder as its working
    folder)."""
    lesson: str  # the lesson's number, "06"
    log: str  # the log's file name without .txt
    program: str  # a program of the build's bin/, or python3
    args: str  # its arguments; {root} stands for the repository's root
    status: int = 0  # the exit status it must give
    gpus: int = 1  # the GPUs it needs
    why: str = ""  # why its status is not 0


@dataclass(frozen=True)
class Chart:
    """One chart of a lesson (plot.py draws it from the CSVs of its runs)."""
    lesson: str
    file: str
    title: str
    csvs: tuple  # the CSVs of its bars, after "--curve", "--scaling" or "--busbw" if one leads


@dataclass(frozen=True)
class Lesson:
    number: str  # "06", from the folder's name
    dir: str  # the folder, absolute
    name: str = ""
    teaches: str = ""
    source: str = ""
    concepts: str = ""
    builds_on: str = ""
    glance: str = ""  # the CSV (or CSVs joined by "+", "#vN" a library) of its glance row
    compare: str = ""  # the CSV compare.py compares, when not the glance's first
    terms: tuple = ()
    runs: tuple = ()
    charts: tuple = ()
    zh: dict = field(default_factory=dict)  # "zh-CN": name, teaches... in Chinese (the twins)
    extra: dict = field(default_factory=dict)  # the lesson.json fields not named above

    def text(self, key, chinese=False):
        """A field of lesson.json in English, or in Chinese from its "zh-CN" (for the X.zh-CN.md
        twins' generated tables); a Chinese field that is missing is an error."""
        if not chinese:
            return getattr(self, key)
        if not self.zh.get(key):
            raise ValueError(f"{os.path.relpath(self.dir, ROOT)}/lesson.json has no \"zh-CN\" "
                             f"\"{key}\" (the Chinese pages' tables need it: docs/authoring.md)")
        return self.zh[key]

    def compared_run(self):
        """(csv name, program, arguments as a list) of the run that compare.py and timer_check.py
        repeat: the one that writes the CSV "compare" names, or else the glance's first."""
        csv_name = self.compare or self.glance.split("+")[0]
        for run in self.runs:
            args = run.args.split()
            if "--csv" in args and args[args.index("--csv") + 1] == csv_name:
                return csv_name, run.program, args
        raise SystemExit(f"compare.py: error: lesson {self.number}'s lesson.json runs nothing "
                         f"that writes {csv_name}")

    def has_nvbench_program(self):
        """Whether the build makes lessonNN_nvbench (with NVBench found): its CMakeLists.txt's
        course_add_lesson says NO_NVBENCH otherwise (lesson 07, whose versions run on several
        GPUs). Read from CMake, so the two cannot disagree."""
        with open(os.path.join(self.dir, "CMakeLists.txt"), encoding="utf-8") as f:
            call = re.search(r"course_add_lesson\(\s*\d\d\b([^)]*)\)", f.read())
        return call is None or "NO_NVBENCH" not in call.group(1).split()


RUN_FIELDS = ("log", "program", "args", "status", "gpus", "why")
CHART_FIELDS = ("file", "title")
LESSON_FIELDS = ("name", "teaches", "source", "concepts", "builds_on", "glance", "compare")


def from_json(folder, meta):
    """The Lesson of a folder, from its parsed lesson.json."""
    number = os.path.basename(folder)[:2]
    runs = tuple(Run(lesson=number, **{k: r[k] for k in RUN_FIELDS if k in r})
                 for r in meta.get("runs", []))
    charts = tuple(Chart(lesson=number, csvs=tuple(c["csvs"]),
                         **{k: c[k] for k in CHART_FIELDS})
                   for c in meta.get("charts", []))
    known = set(LESSON_FIELDS) | {"terms", "runs", "charts", "zh-CN"}
    return Lesson(number=number, dir=folder, terms=tuple(meta.get("terms", [])), runs=runs,
                  zh=dict(meta.get("zh-CN", {})),
                  charts=charts, extra={k: v for k, v in meta.items() if k not in known},
                  **{k: meta[k] for k in LESSON_FIELDS if k in meta})


def load(root=ROOT):
    """Every lesson under root/lessons/, in the order of their folders."""
    found = []
    for path in sorted(glob.glob(os.path.join(root, "lessons", "[0-9][0-9]_*", "lesson.json"))):
        with open(path) as f:
            found.append(from_json(os.path.dirname(path), json.load(f)))
    return found


def by_number(lessons):
    """{number: Lesson}."""
    return {lesson.number: lesson for lesson in lessons}
