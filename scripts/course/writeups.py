"""The write-ups' check (scripts/check_writeups.py): each lesson in two parts within the word
budget, with the headings, questions and links the lesson contract asks for."""

import glob
import os
import re

from course.paths import ROOT

WORD_BUDGET = 2500
PARTS = (("README.md", "part A"), ("part_b.md", "part B"))


def prose_words(text):
    """Words outside code blocks, tables and HTML comments, one line or more (a block's marker,
    scripts/doc_commands.py), and the link to the page's Chinese twin, which is not prose."""
    words, code = 0, False
    text = re.sub(r"<!--.*?-->", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    for line in text.splitlines():
        if line.startswith("```"):
            code = not code
            continue
        if code or line.lstrip().startswith("|") or re.fullmatch(r"\[简体中文\]\([^)]*\)", line):
            continue
        words += len(line.split())
    return words


def section(text, heading):
    """The body of the "## heading..." section (up to the next "## "), or None."""
    m = re.search(r"(?m)^## " + re.escape(heading) + r".*\n", text)
    if not m:
        return None
    rest = text[m.end():]
    end = re.search(r"(?m)^## ", rest)
    return rest[:end.start()] if end else rest


def part_problems(number, name, which, text):
    out = []
    where = f"{number} {name}"
    if not re.match(rf"# Lesson {number}, {which}: \S", text):
        out.append(f"{where}: the first line must be '# Lesson {number}, {which}: ...'")
    other = "part_b.md" if name == "README.md" else "README.md"
    if f"]({other}" not in text:
        out.append(f"{where}: no link to the other part ({other})")
    learn = section(text, "What you will learn")
    first = re.search(r"(?m)^## .*", text)
    if learn is None or not first.group(0).startswith("## What you will learn"):
        out.append(f"{where}: its first section must be 'What you will learn'")
    else:
        bullets = len(re.findall(r"(?m)^- ", learn))
        if not 3 <= bullets <= 5:
            out.append(f"{where}: 'What you will learn' has {bullets} bullets, not 3 to 5")
        if not re.search(r"(?m)^\*\*What you need:\*\* \S", learn):
            out.append(f"{where}: no '**What you need:**' line after what you will learn")
        if not re.search(r"(?m)^\*\*Time:\*\* .*\bminutes\b", learn):
            out.append(f"{where}: no '**Time:** ... minutes' line after what you will learn")
    questions = section(text, "Check your understanding")
    if questions is None:
        out.append(f"{where}: no 'Check your understanding' section")
    else:
        blocks = re.findall(r"(?s)<details>\s*<summary>(.*?)</summary>(.*?)</details>", questions)
        if not 3 <= len(blocks) <= 5:
            out.append(f"{where}: {len(blocks)} check questions, not 3 to 5")
        if any(not answer.strip() for _, answer in blocks):
            out.append(f"{where}: a check question has no answer")
        if not any("Predict" in question for question, _ in blocks):
            out.append(f"{where}: no check question asks to predict a figure ('Predict')")
    if name == "README.md" and section(text, "Results") is None:
        out.append(f"{where}: no 'Results' section (the lesson's table at the source's size)")
    words = prose_words(text)
    if words > WORD_BUDGET:
        out.append(f"{where}: {words} words of prose, over the budget of {WORD_BUDGET}")
    if name == "part_b.md":
        run = section(text, "Run it on your GPU")
        if run is None:
            out.append(f"{where}: no 'Run it on your GPU' section")
        else:
            if f"python3 scripts/compare.py {number}" not in run:
                out.append(f"{where}: 'Run it on your GPU' does not give "
                           f"'python3 scripts/compare.py {number}'")
            if "../../docs/your_gpu.md" not in run:
                out.append(f"{where}: 'Run it on your GPU' does not link the checklist "
                           "(../../docs/your_gpu.md)")
    return out


def lesson_problems(folder):
    number = os.path.basename(folder)[:2]
    out = []
    for name, which in PARTS:
        path = os.path.join(folder, name)
        if not os.path.exists(path):
            out.append(f"{number}: no {name} ({which})")
            continue
        with open(path, encoding="utf-8") as f:
            out += part_problems(number, name, which, f.read())
    appendix = os.path.join(folder, "appendix.md")
    if not os.path.exists(appendix):
        out.append(f"{number}: no appendix.md")
    else:
        with open(appendix, encoding="utf-8") as f:
            if not f.read().startswith(f"# Lesson {number}, appendix"):
                out.append(f"{number} appendix.md: the first line must be '# Lesson {number}, "
                           "appendix...'")
    return out


def lessons():
    return sorted(d for d in glob.glob(os.path.join(ROOT, "lessons", "[0-9][0-9]_*"))
                  if os.path.isdir(d))


def selftest():
    good = ("# Lesson 09, part B: x\n\n[part A](README.md)\n\n## What you will learn\n\n- a\n- b\n"
            "- c\n\n**What you need:** part A.\n\n**Time:** about 30 minutes.\n\n## Version 3\n\n"
            "text\n\n## Run it on your GPU\n\n```\npython3 scripts/compare.py 09\n```\n"
            "[the checklist](../../docs/your_gpu.md)\n\n## Check your understanding\n\n"
            + "".join(f"<details>\n<summary>{q}</summary>\n\nanswer {i}\n</details>\n\n"
                      for i, q in enumerate(["Predict: how fast?", "why?", "what?"])))
    cases = {
        "no problem": (good, None),
        "a title without its part": (good.replace(", part B:", ":"), "the first line"),
        "no link to part A": (good.replace("[part A](README.md)", "part A"), "no link"),
        "two bullets": (good.replace("- c\n", ""), "2 bullets"),
        "no time": (good.replace("**Time:** about 30 minutes.", ""), "'**Time:**"),
        "no need": (good.replace("**What you need:** part A.", ""), "What you need"),
        "two questions": (re.sub(r"(?s)<details>\n<summary>what\?.*?</details>", "", good),
                          "2 check questions"),
        "no prediction": (good.replace("Predict: how fast?", "how fast?"), "predict"),
        "an empty answer": (good.replace("answer 1", ""), "no answer"),
        "too long": (good.replace("text", "word " * (WORD_BUDGET + 1)), "over the budget"),
        "within the budget, a long comment aside": (good.replace(
            "text", "word " * (WORD_BUDGET - 100) + "\n<!-- commands: cpu;\n" + "x " * 100
            + "\n-->\n<!--s-->1 ms<!--/s-->"), None),
        "no compare command": (good.replace("compare.py 09", "compare.py"), "compare.py 09"),
        "no checklist": (good.replace("../../docs/your_gpu.md", "x.md"), "checklist"),
        "learn not first": (good.replace("## What you will learn", "## Intro\n\n## What you "
                                         "will learn"), "first section"),
    }
    failed = []
    for name, (text, expect) in cases.items():
        found = part_problems("09", "part_b.md", "part B", text)
        if expect is None and found:
            failed.append(f"{name}: reported {found}")
        if expect is not None and not any(expect in p for p in found):
            failed.append(f"{name}: not caught (expected '{expect}', got {found})")
    part_a = good.replace("part B", "part A").replace("[part A](README.md)", "[part B](part_b.md)")
    if part_problems("09", "README.md", "part A", part_a + "\n## Results\n\ntable\n"):
        failed.append("a good part A with its Results was reported")
    if not any("'Results'" in p for p in part_problems("09", "README.md", "part A", part_a)):
        failed.append("a part A without Results was not caught")
    for line in failed:
        print("check_writeups.py selftest: FAILED:", line)
    if not failed:
        print(f"check_writeups.py selftest: passed ({len(cases)} defects caught, good parts "
              "pass)")
    return 1 if failed else 0


def check(words=False):
    """Prints one line per problem of every lesson's write-up, or that there are none; with
    `words`, each lesson's count of prose words first. The exit status."""
    problems = []
    for folder in lessons():
        problems += lesson_problems(folder)
        if words:
            counts = []
            for name, which in PARTS:
                path = os.path.join(folder, name)
                if os.path.exists(path):
                    with open(path, encoding="utf-8") as f:
                        counts.append(f"{which} {prose_words(f.read())}")
            print(f"{os.path.basename(folder)}: {', '.join(counts)} words of prose")
    for p in problems:
        print(p)
    if not problems:
        print(f"check_writeups.py: {len(lessons())} lessons, each in two parts within "
              f"{WORD_BUDGET} words, with their questions")
    return 1 if problems else 0

