"""The generated parts of the course's Markdown files: the markers (scripts/results.py --help
lists them), what each generates from the CSVs and logs the lesson programs wrote, and the checks
on the text around them (a ratio that reads backwards, a figure typed by hand).

Every function takes the Page it regenerates: the file (where its relative links start), the
lessons (lessons.load()) and the folder its markers' bare names read from. Only the Python
standard library is used, so `check` runs wherever the tests do.
"""

import glob
import os
import re
import sys
from dataclasses import dataclass, replace

from course.compare import PAID, steps
from course.csvs import label, number, read_csv as read_csv_file, row_of, speedups
from course.paths import ROOT

BLOCK = re.compile(r"(<!-- (table \w+|log): ([^\n]*?) -->\n)(.*?)(<!-- /(?:table|log) -->)", re.S)
INLINE = re.compile(r"(<!--v ([^\s>]+) ([^\s>]+) ([^\s>]+)-->)(.*?)(<!--/v-->)")
INLINE_LOG = re.compile(r"(<!--l ([^\s>]+) /(.*?)/-->)(.*?)(<!--/l-->)")
PERCENT = re.compile(r"(<!--p ([^\s>]+) /(.*?)/ of ([^\s>]+) /(.*?)/-->)(.*?)(<!--/p-->)")
SOURCE = re.compile(r"<!--s-->(.*?)<!--/s-->")

# What the sources published, as the write-ups quote it (<!--s-->...<!--/s-->): a figure the course
# cannot generate, because it is the source's, on the source's hardware.
SOURCE_FIGURES = {
    "150.1 ms": "lesson 01's blog: its author's CPU loop, 100 MiB",
    "178 ms": "lesson 01's blog: its author's first GPU version, copy included",
    "26.4 ms": "lesson 01's blog: its author's shared-memory version, copy included",
    "360 ms": "CUDA by Example, appendix A.2: the CPU hash table on a Core 2 Duo",
    "375 ms": "CUDA by Example, appendix A.2: the GPU hash table",
    "0.72 ms": "lesson 05's forum tutorial: the kernel on an 8800 Ultra",
    "1.36 ms": "lesson 05's forum tutorial: the host loop on a Q6600",
    "1.89×": "lesson 05's forum tutorial: its speedup",
    "86.4 GB/s": "Harris, Optimizing Parallel Reduction in CUDA: the 8800 GTX's peak bandwidth",
    "4.8 TB/s": "NVIDIA's H200 datasheet: the H200 SXM 141 GB's memory bandwidth (lesson 07)",
}


RESULTS_DIR = re.compile(r"<!-- results-dir: (\S+) -->")

# The Markdown files that may hold generated parts, relative to the repository: bench.py
# regenerates them all, and the cpu test (results.py check --all) checks them all.
# The Chinese twins (X.zh-CN.md, issue 46) carry the same markers as their English files, so the
# same figures are generated in both; "*.md" already matches them, and the two names below add
# the twins of README.md and ANSWERS.md.
MARKDOWN = ("README.md", "README.zh-CN.md", "docs/*.md", "lessons/*/*.md",
            "solutions/*/ANSWERS.md", "solutions/*/ANSWERS.zh-CN.md")


def markdown_files():
    """Every file of MARKDOWN there is, absolute: README.md first, then each pattern's, sorted."""
    files = [os.path.join(ROOT, "README.md")]
    for pattern in MARKDOWN[1:]:
        files += sorted(glob.glob(os.path.join(ROOT, pattern)))
    return files


@dataclass(frozen=True)
class Page:
    """The Markdown file being regenerated, and what its markers read."""
    path: str  # the file, for its relative links (relative to the working folder, or absolute)
    lessons: tuple  # every Lesson, for "table lessons" and "table glance: lessons"
    results_dir: str = ""  # its <!-- results-dir: ... -->: where names without a "/" are read

    def resolve(self, path):
        if os.path.isabs(path):
            return path
        if "/" not in path:
            return os.path.join(ROOT, self.results_dir, path)
        return os.path.join(ROOT, path)

    def read_csv(self, path):
        return read_csv_file(self.resolve(path))


