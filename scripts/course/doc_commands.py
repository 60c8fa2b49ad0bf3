"""The commands that the README and the guides show (scripts/doc_commands.py): each fenced block's
marker read and checked, and its lines run as the marker says, against a build, with the GPU
hidden for the cpu blocks."""

import glob
import json
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from course.gpus import gpus
from course.paths import ROOT

FILES = ["README.md", "docs/setup.md", "docs/students.md", "docs/instructors.md",
         "docs/your_gpu.md", "docs/notebook.ipynb"]
# The lessons' write-ups (part A): their code and logs are the write-up's, so only the blocks they
# mark are commands (the fast path that builds and runs the lesson's program), each checked and run
# like a guide's.
MARKED_ONLY = "lessons/[0-9][0-9]_*/README.md"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})(.*)$")
COMMENT = re.compile(r"^\s*<!--(.*?)-->\s*$")
KINDS = ("cpu", "gpu", "ctest")
DEFAULT_TIMEOUT = 120
OPTION = re.compile(r"\s*;\s*(?:(\d+):\s*)?(?:(exit|timeout)\s+(\d+)|(prints|lists no|lists)\s+"
                    r"/(.*?)/(?=\s*(?:;|$))|not run:\s*([^;]*[^;\s]))")
RUNNING = []  # the process group of the command being run
NO_GPU_SMI = ("#!/bin/sh\necho 'No devices were found (doc_commands.py: a cpu command runs as on "
              "a machine without a GPU)'\nexit 6\n")


def parse_marker(body):
    """(spec, error) of a marker comment's text; spec is None for a comment that is no marker.
    spec: {"kind", "why", "opts": {None or K: {"exit", "timeout", "prints", "lists",
    "lists no", "not run"}}}."""
    body = body.strip()
    if body == "output":
        return {"kind": "output", "why": "", "opts": {}}, ""
    if not body.startswith("commands:"):
        return None, ""
    rest = body[len("commands:"):].strip()
    if rest.startswith("not run:"):
        why = rest[len("not run:"):].strip()
        if not why:
            return None, "'not run:' needs its reason"
        return {"kind": "not run", "why": why, "opts": {}}, ""
    kind = re.match(r"\w+", rest)
    if not kind or kind.group(0) not in KINDS:
        return None, f"unknown kind in '{body}' (cpu, gpu, ctest, not run: WHY)"
    spec = {"kind": kind.group(0), "why": "", "opts": {}}
    at = kind.end()
    while at < len(rest):
        m = OPTION.match(rest, at)
        if not m:
            return None, f"unknown option '{rest[at:].strip()}' (exit, prints, timeout, lists)"
        line = int(m.group(1)) if m.group(1) else None
        opts = spec["opts"].setdefault(line, {"prints": [], "lists": [], "lists no": []})
        if m.group(2):
            opts[m.group(2)] = int(m.group(3))
        elif m.group(4):
            try:
                re.compile(m.group(5))
            except re.error as e:
                return None, f"bad regex /{m.group(5)}/: {e}"
            if m.group(4).startswith("lists") and spec["kind"] != "ctest":
                return None, f"'{m.group(4)}' is for ctest blocks only"
            opts[m.group(4)].append(m.group(5))
        elif line is None:
            return None, "'not run:' after a kind needs a line number (K: not run: WHY)"
        else:
            opts["not run"] = m.group(6)
        at = m.end()
    return spec, ""


def comment_above(lines, end):
    """(first line, text) of the HTML comment that ends on lines[end] (it may run over a few
    lines), or (end, None)."""
    if end < 0 or not lines[end].rstrip().endswith("-->"):
        return end, None
    for first in range(end, max(end - 6, -1), -1):
        if lines[first].lstrip().startswith("<!--"):
            m = COMMENT.match(" ".join(line.strip() for line in lines[first:end + 1]))
            return (first, m.group(1).strip()) if m else (end, None)
        if "<!--" in lines[first] or "-->" in lines[first] and first != end:
            break
    return end, None


