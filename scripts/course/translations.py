"""The Chinese twins' check (scripts/check_translations.py): every X.zh-CN.md beside an X.md is
the same page in simplified Chinese, kept in step with it (issue 46).

For each pair:
- parity: the same heading levels in the same order, the same pictures (image links), the same
  HTML comments (the generated markers' opening and closing comments, exactly; the
  translated-from comment aside), the same fenced code blocks (byte for byte) and as many check
  questions (<details> blocks) as the English;
- staleness: the Chinese file's first lines hold `<!-- translated-from: X.md @ <commit> -->`,
  and the English file is unchanged since that commit but for its generated parts: its text at
  the commit (`git show <commit>:X.md`) and now are the same once what scripts/results.py writes
  between its markers (the tables, logs and inline figures: GENERATED) is left out, the markers
  kept; so a regenerated table, figure or log leaves the twin in step, and a changed sentence,
  comment, marker (another CSV, regex or results-dir) or quoted source figure (<!--s-->, typed by
  hand) makes it stale;
  without git, in a copy without the history or in a shallow clone, the check says so and
  checks the rest; with the history but without the commit, it fails;
- terms: every docs/glossary.md term (its table and its basic terms) whose English form the
  English prose uses appears in the Chinese prose in the glossary's Chinese form (the first form
  its 中文 cell gives); generated tables, which stay in English, are not prose, and a term used in
  another sense (OTHER_SENSES: "release build"; OTHER_SENSES_AFTER: "sorted by rank", "a code
  block", "`<details>` blocks") is not the term;
- links: the Chinese file opens with a link to its English twin, `[English](X.md)`, and the
  English file opens with a link to the Chinese one, `[简体中文](X.zh-CN.md)` (the only Chinese
  check_claims.py allows in an English part outside a quotation); and the Chinese file's links to
  other pages lead to their Chinese twins where those exist (logs aside), in its generated
  tables too (course.results writes a Chinese page's lesson tables in Chinese, linking to the
  lessons' README.zh-CN.md: README.zh-CN.md's and docs/instructors.zh-CN.md's);
- twins: every page of TWIN_PAGES has its Chinese twin (the README says every page has one):
  README.md, each page of docs/ (docs/results/, the run records, and docs/claims/, the
  fact-checks' records, are not pages and have none), every lesson's pages and answers.

Only the Python standard library and git are used. Nothing is read until a function is called.
"""

import glob
import os
import re
import shutil
import subprocess
import tempfile

from course import glossary, results
from course.paths import ROOT

SUFFIX = ".zh-CN.md"
TRANSLATED_FROM = re.compile(r"<!-- translated-from: (\S+) @ ([0-9a-fA-F]{7,40}) -->")
HEAD_LINES = 5  # the translated-from comment is within the Chinese file's first HEAD_LINES lines
OPENING_LINES = 6  # each language link is within its file's first OPENING_LINES lines of text
# The English file's link to its twin: check_claims.py lets this Chinese stand outside a quotation.
ZH_LINK = re.compile(r"\[简体中文\]\(([^)\s]*\.zh-CN\.md)\)")
EN_LINK = re.compile(r"\[English\]\(([^)\s]*\.md)\)")
COMMENT = re.compile(r"<!--.*?-->", re.S)
IMAGE = re.compile(r"!\[[^\]]*\]\(\s*([^)\s]+)[^)]*\)|<img\s[^>]*src=\"([^\"]+)\"")
HEADING = re.compile(r"^(#{1,6})\s")
DETAILS = re.compile(r"<details>")
INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
HTML_TAG_CODE = re.compile(r"`<(\w+)>`")  # inline code that is an HTML tag: `<details>`
LINK_TARGET = re.compile(r"\]\([^)]*\)")
BASIC_TERM = re.compile(r"^- \*\*(.+?)\*\* \(([^)]*)\)", re.M)
SKIP_DIRS = {"build", "node_modules", "third_party", "_deps"}
# A link to a page ([text](path.md) or [text](path.md#heading)), and a generated log block.
PAGE_LINK = re.compile(r"\[([^\]]*)\]\(([^)\s#]+\.md)(?:#[^)\s]*)?\)")
GENERATED_LOG = re.compile(r"<!--\s*log:.*?<!--\s*/log\s*-->", re.S)
# The English pages that must have a Chinese twin (globs relative to the repository; "docs/*.md"
# leaves out docs/results/ and docs/claims/, records rather than pages).
TWIN_PAGES = ("README.md", "docs/*.md", "lessons/*/*.md", "solutions/*/ANSWERS.md")
# Pages whose twin is still to be written, with why: the check names them on every run, and fails
# once the twin exists and the page is still listed here.
TWIN_PENDING = {}


