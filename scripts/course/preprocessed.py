"""The answer check of an answer's preprocessed code (scripts/check_preprocessed.py): the harness's
translation unit as nvcc's preprocessor makes it for the build (and again as it makes it for the
PTX build, with GRADING_SASS), with its macro definitions kept (-dD), read through the line
markers that say which file each line came from. What the text of the answer hides from a reading
of its text, the preprocessor has resolved: directives spelt with other tokens, an include through
a macro, conditional compilation however it is spelt. (The names an answer may not use are still
read from its text, by cmake/check_exercise.cmake: in the preprocessed code, the harness's own
macros, expanded in the answer's lines, put the harness's names there.)

Rules, on the lines that came from the answer's file:
- every file it includes is one of the headers cmake/answer_rules.json allows (<cuda/std/...>
  too) or one of the exercise's own (in its include folder);
- it defines and undefines no macro, and holds no pragma but once, unroll and nounroll;
- its code is the same in the build and in the PTX build (the compiled-code check reads the
  second; an answer that differed would show that check one thing and the tests another);
- the macros of the two builds are the same, GRADING_SASS aside: otherwise the same lines could
  still mean two things (whether a call compiles, which a template's test reads, when the probe's
  macro names another function in one build than in the other)."""

import json
import os
import re
import sys

from course import verdicts

RULES = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))), "cmake", "answer_rules.json")
MARKER = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"((?:\s+\d+)*)\s*$')
PRAGMAS_ALLOWED = {"once", "unroll", "nounroll"}


def rules():
    """The headers an answer may include (cmake/answer_rules.json, shared with the text check)."""
    with open(RULES, encoding="utf-8") as f:
        return json.load(f)["headers"]


def answer_parts(text, answer):
    """(the answer's own lines, in order, as (its line number in the answer's file, the line),
    [the files it includes]) from preprocessed text: `answer` is the answer's file as the line
    markers name it (a real path)."""
    mine = []
    included = []
    stack = []
    current = None
    number = 0
    for line in text.splitlines():
        m = MARKER.match(line)
        if m:
            name = os.path.realpath(m.group(2).encode().decode("unicode_escape"))
            flags = m.group(3).split()
            if "1" in flags:  # a file entered from the one on top of the stack
                if current == answer:
                    included.append(name)
                stack.append(current)
            elif "2" in flags and stack:  # back in the file that included
                stack.pop()
            current = name
            number = int(m.group(1))
            continue
        if current == answer:
            mine.append((number, line))
        number += 1
    return mine, included


def allowed_header(path, include_dir, headers):
    if include_dir and os.path.dirname(path) == os.path.realpath(include_dir):
        return True
    parts = path.replace(os.sep, "/")
    if re.search(r"/cuda/std/[a-z_]+$", parts):
        return True
    return any(parts.endswith("/" + header) for header in headers)


def problems_of(text, ptx_text, answer, include_dir):
    headers = rules()
    mine, included = answer_parts(text, answer)
    out = []
    for path in included:
        if not allowed_header(path, include_dir, headers):
            out.append(f"includes {os.path.basename(path)}")
    for _, line in mine:
        stripped = line.strip()
        if stripped.startswith("#"):
            directive = stripped[1:].split()
            word = directive[0] if directive else ""
            if word in ("define", "undef"):
                macro = directive[1].split("(")[0] if len(directive) > 1 else ""
                out.append(f"uses #{word} {macro}".rstrip())
            elif word == "pragma" and (len(directive) < 2 or directive[1] not in PRAGMAS_ALLOWED):
                out.append(f"uses #pragma {' '.join(directive[1:2])}".rstrip())
    if ptx_text is not None:
        # The lines that reach the compiler, not their tokens: the harness's own macros (the
        # probes', whose functions count nothing in the PTX build) may expand a line differently
        # in the two builds.
        theirs, _ = answer_parts(ptx_text, answer)
        if present(mine) != present(theirs):
            out.append("keeps other lines with GRADING_SASS defined (the compiled-code check's "
                       "build) than without it (conditional compilation)")
        ours, others = macros(text), macros(ptx_text)
        if ours != others:
            differ = sorted({m[1] for m in set(ours) ^ set(others)}) or ["their order"]
            out.append(f"is compiled under other macros in the compiled-code check's build than "
                       f"in the tests' ({differ[0]}): the grading's harness is at fault, not the "
                       "answer")
    return list(dict.fromkeys(out))


