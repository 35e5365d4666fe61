#!/usr/bin/env python3
"""scripts/plot and the studies' charts: axis labels with the statistics' units (the CSVs' units
sidecars), the format chosen by the output name (SVG text, PDF and PNG magic bytes, PNG dpi), the
label and title options, one panel with a right-hand ns axis for mem-latency, the message when
matplotlib is missing (hidden by a fake package first on PYTHONPATH; nothing is installed), and
the default output folders of the example commands in the READMEs (--dry-run).
Usage: plot_test.py PARSYS_BINARY [unittest arguments, e.g. a class name]
"""
import json
import os
import re
import shlex
import shutil
import struct
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ET

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_test_support as sts  # noqa: E402

PARSYS = None
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
SVG_NS = "{http://www.w3.org/2000/svg}"


def svg_texts(path):
    """The text elements of an SVG written with text kept as text (svg.fonttype none)."""
    return ["".join(t.itertext()) for t in ET.parse(path).getroot().iter(SVG_NS + "text")]


def y_ticks(path):
    """The numeric tick labels of an SVG's y axes as (value, y position): the left axis' (text
    anchored at its end) and the right axis' (anchored at its start)."""
    left, right = [], []
    for t in ET.parse(path).getroot().iter(SVG_NS + "text"):
        text = "".join(t.itertext())
        if re.fullmatch(r"-?\d+(\.\d+)?", text):
            side = left if "text-anchor: end" in t.get("style", "") else right if "text-anchor: start" in t.get(
                "style", "") else None
            if side is not None:
                side.append((float(text), float(t.get("y"))))
    return left, right


def png_size_and_dpi(path):
    """(width, height) in pixels and dots per inch from the IHDR and pHYs chunks."""
    with open(path, "rb") as f:
        data = f.read()
    assert data.startswith(PNG_MAGIC), data[:8]
    width, height = struct.unpack(">II", data[16:24])
    at = data.find(b"pHYs")
    ppm = struct.unpack(">I", data[at + 4:at + 8])[0] if at > 0 else 0
    return (width, height), round(ppm * 0.0254)


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="parsys_plot_")
        self.addCleanup(shutil.rmtree, self.dir, True)

    def path(self, name):
        return os.path.join(self.dir, name)

    def plot(self, args, env=None):
        return sts.run_script("plot", args, env=env)

    def write_latency_csv(self):
        """A small CSV in mem-latency's form with its units sidecar."""
        csv_path = self.path("lat.csv")
        with open(csv_path, "w") as f:
            f.write("bytes,stride,cycles_per_load,ns_per_load,dram_latency_ns\n"
                    "4096,unit,12.000,15.000,50.1\n1048576,unit,16.250,20.313,50.2\n"
                    "4096,random,12.000,15.000,60.3\n1048576,random,75.190,93.988,60.4\n")
        with open(self.path("lat.units.json"), "w") as f:
            json.dump({"columns": {"bytes": {"unit": "bytes", "label": "working set"},
                                   "cycles_per_load": {"unit": "cycles", "label": "load-to-use latency"},
                                   "ns_per_load": {"unit": "ns", "label": "load-to-use latency"},
                                   "dram_latency_ns": {"unit": "ns", "label": "mean memory read latency"}}}, f)
        return csv_path


