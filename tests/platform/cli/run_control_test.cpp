// Long runs behave and runs can be traced: host-time and cycle limits, Ctrl-C and a hung model each end the run
// with a clear message and the statistics gathered so far; the progress line appears on request.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <map>
#include <sstream>
#include <set>
#include <string>
#include <vector>

#include "cli_test_args.hpp"

namespace {

using namespace par::testing;

// Far more work than any limit below lets through.
const std::string kLongRun = "run " + kernel_file("gs.par") + " -q --run.repeat 1000000";

// One host second: enough for some of the few-millisecond launches on a loaded machine too.
TEST(RunControl, HostTimeLimitStopsWithTheStatisticsSoFar) {
  const std::string dir = temp_dir("run_host_limit");
  const CliResult r = parsys(kLongRun + " --max-host-seconds 1 --run.launch_stats 64 --out " + dir);
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "stopped after 1.0 host seconds (--max-host-seconds)")) << r.out;
  const nlohmann::json s = read_json(dir + "/stats.json");
  const std::int64_t launches = s["run"]["launches"]["value"];
  EXPECT_GT(launches, 0);
  EXPECT_LT(launches, 1000000);
  ASSERT_EQ(s["launches"].size(), static_cast<std::size_t>(launches));
  // Trees for the first run.launch_stats (64) launches only.
  for (std::size_t i = 0; i < s["launches"].size(); ++i) EXPECT_EQ(s["launches"][i].contains("stats"), i < 64) << i;
}

// With run.launch_stats -1 every launch of a run keeps its tree; by default the first 10 do, and
// a limit says on stderr what was left out.
TEST(RunControl, EveryLaunchKeepsItsStatisticsTreeUnlessLimited) {
  const std::string dir = temp_dir("run_launch_trees");
  const CliResult all = parsys("run " + kernel_file("gs.par") + " --run.repeat 70 --run.launch_stats -1 --out " + dir);
  ASSERT_EQ(all.status, 0) << all.out;
  EXPECT_FALSE(contains(all.out, "keeps the statistics tree")) << all.out;
  const nlohmann::json s = read_json(dir + "/stats.json");
  ASSERT_EQ(s["launches"].size(), 70u);
  std::uint64_t cycles = 0;
  for (const auto& launch : s["launches"]) {
    ASSERT_TRUE(launch.contains("stats"));
    const std::uint64_t launch_cycles = launch["stats"]["core0"]["cycles"]["value"];
    EXPECT_GT(launch_cycles, 0u);
    cycles += launch_cycles;
  }
  EXPECT_EQ(cycles, s["core0"]["cycles"]["value"].get<std::uint64_t>());

  // `repeat` launches of which the first `kept` keep their tree, with the note on stderr.
  auto expect_limited = [&dir](const std::string& options, std::size_t repeat, std::size_t kept) {
    const CliResult r =
        parsys("run " + kernel_file("gs.par") + " --run.repeat " + std::to_string(repeat) + options + " --out " + dir);
    ASSERT_EQ(r.status, 0) << r.out;
    EXPECT_TRUE(contains(r.out, "parsys: note: stats.json keeps the statistics tree of the first " +
                                    std::to_string(kept) + " of " + std::to_string(repeat) +
                                    " launches (--run.launch_stats -1 keeps every one)"))
        << r.out;
    const nlohmann::json l = read_json(dir + "/stats.json");
    ASSERT_EQ(l["launches"].size(), repeat);
    for (std::size_t i = 0; i < repeat; ++i) EXPECT_EQ(l["launches"][i].contains("stats"), i < kept) << i;
  };
  expect_limited("", 12, 10);  // the default
  expect_limited(" --run.launch_stats 2", 5, 2);
}

// The statistics of a window: instructions (backend and control) and cycles of core0.
struct WindowWork {
  std::int64_t instructions = 0, cycles = 0;
};
WindowWork window_work(const nlohmann::json& stats) {
  const nlohmann::json& c = stats["core0"];
  WindowWork w;
  for (const auto& group : {c["instructions"], c["control_instructions"]})
    for (const auto& [name, stat] : group.items()) w.instructions += stat["value"].get<std::int64_t>();
  w.cycles = c["cycles"]["value"].get<std::int64_t>();
  return w;
}

