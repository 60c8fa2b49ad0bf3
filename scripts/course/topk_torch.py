"""torch.topk timed as lesson06 times its versions (scripts/topk_torch.py): the reference figure
that lesson 06's write-up quotes, and its rows in lesson06's CSV."""

import csv
import statistics

# lesson06's CSV columns (course::write_table_csv), so that scripts/results.py reads these rows too.
COLUMNS = ["lesson", "device", "cuda", "command", "n", "dist", "size", "k", "type", "version",
           "idea", "median_ms", "min_ms", "max_ms", "reps", "bytes", "gbps", "pct_copy",
           "copy_gbps", "cpu", "cpu_ms", "speedup_vs_cpu", "check", "note"]


def measure(n, reps, ks, seed, csv_path, command):
    """Times torch.topk for each k of `ks` on n ints and n floats drawn from `seed`, the median of
    `reps` calls with the L2 flushed and without; prints a line each and, with `csv_path`, writes
    the flushed times as rows of lesson06's CSV whose command is `command`. The exit status (77
    without PyTorch or a GPU it sees)."""
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
          f"L2 {l2_bytes >> 20} MiB; n = {n}, median of {reps} calls after 3 warm-ups")
    generator = torch.Generator(device=device).manual_seed(seed)
    values = torch.randint(0, 2**31 - 1, (n,), device=device, dtype=torch.int64,
                           generator=generator)
    values[0::2] = -values[0::2]
    inputs = {"int32": values.to(torch.int32), "float32": (values.double() / 2**31).float()}
    flush = torch.full((2 * l2_bytes // 4,), 0x5A, dtype=torch.int32, device=device)

    def time_ms(fn, flush_first):
        for _ in range(3):
            fn()
        samples = []
        for _ in range(reps):
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
            moved = n * 4 + k * (4 + 8)  # lesson06's count: the input, k values and indices
            rows.append({
                "lesson": "06", "device": properties.name, "cuda": torch.version.cuda,
                "command": command, "n": n, "dist": "source",
                "size": f"k = {k} of {n} {'ints' if name == 'int32' else 'floats'}",
                "k": k, "type": "int" if name == "int32" else "float", "version": "torch.topk",
                "idea": f"torch {torch.__version__}, L2 flushed", "median_ms": f"{flushed:.6f}",
                "min_ms": f"{fastest:.6f}", "max_ms": f"{slowest:.6f}", "reps": reps,
                "bytes": moved, "gbps": f"{moved / flushed / 1e6:.3f}", "pct_copy": "",
                "copy_gbps": "", "cpu": "", "cpu_ms": "", "speedup_vs_cpu": "",
                "check": "ok" if ok else "FAIL", "note": ""})
    if csv_path:
        with open(csv_path, "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=COLUMNS)
            writer.writeheader()
            writer.writerows(rows)
        print(f"wrote {csv_path}")
    return 0 if all_ok else 1

