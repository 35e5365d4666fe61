"""Helpers shared by scripts/sweep, scripts/mem-latency and scripts/link-study: find (or build)
parsys, run it into an output directory, read statistics from stats.json by dotted path, and run
many runs in parallel on this machine or as a SLURM job array (slurm_runs.py)."""

import concurrent.futures
import json
import os
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DEFAULT_PARSYS = os.path.join(ROOT, "build", "release", "platform", "parsys")


def find_parsys(explicit=None, build=True):
    """The parsys binary: `explicit`, else $PARSYS, else build/release/platform/parsys, which is
    built with scripts/build release when it does not exist (and `build` is true)."""
    path = explicit or os.environ.get("PARSYS") or DEFAULT_PARSYS
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    if explicit or os.environ.get("PARSYS") or not build:
        sys.exit("parsys binary not found: %s" % path)
    print("building parsys (scripts/build release) ...", file=sys.stderr)
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)
    subprocess.run([os.path.join(ROOT, "scripts", "build"), "release"], check=True, stdout=subprocess.DEVNULL)
    if not os.path.isfile(path):
        sys.exit("scripts/build release did not produce %s" % path)
    return path


class RunResult:
    """One parsys run: ok, error text (last lines of the output when it failed), stats and config
    (parsed stats.json / config.json, or None), wall seconds."""

    def __init__(self, ok, error, stats, config, wall_seconds):
        self.ok, self.error, self.stats, self.config, self.wall_seconds = ok, error, stats, config, wall_seconds


def parsys_command(parsys, program, args, out_dir):
    """The command line of one run: `parsys run PROGRAM ARGS -q --out OUT_DIR`."""
    return [parsys, "run", program] + list(args) + ["-q", "--out", out_dir]


def prepare_run_dir(out_dir, cmd):
    """Creates the run's directory and records its command in command.txt."""
    os.makedirs(out_dir, exist_ok=True)
    with open(os.path.join(out_dir, "command.txt"), "w", encoding="utf-8") as f:
        f.write(" ".join(cmd) + "\n")


def timed_out_text(timeout):
    return "timed out after %s s" % timeout


def run_parsys(parsys, program, args, out_dir, timeout=None):
    """`parsys run PROGRAM ARGS -q --out OUT_DIR`; never raises for a failed run."""
    cmd = parsys_command(parsys, program, args, out_dir)
    prepare_run_dir(out_dir, cmd)
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=timeout)
        output, status = p.stdout, p.returncode
    except subprocess.TimeoutExpired:
        output, status = timed_out_text(timeout), -1
    wall = time.monotonic() - start
    with open(os.path.join(out_dir, "output.txt"), "w", encoding="utf-8") as f:
        f.write(output)
    return run_result(out_dir, status, output, wall)


def run_result(out_dir, status, output, wall):
    """The RunResult of a finished run from its exit status and output; the statistics and the
    configuration come from OUT_DIR (stats.json, config.json)."""
    if status != 0:
        lines = [l.strip() for l in output.strip().splitlines() if l.strip()]
        msg = " | ".join(lines[-3:]) or "no output"
        return RunResult(False, "exit status %d: %s" % (status, msg), None, None, wall)
    try:
        stats = load_json(os.path.join(out_dir, "stats.json"))
        config = load_json(os.path.join(out_dir, "config.json"))
    except (OSError, ValueError) as e:
        return RunResult(False, "cannot read the run's output: %s" % e, None, None, wall)
    return RunResult(True, "", stats, config, wall)


def load_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class StatMissing(KeyError):
    pass


def stat(tree, path):
    """Value at dotted `path` of a stats.json (or config.json) tree. A path ending on a statistic
    gives its "value"; one more component selects another field of it (`dram.latency.max`,
    `l2.bank0.latency.count`). Raises StatMissing when the path does not exist."""
    node = tree
    parts = path.split(".")
    for part in parts:
        if not isinstance(node, dict) or part not in node:
            raise StatMissing(path)
        node = node[part]
    if isinstance(node, dict):
        if "value" not in node:
            raise StatMissing(path)
        return node["value"]
    return node


def stat_or(tree, path, default=None):
    try:
        return stat(tree, path)
    except StatMissing:
        return default


def run_parallel(jobs, fn, items, on_done=None):
    """fn(item) for every item, `jobs` at a time, results in item order. on_done(item, result) is
    called as each finishes (progress output)."""
    results = [None] * len(items)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(fn, item): k for k, item in enumerate(items)}
        for fut in concurrent.futures.as_completed(futures):
            k = futures[fut]
            results[k] = fut.result()
            if on_done:
                on_done(items[k], results[k])
    return results


def run_all(parsys, items, prepare, jobs, timeout=None, slurm=None, on_done=None):
    """One parsys run per item, results (RunResult) in item order. prepare(item) gives the run's
    (program, args, out_dir) and may write the program first. Runs `jobs` at a time on this
    machine, or with `slurm` (arguments parsed with slurm_runs.add_options, --slurm given) as one
    SLURM job array. on_done(item, result) is called as each run finishes."""
    if slurm is not None and slurm.slurm:
        import slurm_runs  # noqa: E402 (only with --slurm)
        return slurm_runs.run_array(parsys, items, [prepare(item) for item in items], slurm, timeout, on_done)

    def one(item):
        program, args, out_dir = prepare(item)
        return run_parsys(parsys, program, args, out_dir, timeout)

    return run_parallel(jobs, one, items, on_done)


def fmt_value(v):
    """CSV/table text of a value: integers without a fraction, reals with 10 significant digits
    (enough for cycle counts in the billions), None as empty."""
    if v is None:
        return ""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float):
        if v.is_integer() and abs(v) < 1e15:
            return str(int(v))
        return "%.10g" % v
    return str(v)