# What scripts/results.py writes between its markers: a table or log block, a figure, a log's
# match, a percentage (course.results' own patterns; in each, the first group is the opening
# marker and the last the closing one). A source's figure quoted (<!--s-->) is typed, not written.
GENERATED = (results.BLOCK, results.INLINE, results.INLINE_LOG, results.PERCENT)


def without_generated(text):
    """`text` with what scripts/results.py generates left out and its markers kept: what stays is
    what a translator translates or copies, so that a regenerated table, figure or log changes
    nothing here and a changed marker (another CSV, another regex) does."""
    for marker in GENERATED:
        text = marker.sub(lambda m: m.group(1) + m.group(m.re.groups), text)
    return text


def english_of(chinese):
    """X.md for X.zh-CN.md (either relative or absolute)."""
    return chinese[:-len(SUFFIX)] + ".md"


def chinese_of(english):
    return english[:-len(".md")] + SUFFIX


def pairs(root):
    """Every Chinese file under root, relative and sorted (build and hidden folders aside)."""
    found = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in SKIP_DIRS
                         and not d.startswith("build"))
        for name in files:
            if name.endswith(SUFFIX):
                found.append(os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/"))
    return sorted(found)


def split_code(text):
    """(prose, [fenced code blocks]): each block byte for byte, fences included; in the prose
    each block is one line `<code>`, so that a comment or heading in code is not read as prose."""
    prose, blocks, block, fence = [], [], None, None
    for line in text.splitlines(keepends=True):
        stripped = line.lstrip()
        if block is None:
            m = re.match(r"(`{3,}|~{3,})", stripped)
            if m and len(line) - len(stripped) < 4:
                block, fence = [line], m.group(1)
            else:
                prose.append(line)
        else:
            block.append(line)
            if stripped.rstrip("\n").rstrip() == fence[0] * len(stripped.strip()) and \
                    stripped.strip().startswith(fence):
                blocks.append("".join(block))
                prose.append("<code>\n")
                block = None
    if block is not None:  # an unclosed fence runs to the end, as in CommonMark
        blocks.append("".join(block))
    return "".join(prose), blocks


def shape(text):
    """What the two languages must share: {what: [items in order]}."""
    prose, blocks = split_code(text)
    comments = [c for c in COMMENT.findall(prose) if not TRANSLATED_FROM.fullmatch(c)]
    bare = COMMENT.sub("", prose)
    return {
        "heading levels": [len(m.group(1)) for m in
                           (HEADING.match(line) for line in bare.splitlines()) if m],
        "pictures": [a or b for a, b in IMAGE.findall(bare)],
        "comments (generated markers)": comments,
        "fenced code blocks": blocks,
        "check questions (<details> blocks)": len(DETAILS.findall(bare)),
    }


# A generated table (<!-- table ... --> to <!-- /table -->) stays in English in both languages:
# its words are not the prose's.
GENERATED_TABLE = re.compile(r"<!--\s*table\b.*?<!--\s*/table\s*-->", re.S)

# Words that are glossary terms in one sense only: a term followed by one of these is the other
# sense ("a release build" is not the memory order "release").
OTHER_SENSES = {"release": ("build", "builds", "after"), "rank": ("a", "μ")}
# The same, for a term that follows one of these words: "sorted by rank", "a sample of rank m"
# (a key's place in an order: lessons 05 and 06) are not lesson 07's rank, "the closest race"
# (a contest) is not a data race, "a building block", "a code block" and "`<details>` blocks"
# (an HTML tag in inline code reads as its name) are not a thread block, "that file registers a
# backend" is not a register, and "for a release" (of the course) is not the memory order.
OTHER_SENSES_AFTER = {"rank": ("by", "of", "low", "threshold's"), "race": ("closest",),
                      "block": ("building", "code", "details"), "register": ("file",),
                      "release": ("for a",)}


def _code_as_words(match):
    """What an inline code reads as among the words: nothing, or an HTML tag's name."""
    tag = HTML_TAG_CODE.fullmatch(match.group(0))
    return " " + tag.group(1) if tag else " "


def prose_words(text):
    """The text a reader reads as words: code blocks, generated tables, inline code, comments and
    link targets taken out; an HTML tag in inline code reads as its name ("`<details>` blocks":
    "details blocks")."""
    prose, _ = split_code(text)
    prose = GENERATED_TABLE.sub(" ", prose)
    prose = COMMENT.sub(" ", prose)
    prose = INLINE_CODE.sub(_code_as_words, prose)
    return LINK_TARGET.sub("] ", prose)


def glossary_terms(text):
    """[(English, Chinese)] of docs/glossary.md: its table's rows and its basic terms. The Chinese
    is the first form the cell gives ("线程块 (繁體: 區塊)": 线程块; "互斥锁; the book: 互斥体":
    互斥锁)."""
    def first(chinese):
        return re.split(r" \(|;|，", chinese)[0].strip()
    terms = [(term, first(chinese)) for term, chinese, _, _ in glossary.rows(text) if chinese]
    section = text.split("## Basic terms", 1)
    if len(section) == 2:
        terms += [(m.group(1), first(m.group(2))) for m in BASIC_TERM.finditer(section[1])]
    return terms


def uses(term, words):
    """Whether the English prose uses the term, as a word (a plural too); a term with a capital
    past its first letter ("SM", "NaN", "cuBLAS", "L2 cache") only in that case."""
    flags = 0 if term[1:] != term[1:].lower() else re.I
    other = OTHER_SENSES.get(term.lower(), ())
    not_other = "".join(r"(?!\)?[ \t\n]+" + re.escape(w) + r"\b)" for w in other)
    not_after = "".join(r"(?<!\b" + re.escape(w) + space + ")"
                        for w in OTHER_SENSES_AFTER.get(term.lower(), ()) for space in (" ", "\n"))
    pattern = not_after + r"(?<![A-Za-z0-9_-])" + re.escape(term) + r"(?:s|es)?(?![A-Za-z0-9_])" + \
        not_other
    return re.search(pattern, words, flags) is not None


def opening(text):
    """The file's first OPENING_LINES lines that hold text (blank lines and comments aside)."""
    lines = [line for line in COMMENT.sub("", text).splitlines() if line.strip()]
    return "\n".join(lines[:OPENING_LINES])


def git_stale(root, english, commit, git):
    """'' when the English file is as it was at `commit`, else why not (or why it cannot tell)."""
    def run(*args):
        return subprocess.run([git, "-C", root] + list(args), stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True)
    try:
        known = run("cat-file", "-e", f"{commit}^{{commit}}")
    except OSError as e:
        return f"git is not available ({e.strerror}), so whether {english} changed since " \
               f"{commit} cannot be told"
    if known.returncode != 0:
        return f"commit {commit} is not in this repository (a shallow clone, or a wrong id), so " \
               f"whether {english} changed since it cannot be told"
    then = subprocess.run([git, "-C", root, "show", f"{commit}:{english}"], capture_output=True)
    with open(os.path.join(root, english), encoding="utf-8") as f:
        now = f.read()
    if then.returncode != 0 or \
            without_generated(then.stdout.decode("utf-8", "replace")) != without_generated(now):
        return f"{english} changed since {commit}: translate the change, then record the commit " \
               f"(`git log -1 --format=%H -- {english}` once the English is committed)"
    return ""


def staleness_unknown(root, git="git"):
    """Why whether the English changed cannot be told here, or None: no git, a copy of the
    repository without its history (a download, or a copy such as time_commands.py makes), or a
    shallow clone, which lacks the commits the twins record. The check is for those who change the
    pages, who have the history; the rest of the check does not need it."""
    try:
        inside = subprocess.run([git, "-C", root, "rev-parse", "--is-inside-work-tree"],
                                capture_output=True, text=True)
    except OSError as e:
        return f"git is not available ({e.strerror})"
    if inside.returncode != 0 or inside.stdout.strip() != "true":
        return "this copy of the repository has no git history"
    shallow = subprocess.run([git, "-C", root, "rev-parse", "--is-shallow-repository"],
                             capture_output=True, text=True)
    if shallow.stdout.strip() == "true":
        return "this is a shallow clone, without the commits the twins record"
    return None


def pair_problems(root, chinese, terms, git="git", staleness=True):
    """Every problem of one Chinese file (relative to root) and its English twin; without
    `staleness`, all but whether the English changed since the recorded commit."""
    english = english_of(chinese)
    full_en, full_zh = os.path.join(root, english), os.path.join(root, chinese)
    if not os.path.isfile(full_en):
        return [f"{chinese}: no English twin {english}"]
    with open(full_en, encoding="utf-8") as f:
        en = f.read()
    with open(full_zh, encoding="utf-8") as f:
        zh = f.read()
    out = []
    # (a) parity
    en_shape, zh_shape = shape(en), shape(zh)
    for what, items in en_shape.items():
        theirs = zh_shape[what]
        if items == theirs:
            continue
        if isinstance(items, int):
            out.append(f"{chinese}: {theirs} {what}, the English has {items}")
            continue
        at = next((i for i, (a, b) in enumerate(zip(items, theirs)) if a != b),
                  min(len(items), len(theirs)))
        mine = repr(theirs[at])[:80] if at < len(theirs) else "nothing"
        want = repr(items[at])[:80] if at < len(items) else "nothing"
        out.append(f"{chinese}: {what} differ from {english}'s at number {at + 1} "
                   f"({len(theirs)} against {len(items)}): {mine}, the English has {want}")
    # (b) staleness
    m = TRANSLATED_FROM.search("\n".join(zh.splitlines()[:HEAD_LINES]))
    if not m:
        out.append(f"{chinese}: no `<!-- translated-from: {english} @ <commit> -->` in its first "
                   f"{HEAD_LINES} lines")
    elif m.group(1) != english:
        out.append(f"{chinese}: translated from {m.group(1)}, not its twin {english}")
    elif staleness:
        why = git_stale(root, english, m.group(2), git)
        if why:
            out.append(f"{chinese}: {why}")
    # (c) terms
    en_words, zh_words = prose_words(en), prose_words(zh)
    for term, chinese_term in terms:
        if uses(term, en_words) and chinese_term not in zh_words:
            out.append(f"{chinese}: the English says '{term}', and the Chinese never says "
                       f"'{chinese_term}' (docs/glossary.md)")
    # (d) links both ways
    name_en, name_zh = os.path.basename(english), os.path.basename(chinese)
    if name_en not in EN_LINK.findall(opening(zh)):
        out.append(f"{chinese}: does not open with a link to its English twin, "
                   f"[English]({name_en})")
    if name_zh not in ZH_LINK.findall(opening(en)):
        out.append(f"{english}: does not open with a link to its Chinese twin, "
                   f"[简体中文]({name_zh})")
    # (e) a link to another page leads to its Chinese twin, where there is one; in a generated
    # table too, where the generator (scripts/course/results.py) is what to change
    here = os.path.dirname(full_zh)
    tables = "\n".join(GENERATED_TABLE.findall(zh))
    prose, _ = split_code(GENERATED_TABLE.sub(" ", zh))
    prose = GENERATED_LOG.sub(" ", INLINE_CODE.sub(" ", prose))
    for text, where in ((prose, ""), (tables, "'s generated table")):
        for label, target in PAGE_LINK.findall(text):
            if label == "English" or target.endswith(SUFFIX) or "://" in target:
                continue
            if os.path.isfile(os.path.join(here, chinese_of(target))):
                out.append(f"{chinese}{where}: links to {target}, which has a Chinese twin: link "
                           f"to {chinese_of(target)}"
                           + (" (scripts/course/results.py writes the table)" if where else ""))
    return out


def missing_twins(root):
    """Every page of TWIN_PAGES under root without its Chinese twin, one line each."""
    out = []
    for pattern in TWIN_PAGES:
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            if path.endswith(SUFFIX) or os.path.isfile(chinese_of(path)):
                continue
            english = os.path.relpath(path, root).replace(os.sep, "/")
            if english in TWIN_PENDING:
                continue
            out.append(f"{english}: has no Chinese twin {chinese_of(english)} (every page has "
                       "one: translate it, with its translated-from comment)")
    for english in sorted(TWIN_PENDING):
        if os.path.isfile(os.path.join(root, chinese_of(english))):
            out.append(f"{english}: its twin exists now: take it out of TWIN_PENDING "
                       "(scripts/course/translations.py)")
    return out


def problems(root, git="git", staleness=True):
    """Every problem under root, one line each (empty: none)."""
    glossary_path = os.path.join(root, "docs", "glossary.md")
    text = ""
    if os.path.isfile(glossary_path):
        with open(glossary_path, encoding="utf-8") as f:
            text = f.read()
    terms = glossary_terms(text)
    out = []
    for chinese in pairs(root):
        out += pair_problems(root, chinese, terms, git, staleness)
    return out + missing_twins(root)


def check():
    unknown = staleness_unknown(ROOT)
    if unknown:
        print(f"check_translations.py: whether the English changed since each twin's recorded "
              f"commit is not checked: {unknown}")
    found = problems(ROOT, staleness=unknown is None)
    for p in found:
        print(p)
    for english, why in sorted(TWIN_PENDING.items()):
        if os.path.isfile(os.path.join(ROOT, english)):
            print(f"check_translations.py: {english} has no twin yet ({why})")
    if not found:
        print(f"check_translations.py: ok, {len(pairs(ROOT))} Chinese files in step with their "
              "English twins")
    return 1 if found else 0


# The selftest's small repository: a glossary, an English page and its Chinese twin.
_GLOSSARY = ("# Glossary\n\n[简体中文](glossary.zh-CN.md)\n\n"
             "| term | 中文 | what it means | lesson |\n| --- | --- | --- | --- |\n"
             "| warp | 线程束 | 32 threads | [01](../lessons/01_x/README.md) |\n"
             "| SM | 流式多处理器 | a processor | [01](../lessons/01_x/README.md) |\n\n"
             "## Basic terms\n\n- **kernel** (核函数): a function on the GPU.\n")
_GLOSSARY_ZH = ("<!-- translated-from: docs/glossary.md @ {commit} -->\n# 术语表\n\n"
                "[English](glossary.md)\n\n| 术语 | 中文 | 含义 | 课程 |\n| --- | --- | --- | --- |\n"
                "| warp | 线程束 | 32 个线程 | [01](../lessons/01_x/README.md) |\n"
                "| SM | 流式多处理器 | 一个处理器 | [01](../lessons/01_x/README.md) |\n\n"
                "## 基本术语\n\n- **kernel**（核函数）：在 GPU 上运行的函数。\n")
# A page still to be translated, which the selftest names in TWIN_PENDING while it runs.
_PENDING = "docs/pending.md"
_PENDING_EN = "# Pending\n\n[简体中文](pending.zh-CN.md)\n"
# A generated table of lessons, as course.results writes one (its link is the point).
_TABLE = "<!-- table lessons: readme -->\n| 01 | [x]({link}) |\n<!-- /table -->\n"
# Every kind of generated part scripts/results.py writes (a figure, a log's match, a percentage,
# a log block, a table), the folder they read from and a source's figure quoted, in both files.
_RESULTS_DIR = "<!-- results-dir: docs/results/x -->\n\n"
_FIGURES = ("<!--v run.csv v1 median_ms-->0.5<!--/v--> ms, "
            "<!--l run.txt /([0-9.]+)% lost/-->98.1<!--/l-->%, "
            "<!--p a.txt /copy: ([0-9.]+) GB/ of b.txt /Peak: ([0-9]+) GB/-->89.9<!--/p-->%, "
            "<!--s-->150.1 ms<!--/s-->")
_LOG = "<!-- log: run.txt /^v1/ -->\n```\nv1 0.5 ms\n```\n<!-- /log -->\n\n"
_ENGLISH = ("# Lesson 01 exercises\n\n[简体中文](exercises.zh-CN.md)\n\n" + _RESULTS_DIR +
            "A warp's kernel. " + _FIGURES + " per run.\n\n" + _LOG +
            "![the bins](figures/bins.svg)\n\n## 1. One\n\n```\nctest -R \"01 exercise 1\"\n```\n\n"
            "<details>\n<summary>Why?</summary>\n\nBecause.\n</details>\n\n" +
            _TABLE.format(link="exercises.md"))
# {commit} is filled in once the English is committed, so no other braces here.
_CHINESE = ("<!-- translated-from: lessons/01_x/exercises.md @ {commit} -->\n"
            "# 第 01 课 练习\n\n[English](exercises.md)\n\n" + _RESULTS_DIR +
            "一个线程束的核函数。" + _FIGURES + "，每次运行。\n\n" + _LOG +
            "![直方图](figures/bins.svg)\n\n## 1. 一\n\n```\nctest -R \"01 exercise 1\"\n```\n\n"
            "<details>\n<summary>为什么？</summary>\n\n因为。\n</details>\n\n" +
            _TABLE.format(link="exercises.zh-CN.md"))


def _repository(tmp):
    """The selftest's repository in tmp, committed; returns the commit."""
    files = {"docs/glossary.md": _GLOSSARY, "lessons/01_x/exercises.md": _ENGLISH}
    for path, text in files.items():
        os.makedirs(os.path.dirname(os.path.join(tmp, path)), exist_ok=True)
        with open(os.path.join(tmp, path), "w", encoding="utf-8") as f:
            f.write(text)
    git = ["git", "-C", tmp, "-c", "user.name=selftest", "-c", "user.email=selftest@localhost",
           "-c", "commit.gpgsign=false"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "English"]):
        subprocess.run(git + args, check=True, stdout=subprocess.DEVNULL)
    return subprocess.run(git + ["rev-parse", "HEAD"], check=True, capture_output=True,
                          text=True).stdout.strip()


