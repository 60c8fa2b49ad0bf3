"""What an answer's object file defines and calls (scripts/check_objects.py): the harness's host
object, built with the answer, read with binutils' readelf, and its PTX, compared with the same
files built with the model answer. An allow-list, not a list of what is forbidden:

- each function of the object may call, outside it, only what the same function of the model
  answer's object calls, what BASE_CALLS names, and the manifest's "host_calls": the answer's own
  functions, and the harness's, into which the compiler may have put the answer's inline code;
- the object defines no symbol outside the exercise's namespace that the model answer's does not
  (no main(), no C library function put in front of the real one, no course function);
- its static initializers and finalizers (.init_array, .fini_array, .ctors, .dtors,
  .preinit_array) are the model answer's, and call nothing the model answer's do not;
- its functions' code transfers control through a computed address (call *%rax, jmp *%rax) or
  calls the kernel (syscall, sysenter, int) no more often than the model answer's same function's
  does, and a function the model answer has not does neither: a call through a pointer that the
  answer found itself (libc's write, from its symbol table in memory) needs no relocation to name
  it, so the rules above would not see it (objdump reads the instructions);
- its PTX declares no external device function (vprintf, malloc) that the model answer's does
  not, and the answer's device functions call none but the manifest's "device_calls".

Names are compared mangled, as the object files hold them; c++filt only turns them into the
messages' words and finds a name's namespace."""

import os
import re
import shutil
import subprocess
import sys

from course import built, compiled, verdicts

# What any answer's host code may reach: the launch of its own kernels (nvcc's stubs), and what the
# C++ compiler itself emits (guards of local statics, unwinding, the stack protector, block copies).
BASE_CALLS = frozenset({
    "__cudaPushCallConfiguration", "__cudaPopCallConfiguration", "__cudaLaunchKernel",
    "__cudaGetKernel", "cudaLaunchKernel", "__cxa_guard_acquire", "__cxa_guard_release",
    "__cxa_guard_abort", "_Unwind_Resume", "__gxx_personality_v0", "__stack_chk_fail", "memcpy",
    "memmove", "memset",
})
# The standard library's exceptions for a bad argument (std::__throw_length_error and the like):
# what its inline code, instantiated in the answer, calls.
STD_THROW = re.compile(r"^_ZSt\d+__throw_\w+$")
# nvcc's registration of the object's kernels with the runtime, a static initializer of its own
NVCC_REGISTRATION = re.compile(r"__sti____cudaRegisterAll")
INIT_SECTIONS = (".init_array", ".fini_array", ".ctors", ".dtors", ".preinit_array")
# "call.uni (retval0), vprintf, (" or "call.uni vprintf, (" or "call (%r1), _Z3fooi, ("
CALL = re.compile(r"^\s*(?:@!?%\w+\s+)?call(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([A-Za-z_$][\w$]*)",
                  re.M)


def plain_anonymous(name):
    """`name` with each anonymous namespace that nvcc named uniquely (<length>_GLOBAL__N__<hash>_
    <n>_<the file's name>_<hash>) spelt as g++ spells one (12_GLOBAL__N_1), so that the model
    answer's object and the answer's name the harness's own functions and variables alike. The
    length before it is found from the name itself: the digits of a name before it (exercise01)
    are not part of it."""
    out, at = [], 0
    for m in re.finditer(r"_GLOBAL__N__[0-9a-f]+_\d+_[A-Za-z0-9_]*?_[0-9a-f]{8}", name):
        length = str(len(m.group(0)))
        start = m.start() - len(length)
        if start < at or name[start:m.start()] != length:
            continue
        out.append(name[at:start] + "12_GLOBAL__N_1")
        at = m.end()
    out.append(name[at:])
    return "".join(out)


