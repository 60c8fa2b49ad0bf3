#!/usr/bin/env python3
"""Runs docs/notebook.ipynb top to bottom, as Jupyter would, and writes each cell's output into it:
a machine without Jupyter (the course's GPU machine has none) can still run it and keep the run.

    python3 scripts/run_notebook.py docs/notebook.ipynb            # runs it, writes the outputs in
    python3 scripts/run_notebook.py docs/notebook.ipynb --out x.ipynb
    python3 scripts/run_notebook.py selftest                        # proves it on a made-up notebook

A code cell that starts with %%bash runs with bash; any other code cell runs as Python, all of them
in one namespace, as in one kernel (os.chdir and os.environ carry over to the cells after, as in
Jupyter). Each cell's output ends with how long it took, on which GPU. The run stops at the first
cell that fails, as Jupyter's "run all" does, and writes what ran.
Exit status: 0 when every cell ran, 1 when one failed, 2 for bad arguments.
"""

import sys

from course import cli, notebook


if __name__ == "__main__":
    sys.exit(cli.run(notebook.main, sys.argv))