def selftest():
    """A small repository whose Chinese twin passes, and one broken copy per fault that must
    fail with the problem named."""
    en_path, zh_path = "lessons/01_x/exercises.md", "lessons/01_x/exercises.zh-CN.md"
    with tempfile.TemporaryDirectory() as tmp:
        good = os.path.join(tmp, "good")
        os.makedirs(good)
        try:
            commit = _repository(good)
        except (OSError, subprocess.CalledProcessError) as e:
            print(f"check_translations.py selftest: git is needed to make the test repository "
                  f"({e}): FAILED")
            return 1
        zh = _CHINESE.format(commit=commit)
        glossary_zh = _GLOSSARY_ZH.format(commit=commit)
        unplanted = []

        def both(old, new):
            """The English and the twin, each with `old` made `new` (as scripts/results.py update
            changes both; a marker is changed in both by hand): a case that plants nothing fails."""
            if old not in _ENGLISH or old not in zh:
                unplanted.append(old)
            return {en_path: _ENGLISH.replace(old, new), zh_path: zh.replace(old, new)}
        # name: ({path: new text}, the git to call, a phrase the problem must hold, or None)
        cases = {
            "the twin as translated": ({}, "git", None),
            "a heading of another level": ({zh_path: zh.replace("## 1.", "### 1.")}, "git",
                                           "heading levels"),
            "a picture left out": ({zh_path: zh.replace("![直方图](figures/bins.svg)", "")}, "git",
                                   "pictures"),
            "a marker changed": ({zh_path: zh.replace("v1 median_ms", "v1 gbps")}, "git",
                                 "generated markers"),
            "a code block changed by one byte": (
                {zh_path: zh.replace("exercise 1\"", "exercise 2\"")}, "git", "fenced code blocks"),
            "a check question left out": ({zh_path: zh.replace("<details>", "<div>")}, "git",
                                          "check questions"),
            "no translated-from comment": ({zh_path: zh.split("\n", 1)[1]}, "git",
                                           "no `<!-- translated-from"),
            "the English changed since": ({en_path: _ENGLISH.replace("Because.", "Since.")}, "git",
                                          "changed since"),
            # Staleness: only what results.py generates between the markers changed, the twin is
            # in step; a sentence, a marker, the results-dir or a quoted figure, it is stale.
            "only a generated figure changed since": (
                both("median_ms-->0.5<", "median_ms-->0.7<"), "git", None),
            "only a log's match changed since": (both("-->98.1<", "-->97.3<"), "git", None),
            "only a percentage changed since": (both("-->89.9<", "-->91.0<"), "git", None),
            "only a generated log changed since": (both("v1 0.5 ms\n", "v1 0.6 ms\n"), "git",
                                                   None),
            "only a generated table changed since": (both("| 01 | [x]", "| 01 | [y]"), "git", None),
            "a sentence beside a generated figure changed since": (
                {en_path: _ENGLISH.replace("<!--/s--> per run.", "<!--/s--> per call.")}, "git",
                "changed since"),
            "a figure's marker changed since": (both("v1 median_ms", "v2 median_ms"), "git",
                                                "changed since"),
            "a log match's regex changed since": (both("% lost/", "% kept/"), "git",
                                                  "changed since"),
            "a percentage's marker changed since": (both("of b.txt", "of c.txt"), "git",
                                                    "changed since"),
            "a log block's marker changed since": (both("run.txt /^v1/", "run.txt /^v2/"), "git",
                                                   "changed since"),
            "a table's marker changed since": (both("lessons: readme", "lessons: instructors"),
                                               "git", "changed since"),
            "the results-dir changed since": (both("docs/results/x", "docs/results/y"), "git",
                                              "changed since"),
            "a quoted source figure changed since": (both("150.1 ms", "150.2 ms"), "git",
                                                     "changed since"),
            "a commit the repository lacks": ({zh_path: zh.replace(commit, "0" * 40)}, "git",
                                              "is not in this repository"),
            "no git": ({}, os.path.join(tmp, "no-such-git"), "git is not available"),
            "a glossary term in another word": ({zh_path: zh.replace("线程束", "warp")}, "git",
                                                "'线程束'"),
            "a basic term in another word": ({zh_path: zh.replace("核函数", "内核")}, "git",
                                             "'核函数'"),
            "no link to the English": ({zh_path: zh.replace("[English](exercises.md)", "")}, "git",
                                       "link to its English twin"),
            "no link to the Chinese": ({en_path: _ENGLISH.replace("[简体中文](exercises.zh-CN.md)",
                                                                  "")}, "git",
                                       "link to its Chinese twin"),
            "a Chinese file with no English twin": ({"lessons/01_x/part_b.zh-CN.md": zh}, "git",
                                                    "no English twin"),
            "a link to the English of a page with a twin": (
                {zh_path: zh.replace("因为。", "因为（见[练习](exercises.md#1-one)）。")}, "git",
                "which has a Chinese twin"),
            "a link to a page without a twin": (
                {zh_path: zh.replace("因为。", "因为（见[A 部分](README.md)）。")}, "git", None),
            "a page of docs/ without a twin": (
                {"docs/setup.md": "# Setup\n\n[简体中文](setup.zh-CN.md)\n"}, "git",
                "docs/setup.md: has no Chinese twin"),
            "a pending page without a twin": ({_PENDING: _PENDING_EN}, "git", None),
            "a pending page with its twin": (
                {_PENDING: _PENDING_EN, _PENDING[:-3] + SUFFIX: "# 待译\n"}, "git",
                "its twin exists now"),
            "a run record without a twin": (
                {"docs/results/x/log.md": "# A run\n"}, "git", None),
            "a generated table linking to the English of a page with a twin": (
                {zh_path: zh.replace("[x](exercises.zh-CN.md)", "[x](exercises.md)")}, "git",
                "generated table: links to exercises.md"),
        }
        ok = not unplanted
        if unplanted:
            print(f"check_translations.py selftest: not in both pages, so not planted: {unplanted}")
        for name, (change, git, phrase) in cases.items():
            copy = os.path.join(tmp, "copy")
            shutil.copytree(good, copy, symlinks=True)
            for path, text in {zh_path: zh, "docs/glossary.zh-CN.md": glossary_zh,
                               **change}.items():
                os.makedirs(os.path.dirname(os.path.join(copy, path)), exist_ok=True)
                with open(os.path.join(copy, path), "w", encoding="utf-8") as f:
                    f.write(text)
            added = _PENDING not in TWIN_PENDING  # the selftest's pending page, for this run only
            TWIN_PENDING.setdefault(_PENDING, "the selftest's page still to be translated")
            try:
                got = problems(copy, git)
            finally:
                if added:
                    del TWIN_PENDING[_PENDING]
            shutil.rmtree(copy)
            caught = any(phrase in p for p in got) if phrase else not got
            if not caught:
                ok = False
                print(f"check_translations.py selftest: {name}: expected "
                      f"{repr(phrase) if phrase else 'no problem'}, got {got}")
        # Without the history, the check says why it cannot tell staleness, and checks the rest.
        if staleness_unknown(good) is not None or staleness_unknown(tmp) is None:
            ok = False
            print("check_translations.py selftest: a repository's history taken for none, or a "
                  "folder without one taken for a repository")
        # A term is a word: "SM" is not in "SMEM" nor "small", "warps" is "warp".
        if (uses("SM", "SMEM is small") or not uses("warp", "two warps") or uses("SM", "sm") or
                uses("release", "a release build") or uses("release", "the (release) build's") or
                not uses("release", "a release store") or uses("release", "kept for a release") or
                uses("block", prose_words("a building block, a code block, `<details>` blocks")) or
                not uses("block", prose_words("one `v2` block per SM")) or
                uses("register", "that file registers a backend") or
                not uses("register", "32 registers a thread") or
                uses("median", prose_words("<!-- table x -->\n| median ms |\n<!-- /table -->"))):
            ok = False
            print("check_translations.py selftest: a term matched inside another word, in another "
                  "sense, or in a generated table")
    print("check_translations.py selftest: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1