def full_table(page, path):
    rows = page.read_csv(path)
    first = rows[0]
    out = ["| version | idea | median ms | GB/s | % of copy | vs CPU | check |",
           "| --- | --- | ---: | ---: | ---: | ---: | --- |"]
    for r in rows:
        ran = r["check"] != "skipped"
        speedup = f"{float(r['speedup_vs_cpu']):.1f}x" if ran else "-"
        out.append(f"| {r['version']} | {r['idea']} | {number(r['median_ms'], 4)} | "
                   f"{number(r['gbps'], 1)} | {number(r['pct_copy'], 1)} | {speedup} | "
                   f"{r['check']} |")
    out.append("")
    out.append(f"{first['device']}, CUDA {first['cuda']}: `{first['command']}`. "
               f"100% = {float(first['copy_gbps']):.1f} GB/s, the device-to-device copy "
               f"measured by the same run; vs CPU = against {first['cpu']} "
               f"({float(first['cpu_ms']):.3f} ms).")
    return "\n".join(out) + "\n"


def summary_table(page, paths):
    tables = [(p, page.read_csv(p)) for p in paths]
    versions = []
    for _, rows in tables:
        for r in rows:
            if r["version"] not in versions:
                versions.append(r["version"])
    header = "| version | " + " | ".join(label(rows) for _, rows in tables) + " |"
    out = [header, "| --- |" + " ---: |" * len(tables)]
    for v in versions:
        cells = []
        for _, rows in tables:
            r = next((r for r in rows if r["version"] == v), None)
            if r is None or r["check"] == "skipped":
                cells.append("-")
            else:
                mark = "" if r["check"] == "ok" else f" **{r['check']}**"
                cells.append(f"{float(r['gbps']):.1f} ({float(r['pct_copy']):.0f}%){mark}")
        out.append(f"| {v} | " + " | ".join(cells) + " |")
    ratios = []
    for _, rows in tables:
        ours = [r for r in rows if r["version"].startswith("v") and r["check"] == "ok"]
        library = [r for r in rows if not r["version"].startswith("v") and r["check"] == "ok"]
        if ours and library:
            best = min(ours, key=lambda r: float(r["median_ms"]))
            lib = library[0]
            ratios.append(f"{best['version']}: {float(lib['median_ms']) / float(best['median_ms']):.2f}x")
        else:
            ratios.append("-")
    out.append("| best ÷ library | " + " | ".join(ratios) + " |")
    first = tables[0][1][0]
    out.append("")
    out.append(f"GB/s (% of the device-to-device copy measured in the same run) on "
               f"{first['device']}, CUDA {first['cuda']}. Commands:")
    out.append("")
    for _, rows in tables:
        out.append(f"- `{rows[0]['command']}`")
    return "\n".join(out) + "\n"


def chinese(page):
    """Whether the page is a Chinese twin (X.zh-CN.md): its lesson tables are then in Chinese,
    from each lesson.json's "zh-CN", and link to the lessons' README.zh-CN.md."""
    return page.path.endswith(".zh-CN.md")


def lesson_page(lesson, zh):
    """The lesson's README.md, or in Chinese its README.zh-CN.md where it has one."""
    twin = os.path.join(lesson.dir, "README.zh-CN.md")
    return twin if zh and os.path.isfile(twin) else os.path.join(lesson.dir, "README.md")


# A run's input as the CSVs name it ("2^28 floats", "1 GiB, uniform", "k = 10 of 10000000 ints"),
# in Chinese for a Chinese page's glance table; a name none of these matches stays as it is.
ZH_LABELS = ((re.compile(r"^k = (\d+) of (\S+) (\w+)$"), r"\2 \3中的 k = \1"),
             (re.compile(r" ints?(?![A-Za-z])"), " 个整数"),
             (re.compile(r" floats?(?![A-Za-z])"), " 个浮点数"),
             (re.compile(r" doubles?(?![A-Za-z])"), " 个双精度数"),
             (re.compile(r" keys?(?![A-Za-z])"), " 个键"),
             (re.compile(r", uniform$"), "，均匀分布"), (re.compile(r", same$"), "，全部相同"),
             (re.compile(r", skewed$"), "，偏斜分布"))


def zh_label(text):
    for pattern, chinese_text in ZH_LABELS:
        text = pattern.sub(chinese_text, text)
    return text


