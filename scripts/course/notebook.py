"""scripts/run_notebook.py: runs a notebook's cells in order and writes their outputs into it."""

import contextlib
import io
import json
import os
import subprocess
import tempfile
import time
import traceback

from course import cli
from course.gpus import gpu_name


def run_cell(source, namespace):
    """(ok, output text) of one code cell."""
    if source.startswith("%%bash"):
        body = source.split("\n", 1)[1] if "\n" in source else ""
        done = subprocess.run(["bash", "-c", body], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True, cwd=os.getcwd())
        text = done.stdout
        if done.returncode != 0:
            text += f"bash exited with status {done.returncode}\n"
        return done.returncode == 0, text
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer), contextlib.redirect_stderr(buffer):
            exec(compile(source, "<cell>", "exec"), namespace)
    except BaseException:  # a cell's SystemExit too: Jupyter reports it and stops
        return False, buffer.getvalue() + traceback.format_exc(limit=1)
    return True, buffer.getvalue()


def run(path, out_path, log=print):
    """Runs the notebook at path; writes it, with outputs, to out_path. Returns the exit status."""
    with open(path, encoding="utf-8") as f:
        book = json.load(f)
    gpu = gpu_name() or "no GPU"
    namespace = {"__name__": "__main__"}
    count, status, start_dir = 0, 0, os.getcwd()
    try:
        for cell in book["cells"]:
            if cell["cell_type"] != "code":
                continue
            if status:
                cell["outputs"], cell["execution_count"] = [], None
                continue
            count += 1
            began = time.monotonic()
            ok, text = run_cell("".join(cell["source"]), namespace)
            took = time.monotonic() - began
            text += f"[this cell took {took:.0f} s on {gpu}]\n"
            cell["execution_count"] = count
            cell["outputs"] = [{"name": "stdout", "output_type": "stream",
                                "text": text.splitlines(True)}]
            log(f"cell {count}: {'ok' if ok else 'FAILED'} in {took:.0f} s")
            if not ok:
                log(text)
                status = 1
    finally:
        os.chdir(start_dir)
    with open(out_path, "w", encoding="utf-8") as f:
        json.dump(book, f, indent=1, ensure_ascii=False)
        f.write("\n")
    return status


def selftest():
    """A made-up notebook: Python and bash cells share the working folder and the environment,
    outputs and times are written, and a failing cell stops the run."""
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# t"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["import os\n", "os.environ['X'] = '41'\n", "os.chdir('/')\n",
                         "print('py', int(os.environ['X']) + 1)"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["%%bash\n", "echo bash $X $(pwd)"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["%%bash\n", "exit 3"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["print('never')"]}]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.ipynb")
        with open(path, "w") as f:
            json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, f)
        status = run(path, path, log=lambda _: None)
        with open(path) as f:
            done = json.load(f)["cells"]
    text = ["".join(c.get("outputs", [{}])[0].get("text", [])) if c.get("outputs") else ""
            for c in done]
    if status != 1:
        failures.append(f"a failing cell: exit {status}, expected 1")
    if not text[1].startswith("py 42\n") or "[this cell took" not in text[1]:
        failures.append(f"the Python cell's output: {text[1]!r}")
    if not text[2].startswith("bash 41 /\n"):
        failures.append(f"the bash cell did not see the Python cell's environment and folder: "
                        f"{text[2]!r}")
    if "status 3" not in text[3]:
        failures.append(f"the failing cell's output: {text[3]!r}")
    if text[4] or done[4]["execution_count"] is not None:
        failures.append("a cell after the failing one ran")
    for f in failures:
        print(f"run_notebook.py selftest: {f}")
    print("run_notebook.py selftest: " + ("FAILED" if failures else "ok"))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["selftest"]:
        return selftest()
    parser = cli.OneLineParser(prog="run_notebook.py",
                               description="Run a notebook's cells and keep the outputs.")
    parser.add_argument("notebook")
    parser.add_argument("--out", default="", help="write here (default: the notebook itself)")
    args = parser.parse_args(argv[1:])
    # Before any cell runs: a notebook that is not there, is empty or is not a notebook's JSON,
    # and an --out that cannot be written, are one line and exit 2 (cli.Refusal).
    cli.input_file(args.notebook)
    try:
        with open(args.notebook, encoding="utf-8") as f:
            json.load(f)["cells"]
    except (ValueError, KeyError, TypeError) as e:
        what = f"no key {e}" if isinstance(e, KeyError) else str(e)
        raise cli.Refusal(f"{args.notebook} is not a notebook ({what})") from None
    cli.output_file(args.out or args.notebook, "--out" if args.out else "")
    return run(args.notebook, args.out or args.notebook)
