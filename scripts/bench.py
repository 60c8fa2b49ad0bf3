#!/usr/bin/env python3
"""Runs every lesson's benchmarks on this machine's GPU, then regenerates everything measured: the
CSVs and logs under docs/results/<gpu>/, every generated table and figure in the Markdown files
(scripts/results.py), and every lesson's charts (scripts/plot.py).

    cmake --preset default && cmake --build --preset default
    python3 scripts/bench.py                     # every lesson, then the tables and charts
    python3 scripts/bench.py --lessons 05,06     # some lessons only
    python3 scripts/bench.py --list              # print the commands, run nothing
    python3 scripts/bench.py --no-run            # tables and charts again, from the CSVs there
    python3 scripts/bench.py --out /tmp/results  # the runs alone, into another folder

<gpu> is the GPU's name as nvidia-smi gives it, lower-cased, without "NVIDIA", spaces as dashes
(NVIDIA H100 80GB HBM3: h100-80gb-hbm3). When it is not the folder the write-ups point at
(<!-- results-dir: ... -->), --retarget points them at it; the prose of the write-ups still
describes the course's own H100 run.

Each job runs with the results folder as its working folder, so the command each CSV records (and
each table quotes) is the one written here. The charts need matplotlib (Debian and Ubuntu:
sudo apt install python3-matplotlib); without it they are skipped, and said so. The profiler
logs the write-ups quote (*_ncu.txt, lesson03_racecheck.txt, lesson02_debug_build.txt) come from
the commands in each lesson's "Profile it yourself" section, not from this script.
Exit status: 0 when every job ran and passed its checks, 1 otherwise, 2 for bad arguments.
"""

import argparse
import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS_DIR = re.compile(r"<!-- results-dir: (\S+) -->")

# Every lesson's runs: (lesson, log file stem, program, arguments[, the exit status it must give,
# when not 0]). A run that writes a CSV says so with --csv; its log is the program's output.
JOBS = [
    ("01", "lesson01_100MiB_uniform", "lesson01",
     "--n 100Mi --dist uniform --reps 100 --csv lesson01_100MiB_uniform.csv"),
    ("01", "lesson01_100MiB_same", "lesson01",
     "--n 100Mi --dist same --reps 100 --csv lesson01_100MiB_same.csv"),
    ("01", "lesson01_100MiB_skewed", "lesson01",
     "--n 100Mi --dist skewed --reps 100 --csv lesson01_100MiB_skewed.csv"),
    ("01", "lesson01_1GiB_uniform", "lesson01",
     "--n 1Gi --dist uniform --reps 100 --csv lesson01_1GiB_uniform.csv"),
    ("01", "lesson01_1GiB_same", "lesson01",
     "--n 1Gi --dist same --reps 100 --csv lesson01_1GiB_same.csv"),
    ("01", "lesson01_grid_sweep", "lesson01", "--grid-sweep"),
    # One value 2^32 + 2^20 + 3 times: the seed's 32-bit counters wrap, so this run exits 1.
    ("01", "lesson01_overflow", "lesson01",
     "--n 2^32+2^20+3 --dist same --reps 3 --cpu-reps 1 --show-overflow", 1),
    ("01", "lesson01_cpu", "lesson01_cpu", "--reps 5"),
    ("02", "lesson02_float_225", "lesson02",
     "--type float --n 2^25 --reps 100 --csv lesson02_float_225.csv"),
    ("02", "lesson02_float_228", "lesson02",
     "--type float --n 2^28 --reps 100 --csv lesson02_float_228.csv"),
    ("02", "lesson02_int_222", "lesson02",
     "--type int --n 2^22 --reps 100 --csv lesson02_int_222.csv"),
    ("02", "lesson02_int_228", "lesson02",
     "--type int --n 2^28 --reps 100 --csv lesson02_int_228.csv"),
    ("02", "lesson02_sweep", "lesson02", "--sweep"),
    ("02", "lesson02_cpu", "lesson02_cpu", "--reps 5"),
    ("03", "lesson03_33mi", "lesson03", "--reps 100 --show-race --csv lesson03_33mi.csv"),
    ("03", "lesson03_228", "lesson03", "--n 2^28 --reps 100 --csv lesson03_228.csv"),
    ("03", "lesson03_uniform", "lesson03", "--dist uniform --reps 20"),
    ("03", "lesson03_lock_sweep", "lesson03", "--lock-sweep --reps 20"),
    ("03", "lesson03_cpu", "lesson03_cpu", "--reps 5"),
    ("04", "lesson04_25mi", "lesson04",
     "--show-race --bucket-sweep --load-sweep --reps 20 --csv lesson04_25mi.csv"),
    ("04", "lesson04_dups", "lesson04", "--dist dups --reps 20 --cpu-reps 1 --csv lesson04_dups.csv"),
    ("04", "lesson04_dups_book_hash", "lesson04", "--dist dups --book-hash --reps 5 --cpu-reps 1"),
    ("04", "lesson04_cpu", "lesson04_cpu", "--reps 1"),
    ("05", "lesson05_1024", "lesson05", "--reps 50 --seed-compare --csv lesson05_1024.csv"),
    ("05", "lesson05_16mi", "lesson05",
     "--n 2^24 --dist uniform --reps 20 --cpu-reps 1 --csv lesson05_16mi.csv"),
    ("05", "lesson05_16mi_special", "lesson05",
     "--n 2^24 --dist special --reps 10 --cpu-reps 1 --only v8,Thrust,CUB"),
    ("05", "lesson05_sweep", "lesson05",
     "--n 2^16 --dist uniform --reps 3 --cpu-reps 3 --sweep --sweep-max 2^21 "
     "--csv lesson05_64ki.csv"),
    ("05", "lesson05_cpu", "lesson05_cpu", ""),
    ("06", "lesson06_k10", "lesson06", "--k 10 --reps 50 --csv lesson06_k10.csv"),
    ("06", "lesson06_k100", "lesson06", "--k 100 --reps 50 --csv lesson06_k100.csv"),
    ("06", "lesson06_k1024", "lesson06", "--k 1024 --reps 50 --csv lesson06_k1024.csv"),
    ("06", "lesson06_k16384", "lesson06", "--k 16384 --reps 50 --csv lesson06_k16384.csv"),
    ("06", "lesson06_float_dups", "lesson06",
     "--k 1024 --type float --dist dups --reps 20 --csv lesson06_float_dups.csv"),
    ("06", "lesson06_sweep", "lesson06",
     "--k 10 --reps 10 --cpu-reps 1 --k-sweep --sweep-csv lesson06_sweep.csv"),
    ("06", "lesson06_cpu", "lesson06_cpu", ""),
    ("06", "lesson06_cpu_k48", "lesson06_cpu", "--k 48"),
    ("06", "lesson06_cpu_dups", "lesson06_cpu", "--dist dups"),
    ("06", "lesson06_cpu_seed_init", "lesson06_cpu", "--dist equal --seed-init"),
    ("06", "lesson06_torch", "python3", "{root}/scripts/topk_torch.py --csv lesson06_torch.csv"),
]

