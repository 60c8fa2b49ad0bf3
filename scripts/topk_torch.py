#!/usr/bin/env python3
"""torch.topk on this machine's GPU, timed as lesson06 times its versions: the reference figure that
lesson 06's write-up quotes.

    python3 scripts/topk_torch.py [--n 10000000] [--reps 50] [--ks 10,100,1024,16384] [--csv F]

The input is the seed's kind: random ints from 0 to 2^31 - 1, every even index negated (drawn by
torch, so the values differ from lesson06's, but not their distribution), as int32 and as float32.
Each timed call runs after a warm-up, between CUDA events, with the L2 cache flushed before it (by
reading a buffer twice its size, which leaves no dirty lines behind), as lesson06 does; the median of --reps calls is printed, and
the same without the flush. --csv writes the flushed times as rows of lesson06's CSV (version
torch.topk), which the README's table at a glance joins to lesson06's own run. Needs PyTorch with
CUDA; without it, says so and exits 77.
"""

import argparse
import csv
import statistics
import sys

# lesson06's CSV columns (course::write_table_csv), so that scripts/results.py reads these rows too.
COLUMNS = ["lesson", "device", "cuda", "command", "n", "dist", "size", "k", "type", "version",
           "idea", "median_ms", "min_ms", "max_ms", "reps", "bytes", "gbps", "pct_copy",
           "copy_gbps", "cpu", "cpu_ms", "speedup_vs_cpu", "check", "note"]


def main(argv):
    parser = argparse.ArgumentParser(description="Time torch.topk the way lesson06 times its versions.")
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--ks", default="10,100,1024,16384")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--csv", default="", help="also write the flushed times to this CSV")
    args = parser.parse_args(argv[1:])
    try:
        ks = [int(k) for k in args.ks.split(",")]
    except ValueError:
        print(f"topk_torch.py: error: --ks must be whole numbers, not {args.ks}", file=sys.stderr)
        return 2
    if args.n < 1 or args.reps < 1 or any(k < 1 or k > args.n for k in ks):
        print("topk_torch.py: error: need n >= 1, reps >= 1 and every k from 1 to n", file=sys.stderr)
        return 2
    try:
        import torch
    except ImportError:
        print("topk_torch.py: PyTorch is not installed; nothing to measure")
        return 77
    if not torch.cuda.is_available():
        print("topk_torch.py: PyTorch sees no CUDA GPU; nothing to measure")
        return 77

    device = torch.device("cuda")
    properties = torch.cuda.get_device_properties(device)
    l2_bytes = getattr(properties, "L2_cache_size", 50 * 2**20)
    print(f"torch {torch.__version__} (CUDA {torch.version.cuda}) on {properties.name}, "
          f"L2 {l2_bytes >> 20} MiB; n = {args.n}, median of {args.reps} calls after 3 warm-ups")
    generator = torch.Generator(device=device).manual_seed(args.seed)
    values = torch.randint(0, 2**31 - 1, (args.n,), device=device, dtype=torch.int64,
                           generator=generator)
    values[0::2] = -values[0::2]
    inputs = {"int32": values.to(torch.int32), "float32": (values.double() / 2**31).float()}
    flush = torch.full((2 * l2_bytes // 4,), 0x5A, dtype=torch.int32, device=device)

    def time_ms(fn, flush_first):
        for _ in range(3):
            fn()
        samples = []
        for _ in range(args.reps):
            if flush_first:
                flush.sum()
            start = torch.cuda.Event(enable_timing=True)
            stop = torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            stop.record()
            stop.synchronize()
            samples.append(start.elapsed_time(stop))
        return statistics.median(samples), min(samples), max(samples)

    print(f"{'type':<8} {'k':>6} {'L2 flushed ms':>14} {'warm L2 ms':>11}  check")
    all_ok = True
    rows = []
    command = "topk_torch.py " + " ".join(argv[1:])
    for name, x in inputs.items():
        for k in ks:
            top = torch.topk(x, k)
            # The check: sorted descending, and the same values as a full sort's first k.
            expected = torch.sort(x, descending=True).values[:k]
            ok = bool(torch.equal(top.values, expected)) and bool(
                torch.equal(x[top.indices], top.values))
            all_ok = all_ok and ok
            flushed, fastest, slowest = time_ms(lambda: torch.topk(x, k), True)
            warm = time_ms(lambda: torch.topk(x, k), False)[0]
            print(f"{name:<8} {k:>6} {flushed:>14.4f} {warm:>11.4f}  {'ok' if ok else 'FAIL'}")
            moved = args.n * 4 + k * (4 + 8)  # lesson06's count: the input, k values and indices
            rows.append({
                "lesson": "06", "device": properties.name, "cuda": torch.version.cuda,
                "command": command, "n": args.n, "dist": "seed",
                "size": f"k = {k} of {args.n} {'ints' if name == 'int32' else 'floats'}",
                "k": k, "type": "int" if name == "int32" else "float", "version": "torch.topk",
                "idea": f"torch {torch.__version__}, L2 flushed", "median_ms": f"{flushed:.6f}",
                "min_ms": f"{fastest:.6f}", "max_ms": f"{slowest:.6f}", "reps": args.reps,
                "bytes": moved, "gbps": f"{moved / flushed / 1e6:.3f}", "pct_copy": "",
                "copy_gbps": "", "cpu": "", "cpu_ms": "", "speedup_vs_cpu": "",
                "check": "ok" if ok else "FAIL", "note": ""})
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {args.csv}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
