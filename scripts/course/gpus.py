"""The machine's GPUs, as nvidia-smi lists them: what bench.py, grade.py and launch_ranks.py ask,
and the results folder of the first (bench.py, time_commands.py)."""

import os
import re
import shutil
import subprocess


def gpus():
    """(names, why): the GPUs' names as nvidia-smi gives them ("NVIDIA H100 80GB HBM3"), and,
    when there are none, why ("" when there are some)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return [], "nvidia-smi was not found"
    done = subprocess.run([smi, "--query-gpu=name", "--format=csv,noheader"],
                          capture_output=True, text=True)
    names = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    if done.returncode != 0 or not names:
        return [], (done.stdout + done.stderr).strip() or "nvidia-smi lists no GPU"
    return names, ""


def gpu_names():
    """The GPUs' names; none without a GPU."""
    return gpus()[0]


def gpu_name():
    """The first GPU's name, or None without one."""
    names = gpu_names()
    return names[0] if names else None


def gpu_folder():
    """docs/results/<gpu> for the first GPU nvidia-smi lists, or None without one."""
    name = gpu_name() or ""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia", "")).strip("-")
    return os.path.join("docs", "results", slug) if slug else None
