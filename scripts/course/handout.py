"""The students' handout (scripts/handout.py): the repository without solutions/ (the model
answers, their wrong twins and the written answers), and the check that no file in it is a near
copy of a model answer, a few changed lines away."""

import difflib
import glob
import os

from course import tree
from course.paths import ROOT

LEFT_OUT = ("solutions/",)  # what the handout never holds
CODE = (".cu", ".cuh", ".hpp", ".h", ".cpp", ".cc")
NEAR = 5  # a file this many changed lines or fewer from a model answer is a near copy
SMALLEST = 12  # model answers of fewer code lines than this are not compared (too little to tell)


def write(out, root=ROOT):
    """Copies the handout into `out` (which must not exist); returns the files copied."""
    files = [n for n in tree.repository_files(root) if not n.startswith(LEFT_OUT)]
    tree.copy_files(files, out, root)
    return files


def code_lines(text):
    """The lines that carry code: blank lines and // comment lines left out, spaces squeezed."""
    out = []
    for line in text.splitlines():
        line = " ".join(line.split())
        if line and not line.startswith("//"):
            out.append(line)
    return out


def changed_lines(a, b):
    """How many lines of `a` or `b` (whichever is more) are not in the longest matching blocks."""
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    same = sum(block.size for block in matcher.get_matching_blocks())
    return max(len(a), len(b)) - same


def model_answers(root=ROOT):
    """{path: code lines} of every model answer, solutions/NN_topic/<name>.cuh."""
    answers = {}
    for path in sorted(glob.glob(os.path.join(root, "solutions", "[0-9][0-9]_*", "*.cuh"))):
        with open(path, encoding="utf-8") as f:
            lines = code_lines(f.read())
        if len(lines) >= SMALLEST:
            answers[os.path.relpath(path, root)] = lines
    return answers


def own_starter(path):
    """The model answer whose starter `path` is (exercises/NN_topic/<name>.cuh), or None."""
    parts = path.split(os.sep)
    if len(parts) == 3 and parts[0] == "exercises" and parts[2].endswith(".cuh"):
        return os.path.join("solutions", parts[1], parts[2])
    return None


def near_copies(folder, answers):
    """[(file in folder, model answer, changed lines)] for each code file within NEAR lines."""
    found = []
    for dirpath, _, names in os.walk(folder):
        for name in names:
            if not name.endswith(CODE):
                continue
            path = os.path.join(dirpath, name)
            try:
                with open(path, encoding="utf-8") as f:
                    lines = code_lines(f.read())
            except (OSError, UnicodeDecodeError):
                continue
            relative = os.path.relpath(path, folder)
            for answer, model in answers.items():
                if own_starter(relative) == answer:
                    # A starter is its answer's skeleton, a few lines short by design: it is a
                    # copy only if it holds every line of the answer.
                    missing = [line for line in model if line not in set(lines)]
                    if not missing:
                        found.append((relative, answer, 0))
                    continue
                if abs(len(lines) - len(model)) > NEAR:
                    continue
                matcher = difflib.SequenceMatcher(None, lines, model, autojunk=False)
                if matcher.real_quick_ratio() < 0.5 or matcher.quick_ratio() < 0.5:
                    continue
                changed = changed_lines(lines, model)
                if changed <= NEAR:
                    found.append((relative, answer, changed))
    return found


def check(folder, root=ROOT):
    """The exit status of checking a handout in `folder`: 1 when it holds solutions/ or a near
    copy of a model answer, 0 otherwise; a line for each problem."""
    problems = []
    if os.path.exists(os.path.join(folder, "solutions")):
        problems.append(f"{folder} holds solutions/")
    for path, answer, changed in near_copies(folder, model_answers(root)):
        if changed == 0:
            problems.append(f"{path} holds every code line of the model answer {answer}")
        else:
            problems.append(f"{path} is {changed} changed line{'s' if changed != 1 else ''} from "
                            f"the model answer {answer}")
    for p in problems:
        print("handout.py: " + p)
    if not problems:
        print(f"handout.py: {folder} holds no solutions/ and no file within {NEAR} changed lines "
              "of a model answer")
    return 1 if problems else 0