# Every lesson's charts: (lesson, file, title, the CSVs of its bars). plot.py --curve draws a
# time-against-size chart from a sweep's CSV instead.
CHARTS = [
    ("01", "lesson01.png", "Lesson 01: a 256-bin histogram of bytes",
     ["lesson01_100MiB_uniform.csv", "lesson01_100MiB_same.csv", "lesson01_100MiB_skewed.csv",
      "lesson01_1GiB_same.csv", "lesson01_1GiB_uniform.csv"]),
    ("02", "lesson02.png", "Lesson 02: the sum of n numbers",
     ["lesson02_int_222.csv", "lesson02_float_225.csv", "lesson02_float_228.csv",
      "lesson02_int_228.csv"]),
    ("03", "lesson03.png", "Lesson 03: the dot product", ["lesson03_33mi.csv", "lesson03_228.csv"]),
    ("04", "lesson04.png", "Lesson 04: the GPU hash table (26Mi keys, load factor 0.5)",
     ["lesson04_25mi.csv", "lesson04_dups.csv"]),
    ("05", "lesson05.png", "Lesson 05: sorting floats on the H100 (effective GB/s)",
     ["lesson05_1024.csv", "lesson05_64ki.csv", "lesson05_16mi.csv"]),
    ("06", "lesson06.png", "Lesson 06: the top k of 10^7 ints (effective GB/s: the input read once)",
     ["lesson06_k10.csv", "lesson06_k100.csv", "lesson06_k1024.csv", "lesson06_k16384.csv"]),
    ("06", "lesson06_k.png", "Lesson 06: time against k, 10^7 ints (--k-sweep)",
     ["--curve", "lesson06_sweep.csv"]),
]


