#!/usr/bin/env python3
"""Grades a class across a Slurm cluster: one array job, one student per task, each task on a GPU
of its own (--gres=gpu:1) with a build folder of its own, then one merged gradebook.

    python3 scripts/grade_slurm.py submit --class DIR --work WORK [--seed S] [--exercises LIST |
        --assignment NAME] [--format F] [--build-only] [--no-sandbox] [--gpus-per-task N]
        [--cpus-per-task N] [--partition P] [--account A] [--time T] [--wait SECONDS]
    python3 scripts/grade_slurm.py status --work WORK     # which students' tasks have finished
    python3 scripts/grade_slurm.py rerun --work WORK [...]  # submits the unfinished ones again
                                                            # (not those still in Slurm's queue)
    python3 scripts/grade_slurm.py merge --work WORK --out OUT
    python3 scripts/grade_slurm.py selftest                 # the plan, with a stand-in sbatch
    python3 scripts/grade_slurm.py cluster-test [--gpus N] [--class DIR] [--exercises LIST]
        [--no-compare] [--no-rerun] [--cpus-per-task N] [--keep DIR]
        # on a Slurm cluster of one node started on this machine
    python3 scripts/grade_slurm.py estimate FILE... [--students N] [--gpus 1,8,64]
        # how long a class takes on 1, 8 and 64 GPUs, at the seconds a student that FILEs record
        # (a gradebook.csv's seconds column, or grade.py's "graded in N s" lines)

WORK must be on a file system that every node sees, and so must the checkout and the class. Each
task runs grade.py --class on a class of one (a link to its student, WORK/farm/<student>), with
the job's seed and options and the whole class hidden by its sandbox, and leaves its exit status
in WORK/tasks/<student>/status. merge writes OUT/gradebook.csv (OUT/build_report.txt with
--build-only), OUT/summary.txt and each results folder, and names the students whose task did not
finish; rerun submits those again. Exit status: 0 when done (merge: every student graded), 1 when
a student's task did not finish, 2 for bad arguments or a failed sbatch.
"""

import os
import sys

from course import slurm
from course.cli import OneLineParser, refuse


def main(argv):
    if argv[1:] == ["selftest"]:
        return slurm.selftest()
    if argv[1:2] == ["cluster-test"]:
        return cluster_test(argv[2:])
    if argv[1:2] == ["estimate"]:
        return estimate(argv[2:])
    parser = OneLineParser(description="Grade a class across a Slurm cluster.")
    parser.add_argument("action", choices=["submit", "status", "rerun", "merge"])
    parser.add_argument("--class", dest="class_dir")
    parser.add_argument("--work", required=True)
    parser.add_argument("--out")
    parser.add_argument("--seed", type=int)
    choose = parser.add_mutually_exclusive_group()
    choose.add_argument("--exercises")
    choose.add_argument("--assignment")
    parser.add_argument("--format")
    parser.add_argument("--build-only", action="store_true")
    parser.add_argument("--no-sandbox", dest="sandbox", action="store_false")
    parser.add_argument("--gpus-per-task", type=int, default=None,
                        help="GPUs a student's task asks for (default: 1; rerun: the submit's)")
    parser.add_argument("--cpus-per-task", type=int, default=None,
                        help="CPUs a student's task asks for, and its grade.py --jobs (default: "
                             f"{slurm.CPUS_PER_TASK}; rerun: the submit's)")
    parser.add_argument("--partition")
    parser.add_argument("--account")
    parser.add_argument("--time")
    parser.add_argument("--wait", type=float, default=0,
                        help="submit and rerun: wait this long for the tasks to finish")
    args = parser.parse_args(argv[1:])
    work = os.path.abspath(args.work)
    try:
        if args.action == "submit":
            if not args.class_dir or not os.path.isdir(args.class_dir):
                return refuse("grade_slurm.py", "submit needs --class DIR, a folder")
            job = slurm.prepare(args)
            indices = list(range(len(job["students"])))
        elif not os.path.isfile(os.path.join(work, "job.json")):
            return refuse("grade_slurm.py", f"{args.work} holds no job (submit first)")
        else:
            job = slurm.load(work)
            indices = slurm.unfinished(work, job)
            if args.action == "rerun":
                queued = slurm.in_queue(job)
                if queued & set(indices):
                    print("still in Slurm's queue, not submitted again: " + ", ".join(
                        job["students"][i] for i in indices if i in queued))
                indices = [i for i in indices if i not in queued]
        if args.action == "status":
            print(f"{len(job['students']) - len(indices)} of {len(job['students'])} students "
                  "graded; not finished: " + (", ".join(job["students"][i] for i in indices)
                                               or "none"))
            return 1 if indices else 0
        if args.action == "merge":
            if not args.out:
                return refuse("grade_slurm.py", "merge needs --out OUT")
            missing = slurm.merge(work, os.path.abspath(args.out))
            print(f"merged {len(job['students']) - len(missing)} of {len(job['students'])} "
                  f"students into {args.out}" + (f"; not finished: {', '.join(missing)}"
                                                 if missing else ""))
            return 1 if missing else 0
        if not indices:
            print("no student's task to submit: each has finished or is still in the queue")
            return 0
        job_id = slurm.sbatch(work, indices, args, job)
        print(f"submitted job {job_id}: {len(indices)} students (seed {job['seed']}); "
              f"python3 scripts/grade_slurm.py merge --work {args.work} --out OUT when done")
        if args.wait and not slurm.wait(work, job, indices, args.wait):
            print(f"not every task finished within {args.wait:.0f} s")
            return 1
        return 0
    except (ValueError, RuntimeError, OSError) as error:
        return refuse("grade_slurm.py", str(error))


