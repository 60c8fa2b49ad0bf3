"""A Slurm cluster of one node on this machine, started for a test of scripts/grade_slurm.py
against the real Slurm (Debian's slurm-wlm and munge), and stopped after it: munged, slurmctld and
slurmd, run as the user who starts them, each with its files in one folder and on ports of its
own, so that nothing of the machine's own configuration is read or changed. The node has this
machine's CPUs and, with gpus=N, N GPUs as Slurm's generic resource "gpu" (gres.conf names
/dev/nvidia0 to N-1): a task that asks --gres=gpu:1 is given one, and CUDA_VISIBLE_DEVICES names
it. Slurm's client commands find the cluster through SLURM_CONF, in the environment it yields."""

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import time

TOOLS = ("munged", "slurmctld", "slurmd", "sbatch", "sinfo", "squeue")


def _tool(name):
    """The program's path, on PATH or in the sbin folders where Debian puts the daemons."""
    return shutil.which(name, path=os.pathsep.join([os.environ.get("PATH", ""), "/usr/sbin",
                                                     "/sbin"]))


def missing_tools():
    """The programs a cluster needs that are not installed (Debian: slurm-wlm and munge)."""
    return [tool for tool in TOOLS if not _tool(tool)]


def gpu_devices():
    """This machine's GPU device files, /dev/nvidiaN in the order of N. A container may hold
    others than /dev/nvidia0 (the host's third GPU is /dev/nvidia2 in it too)."""
    try:
        names = [n for n in os.listdir("/dev") if n.startswith("nvidia") and n[6:].isdigit()]
    except OSError:
        return []
    return ["/dev/" + n for n in sorted(names, key=lambda n: int(n[6:]))]


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _tail(path, lines=8):
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            return " | ".join(f.read().splitlines()[-lines:])
    except OSError:
        return "(no log)"


def config(folder, host, user, gpus, cpus):
    """slurm.conf's text (and gres.conf's, or None) for a cluster of one node in `folder`."""
    lines = [
        "ClusterName=course",
        f"SlurmctldHost={host}(127.0.0.1)",
        f"SlurmUser={user}",
        f"SlurmdUser={user}",
        f"SlurmctldPort={_free_port()}",
        f"SlurmdPort={_free_port()}",
        "AuthType=auth/munge",
        "CredType=cred/munge",
        f"AuthInfo=socket={folder}/munge.socket",
        f"StateSaveLocation={folder}/state",
        f"SlurmdSpoolDir={folder}/spool",
        f"SlurmctldPidFile={folder}/slurmctld.pid",
        f"SlurmdPidFile={folder}/slurmd.pid",
        f"SlurmctldLogFile={folder}/slurmctld.log",
        f"SlurmdLogFile={folder}/slurmd.log",
        # No cgroups (a container may not give them): processes tracked by their parents, and
        # no binding of tasks to cores.
        "ProctrackType=proctrack/linuxproc",
        "TaskPlugin=task/none",
        "SelectType=select/cons_tres",
        "SelectTypeParameters=CR_Core",
        "ReturnToService=2",
        "MpiDefault=none",
        "JobAcctGatherType=jobacct_gather/none",
        "AccountingStorageType=accounting_storage/none",
    ]
    gres = None
    node = f"NodeName={host} NodeAddr=127.0.0.1 CPUs={cpus} State=UNKNOWN"
    if gpus:
        lines.append("GresTypes=gpu")
        node += f" Gres=gpu:{gpus}"
        gres = "AutoDetect=off\n" + "".join(f"Name=gpu File={d}\n"
                                            for d in gpu_devices()[:gpus])
    lines += [node, f"PartitionName=course Nodes={host} Default=YES MaxTime=INFINITE State=UP"]
    return "\n".join(lines) + "\n", gres


