// Every nanosecond of a full-system launch is attributed: host + link + queueing + device +
// overlap = the launch's window, and the windows plus the host software's tail = the run.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "launch_time.hpp"
#include "support/parsys_cli.hpp"

namespace {

using namespace par::testing;
using par::platform::attribute_launch;
using par::platform::LaunchTimes;

double parts(const LaunchTimes& t) { return t.host_ns + t.link_ns + t.queueing_ns + t.device_ns + t.overlap_ns; }

void expect_parts(const LaunchTimes& t, double host, double link, double queueing, double device, double overlap) {
  EXPECT_DOUBLE_EQ(t.host_ns, host);
  EXPECT_DOUBLE_EQ(t.link_ns, link);
  EXPECT_DOUBLE_EQ(t.queueing_ns, queueing);
  EXPECT_DOUBLE_EQ(t.device_ns, device);
  EXPECT_DOUBLE_EQ(t.overlap_ns, overlap);
  EXPECT_DOUBLE_EQ(parts(t), t.window_ns());
}

TEST(LaunchTime, HostAndLinkFillTheHostSideFirstTheRestOverlapsTheDevice) {
  // Window 0..1376: host side 0..300 and 1200..1376 (476 ns), queued 300..350, device 350..1200.
  // Link: the host side's other 76 ns; overlap: 150 ns of link busy time, 76 of them on the host
  // side; device: 850 less the overlap.
  const LaunchTimes t = attribute_launch(0, 1376, 300, 350, 1200, 400, 150);
  expect_parts(t, 400, 76, 50, 776, 74);
  EXPECT_DOUBLE_EQ(t.device_span_ns, 850);
  EXPECT_DOUBLE_EQ(t.window_ns(), 1376);
}

TEST(LaunchTime, OverlapBeyondTheDeviceComesOutOfTheQueueing) {
  const LaunchTimes t = attribute_launch(100, 200, 110, 150, 170, 90, 0);  // host busy 90 ns of 100
  expect_parts(t, 40, 0, 10, 0, 50);
}

TEST(LaunchTime, PhasesOutsideTheWindowAreCutAtItsEdges) {
  // Submitted (50) before the previous launch completed (100): an asynchronous launch.
  const LaunchTimes t = attribute_launch(100, 300, 50, 90, 250, 10, 500);
  expect_parts(t, 10, 40, 0, 0, 150);
  EXPECT_DOUBLE_EQ(t.device_span_ns, 150);
}

void expect_launches_add_up(const std::string& args) {
  const std::string dir = temp_dir("launch_time");
  const CliResult r = parsys("run " + args + " --out " + dir);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json s = read_json(dir + "/stats.json");
  ASSERT_FALSE(s["launches"].empty());
  double previous_end = 0;
  for (const auto& l : s["launches"]) {
    const auto& t = l["timing"];
    const double window = t["window_ns"];
    EXPECT_GT(window, 0);
    double sum = 0;
    for (const char* part : {"host_ns", "link_ns", "queueing_ns", "device_ns", "overlap_ns"}) {
      EXPECT_GE(t[part].get<double>(), 0) << part;
      sum += t[part].get<double>();
    }
    EXPECT_NEAR(sum, window, 1e-6 * window) << t.dump();
    EXPECT_DOUBLE_EQ(l["end_ns"].get<double>() - window, previous_end);  // windows tile the run
    previous_end = l["end_ns"];
    EXPECT_GT(t["device_span_ns"].get<double>(), 0);
  }
  EXPECT_LE(previous_end, s["run"]["simulated_ns"]["value"].get<double>());
  // The report: the whole run's time with the device cycles beside it, the parts, the tail.
  EXPECT_TRUE(contains(r.out, " us simulated (host, link and device; device ")) << r.out;
  EXPECT_TRUE(contains(r.out, "queueing      device     overlap")) << r.out;
  EXPECT_TRUE(contains(r.out, "after the last launch (host software until it ends): ")) << r.out;
}

TEST(LaunchTime, PartsOfEveryLaunchAddUpToItsWindowWithDeviceDram) {
  expect_launches_add_up(kernel_file("sva.par") + " --config " + config_file("device-dram.ini") + " --host sva-copy");
}

TEST(LaunchTime, PartsOfEveryLaunchAddUpToItsWindowWithDataInHostMemory) {
  expect_launches_add_up(kernel_file("sva.par") + " --config " + config_file("xd1000.ini") + " --host sva-copy");
}

// A device-DRAM run of sva.par with `args`: its report contains every one of `lines`.
void expect_report_contains(const std::string& args, const std::vector<std::string>& lines) {
  const CliResult r = parsys("run " + kernel_file("sva.par") + " --config " + config_file("device-dram.ini") + args);
  ASSERT_EQ(r.status, 0) << r.out;
  for (const std::string& l : lines) EXPECT_TRUE(contains(r.out, l)) << l << "\n" << r.out;
}

TEST(Report, HostProgramLogIsPrinted) {
  expect_report_contains(" --host sva-copy", {"  host log: sva-copy: 1280 elements, 122880 bytes copied, packet 1 submitted at ",
                                              ": Z matches the C++ reference\n"});
}

TEST(Report, ProtocolCheckSummaryAndDramUnits) {
  expect_report_contains(" --check-protocol", {"  Protocol check             ",
                                               " transport_dbg calls checked; 0 violations\n", " write transactions, ",
                                               " bursts (row hits/misses/conflicts "});
}

}  // namespace
