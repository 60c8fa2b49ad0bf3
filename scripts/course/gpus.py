"""The GPUs a CUDA program started from here sees: nvidia-smi's list, less those
CUDA_VISIBLE_DEVICES hides. What bench.py, grade.py and launch_ranks.py ask, and the results
folder of the first (bench.py, time_commands.py)."""

import os
import re
import shutil
import subprocess


def listed():
    """(gpus, why): every GPU and MIG instance nvidia-smi -L lists, as (uuid, name) in its order
    (a MIG instance has its GPU's name), and, when there are none, why ("" when there are some)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return [], "nvidia-smi was not found"
    done = subprocess.run([smi, "-L"], capture_output=True, text=True)
    found = []
    for line in done.stdout.splitlines():
        gpu = re.match(r"GPU \d+: (.*) \(UUID: (GPU-[^)]*)\)", line.strip())
        mig = re.search(r"\(UUID: (MIG-[^)]*)\)", line)
        if gpu:
            found.append((gpu.group(2), gpu.group(1)))
        elif mig and found:
            found.append((mig.group(1), found[-1][1]))
    if done.returncode != 0 or not found:
        return [], (done.stdout + done.stderr).strip() or "nvidia-smi lists no GPU"
    return found, ""


def visible(found, setting):
    """The names of the GPUs of `found` ((uuid, name) pairs, nvidia-smi -L's order) that a CUDA
    program sees when CUDA_VISIBLE_DEVICES is `setting` (None: unset, every GPU listed). As CUDA
    reads the variable, its entries are indices or UUIDs (a unique prefix will do), and the list
    ends at the first entry that names none. An index counts in nvidia-smi's order, which is
    CUDA's on a machine of one kind of GPU (or with CUDA_DEVICE_ORDER=PCI_BUS_ID)."""
    gpus = [entry for entry in found if entry[0].startswith("GPU-")]
    if setting is None:
        return [name for _, name in gpus]
    names, seen = [], set()
    for word in setting.split(","):
        word = word.strip()
        if word.isdigit():
            match = [gpus[int(word)]] if int(word) < len(gpus) else []
        else:
            match = [entry for entry in found if word and entry[0].startswith(word)]
        if len(match) != 1 or match[0][0] in seen:
            break
        seen.add(match[0][0])
        names.append(match[0][1])
    return names


def gpus():
    """(names, why): the names, as nvidia-smi gives them ("NVIDIA H100 80GB HBM3"), of the GPUs a
    CUDA program started from here sees (CUDA_VISIBLE_DEVICES honoured), and, when there are none,
    why ("" when there are some)."""
    found, why = listed()
    if not found:
        return [], why
    setting = os.environ.get("CUDA_VISIBLE_DEVICES")
    names = visible(found, setting)
    return (names, "") if names else ([], f"CUDA_VISIBLE_DEVICES={setting!r} hides every GPU")


def selftest():
    """The cases visible() must get right; the exit status."""
    found = [("GPU-aaa1", "A"), ("MIG-m1", "A"), ("GPU-bbb2", "B"), ("GPU-ccc3", "C")]
    cases = [(None, ["A", "B", "C"]), ("", []), ("2,0", ["C", "A"]), ("0, 1", ["A", "B"]),
             ("1,7,2", ["B"]), ("GPU-bbb", ["B"]), ("GPU-", []), ("MIG-m1", ["A"]),
             ("0,0", ["A"]), ("x,0", []), ("3", [])]
    wrong = [(s, visible(found, s), want) for s, want in cases if visible(found, s) != want]
    for setting, got, want in wrong:
        print(f"gpus selftest: CUDA_VISIBLE_DEVICES={setting!r} gave {got}, not {want}")
    print("gpus selftest: " + ("FAILED" if wrong else f"all {len(cases)} cases right"))
    return 1 if wrong else 0


def gpu_names():
    """The GPUs' names; none without a GPU."""
    return gpus()[0]


def gpu_name():
    """The first GPU's name, or None without one."""
    names = gpu_names()
    return names[0] if names else None


def gpu_folder():
    """docs/results/<gpu> for the first GPU a CUDA program sees, or None without one."""
    name = gpu_name() or ""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia", "")).strip("-")
    return os.path.join("docs", "results", slug) if slug else None