def lessons_table(page, audience):
    """The table of lessons, from each lesson's lesson.json: for the README ("readme": what it
    teaches, its source) or for instructors ("instructors": its concepts, what it builds on); on a
    Chinese page, in Chinese (lesson.json's "zh-CN") with links to the Chinese lesson pages."""
    columns = {"readme": ("what it teaches", "teaches", "source", "source"),
               "instructors": ("concepts", "concepts", "builds on", "builds_on")}
    zh_heads = {"readme": ("课", "内容", "源材料"), "instructors": ("课", "概念", "前置课程")}
    if audience not in columns:
        raise ValueError(f"table lessons: readme or instructors, not '{audience}'")
    head3, key3, head4, key4 = columns[audience]
    zh = chinese(page)
    head2, head3, head4 = zh_heads[audience] if zh else ("lesson", head3, head4)
    out = [f"| # | {head2} | {head3} | {head4} |", "| --- | --- | --- | --- |"]
    here = os.path.dirname(os.path.abspath(page.path))
    for lesson in page.lessons:
        for key in ("name", key3, key4):
            if not getattr(lesson, key):
                raise ValueError(f"{os.path.relpath(lesson.dir, ROOT)}/lesson.json has no "
                                 f"\"{key}\" (docs/authoring.md)")
        link = os.path.relpath(lesson_page(lesson, zh), here).replace(os.sep, "/")
        out.append(f"| {lesson.number} | [{lesson.text('name', zh)}]({link}) | "
                   f"{lesson.text(key3, zh)} | {lesson.text(key4, zh)} |")
    return "\n".join(out) + "\n"


def joined_rows(page, spec):
    """(rows, library names, commands) of a glance spec: a CSV, or several joined by '+' (the
    lesson's run, then library runs of other programs, whose rows for the same k and type join
    it), with "#v3" naming a version of the lesson's own that is its library (lesson 07: NCCL)."""
    spec, _, named = spec.partition("#")
    parts = spec.split("+")
    rows = page.read_csv(parts[0])
    commands = [rows[0]["command"]]
    for extra in parts[1:]:
        extra_rows = page.read_csv(extra)
        commands.append(extra_rows[0]["command"])
        rows = rows + [r for r in extra_rows
                       if all(r.get(key) == rows[0].get(key) for key in ("k", "type"))]
    return rows, (named.split(",") if named else []), commands


def ours_and_libraries(rows, libraries):
    """The checked rows of the course's versions, and of the libraries. A version with a space in
    its name ("v4 find") is a second operation of a version: only the first (lesson 04: insert)
    counts."""
    ran = [r for r in rows if r["check"] == "ok" and " " not in r["version"]]
    ours = [r for r in ran if r["version"].startswith("v") and r["version"] not in libraries]
    library = [r for r in ran if not r["version"].startswith("v") or r["version"] in libraries]
    return ours, library


