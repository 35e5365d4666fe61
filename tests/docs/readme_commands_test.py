#!/usr/bin/env python3
"""Runs every shell command of the READMEs and docs as written, from the repository root.

Usage: readme_commands_test.py BUILD_DIR [MARKDOWN_FILE ...]

Commands are the lines of fenced blocks marked ```sh (or bash/shell) in README.md, docs/*.md and
every README.md below the root; a line ending in a backslash continues on the next. Lines that
only set a variable (P=build/release/platform/parsys) are kept for the commands after them in
the same file. A command whose comment contains the marker [long] (builds, the whole test suite,
studies of minutes, SLURM clusters) is skipped and listed. `build/release` in a command becomes
BUILD_DIR, so the commands use the binaries of the tree under test, and the parsys of BUILD_DIR is
first on PATH (for commands that call `parsys` as an installed program) and in $PARSYS (for the
scripts). Each command must exit with status 0 within its time limit.
"""
import glob
import os
import re
import subprocess
import sys
import time

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
LONG_MARKER = "[long]"
TIME_LIMIT_S = 120
FENCE = re.compile(r"^```(sh|bash|shell)\s*$")
ASSIGNMENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")


def markdown_files():
    files = [os.path.join(ROOT, "README.md")] + sorted(glob.glob(os.path.join(ROOT, "docs", "*.md")))
    for path in sorted(glob.glob(os.path.join(ROOT, "**", "README.md"), recursive=True)):
        rel = os.path.relpath(path, ROOT)
        if rel.split(os.sep)[0].startswith(("build", "out", ".")) or path in files:
            continue
        files.append(path)
    return files


def commands(path):
    """(line number, command text) of every command in the file's shell blocks."""
    result, in_block, pending, start = [], False, "", 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not in_block:
                in_block = bool(FENCE.match(line))
                continue
            if line.startswith("```"):
                in_block = False
                continue
            if not pending:
                start = number
            if line.endswith("\\"):
                pending += line[:-1] + " "
                continue
            text = (pending + line).strip()
            pending = ""
            if text and not text.startswith("#"):
                result.append((start, text))
    return result


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    build = os.path.abspath(sys.argv[1])
    files = [os.path.abspath(f) for f in sys.argv[2:]] or markdown_files()
    env = dict(os.environ)
    env["PATH"] = os.path.join(build, "platform") + os.pathsep + env.get("PATH", "")
    env["PARSYS"] = os.path.join(build, "platform", "parsys")
    failed, skipped, passed = [], [], 0
    for path in files:
        rel = os.path.relpath(path, ROOT)
        variables = []
        for number, text in commands(path):
            where = "%s:%d" % (rel, number)
            if LONG_MARKER in text:
                skipped.append(where)
                continue
            command = text.replace("build/release", os.path.relpath(build, ROOT))
            if ASSIGNMENT.match(command):
                variables.append(command)
                continue
            script = "set -e\n" + "\n".join(variables + [command]) + "\n"
            begin = time.time()
            try:
                run = subprocess.run(["bash", "-c", script], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                                     stderr=subprocess.STDOUT, timeout=TIME_LIMIT_S)
                status, output = run.returncode, run.stdout.decode("utf-8", "replace")
            except subprocess.TimeoutExpired as e:
                status, output = "timeout after %d s" % TIME_LIMIT_S, (e.stdout or b"").decode("utf-8", "replace")
            seconds = time.time() - begin
            if status == 0:
                passed += 1
                print("ok   %-28s %5.1f s  %s" % (where, seconds, text), flush=True)
            else:
                failed.append(where)
                print("FAIL %-28s %5.1f s  %s\n     status %s; last output:\n%s" %
                      (where, seconds, text, status, "\n".join("       " + l for l in output.splitlines()[-15:])),
                      flush=True)
    print("\n%d commands passed, %d failed, %d skipped as %s: %s" %
          (passed, len(failed), len(skipped), LONG_MARKER, ", ".join(skipped)))
    if failed:
        print("failed: " + ", ".join(failed))
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
