"""A lesson's charts as PNG (scripts/plot.py), drawn with matplotlib from the CSVs its program
wrote: effective GB/s per version and run, a sweep's times against k, strong scaling over GPUs,
and all-reduce bus bandwidth."""

import csv
import sys

from course import cli
from course.csvs import label, speedups  # as the generated tables name and scale runs

plt = None  # matplotlib.pyplot, imported when a chart is drawn (--help needs none)


def need_matplotlib():
    global plt
    if plt is not None:
        return
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError:
        sys.exit("plot.py: error: matplotlib is not installed "
                 "(Debian/Ubuntu: sudo apt install python3-matplotlib)")
    plt = pyplot


def read(path):
    """The rows of the CSV at `path`; one that is not there, is a folder, is empty or has no rows
    is refused (cli.Refusal: one line, exit 2)."""
    cli.input_file(path)
    with open(path, newline="") as f:
        rows = list(csv.DictReader(f))
    if not rows:
        raise cli.Refusal(f"{path} has no rows")
    return rows


def draw(ax, runs, names, versions, copy, log):
    width = 0.8 / len(runs)
    colors = plt.get_cmap("tab10").colors
    for k, rows in enumerate(runs):
        by_version = {r["version"]: r for r in rows}
        xs, ys, hatches = [], [], []
        for i, v in enumerate(versions):
            r = by_version.get(v)
            if r is None or r["check"] != "ok":
                continue
            xs.append(i + (k - (len(runs) - 1) / 2) * width)
            ys.append(float(r["gbps"]))
            hatches.append("//" if not v.startswith("v") else "")
        bars = ax.bar(xs, ys, width, label=names[k], color=colors[k % 10], edgecolor="black",
                      linewidth=0.4)
        for bar, hatch in zip(bars, hatches):
            bar.set_hatch(hatch)
    ax.axhline(copy, color="black", linestyle="--", linewidth=1)
    ax.text(len(versions) - 0.5, copy * (1.08 if log else 1.01),
            f"device-to-device copy {copy:.0f} GB/s", ha="right", fontsize=9)
    if log:
        ax.set_yscale("log")
        ax.set_title("every version (log scale)", fontsize=10)
    else:
        ax.set_ylim(0, copy * 1.12)
        ax.set_title("the fast ones (linear scale)", fontsize=10)
    ax.set_xticks(range(len(versions)))
    ax.set_xticklabels(versions)
    ax.set_xlim(-0.6, len(versions) - 0.4)
    ax.grid(axis="y", which="both", alpha=0.3)


