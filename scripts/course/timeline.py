"""Nsight Systems timelines as SVG (scripts/timeline.py), drawn from the CSV reports of a
committed nsys run, and the text summaries of lesson 07's runs on several GPUs."""

import csv
import os
import re

from course.paths import ROOT
from course.svg import Svg, update_or_check as svg_update_or_check

RESULTS = os.path.join("docs", "results", "h100-80gb-hbm3")
RESULTS07 = os.path.join("docs", "results", "h200")  # lesson 07's runs on several GPUs

# (GPU work kind, colour, what the legend says)
GPU_KINDS = [("kernel", "#1f4e9c", "the version's kernels"),
             ("nccl", "#7a3f9d", "NCCL's kernels"),
             ("flush", "#9aa5b1", "the timer: L2 flush"),
             ("busy", "#c9ced6", "the timer: busy kernel ahead of the start event"),
             ("memset", "#e8a33d", "poison (memset)"),
             ("copy", "#2e8b57", "copy")]
API_KINDS = [("launch", "#7b5ea7", "launch"), ("wait", "#c0392b", "wait (synchronize)"),
             ("other", "#9aa5b1", "other CUDA call")]


def gpu_kind(name):
    if name.startswith("nccl"):
        return "nccl"
    if "busy_wait_kernel" in name:
        return "busy"
    if "read_all_kernel" in name:
        return "flush"
    if name.startswith("[CUDA memset"):
        return "memset"
    if name.startswith("[CUDA memcpy"):
        return "copy"
    return "kernel"


def api_kind(name):
    if name.startswith("cudaLaunchKernel"):
        return "launch"
    if "Synchronize" in name:
        return "wait"
    return "other"


def short_kernel(name):
    """lesson02::interleaved_kernel<float>(...) -> interleaved_kernel."""
    if name.startswith("["):
        return name.strip("[]").replace("CUDA ", "")
    head = name.split("(")[0].split("<")[0]
    return head.split("::")[-1].replace("void ", "")


def load(lesson):
    """The run's NVTX ranges, CUDA calls and GPU work: lists of (start, end, name, extra) in ns."""
    def rows(report):
        path = os.path.join(ROOT, RESULTS, f"lesson{lesson}_{report}.csv")
        with open(path, newline="", encoding="utf-8") as f:
            return list(csv.DictReader(f))

    ranges = [(int(r["Start (ns)"]), int(r["End (ns)"]), r["Name"].lstrip(":"), "")
              for r in rows("nvtx_pushpop_trace") if r["Lvl"] == "0"]
    calls = [(int(r["Start (ns)"]), int(r["Start (ns)"]) + int(r["Duration (ns)"]), r["Name"], "")
             for r in rows("cuda_api_trace")]
    work = [(int(r["Start (ns)"]), int(r["Start (ns)"]) + int(r["Duration (ns)"]), r["Name"],
             r["GrdX"]) for r in rows("cuda_gpu_trace")]
    return ranges, calls, work


def the_range(ranges, prefix):
    for r in ranges:
        if r[2].startswith(prefix):
            return r
    raise SystemExit(f"timeline.py: no NVTX range starts with {prefix!r}")


def window(ranges, work, spec):
    """(start, end) in ns of a panel: spec["from"]/["to"] name ranges (prefixes); "span_us"
    clips the window to that long from its start; "pad_us" widens it on both sides (or
    "pad_after_us" after it);
    "first_kernel" starts it at the first of the version's kernels in the range."""
    start = the_range(ranges, spec["from"])[0]
    end = the_range(ranges, spec.get("to", spec["from"]))[1]
    if spec.get("first_kernel"):
        start = min(w[0] for w in work if start <= w[0] < end and gpu_kind(w[2]) == "kernel")
    if "span_us" in spec:
        end = start + int(spec["span_us"] * 1000)
    return (start - int(spec.get("pad_us", 0) * 1000),
            end + int(spec.get("pad_after_us", spec.get("pad_us", 0)) * 1000))


