"""The answer check of an answer's preprocessed code (scripts/check_preprocessed.py): the harness's
translation unit as nvcc's preprocessor makes it for the build (and again as it makes it for the
PTX build, with GRADING_SASS), with its macro definitions kept (-dD), read through the line
markers that say which file each line came from. What the text of the answer hides from a reading
of its text, the preprocessor has resolved: directives spelt with other tokens, an include through
a macro, conditional compilation however it is spelt, a name pasted from pieces by a library's
macro (glibc's __CONCAT). The names an answer may not use are read from the tokens of its lines as
the preprocessor makes them from the answer alone (--alone: its file preprocessed without the
harness, whose own macros, expanded in the answer's lines, would put the harness's names there),
as well as from its text by cmake/check_exercise.cmake.

Rules, on the lines that came from the answer's file:
- every file it includes is one of the headers cmake/answer_rules.json allows (<cuda/std/...>
  too) or one of the exercise's own (in its include folder);
- it defines and undefines no macro, and holds no pragma but once, unroll and nounroll;
- its tokens, preprocessed alone, spell none of the names cmake/answer_rules.json lists, nor the
  exercise's own (--forbid); the attributes CUDA's own macros expand to (__global__ is
  __attribute__((global)), __forceinline__ __attribute__((always_inline))) are not the answer's
  __attribute__, and the extern of dynamic shared memory is allowed; and no void pointer nor
  C-style cast to a pointer (as the text check reads them);
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


def rules(key="headers"):
    """The headers an answer may include, or (key "names") the names it may not use: [what the
    message calls it, '@' the name found; the identifier's pattern] (cmake/answer_rules.json,
    shared with the text check)."""
    with open(RULES, encoding="utf-8") as f:
        return json.load(f)[key]


# The attributes CUDA's headers spell its qualifiers with (crt/host_defines.h): __global__,
# __device__, __host__, __shared__, __constant__, __managed__, __forceinline__, __noinline__,
# __launch_bounds__(...), __align__(n). The answer's lines hold them once its __global__ is expanded.
CUDA_ATTRIBUTES = {"global", "device", "host", "shared", "constant", "managed", "always_inline",
                   "noinline", "launch_bounds", "aligned"}
TOKEN = re.compile(r"""(?P<string>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")"""
                   r"""|(?P<char>(?:u8|u|U|L)?'(?:[^'\\\n]|\\.)*')"""
                   r"""|(?P<number>\.?[0-9](?:[eEpP][+-]|[0-9A-Za-z_.'])*)"""
                   r"""|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<other>\S)""")


def tokens(lines):
    """The tokens of preprocessed lines (directives left out), literals and numbers as one token
    each, so that neither a name inside a string nor a digit separator is taken for a name."""
    text = "\n".join(line for _, line in lines if not line.lstrip().startswith("#"))
    return [(m.lastgroup, m.group()) for m in TOKEN.finditer(text)]


def attribute_end(toks, i):
    """For toks[i] == __attribute__ followed by ((: the index past its closing )), and the names
    of its attributes; else (None, None)."""
    if toks[i + 1:i + 3] != [("other", "("), ("other", "(")]:
        return None, None
    depth, j, names, expect_name = 0, i + 1, [], False
    while j < len(toks):
        kind, text = toks[j]
        if text == "(":
            depth += 1
            expect_name = depth == 2
        elif text == ")":
            depth -= 1
            if depth == 0:
                return j + 1, names
        elif text == "," and depth == 2:
            expect_name = True
        elif expect_name and kind == "name":
            names.append(text.strip("_"))
            expect_name = False
        j += 1
    return None, None


def own_names(lines):
    """The names the answer's lines spell, CUDA's own attributes taken out, and the extern that
    declares dynamic shared memory (extern __shared__)."""
    toks = tokens(lines)
    out, i = [], 0
    while i < len(toks):
        kind, text = toks[i]
        if text == "__attribute__":
            end, names = attribute_end(toks, i)
            if end is not None and names and all(n in CUDA_ATTRIBUTES for n in names):
                i = end
                continue
        if text == "extern" and toks[i + 1:i + 2] == [("name", "__attribute__")]:
            end, names = attribute_end(toks, i + 1)
            if names == ["shared"]:
                i = end
                continue
        if kind == "name":
            out.append(text)
        i += 1
    return out


