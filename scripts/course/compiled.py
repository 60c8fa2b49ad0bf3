"""What an answer to a graded exercise compiled to (scripts/check_compiled.py): the spec's rules,
the functions and instructions of the PTX, and the rules the answer's kernels break."""

import os
import re
import shutil
import subprocess  # noqa: F401 (c++filt)
import sys

from course import built, verdicts

# ".visible .entry _ZN10exercise011kEPKhmPy(" or ".func  (.param .b32 func_retval0) _Z3fooi("
FUNCTION = re.compile(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.(?:entry|func)\s+"
                      r"(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)")
# "\t@%p1 atom.shared.add.u32 \t%r10, [%r9], 1;"
INSTRUCTION = re.compile(r"^\s*(?:@!?%\w+\s+)?([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)(?=[\s;])")


def parse_spec(text):
    """[(kernel regex, [(kind, regex, what)])] from a spec's text; ValueError on a bad line."""
    groups = []
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        rest = rest.strip()
        if word == "kernel":
            groups.append((re.compile(rest), []))
        elif word in ("require", "forbid"):
            if not groups:
                raise ValueError(f"line {number}: a rule before any 'kernel' line")
            pattern, bar, what = rest.partition(" | ")
            if not bar or not pattern.strip() or not what.strip():
                raise ValueError(f"line {number}: '{word} <regex> | <what>' expected")
            groups[-1][1].append((word, re.compile(pattern.strip()), what.strip()))
        else:
            raise ValueError(f"line {number}: '{word}' is not kernel, require or forbid")
    if not groups:
        raise ValueError("the spec has no rules")
    return groups


def demangle(names):
    tool = shutil.which("c++filt")
    if not tool or not names:
        return {n: n for n in names}
    out = subprocess.run([tool], input="\n".join(names), capture_output=True, text=True).stdout
    shown = out.splitlines()
    return {n: (shown[i] if i < len(shown) else n) for i, n in enumerate(names)}


def function_bodies(text):
    """(mangled name, its header line, [the lines of its body]) for each .entry or .func of nvcc's
    PTX, in order; a declaration (a header ending in ';') has an empty body."""
    name = header = None
    body = []
    depth = 0
    for line in text.splitlines():
        stripped = line.strip()
        if depth == 0:
            m = FUNCTION.match(line)
            if m:
                if name is not None:
                    yield name, header, body
                name, header, body = m.group(1), stripped, []
            if name is not None and stripped.endswith(";"):
                # a declaration's end: a '{' after it (a string's initializer) is not a body
                yield name, header, body
                name = None
            elif "{" in stripped and name is not None:
                depth = 1
            continue
        depth += stripped.count("{") - stripped.count("}")
        if depth <= 0:
            depth = 0
            yield name, header, body
            name = None
            continue
        body.append(line)
    if name is not None:
        yield name, header, body


def parse_ptx(text):
    """{"ptx": {mangled function name: [opcodes]}} from nvcc's PTX. Only function bodies count:
    declarations (a line ending in ';' after the header) hold no instructions."""
    functions = {}
    for name, _, body in function_bodies(text):
        opcodes = functions.setdefault(name, [])
        for line in body:
            m = INSTRUCTION.match(line)
            if m and not line.strip().startswith("."):
                opcodes.append(m.group(1))
    return {"ptx": functions} if functions else {}


def short_name(demangled):
    """A function's own name, without its namespaces, parameters or template arguments:
    "void grading01::(anonymous namespace)::k<int, ns::Max>(int*)" -> "k"."""
    name = demangled.replace("(anonymous namespace)::", "")
    name = re.sub(r"^(?:void|int|unsigned|float|double|bool)\s+", "", name)
    depth, cut = 0, len(name)
    for i, c in enumerate(name):  # the first '(' or '<' outside any bracket ends the name
        if c in "(<" and depth == 0:
            cut = i
            break
    name = name[:cut]
    return name.split("::")[-1] or demangled


def problems(groups, arches, answer):
    """One line per broken rule."""
    out = []
    if not arches:
        return [f"{answer}: its PTX holds no compiled function"]
    for arch, functions in sorted(arches.items()):
        names = demangle(list(functions))
        for kernel, rules in groups:
            chosen = [f for f in functions if kernel.search(names[f])]
            if not chosen:
                out.append(f"{answer}: no compiled function matches '{kernel.pattern}'")
                continue
            shown = ", ".join(sorted({short_name(names[f]) for f in chosen}))
            opcodes = [op for f in chosen for op in functions[f]]
            for kind, pattern, what in rules:
                hits = [op for op in opcodes if pattern.match(op)]
                if kind == "require" and not hits:
                    out.append(f"{answer}: the compiled code of {shown} lacks {what}")
                elif kind == "forbid" and hits:
                    out.append(f"{answer}: the compiled code of {shown} has {what} "
                               f"({hits[0]}, {len(hits)} in all)")
    return out