def nice_step(span_ns, ticks=6):
    raw = span_ns / ticks
    unit = 1
    while unit * 10 <= raw:
        unit *= 10
    for m in (1, 2, 5, 10):
        if unit * m >= raw:
            return unit * m
    return unit * 10


def duration_text(ns):
    if ns >= 1_000_000:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1000:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns} ns"


def time_axis(svg, left, right, y, span, scale):
    """The time axis at y, from 0 at `left` to `span` ns, `scale` pixels a nanosecond."""
    step = nice_step(span)
    svg.line(left, y, right, y, stroke="#666")
    tick = 0
    while tick <= span:
        x = left + tick * scale
        svg.line(x, y, x, y + 4, stroke="#666")
        svg.text(x, y + 16, duration_text(tick) if tick else "0", anchor="middle", fill="#555",
                 size=10.5)
        tick += step


def panel(svg, top, data, spec, width):
    """Draws one panel at `top`; returns the y below it."""
    ranges, calls, work = data
    t0, t1 = window(ranges, work, spec)
    left, right = 150, width - 16
    scale = (right - left) / (t1 - t0)

    def x_of(t):
        return left + (min(max(t, t0), t1) - t0) * scale

    def visible(items):
        """(x0, x1, item) for each (start, end, ...) item that the window shows."""
        for item in items:
            if item[1] >= t0 and item[0] <= t1:
                yield x_of(item[0]), x_of(item[1]), item

    svg.text(left, top + 14, spec["title"], weight="bold")
    y = top + 26
    rows = [("NVTX ranges", 24), ("CUDA calls", 14), ("GPU", 24)]
    ys = {}
    for label, h in rows:
        svg.text(left - 8, y + h / 2 + 4, label, anchor="end", fill="#333")
        svg.rect(left, y, right - left, h, "#f6f7f9")
        ys[label] = (y, h)
        y += h + 6
    # NVTX ranges, with their names where they fit
    ry, rh = ys["NVTX ranges"]
    for x0, x1, (start, end, name, _) in visible(ranges):
        svg.rect(x0, ry, max(x1 - x0, 1.0), rh, "#f3d9a4", stroke="#b58a2e",
                 tip=f"{name}: {duration_text(end - start)}")
        version = re.match(r"(v\d+[a-z]?|CUB|CPU|Thrust) ", name)
        label = version.group(1) if version and not spec.get("long_names") else name
        label = f"{label} ({duration_text(end - start)})" if spec.get("durations") else label
        if (x1 - x0) > 6.5 * len(label) + 6:
            svg.text(x0 + 4, ry + rh / 2 + 4, label, size=11)
        elif t0 <= start and end <= t1 and spec.get("long_names"):
            svg.text(x1 + 4, ry + rh / 2 + 4, label, size=11)
    cy, ch = ys["CUDA calls"]
    colours = {k: c for k, c, _ in API_KINDS}
    for x0, x1, (start, end, name, _) in visible(calls):
        svg.rect(x0, cy, max(x1 - x0, 0.8), ch, colours[api_kind(name)],
                 tip=f"{name}: {duration_text(end - start)}")
    gy, gh = ys["GPU"]
    colours = {k: c for k, c, _ in GPU_KINDS}
    for x0, x1, (start, end, name, grid) in visible(work):
        kind = gpu_kind(name)
        svg.rect(x0, gy, max(x1 - x0, 0.8), gh, colours[kind],
                 tip=f"{short_kernel(name)}: {duration_text(end - start)}"
                 + (f", grid {grid}" if grid else ""))
        blocks = f"{grid} block" + ("" if grid == "1" else "s")
        labels = [short_kernel(name) + (f", {blocks}" if grid and spec.get("grids") else "")]
        if grid and spec.get("grids"):
            labels.append(blocks)
        fits = [words for words in labels if (x1 - x0) > 6.2 * len(words) + 6]
        if kind == "kernel" and fits:
            svg.text(x0 + 3, gy + gh / 2 + 4, fits[0], fill="#fff", size=10.5)
    time_axis(svg, left, right, y, t1 - t0, scale)
    return y + 30


