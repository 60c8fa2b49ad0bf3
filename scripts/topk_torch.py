#!/usr/bin/env python3
"""torch.topk on this machine's GPU, timed as lesson06 times its versions: the reference figure that
lesson 06's write-up quotes.

    python3 scripts/topk_torch.py [--n 10000000] [--reps 50] [--ks 10,100,1024,16384]

The input is the seed's kind: random ints from 0 to 2^31 - 1, every even index negated (drawn by
torch, so the values differ from lesson06's, but not their distribution), as int32 and as float32.
Each timed call runs after a warm-up, between CUDA events, with the L2 cache flushed before it (by
reading a buffer twice its size, which leaves no dirty lines behind), as lesson06 does; the median of --reps calls is printed, and
the same without the flush. Needs PyTorch with CUDA; without it, says so and exits 77.
"""

import argparse
import statistics
import sys


def main(argv):
    parser = argparse.ArgumentParser(description="Time torch.topk the way lesson06 times its versions.")
    parser.add_argument("--n", type=int, default=10_000_000)
    parser.add_argument("--reps", type=int, default=50)
    parser.add_argument("--ks", default="10,100,1024,16384")
    parser.add_argument("--seed", type=int, default=2024)
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
        return statistics.median(samples)

    print(f"{'type':<8} {'k':>6} {'L2 flushed ms':>14} {'warm L2 ms':>11}  check")
    all_ok = True
    for name, x in inputs.items():
        for k in ks:
            top = torch.topk(x, k)
            # The check: sorted descending, and the same values as a full sort's first k.
            expected = torch.sort(x, descending=True).values[:k]
            ok = bool(torch.equal(top.values, expected)) and bool(
                torch.equal(x[top.indices], top.values))
            all_ok = all_ok and ok
            flushed = time_ms(lambda: torch.topk(x, k), True)
            warm = time_ms(lambda: torch.topk(x, k), False)
            print(f"{name:<8} {k:>6} {flushed:>14.4f} {warm:>11.4f}  {'ok' if ok else 'FAIL'}")
    return 0 if all_ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
