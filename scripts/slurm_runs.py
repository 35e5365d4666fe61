"""Runs parsys commands as one SLURM job array: the --slurm options of scripts/sweep,
scripts/mem-latency and scripts/link-study (parsys_tools.run_all calls run_array).

The commands go into a generated batch script (RUNS/slurm/array.sh): array task i runs the i-th
command into its run directory, the output in output.txt as on a local run, and then writes its
exit status and wall time to exit_status.txt there. The submitting process polls for those files
and squeue until the array has left the queue, and builds from them the same RunResult a local run
gives, so the CSV is the same. The run directories and the current directory must therefore be on
a filesystem that the compute nodes share with the submitting host, and the parsys binary must be
at the same path there. A task that ends without its exit_status.txt (time limit, cancelled, node
failure) still gives a failed result, with the reason from its SLURM log (RUNS/slurm/JOB_TASK.out).
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
import time

import parsys_tools as pt

STATUS_FILE = "exit_status.txt"   # "STATUS WALL_MICROSECONDS", written last by the task
KILL_AFTER_SECONDS = 5            # --timeout on the node: SIGTERM, then SIGKILL this much later
POLL_FIRST, POLL_MAX = 0.2, 10.0  # seconds between polls, growing by half each time
# After the array has left the queue: how long a task's result may take to appear on a shared
# filesystem whose clients cache directory entries (NFS: up to a minute, acdirmax).
SETTLE_SECONDS = float(os.environ.get("PARSYS_SLURM_SETTLE_SECONDS", "30"))
DEFAULT_MAX_ARRAY_SIZE = 1001     # slurm.conf MaxArraySize default: indices 0..1000


def add_options(ap):
    g = ap.add_argument_group("SLURM (one job array instead of local runs; see scripts/README.md)")
    g.add_argument("--slurm", action="store_true",
                   help="submit the runs as a SLURM job array (sbatch), wait for it and collect the results; the "
                        "output directory, the current directory and parsys must be on a filesystem the nodes share")
    g.add_argument("--slurm-partition", metavar="NAME", help="sbatch --partition")
    g.add_argument("--slurm-time", metavar="TIME", help="time limit of each run (sbatch --time: MINUTES, HH:MM:SS, D-HH)")
    g.add_argument("--slurm-throttle", type=int, metavar="N", help="at most N runs at a time (sbatch --array=...%%N)")
    g.add_argument("--slurm-account", metavar="NAME", help="sbatch --account")
    g.add_argument("--slurm-extra", action="append", default=[], metavar="ARGS",
                   help="more sbatch arguments, e.g. --slurm-extra='--mem=2G --qos=short' (may repeat)")
    g.add_argument("--slurm-setup", action="append", default=[], metavar="LINE",
                   help="shell line run on the node before each run, e.g. --slurm-setup='module load gcc' (may repeat)")


VALUE_OPTIONS = ("partition", "time", "throttle", "account")
LIST_OPTIONS = ("extra", "setup")


def check_options(ap, args):
    """Usage errors of the --slurm options; exits when --slurm is given and sbatch or squeue is missing."""
    if not args.slurm:
        for name in VALUE_OPTIONS + LIST_OPTIONS:
            if getattr(args, "slurm_" + name) not in (None, []):
                ap.error("--slurm-%s needs --slurm" % name)
        return
    if args.slurm_throttle is not None and args.slurm_throttle < 1:
        ap.error("--slurm-throttle must be at least 1")
    for extra in args.slurm_extra:
        try:
            shlex.split(extra)
        except ValueError as e:
            ap.error("--slurm-extra %r: %s" % (extra, e))
    for tool in ("sbatch", "squeue"):
        if shutil.which(tool) is None:
            sys.exit("%s: --slurm: %s not found in PATH (SLURM's client commands; Debian package slurm-client)"
                     % (ap.prog, tool))


def forward_options(args):
    """The --slurm options as arguments for another script that takes them (link-study -> sweep)."""
    if not args.slurm:
        return []
    out = ["--slurm"]
    for name in VALUE_OPTIONS:
        value = getattr(args, "slurm_" + name)
        if value is not None:
            out.append("--slurm-%s=%s" % (name, value))
    for name in LIST_OPTIONS:
        out += ["--slurm-%s=%s" % (name, value) for value in getattr(args, "slurm_" + name)]
    return out


def batch_script(commands, out_dirs, setup, timeout):
    """The array's batch script: task SLURM_ARRAY_TASK_ID + $1 runs commands[i] into out_dirs[i]."""
    run = "\"${cmd[@]}\""
    if timeout:
        run = "timeout -k %d %s %s" % (KILL_AFTER_SECONDS, timeout, run)
    lines = [
        "#!/bin/bash",
        "# Generated: SLURM array task i (+ the offset $1, for grids split over several arrays) runs the",
        "# i-th parsys command into its run directory, then writes its exit status and wall time in",
        "# microseconds to %s there. Run one task again: sbatch --array=I THIS_SCRIPT" % STATUS_FILE,
    ]
    lines += setup
    lines += ["task=$((SLURM_ARRAY_TASK_ID + ${1:-0}))", "case $task in"]
    for k, (cmd, out_dir) in enumerate(zip(commands, out_dirs)):
        lines.append("%d) dir=%s; cmd=(%s) ;;" % (k, shlex.quote(out_dir), " ".join(shlex.quote(a) for a in cmd)))
    lines += [
        "*) echo \"$0: no task $task (0..%d)\" >&2; exit 2 ;;" % (len(commands) - 1),
        "esac",
        "rm -f \"$dir/%s\"" % STATUS_FILE,
        "start=$(date +%s%N)",
        "%s > \"$dir/output.txt\" 2>&1" % run,
        "status=$?",
        "end=$(date +%s%N)",
        "echo \"$status $(( (end - start) / 1000 ))\" > \"$dir/%s.tmp\" && mv -f \"$dir/%s.tmp\" \"$dir/%s\" || exit 3"
        % (STATUS_FILE, STATUS_FILE, STATUS_FILE),
        "exit $status",
    ]
    return "\n".join(lines) + "\n"