def legend(svg, y):
    # NCCL's kernels run in lesson 07's timelines only (streams_timeline has its own legend)
    gpu_kinds = [k for k in GPU_KINDS if k[0] != "nccl"]
    for row, kinds in (("GPU", gpu_kinds), ("CUDA calls", API_KINDS)):
        svg.text(142, y, row + ":", anchor="end", fill="#333", size=11)
        x = 150
        for _, colour, words in kinds:
            svg.rect(x, y - 10, 12, 12, colour)
            svg.text(x + 16, y, words, size=11)
            x += 16 + 6.0 * len(words) + 16
        y += 18
    return y


def timeline(lesson, title, panels, width=960):
    data = load(lesson)
    height = 40 + len(panels) * 150 + 70
    svg = Svg(width, height, title)
    svg.text(16, 20, title, size=13, weight="bold")
    y = 30
    for spec in panels:
        y = panel(svg, y, data, spec, width)
    y = legend(svg, y + 6)
    svg.lines[0] = svg.lines[0].replace(f'height="{height}"', f'height="{y:.0f}"').replace(
        f"0 0 {width} {height}", f"0 0 {width} {y:.0f}")
    return str(svg)


def last_run(folder, stem):
    """The last timed run in the nsys CSV (timed_runs): (t0, t1, work), work as (start, end, name,
    device, stream), from the clock's start to the end of its last work."""
    runs = timed_runs(folder, stem)
    if not runs:
        raise SystemExit(f"timeline.py: {folder}/{stem}_cuda_gpu_trace.csv has no timed run "
                         "(no busy kernel)")
    t0, run = runs[-1]
    return t0, max(w[1] for w in run), run


def gpu_label(device):
    return re.sub(r".*\((\d+)\)$", r"GPU \1", device)


def streams_summary(folder, stem, what):
    """The last timed run of a multi-GPU program, in words, per GPU: when its first work started
    after the clock's start, each kernel's length, and when its last work ended (lesson 07's
    account of its strong scaling)."""
    t0, t1, run = last_run(folder, stem)
    out = [f"{what}: the last timed run under nsys ({stem}_cuda_gpu_trace.csv), times from the "
           "clock's start (the end of the timer's busy kernel)"]
    for device in sorted({w[3] for w in run}):
        mine = [w for w in run if w[3] == device]
        parts = [f"{gpu_label(device)}: first work at {(mine[0][0] - t0) / 1e3:.1f} us"]
        for start, end, name, _, _ in mine:
            if gpu_kind(name) in ("kernel", "nccl"):
                parts.append(f"{short_kernel(name).split('(')[0]} {(end - start) / 1e3:.1f} us")
        parts.append(f"last work ends at {(max(w[1] for w in mine) - t0) / 1e3:.1f} us")
        out.append("; ".join(parts))
    out.append(f"all GPU work ends at {(t1 - t0) / 1e3:.1f} us")
    return "\n".join(out) + "\n"


def timed_runs(folder, stem):
    """Every timed run in the nsys CSV: lists of (start, end, name, device, stream), each from
    the end of a busy kernel to the next busy kernel or copy to the host, with its start."""
    path = os.path.join(ROOT, folder, f"{stem}_cuda_gpu_trace.csv")
    with open(path, newline="", encoding="utf-8") as f:
        work = sorted((int(r["Start (ns)"]), int(r["Start (ns)"]) + int(r["Duration (ns)"]),
                       r["Name"], r["Device"], r["Strm"]) for r in csv.DictReader(f))
    runs = []
    for i, w in enumerate(work):
        if gpu_kind(w[2]) != "busy":
            continue
        run = []
        for later in work[i + 1:]:
            if gpu_kind(later[2]) == "busy" or (gpu_kind(later[2]) == "copy" and
                                                "to-Host" in later[2]):
                break
            run.append(later)
        if run:
            runs.append((w[1], run))
    return runs


