#!/usr/bin/env python3
"""Starts one process per GPU on this host, as torchrun or mpirun would, for lesson 07's ranks:

    python3 scripts/launch_ranks.py --nproc 4 -- build/default/bin/lesson07 --work dot \\
        --rank env --rendezvous tcp:127.0.0.1:{port} --n 2^30

Each process gets the variables torchrun sets (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE),
and in its arguments {port} becomes a TCP port that was free a moment ago and {tmp} a new empty
folder (the same for every rank). Each line a rank prints is shown with its rank in front. When a
rank fails, the others are stopped; so are all of them after --timeout seconds.

--nproc 0 (the default) starts one process per GPU that nvidia-smi lists, and one when it lists
none (the rank then says there is no GPU, and exits 77).

Exit status: the ranks' worst (0 when all passed, 77 when every rank found no GPU), 124 when they
ran out of time, 2 for bad arguments.
"""

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time

from course.gpus import gpu_names


def free_port():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def relay(rank, stream, lock):
    for line in iter(stream.readline, ""):
        with lock:
            sys.stdout.write(f"[rank {rank}] {line}")
            sys.stdout.flush()


def main(argv):
    parser = argparse.ArgumentParser(description="Start one process per GPU, as torchrun does.")
    parser.add_argument("--nproc", type=int, default=0,
                        help="processes to start (0: one per GPU, at least one)")
    parser.add_argument("--timeout", type=float, default=300, help="seconds before all are stopped")
    parser.add_argument("command", nargs=argparse.REMAINDER,
                        help="-- then the program and its arguments")
    args = parser.parse_args(argv[1:])
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.nproc < 0:
        parser.print_usage(sys.stderr)
        print("launch_ranks.py: error: give -- and the program to start", file=sys.stderr)
        return 2
    nproc = args.nproc or max(1, len(gpu_names()))
    port = str(free_port())
    tmp = tempfile.mkdtemp(prefix="lesson07_")
    command = [word.replace("{port}", port).replace("{tmp}", tmp) for word in command]
    print(f"launch_ranks.py: {nproc} rank{'s' if nproc > 1 else ''}: {' '.join(command)}",
          flush=True)
    lock = threading.Lock()
    ranks = []
    for rank in range(nproc):
        env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(nproc), LOCAL_RANK=str(rank),
                   LOCAL_WORLD_SIZE=str(nproc))
        p = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        threading.Thread(target=relay, args=(rank, p.stdout, lock), daemon=True).start()
        ranks.append(p)
    deadline = time.monotonic() + args.timeout
    status = {}
    while len(status) < nproc:
        for rank, p in enumerate(ranks):
            if rank not in status and p.poll() is not None:
                status[rank] = p.returncode
        failed = [s for s in status.values() if s not in (0, 77)]
        if failed or time.monotonic() > deadline:
            for rank, p in enumerate(ranks):
                if rank not in status:
                    p.kill()
                    p.wait()
            if not failed:
                print(f"launch_ranks.py: the ranks did not finish in {args.timeout:.0f} s",
                      file=sys.stderr)
                return 124
            break
        time.sleep(0.05)
    for p in ranks:
        p.wait()
    codes = [p.returncode for p in ranks]
    time.sleep(0.1)  # the relays' last lines
    if all(c == 77 for c in codes):
        return 77
    worst = max((c for c in codes if c not in (0, 77)), default=0, key=abs)
    print(f"launch_ranks.py: exit statuses {codes}", flush=True)
    return worst if worst > 0 else (1 if worst < 0 else 0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