def max_array_size():
    try:
        p = subprocess.run(["scontrol", "show", "config"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                           text=True)
        m = re.search(r"^MaxArraySize\s*=\s*(\d+)", p.stdout, re.M)
        return int(m.group(1)) if m else DEFAULT_MAX_ARRAY_SIZE
    except OSError:
        return DEFAULT_MAX_ARRAY_SIZE


class Array:
    """The submitted arrays: chunks [(job id, first run, number of runs)] of one batch script."""

    def __init__(self, tool, slurm_dir):
        self.tool, self.slurm_dir, self.chunks = tool, slurm_dir, []

    def job_ids(self):
        return [job for job, _, _ in self.chunks]

    def task(self, k):
        """(job id, array index) of run k."""
        for job, first, count in self.chunks:
            if first <= k < first + count:
                return job, k - first
        raise IndexError(k)

    def log(self, k):
        return os.path.join(self.slurm_dir, "%s_%d.out" % self.task(k))

    def cancel(self):
        if self.chunks:
            subprocess.run(["scancel"] + self.job_ids(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

    def submit(self, script, count, opts):
        """sbatch, one array per MaxArraySize runs (slurm.conf); with a throttle each array waits for the
        one before, so the throttle holds for the whole grid."""
        chunk = max_array_size()
        for first in range(0, count, chunk):
            n = min(chunk, count - first)
            cmd = ["sbatch", "--parsable", "--job-name", "parsys-" + self.tool,
                   "--output", os.path.join(self.slurm_dir, "%A_%a.out"), "--ntasks", "1", "--cpus-per-task", "1",
                   "--chdir", os.getcwd()]
            for name in ("partition", "time", "account"):
                if getattr(opts, "slurm_" + name):
                    cmd += ["--" + name, getattr(opts, "slurm_" + name)]
            for extra in opts.slurm_extra:
                cmd += shlex.split(extra)
            if opts.slurm_throttle and self.chunks:
                cmd += ["--dependency", "afterany:" + self.chunks[-1][0]]
            cmd += ["--array", "0-%d%s" % (n - 1, "%%%d" % opts.slurm_throttle if opts.slurm_throttle else ""),
                    script, str(first)]
            p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            job = p.stdout.strip().split(";")[0]
            if p.returncode != 0 or not job.isdigit():
                self.cancel()
                text = " | ".join(l.strip() for l in (p.stderr + p.stdout).splitlines() if l.strip()) or "no output"
                sys.exit("%s: sbatch failed (exit status %d): %s" % (self.tool, p.returncode, text))
            self.chunks.append((job, first, n))

    def in_queue(self, warned):
        """True while any task of the arrays is pending, running or completing. A failing squeue
        (controller unreachable) counts as still queued, with one warning."""
        p = subprocess.run(["squeue", "-h", "-o", "%i", "-j", ",".join(self.job_ids())],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if p.returncode == 0:
            return bool(p.stdout.strip())
        if "Invalid job id" in p.stderr:  # already purged from the controller's memory
            return False
        if not warned[0]:
            print("%s: squeue failed (%s); still waiting for the results" % (self.tool, p.stderr.strip()),
                  file=sys.stderr)
            warned[0] = True
        return True


def read_status(out_dir):
    """(exit status, wall seconds) from the task's exit_status.txt, or None while it is missing."""
    try:
        with open(os.path.join(out_dir, STATUS_FILE), encoding="utf-8") as f:
            status, micros = f.read().split()
        return int(status), int(micros) / 1e6
    except (OSError, ValueError):
        return None


def task_result(out_dir, status, wall, timeout):
    """The RunResult of a task that wrote its exit status: as pt.run_parsys would give it."""
    try:
        with open(os.path.join(out_dir, "output.txt"), encoding="utf-8", errors="replace") as f:
            output = f.read()
    except OSError:
        output = ""
    if timeout and status == 124:  # timeout(1)
        status, output = -1, pt.timed_out_text(timeout)
    elif 128 < status < 128 + 65:  # killed by a signal: the negative number subprocess gives locally
        status = -(status - 128)
    return pt.run_result(out_dir, status, output, wall)


def task_states(array):
    """{(job id, array index): scontrol's fields (JobState, ExitCode, ...)} of the finished tasks the
    controller still remembers (MinJobAge, 5 minutes by default); no accounting needed."""
    states = {}
    for job in array.job_ids():
        p = subprocess.run(["scontrol", "-o", "show", "job", job], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, text=True)
        for line in p.stdout.splitlines():
            fields = dict(re.findall(r"(\w+)=(\S*)", line))
            if fields.get("ArrayTaskId", "").isdigit():
                states[(fields.get("ArrayJobId", job), int(fields["ArrayTaskId"]))] = fields
    return states


WHAT_HAPPENED = {"TIMEOUT": "reached its time limit", "CANCELLED": "was cancelled", "NODE_FAIL": "lost its node",
                 "OUT_OF_MEMORY": "ran out of memory", "PREEMPTED": "was preempted", "BOOT_FAIL": "could not boot its node",
                 "DEADLINE": "reached its deadline", "FAILED": "failed"}


def lost_task_reason(array, k, states, opts):
    """Why run k's task ended without its exit status (SLURM's state of the task, its log), or None
    when nothing says it failed: then the result may still be on its way to this host."""
    job, index = array.task(k)
    state = states.get((job, index))
    try:
        with open(array.log(k), encoding="utf-8", errors="replace") as f:
            lines = [l.strip() for l in f if l.strip()]
    except OSError:
        lines = None
    if state is None:  # the controller forgot the task: only its log can tell
        lines = [l for l in lines or [] if re.search(r"CANCELLED|TIME LIMIT|error|oom|killed", l, re.I)]
        if not lines:
            return None
        what = "reached its time limit" if "DUE TO TIME LIMIT" in lines[-1] else "failed"
    else:
        if state.get("JobState") == "COMPLETED":
            return None
        what = WHAT_HAPPENED.get(state.get("JobState"), "ended " + state.get("JobState", "?"))
        if state.get("JobState") == "FAILED":
            what += " (exit code %s)" % state.get("ExitCode", "?")
    if what == "reached its time limit":
        what += " (--slurm-time %s)" % (opts.slurm_time or "not given: the partition's default")
    if lines:
        text = " | ".join(lines[-3:])
    elif lines is None:
        text = "no log %s (are the output directories on a filesystem the compute nodes share?)" % array.log(k)
    else:
        text = "empty log %s" % array.log(k)
    return "SLURM task %s_%d %s: %s" % (job, index, what, text)


def run_array(parsys, items, specs, opts, timeout, on_done=None):
    """The runs specs [(program, args, out_dir)] as one job array; RunResults in order."""
    tool = os.path.basename(sys.argv[0])
    commands, dirs = [], []
    for program, args, out_dir in specs:
        cmd = pt.parsys_command(parsys, program, args, out_dir)
        pt.prepare_run_dir(out_dir, cmd)
        try:
            os.remove(os.path.join(out_dir, STATUS_FILE))
        except FileNotFoundError:
            pass
        commands.append(cmd)
        dirs.append(out_dir)
    slurm_dir = os.path.join(os.path.abspath(os.path.commonpath([os.path.dirname(os.path.abspath(d)) for d in dirs])),
                             "slurm")
    os.makedirs(slurm_dir, exist_ok=True)
    for name in os.listdir(slurm_dir):  # logs of earlier arrays: a restarted controller reuses job ids
        if re.fullmatch(r"\d+_\d+\.out", name):
            os.remove(os.path.join(slurm_dir, name))
    script = os.path.join(slurm_dir, "array.sh")
    with open(script, "w", encoding="utf-8") as f:
        f.write(batch_script(commands, dirs, opts.slurm_setup, timeout))
    os.chmod(script, 0o755)

    array = Array(tool, slurm_dir)
    results = [None] * len(dirs)
    try:
        array.submit(script, len(dirs), opts)
        print("%s: %d runs submitted as SLURM job %s (%s); waiting" % (tool, len(dirs), ",".join(array.job_ids()),
                                                                     script), file=sys.stderr)
        wait(array, dirs, items, results, opts, timeout, on_done)
    except KeyboardInterrupt:
        array.cancel()
        sys.exit("%s: interrupted; cancelled SLURM job %s" % (tool, ",".join(array.job_ids())))
    return results


def wait(array, dirs, items, results, opts, timeout, on_done):
    pending = list(range(len(dirs)))

    def finish(k, result):
        results[k] = result
        pending.remove(k)
        if on_done:
            on_done(items[k], result)

    def collect():
        for k in list(pending):
            st = read_status(dirs[k])
            if st is not None:
                finish(k, task_result(dirs[k], st[0], st[1], timeout))

    interval, warned = POLL_FIRST, [False]
    collect()
    while pending and array.in_queue(warned):
        time.sleep(interval)
        interval = min(POLL_MAX, interval * 1.5)
        collect()
    collect()  # the last tasks may have ended between the poll and squeue
    # Left the queue without a result: the task's log says why, or the result has yet to show on
    # the shared filesystem.
    deadline = time.monotonic() + SETTLE_SECONDS
    states = task_states(array) if pending else {}
    while pending:
        for k in list(pending):
            reason = lost_task_reason(array, k, states, opts)
            if reason is not None:
                finish(k, pt.RunResult(False, reason, None, None, 0.0))
        if not pending or time.monotonic() >= deadline:
            break
        time.sleep(1.0)
        for k in pending:
            try:
                os.listdir(dirs[k])  # revalidates an NFS client's cached directory entries
            except OSError:
                pass
        collect()
    for k in list(pending):
        job, index = array.task(k)
        finish(k, pt.RunResult(False, "SLURM task %s_%d ended without %s in %s (is it on a filesystem the compute "
                                      "nodes share? see %s)" % (job, index, STATUS_FILE, dirs[k], array.log(k)),
                               None, None, 0.0))