// Core counters advance during a packet: each window of one long packet holds the instructions
// dispatched in it, as the execution trace's cycles say (up to the one instruction whose frontend
// wait straddles a boundary, counted before it), and the packet's cycles in it.
TEST(RunControl, WindowsOfALongPacketHoldTheWorkDoneInThem) {
  const std::string dir = temp_dir("run_live_windows");
  const CliResult r = parsys("run " + kernel_file("gs.par") + " -q --stats-window 1000 --trace.exec " + dir +
                             "/exec.txt --trace.exec_max 1000000 --out " + dir + "/out");
  ASSERT_EQ(r.status, 0) << r.out;
  std::vector<std::int64_t> cycles_of_records;  // the issue cycle of every executed instruction
  std::istringstream exec(read_file(dir + "/exec.txt"));
  for (std::string line; std::getline(exec, line);)
    if (!line.empty() && line[0] != '#') cycles_of_records.push_back(std::stoll(line));
  const nlohmann::json s = read_json(dir + "/out/stats.json");
  ASSERT_EQ(s["launches"].size(), 1u);
  const double begin_ns = s["launches"][0]["begin_ns"], end_ns = s["launches"][0]["end_ns"];
  const nlohmann::json& windows = s["windows"];
  ASSERT_GE(windows.size(), 8u);  // gs, 1280 threads on 1 x 4: about 10 k cycles
  std::int64_t instructions = 0, cycles = 0;
  int busy_windows = 0;
  for (std::size_t i = 0; i < windows.size(); ++i) {
    const WindowWork w = window_work(windows[i]["stats"]);
    instructions += w.instructions;
    cycles += w.cycles;
    busy_windows += w.instructions > 0 ? 1 : 0;
    const double wb = windows[i]["begin_ns"], we = windows[i]["end_ns"];
    if (wb >= begin_ns + 1000 && we <= end_ns - 1000) {  // inside the packet (launch to completion)
      EXPECT_EQ(w.cycles, 1000) << i;
      EXPECT_GT(w.instructions, 0) << i;
    }
    if (i + 1 == windows.size()) break;
    // Up to the window's end (cycle = ns at 1 GHz): what the trace has before it, or one more.
    const auto before = static_cast<std::int64_t>(std::count_if(
        cycles_of_records.begin(), cycles_of_records.end(), [&](std::int64_t c) { return c < static_cast<std::int64_t>(we); }));
    EXPECT_GE(instructions, before) << i;
    EXPECT_LE(instructions, before + 1) << i;
  }
  EXPECT_GE(busy_windows, static_cast<int>(windows.size()) - 2);
  EXPECT_EQ(instructions, static_cast<std::int64_t>(cycles_of_records.size()));
  EXPECT_EQ(instructions, window_work(s).instructions);
  EXPECT_EQ(cycles, window_work(s).cycles);
}

// A run stopped inside one long packet reports the packet's work so far.
TEST(RunControl, AStoppedLongPacketReportsItsWorkSoFar) {
  const std::string dir = temp_dir("run_live_stop");
  const std::string program = write_file(dir + "/long.par",
                                         ".PAR\n.ADDRESS main\n.THREADS 1000000000\n.CODE\n"
                                         "main:   add r1 = i0, 1\n        add r2 = r1, r1   #\n");
  const CliResult r = parsys("run " + program + " -q --max-host-seconds 0.3 --out " + dir + "/out");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "--max-host-seconds")) << r.out;
  const nlohmann::json s = read_json(dir + "/out/stats.json");
  EXPECT_EQ(s["run"]["launches"]["value"], 0);
  const std::int64_t alu = s["core0"]["thread_instructions"]["alu"]["value"];
  EXPECT_GT(alu, 1000);
  // Two per thread of every round started; the last round (4 threads) may be partly done.
  const std::int64_t threads = s["core0"]["threads"]["value"];
  EXPECT_LE(alu, 2 * threads);
  EXPECT_GE(alu, 2 * threads - 8);
  EXPECT_GT(s["core0"]["cycles"]["value"].get<std::int64_t>(), 0);
  EXPECT_EQ(s["run"]["thread_instructions"]["value"].get<std::int64_t>(), alu);
}