def busy_union(intervals):
    """The total length covered by (start, end) intervals."""
    total, end = 0, None
    for a, b in sorted(intervals):
        if end is None or a > end:
            total += b - a
            end = b
        elif b > end:
            total += b - end
            end = b
    return total


def ring_runs_summary(folder, stem, what):
    """Lesson 07's all-reduce under nsys: for the last timed run of each kind (told apart by what
    it ran: peer copies and adds, the SMs' kernels, NCCL's), its time, and per GPU the copies' and
    the adds' total time and how much of it the two ran at once."""
    kinds = {}
    for t0, run in timed_runs(folder, stem):
        copies = [w for w in run if "Peer-to-Peer" in w[2]]
        adds = [w for w in run if "add_into" in w[2]]
        pulls = [w for w in run if "copy_from" in w[2]]
        nccl = [w for w in run if gpu_kind(w[2]) == "nccl"]
        if not (adds or nccl):
            continue  # the link's own copies (measure_link), not an all-reduce
        if run[0][0] - t0 > 1_000_000 or max(w[1] for w in run) - t0 > 1_000_000_000:
            continue  # work long after a busy kernel, or for seconds: warm-ups, not a timed run
        kinds[(len(copies), len(adds), len(pulls), len(nccl))] = (t0, run)
    named = {}
    for (copies, adds, pulls, nccl), value in kinds.items():
        if nccl:
            named["NCCL: one kernel per GPU, no copy"] = value
        elif pulls:
            named[f"SMs pull ({adds} add kernels, {pulls} copy kernels)"] = value
        else:
            named[f"copy engines ({copies} peer copies, {adds} add kernels)"] = value
    kinds = named
    out = [f"{what}: the last timed run of each kind under nsys ({stem}_cuda_gpu_trace.csv)"]
    for kind, (t0, run) in kinds.items():
        end = max(w[1] for w in run)
        out.append(f"{kind}: {(end - t0) / 1e3:.1f} us from the clock's start")
        for device in sorted({w[3] for w in run}):
            mine = [w for w in run if w[3] == device]
            copies = [(a, b) for a, b, n, _, _ in mine if "Peer-to-Peer" in n or "copy_from" in n]
            adds = [(a, b) for a, b, n, _, _ in mine if "add_into" in n]
            nccl = [(a, b) for a, b, n, _, _ in mine if gpu_kind(n) == "nccl"]
            if nccl:
                out.append(f"  {gpu_label(device)}: NCCL's kernel {busy_union(nccl) / 1e3:.1f} us")
                continue
            c, a = busy_union(copies), busy_union(adds)
            both = c + a - busy_union(copies + adds)
            out.append(f"  {gpu_label(device)}: copies {c / 1e3:.1f} us, adds {a / 1e3:.1f} us, "
                       f"the two at once {both / 1e3:.1f} us")
    return "\n".join(out) + "\n"


def streams_timeline(folder, stem, title, note, width=960):
    """One row per GPU and stream, for a program that runs on several GPUs (lesson 07): the last
    timed run (last_run)."""
    t0, t1, run = last_run(folder, stem)
    lanes = sorted({(w[3], int(w[4])) for w in run})
    left, right = 190, width - 16
    scale = (right - left) / (t1 - t0)
    height = 70 + len(lanes) * 30 + 90
    svg = Svg(width, height, title)
    svg.text(16, 20, title, size=13, weight="bold")
    svg.text(16, 40, note, fill="#555", size=11)
    colours = {k: c for k, c, _ in GPU_KINDS}
    y = 54
    for device, stream in lanes:
        svg.text(left - 8, y + 16, f"{gpu_label(device)}, stream {stream}", anchor="end",
                 fill="#333")
        svg.rect(left, y, right - left, 24, "#f6f7f9")
        for start, end, name, d, s in run:
            if (d, int(s)) != (device, stream):
                continue
            x0 = left + (start - t0) * scale
            x1 = left + (end - t0) * scale
            kind = gpu_kind(name)
            svg.rect(x0, y, max(x1 - x0, 0.8), 24, colours[kind],
                     tip=f"{short_kernel(name)}: {duration_text(end - start)}")
            label = short_kernel(name).replace("ncclDevKernel_", "")
            label = label.split("(")[0]
            if kind in ("kernel", "nccl") and (x1 - x0) > 6.2 * len(label) + 6:
                svg.text(x0 + 3, y + 16, label, fill="#fff", size=10.5)
        y += 30
    time_axis(svg, left, right, y, t1 - t0, scale)
    y += 36
    x = 150
    svg.text(142, y, "GPU:", anchor="end", fill="#333", size=11)
    for kind, colour, words in GPU_KINDS:
        if kind in ("busy", "flush"):
            continue
        words = "memset (zeroing a partial)" if kind == "memset" else words
        svg.rect(x, y - 10, 12, 12, colour)
        svg.text(x + 16, y, words, size=11)
        x += 16 + 6.0 * len(words) + 16
    return str(svg)