def estimate(argv):
    parser = OneLineParser(prog="grade_slurm.py estimate",
                           description="How long a class takes on 1, 8 and 64 GPUs.")
    parser.add_argument("files", nargs="+")
    parser.add_argument("--students", type=int, default=200)
    parser.add_argument("--gpus", default="1,8,64")
    args = parser.parse_args(argv)
    try:
        gpus = [int(g) for g in args.gpus.split(",")]
        if args.students < 1 or min(gpus) < 1:
            raise ValueError
    except ValueError:
        return refuse("grade_slurm.py", "--students and --gpus take whole numbers from 1 "
                      f"(got {args.students} and {args.gpus})")
    try:
        return slurm.estimate_main(args.files, args.students, gpus)
    except ValueError as error:
        return refuse("grade_slurm.py", str(error))


def cluster_test(argv):
    parser = OneLineParser(prog="grade_slurm.py cluster-test",
                           description="Grade a class on a Slurm cluster started on this machine.")
    parser.add_argument("--gpus", type=int, default=0)
    parser.add_argument("--class", dest="class_dir")
    parser.add_argument("--exercises", default="01.1",
                        help="the exercises graded (default: 01.1; all: every exercise)")
    parser.add_argument("--no-compare", dest="compare", action="store_false")
    parser.add_argument("--no-rerun", dest="rerun", action="store_false",
                        help="skip the task removed and rerun (the job's time alone)")
    parser.add_argument("--cpus-per-task", type=int,
                        help="each task's CPUs and grade.py --jobs (default: 8, or fewer here)")
    parser.add_argument("--keep")
    args = parser.parse_args(argv)
    if args.cpus_per_task is not None and not 1 <= args.cpus_per_task <= (os.cpu_count() or 1):
        return refuse("grade_slurm.py", f"--cpus-per-task takes 1 to this machine's "
                      f"{os.cpu_count()} CPUs (got {args.cpus_per_task})")
    if args.class_dir and not os.path.isdir(args.class_dir):
        return refuse("grade_slurm.py", f"{args.class_dir} is not a folder")
    return slurm.cluster_test(args.gpus, args.class_dir, args.exercises, args.compare, args.keep,
                              rerun=args.rerun, cpus=args.cpus_per_task)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
