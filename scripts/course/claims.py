"""The claims files' check (scripts/check_claims.py): each file of docs/claims/ names results that
exist, and every Chinese quotation in the course's text matches its record. A Chinese twin
(X.zh-CN.md, scripts/check_translations.py) is Chinese throughout; its quotations are checked
against the records of its English part X.md, which it must quote word for word too."""

import glob
import os
import re
import tempfile

from course.paths import ROOT
from course.translations import SUFFIX, ZH_LINK, english_of

CLAIMS_DIR = "docs/claims"
EXEMPT = {"docs/glossary.md"}  # its Chinese is terms, not quotations
RESULTS = re.compile(r"docs/results/[A-Za-z0-9_./+-]*[A-Za-z0-9_+-]")
QUOTE = re.compile(r"「([^」\n]*)」")
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def parts(root):
    """The files whose sentences the claims cover, relative to root."""
    found = [p for p in ("README.md", "README" + SUFFIX) if os.path.isfile(os.path.join(root, p))]
    for pattern in ("docs/*.md", "lessons/*/*.md", "solutions/*/ANSWERS.md",
                    "solutions/*/ANSWERS" + SUFFIX):
        found += sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, pattern)))
    return found


def read(root, path):
    with open(os.path.join(root, path), encoding="utf-8") as f:
        return f.read()


def squeeze(text):
    return " ".join(text.split())


def quotation_records(path, text):
    """[(id, original, translation, [parts])] of a claims file's "## Quotations" table, and the
    problems in its rows."""
    records, problems = [], []
    m = re.search(r"(?m)^## Quotations\s*$", text)
    if not m:
        return records, problems
    body = text[m.end():]
    end = re.search(r"(?m)^## ", body)
    body = body[:end.start()] if end else body
    for line in body.splitlines():
        if not line.startswith("| ") or line.startswith("| id |") or line.startswith("| ---"):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split(" | ")]
        if len(cells) != 5:
            problems.append(f"{path}: a quotation row needs 5 cells: {line[:60]}")
            continue
        rid, _where, original, translation, quoted_in = cells
        in_parts = [p.strip() for p in quoted_in.split(",") if p.strip()]
        if not original or not in_parts:
            problems.append(f"{path}: quotation {rid}: no original, or no part that quotes it")
            continue
        records.append((rid, original, translation, in_parts))
    return records, problems


def lesson_numbers(root):
    """The NN of every lessons/NN_* folder under root: each lesson needs a claims file."""
    folder = os.path.join(root, "lessons")
    if not os.path.isdir(folder):
        return []
    return sorted(name[:2] for name in os.listdir(folder)
                  if re.match(r"[0-9][0-9]_", name) and os.path.isdir(os.path.join(folder, name)))


def problems(root):
    """Every problem, one line each (empty: none)."""
    out = []
    claims = sorted(glob.glob(os.path.join(root, CLAIMS_DIR, "*.md")))
    names = {os.path.basename(p) for p in claims}
    for nn in lesson_numbers(root):
        if f"{nn}.md" not in names:
            out.append(f"{CLAIMS_DIR}/{nn}.md: missing (lesson {nn} has no claims file)")
    records, ids = [], set()
    for full in claims:
        path = os.path.relpath(full, root)
        text = read(root, path)
        for m in RESULTS.finditer(text):
            if not os.path.exists(os.path.join(root, m.group(0))):
                out.append(f"{path}: names {m.group(0)}, which is not there")
        found, bad = quotation_records(path, text)
        out += bad
        for record in found:
            if record[0] in ids:
                out.append(f"{path}: quotation id {record[0]} is used twice")
            ids.add(record[0])
            records.append((path,) + record)
    texts = {p: read(root, p) for p in parts(root)}
    for path, rid, original, translation, in_parts in records:
        for part in in_parts:
            if part not in texts:
                out.append(f"{path}: quotation {rid} names {part}, which is not a part")
            elif f"「{original}」" not in texts[part]:
                out.append(f"{part}: quotation {rid} of {path} is not there word for word: "
                           f"「{original}」")
            elif translation != "-" and squeeze(translation) not in squeeze(texts[part]):
                out.append(f"{part}: quotation {rid} lacks its recorded translation "
                           f"\"{translation}\"")
            # The Chinese twin of a part quotes the source as the part does (its reader needs
            # no translation): a record of X.md holds for X.zh-CN.md too.
            twin = part[:-len(".md")] + SUFFIX
            if twin in texts and f"「{original}」" not in texts[twin]:
                out.append(f"{twin}: quotation {rid} of {path} (for its English twin {part}) is "
                           f"not there word for word: 「{original}」")
    for part, text in texts.items():
        chinese = part.endswith(SUFFIX)
        for line_no, line in enumerate(text.splitlines(), 1):
            if line.count("「") != line.count("」"):
                out.append(f"{part}:{line_no}: a quotation must open and close on one line")
        for m in QUOTE.finditer(text):
            if not any(m.group(1) == r[2] and (part in r[4] or chinese and english_of(part) in r[4])
                       for r in records):
                line_no = text.count("\n", 0, m.start()) + 1
                out.append(f"{part}:{line_no}: 「{m.group(1)}」 differs from every quotation "
                           f"recorded for this part{' or its English twin' if chinese else ''} in "
                           f"{CLAIMS_DIR}/ (the corner brackets are for a source's words only)")
        if part not in EXEMPT and not chinese:
            # The link to the Chinese twin, [简体中文](X.zh-CN.md), is the one Chinese allowed.
            bare = ZH_LINK.sub("", QUOTE.sub("", text))
            for m in CJK.finditer(bare):
                line_no = bare.count("\n", 0, m.start()) + 1
                out.append(f"{part}:{line_no}: Chinese text outside a quotation 「...」")
                break
    return out