def blocks(text):
    """[(fence line, marker line or 0, marker text or None, [(line no, command)], problem)] of a
    Markdown file's fenced blocks; the commands are the block's non-empty lines."""
    found, lines, i = [], text.split("\n"), 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, indent, fence = i, len(m.group(1)), m.group(2)
        i += 1
        while i < len(lines):
            close = FENCE.match(lines[i])
            if close and close.group(2).startswith(fence) and not close.group(3).strip():
                break
            i += 1
        body = [(n + 1, lines[n][indent:] if lines[n][:indent].isspace() else lines[n].strip())
                for n in range(start + 1, min(i, len(lines)))]
        commands = [(n, line.strip()) for n, line in body if line.strip()]
        marker_line, marker, problem = 0, None, "" if i < len(lines) else "a fence never closed"
        above = start - 1
        while True:
            first, text_of = comment_above(lines, above)
            if text_of is None:
                break
            if text_of == "output" or text_of.startswith("commands:"):
                marker_line, marker = first + 1, text_of
                break
            above = first - 1
        found.append((start + 1, marker_line, marker, commands, problem))
        i += 1
    return found


def notebook_markdown(text):
    """A notebook as the Markdown the checks read: each code cell a fenced block, its marker the
    cell's first comment line ("# commands: gpu", after a %%bash line) as an HTML comment."""
    out = []
    for cell in json.loads(text)["cells"]:
        lines = "".join(cell["source"]).split("\n")
        if cell["cell_type"] != "code":
            out += lines
            continue
        if lines and lines[0].startswith("%%bash"):
            lines = lines[1:]
        if lines and lines[0].startswith("# commands:"):
            out.append("<!-- " + lines[0][2:] + " -->")
            lines = lines[1:]
        out += ["```"] + lines + ["```", ""]
    return "\n".join(out)


def read_doc(full):
    """A file's text as Markdown: a notebook (.ipynb) through notebook_markdown."""
    with open(full, encoding="utf-8") as f:
        text = f.read()
    return notebook_markdown(text) if full.endswith(".ipynb") else text


def strip_comment(command):
    """The command without a trailing shell comment (a # after a blank, outside quotes)."""
    quote = ""
    for at, c in enumerate(command):
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "#" and (at == 0 or command[at - 1].isspace()):
            return command[:at].rstrip()
    return command.rstrip()


def runs_ctest(command):
    """Whether the command's last step (after &&, || or ;) is ctest."""
    last = re.split(r"&&|\|\||;", strip_comment(command))[-1].strip()
    return last == "ctest" or last.startswith("ctest ")


def line_options(spec, k):
    """The options of the block's k-th command line: the block's, then the line's own."""
    opts = {"exit": 0, "timeout": DEFAULT_TIMEOUT, "prints": [], "lists": [], "lists no": [],
            "not run": None}
    for key in (None, k):
        for name, value in spec["opts"].get(key, {}).items():
            opts[name] = opts[name] + value if isinstance(value, list) else value
    return opts


def block_problems(path, fence, marker_line, marker, commands, problem):
    """The problems of one block, one line each."""
    where = f"{path}:{fence}"
    out = [f"{where}: {problem}"] if problem else []
    if marker is None:
        return out + [f"{where}: a fenced block without a marker just before its fence "
                      "(<!-- commands: cpu|gpu|ctest|not run: WHY --> or <!-- output -->)"]
    spec, error = parse_marker(marker)
    if error:
        return out + [f"{path}:{marker_line}: {error}"]
    for k in spec["opts"]:
        if k is not None and not 1 <= k <= len(commands):
            out.append(f"{path}:{marker_line}: option for line {k}, but the block has "
                       f"{len(commands)} command lines")
    if spec["kind"] in ("cpu", "gpu"):
        for k, (n, command) in enumerate(commands, 1):
            if runs_ctest(command) and not line_options(spec, k)["not run"]:
                out.append(f"{path}:{n}: runs ctest in a {spec['kind']} block: mark the block "
                           "ctest, so that it lists the tests instead of running them")
    if spec["kind"] == "ctest" and not any(runs_ctest(c) for _, c in commands):
        out.append(f"{where}: a ctest block with no line that runs ctest")
    if spec["kind"] in KINDS and not commands:
        out.append(f"{where}: a {spec['kind']} block with no command")
    return out