class Labels(TempDirTest):
    """A real sweep: its units sidecar carries the units of stats.json and of the grid options,
    and the SVG's axis labels show them."""

    def test_sweep_units_reach_the_axis_labels(self):
        csv_path = self.path("s.csv")
        status, text = sts.run_script("sweep", [sts.kernel("sva.par"), "--parsys", PARSYS, "--config", sts.DEVICE_DRAM,
                                                "--grid", "l2.hit_latency=10,20", "--grid", "l2.bank_bytes=65536",
                                                "-q", "--out", csv_path])
        self.assertEqual(status, 0, text)
        with open(self.path("s.units.json")) as f:
            units = json.load(f)["columns"]
        self.assertEqual(units["core0.cycles"], {"unit": "cycles"})
        self.assertEqual(units["dram.avg_latency"], {"unit": "ns"})
        self.assertEqual(units["l2.hit_latency"], {"unit": "cycles"})           # from parsys --help
        self.assertEqual(units["l2.bank_bytes"], {"unit": "bytes", "label": "l2 bank"})  # from the name
        self.assertEqual(units["wall_seconds"], {"unit": "s"})
        self.assertNotIn("status", units)
        svg = self.path("s.svg")
        status, text = self.plot([csv_path, "--x", "l2.hit_latency", "--y", "core0.cycles", "--y", "dram.avg_latency",
                                  "--series", "l2.bank_bytes", "--out", svg])
        self.assertEqual(status, 0, text)
        texts = svg_texts(svg)
        for label in ("core0 cycles [cycles]", "dram avg latency [ns]", "l2 hit latency [cycles]", "l2 bank [bytes]"):
            self.assertIn(label, texts)
        self.assertEqual(texts.count("l2 hit latency [cycles]"), 2)  # one x label per panel

    def test_options_replace_the_labels_and_a_ratio_has_no_bracket(self):
        csv_path = self.path("r.csv")
        with open(csv_path, "w") as f:
            f.write("core.threads_per_lane,l2.hit_rate,core0.ipc\n1,0.5,0.9\n2,0.75,1.7\n")
        with open(self.path("r.units.json"), "w") as f:
            json.dump({"columns": {"l2.hit_rate": {"unit": "ratio"}, "core0.ipc": {"unit": "ratio"}}}, f)
        svg = self.path("r.svg")
        status, text = self.plot([csv_path, "--x", "core.threads_per_lane", "--y", "l2.hit_rate", "--y", "core0.ipc",
                                  "--title", "Hit rate and IPC", "--xlabel", "threads T", "--ylabel", "hits",
                                  "--ylabel", "IPC [thread-instructions/cycle]", "--out", svg])
        self.assertEqual(status, 0, text)
        texts = svg_texts(svg)
        for label in ("Hit rate and IPC", "threads T", "hits", "IPC [thread-instructions/cycle]"):
            self.assertIn(label, texts)
        self.assertNotIn("core threads per lane", texts)
        status, text = self.plot([csv_path, "--x", "core.threads_per_lane", "--logx", "--y", "l2.hit_rate",
                                  "--out", svg])
        self.assertEqual(status, 0, text)
        texts = svg_texts(svg)
        self.assertIn("l2 hit rate", texts)  # a fraction 0..1: no "[ratio]"
        self.assertIn("core threads per lane", texts)  # no sidecar entry: the name alone
        self.assertEqual([t for t in texts if t in ("1", "2")], ["1", "2"])  # log2 ticks as numbers, not 2^k
        status, text = self.plot([csv_path, "--x", "core.threads_per_lane", "--y", "l2.hit_rate", "--y", "core0.ipc",
                                  "--ylabel", "a", "--ylabel", "b", "--ylabel", "c", "--out", svg])
        self.assertEqual(status, 2)
        self.assertIn("plot: error: --ylabel given 3 times: give it once (every panel) or once per --y (2)", text)