def gpu_folder():
    """docs/results/<gpu> for the first GPU nvidia-smi lists, or None without one."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=name", "--format=csv,noheader"],
                             capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    name = out.strip().splitlines()[0] if out.strip() else ""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower().replace("nvidia", "")).strip("-")
    return os.path.join("docs", "results", slug) if slug else None


def markdown_files():
    files = [os.path.join(ROOT, "README.md")]
    for pattern in ("docs/*.md", "lessons/*/README.md", "solutions/*/ANSWERS.md"):
        files += sorted(glob.glob(os.path.join(ROOT, pattern)))
    return files


def run_job(bin_dir, out_dir, job):
    lesson, stem, program, args = job[:4]
    expected = job[4] if len(job) > 4 else 0
    args = args.format(root=ROOT).split()
    path = program if program == "python3" else os.path.join(bin_dir, program)
    log = os.path.join(out_dir, stem + ".txt")
    started = time.time()
    with open(log + ".part", "w") as f:
        status = subprocess.run([path] + args, cwd=out_dir, stdout=f, stderr=subprocess.STDOUT).returncode
    print(f"  {lesson} {stem:<26} exit {status:>3}  {time.time() - started:7.1f} s  "
          f"({program} {' '.join(args)})", flush=True)
    # 77: no GPU, or (topk_torch.py) no PyTorch: nothing was measured, and the log it may already
    # have stays as it was.
    if status == 77:
        os.remove(log + ".part")
        return True
    os.replace(log + ".part", log)
    return status == expected


def main(argv):
    parser = argparse.ArgumentParser(description="Run every lesson's benchmarks and regenerate "
                                     "the results in the write-ups.")
    parser.add_argument("--build-dir", default=os.path.join(ROOT, "build", "default"))
    parser.add_argument("--lessons", default="", help="comma-separated lesson numbers (default: all)")
    parser.add_argument("--list", action="store_true", help="print the jobs and run nothing")
    parser.add_argument("--no-run", action="store_true",
                        help="regenerate the tables and charts from the CSVs already there")
    parser.add_argument("--out", default="",
                        help="write the CSVs and logs here, and stop (copy them into "
                        "docs/results/<gpu>/, then run --no-run)")
    parser.add_argument("--retarget", action="store_true",
                        help="point every write-up's results-dir at this GPU's folder")
    args = parser.parse_args(argv[1:])
    lessons = [x for x in args.lessons.split(",") if x]
    known = sorted({job[0] for job in JOBS})
    if any(x not in known for x in lessons):
        print(f"bench.py: error: --lessons takes {','.join(known)}, not {args.lessons}",
              file=sys.stderr)
        return 2
    jobs = [job for job in JOBS if not lessons or job[0] in lessons]
    if args.list:
        for lesson, stem, program, job_args, *_ in jobs:
            print(f"{lesson}  {stem + '.txt':<30} {program} {job_args.format(root=ROOT)}")
        return 0

    folder = gpu_folder()
    if folder is None and not args.no_run:
        print("bench.py: error: no GPU (nvidia-smi lists none); --no-run regenerates from the CSVs",
              file=sys.stderr)
        return 2
    markdown = markdown_files()
    pointed = {m.group(1) for path in markdown for m in RESULTS_DIR.finditer(open(path).read())}
    if folder is None or args.no_run:
        folder = sorted(pointed)[0] if pointed else os.path.join("docs", "results")
    out_dir = os.path.abspath(args.out) if args.out else os.path.join(ROOT, folder)
    os.makedirs(out_dir, exist_ok=True)
    ok = True

    if not args.no_run:
        bin_dir = os.path.join(os.path.abspath(args.build_dir), "bin")
        if not os.path.isdir(bin_dir):
            print(f"bench.py: error: no programs in {bin_dir}: build first "
                  "(cmake --preset default && cmake --build --preset default)", file=sys.stderr)
            return 2
        with open(os.path.join(out_dir, "machine.txt"), "w") as f:
            lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
            f.write("".join(line + "\n" for line in lscpu.splitlines()
                            if line.startswith(("CPU(s):", "Model name:"))))
            smi = subprocess.run(["nvidia-smi"], capture_output=True, text=True).stdout
            f.write("".join(line + "\n" for line in smi.splitlines()
                            if "Driver Version" in line or " On  |" in line or " Off |" in line))
        print(f"running {len(jobs)} jobs into {out_dir}/", flush=True)
        for job in jobs:
            ok = run_job(bin_dir, out_dir, job) and ok
        if args.out:
            print(f"{'every job passed' if ok else 'a job FAILED'}; the write-ups are not updated")
            return 0 if ok else 1

    if args.retarget:
        for path in markdown:
            text = open(path).read()
            new = RESULTS_DIR.sub(f"<!-- results-dir: {folder} -->", text)
            if new != text:
                open(path, "w").write(new)

    print("regenerating the tables and figures in the write-ups", flush=True)
    update = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "results.py"), "update"]
                            + markdown, cwd=ROOT)
    ok = ok and update.returncode == 0

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("charts skipped: matplotlib is not installed (sudo apt install python3-matplotlib)")
        return 0 if ok else 1
    for lesson, name, title, csvs in CHARTS:
        if lessons and lesson not in lessons:
            continue
        files = [c if c.startswith("--") else os.path.join(out_dir, c) for c in csvs]
        if not all(os.path.exists(f) for f in files if not f.startswith("--")):
            print(f"  {name}: skipped, a CSV is missing")
            continue
        plot = [sys.executable, os.path.join(ROOT, "scripts", "plot.py")]
        if files[0] == "--curve":
            plot.append("--curve")
            files = files[1:]
        done = subprocess.run(plot + [os.path.join(out_dir, name), title] + files, cwd=ROOT)
        ok = ok and done.returncode == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