// The packets done so far, from the last progress line in `out` ("..., 3/4 packets done, ...").
std::int64_t packets_done(const std::string& out) {
  const std::size_t line = out.rfind(" packets done");
  const std::size_t slash = line == std::string::npos ? line : out.rfind('/', line);
  if (slash == std::string::npos || slash == 0) return 0;
  const std::size_t from = out.find_last_not_of("0123456789", slash - 1) + 1;  // npos + 1 = 0
  return from < slash ? std::stoll(out.substr(from, slash - from)) : 0;
}

// Ctrl-C once the progress line shows a completed launch.
TEST(RunControl, CtrlCWritesTheStatisticsAndExits130) {
  const std::string dir = temp_dir("run_sigint");
  const SignalledRun r = parsys_signalled(kLongRun + " --run.progress on --out " + dir, SIGINT,
                                          [](const std::string& out) { return packets_done(out) > 0; });
  ASSERT_TRUE(r.ready) << r.out.substr(0, 2000);
  EXPECT_EQ(r.status, 130) << r.out.substr(0, 2000);
  EXPECT_TRUE(contains(r.out, "interrupted at")) << r.out.substr(0, 2000);
  EXPECT_GT(read_json(dir + "/stats.json")["run"]["launches"]["value"].get<std::int64_t>(), 0);
}

TEST(RunControl, CycleLimitIsAClearError) {
  const CliResult r = parsys("run " + kernel_file("gs.par") + " -q --max-cycles 100");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "100")) << r.out;
  EXPECT_TRUE(contains(r.out, "core.max_cycles")) << r.out;
}

// A memory model that accepts requests and never answers: nothing can progress, and the report
// names every module with pending work.
TEST(RunControl, HungModelIsReportedAsADeadlockNamingWhoWaits) {
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --dram.rows 256 --dram.model " + kTestRam +
                             " --dram.plugin_args mode=at,broken=silent --max-host-seconds 60");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "deadlock: no module can make progress")) << r.out;
  EXPECT_TRUE(contains(r.out, "scheduler: packet 1")) << r.out;
  EXPECT_TRUE(contains(r.out, "core0: running threads 0..1279")) << r.out;
  EXPECT_TRUE(contains(r.out, "waiting for the response to its 64-byte load at 0x10000 on `mem`")) << r.out;
  EXPECT_TRUE(contains(r.out, "master: the host software has not ended (waiting for packet 1")) << r.out;
}

TEST(RunControl, ProgressLineOnRequestOnly) {
  const std::string run = "run " + kernel_file("gs.par") + " -q --run.repeat 150";  // about half a second
  const CliResult on = parsys(run + " --run.progress on");
  ASSERT_EQ(on.status, 0) << on.out;
  EXPECT_TRUE(contains(on.out, "us simulated")) << on.out.substr(0, 300);
  EXPECT_TRUE(contains(on.out, "packets done")) << on.out.substr(0, 300);
  EXPECT_TRUE(contains(on.out, "threads started")) << on.out.substr(0, 300);
  EXPECT_TRUE(contains(on.out, "%, ETA ")) << on.out.substr(0, 300);
  EXPECT_TRUE(contains(on.out, ", host ")) << on.out.substr(0, 300);
  const CliResult automatic = parsys(run);  // stderr is a pipe here: quiet
  ASSERT_EQ(automatic.status, 0);
  EXPECT_FALSE(contains(automatic.out, "us simulated")) << automatic.out.substr(0, 300);
}

}  // namespace

