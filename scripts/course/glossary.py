"""The glossary's check (scripts/check_glossary.py): docs/glossary.md against the terms each
lesson's lesson.json lists and the write-ups that use them."""

import os
import re

from course import lessons as course_lessons
from course.paths import ROOT

ROW = re.compile(r"^\| (?!term \|)(?!---)(.*)\|\s*$", re.M)
LINK = re.compile(r"^\[(\d\d)\]\(\.\./(lessons/(\d\d)_[^/)]+/README\.md)\)$")
CJK = re.compile(r"[\u4e00-\u9fff]")


def rows(text):
    """[(term, chinese, meaning, lesson cell)] of the glossary's table."""
    found = []
    for m in ROW.finditer(text):
        cells = [c.strip() for c in m.group(1).split(" | ")]
        found.append(tuple(cells) if len(cells) == 4 else (m.group(1).strip(), None, None, None))
    return found


def problems(glossary_text, lessons, write_up):
    """Every problem, one line each. `lessons` is {NN: [terms]}; write_up(path) gives a file's
    text."""
    out = []
    seen = {}
    for term, chinese, meaning, lesson in rows(glossary_text):
        if chinese is None:
            out.append(f"'{term}': a row needs 4 cells (term, 中文, meaning, lesson)")
            continue
        if term in seen:
            out.append(f"'{term}': two rows")
        link = LINK.match(lesson)
        if not CJK.search(chinese):
            out.append(f"'{term}': no Chinese term ({chinese!r})")
        if not meaning:
            out.append(f"'{term}': no meaning")
        if not link or link.group(1) != link.group(3):
            out.append(f"'{term}': the lesson cell must be [NN](../lessons/NN_*/README.md), not "
                       f"{lesson!r}")
            continue
        nn, path = link.group(1), link.group(2)
        seen[term] = nn
        text = write_up(path)
        if text is None:
            out.append(f"'{term}': {path} does not exist")
        elif term.lower() not in text.lower():
            out.append(f"'{term}': lesson {nn}'s write-up never says it")
        if term not in lessons.get(nn, []):
            out.append(f"'{term}': lesson {nn}'s lesson.json does not list it under \"terms\"")
    for nn, terms in sorted(lessons.items()):
        for term in terms:
            if term not in seen:
                out.append(f"'{term}' (lesson {nn}'s terms): no row in docs/glossary.md")
            elif seen[term] != nn:
                out.append(f"'{term}' (lesson {nn}'s terms): the glossary names lesson {seen[term]}")
    return out


def read(path):
    full = os.path.join(ROOT, path)
    if not os.path.isfile(full):
        return None
    with open(full, encoding="utf-8") as f:
        return f.read()


def read_writeup(path):
    """A lesson's write-up: part A (README.md, the page the glossary links) and part B."""
    text = read(path)
    if text is not None and path.endswith("README.md"):
        text += read(path[:-len("README.md")] + "part_b.md") or ""
    return text


def check():
    lessons = {lesson.number: list(lesson.terms) for lesson in course_lessons.load()}
    found = problems(read("docs/glossary.md") or "", lessons, read_writeup)
    for p in found:
        print(f"docs/glossary.md: {p}")
    if not found:
        print(f"docs/glossary.md: ok, {sum(len(t) for t in lessons.values())} terms")
    return 1 if found else 0


def selftest():
    """Broken glossaries and lesson lists that the check must catch, and one it must pass."""
    page = "lessons/01_x/README.md"
    texts = {page: "A warp is 32 threads; a block holds warps."}
    good = ("| term | 中文 | what it means | lesson |\n| --- | --- | --- | --- |\n"
            "| warp | 线程束 | 32 threads | [01](../lessons/01_x/README.md) |\n")
    lessons = {"01": ["warp"]}
    cases = {
        "a good glossary": (good, lessons, 0),
        "no Chinese": (good.replace("线程束", "warp"), lessons, 1),
        "a term the write-up never says": (good.replace("| warp |", "| bank |"),
                                           {"01": ["bank"]}, 1),
        "a lesson's term with no row": (good, {"01": ["warp", "block"]}, 1),
        "a row no lesson lists": (good, {"01": []}, 1),
        "a link to another lesson's folder": (good.replace("[01]", "[02]"), lessons, 1),
        "a missing cell": (good.replace(" 线程束 |", ""), lessons, 1),
    }
    ok = True
    for name, (text, terms, expect) in cases.items():
        got = problems(text, terms, texts.get)
        if bool(got) != bool(expect):
            ok = False
            print(f"check_glossary.py selftest: {name}: expected "
                  f"{'a problem' if expect else 'none'}, got {got}")
    print("check_glossary.py selftest: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1