DEFINE = re.compile(r"^\s*#\s*(define|undef)\s+([A-Za-z_]\w*)(.*)$")


def macros(text):
    """Every macro definition and undefinition of a preprocessed text made with -dD, in order:
    (directive, name, what follows the name), GRADING_SASS's own left out."""
    out = []
    for line in text.splitlines():
        m = DEFINE.match(line)
        if m and m.group(2) != "GRADING_SASS":
            out.append((m.group(1), m.group(2), m.group(3).strip()))
    return out


def present(lines):
    """The answer's line numbers that reach the compiler (not blank, not a directive)."""
    return {n for n, line in lines if line.strip() and not line.strip().startswith("#")}


def check(args):
    try:
        with open(args.preprocessed, encoding="utf-8", errors="replace") as f:
            text = f.read()
        ptx_text = None
        if args.ptx_preprocessed:
            with open(args.ptx_preprocessed, encoding="utf-8", errors="replace") as f:
                ptx_text = f.read()
    except OSError as error:
        print(f"check_preprocessed.py: {error}", file=sys.stderr)
        return 2
    answer = os.path.realpath(args.answer_file)
    found = problems_of(text, ptx_text, answer, args.include_dir)
    name = os.path.basename(args.answer_file)
    for line in found:
        print(f"{args.exercise}: {name} {line} (not allowed in this exercise)")
    if args.verdict:
        verdict = {"check": "answer", "pass": not found}
        if found:
            verdict.update(why=f"{name} {found[0]}", problems=[f"{name} {p}" for p in found])
        with open(args.verdict, "w", encoding="utf-8") as f:
            f.write(json.dumps(verdict) + "\n")
    verdicts.say("answer", not found, found[0] if found else "every rule holds")
    return 1 if found else 0


def selftest():
    """Made-up preprocessed text: each rule must refuse its case, and a clean answer pass."""
    answer = os.path.realpath("/tmp/s/grading/exercise09/thing.cuh")
    inc = "/tmp/s/grading/exercise09/include"

    def unit(*body, ptx=False):
        lines = ['# 1 "/tmp/s/harness.cu"', "int harness_before;",
                 f'# 1 "{answer}" 1', *body, '# 12 "/tmp/s/harness.cu" 2', "int after;"]
        return "\n".join(lines)

    cases = [
        (unit("namespace exercise09 { int f() { return 1; } }"), None, []),
        (unit('# 1 "/usr/include/c++/12/vector" 1 3', "int v;", f'# 3 "{answer}" 2', "int x;"),
         None, ["includes vector"]),
        (unit('# 1 "/usr/include/c++/12/algorithm" 1 3', "int v;", f'# 3 "{answer}" 2'),
         None, []),
        (unit(f'# 1 "{inc}/thing_support.cuh" 1', "int s;", f'# 3 "{answer}" 2'), None, []),
        (unit("#define X 1", "int y = 1;"), None, ["uses #define X"]),
        (unit("#pragma unroll", "int y;"), None, []),
        (unit("#pragma GCC optimize(\"O0\")"), None, ["uses #pragma GCC"]),
        (unit("int y = 1;", "int z;"), unit("", "int z;"), ["GRADING_SASS defined"]),
        (unit("int y = atomicAdd(1);"), unit("int y = probe_add(1);"), []),
        (unit("int y = grading::probe_add(1);"), unit("int y = atomicAdd(1);"), []),
        ("#define atomicAdd probed\n#define GRADING_SASS 1\n" + unit("int y;"),
         "#define atomicAdd probed\n" + unit("int y;"), []),
        ("#define atomicAdd probed\n" + unit("int y;"), unit("int y;"),
         ["other macros in the compiled-code check's build than in the tests' (atomicAdd)"]),
    ]
    problems = []
    for i, (text, ptx, want) in enumerate(cases):
        found = problems_of(text, ptx, answer, inc)
        if not want and found:
            problems.append(f"case {i} refused: {found}")
        for w in want:
            if not any(w in line for line in found):
                problems.append(f"case {i} not refused for '{w}': {found}")
    print("check_preprocessed.py selftest: " + ("ok" if not problems else "FAILED"))
    for line in problems:
        print("  " + line)
    return 1 if problems else 0