namespace {

// The timeline of a full-system run: every kind of event is there, in the expected numbers.
TEST(Tracing, TimelineHasHostLinkLaunchCoreL2AndDramEvents) {
  const std::string dir = temp_dir("trace_timeline");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --platform.cores 2 --run.repeat 2" +
                             " --trace-timeline " + dir + "/run.json --vcd " + dir + "/run.vcd --out " + dir + "/out");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json t = read_json(dir + "/run.json");
  std::map<std::string, int> by_category;
  std::set<std::string> processes;
  for (const auto& e : t["traceEvents"]) {
    if (e["ph"] == "M" && e["name"] == "process_name") processes.insert(e["args"]["name"].get<std::string>());
    if (e["ph"] == "X") ++by_category[e["cat"].get<std::string>()];
  }
  const nlohmann::json s = read_json(dir + "/out/stats.json");
  EXPECT_EQ(by_category["launch"], 2);        // one interval per packet
  EXPECT_GE(by_category["core"], 4);          // a busy interval per core and launch, plus stalls
  // Taps: every access into the L2 and every line it exchanges with DRAM.
  int l2_transactions = s["dram"]["reads"]["value"].get<int>() + s["dram"]["writes"]["value"].get<int>();
  for (int b = 0; b < 4; ++b) l2_transactions += s["l2"]["bank" + std::to_string(b)]["accesses"]["value"].get<int>();
  EXPECT_EQ(by_category["l2"], l2_transactions);
  EXPECT_GT(by_category["dram"], 0);
  EXPECT_GT(by_category["link"], 0);
  EXPECT_GT(by_category["host"], 0);
  for (const char* p : {"host", "link", "scheduler", "core0", "core1", "l2", "dram"}) EXPECT_EQ(processes.count(p), 1u) << p;
  EXPECT_EQ(t["otherData"]["trace"]["events_dropped"], 0);
  // The waveform declares the chosen signals.
  const std::string vcd = read_file(dir + "/run.vcd");
  EXPECT_TRUE(contains(vcd, "$var integer 16")) << vcd.substr(0, 400);
  EXPECT_TRUE(contains(vcd, "pending")) << vcd.substr(0, 400);
}

std::string us3(double us) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3f", us);
  return buf;
}

// A bound that is reached never stops a trace silently: a warning on stderr and, in the file, the
// time up to which it is complete (otherData and a global instant there).
TEST(Tracing, EventLimitBoundsTheFileAndSaysSo) {
  const std::string dir = temp_dir("trace_bounded");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --trace-timeline " + dir +
                             "/run.json --trace.max_events 100");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json t = read_json(dir + "/run.json");
  const nlohmann::json& info = t["otherData"]["trace"];
  EXPECT_EQ(info["events_recorded"], 100);
  const int dropped = info["events_dropped"].get<int>();
  EXPECT_GT(dropped, 0);
  ASSERT_TRUE(info["complete_until_us"].is_number());
  const double until = info["complete_until_us"].get<double>();
  EXPECT_TRUE(contains(r.out, "parsys: warning: timeline: " + std::to_string(dropped) + " events dropped (")) << r.out;
  EXPECT_TRUE(contains(r.out, "; trace.max_events = 100 or a trace.category_max reached, the timeline is complete up to " +
                                  us3(until) + " us simulated; raise the bound"))
      << r.out;
  int marks = 0;
  for (const auto& e : t["traceEvents"])
    if (e["ph"] == "i" && e.value("s", "") == "g") {
      ++marks;
      EXPECT_EQ(e["ts"].get<double>(), until);
      EXPECT_EQ(e["args"]["events_dropped"], dropped);
    }
  EXPECT_EQ(marks, 1);
  // Unbounded: no warning, complete to the end.
  const CliResult full = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --trace-timeline " + dir + "/full.json");
  ASSERT_EQ(full.status, 0) << full.out;
  EXPECT_FALSE(contains(full.out, "warning")) << full.out;
  EXPECT_TRUE(read_json(dir + "/full.json")["otherData"]["trace"]["complete_until_us"].is_null());
}