class ObjectFile:
    """The symbols, sections and relocations of one ELF object, as readelf prints them."""

    def __init__(self, path):
        self.path = path
        self.sections = {}  # index -> name
        self.section_types = {}  # name -> type (PROGBITS, INIT_ARRAY, ...)
        self.functions = {}  # name -> (section index, value, size)
        self.defined = {}  # name -> (type, bind) of every global or weak symbol defined
        self.undefined = set()
        self.ifuncs = set()
        self.relocations = {}  # section it applies to -> [(offset, symbol, addend, relative)]
        self._read()

    def _readelf(self, option):
        done = subprocess.run(["readelf", "-W", option, self.path], capture_output=True,
                              text=True)
        if done.returncode != 0:
            raise ValueError(f"readelf {option} {self.path}: {done.stderr.strip()[:200]}")
        return done.stdout

    def _read(self):
        for line in self._readelf("-S").splitlines():
            m = re.match(r"^\s*\[\s*(\d+)\]\s+(\S+)\s+(\S+)", line)
            if m:
                self.sections[int(m.group(1))] = plain_anonymous(m.group(2))
                self.section_types[plain_anonymous(m.group(2))] = m.group(3)
        for line in self._readelf("-s").splitlines():
            words = line.split()
            if len(words) < 8 or not words[0].endswith(":") or not words[0][:-1].isdigit():
                continue
            value, size, kind, bind, ndx = words[1], words[2], words[3], words[4], words[6]
            name = plain_anonymous(words[7])
            if ndx == "UND":
                if name:
                    self.undefined.add(name)
                continue
            if kind == "IFUNC":
                self.ifuncs.add(name)
            if kind in ("FUNC", "IFUNC") and ndx.isdigit():
                self.functions[name] = (int(ndx), int(value, 16), int(size, 0))
            if bind in ("GLOBAL", "WEAK") and kind in ("FUNC", "OBJECT", "NOTYPE", "TLS"):
                self.defined[name] = (kind, bind)
        current = None
        for line in self._readelf("-r").splitlines():
            m = re.match(r"^Relocation section '\.rela?(\S*)'", line)
            if m:
                current = self.relocations.setdefault(m.group(1), [])
                continue
            words = line.split()
            if current is None or len(words) < 5 or not re.fullmatch(r"[0-9a-f]+", words[0]):
                continue
            # offset info type symbol-value name [+|- addend]
            name = plain_anonymous(words[4])
            addend = 0
            if len(words) >= 7 and words[5] in "+-":
                addend = int(words[6], 16) * (1 if words[5] == "+" else -1)
            relative = words[2].endswith(("PC32", "PLT32", "PC64"))
            current.append((int(words[0], 16), name, addend, relative))

    def function_at(self, section_name, offset):
        """The function of section `section_name` whose code holds `offset`, or None."""
        for name, (ndx, value, size) in self.functions.items():
            if self.sections.get(ndx) == section_name and value <= offset < value + max(size, 1):
                return name
        return None

    def targets(self, section_name, start=0, end=None):
        """What the relocations of `section_name` between start and end point at: (functions of
        this object, external symbols). A reference to a section (".text + 3c") is resolved to
        the function there; one to the object's own data is not a call."""
        inside, outside = set(), set()
        for offset, symbol, addend, relative in self.relocations.get(section_name, []):
            if offset < start or (end is not None and offset >= end):
                continue
            if symbol in self.functions:
                inside.add(symbol)
            elif symbol in self.undefined:
                outside.add(symbol)
            elif symbol in self.sections.values():
                # a pc-relative reference's addend is the target's offset less 4 (the field's size)
                found = self.function_at(symbol, addend + 4 if relative else addend)
                if found:
                    inside.add(found)
        return inside, outside

    def calls(self, function):
        """(functions of this object, external symbols) that `function`'s code refers to."""
        ndx, value, size = self.functions[function]
        return self.targets(self.sections.get(ndx, ""), value, value + max(size, 1))

    def init_sections(self):
        """The sections that hold static initializers or finalizers: by their type (INIT_ARRAY,
        FINI_ARRAY, PREINIT_ARRAY), and by their name (.init_array.00099 and the like, which the
        linker merges into .init_array, and .ctors, .dtors, .init, .fini)."""
        return sorted(name for name, kind in self.section_types.items()
                      if kind in ("INIT_ARRAY", "FINI_ARRAY", "PREINIT_ARRAY")
                      or name.startswith(INIT_SECTIONS) or name in (".init", ".fini"))

    def init_functions(self):
        """The functions the object's static initializer and finalizer tables name."""
        found = set()
        for section in self.init_sections():
            found |= self.targets(section)[0]
        return found

    def data_references(self):
        """The external symbols that the object's data (not its code, its tables of initializers
        or its unwinding and debugging tables) holds the address of: a function pointer to
        printf kept in a variable is a call the code's relocations do not show."""
        code = {self.sections.get(ndx) for ndx, _, _ in self.functions.values()}
        skip = set(self.init_sections())
        found = set()
        for section in self.relocations:
            if section in code or section in skip or section.startswith(
                    (".debug", ".eh_frame", ".gcc_except_table", ".nv")):
                continue
            found |= self.targets(section)[1]
        return found