@contextlib.contextmanager
def started(folder, gpus=0, timeout=60):
    """Starts the cluster with its files in `folder` (which it creates); yields the environment
    for Slurm's commands (SLURM_CONF set); stops every daemon at the end, whatever happened.
    RuntimeError when a daemon does not start or the node is not idle within `timeout` s."""
    absent = missing_tools()
    if absent:
        raise RuntimeError(f"not installed: {', '.join(absent)} (Debian: slurm-wlm and munge)")
    folder = os.path.abspath(folder)
    if gpus and len(gpu_devices()) < gpus:
        raise RuntimeError(f"{gpus} GPUs asked for, and this machine has "
                           f"{len(gpu_devices())} device files /dev/nvidiaN")
    for sub in ("state", "spool"):
        os.makedirs(os.path.join(folder, sub), exist_ok=True)
    user = pwd.getpwuid(os.getuid()).pw_name
    host = socket.gethostname().split(".")[0]
    key = os.path.join(folder, "munge.key")
    with open(key, "wb") as f:
        f.write(os.urandom(1024))
    os.chmod(key, 0o400)
    # munged refuses a folder others may write, and root, without --force: this one is the
    # test's own, and lives as long as the test.
    munged = subprocess.run(
        [_tool("munged"), "--force", f"--key-file={key}", f"--socket={folder}/munge.socket",
         f"--pid-file={folder}/munged.pid", f"--log-file={folder}/munged.log",
         f"--seed-file={folder}/munged.seed"], capture_output=True, text=True)
    if munged.returncode != 0:
        raise RuntimeError(f"munged did not start: {(munged.stderr or munged.stdout).strip()}")
    conf, gres = config(folder, host, user, gpus, os.cpu_count() or 1)
    with open(os.path.join(folder, "slurm.conf"), "w", encoding="utf-8") as f:
        f.write(conf)
    if gres:
        with open(os.path.join(folder, "gres.conf"), "w", encoding="utf-8") as f:
            f.write(gres)
    # slurmd starts a cgroup plugin even with task/none. On a cgroup v2 machine without systemd's
    # D-Bus (a container) cgroup/v2 refuses to start; cgroup/v1 over an empty folder of the
    # test's own starts, and, with task/none and proctrack/linuxproc, is never asked for more.
    os.makedirs(os.path.join(folder, "cgroup"), exist_ok=True)
    with open(os.path.join(folder, "cgroup.conf"), "w", encoding="utf-8") as f:
        f.write(os.environ.get("COURSE_SLURM_CGROUP_CONF") or
                f"CgroupPlugin=cgroup/v1\nCgroupMountpoint={folder}/cgroup\n")
    env = dict(os.environ, SLURM_CONF=os.path.join(folder, "slurm.conf"))
    daemons = []
    try:
        for daemon, extra in (("slurmctld", ["-i"]), ("slurmd", ["-N", host])):
            log = open(os.path.join(folder, f"{daemon}.out"), "w", encoding="utf-8")
            daemons.append(subprocess.Popen([_tool(daemon), "-D", "-f", env["SLURM_CONF"]]
                                            + extra, stdout=log, stderr=subprocess.STDOUT,
                                            env=env))
            log.close()
        end = time.monotonic() + timeout
        state = ""
        while time.monotonic() < end:
            for daemon, name in zip(daemons, ("slurmctld", "slurmd")):
                if daemon.poll() is not None:
                    raise RuntimeError(f"{name} ended with status {daemon.returncode}: "
                                       f"{_tail(os.path.join(folder, name + '.log'))}")
            done = subprocess.run([_tool("sinfo"), "-h", "-o", "%T"], capture_output=True,
                                  text=True, env=env)
            state = done.stdout.strip()
            if state == "idle":
                break
            time.sleep(1)
        else:
            raise RuntimeError(f"the node is not idle after {timeout} s (sinfo: {state!r}): "
                               f"{_tail(os.path.join(folder, 'slurmctld.log'))}")
        yield env
    finally:
        for daemon in reversed(daemons):
            daemon.terminate()
            try:
                daemon.wait(timeout=20)
            except subprocess.TimeoutExpired:
                daemon.kill()
                daemon.wait()
        try:
            with open(os.path.join(folder, "munged.pid"), encoding="utf-8") as f:
                pid = int(f.read().strip())
            os.kill(pid, 15)
            for _ in range(100):  # gone before its folder is removed (it writes its log there)
                os.kill(pid, 0)
                time.sleep(0.1)
        except (OSError, ValueError):
            pass
