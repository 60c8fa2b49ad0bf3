"""The GPUs a CUDA program started from here sees: nvidia-smi's list, less those
CUDA_VISIBLE_DEVICES hides. What bench.py, grade.py and launch_ranks.py ask, and the results
folder of the first (bench.py, time_commands.py)."""

import os
import re
import shutil
import subprocess


def parse(text):
    """The (uuid, name) of every GPU and MIG instance in `text`, nvidia-smi -L's output, in its
    order; a MIG instance takes its GPU's name."""
    found = []
    for line in text.splitlines():
        gpu = re.match(r"GPU \d+: (.*) \(UUID: (GPU-[^)]*)\)", line.strip())
        mig = re.search(r"\(UUID: (MIG-[^)]*)\)", line)
        if gpu:
            found.append((gpu.group(2), gpu.group(1)))
        elif mig and found:
            found.append((mig.group(1), found[-1][1]))
    return found


def listed():
    """(found, why): parse() of nvidia-smi -L, and, when it lists none, why ("" when it does)."""
    smi = shutil.which("nvidia-smi")
    if smi is None:
        return [], "nvidia-smi was not found"
    done = subprocess.run([smi, "-L"], capture_output=True, text=True)
    found = parse(done.stdout) if done.returncode == 0 else []
    if not found:
        return [], (done.stdout + done.stderr).strip() or "nvidia-smi lists no GPU"
    return found, ""


def visible(found, setting):
    """The names of the GPUs of `found` (parse()'s list) that a CUDA program sees when
    CUDA_VISIBLE_DEVICES is `setting` (None: unset, every GPU). NVIDIA's documentation says the
    entries are indices or UUIDs (the first characters of one will do), shown in their order, and
    that the list ends at an index that names no GPU; the rest follows PyTorch's model of CUDA's
    reading (torch.cuda's _parse_visible_devices): a list that starts with "GPU-" or "MIG-" holds
    UUIDs only, an index is read as strtoul reads it ("1a" is 1, "+1" is 1), and an entry repeated
    before the list ends, or two that name one GPU, hide them all. An index counts in
    nvidia-smi's order, which is CUDA's on a machine of one kind of GPU (or with
    CUDA_DEVICE_ORDER=PCI_BUS_ID). A GPU in MIG mode counts as one GPU; a MIG UUID counts as one,
    with its GPU's name."""
    gpus = [entry for entry in found if entry[0].startswith("GPU-")]
    if setting is None:
        return [name for _, name in gpus]
    uuids = next((p for p in ("GPU-", "MIG-") if setting.startswith(p)), None)
    named = []  # the entries up to the first that is not one of the list's kind
    for word in setting.split(","):
        number = None if uuids else re.match(r"\+?([0-9]+)", word.strip())
        if not (word.startswith(uuids) if uuids else number):
            break
        key = word if uuids else int(number.group(1))
        if key in named:
            return []
        named.append(key)
    chosen = []  # then each, in turn, to its GPU, up to the first that names none
    for key in named:
        match = ([e for e in found if e[0].startswith(key)] if uuids else
                 [gpus[key]] if key < len(gpus) else [])
        if len(match) != 1:
            break
        if match[0] in chosen:
            return []
        chosen.append(match[0])
    return [name for _, name in chosen]


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
    """The cases parse() and visible() must get right; the exit status."""
    smi = ("GPU 0: NVIDIA A100-SXM4-40GB (UUID: GPU-aaa1)\n"
           "  MIG 1g.5gb      Device  0: (UUID: MIG-m1)\n"
           "GPU 1: NVIDIA H100 80GB HBM3 (UUID: GPU-bbb2)\n"
           "GPU 2: NVIDIA H200 (UUID: GPU-ccc3)\n")
    found = parse(smi)
    wrong = []
    want = [("GPU-aaa1", "NVIDIA A100-SXM4-40GB"), ("MIG-m1", "NVIDIA A100-SXM4-40GB"),
            ("GPU-bbb2", "NVIDIA H100 80GB HBM3"), ("GPU-ccc3", "NVIDIA H200")]
    if found != want or parse("No devices were found\n"):
        wrong.append(("nvidia-smi -L", found, want))
    a, b, c = "NVIDIA A100-SXM4-40GB", "NVIDIA H100 80GB HBM3", "NVIDIA H200"
    cases = [(None, [a, b, c]), ("", []), ("2,0", [c, a]), ("0, 1", [a, b]), ("1,7,2", [b]),
             ("1a,2", [b, c]), ("x,0", []), ("3", []), ("0,0", []), ("2,1,2", []),
             ("GPU-bbb", [b]), ("GPU-bbb,GPU-ccc3", [b, c]), ("GPU-", []), ("GPU-bbb2,0", [b]),
             ("0,GPU-bbb2", [a]), ("MIG-m1", [a]), ("0,,1", [a]), ("0,1,", [a, b]), ("-1", []),
             ("+1", [b]), (" 1 ", [b]), ("0,5,0", []), ("1,7,7", []), ("GPU-bbb, GPU-ccc3", [b]),
             ("GPU-bbb2,GPU-bbb", [])]
    for setting, names in cases:
        if visible(found, setting) != names:
            wrong.append((f"CUDA_VISIBLE_DEVICES={setting!r}", visible(found, setting), names))
    for what, got, names in wrong:
        print(f"gpus selftest: {what} gave {got}, not {names}")
    print("gpus selftest: " + ("FAILED" if wrong else f"all {len(cases) + 1} cases right"))
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