def check():
    found = problems(ROOT)
    for p in found:
        print(p)
    if not found:
        print(f"check_claims.py: ok, {len(glob.glob(os.path.join(ROOT, CLAIMS_DIR, '*.md')))} "
              "claims files, every quotation as recorded")
    return 1 if found else 0


def selftest():
    """A small repository that passes, and one broken copy of it per fault that must fail."""
    quote = "其他的地方不用变。"
    claims = ("# Lesson 01\n\n| # | claim | checked against | held |\n| --- | --- | --- | --- |\n"
              "| 1 | the CPU's time | `docs/results/gpu/run.txt` | yes |\n\n## Quotations\n\n"
              "| id | where in the source | original | translation | quoted in |\n"
              "| --- | --- | --- | --- | --- |\n"
              f"| 01-a | after the second program | {quote} | nothing else needs to change | "
              "lessons/01_x/README.md |\n")
    part = f"The blog writes 「{quote}」 (\"nothing else needs to change\").\n"
    good = {"docs/results/gpu/run.txt": "a log\n", "lessons/01_x/README.md": part,
            "docs/claims/01.md": claims}
    cases = {
        "the repository as recorded": ({}, False),
        "a claims file naming a results file that is not there": (
            {"docs/claims/01.md": claims.replace("run.txt", "gone.txt")}, True),
        "a part whose quotation differs from its record": (
            {"lessons/01_x/README.md": part.replace("不用变", "不要变")}, True),
        "a part without the recorded translation": (
            {"lessons/01_x/README.md": part.replace("nothing else", "no other")}, True),
        "Chinese outside a quotation": (
            {"lessons/01_x/README.md": part + "共享内存\n"}, True),
        "a quotation broken over two lines": (
            {"lessons/01_x/README.md": part.replace("不用变", "不用\n变")}, True),
        "a lesson without a claims file": ({"lessons/02_y/README.md": "# Lesson 02\n"}, True),
        "an English part's link to its Chinese twin": (
            {"lessons/01_x/README.md": "[简体中文](README.zh-CN.md)\n\n" + part}, False),
        "a Chinese twin quoting as its English part does": (
            {"lessons/01_x/README.zh-CN.md": f"博客写道「{quote}」。\n"}, False),
        "a Chinese twin whose quotation differs from its English part's record": (
            {"lessons/01_x/README.zh-CN.md": f"博客写道「{quote.replace('不用变', '不要变')}」。\n"},
            True),
        "a Chinese twin without its English part's quotation": (
            {"lessons/01_x/README.zh-CN.md": "博客写道：其他的地方不用变。\n"}, True),
    }
    ok = True
    for name, (change, expect) in cases.items():
        with tempfile.TemporaryDirectory() as tmp:
            for path, text in {**good, **change}.items():
                if text is None:
                    continue
                full = os.path.join(tmp, path)
                os.makedirs(os.path.dirname(full), exist_ok=True)
                with open(full, "w", encoding="utf-8") as f:
                    f.write(text)
            got = problems(tmp)
        if bool(got) != expect:
            ok = False
            print(f"check_claims.py selftest: {name}: expected "
                  f"{'a problem' if expect else 'none'}, got {got}")
    print("check_claims.py selftest: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1