def marked_only(root):
    """The files of MARKED_ONLY under `root`, from it, in order."""
    return sorted(os.path.relpath(p, root) for p in glob.glob(os.path.join(root, MARKED_ONLY)))


def problems(root, files=FILES, marked=()):
    """Every marker problem of the files, one line each (empty: none); of the `marked` files
    (MARKED_ONLY), only their marked blocks are read."""
    out = []
    for path in list(files) + list(marked):
        full = os.path.join(root, path)
        if not os.path.isfile(full):
            out.append(f"{path}: not found")
            continue
        for block in blocks(read_doc(full)):
            if path in marked and block[2] is None and not block[4]:
                continue
            out += block_problems(path, *block)
    return out


def listing_problems(listing, lists, lists_no):
    """What is wrong with a ctest -N listing: a regex of lists it does not match, or one of
    lists no that it does (with the first line it matches)."""
    out = [f"the listing does not match /{r}/" for r in lists if not re.search(r, listing, re.M)]
    for r in lists_no:
        m = re.search(r, listing, re.M)
        if m:
            line = listing[listing.rfind("\n", 0, m.start()) + 1:].split("\n")[0].strip()
            out.append(f"the listing matches /{r}/: {line}")
    return out


def presets(root):
    try:
        with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
            return {p["name"] for p in json.load(f).get("configurePresets", [])
                    if not p.get("hidden")}
    except (OSError, ValueError, KeyError):
        return set()


def test_preset_filters(root):
    """{name: CLI filter}: each test preset of the default build but "default" itself (such as
    "exercises"), with its label filter as ctest's -L and -LE options."""
    try:
        with open(os.path.join(root, "CMakePresets.json"), encoding="utf-8") as f:
            tests = json.load(f).get("testPresets", [])
    except (OSError, ValueError):
        return {}
    out = {}
    for p in tests:
        if p.get("hidden") or p.get("name") == "default" or p.get("configurePreset") != "default":
            continue
        labels = p.get("filter", {})
        args = []
        if "label" in labels.get("include", {}):
            args += ["-L", labels["include"]["label"]]
        if "label" in labels.get("exclude", {}):
            args += ["-LE", labels["exclude"]["label"]]
        out[p["name"]] = " ".join(shlex.quote(a) for a in args)
    return out


# The scripts that read build/default unless --build-dir names another build (grade.py has its own).
BUILD_DIR_SCRIPTS = ("bench.py", "compare.py", "timer_check.py")


def for_build(root, command, build):
    """(command, error): the command as it reads against the build folder (see the docstring)."""
    rel = os.path.relpath(build, root)
    if rel == os.path.join("build", "default"):
        return command, ""
    # A test preset of the default build (--preset exercises) would read build/default whatever
    # --test-dir says: its label filter stands in for it.
    for preset, filters in test_preset_filters(root).items():
        command = re.sub(rf"--preset {re.escape(preset)}\b", filters, command)
    # Right after the script's name: a --build-dir of the command's own comes later, and wins.
    for script in BUILD_DIR_SCRIPTS:
        command = re.sub(rf"(\bpython3?\s+(?:\./)?scripts/{re.escape(script)})(?![\w.])"
                         r"(?!\s+selftest\b)",
                         lambda m: f"{m.group(1)} --build-dir {shlex.quote(rel)}", command)
    name = os.path.basename(rel)
    uses = re.search(r"--preset default\b", command) or "build/default/" in command
    if uses and (os.path.dirname(rel) != "build" or name not in presets(root)):
        return command, (f"the build folder {rel} is not build/<preset>, so '--preset default' "
                         "and build/default/ cannot be redirected to it")
    return re.sub(r"--preset default\b", f"--preset {name}",
                  command.replace("build/default/", rel + "/")), ""


