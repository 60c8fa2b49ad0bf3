"""Every lesson's benchmarks on this machine's GPU (scripts/bench.py): the runs each lesson.json
lists, each into the results folder, then the generated parts of the Markdown files and the
charts regenerated from what they wrote."""

import os
import subprocess
import sys
import time

from course import cli, csvs, lessons
from course.gpus import gpu_folder, gpu_names
from course.paths import ROOT
from course.progress import Progress
from course.results import RESULTS_DIR, markdown_files


def run_job(bin_dir, out_dir, run, gpus):
    """Runs one lesson.json run (a lessons.Run); True when it gave the exit status it must."""
    lesson, stem, program, expected, needs = run.lesson, run.log, run.program, run.status, run.gpus
    args = run.args.format(root=ROOT).split()
    # A run for more GPUs than CUDA sees here is left out, and its log stays as it was (lesson
    # 07's runs on 2 and 4 GPUs, on a machine with fewer).
    if needs > gpus:
        print(f"  {lesson} {stem:<26} skipped: needs {needs} GPUs, CUDA sees {gpus} here",
              flush=True)
        return True
    path = program if program == "python3" else os.path.join(bin_dir, program)
    log = os.path.join(out_dir, stem + ".txt")
    started = time.time()
    with open(log + ".part", "w") as f, Progress(f"{lesson} {stem}"):
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


def bench(build_dir, lessons_arg, list_only, no_run, out, retarget):
    """What bench.py does with its options (see its help): the jobs of the lessons in
    `lessons_arg` (comma-separated; "" for all) listed, or run from `build_dir` into the GPU's
    results folder or `out`, then the Markdown files and charts regenerated. The exit status."""
    course_lessons = lessons.load()
    every_run = [run for lesson in course_lessons for run in lesson.runs]
    lessons_wanted = [x for x in lessons_arg.split(",") if x]
    known = sorted({run.lesson for run in every_run})
    if any(x not in known for x in lessons_wanted):
        return cli.refuse("bench.py", f"--lessons takes {','.join(known)}, not {lessons_arg}")
    if out:
        cli.output_folder(out, "--out")  # a file, a folder that cannot be written: one line
    jobs = [run for run in every_run if not lessons_wanted or run.lesson in lessons_wanted]
    if list_only:
        for run in jobs:
            on = f"  ({run.gpus} GPUs)" if run.gpus > 1 else ""
            print(f"{run.lesson}  {run.log + '.txt':<30} {run.program} "
                  f"{run.args.format(root=ROOT)}{on}")
        return 0

    folder = gpu_folder()
    if isinstance(retarget, str):
        if not os.path.isdir(os.path.join(ROOT, retarget)):
            return cli.refuse("bench.py", f"--retarget {retarget}: no such folder")
        if not no_run and folder != os.path.normpath(retarget):
            return cli.refuse("bench.py", f"--retarget {retarget} is not this GPU's folder "
                              f"({folder}): add --no-run to point the write-ups at it")
        folder = os.path.normpath(retarget)
    if folder is None and not no_run:
        return cli.refuse("bench.py", "no GPU (none that CUDA sees); --no-run regenerates from "
                          "the CSVs")
    markdown = markdown_files()
    pointed = {m.group(1) for path in markdown for m in RESULTS_DIR.finditer(open(path).read())}
    if (folder is None or no_run) and not isinstance(retarget, str):
        folder = sorted(pointed)[0] if pointed else os.path.join("docs", "results")
    out_dir = os.path.abspath(out) if out else os.path.join(ROOT, folder)
    os.makedirs(out_dir, exist_ok=True)
    ok = True

    if not no_run:
        bin_dir = os.path.join(os.path.abspath(build_dir), "bin")
        if not os.path.isdir(bin_dir):
            return cli.refuse("bench.py", f"no programs in {bin_dir}: build first "
                              "(cmake --preset default && cmake --build --preset default)")
        with open(os.path.join(out_dir, "machine.txt"), "w") as f:
            lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
            f.write("".join(line + "\n" for line in lscpu.splitlines()
                            if line.startswith(("CPU(s):", "Model name:"))))
            smi = subprocess.run(["nvidia-smi"], capture_output=True, text=True).stdout
            f.write("".join(line + "\n" for line in smi.splitlines()
                            if "Driver Version" in line or " On  |" in line or " Off |" in line))
        gpus = len(gpu_names())
        print(f"running {len(jobs)} jobs into {out_dir}/ on {gpus} GPU{'s' if gpus > 1 else ''}",
              flush=True)
        for job in jobs:
            ok = run_job(bin_dir, out_dir, job, gpus) and ok
        if out:
            print(f"{'every job passed' if ok else 'a job FAILED'}; the write-ups are not updated")
            return 0 if ok else 1

    if retarget:
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
    for chart in (chart for lesson in course_lessons for chart in lesson.charts):
        if lessons_wanted and chart.lesson not in lessons_wanted:
            continue
        name, title = chart.file, chart.title
        files = [c if c.startswith("--") else os.path.join(out_dir, c) for c in chart.csvs]
        if files[0] == "--busbw":
            # Only the GPU counts this machine (or an earlier one) ran.
            files = [f for f in files if f.startswith("--") or os.path.exists(f)]
            if len(files) < 2:
                print(f"  {name}: skipped, it needs a --sweep run on 2 GPUs or more")
                continue
        if files[0] == "--scaling":
            # Runs on more GPUs than the machines lent so far are left out: the chart draws the
            # GPU counts there are, two or more.
            files = [f for f in files if f.startswith("--") or os.path.exists(f)]
            counts = {csvs.read_csv(f)[0]["gpus"] for f in files[1:]}
            if len(counts) < 2:
                print(f"  {name}: skipped, it needs runs on two GPU counts or more")
                continue
        if not all(os.path.exists(f) for f in files if not f.startswith("--")):
            print(f"  {name}: skipped, a CSV is missing")
            continue
        plot = [sys.executable, os.path.join(ROOT, "scripts", "plot.py")]
        if files[0] in ("--curve", "--scaling", "--busbw"):
            plot.append(files[0])
            files = files[1:]
        done = subprocess.run(plot + [os.path.join(out_dir, name), title] + files, cwd=ROOT)
        ok = ok and done.returncode == 0
    return 0 if ok else 1

