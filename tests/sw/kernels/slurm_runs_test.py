#!/usr/bin/env python3
"""scripts/sweep --slurm (scripts/slurm_runs.py) against stand-ins for SLURM's commands
(fake_slurm.py): the sbatch arguments of every option, grids split at MaxArraySize, tasks killed
at the time limit or whose result never arrives, failed submissions, missing sbatch, and the
--slurm options of mem-latency and link-study. The fake sbatch runs the generated batch script
itself, so the CSVs are compared with local runs. Usage: slurm_runs_test.py PARSYS_BINARY
"""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_test_support as sts  # noqa: E402

PARSYS = None
FAKE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fake_slurm.py")


class FakeSlurm(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="parsys_fake_slurm_")
        self.addCleanup(shutil.rmtree, self.dir, True)
        self.bin = os.path.join(self.dir, "bin")
        self.state = os.path.join(self.dir, "state")
        os.makedirs(self.bin)
        os.makedirs(self.state)
        for command in ("sbatch", "squeue", "scontrol", "scancel"):
            path = os.path.join(self.bin, command)
            with open(path, "w") as f:
                f.write("#!/bin/sh\nexec '%s' '%s' %s \"$@\"\n" % (sys.executable, FAKE, command))
            os.chmod(path, 0o755)
        self.env = {k: v for k, v in os.environ.items() if not k.startswith(("FAKE_SLURM", "PARSYS_SLURM"))}
        self.env.update(PATH=self.bin + os.pathsep + os.environ.get("PATH", ""), FAKE_SLURM_DIR=self.state)

    def sweep(self, name, args, **env):
        out = os.path.join(self.dir, name + ".csv")
        status, text = sts.run_script("sweep", ["--parsys", PARSYS, "-q", "--out", out] + args,
                                      env=dict(self.env, **env))
        return status, text, out

    def sbatch_calls(self):
        with open(os.path.join(self.state, "calls")) as f:
            return [c[1:] for c in map(json.loads, f) if c[0] == "sbatch"]

    def assert_same_as_local(self, name, args, slurm_rows):
        status, text, out = self.sweep(name + "-local", args)
        local = sts.read_csv(out)
        self.assertEqual(sts.without_host_columns(slurm_rows), sts.without_host_columns(local))
        return local

    def test_options_reach_sbatch_and_the_csv_is_the_local_one(self):
        grid = [sts.kernel("sva.par"), sts.kernel("pointer-chase.par"), "--grid", "core.threads_per_lane=1,4",
                "--config", sts.DEVICE_DRAM]
        status, text, out = self.sweep("s", grid + [
            "--slurm", "--slurm-partition", "short", "--slurm-time", "5", "--slurm-account", "proj7",
            "--slurm-throttle", "2", "--slurm-extra=--mem=1G --qos=low", "--slurm-setup", "export PARSYS_SETUP_RAN=1"])
        self.assertEqual(status, 0, text)
        self.assertIn("sweep: 4 runs submitted as SLURM job 100 (%s/s.runs/slurm/array.sh); waiting" % self.dir, text)
        calls = self.sbatch_calls()
        self.assertEqual(len(calls), 1)
        runs = os.path.join(self.dir, "s.runs")
        self.assertEqual(calls[0], ["--parsable", "--job-name", "parsys-sweep",
                                    "--output", os.path.join(runs, "slurm", "%A_%a.out"), "--ntasks", "1",
                                    "--cpus-per-task", "1", "--chdir", os.getcwd(), "--partition", "short",
                                    "--time", "5", "--account", "proj7", "--mem=1G", "--qos=low",
                                    "--array", "0-3%2", os.path.join(runs, "slurm", "array.sh"), "0"])
        with open(os.path.join(runs, "slurm", "array.sh")) as f:
            self.assertIn("\nexport PARSYS_SETUP_RAN=1\n", f.read())
        rows = sts.read_csv(out)
        self.assertEqual([r["status"] for r in rows], ["ok"] * 4)
        for r in rows:
            with open(os.path.join(r["run_dir"], "exit_status.txt")) as f:
                code, micros = f.read().split()
            self.assertEqual(code, "0")
            self.assertAlmostEqual(float(r["wall_seconds"]), int(micros) / 1e6, delta=0.0006)
        self.assert_same_as_local("s", grid, rows)

    def test_grid_larger_than_max_array_size_is_split_and_the_throttle_chains_the_arrays(self):
        grid = [sts.kernel("sva.par"), "--grid", "core.lanes=1,2,4,8,16"]
        status, text, out = self.sweep("c", grid + ["--slurm", "--slurm-throttle", "1"], FAKE_SLURM_MAX_ARRAY="3")
        self.assertEqual(status, 0, text)
        self.assertIn("5 runs submitted as SLURM job 100,101 ", text)
        calls = self.sbatch_calls()
        self.assertEqual(len(calls), 2)
        script = os.path.join(self.dir, "c.runs", "slurm", "array.sh")
        self.assertEqual(calls[0][-4:], ["--array", "0-2%1", script, "0"])
        self.assertEqual(calls[1][-6:], ["--dependency", "afterany:100", "--array", "0-1%1", script, "3"])
        rows = sts.read_csv(out)
        self.assertEqual([r["core.lanes"] for r in rows], ["1", "2", "4", "8", "16"])
        for r in rows:
            with open(os.path.join(r["run_dir"], "config.ini")) as f:
                self.assertRegex(f.read(), r"\nlanes = %s +; command line\n" % r["core.lanes"])
        self.assert_same_as_local("c", grid, rows)

    def test_killed_and_lost_tasks_still_give_their_rows(self):
        grid = [sts.kernel("sva.par"), "--grid", "core.lanes=1,2,4,8"]
        status, text, out = self.sweep("k", grid + ["--slurm", "--slurm-time", "7"], FAKE_SLURM_TIMEOUT="1",
                                       FAKE_SLURM_LOSE="2", PARSYS_SLURM_SETTLE_SECONDS="0.5")
        self.assertEqual(status, 1, text)
        self.assertIn("4 runs, 2 failed", text)
        rows = sts.read_csv(out)
        self.assertEqual([r["status"] for r in rows], ["ok", "error", "error", "ok"])
        self.assertEqual(rows[1]["error"], "SLURM task 100_1 reached its time limit (--slurm-time 7): slurmstepd: error: "
                                           "*** JOB 100 ON fake CANCELLED AT 2030-01-01T00:00:00 DUE TO TIME LIMIT ***")
        slurm_dir = os.path.join(self.dir, "k.runs", "slurm")
        self.assertEqual(rows[2]["error"], "SLURM task 100_2 ended without exit_status.txt in %s (is it on a filesystem "
                                           "the compute nodes share? see %s/100_2.out)" % (rows[2]["run_dir"], slurm_dir))
        self.assertEqual(rows[1]["core0.cycles"], "")
        local = self.sweep("k-local", grid)[2]
        self.assertEqual(sts.without_host_columns([rows[0], rows[3]]),
                         sts.without_host_columns([sts.read_csv(local)[k] for k in (0, 3)]))

    def test_failed_submission_is_one_clear_error(self):
        status, text, out = self.sweep("f", [sts.kernel("sva.par"), "--grid", "core.lanes=1,2", "--slurm"],
                                       FAKE_SLURM_SBATCH_ERROR="sbatch: error: Batch job submission failed: "
                                                               "Invalid account or account/partition combination")
        self.assertEqual(status, 1, text)
        self.assertEqual(text.strip().splitlines()[-1], "sweep: sbatch failed (exit status 1): sbatch: error: Batch job "
                                                        "submission failed: Invalid account or account/partition combination")
        self.assertFalse(os.path.exists(out))

    def test_missing_sbatch(self):
        env = dict(self.env, PATH=self.state)  # no SLURM command at all
        for script, args in (("sweep", [sts.kernel("sva.par")]), ("mem-latency", []), ("link-study", [])):
            status, text = sts.run_script(script, args + ["--parsys", PARSYS, "--slurm"], env=env, cwd=self.dir)
            self.assertEqual(status, 1, text)
            self.assertEqual(text.strip(), "%s: --slurm: sbatch not found in PATH (SLURM's client commands; Debian "
                                           "package slurm-client)" % script)

    def test_slurm_options_need_slurm(self):
        status, text, out = self.sweep("u", [sts.kernel("sva.par"), "--slurm-time", "5"])
        self.assertEqual(status, 2, text)
        self.assertEqual(text.strip().splitlines()[-1], "sweep: error: --slurm-time needs --slurm")
        status, text, out = self.sweep("u", [sts.kernel("sva.par"), "--slurm", "--slurm-throttle", "0"])
        self.assertEqual(status, 2, text)
        self.assertEqual(text.strip().splitlines()[-1], "sweep: error: --slurm-throttle must be at least 1")

    def study_on_slurm_and_here(self, script, args, slurm_args, csv_name):
        """Runs a study with --slurm SLURM_ARGS and without; (its one sbatch call, the two CSVs' rows)."""
        rows = []
        for out, extra in (("slurm", ["--slurm"] + slurm_args), ("here", [])):
            status, text = sts.run_script(script, ["--parsys", PARSYS] + args + extra +
                                          ["--out-dir", os.path.join(self.dir, out)], env=self.env)
            self.assertEqual(status, 0, text)
            rows.append(sts.read_csv(os.path.join(self.dir, out, csv_name)))
        calls = self.sbatch_calls()
        self.assertEqual(len(calls), 1)
        return " ".join(calls[0]), rows[0], rows[1]

    def test_link_study_passes_its_slurm_options_to_sweep(self):
        call, slurm, here = self.study_on_slurm_and_here(
            "link-study", ["--kernels", "sva", "--widths", "8", "--threads", "1,2", "--no-plot"],
            ["--slurm-partition", "p2", "--slurm-extra=--mem=1G"], "link-study.csv")
        self.assertIn("--partition p2 --mem=1G --array 0-1 ", call)
        self.assertEqual([r["status"] for r in slurm], ["ok", "ok"])
        self.assertEqual(sts.without_host_columns(slurm), sts.without_host_columns(here))

    def test_mem_latency_runs_its_grid_as_one_array(self):
        call, slurm, here = self.study_on_slurm_and_here(
            "mem-latency", ["--sizes", "8K", "--strides", "random", "--steps", "2048", "--no-plot"], [],
            "mem-latency.csv")
        self.assertIn("--array 0-1 ", call)
        self.assertEqual([r["status"] for r in slurm], ["ok"])
        self.assertEqual(sts.without_host_columns(slurm), sts.without_host_columns(here))

if __name__ == "__main__":
    PARSYS = sts.parsys_from_argv()
    unittest.main()