SELFTEST_PTX = """
.version 9.0
.target sm_75
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0,
	.param .b64 vprintf_param_1
)
;
.visible .entry _ZN10exercise016kernelEPKhmPy(
	.param .u64 _ZN10exercise016kernelEPKhmPy_param_0
)
{
	.reg .pred 	%p<3>;
	.shared .align 4 .b8 _ZZ1s[1024];
	mov.u32 	%r2, %tid.x;
	@!%p1 atom.shared.add.u32 	%r10, [%r9], 1;
	bar.sync 	0;
$L__BB0_3:
	{ // callseq 0
	red.global.add.u64 	[%rd13], %rd10;
	} // callseq 0
	ret;
}
.visible .entry _ZN9grading015probeEv()
{
	atom.global.add.u64 	%rd1, [%rd2], 1;
	ret;
}
"""


def selftest():
    arches = parse_ptx(SELFTEST_PTX)
    ops = arches["ptx"]["_ZN10exercise016kernelEPKhmPy"]
    assert ops == ["mov.u32", "atom.shared.add.u32", "bar.sync", "red.global.add.u64", "ret"], ops
    assert "vprintf" in arches["ptx"] and arches["ptx"]["vprintf"] == [], arches
    good = parse_spec("kernel exercise01::\nrequire atom\\.shared | a shared atomic\n"
                      "require bar\\.sync | a barrier\nforbid shfl | a shuffle\n")
    assert problems(good, arches, "t") == [], problems(good, arches, "t")
    bad = parse_spec("kernel exercise01::\nforbid (red|atom)\\.global | a global atomic\n"
                     "require shfl | a shuffle (shfl)\nkernel nothing_here\nrequire . | x\n")
    found = problems(bad, arches, "t")
    assert len(found) == 3, found
    assert "has a global atomic (red.global.add.u64, 1 in all)" in found[0], found
    assert "lacks a shuffle (shfl)" in found[1], found
    assert "no compiled function matches 'nothing_here'" in found[2], found
    # the harness's probe (namespace grading01) is not the answer's kernel
    only = parse_spec("kernel exercise01::\nforbid atom\\.global | a global atomic\n")
    assert problems(only, arches, "t") == []
    for broken in ("require X | y\n", "kernel k\nrequire X\n", "kernel k\nallow X | y\n", ""):
        try:
            parse_spec(broken)
        except ValueError:
            continue
        raise AssertionError(f"accepted a bad spec: {broken!r}")
    assert short_name("void grading01::(anonymous namespace)::k<int, ns::Max>(int*)") == "k"
    assert short_name("exercise01::per_warp_histogram_kernel(const unsigned char*)") == \
        "per_warp_histogram_kernel"
    # A PTX file not built yet: one line, exit 3 (course.built checks the line's command).
    import contextlib
    import io
    import tempfile
    with tempfile.TemporaryDirectory() as folder:
        spec = os.path.join(folder, "spec.txt")
        with open(spec, "w", encoding="utf-8") as f:
            f.write("kernel k\nrequire atom | an atomic\n")
        gone = os.path.join(folder, "CMakeFiles", "exercise01_1_ptx.dir", "harness.ptx")
        with contextlib.redirect_stderr(io.StringIO()) as said:
            status = check(spec, [gone], "exercise01_1")
        line = said.getvalue()
        assert status == built.NOT_BUILT and line.count("\n") == 1, (status, line)
        assert line.startswith("check_compiled.py: not built yet: ") and \
            line.rstrip().endswith("harness.ptx: run cmake --build --preset default"), line
    faults = built.selftest()
    assert not faults, faults
    print("check_compiled.py selftest: ok")
    return 0


def check(spec, ptx_paths, answer):
    """Prints one line per rule of the spec file `spec` that the PTX files break, or that the
    answer holds every rule. The exit status (see check_compiled.py's help)."""
    try:
        with open(spec, encoding="utf-8") as f:
            groups = parse_spec(f.read())
    except (OSError, ValueError) as error:
        print(f"check_compiled.py: {spec}: {error}", file=sys.stderr)
        return 2
    gone = built.missing_line("check_compiled.py", ptx_paths)
    if gone:
        print(gone, file=sys.stderr)
        verdicts.say("compiled", False, gone)
        return built.NOT_BUILT
    text = ""
    for path in ptx_paths:
        try:
            with open(path, encoding="utf-8") as f:
                text += f.read() + "\n"
        except OSError as error:
            print(f"check_compiled.py: {error}", file=sys.stderr)
            return 2
    found = problems(groups, parse_ptx(text), answer)
    for line in found:
        print(line)
    if not found:
        print(f"{answer}: its compiled code holds what the exercise asks for and nothing it "
              "rules out")
    verdicts.say("compiled", not found, found[0] if found else "every rule holds",
                 broken=found)
    return 1 if found else 0