class Formats(TempDirTest):
    def test_the_extension_chooses_the_format(self):
        csv_path = self.write_latency_csv()
        base = [csv_path, "--x", "bytes", "--y", "cycles_per_load", "--series", "stride"]
        status, text = self.plot(base + ["--out", self.path("f.pdf")])
        self.assertEqual(status, 0, text)
        with open(self.path("f.pdf"), "rb") as f:
            self.assertEqual(f.read(5), b"%PDF-")
        status, text = self.plot(base + ["--out", self.path("f.svg")])
        self.assertEqual(status, 0, text)
        self.assertEqual(ET.parse(self.path("f.svg")).getroot().tag, SVG_NS + "svg")
        # PNG: 300 dpi by default, --dpi otherwise; 8 x 3.6 inches for one panel, or --size.
        status, text = self.plot(base + ["--out", self.path("f.png")])
        self.assertEqual(status, 0, text)
        self.assertEqual(png_size_and_dpi(self.path("f.png")), ((2400, 1080), 300))
        status, text = self.plot(base + ["--out", self.path("g.PNG"), "--dpi", "100", "--size", "3.5,2.5"])
        self.assertEqual(status, 0, text)
        self.assertEqual(png_size_and_dpi(self.path("g.PNG")), ((350, 250), 100))
        # The default output is the CSV's name with .png.
        status, text = self.plot(base)
        self.assertEqual(status, 0, text)
        self.assertTrue(os.path.isfile(self.path("lat.png")))

    def test_bad_output_names_and_options_are_usage_errors(self):
        csv_path = self.write_latency_csv()
        base = [csv_path, "--x", "bytes", "--y", "cycles_per_load"]
        status, text = self.plot(base + ["--out", self.path("f.jpg")])
        self.assertEqual(status, 2)
        self.assertIn("plot: error: --out %s: the format is chosen by the extension: .svg, .pdf or .png"
                      % self.path("f.jpg"), text)
        status, text = self.plot(base + ["--dpi", "5"])
        self.assertEqual(status, 2)
        self.assertIn("plot: error: argument --dpi: expected dots per inch in 10..2400, got '5'", text)
        status, text = self.plot(base + ["--out", "/dev/full/x.svg"])
        self.assertEqual(status, 1)
        self.assertTrue(text.startswith("plot: cannot write /dev/full/x.svg: "), text)
        self.assertEqual(sorted(os.listdir(self.dir)), ["lat.csv", "lat.units.json"])

    def test_a_proportional_column_is_a_second_axis_not_a_second_panel(self):
        csv_path = self.write_latency_csv()
        svg = self.path("t.svg")
        status, text = self.plot([csv_path, "--x", "bytes", "--xfmt", "bytes", "--logx", "--y", "cycles_per_load",
                                  "--y2", "ns_per_load", "--series", "stride", "--out", svg])
        self.assertEqual(status, 0, text)
        texts = svg_texts(svg)
        self.assertEqual(texts.count("working set"), 1)  # one panel; bytes ticks: no "[bytes]"
        self.assertIn("load-to-use latency [cycles]", texts)
        self.assertIn("load-to-use latency [ns]", texts)
        self.assertIn("512 KiB", texts)
        # The right-hand axis is the left one times 1.25 (800 MHz): its tick 80 stands where the
        # left axis reads 64. A column that is not proportional is refused.
        left, right = y_ticks(svg)
        self.assertGreaterEqual(len(left), 3)
        self.assertGreaterEqual(len(right), 3)
        (v0, y0), (v1, y1) = left[0], left[-1]
        for w, y in right:
            self.assertAlmostEqual(y, y0 + (y1 - y0) * (w / 1.25 - v0) / (v1 - v0), delta=0.5)
        status, text = self.plot([csv_path, "--x", "bytes", "--y", "cycles_per_load", "--y2", "dram_latency_ns",
                                  "--out", svg])
        self.assertEqual(status, 1)
        self.assertIn("plot: --y2 dram_latency_ns is not proportional to any --y column (cycles_per_load)", text)


class MissingMatplotlib(TempDirTest):
    """matplotlib hidden from every interpreter by a package of that name that fails to import;
    apt-get and sudo replaced by commands that record a call."""

    def hidden_env(self):
        fake = self.path("fake")
        os.makedirs(os.path.join(fake, "matplotlib"))
        with open(os.path.join(fake, "matplotlib", "__init__.py"), "w") as f:
            f.write("raise ImportError('hidden by plot_test.py')\n")
        bin_dir = self.path("bin")
        os.makedirs(bin_dir)
        for command in ("apt-get", "sudo"):
            with open(os.path.join(bin_dir, command), "w") as f:
                f.write("#!/bin/sh\ntouch '%s'\nexit 1\n" % self.path("installer_called"))
            os.chmod(os.path.join(bin_dir, command), 0o755)
        return dict(os.environ, PYTHONPATH=fake, PATH=bin_dir + os.pathsep + os.environ["PATH"])

    def test_plot_says_to_run_setup_and_installs_nothing(self):
        csv_path = self.write_latency_csv()
        env = self.hidden_env()
        status, text = self.plot([csv_path, "--x", "bytes", "--y", "cycles_per_load", "--out", self.path("m.svg")],
                                 env=env)
        self.assertEqual(status, 1, text)
        self.assertRegex(text.strip(), r"^plot: matplotlib is missing \((neither \S+ nor /usr/bin/python3|\S+) can "
                                       r"import it\); run scripts/setup, which installs python3-matplotlib$")
        self.assertFalse(os.path.exists(self.path("m.svg")))
        status, text = self.plot(["--check"], env=env)
        self.assertEqual(status, 1, text)
        self.assertIn("run scripts/setup", text)
        self.assertFalse(os.path.exists(self.path("installer_called")))

    def test_a_study_stops_before_its_runs(self):
        out = self.path("lat")
        status, text = sts.run_script("mem-latency", ["--parsys", PARSYS, "--sizes", "8K", "--strides", "random",
                                                      "--out-dir", out], env=self.hidden_env())
        self.assertEqual(status, 1, text)
        self.assertIn("mem-latency: plot: matplotlib is missing", text)
        self.assertTrue(text.strip().endswith("(or give --no-plot for the CSV only)"), text)
        self.assertFalse(os.path.exists(out))
        self.assertFalse(os.path.exists(self.path("installer_called")))


