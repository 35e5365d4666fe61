#!/usr/bin/env python3
"""Runs scripts/validate (the arguments) on a configuration that misses a reference: it must exit
with status 1, print the row as FAIL and write it to validate.csv."""
import csv
import os
import subprocess
import sys

args = sys.argv[1:]
p = subprocess.run([sys.executable] + args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
out_dir = args[args.index("--out-dir") + 1]
errors = []
if p.returncode != 1:
    errors.append("exit status %d, expected 1" % p.returncode)
if "| FAIL |" not in p.stdout:
    errors.append("no FAIL row in the Markdown table")
with open(os.path.join(out_dir, "validate.csv"), newline="", encoding="utf-8") as f:
    results = [r["result"] for r in csv.DictReader(f)]
if "FAIL" not in results:
    errors.append("no FAIL row in validate.csv: %s" % results)
if errors:
    print(p.stdout)
    sys.exit("validate_miss_test: " + "; ".join(errors))
print("validate exits with status 1 on a miss")