def untracked(root):
    """The untracked files git does not ignore, or None outside a git work tree."""
    try:
        done = subprocess.run(["git", "ls-files", "-o", "--exclude-standard", "-z"], cwd=root,
                              capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return set(filter(None, done.stdout.split("\0"))) if done.returncode == 0 else None


def run_line(root, command, opts, env, ctest, build):
    """(ok, verdict, output) of one command line."""
    command, error = for_build(root, command, build)
    if error:
        return False, error, ""
    if ctest and runs_ctest(command):
        command = f"{strip_comment(command)} -N --test-dir {shlex.quote(build)}"
    try:
        named = [w for w in shlex.split(command, comments=True)
                 if not w.startswith("-") and not os.path.isabs(w)]
    except ValueError:
        named = []
    new = {w for w in named if not os.path.lexists(os.path.join(root, w))}
    before = untracked(root)
    started = time.monotonic()
    proc = subprocess.Popen(["bash", "-c", command], cwd=root, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    RUNNING.append(proc.pid)
    try:
        raw, _ = proc.communicate(timeout=opts["timeout"])
        status = proc.returncode
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        raw, _ = proc.communicate()
        status = None
    finally:
        RUNNING.remove(proc.pid)
    took = time.monotonic() - started
    output = raw.decode("utf-8", "replace")
    left = []
    for w in sorted(new):
        full = os.path.join(root, w)
        if os.path.lexists(full) and os.path.realpath(full).startswith(root + os.sep):
            shutil.rmtree(full) if os.path.isdir(full) and not os.path.islink(full) \
                else os.remove(full)
            left.append(w)
    after = untracked(root)
    stray = sorted(after - before) if before is not None and after is not None else []
    why = []
    if status is None:
        why.append(f"did not finish in {opts['timeout']} s")
    elif status != opts["exit"]:
        why.append(f"exit {status}, expected {opts['exit']}")
    why += [f"the output does not match /{r}/" for r in opts["prints"]
            if not re.search(r, output, re.M)]
    if ctest and runs_ctest(command) and status == 0:
        why += listing_problems(output, opts["lists"], opts["lists no"])
    why += [f"left {w} in the repository" for w in stray]
    removed = f", removed {', '.join(left)}" if left else ""
    if why:
        return False, f"FAILED ({'; '.join(why)}){removed}: {command}", output
    return True, f"ok (exit {status}, {took:.1f} s{removed}): {command}", output


def stop(signum, _frame):
    """A command runs in its own session (so that a timeout stops all of it): when doc_commands.py is
    stopped (ctest's timeout, Ctrl-C), the command is stopped with it."""
    for pid in list(RUNNING):
        try:
            os.killpg(pid, signal.SIGKILL)
        except OSError:
            pass
    sys.exit(128 + signum)


def no_gpu_env(scratch):
    """The environment of a cpu command: the GPU hidden from CUDA and from nvidia-smi."""
    smi = os.path.join(scratch, "nvidia-smi")
    with open(smi, "w") as f:
        f.write(NO_GPU_SMI)
    os.chmod(smi, 0o755)
    return dict(os.environ, CUDA_VISIBLE_DEVICES="",
                PATH=scratch + os.pathsep + os.environ.get("PATH", ""))


def run(root, kind, build, skip=None, files=FILES, out=print, marked=()):
    """Runs the blocks of a kind, of the files and the marked blocks of `marked`; returns the
    number of lines that failed (marker problems count), or None for --kind gpu without a GPU."""
    build = os.path.abspath(os.path.join(root, build))
    faults = problems(root, files, marked)
    for p in faults:
        out(p)
    todo = []
    for path in list(files) + list(marked):
        if not os.path.isfile(os.path.join(root, path)):
            continue
        text = read_doc(os.path.join(root, path))
        for fence, marker_line, marker, commands, _ in blocks(text):
            spec = parse_marker(marker)[0] if marker else None
            if spec is None or spec["kind"] == "output":
                continue
            if spec["kind"] == "not run":
                out(f"{path}:{fence}: not run: {spec['why']}")
                continue
            runs = "gpu" if spec["kind"] == "gpu" else "cpu"
            if runs != kind:
                out(f"{path}:{fence}: a {spec['kind']} block, not run by --kind {kind}")
                continue
            todo.append((path, fence, spec, commands))
    if kind == "gpu":
        names, why = gpus()
        if not names:
            for path, fence, _, _ in todo:
                out(f"{path}:{fence}: skipped: no GPU ({why})")
            return None
    failed = len(faults)
    with tempfile.TemporaryDirectory() as scratch:
        env = no_gpu_env(scratch) if kind == "cpu" else dict(os.environ)
        for path, fence, spec, commands in todo:
            for k, (n, command) in enumerate(commands, 1):
                opts = line_options(spec, k)
                if opts["not run"]:
                    out(f"{path}:{n}: not run: {opts['not run']}: {command}")
                    continue
                if skip and re.search(skip, command):
                    out(f"{path}:{n}: skipped (--skip): {command}")
                    continue
                ok, verdict, output = run_line(root, command, opts, env,
                                               spec["kind"] == "ctest", build)
                out(f"{path}:{n}: {verdict}")
                if not ok:
                    failed += 1
                    for line in output.rstrip().split("\n")[-8:]:
                        out(f"    {line}")
    return failed


def selftest():
    """Made-up files with one fault each, which must be caught, and a good one, which must not."""
    good = ("# Try\n\n<!-- commands: cpu; 2: exit 3; 3: prints /^hello$/ -->\n```\ntrue\n"
            "sh -c 'exit 3'\necho hello > said.txt && cat said.txt   # writes said.txt\n```\n\n"
            "<!-- output -->\n```\nhello\n```\n\n<!-- commands: not run: needs sudo -->\n"
            "```\nsudo true\n```\n\n<!-- commands: gpu -->\n```\nfalse\n```\n\n"
            "<!-- commands: cpu;\n     exit 4 -->\n<!-- another comment -->\n```\nsh -c 'exit 4'\n"
            "```\n")
    static = {
        "a block without a marker": "# Try\n\n```\ntrue\n```\n",
        "a marker with a blank line before the fence": "<!-- commands: cpu -->\n\n```\ntrue\n```\n",
        "an unknown kind": "<!-- commands: tpu -->\n```\ntrue\n```\n",
        "an unknown option": "<!-- commands: cpu; exits 0 -->\n```\ntrue\n```\n",
        "'not run' without a reason": "<!-- commands: not run: -->\n```\ntrue\n```\n",
        "an option for a line the block does not have": "<!-- commands: cpu; 2: exit 1 -->\n"
                                                         "```\ntrue\n```\n",
        "a cpu block that runs the test suite": "<!-- commands: cpu -->\n```\ncmake --build "
                                               "--preset default && ctest --preset default\n```\n",
        "lists in a cpu block": "<!-- commands: cpu; lists / x/ -->\n```\ntrue\n```\n",
        "a fence never closed": "<!-- commands: cpu -->\n```\ntrue\n",
    }
    running = {
        "a cpu command that exits non-zero": "<!-- commands: cpu -->\n```\ntrue\nfalse\n```\n",
        "a prints regex that does not match": "<!-- commands: cpu; prints /goodbye/ -->\n```\n"
                                              "echo hello\n```\n",
        "a line past its timeout": "<!-- commands: cpu; timeout 1 -->\n```\nsleep 5\n```\n",
    }
    ok = True

    def expect(name, got, want):
        nonlocal ok
        if bool(got) != want:
            ok = False
            print(f"doc_commands.py selftest: {name}: expected "
                  f"{'a problem' if want else 'none'}, got {got or 'none'}")

    with tempfile.TemporaryDirectory() as tmp:
        readme = os.path.join(tmp, "README.md")
        lines = []
        for name, text in [("the good file", good)] + list(static.items()):
            with open(readme, "w", encoding="utf-8") as f:
                f.write(text)
            expect(name, problems(tmp, ["README.md"]), name != "the good file")
        with open(readme, "w", encoding="utf-8") as f:
            f.write(good)
        failed = run(tmp, "cpu", "build/default", files=["README.md"], out=lines.append)
        expect("the good file's cpu lines", failed and lines, False)
        expect("the file a command wrote left behind", os.path.exists(os.path.join(
            tmp, "said.txt")) and ["said.txt"], False)
        expect("the gpu block run by --kind cpu", [x for x in lines if "false" in x and
                                                   "ok" in x], False)
        for name, text in running.items():
            with open(readme, "w", encoding="utf-8") as f:
                f.write(text)
            expect(name, run(tmp, "cpu", "build/default", files=["README.md"],
                             out=lambda line: None), True)
        # A lesson's write-up: its unmarked code and logs are not commands; its marked blocks are
        # checked and run like a guide's.
        lesson = os.path.join("lessons", "01_x", "README.md")
        os.makedirs(os.path.join(tmp, "lessons", "01_x"))
        write_up = ("# Lesson\n\n```cuda\nkernel<<<1, 1>>>();\n```\n\n<!-- log: x.txt -->\n"
                    "```\nv0 1 ms\n```\n<!-- /log -->\n\n<!-- commands: cpu; 2: exit 77 -->\n"
                    "```\ntrue\nsh -c 'exit 77'\n```\n")
        with open(os.path.join(tmp, lesson), "w", encoding="utf-8") as f:
            f.write(write_up)
        expect("a write-up's unmarked code and log", problems(tmp, [], marked_only(tmp)), False)
        lines = []
        expect("a write-up's marked block run", run(tmp, "cpu", "build/default", files=[],
                                                    out=lines.append, marked=marked_only(tmp))
               or len([x for x in lines if ": ok (exit" in x]) != 2 and lines, False)
        with open(os.path.join(tmp, lesson), "w", encoding="utf-8") as f:
            f.write(write_up.replace("2: exit 77", "2: exits 77"))
        expect("a write-up's bad marker", problems(tmp, [], marked_only(tmp)), True)
        with open(os.path.join(tmp, lesson), "w", encoding="utf-8") as f:
            f.write(write_up.replace("; 2: exit 77", ""))
        expect("a write-up's marked line that fails", run(tmp, "cpu", "build/default", files=[],
                                                          out=lambda line: None,
                                                          marked=marked_only(tmp)), True)
    # README's old test line listed the exercise starters (issue 43, item 1); ctest itself is
    # not run here: a listing as `ctest -N` prints it stands in.
    old = "ctest --preset default -LE sanitize"
    spec, _ = parse_marker("commands: ctest; lists no / exercise [0-9]/; lists /repository/")
    opts = line_options(spec, 1)
    listing = ("Test project /work/build/default\n"
               "  Test  #24: repository/demo_class.py makes five students, each with every "
               "exercise\n  Test  #45: 01 solution 1/the per-warp histogram counts every size "
               "exactly\n  Test  #46: 01 exercise 1/the per-warp histogram counts every size "
               "exactly\n  Test  #47: 01 exercise 1/it takes at most 2 times the model answer's "
               "time\n\nTotal Tests: 4\n")
    fixed = "\n".join(line for line in listing.split("\n") if " exercise 1/" not in line)
    expect(f"'{old}' listing the exercise starters", runs_ctest(old) and listing_problems(
        listing, opts["lists"], opts["lists no"]), True)
    now = 'ctest --preset default -LE "exercise|sanitize"'  # CTest ANDs it with the preset's -LE
    spec, _ = parse_marker("commands: ctest; lists no /[/]sanitize /")
    expect(f"'{now}' listing the sanitizer's tests", runs_ctest(now) and listing_problems(
        "  Test  #42: 01/sanitize memcheck\n", [], line_options(spec, 1)["lists no"]), True)
    expect("a listing without the starters", listing_problems(
        fixed, opts["lists"], opts["lists no"]), False)
    expect("a listing without a test it must list", listing_problems(
        "Total Tests: 0\n", opts["lists"], []), True)
    got = strip_comment('ctest --preset exercises -R "01 #1"   # all of it')
    expect("a comment kept out of the listed command",
           got != 'ctest --preset exercises -R "01 #1"' and [got], False)
    with tempfile.TemporaryDirectory() as tmp:
        with open(os.path.join(tmp, "CMakePresets.json"), "w", encoding="utf-8") as f:
            json.dump({"configurePresets": [{"name": "default"}, {"name": "ci"}]}, f)
        got = for_build(tmp, "cmake --build --preset default && build/default/bin/x",
                        os.path.join(tmp, "build", "ci"))
        expect("--preset default and build/default/ against build/ci",
               got != ("cmake --build --preset ci && build/ci/bin/x", "") and [got], False)
        got = for_build(ROOT, 'ctest --preset exercises -R "01 exercise 1"',
                        os.path.join(ROOT, "build", "ci"))
        expect("--preset exercises against build/ci",
               got != ('ctest -L exercise -R "01 exercise 1"', "") and [got], False)
        got = for_build(ROOT, "python3 scripts/compare.py 01 && python3 scripts/compare.py "
                        "--build-dir=x 02; python3 scripts/bench.py selftest; cat scripts/"
                        "compare.py scripts/bench.pyc | grep 'python3 scripts/compare.pyc'",
                        os.path.join(ROOT, "build", "ptx80"))
        expect("compare.py told the build folder, ahead of its own", got != (
            "python3 scripts/compare.py --build-dir build/ptx80 01 && python3 scripts/compare.py "
            "--build-dir build/ptx80 --build-dir=x 02; python3 scripts/bench.py selftest; cat "
            "scripts/compare.py scripts/bench.pyc | grep 'python3 scripts/compare.pyc'", "")
               and [got], False)
        expect("--preset default against a folder that is no preset's", for_build(
            tmp, "cmake --build --preset default", os.path.join(tmp, "elsewhere"))[1], True)
    print("doc_commands.py selftest: " + ("ok" if ok else "FAILED"))
    return 0 if ok else 1


def check():
    """Prints one line per problem of the blocks' markers, or how many blocks there are, each
    marked. The exit status."""
    lessons = marked_only(ROOT)
    found = problems(ROOT, FILES, lessons)
    for p in found:
        print(p)
    if not found:
        count = 0
        for path in FILES:
            with open(os.path.join(ROOT, path), encoding="utf-8") as f:
                count += len(blocks(f.read()))
        marked = sum(1 for path in lessons for block in blocks(read_doc(os.path.join(ROOT, path)))
                     if block[2] is not None)
        print(f"doc_commands.py: ok, {count} fenced blocks in {len(FILES)} files, each marked, and "
              f"{marked} marked blocks in {len(lessons)} lessons' README.md")
    return 1 if found else 0


def run_all(kind, build, skip):
    """Runs the blocks of `kind` (cpu: the cpu and ctest blocks) against the build folder
    `build`, skipping the lines that match the regex `skip`, and says how it went; stopping this
    process stops the command being run. The exit status (77: gpu without a GPU)."""
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, stop)
    started = time.monotonic()
    failed = run(ROOT, kind, build, skip, marked=marked_only(ROOT))
    took = time.monotonic() - started
    if failed is None:
        print(f"doc_commands.py: no GPU: the gpu blocks are skipped ({took:.0f} s)")
        return 77
    print(f"doc_commands.py: {'FAILED, ' + str(failed) + ' lines' if failed else 'ok'} "
          f"(--kind {kind}, {took:.0f} s)")
    return 1 if failed else 0