def glance_table(page, paths):
    """Per lesson (one CSV each, or several joined by '+': the lesson's run, then library runs of
    other programs, whose rows for the same k and type join it): the source's version (v0), the
    course's best version and every library, with the best one's speedups over v0 and over the
    fastest library. "lessons" takes each lesson's "glance" from its lesson.json."""
    if paths == ["lessons"]:
        paths = [lesson.glance for lesson in page.lessons if lesson.glance]
    zh = chinese(page)
    out = ["| 课 | 输入 | 源材料的 v0 | 课程最快的版本 | 各个库 | 最快版本对 v0 | 最快版本对最快的库 |"
           if zh else
           "| lesson | input | the source's v0 | the course's best | the libraries | best vs v0 | "
           "best vs fastest library |",
           "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    names = {meta.number: meta.text("name", zh) for meta in page.lessons}
    first = None
    commands = []
    devices = []
    for spec in paths:
        rows, libraries, run_commands = joined_rows(page, spec)
        commands += run_commands
        first = first or rows[0]
        devices.append(rows[0]["device"])
        path = spec.partition("#")[0].split("+")[0]
        source = row_of(rows, "v0", path)
        ours, library = ours_and_libraries(rows, libraries)
        if not ours or not library:
            raise ValueError(f"{spec}: no checked version or library row")
        best = min(ours, key=lambda r: float(r["median_ms"]))
        fastest = min(library, key=lambda r: float(r["median_ms"]))

        def cell(r):
            name = r["version"]
            if name in libraries and ":" in r["idea"]:
                name = f"{r['idea'].split(':')[0]} ({name})"  # "NCCL: one ncclReduce": NCCL (v3)
            return f"{name}: {number(r['median_ms'], 4)} ms, {number(r['gbps'], 1)} GB/s"

        lesson = rows[0]["lesson"]
        source_cell = cell(source) if source["check"] == "ok" else f"{cell(source)} (**{source['check']}**)"
        where = zh_label(label(rows)) if zh else label(rows)
        if int(rows[0].get("gpus") or 1) > 1:
            where += f"，{rows[0]['gpus']} 块 GPU" if zh else f", {rows[0]['gpus']} GPUs"
        if rows[0]["device"] != first["device"]:
            where += f"（{rows[0]['device']}）" if zh else f" ({rows[0]['device']})"
        out.append(f"| {lesson} {names.get(lesson, '')} | {where} | {source_cell} | "
                   f"{cell(best)} | {'; '.join(cell(r) for r in library)} | "
                   f"{float(source['median_ms']) / float(best['median_ms']):.1f}x | "
                   f"{float(fastest['median_ms']) / float(best['median_ms']):.2f}x |")
    out.append("")
    several = set(devices) != {first["device"]}
    if zh:
        elsewhere = "（某一行注明了另一块 GPU 的，是在那块 GPU 上）" if several else ""
        out.append(f"在 {first['device']} 上的中位数时间{elsewhere}，CUDA {first['cuda']}；GB/s 是"
                   f"问题必须搬运的字节数除以时间。命令：")
    else:
        elsewhere = " (another GPU where a row names it)" if several else ""
        out.append(f"Median times on {first['device']}{elsewhere}, CUDA {first['cuda']}; GB/s are "
                   f"the bytes the problem must move over the time. Commands:")
    out.append("")
    for command in commands:
        out.append(f"- `{command}`")
    return "\n".join(out) + "\n"


def gpus_table(page, folders):
    """Two GPUs' results folders side by side: per lesson, the run compare.py repeats (its
    "compare" CSV, or else its glance), with the course's best version and the fastest library on
    each GPU as shares of that GPU's own copy bandwidth, and which steps (a version's time against
    the version above it) paid on both GPUs, on one, or on neither."""
    if len(folders) != 2:
        raise ValueError(f"table gpus: two results folders, not {folders}")
    out = []
    commands = []
    devices = []
    zh = chinese(page)
    for lesson in page.lessons:
        spec = lesson.compare or lesson.glance
        names = spec.partition("#")[0].split("+")
        if not spec or not all(os.path.exists(os.path.join(ROOT, folder, name))
                               for folder in folders for name in names):
            continue
        cells, paid = [], []
        library_name = None  # the first GPU's fastest library, looked up on the second too
        for folder in folders:
            joined = "+".join(f"{folder}/{name}" for name in names)
            named = spec.partition("#")[2]
            if named:
                joined += "#" + named
            rows, libraries, run_commands = joined_rows(page, joined)
            copy = float(rows[0]["copy_gbps"])
            ours, library = ours_and_libraries(rows, libraries)

            def share(r):
                # A library run of another program (torch.topk) measured no copy: the lesson's
                # run on the same GPU did.
                pct = float(r["pct_copy"]) if r["pct_copy"] else 100.0 * float(r["gbps"]) / copy
                return f"{r['version']} {pct:.0f}%"

            best = min(ours, key=lambda r: float(r["median_ms"]))
            if library_name is None and library:
                library_name = min(library, key=lambda r: float(r["median_ms"]))["version"]
            same = [r for r in library if r["version"] == library_name]
            cells += [share(best), share(same[0]) if same else
                      (f"{library_name} did not run" if library_name else "-")]
            first_operation = [r for r in rows
                               if r["version"] not in libraries and " " not in r["version"]]
            paid.append({v: s >= PAID for v, s in steps(first_operation).items() if s is not None})
            if len(devices) < 2:
                devices.append((rows[0]["device"], rows[0]["cuda"]))
            commands.append(run_commands[0])
        if commands[-2] != commands[-1]:
            commands[-2:] = [f"{commands[-2]}`（第一块 GPU），`{commands[-1]}`（第二块）" if zh else
                             f"{commands[-2]}` on the first GPU, `{commands[-1]}` on the second"]
        both = [v for v in paid[0] if v in paid[1] and paid[0][v] and paid[1][v]]
        first = [v for v in paid[0] if v in paid[1] and paid[0][v] and not paid[1][v]]
        second = [v for v in paid[0] if v in paid[1] and not paid[0][v] and paid[1][v]]
        neither = [v for v in paid[0] if v in paid[1] and not paid[0][v] and not paid[1][v]]
        columns = [", ".join(x) or "-" for x in (both, first, second, neither)]
        where = zh_label(label(rows)) if zh else label(rows)
        out.append(f"| {lesson.number} {lesson.text('name', zh)} | {where} | " + " | ".join(cells)
                   + " | " + " | ".join(columns) + " |")
    if not out:
        raise ValueError(f"table gpus: no lesson has its run in both {folders[0]} and {folders[1]}")
    short = [device.replace("NVIDIA ", "") for device, _ in devices]
    if zh:
        head = [f"| 课 | 运行 | {short[0]}：最快 | {short[0]}：库 | {short[1]}：最快 | "
                f"{short[1]}：库 | 在两者上都见效的步骤 | 只在 {short[0]} 上 | "
                f"只在 {short[1]} 上 | 两者都没有 |"]
        foot = ["", f"% = 这一行的 GB/s 除以同一次运行在各自 GPU 上测得的设备到设备拷贝带宽"
                f"（{devices[0][0]}，CUDA {devices[0][1]}；{devices[1][0]}，CUDA "
                f"{devices[1][1]}）；库 = 第一块 GPU 上最快的库，第二块 GPU 上取同一个库。"
                f"一个版本比上面的版本快到 {PAID:.2f} 倍或更多，这一步就算见效；上面没有计时版本的"
                f"版本不算步骤。运行命令（两块 GPU 上相同，除非分别列出）：", ""]
    else:
        head = [f"| lesson | run | {short[0]}: best | {short[0]}: library | {short[1]}: best | "
                f"{short[1]}: library | steps that paid on both | only on the {short[0]} | "
                f"only on the {short[1]} | on neither |"]
        foot = ["", f"% = the row's GB/s over the device-to-device copy measured by the same run, "
                f"on each GPU ({devices[0][0]}, CUDA {devices[0][1]}; {devices[1][0]}, CUDA "
                f"{devices[1][1]}); library = the fastest library row on the first GPU, and the "
                f"same library on the second. A step paid when the version above took {PAID:.2f} "
                f"times its time or more; a version with no timed version above it has no step. "
                f"Runs (on both GPUs, unless two are named):", ""]
    head.append("| --- | --- | ---: | ---: | ---: | ---: | --- | --- | --- | --- |")
    for command in dict.fromkeys(commands):
        foot.append(f"- `{command}`")
    return "\n".join(head + out + foot) + "\n"


def scaling_table(page, paths):
    """Strong scaling from runs of one work on 1, 2, 4... GPUs (each CSV's "gpus" column, its
    distinct GPUs): per version and run, the median time, the speed-up over the same run's v0
    (one GPU, measured beside it) and the parallel efficiency, speed-up / GPUs."""
    runs = [(int(rows[0]["gpus"]), rows, path) for path in paths for rows in [page.read_csv(path)]]
    for _, rows, path in runs:
        args = rows[0]["command"].split()
        if "--devices" in args and len(set(args[args.index("--devices") + 1].split(","))) < int(
                rows[0]["gpus"]):
            raise ValueError(f"table scaling: {path}'s ranks share a GPU")
    if [g for g, _, _ in runs] != sorted({g for g, _, _ in runs}):
        raise ValueError(f"table scaling: runs on distinct GPU counts, fewest first: {paths}")
    devices = {rows[0]["device"] for _, rows, _ in runs}
    works = {(rows[0]["dist"], rows[0]["n"]) for _, rows, _ in runs}
    if len(devices) != 1 or len(works) != 1:
        raise ValueError(f"table scaling: one work and size on one kind of GPU: {paths}")
    versions = []
    for _, rows, _ in runs:
        versions += [r["version"] for r in rows if r["version"] not in versions]
    out = ["| version | idea | " + " | ".join(f"{g} GPU{'s' if g > 1 else ''}" for g, _, _ in runs)
           + " |", "| --- | --- |" + " ---: |" * len(runs)]
    for version in versions:
        cells, idea = [], ""
        for g, rows, path in runs:
            r = next((r for r in rows if r["version"] == version), None)
            row_of(rows, "v0", path)  # every run has its v0, or the table says which has not
            if r is None or r["check"] == "skipped":
                cells.append("-")
                continue
            idea = idea or r["idea"]
            ms = float(r["median_ms"])
            speedup = speedups(rows).get(version)
            if speedup is None:
                cells.append(f"{ms:.4f} ms (**{r['check']}**)")
            elif version == "v0":
                cells.append(f"{ms:.4f} ms on one GPU")
            else:
                cells.append(f"{ms:.4f} ms, {speedup:.2f}x, {100 * speedup / g:.0f}%")
        out.append(f"| {version} | {idea} | " + " | ".join(cells) + " |")
    out += ["", f"{runs[0][1][0]['dist']}, n = {runs[0][1][0]['n']}; median times on "
            f"{devices.pop()} GPUs, CUDA {runs[0][1][0]['cuda']}. Each cell: time, speed-up over "
            "v0 (one GPU) in the same run, efficiency = speed-up / GPUs. Commands:", ""]
    out += [f"- `{rows[0]['command']}`" for _, rows, _ in runs]
    return "\n".join(out) + "\n"


def log_block(page, spec):
    parts = spec.split(None, 1)
    path = parts[0]
    with open(page.resolve(path)) as f:
        lines = f.read().splitlines()
    if len(parts) > 1:
        pattern = parts[1].strip()
        after = 0
        following = re.fullmatch(r"(/.*/)\s+\+(\d+)", pattern)
        if following:
            pattern, after = following.group(1), int(following.group(2))
        if not (pattern.startswith("/") and pattern.endswith("/")):
            raise ValueError(f"log filter must be /regex/ or /regex/ +N: {pattern}")
        regex = re.compile(pattern[1:-1])
        keep = set()
        for i, line in enumerate(lines):
            if regex.search(line):
                keep.update(range(i, min(len(lines), i + after + 1)))
        lines = [line for i, line in enumerate(lines) if i in keep]
    if not lines:
        raise ValueError(f"no lines from {spec}")
    return "```\n" + "\n".join(lines) + "\n```\n"


def log_value(page, path, pattern):
    with open(page.resolve(path)) as f:
        for line in f:
            m = re.search(pattern, line)
            if m:
                return m.group(1)
    raise ValueError(f"no line of {path} matches /{pattern}/")



def percent_value(page, path, pattern, base_path, base_pattern):
    """100 times the first capture of `pattern` in one log over that of `base_pattern` in another,
    to one decimal place."""
    part = float(log_value(page, path, pattern))
    whole = float(log_value(page, base_path, base_pattern))
    if whole <= 0:
        raise ValueError(f"{base_path}: /{base_pattern}/ gives {whole}, not a positive number")
    return f"{100.0 * part / whole:.1f}"

def inline_value(page, path, version, field):
    rows = page.read_csv(path)
    if "/" in version:
        top, bottom = version.split("/")
        ratio = float(row_of(rows, bottom, path)['median_ms']) / float(row_of(rows, top, path)['median_ms'])
        return f"{ratio:.3f}" if field == "ratio" else f"{ratio:.1f}"
    r = row_of(rows, version, path)
    value = r[field]
    digits = {"median_ms": 4, "gbps": 1, "pct_copy": 1, "speedup_vs_cpu": 1, "cpu_ms": 3,
              "copy_gbps": 1, "cpu_loop_ms": 3}.get(field)
    return number(value, digits) if digits is not None else value


def regenerate(text, page):
    """The text with every generated part made again from its sources; `page` is the file's, and
    the text's own results-dir marker sets where its bare names are read."""
    found = RESULTS_DIR.search(text)
    page = replace(page, results_dir=found.group(1) if found else "")

    def block(m):
        kind, spec = m.group(2), m.group(3)
        if kind == "table full":
            body = full_table(page, spec.strip())
        elif kind == "table summary":
            body = summary_table(page, spec.split())
        elif kind == "table glance":
            body = glance_table(page, spec.split())
        elif kind == "table gpus":
            body = gpus_table(page, spec.split())
        elif kind == "table scaling":
            body = scaling_table(page, spec.split())
        elif kind == "table lessons":
            body = lessons_table(page, spec.strip())
        elif kind == "log":
            body = log_block(page, spec.strip())
        else:
            raise ValueError(f"unknown block {kind}")
        return m.group(1) + body + m.group(5)

    text = BLOCK.sub(block, text)
    text = INLINE_LOG.sub(
        lambda m: m.group(1) + log_value(page, m.group(2), m.group(3)) + m.group(5), text)
    text = PERCENT.sub(lambda m: m.group(1) + percent_value(page, m.group(2), m.group(3),
                                                            m.group(4), m.group(5)) + m.group(7),
                       text)
    return INLINE.sub(lambda m: m.group(1) + inline_value(page, m.group(2), m.group(3), m.group(4))
                      + m.group(6), text)


# "0.1× faster", "0.092× less time": a ratio phrase must put the larger time over the smaller.
SMALL_RATIO = re.compile(r"(?:<!--v [^>]*-->)?(?<![\d.])(0(?:\.\d+)?)(?:<!--/v-->)?\s*[×x]\s+(faster|less)")


def ratio_problems(text):
    """Every ratio below 1 that the text calls faster or less, as 'N× faster' (empty: none)."""
    return [f"{m.group(1)}× {m.group(2)}" for m in SMALL_RATIO.finditer(text)]


# A figure with a unit: a number, then ms, µs, ns, GB/s, TB/s, G/s, keys/s (or 毫秒, 微秒, 纳秒),
# or a ratio or share written onto it (10×, 3.9x, 98%). "3 times" and "3 倍" are not caught in
# either language: the pages use them for limits and arithmetic ("at most 3 times the model's"). Outside the generated blocks and values it was typed by hand.
# A Chinese character next to a figure is not part of a word ("耗时 0.5ms的" holds a figure), so
# the edges are "no letter, digit or _ but CJK" rather than \w and \b.
_WORD = r"[^\W\u3400-\u9fff\uf900-\ufaff]"
FIGURE = re.compile(r"(?<![.^/+-])(?<!" + _WORD + r")(\d[\d,]*(?:\.\d+)?)(?:\s?(?:ms|µs|us|ns|"
                    r"[GMT]B/s|G/s|[GM]\s?keys/s|G keys/s)(?!" + _WORD + r")|\s?(?:毫秒|微秒|纳秒)|"
                    r"(?:×|x(?!" + _WORD + r")|%|％))")
# Figures that are constants, definitions or arithmetic, not measurements: allowed anywhere.
CONSTANT_FIGURES = {
    "100%",  # the copy's bandwidth, by definition
    "16%",  # lesson 01's skewed input, by its definition: Zipf over 256 values, 1 / H(256)
    "44%",  # the same: H(8) / H(256)
    "5%",  # scripts/timer_check.py's tolerance (TOLERANCE), a choice, not a measurement
}


def unmarked_figures(text):
    """Every figure with a unit outside the generated blocks and values (empty: none)."""
    bare = BLOCK.sub("", text)
    bare = INLINE.sub("", bare)
    bare = INLINE_LOG.sub("", bare)
    bare = PERCENT.sub("", bare)
    found = []
    for m in SOURCE.finditer(bare):
        if m.group(1) not in SOURCE_FIGURES:
            found.append((bare.count("\n", 0, m.start()) + 1, m.group(1) + " (not a source's)"))
    bare = SOURCE.sub("", bare)
    for m in FIGURE.finditer(bare):
        figure = m.group(0)
        if figure in CONSTANT_FIGURES:
            continue
        line = bare.count("\n", 0, m.start()) + 1
        found.append((line, figure))
    return found


def selftest(lessons):
    """Proves that `check` catches a hand edit: a copy of a generated file with one figure
    changed must fail it, and the untouched copy must pass. `lessons`: every Lesson. Returns the
    exit status."""
    import tempfile
    page = Page(os.path.join(ROOT, "README.md"), tuple(lessons))
    with tempfile.TemporaryDirectory() as tmp:
        rows = "lesson,device,cuda,command,n,dist,version,idea,median_ms,min_ms,max_ms,reps," \
               "bytes,gbps,pct_copy,copy_gbps,cpu,cpu_ms,speedup_vs_cpu,check,note\n"
        rows += "01,GPU,13.0,prog,1024,uniform,v1,an idea,0.5,0.4,0.6,9,1024,2.048,1.0,204.8," \
                "CPU,5.0,10.0,ok,\n"
        rows += "01,GPU,13.0,prog,1024,uniform,CUB,library,0.25,0.2,0.3,9,1024,4.096,2.0,204.8," \
                "CPU,5.0,20.0,ok,\n"
        csv_path = os.path.join(tmp, "run.csv")
        with open(csv_path, "w") as f:
            f.write(rows)
        text = (f"<!-- table full: {csv_path} -->\n<!-- /table -->\n"
                f"v1 took <!--v {csv_path} v1 median_ms-->?<!--/v--> ms.\n")
        good = regenerate(text, page)
        bad_table = good.replace("| 0.5000 |", "| 0.4000 |")
        bad_inline = good.replace(">0.5000<", ">0.4000<")
        ok = (regenerate(good, page) == good and "| 0.5000 |" in good
              and regenerate(bad_table, page) != bad_table
              and regenerate(bad_inline, page) != bad_inline)
        # A ratio below 1 called faster is caught; the same ratio the right way round is not.
        backwards = f"v1 is <!--v {csv_path} v1/CUB speedup-->0.5<!--/v-->× faster than CUB."
        forwards = f"CUB is <!--v {csv_path} CUB/v1 speedup-->2.0<!--/v-->× faster than v1."
        ok = ok and ratio_problems(regenerate(backwards, page)) and not ratio_problems(
            regenerate(forwards, page)) and not ratio_problems("10.9× faster, 0.754 of its speed")
        # A figure typed by hand is caught; generated, quoted from a source, or a hex value, not.
        log_path = os.path.join(tmp, "run.txt")
        with open(log_path, "w") as f:
            f.write("v0: 12 of 100 entries lost (12.0% lost)\n")
        typed = ["took 0.5 ms", "at 425 GB/s", "lost 98% of it", "3.9x faster", "10× CUB's"]
        clean = [f"took <!--v {csv_path} v1 median_ms-->?<!--/v--> ms",
                 f"lost <!--l {log_path} /\\(([0-9.]+)% lost/-->?<!--/l-->% of it",
                 "the blog's <!--s-->150.1 ms<!--/s-->", "the NaN 0x7FFFFFFF", "2^24 floats"]
        typed += ["耗时0.5ms的", "快了3.9x，", "占98％", "约425 GB/s。", "用时 0.5 毫秒",
                  "12 微秒"]  # figures in Chinese prose, Chinese units too
        ok = ok and all(unmarked_figures(t) for t in typed)
        ok = ok and not any(unmarked_figures(regenerate(t, page)) for t in clean)
        ok = ok and ">12.0<" in regenerate(clean[1], page)
        # A share of one log's figure in another's: generated, and not a typed figure.
        share = (f"<!--p {log_path} /\\(([0-9.]+)% lost/ of {log_path} /of ([0-9]+) entries/-->"
                 "?<!--/p-->% of it")
        ok = ok and ">12.0<" in regenerate(share, page)
        ok = ok and not unmarked_figures(regenerate(share, page))
        # A log block whose regex holds a '>' (a template's brackets) is regenerated, not skipped.
        angled = f"<!-- log: {log_path} /v0: 12 of 100|kernel<int, 1>/ -->\nstale\n<!-- /log -->\n"
        ok = ok and "entries lost" in regenerate(angled, page)
        ok = ok and "stale" not in regenerate(angled, page)
        ok = ok and unmarked_figures("<!--s-->151 ms<!--/s-->")  # not a source's figure
        # The table of lessons is the lesson folders': a row edited by hand is caught.
        lessons_text = regenerate("<!-- table lessons: readme -->\n<!-- /table -->\n", page)
        renamed = lessons_text.replace(f"[{lessons[0].name}]", "[renamed]")
        ok = ok and len(lessons_text.splitlines()) == len(lessons) + 4 and renamed != lessons_text
        ok = ok and regenerate(renamed, page) != renamed
        # Two GPUs side by side: a step that paid on one GPU only lands in that GPU's column,
        # and a library that ran on the first GPU only is said not to have run on the second.
        head = rows.splitlines()[0] + "\n"
        times = {"a": [("v0", 4.0), ("v1", 2.0), ("v2", 1.9), ("LIB", 1.0)],
                 "b": [("v0", 4.0), ("v1", 3.9), ("v2", 1.0)]}
        for gpu, versions in times.items():
            os.makedirs(os.path.join(tmp, gpu))
            with open(os.path.join(tmp, gpu, "run.csv"), "w") as f:
                f.write(head + "".join(
                    f"01,GPU {gpu},13.0,prog,1024,uniform,{v},x,{ms},{ms},{ms},9,1024,1,"
                    f"{25 / ms},4,CPU,5,1,ok,\n" for v, ms in versions))
        from course.lessons import Lesson
        two = replace(page, lessons=(Lesson(number="01", dir=tmp, name="t", glance="run.csv"),))
        table = regenerate(f"<!-- table gpus: {tmp}/a {tmp}/b -->\n<!-- /table -->\n", two)
        row = next(line for line in table.splitlines() if line.startswith("| 01 t "))
        cells = [c.strip() for c in row.split("|")[1:-1]]
        ok = ok and cells[2:] == ["v2 13%", "LIB 25%", "v2 25%", "LIB did not run", "v2", "v1",
                                  "-", "-"]
    print("results.py selftest:", "ok" if ok else "FAILED")
    return 0 if ok else 1


def update_or_check(command, paths, lessons):
    """`update`: rewrites each Markdown file whose generated parts differ from their sources;
    `check`: changes nothing. Either way, says on stderr what is wrong (a stale file, a ratio that
    reads backwards, a figure typed by hand) and returns the exit status: 1 when anything is."""
    lessons = tuple(lessons)
    stale = []
    for path in paths:
        with open(path) as f:
            text = f.read()
        try:
            new = regenerate(text, Page(path, lessons))
        except (OSError, ValueError, KeyError) as e:
            print(f"{path}: {e}", file=sys.stderr)
            return 1
        for phrase in ratio_problems(new):
            print(f"{path}: '{phrase}': a ratio below 1 reads backwards; put the larger time over "
                  "the smaller and say which is faster", file=sys.stderr)
            stale.append(None)
        for line, figure in unmarked_figures(new):
            print(f"{path}:{line}: '{figure}' is typed by hand: generate it from a CSV or log, or "
                  "quote a source's figure with <!--s-->...<!--/s-->", file=sys.stderr)
            stale.append(None)
        if new != text:
            if command == "update":
                with open(path, "w") as f:
                    f.write(new)
                print(f"updated {path}")
            else:
                stale.append(path)
    for path in filter(None, stale):
        print(f"{path}: generated results differ from their CSVs and logs; "
              f"run: python3 scripts/results.py update {path}", file=sys.stderr)
    return 1 if stale else 0