def curve(out, title, path):
    rows = read(path)
    versions = []
    for r in rows:
        if r["version"] not in versions:
            versions.append(r["version"])
    fig, ax = plt.subplots(figsize=(10, 6))
    markers = "osD^v<>px*"
    for i, v in enumerate(versions):
        points = [(int(r["k"]), float(r["median_ms"])) for r in rows
                  if r["version"] == v and r["check"] == "ok"]
        if not points:
            continue
        ks, ms = zip(*points)
        ax.plot(ks, ms, marker=markers[i % len(markers)], markersize=4, label=v,
                linestyle="--" if not v.startswith("v") else "-")
        ax.annotate(f"k = {ks[-1]}", (ks[-1], ms[-1]), textcoords="offset points", xytext=(4, 4),
                    fontsize=7)
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("k")
    ax.set_ylabel("median ms")
    ax.grid(which="both", alpha=0.3)
    ax.legend(fontsize=9, ncol=2)
    ax.set_title(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


def scaling(out, title, paths):
    runs = [read(p) for p in paths]
    works = []
    for rows in runs:
        if rows[0]["dist"] not in works:
            works.append(rows[0]["dist"])
    fig, axes = plt.subplots(1, len(works), figsize=(5.5 * len(works), 5), squeeze=False)
    markers = "osD^v<>px*"
    for ax, work in zip(axes[0], works):
        mine = sorted((r for r in runs if r[0]["dist"] == work), key=lambda r: int(r[0]["gpus"]))
        gpus = [int(rows[0]["gpus"]) for rows in mine]
        versions = []
        for rows in mine:
            versions += [r["version"] for r in rows
                         if r["version"] not in versions and r["version"] != "v0"]
        ax.plot(gpus, gpus, color="black", linestyle="--", linewidth=1, label="ideal")
        for i, v in enumerate(versions):
            points = [(g, speedups(rows)[v]) for g, rows in zip(gpus, mine) if v in speedups(rows)]
            if points:
                xs, ys = zip(*points)
                idea = next(r["idea"] for rows in mine for r in rows if r["version"] == v)
                ax.plot(xs, ys, marker=markers[i % len(markers)], label=f"{v}: {idea}")
        ax.set_xticks(gpus)
        ax.set_xlabel("GPUs")
        ax.set_ylabel("speed-up over v0 on one GPU")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=8)
        ax.set_title(f"{work}, {label(mine[0])}", fontsize=10)
    fig.suptitle(f"{title}\n{runs[0][0]['device']}, CUDA {runs[0][0]['cuda']}", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


def busbw(out, title, paths):
    runs = [read(p) for p in paths]
    fig, axes = plt.subplots(1, len(runs), figsize=(6 * len(runs), 5), squeeze=False)
    markers = "osD^v<>px*"
    for ax, rows in zip(axes[0], runs):
        versions = []
        for r in rows:
            if r["version"] not in versions:
                versions.append(r["version"])
        for i, v in enumerate(versions):
            points = [(float(r["bytes"]), float(r["busbw"])) for r in rows
                      if r["version"] == v and r["check"] == "ok"]
            if points:
                xs, ys = zip(*points)
                ax.plot(xs, ys, marker=markers[i % len(markers)], markersize=4, label=v,
                        linestyle="--" if v == "NCCL" else "-")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("bytes on each GPU")
        ax.set_ylabel("bus bandwidth, GB/s (nccl-tests' busbw)")
        ax.set_ylim(bottom=0)
        ax.grid(which="both", alpha=0.3)
        ax.legend(fontsize=9)
        ax.set_title(f"{rows[0]['gpus']} GPUs", fontsize=10)
    fig.suptitle(f"{title}\n{runs[0][0]['device']}, CUDA {runs[0][0]['cuda']}", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0


def bars(out, title, paths):
    """The default chart: effective GB/s per version, one bar per run (one CSV each), the copy
    bandwidth dashed, the library hatched."""
    runs = [read(p) for p in paths]
    versions = []
    for rows in runs:
        for r in rows:
            if r["version"] not in versions:
                versions.append(r["version"])
    copy = float(runs[0][0]["copy_gbps"])
    # Left: every version, log scale. Right: those within 10x of the copy, linear scale, where
    # the last steps and the library can be told apart.
    best = {v: max((float(r["gbps"]) for rows in runs for r in rows
                    if r["version"] == v and r["check"] == "ok"), default=0.0) for v in versions}
    fast = [v for v in versions if best[v] >= copy / 10]
    # The right panel only when it compares something: two versions or more near the copy.
    if len(fast) >= 2:
        fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5.5),
                                          gridspec_kw={"width_ratios": [len(versions), len(fast)]})
    else:
        fig, left = plt.subplots(1, 1, figsize=(11, 5.5))
        right = None
    # Runs of one size on different inputs are told apart by their input.
    names = [label(rows) for rows in runs]
    if len(set(names)) < len(names):
        names = [f"{label(rows)}, {rows[0]['dist']}" for rows in runs]
    draw(left, runs, names, versions, copy, log=True)
    if right is not None:
        draw(right, runs, names, fast, copy, log=False)
    left.set_ylabel("effective GB/s (bytes counted / median time)")
    left.legend(loc="upper left", fontsize=9)
    fig.suptitle(f"{title}\n{runs[0][0]['device']}, CUDA {runs[0][0]['cuda']}; "
                 "hatched: the library", fontsize=11)
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print(f"wrote {out}")
    return 0