class MemLatencyChart(TempDirTest):
    def test_one_panel_with_cycles_and_ns_and_the_units_sidecar(self):
        out = self.path("lat")
        status, text = sts.run_script("mem-latency", ["--parsys", PARSYS, "--sizes", "8K,1M", "--strides", "random",
                                                      "--steps", "2048", "--plot-format", "svg", "--out-dir", out])
        self.assertEqual(status, 0, text)
        self.assertEqual(sorted(f for f in os.listdir(out) if "." in f),
                         ["mem-latency.csv", "mem-latency.svg", "mem-latency.units.json"])
        with open(os.path.join(out, "mem-latency.units.json")) as f:
            units = json.load(f)["columns"]
        self.assertEqual(units["cycles_per_load"], {"unit": "cycles", "label": "load-to-use latency"})
        self.assertEqual(units["dram_latency_ns"], {"unit": "ns", "label": "mean memory read latency"})
        texts = svg_texts(os.path.join(out, "mem-latency.svg"))
        self.assertEqual(texts.count("working set"), 1)
        self.assertIn("load-to-use latency [cycles]", texts)
        self.assertIn("load-to-use latency [ns]", texts)
        self.assertIn("L2 256KiB", texts)


def documented_commands(script):
    """The `scripts/SCRIPT ...` commands in the shell blocks of README.md and scripts/README.md
    (continuation lines joined, comments dropped), as argument lists."""
    commands = []
    for readme in ("README.md", os.path.join("scripts", "README.md")):
        with open(os.path.join(sts.ROOT, readme), encoding="utf-8") as f:
            blocks = re.findall(r"```sh\n(.*?)```", f.read(), re.S)
        for line in "\n".join(blocks).replace("\\\n", " ").splitlines():
            words = shlex.split(line, comments=True)
            if words and words[0] == "scripts/" + script:
                commands.append(words[1:])
    return commands


class OutputFolders(unittest.TestCase):
    """Every documented sweep, mem-latency and link-study command (--slurm ones aside) writes to
    a place of its own; the defaults are out/STUDY/NAME."""

    def output_of(self, script, args):
        """Where the command would write, from its --dry-run line, as an absolute path."""
        cut = args.index("--") if "--" in args else len(args)
        args = args[:cut] + ["--dry-run", "--parsys", PARSYS] + args[cut:]
        status, text = sts.run_script(script, args, cwd=sts.ROOT)
        self.assertEqual(status, 0, "%s %s: %s" % (script, " ".join(args), text))
        found = re.findall(r"^%s: \d+ runs; would write (\S+?)/?(?: and (\S+?)/)?$" % script, text, re.M)
        self.assertEqual(len(found), 1, text)
        return [os.path.normpath(os.path.join(sts.ROOT, p)) for p in found[0] if p]

    def test_documented_commands_write_to_different_places(self):
        places = []  # (path, command)
        for script in ("sweep", "mem-latency", "link-study"):
            commands = [c for c in documented_commands(script) if "--slurm" not in c]
            self.assertGreaterEqual(len(commands), 3, script)
            for args in commands:
                places += [(p, "%s %s" % (script, " ".join(args))) for p in self.output_of(script, args)]
        # No place is another's, or inside another's (a sweep's CSV and runs folder are two places).
        for k, (place, command) in enumerate(places):
            for other, other_command in places[k + 1:]:
                self.assertNotIn(os.path.commonpath([place, other]), (place, other),
                                 "%s (%s) and %s (%s)" % (place, command, other, other_command))
        out = os.path.join(sts.ROOT, "out")
        self.assertEqual(self.output_of("mem-latency", []), [os.path.join(out, "mem-latency", "device-dram")])
        self.assertEqual(self.output_of("link-study", []), [os.path.join(out, "link-study", "xd1000")])
        self.assertEqual(self.output_of("link-study", ["--stages", "--threads", "1,4"]),
                         [os.path.join(out, "link-study", "xd1000,threads=1,4,stages")])
        self.assertEqual(self.output_of("sweep", [sts.kernel("gs.par"), "--grid", "core.lanes=1,8", "--",
                                                  "--config", sts.DEVICE_DRAM]),
                         [os.path.join(out, "sweep", "gs,core.lanes=1,8,config=device-dram", "sweep.csv"),
                          os.path.join(out, "sweep", "gs,core.lanes=1,8,config=device-dram", "sweep.runs")])


if __name__ == "__main__":
    PARSYS = sts.parsys_from_argv()
    unittest.main()
