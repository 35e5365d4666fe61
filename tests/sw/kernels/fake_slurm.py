#!/usr/bin/env python3
"""Stand-ins for SLURM's sbatch, squeue, scontrol and scancel, for the tests of scripts/sweep
--slurm's failure paths (time limits, lost results, failed submissions, grids larger than
MaxArraySize) that a real cluster cannot produce in seconds. Called as `fake_slurm.py COMMAND
ARGS...` from wrappers named like the commands (slurm_runs_test.py writes them).

sbatch runs every task of the array at once, in order, the way SLURM would (SLURM_ARRAY_TASK_ID,
--chdir, --output with %A and %a, the script's arguments), so squeue always finds the job gone.
Every call is appended to $FAKE_SLURM_DIR/calls as one JSON list. Environment knobs:
  FAKE_SLURM_SBATCH_ERROR=TEXT  sbatch fails with TEXT on stderr
  FAKE_SLURM_TIMEOUT=I,J        tasks I, J (overall run numbers) are killed at the time limit: not
                                run, their log says so, scontrol reports TIMEOUT
  FAKE_SLURM_LOSE=I             task I "completes" without running (a result not yet visible)
  FAKE_SLURM_MAX_ARRAY=N        scontrol show config: MaxArraySize = N (default 1001)
"""
import json
import os
import re
import subprocess
import sys

STATE = os.environ["FAKE_SLURM_DIR"]


def record(argv):
    with open(os.path.join(STATE, "calls"), "a", encoding="utf-8") as f:
        f.write(json.dumps(argv) + "\n")


def indices(var):
    return {int(v) for v in os.environ.get(var, "").split(",") if v.strip()}


def next_job_id():
    path = os.path.join(STATE, "last_job")
    job = int(open(path).read()) + 1 if os.path.exists(path) else 100
    with open(path, "w") as f:
        f.write(str(job))
    return job


def sbatch(args):
    if os.environ.get("FAKE_SLURM_SBATCH_ERROR"):
        print(os.environ["FAKE_SLURM_SBATCH_ERROR"], file=sys.stderr)
        return 1
    opts, k = {}, 0
    while k < len(args) and args[k].startswith("-"):
        if args[k] == "--parsable":
            k += 1
        elif "=" in args[k]:
            name, value = args[k].split("=", 1)
            opts[name] = value
            k += 1
        else:
            opts[args[k]] = args[k + 1]
            k += 2
    script, script_args = args[k], args[k + 1:]
    first, last = (int(v) for v in re.match(r"(\d+)-(\d+)", opts["--array"]).groups())
    offset = int(script_args[0]) if script_args else 0
    job = next_job_id()
    states = []
    for index in range(first, last + 1):
        log = opts["--output"].replace("%A", str(job)).replace("%a", str(index))
        run = offset + index
        if run in indices("FAKE_SLURM_TIMEOUT"):
            with open(log, "w") as f:
                f.write("slurmstepd: error: *** JOB %d ON fake CANCELLED AT 2030-01-01T00:00:00 DUE TO TIME LIMIT ***\n"
                        % job)
            states.append((index, "TIMEOUT", "0:15"))
            continue
        if run in indices("FAKE_SLURM_LOSE"):
            open(log, "w").close()
            states.append((index, "COMPLETED", "0:0"))
            continue
        env = dict(os.environ, SLURM_ARRAY_TASK_ID=str(index), SLURM_ARRAY_JOB_ID=str(job))
        with open(log, "w") as out:
            status = subprocess.run(["bash", script] + script_args, cwd=opts.get("--chdir"), env=env, stdout=out,
                                    stderr=subprocess.STDOUT).returncode
        states.append((index, "COMPLETED" if status == 0 else "FAILED", "%d:0" % status))
    with open(os.path.join(STATE, "job_%d" % job), "w") as f:
        for index, state, code in states:
            f.write("JobId=%d ArrayJobId=%d ArrayTaskId=%d JobState=%s ExitCode=%s\n" % (job + index + 1, job, index,
                                                                                      state, code))
    print(job)
    return 0


def scontrol(args):
    if args[:2] == ["show", "config"]:
        print("MaxArraySize            = %s" % os.environ.get("FAKE_SLURM_MAX_ARRAY", "1001"))
        return 0
    if args[:3] == ["-o", "show", "job"]:
        path = os.path.join(STATE, "job_" + args[3])
        if os.path.exists(path):
            sys.stdout.write(open(path).read())
            return 0
        print("slurm_load_jobs error: Invalid job id specified", file=sys.stderr)
        return 1
    return 2


def main():
    command, args = sys.argv[1], sys.argv[2:]
    record([command] + args)
    if command == "sbatch":
        return sbatch(args)
    if command == "scontrol":
        return scontrol(args)
    return 0  # squeue: nothing queued any more (sbatch ran the tasks); scancel: nothing to cancel


if __name__ == "__main__":
    sys.exit(main())
