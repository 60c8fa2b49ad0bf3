"""One process per GPU on this host, as torchrun or mpirun would start them, for lesson 07's ranks
(scripts/launch_ranks.py): each with torchrun's variables, its lines shown with its rank in front,
all stopped when one fails or time runs out."""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from course import cli
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


def launch(command, nproc, timeout):
    """Starts `command` `nproc` times (0: one per GPU, at least one) with {port} and {tmp} in its
    words replaced, and waits up to `timeout` seconds. The exit status (see launch_ranks.py's
    help)."""
    if shutil.which(command[0]) is None:  # before the folder below is made
        return cli.refuse("launch_ranks.py", f"cannot start {command[0]}: no such program")
    nproc = nproc or max(1, len(gpu_names()))
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
    deadline = time.monotonic() + timeout
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
                print(f"launch_ranks.py: the ranks did not finish in {timeout:.0f} s",
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

