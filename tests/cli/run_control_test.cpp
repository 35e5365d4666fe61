// Long runs behave and runs can be traced: host-time and cycle limits, Ctrl-C and a hung model each end the run
// with a clear message and the statistics gathered so far; the progress line appears on request.
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <string>

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

// By default every launch of a run keeps its tree; a limit says on stderr what was left out.
TEST(RunControl, EveryLaunchKeepsItsStatisticsTreeUnlessLimited) {
  const std::string dir = temp_dir("run_launch_trees");
  const CliResult all = parsys("run " + kernel_file("gs.par") + " --run.repeat 70 --out " + dir);
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

  const CliResult limited = parsys("run " + kernel_file("gs.par") + " --run.repeat 5 --run.launch_stats 2 --out " + dir);
  ASSERT_EQ(limited.status, 0) << limited.out;
  EXPECT_TRUE(contains(limited.out,
                       "parsys: note: stats.json keeps the statistics tree of the first 2 of 5 launches "
                       "(--run.launch_stats -1 keeps every one)"))
      << limited.out;
  const nlohmann::json l = read_json(dir + "/stats.json");
  ASSERT_EQ(l["launches"].size(), 5u);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(l["launches"][i].contains("stats"), i < 2) << i;
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

TEST(Tracing, EventLimitBoundsTheFile) {
  const std::string dir = temp_dir("trace_bounded");
  const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kGlobal + " --trace-timeline " + dir +
                             "/run.json --trace.max_events 100");
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json t = read_json(dir + "/run.json");
  EXPECT_EQ(t["otherData"]["trace"]["events_recorded"], 100);
  EXPECT_GT(t["otherData"]["trace"]["events_dropped"].get<int>(), 0);
}

}  // namespace
