#!/usr/bin/env python3
"""scripts/sweep --slurm on a real single-node SLURM that scripts/slurm-local starts on this
machine (Debian's slurmctld, slurmd and munge, installed when missing): the grid's CSV is the
local run's, a task that fails before parsys runs still gives its row with SLURM's exit code, and
a rejected submission is one clear error. The daemons are stopped however the tests end.

Exit status 77 (ctest: skipped) only where SLURM cannot run: not root, or no Debian packages and
no apt-get; the reason is printed. Usage: sweep_slurm_test.py PARSYS_BINARY
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_test_support as sts  # noqa: E402

SLURM_LOCAL = os.path.join(sts.ROOT, "scripts", "slurm-local")
PARSYS = None
WORK = None   # temporary directory: the cluster's files in WORK/slurm, the sweeps' output beside them
ENV = None    # the environment with SLURM_CONF


class SingleNodeSlurm(unittest.TestCase):
    def sweep(self, name, args):
        out = os.path.join(WORK, name + ".csv")
        status, text = sts.run_script("sweep", ["--parsys", PARSYS, "-q", "--out", out] + args, env=ENV)
        return status, text, out

    def test_grid_gives_the_local_csv(self):
        grid = [sts.kernel("sva.par"), sts.kernel("pointer-chase.par"), "--config", sts.DEVICE_DRAM,
                "--grid", "core.threads_per_lane=1,4", "--grid", "l2.ways=8,0"]
        start = time.monotonic()
        status, text, out = self.sweep("slurm", grid + ["--slurm"])
        print("\n8 runs through SLURM: %.1f s" % (time.monotonic() - start), file=sys.stderr)
        self.assertEqual(status, 1, text)  # l2.ways=0 is rejected by parsys
        self.assertIn("8 runs, 4 failed", text)
        job = re.search(r"submitted as SLURM job (\d+) ", text)
        self.assertIsNotNone(job, text)
        rows = sts.read_csv(out)
        self.assertEqual([r["status"] for r in rows], ["ok", "error"] * 4)
        for k, r in enumerate(rows):
            if r["status"] == "ok":
                self.assertGreater(int(r["core0.cycles"]), 0)
            else:
                self.assertEqual(r["error"], "exit status 2: parsys: --l2.ways: '0' is out of range [1, 64]")
            # It ran as SLURM task k: its log is there and the task wrote its exit status.
            self.assertTrue(os.path.isfile(os.path.join(WORK, "slurm.runs", "slurm", "%s_%d.out" % (job.group(1), k))))
            with open(os.path.join(r["run_dir"], "exit_status.txt")) as f:
                self.assertEqual(f.read().split()[0], "0" if r["status"] == "ok" else "2")
        status, text, local = self.sweep("local", grid)
        self.assertEqual(status, 1, text)
        self.assertEqual(sts.without_host_columns(rows), sts.without_host_columns(sts.read_csv(local)))

    def test_task_that_fails_before_parsys_gives_its_row(self):
        status, text, out = self.sweep("fail", [sts.kernel("sva.par"), "--grid", "core.lanes=1,2", "--slurm",
                                                "--slurm-setup", "exit 5"])
        self.assertEqual(status, 1, text)
        job = re.search(r"submitted as SLURM job (\d+) ", text).group(1)
        rows = sts.read_csv(out)
        self.assertEqual(len(rows), 2)
        for k, r in enumerate(rows):
            self.assertEqual(r["status"], "error")
            self.assertEqual(r["error"], "SLURM task %s_%d failed (exit code 5:0): empty log %s/fail.runs/slurm/%s_%d.out"
                             % (job, k, WORK, job, k))

    def test_rejected_submission_is_one_clear_error(self):
        status, text, out = self.sweep("reject", [sts.kernel("sva.par"), "--slurm", "--slurm-partition", "nosuch"])
        self.assertEqual(status, 1, text)
        self.assertEqual(text.strip().splitlines()[-1],
                         "sweep: sbatch failed (exit status 1): sbatch: error: invalid partition specified: nosuch | "
                         "sbatch: error: Batch job submission failed: Invalid partition name specified")
        self.assertFalse(os.path.exists(out))


def run_tests(started, start):
    """The tests on the cluster that `scripts/slurm-local start` (its result: started) set up."""
    global ENV
    if started.returncode != 0:
        print("scripts/slurm-local start failed (exit status %d)" % started.returncode, file=sys.stderr)
        return False
    conf = re.fullmatch(r"export SLURM_CONF=(\S+)\n", started.stdout)
    if conf is None:
        print("scripts/slurm-local start printed %r" % started.stdout, file=sys.stderr)
        return False
    print("SLURM started in %.1f s" % (time.monotonic() - start), file=sys.stderr)
    ENV = dict(os.environ, SLURM_CONF=conf.group(1))
    return unittest.main(exit=False).result.wasSuccessful()


def main():
    global PARSYS, WORK
    PARSYS = sts.parsys_from_argv()
    WORK = tempfile.mkdtemp(prefix="parsys_slurm_")
    os.chmod(WORK, 0o755)  # munged: every directory above its socket searchable by all
    cluster = ["--dir", os.path.join(WORK, "slurm")]
    start = time.monotonic()
    started = subprocess.run([SLURM_LOCAL, "start"] + cluster, stdout=subprocess.PIPE, text=True)
    if started.returncode == 77:
        print("SKIPPED: scripts/slurm-local cannot start SLURM on this machine (reason above)", file=sys.stderr)
        shutil.rmtree(WORK, True)
        return 77
    # From here on the daemons may be running: stop them however the tests end.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("sweep_slurm_test: terminated"))
    ok = False
    try:
        ok = run_tests(started, start)
    finally:
        subprocess.run([SLURM_LOCAL, "stop"] + cluster)
        if subprocess.run([SLURM_LOCAL, "status"] + cluster, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            print("sweep_slurm_test: the daemons still run after scripts/slurm-local stop", file=sys.stderr)
            ok = False
        if not ok:
            print("sweep_slurm_test: the cluster's logs and the sweeps' output are in %s" % WORK, file=sys.stderr)
    if not ok:
        return 1
    shutil.rmtree(WORK, True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