# An object's bytes read or written through another type (cmake/check_exercise.cmake's two rules,
# here on the answer's code as the preprocessor leaves it): a void pointer, or a C-style cast to a
# pointer. A type alias gets past both, so a probe must not rely on them alone.
VOID_POINTER = re.compile(r"\bvoid\s*((const|volatile)\s*)*\*")
POINTER_CAST = re.compile(r"\(\s*((const|volatile)\s+)*[A-Za-z_][A-Za-z0-9_:<>, \t]*\*+\s*(const\s*)?\)"
                          r"\s*[A-Za-z_&(*]")


def forbidden_forms(lines):
    """The void pointer and the C-style cast to a pointer, in the answer's lines with their
    literals emptied."""
    code = " ".join('""' if kind in ("string", "char") else text for kind, text in tokens(lines))
    out = []
    if VOID_POINTER.search(code):
        out.append("uses a void pointer")
    if POINTER_CAST.search(code):
        out.append("uses a C-style cast to a pointer")
    return out


def forbidden_names(lines, forbid=()):
    """What the answer's names break: one "uses ..." per rule of cmake/answer_rules.json (and per
    name of the exercise's `forbid`), as the text check words it."""
    found = own_names(lines)
    entries = [(shown, pattern) for shown, pattern in rules("names")]
    entries += [(name, re.escape(name)) for name in forbid if name]
    out = []
    for shown, pattern in entries:
        rule = re.compile(f"(?:{pattern})")
        hit = next((name for name in found if rule.fullmatch(name)), None)
        if hit:
            out.append("uses " + shown.replace("@", hit))
    return out


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


def problems_of(text, ptx_text, answer, include_dir, alone=None, forbid=()):
    headers = rules()
    mine, included = answer_parts(text, answer)
    out = []
    if alone is not None:
        own = answer_parts(alone, answer)[0]
        out += forbidden_names(own, forbid) + forbidden_forms(own)
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
        ptx_text = alone = None
        if args.ptx_preprocessed:
            with open(args.ptx_preprocessed, encoding="utf-8", errors="replace") as f:
                ptx_text = f.read()
        if args.alone:
            with open(args.alone, encoding="utf-8", errors="replace") as f:
                alone = f.read()
    except OSError as error:
        print(f"check_preprocessed.py: {error}", file=sys.stderr)
        return 2
    answer = os.path.realpath(args.answer_file)
    forbid = [name for name in (args.forbid or "").split(",") if name]
    found = problems_of(text, ptx_text, answer, args.include_dir, alone, forbid)
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
    # The names rule, on the answer preprocessed alone (the third member: its exercise's FORBID).
    alone_cases = [
        (unit("__attribute__((global)) void k() { extern __attribute__((shared)) int s[]; }",
              "__attribute__((device)) __inline__ __attribute__((always_inline)) int f();",
              "__attribute__((global)) __attribute__((launch_bounds(256, 2))) void g();",
              'const char* n = "lesson06::exit"; int m = 1\'000;'), (), []),
        (unit("int x = lesson06 ::merge_top_k(a, b);"), (), ["uses lesson06::"]),
        (unit("__attribute__((constructor)) void early();"), (), ["uses __attribute__"]),
        (unit("__attribute__((device, constructor)) void early();"), (), ["uses __attribute__"]),
        (unit("extern int elsewhere;"), (), ["uses extern"]),
        (unit("void f() { abort(); }"), (), ["uses abort (ends or steers the test program)"]),
        (unit("int y = __shfl_down_sync(m, v, 1);"), ("__shfl_down_sync",),
         ["uses __shfl_down_sync"]),
        (unit("int y = __shfl_down_sync(m, v, 1);"), (), []),
        (unit("void* p = &x;"), (), ["uses a void pointer"]),
        (unit("int* p = (int *) &x;"), (), ["uses a C-style cast to a pointer"]),
        (unit("int q = (a * b) + c; int* p = static_cast<int*>(r);"), (), []),
    ]
    problems = []
    for i, (alone, forbid, want) in enumerate(alone_cases):
        found = problems_of(unit("int y;"), None, answer, inc, alone, forbid)
        if not want and found:
            problems.append(f"names case {i} refused: {found}")
        for w in want:
            if not any(w in line for line in found):
                problems.append(f"names case {i} not refused for '{w}': {found}")
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
