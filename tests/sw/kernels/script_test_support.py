"""Shared by the Python tests of scripts/sweep --slurm: running a script of scripts/ and reading
and comparing the CSVs it writes. The parsys binary is the tests' first argument."""
import csv
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
DEVICE_DRAM = os.path.join(ROOT, "platform", "configs", "device-dram.ini")
# Columns that differ between two runs of the same point: host time and where the run went.
HOST_COLUMNS = ("wall_seconds", "run_dir", "run.host_seconds", "host_seconds")


def parsys_from_argv():
    """The parsys binary, taken off sys.argv (unittest parses the rest)."""
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit("usage: %s PARSYS_BINARY [unittest arguments]" % sys.argv[0])
    return sys.argv.pop(1)


def kernel(name):
    return os.path.join(ROOT, "sw", "kernels", name)


def run_script(name, args, env=None, cwd=None):
    """scripts/NAME ARGS with this interpreter; (exit status, stdout + stderr)."""
    p = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", name)] + list(args), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, env=env, cwd=cwd)
    return p.returncode, p.stdout


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.DictReader(f))


def without_host_columns(rows):
    return [{k: v for k, v in row.items() if k not in HOST_COLUMNS} for row in rows]