TEST(Tracing, ChangeLimitBoundsTheWaveformAndSaysSo) {
  const std::string dir = temp_dir("trace_vcd_bounded");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --vcd " + dir +
                             "/run.vcd --trace.max_changes 20");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string vcd = read_file(dir + "/run.vcd");
  const std::string marker = "the waveform stops at #";
  ASSERT_TRUE(contains(vcd, marker)) << vcd.substr(0, 600);
  const std::size_t at = vcd.find(marker) + marker.size();
  const double stop_ps = std::stod(vcd.substr(at, vcd.find(',', at) - at));
  EXPECT_TRUE(contains(r.out, "parsys: warning: vcd: trace.max_changes = 20 reached, ")) << r.out;
  EXPECT_TRUE(contains(r.out, " value changes dropped; the waveform stops at " + us3(stop_ps * 1e-6) +
                                  " us simulated; raise trace.max_changes or narrow trace.signals"))
      << r.out;
}

// Both files say what produced them: the command line and the effective configuration.
TEST(Tracing, TheCommandLineAndConfigurationAreInTheTraces) {
  const std::string dir = temp_dir("trace_metadata");
  const std::string args = kernel_file("sva.par") + " -q " + kGlobal + " --core.lanes 8 --trace-timeline " + dir +
                           "/run.json --vcd " + dir + "/run.vcd";
  const CliResult r = parsys("run " + args);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json t = read_json(dir + "/run.json");
  EXPECT_TRUE(contains(t["otherData"]["command"].get<std::string>(), "parsys run " + kernel_file("sva.par")))
      << t["otherData"];
  const std::string config = t["otherData"]["configuration"].get<std::string>();
  EXPECT_TRUE(contains(config, "[core]")) << config;
  EXPECT_TRUE(contains(config, "lanes = 8")) << config;
  const std::string vcd = read_file(dir + "/run.vcd");
  const std::string header = vcd.substr(0, vcd.find("$enddefinitions"));
  EXPECT_TRUE(contains(header, "   command: parsys run " + kernel_file("sva.par"))) << header.substr(0, 800);
  EXPECT_TRUE(contains(header, "\n   lanes = 8 ")) << header;
}

// The waveform has the L2 MSHR and DRAM request-queue occupancies the trace README documents, and
// they move: every fill holds an MSHR, every burst a queue entry.
TEST(Tracing, L2MshrAndDramQueueSignalsAreInTheWaveform) {
  const std::string dir = temp_dir("trace_vcd_signals");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --vcd " + dir +
                             "/run.vcd --trace.signals l2 --trace.signals dram");
  ASSERT_EQ(r.status, 0) << r.out;
  const std::string vcd = read_file(dir + "/run.vcd");
  std::map<std::string, std::string> code;  // signal path -> identifier code
  std::vector<std::string> scopes;
  std::istringstream in(vcd.substr(0, vcd.find("$enddefinitions")));
  for (std::string word; in >> word;) {
    if (word == "$scope") {
      std::string kind, name;
      in >> kind >> name;
      scopes.push_back(name);
    } else if (word == "$upscope") {
      scopes.pop_back();
    } else if (word == "$var") {
      std::string kind, width, id, name;
      in >> kind >> width >> id >> name;
      std::string path;
      for (std::size_t k = 1; k < scopes.size(); ++k) path += scopes[k] + ".";
      code[path + name] = id;
    }
  }
  for (const char* s : {"l2.bank0.mshrs", "l2.bank3.mshrs", "dram.ch0.queue"}) {
    ASSERT_EQ(code.count(s), 1u) << s << "\n" << vcd.substr(0, 1500);
    // Rises above zero and is back at zero at the end.
    const std::string id = code[s];
    std::string last;
    bool nonzero = false;
    std::istringstream changes(vcd.substr(vcd.find("$enddefinitions")));
    for (std::string line; std::getline(changes, line);)
      if (line.size() > id.size() + 1 && line[0] == 'b' && line.compare(line.size() - id.size() - 1, std::string::npos, " " + id) == 0) {
        last = line.substr(1, line.size() - id.size() - 2);
        nonzero = nonzero || last != "0";
      }
    EXPECT_TRUE(nonzero) << s;
    EXPECT_EQ(last, "0") << s;
  }
}

}  // namespace
