"""Helpers shared by scripts/sweep, scripts/mem-latency and scripts/link-study: find (or build)
parsys, run it into an output directory, read statistics and their units from stats.json by dotted
path, and run many runs in parallel on this machine or as a SLURM job array (slurm_runs.py); write
a CSV with its units sidecar (for scripts/plot) and name a study's default output directory."""

import concurrent.futures
import csv
import hashlib
import json
import os
import re
import subprocess
import sys
import time

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(SCRIPTS, ".."))
# The scripts run from the source tree (ROOT = the checkout: platform/configs, sw/kernels, the binary
# in build/release/platform) or from an install tree (`cmake --install`, cmake/ParsysPackage.cmake:
# ROOT = <prefix>/share/parsys with configs/ and kernels/, the binary in <prefix>/bin).
INSTALLED = os.path.isdir(os.path.join(ROOT, "kernels")) and not os.path.isdir(os.path.join(ROOT, "sw"))
CONFIGS = os.path.join(ROOT, "configs") if INSTALLED else os.path.join(ROOT, "platform", "configs")
KERNELS = os.path.join(ROOT, "kernels") if INSTALLED else os.path.join(ROOT, "sw", "kernels")
DEFAULT_PARSYS = (os.path.normpath(os.path.join(ROOT, "..", "..", "bin", "parsys")) if INSTALLED
                  else os.path.join(ROOT, "build", "release", "platform", "parsys"))
PARSYS_HELP = ("parsys binary (default $PARSYS, else <prefix>/bin/parsys from an install tree, else "
               "build/release/platform/parsys, built if missing)")


def find_parsys(explicit=None, build=True):
    """The parsys binary: `explicit`, else $PARSYS, else the tree's own: <prefix>/bin/parsys in an
    install tree, build/release/platform/parsys in the source tree, which is built with
    scripts/build release --target parsys (not the tests) when it does not exist (and `build` is
    true)."""
    path = explicit or os.environ.get("PARSYS") or DEFAULT_PARSYS
    if os.path.isfile(path) and os.access(path, os.X_OK):
        return path
    if explicit or os.environ.get("PARSYS") or not build or INSTALLED:
        sys.exit("parsys binary not found: %s" % path)
    print("building parsys (scripts/build release --target parsys) ...", file=sys.stderr)
    subprocess.run([os.path.join(ROOT, "scripts", "setup")], check=True)
    subprocess.run([os.path.join(ROOT, "scripts", "build"), "release", "--target", "parsys"], check=True,
                   stdout=subprocess.DEVNULL)
    if not os.path.isfile(path):
        sys.exit("scripts/build release --target parsys did not produce %s" % path)
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


# Fields of a distribution that count samples rather than measure the statistic.
SAMPLE_FIELDS = ("count", "underflow", "overflow")


def stat_unit(tree, path):
    """The unit of the statistic at dotted `path` of a stats.json tree ("cycles", "ns", ...): its
    own "unit", or "samples" for a distribution's count; None when the path does not exist."""
    node, parts = tree, path.split(".")
    for k, part in enumerate(parts):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
        if isinstance(node, dict) and "kind" in node:  # a statistic; at most one field may follow
            rest = parts[k + 1:]
            if not rest:
                return node.get("unit")
            if len(rest) == 1 and rest[0] in node:
                return "samples" if rest[0] in SAMPLE_FIELDS else node.get("unit")
            return None
    return None


# Units of options: a name ending (ht.width_bits) or the help text ("latency in cycles").
OPTION_UNIT_SUFFIXES = (("_bytes_per_ns", "bytes/ns"), ("_ns", "ns"), ("_us", "us"), ("_mhz", "MHz"), ("_ghz", "GHz"), ("_bytes", "bytes"),
                        ("_bits", "bits"), ("_cycles", "cycles"))
OPTION_HELP_UNIT = re.compile(r"\b(?:in|In) (cycles|ns|MHz|GHz|bytes|bits|beats|instructions)\b|"
                              r"\b(Clock cycles)\b|^(Cycles) |, (ns|cycles)\.")