def pictures():
    return {
        os.path.join("lessons", "02_reduce", "figures", "timeline_versions.svg"): timeline(
            "02", "lesson02 under nsys on the H100, n = 2^25 floats, --reps 3: every version's range",
            [{"title": "v0 to CUB: each range holds the version's 2 warm-ups and 3 timed runs",
              "from": "v0", "to": "CUB"},
             {"title": "inside v6's range: each run is poison, L2 flush, (busy kernel,) the two "
                       "launches", "from": "v6", "grids": True}]),
        os.path.join("lessons", "02_reduce", "figures", "timeline_source_range.svg"): timeline(
            "02", "lesson02 under nsys on the H100: what an NVTX range around a launch measures",
            [{"title": "the source's range (push, launch, pop), then a range closed after "
                       "cudaDeviceSynchronize()", "from": "the source's range", "to": "a range closed",
              "pad_us": 20, "pad_after_us": 4, "long_names": True, "durations": True, "grids": True}]),
        os.path.join("lessons", "05_bubble_sort", "figures", "timeline_v3_v8.svg"): timeline(
            "05", "lesson05 under nsys on the H100, n = 2^14 floats, --only v3,v5,v8 --reps 2",
            [{"title": "v3, its first 700 µs: the launches are queued far ahead; each "
                       "kernel runs 15 or 16 blocks on the 132 SMs",
              "from": "v3", "first_kernel": True, "span_us": 700, "pad_us": 60, "grids": True},
             {"title": "v8: one launch sorts the 16Ki floats in one block", "from": "v8",
              "grids": True},
             {"title": "the whole trip of v8: copy in, the kernel, copy out, three times",
              "from": "whole trip", "grids": True}]),
        os.path.join("lessons", "07_multi_gpu", "figures", "timeline_v4.svg"): streams_timeline(
            RESULTS07, "lesson07_nsys_v4",
            "lesson07 v4 under nsys on 2 H200s: the histogram of 2^30 bytes, 4 chunks per GPU",
            "each GPU computes a chunk on one stream while NCCL reduces the one before on the "
            "other; the reduce starts late, which reads as waiting for free SMs"),
        os.path.join(RESULTS07, "lesson07_nsys_v3_summary.txt"): streams_summary(
            RESULTS07, "lesson07_nsys_v3", "lesson07 --work hist --gpus 2 --n 2^32, v3"),
        os.path.join(RESULTS07, "lesson07_nsys_ring_summary.txt"): ring_runs_summary(
            RESULTS07, "lesson07_nsys_ring", "lesson07 --work allreduce --gpus 2 --n 2^28"),
        os.path.join(RESULTS07, "lesson07_nsys_ring_g4_summary.txt"): ring_runs_summary(
            RESULTS07, "lesson07_nsys_ring_g4",
            "lesson07 --work allreduce --gpus 4 --n 2^28 (the first ring and NCCL)"),
    }


def update_or_check(mode):
    """`update` writes every timeline and summary, `check` compares them with the committed
    ones. The exit status."""
    return svg_update_or_check(mode, pictures(), "timeline.py")