# An x86-64 instruction, as objdump prints it, that goes to a computed address or into the kernel.
INDIRECT = re.compile(r"^\s*[0-9a-f]+:\s+(?:(?:notrack|bnd|rex\.?\w*|data16|cs|ds)\s+)*"
                      r"(?:(?:call|jmp)[a-z]*\s+\*|l?(?:call|jmp)[a-z]*\s+far\b|ljmp|lcall|"
                      r"syscall\b|sysenter\b|int\s+\$|int1\b|int3\b|into\b)")
LABEL = re.compile(r"^[0-9a-f]+ <(.+)>:$")


def indirect_transfers(path):
    """{function: how many instructions of its code go to a computed address or into the kernel},
    from objdump's disassembly of the object's code."""
    done = subprocess.run(["objdump", "-d", "-w", "--no-show-raw-insn", path],
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise ValueError(f"objdump -d {path}: {done.stderr.strip()[:200]}")
    counts = {}
    current = None
    for line in done.stdout.splitlines():
        m = LABEL.match(line)
        if m:
            current = plain_anonymous(m.group(1))
            counts.setdefault(current, 0)
        elif current is not None and INDIRECT.match(line):
            counts[current] += 1
    return counts


def demangle(names):
    return compiled.demangle(sorted(names))


def qualified(demangled):
    """A demangled name's qualified name, without its return type, template arguments or
    parameters, and without the prefix of a guard variable, vtable or typeinfo:
    "void exercise03::(anonymous namespace)::k<int>(int*)" -> "exercise03::{anon}::k"."""
    name = demangled.replace("(anonymous namespace)", "{anon}")
    for prefix in ("guard variable for ", "vtable for ", "typeinfo for ", "typeinfo name for ",
                   "VTT for ", "construction vtable for "):
        if name.startswith(prefix):
            name = name[len(prefix):]
    depth = 0
    for i, c in enumerate(name):
        if c in "(<" and depth == 0:
            name = name[:i]
            break
    return name.split(" ")[-1]


def in_namespace(demangled, namespace):
    return qualified(demangled).startswith(namespace + "::")


def closure(obj, start):
    """Every function and external symbol reachable from the functions `start` (all followed)."""
    seen, outside = set(), set()
    todo = list(start)
    while todo:
        function = todo.pop()
        if function in seen or function not in obj.functions:
            continue
        seen.add(function)
        inside, out = obj.calls(function)
        outside |= out
        todo.extend(inside)
    return seen | outside


def host_problems(student, model, namespace, allowed, answer, transfers=None):
    """One line per broken rule of the host object. `transfers`: (the answer's, the model's)
    indirect_transfers, when objdump read them."""
    out = []
    names = demangle(set(student.functions) | set(student.defined) | student.undefined)

    def shown(symbol):
        return names.get(symbol, symbol)

    if "main" in student.defined:
        out.append(f"{answer}: defines main() (the tests' own main() runs the tests)")
    for symbol in sorted(set(student.defined) - set(model.defined)):
        if symbol == "main" or in_namespace(shown(symbol), namespace):
            continue
        if shown(symbol).startswith("__device_stub__") or qualified(shown(symbol)).startswith(
                "std::"):
            continue  # nvcc's launch stub of a kernel of its own; an instance of a std template
        out.append(f"{answer}: defines {shown(symbol)}, outside namespace {namespace} (an answer "
                   "may define only its own functions and variables)")
    model_functions = set(model.functions)
    # Every function, the harness's among them: an answer's inline function is compiled into
    # the harness's code that calls it.
    for function in sorted(set(student.functions) - student.init_functions()):
        calls = student.calls(function)[1]
        if function in model_functions:
            calls -= model.calls(function)[1]
        for symbol in sorted(calls - BASE_CALLS - allowed):
            if not STD_THROW.match(symbol):
                out.append(f"{answer}: {shown(function)} calls {shown(symbol)} (not among the "
                           "calls this exercise allows)")
    if transfers is not None:
        mine, theirs = transfers
        for function in sorted(mine):
            if mine[function] > theirs.get(function, 0):
                out.append(f"{answer}: {shown(function)} calls or jumps through a computed "
                           f"address or into the kernel {mine[function]} times, the model "
                           f"answer's {theirs.get(function, 0)} (a call no relocation names)")
    for name in sorted(student.ifuncs - model.ifuncs):
        out.append(f"{answer}: defines {shown(name)} as an indirect function (code the loader "
                   "runs before main())")
    for symbol in sorted(student.data_references() - model.data_references() - BASE_CALLS
                         - allowed):
        out.append(f"{answer}: keeps the address of {shown(symbol)} in its data (a call through "
                   "a pointer, not among the calls this exercise allows)")
    extra_tables = sorted(set(student.init_sections()) - set(model.init_sections()))
    if extra_tables:
        out.append(f"{answer}: has a table of static initializers or finalizers of its own "
                   f"({extra_tables[0]}), code that runs before or after main()")
    # By what they call, not by name: GCC names a file's initializer after its first function.
    mine = {f for f in student.init_functions() if not NVCC_REGISTRATION.search(f)}
    theirs = {f for f in model.init_functions() if not NVCC_REGISTRATION.search(f)}
    if len(mine) > len(theirs):
        new = sorted(mine - theirs) or sorted(mine)
        out.append(f"{answer}: has a static initializer or finalizer of its own "
                   f"({shown(new[0])}), code that runs before or after main()")
    extra = sorted(closure(student, mine) - mine - (closure(model, theirs) - theirs))
    if extra:
        out.append(f"{answer}: its static initialization calls {shown(extra[0])} (a variable "
                   "initialized by code, which runs before main())")
    return out


def ptx_calls(text):
    """({function: {callees}}, {external functions}) of a PTX file."""
    externs = set(re.findall(r"^\s*\.extern\s+\.func\s+(?:\([^)]*\)\s*)?([A-Za-z_$][\w$]*)",
                             text, re.M))
    calls = {}
    for name, header, body in compiled.function_bodies(text):
        if header.startswith(".extern"):
            continue
        # (nvcc may put a call's target on the line after "call.uni (retval0),")
        calls.setdefault(name, set()).update(CALL.findall("\n".join(body)))
    return calls, externs


def device_problems(student_ptx, model_ptx, namespace, allowed, answer):
    out = []
    calls, externs = ptx_calls(student_ptx)
    _, model_externs = ptx_calls(model_ptx)
    for name in sorted(externs - model_externs - set(allowed)):
        out.append(f"{answer}: its device code calls {name} (not among the calls this exercise "
                   "allows)")
    names = demangle(set(calls))
    for function, callees in sorted(calls.items()):
        if not in_namespace(names.get(function, function), namespace):
            continue
        for callee in sorted((callees & externs) - set(allowed)):
            if callee in model_externs:
                out.append(f"{answer}: {names.get(function, function)} calls {callee} on the "
                           "GPU (not among the calls this exercise allows)")
    return out


def check(args):
    """Prints one line per broken rule, or that none is; the verdict line; the exit status."""
    for tool in ("readelf", "objdump"):
        if shutil.which(tool) is None:
            print(f"check_objects.py: {tool} (binutils) is not installed", file=sys.stderr)
            return 2
    inputs = [args.object, args.model] + [p for p in (args.ptx, args.model_ptx) if p]
    if any(not os.path.isfile(path) for path in inputs):
        print(built.missing_line("check_objects.py", inputs))
        return built.NOT_BUILT
    try:
        student, model = ObjectFile(args.object), ObjectFile(args.model)
        transfers = (indirect_transfers(args.object), indirect_transfers(args.model))
        found = host_problems(student, model, args.namespace, set(args.host_calls), args.answer,
                              transfers)
        if args.ptx and args.model_ptx:
            texts = []
            for path in (args.ptx, args.model_ptx):
                with open(path, encoding="utf-8") as f:
                    texts.append(f.read())
            found += device_problems(texts[0], texts[1], args.namespace, args.device_calls,
                                     args.answer)
    except (OSError, ValueError) as error:
        print(f"check_objects.py: {error}", file=sys.stderr)
        return 2
    for line in found:
        print(line)
    if not found:
        print(f"{args.answer}: its objects define and call only what the exercise allows")
    verdicts.say("objects", not found, found[0] if found else "every rule holds", broken=found)
    return 1 if found else 0


SELFTEST_MODEL = """
namespace exercise09 {
int step(int x) { return x + 1; }
}
namespace grading09 {
int run(int x) { return exercise09::step(x); }
}
"""
# Each: (what the answer's part is, a line its failure must hold, or None for none).
SELFTEST_ANSWERS = [
    ("namespace exercise09 {\nint step(int x) { return 2 * x - x + 1; }\n}", None),
    ("namespace exercise09 {\nint helper(int x) { return x; }\n"
     "int step(int x) { return helper(x) + 1; }\n}", None),
    ("#include <cstdlib>\nnamespace exercise09 {\n"
     "int step(int x) { return std::getenv(\"K\") ? x : x + 1; }\n}", "calls getenv"),
    ("#include <cstdlib>\nnamespace exercise09 {\ninline int step(int x) {\n"
     "  if (x == 7) std::system(\"true\");\n  return x + 1;\n}\n}", "calls system"),
    ("namespace exercise09 {\nint step(int x) { return x + 1; }\n}\n"
     "int main() { return 0; }", "defines main()"),
    ("#include <cstdlib>\nnamespace exercise09 {\nint step(int x) { return x + 1; }\n"
     "int seen = std::rand();\n}", "static initialization calls rand"),
    ("namespace exercise09 {\nint step(int x) { return x + 1; }\n"
     "__attribute__((constructor)) void early() { __builtin_puts(\"x\"); }\n}",
     "a static initializer or finalizer"),
    ("namespace exercise09 {\nint step(int x) { return x + 1; }\n}\n"
     "extern \"C\" int puts(const char*) { return 0; }", "defines puts, outside namespace"),
    ("#include <cstdio>\nnamespace exercise09 {\nvoid early() { std::puts(\"x\"); }\n"
     "[[gnu::section(\".init_array.00099\"), gnu::used]] void (*hook)() = early;\n"
     "int step(int x) { return x + 1; }\n}", "static initializer"),
    ("#include <cstdio>\nnamespace exercise09 {\nint (*say)(const char*) = std::puts;\n"
     "int step(int x) { return x + 1; }\n}", "keeps the address of puts"),
    # a call through an address the answer computes (no relocation names what it calls)
    ("namespace exercise09 {\nint step(int x) {\n"
     "  volatile unsigned long where = 0x401000ul + x;\n"
     "  return reinterpret_cast<int (*)(int)>(where)(x) + 1;\n}\n}", "through a computed"),
    ("namespace exercise09 {\nint step(int x) {\n  long r;\n"
     "  asm volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L) : \"rcx\", \"r11\");\n"
     "  return x + 1 + int(r & 0);\n}\n}", "into the kernel"),
]
SELFTEST_PTX = """
.extern .func  (.param .b32 func_retval0) vprintf
(
	.param .b64 vprintf_param_0
)
;
.visible .entry _ZN10exercise096kernelEPi(
	.param .u64 _ZN10exercise096kernelEPi_param_0
)
{
	{ // callseq 0
	call.uni (retval0), %s, (param0);
	} // callseq 0
	ret;
}
.visible .entry _ZN9grading095probeEv()
{
	call.uni (retval0), vprintf, (param0);
	ret;
}
"""


def selftest():
    """Builds small objects with g++ (the host rules) and checks made-up PTX (the device rules):
    each answer must be decided as SELFTEST_ANSWERS says."""
    import os
    import tempfile
    from types import SimpleNamespace
    if any(shutil.which(tool) is None for tool in ("g++", "readelf", "objdump")):
        print("check_objects.py selftest: skipped (needs g++, readelf and objdump)")
        return 0
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        def build(name, answer):
            source = os.path.join(tmp, name + ".cpp")
            with open(source, "w", encoding="utf-8") as f:
                f.write(answer + "\n#include <cstdlib>\nnamespace grading09 {\n"
                        "int run(int x) { return exercise09::step(x); }\n"
                        "int seed = std::atoi(\"1\");\n}\n")
            done = subprocess.run(["g++", "-O2", "-c", source, "-o", source + ".o"],
                                  capture_output=True, text=True)
            if done.returncode != 0:
                raise AssertionError(f"{name} did not compile: {done.stderr[:300]}")
            return ObjectFile(source + ".o")

        model = build("model", SELFTEST_MODEL.split("namespace grading09")[0])
        model_transfers = indirect_transfers(model.path)
        for i, (answer, want) in enumerate(SELFTEST_ANSWERS):
            obj = build(f"answer{i}", answer)
            found = host_problems(obj, model, "exercise09", set(), "t",
                                  (indirect_transfers(obj.path), model_transfers))
            if want is None and found:
                problems.append(f"answer {i} refused: {found}")
            if want is not None and not any(want in line for line in found):
                problems.append(f"answer {i} not refused for '{want}': {found}")
        allowed = host_problems(build("allowed", SELFTEST_ANSWERS[2][0]), model, "exercise09",
                                {"getenv"}, "t")
        if allowed:
            problems.append(f"a call the manifest allows refused: {allowed}")
    clean = SELFTEST_PTX % "_ZN10exercise094stepEv"
    dirty = SELFTEST_PTX % "vprintf"
    if device_problems(clean, clean, "exercise09", [], "t"):
        problems.append("a call of the answer's own device function refused")
    found = device_problems(dirty, clean, "exercise09", [], "t")
    if not any("calls vprintf on the GPU" in line for line in found):
        problems.append(f"the answer's vprintf, which the harness calls too, not refused: {found}")
    found = device_problems(dirty.replace("vprintf, (param0);\n\tret;\n}\n", "x;\n}\n")
                            .replace("call.uni (retval0), vprintf", "mov.u32 %r1"),
                            clean.replace(".extern .func  (.param .b32 func_retval0) vprintf",
                                          ""), "exercise09", [], "t")
    if not any("device code calls vprintf" in line for line in found):
        problems.append(f"an external device function the model has not, not refused: {found}")
    if device_problems(dirty, clean, "exercise09", ["vprintf"], "t"):
        problems.append("a device call the manifest allows refused")
    print("check_objects.py selftest: " + ("ok" if not problems else "FAILED"))
    for line in problems:
        print("  " + line)
    return 1 if problems else 0