def option_help(parsys):
    """{option name: help text} from `parsys --help` ({} if it fails)."""
    try:
        text = subprocess.run([parsys, "--help"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                              timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return {}
    helps, name = {}, None
    for line in text.splitlines():
        # "  --l2.banks <uint>   help", "  --l2.xor_hash[=<bool>]  help", "  --max-host-seconds arg help",
        # "  -q [ --quiet ]  help"
        m = re.match(r"\s+(?:-\w(?:, | \[ ))?--([\w.-]+)(?:\[=<[^>]*>\])?(?: \])?(?: (?:arg|<[^>]*>))?(?:\s+(.*))?$",
                     line)
        if m:
            name = m.group(1)
            helps[name] = m.group(2) or ""
        elif name and line.startswith("  ") and line.strip():
            helps[name] += " " + line.strip()
        else:
            name = None
    return helps


def option_column(name, help_text=""):
    """The units-sidecar entry of an option column: its unit (from the name's ending, else from
    the help text) and, when the name carries the unit, a label without it (ht.width_bits ->
    label "ht width", unit "bits")."""
    for suffix, unit in OPTION_UNIT_SUFFIXES:
        if name.lower().endswith(suffix):
            return {"unit": unit, "label": name[:-len(suffix)].replace("_", " ").replace(".", " ")}
    m = OPTION_HELP_UNIT.search(help_text or "")
    if m:
        unit = next(g for g in m.groups() if g)
        return {"unit": unit.lower() if unit in ("Clock cycles", "Cycles") else unit}
    return {}


def units_path(csv_path):
    """The units sidecar of a CSV: out/x.csv -> out/x.units.json (read by scripts/plot)."""
    return os.path.splitext(csv_path)[0] + ".units.json"


def read_units(csv_path):
    """{column: {"unit", "label"}} of a CSV's sidecar; {} without one."""
    try:
        return load_json(units_path(csv_path))["columns"]
    except (OSError, ValueError, KeyError):
        return {}


def write_csv(path, header, rows, units):
    """The CSV (rows: dicts by column, or lists in header order) and its units sidecar, which
    keeps the non-empty `units` entries of the header's columns."""
    with open(path, "w", newline="", encoding="utf-8") as f:
        if rows and isinstance(rows[0], dict):
            w = csv.DictWriter(f, fieldnames=header, lineterminator="\n")
            w.writeheader()
        else:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(header)
        w.writerows(rows)
    columns = {c: units[c] for c in header if units.get(c)}
    with open(units_path(path), "w", encoding="utf-8") as f:
        json.dump({"columns": columns}, f, indent=1, sort_keys=True)
        f.write("\n")


def option_words(args):
    """parsys arguments as NAME=VALUE words: ['--l2.banks', '4', '--x=y', '--flag'] ->
    ['l2.banks=4', 'x=y', 'flag']; --config files by their name without folder and .ini."""
    words, k = [], 0
    while k < len(args):
        name, eq, value = args[k].lstrip("-").partition("=")
        if args[k].startswith("--") and not eq and k + 1 < len(args) and not args[k + 1].startswith("--"):
            eq, value = "=", args[k + 1]
            k += 1
        if name == "config":
            value = config_name(value)
        words.append(name + eq + value)
        k += 1
    return words


def config_name(path):
    """platform/configs/device-dram.ini -> device-dram."""
    return os.path.splitext(os.path.basename(path))[0]


MAX_DIR_NAME = 100


def study_dir(study, words):
    """The default output directory of a study: out/STUDY/NAME (relative to the current
    directory), NAME being the words that set this study apart, joined with ',' (e.g.
    out/mem-latency/device-dram,dram.preset=ddr4-2400), so two different studies never write to
    the same place. Characters other than letters, digits and _.=+,- become _; a name longer than
    MAX_DIR_NAME is cut and ends with a hash of the whole."""
    name = re.sub(r"[^A-Za-z0-9_.=+,-]", "_", ",".join(w for w in words if w)) or "default"
    if len(name) > MAX_DIR_NAME:
        name = name[:MAX_DIR_NAME - 9] + "-" + hashlib.sha1(name.encode()).hexdigest()[:8]
    return os.path.join("out", study, name)


def require_plot(study, no_plot):
    """Before any run: stops with scripts/plot's message when the chart cannot be drawn (matplotlib
    missing) and `no_plot` is false, so a long study does not end without its chart."""
    if no_plot:
        return
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "plot"), "--check"], stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        sys.exit("%s: %s (or give --no-plot for the CSV only)" % (study, p.stdout.strip()))


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
