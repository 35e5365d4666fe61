// The full system through the parsys command: the master core runs the .MASTER program
// or a C++ host program across the HT link; results equal the C++ references in both data
// placements; more cores give the same results in less device time; a faulting packet ends the
// run with an error, never a hang.
#include <gtest/gtest.h>

#include <cstring>
#include <sstream>
#include <string>
#include <vector>

#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"
#include "rb_gs_reference.hpp"
#include "cli_test_args.hpp"

namespace {

using namespace par::testing;

const std::string kDeviceDram = "--config " + config_file("device-dram.ini") + " --platform.host master";
const std::string kXd1000 = "--config " + config_file("xd1000.ini");

std::string bytes_of(const std::vector<double>& v) {
  std::string s(v.size() * 8, '\0');
  std::memcpy(s.data(), v.data(), s.size());
  return s;
}

class RbGs : public ::testing::TestWithParam<std::tuple<std::string, std::string>> {};

// The .MASTER program and the C++ host program, with data in device DRAM and in host memory.
TEST_P(RbGs, ConvergedGridsEqualTheReference) {
  const auto& [host, placement] = GetParam();
  const par::isa::AssemblyResult a = par::isa::assemble_file(kRbGs);
  ASSERT_TRUE(a.ok()) << a.messages();
  const par::fullsystem::RbGsParams p = par::fullsystem::rb_gs_params(*a.program);
  const par::fullsystem::RbGsResult ref = par::fullsystem::rb_gs_reference(*a.program);
  ASSERT_TRUE(ref.converged);
  const std::string dir = temp_dir("rbgs_" + std::to_string(std::hash<std::string>{}(host + placement)));
  const CliResult r = parsys("run " + kRbGs + " -q " + placement + " " + host + " --out " + dir + " --dump-mem " +
                             region(p.red, p.array_bytes()) + " --dump-mem " + region(p.black, p.array_bytes()) +
                             " --dump-mem " + region(p.sweeps_addr, 8));
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_EQ(read_file(dir + "/" + dump_file(p.red, p.array_bytes())), bytes_of(ref.red));
  EXPECT_EQ(read_file(dir + "/" + dump_file(p.black, p.array_bytes())), bytes_of(ref.black));
  const nlohmann::json s = read_json(dir + "/stats.json");
  EXPECT_EQ(s["run"]["launches"]["value"], 2 * ref.sweeps);
  ASSERT_EQ(s["launches"].size(), static_cast<std::size_t>(2 * ref.sweeps));
  // Every launch has its host/link/device split; the device part is the packet's execution.
  for (const auto& l : s["launches"]) {
    const nlohmann::json& t = l["timing"];
    EXPECT_GT(t["device_ns"].get<double>(), 0);
    EXPECT_GT(t["link_ns"].get<double>(), 0);
    EXPECT_LE(t["device_ns"].get<double>(), t["window_ns"].get<double>());
  }
  if (host.empty()) {  // the .MASTER program stores its sweep count
    std::uint64_t sweeps = 0;
    const std::string b = read_file(dir + "/" + dump_file(p.sweeps_addr, 8));
    ASSERT_EQ(b.size(), 8u);
    std::memcpy(&sweeps, b.data(), 8);
    EXPECT_EQ(static_cast<std::int64_t>(sweeps), ref.sweeps);
  }
}

std::string rb_gs_case_name(const ::testing::TestParamInfo<RbGs::ParamType>& case_info) {
  return std::string(std::get<0>(case_info.param).empty() ? "MasterProgram" : "HostProgram") +
         (std::get<1>(case_info.param) == kXd1000 ? "InHostMemory" : "InDeviceDram");
}

INSTANTIATE_TEST_SUITE_P(FullSystem, RbGs,
                         ::testing::Combine(::testing::Values("", "--host rb-gauss-seidel"),
                                            ::testing::Values(kDeviceDram, kXd1000)),
                         rb_gs_case_name);

TEST(FullSystem, SvaCopyHostProgramChecksItsResult) {
  const CliResult r = parsys("run " + kernel_file("sva.par") + " " + kDeviceDram + " --host sva-copy");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "host:     host program sva-copy, 1 launches")) << r.out;
  EXPECT_TRUE(contains(r.out, "link.h2d")) << r.out;
}

// Conditional streams through the cores' stream windows: the host fills each core's s0 with its
// share of the input, drains s1 and checks the result, on one and two cores.
TEST(FullSystem, StreamFilterHostProgramFillsAndDrainsChannels) {
  for (int cores : {1, 2}) {
    const CliResult r = parsys("run " + kernel_file("stream-filter.par") + " " + kDeviceDram +
                               " --core.stream.enabled --platform.cores " + std::to_string(cores) + " --host stream-filter");
    ASSERT_EQ(r.status, 0) << r.out;  // 1 when the drained streams differ from the reference
    EXPECT_TRUE(contains(r.out, "host:     host program stream-filter, 1 launches")) << r.out;
  }
  const CliResult off = parsys("run " + kernel_file("stream-filter.par") + " -q " + kDeviceDram + " --host stream-filter");
  EXPECT_NE(off.status, 0);
  EXPECT_TRUE(contains(off.out, "stream_fill: core 0 has no stream unit (core.stream.enabled is off)")) << off.out;
}

// A host program's thread counts are known only after the run: threads of --dump-regs that did not
// run are an error then (exit 2), after the registers of those that did.
TEST(FullSystem, DumpRegistersOfThreadsAHostProgramNeverRanIsAnError) {
  const CliStreams r = parsys_streams("run " + kernel_file("sva.par") + " -q " + kDeviceDram +
                                      " --host sva-copy --no-out --dump-regs 1279:3");
  EXPECT_EQ(r.status, 2);
  EXPECT_EQ(r.out.rfind("thread 1279\n  r0 = ", 0), 0u) << r.out;
  EXPECT_FALSE(contains(r.out, "thread 1280")) << r.out;
  EXPECT_EQ(r.err, "parsys: --dump-regs '1279:3': 2 of the 3 threads did not run\n");
}

// A compute-bound kernel: the same results on 1, 2 and 4 cores, with either split policy, and
// the device part of the launch falls as cores are added.
TEST(FullSystem, MoreCoresSameResultsLessDeviceTime) {
  const par::kernels::KernelInfo& k = par::kernels::kernel("jim");  // iterations in registers, little memory
  const par::isa::AssemblyResult a = par::isa::assemble_file(par::kernels::kernel_path(k));
  ASSERT_TRUE(a.ok());
  const std::uint64_t out = par::kernels::ProgramData(*a.program).address(k.output_label);
  const std::string dir = temp_dir("fullsystem_cores");
  std::string first;
  double previous_device_ns = 0;
  for (int cores : {1, 2, 4}) {
    for (const std::string policy : {"static", "dynamic"}) {
      const std::string d = dir + "/c" + std::to_string(cores) + policy;
      const CliResult r = parsys("run " + par::kernels::kernel_path(k) + " -q " + kDeviceDram + " --core.lanes 8 --platform.cores " +
                                 std::to_string(cores) + " --scheduler.policy " + policy + " --out " + d + " --dump-mem " +
                                 region(out, k.output_bytes()));
      ASSERT_EQ(r.status, 0) << r.out;
      const std::string result = read_file(d + "/" + dump_file(out, k.output_bytes()));
      ASSERT_EQ(result.size(), k.output_bytes());
      if (first.empty()) first = result;
      EXPECT_EQ(result, first) << cores << " cores, " << policy;
      if (policy == "static") {
        const double device_ns = read_json(d + "/stats.json")["launches"][0]["timing"]["device_span_ns"];
        if (cores > 1) {
          EXPECT_LT(device_ns, previous_device_ns * 0.8) << cores << " cores";  // uneven iteration counts
        }
        previous_device_ns = device_ns;
      }
    }
  }
}

// The platform's rule (docs/architecture.md): no b_transport waits longer than the access it
// models. With the checker on every binding (timing.b_transport_wait, 1 us), the master launches
// gs (2.3 us of device time) on two cores across the link: the DOORBELLs return after their
// register latency, each core's end comes back on its line, the packet's end as one interrupt
// across the link, and no call waits for the work.
TEST(FullSystem, NoCallWaitsForTheWorkItStarts) {
  const std::string dir = temp_dir("fullsystem_no_long_calls");
  const CliResult r = parsys("run " + kernel_file("gs.par") + " -q " + kDeviceDram +
                             " --platform.cores 2 --check-protocol --protocol_check.max_b_transport_wait_ns 1000 --out " +
                             dir);
  ASSERT_EQ(r.status, 0) << r.out;
  const nlohmann::json s = read_json(dir + "/stats.json");
  double violations = 0;
  for (const auto& [name, checker] : s["protocol_check"].items())
    if (checker.is_object() && checker.contains("violations")) violations += checker["violations"]["value"].get<double>();
  EXPECT_EQ(violations, 0.0);
  EXPECT_EQ(s["scheduler"]["interrupts"]["value"], 1);
  EXPECT_EQ(s["link"]["d2h"]["interrupts"]["value"], 1);
  EXPECT_EQ(s["master"]["interrupts"]["value"], 1);
  EXPECT_EQ(s["master"]["transactions"]["value"], 2);  // the staging burst and DOORBELL: no read waits
  EXPECT_GT(s["launches"][0]["timing"]["device_ns"].get<double>(), 2000.0);  // twice the bound
}

// master.wait from the command line: the completion interrupt (default), polling COMPLETED, or
// the host-memory flag at the end of host memory (the platform's choice when none is given).
TEST(FullSystem, EveryWaitModeFromTheCommandLine) {
  for (const std::string mode : {"interrupt", "poll", "flag"}) {
    const std::string dir = temp_dir("fullsystem_wait_" + mode);
    const CliResult r = parsys("run " + kernel_file("sva.par") + " -q " + kDeviceDram + " --master.wait " + mode + " --out " + dir);
    ASSERT_EQ(r.status, 0) << mode << ": " << r.out;
    const nlohmann::json s = read_json(dir + "/stats.json");
    EXPECT_EQ(s["master"]["interrupts"]["value"], mode == "interrupt" ? 1 : 0) << mode;
    EXPECT_EQ(s["master"]["polls"]["value"].get<double>() > 0, mode != "interrupt") << mode;
    EXPECT_EQ(s["scheduler"]["flag_writes"]["value"], mode == "flag" ? 1 : 0) << mode;
  }
  const CliResult bad = parsys("run " + kernel_file("sva.par") + " -q " + kDeviceDram + " --master.wait register");
  EXPECT_EQ(bad.status, 2);
  EXPECT_TRUE(contains(bad.out, "--master.wait: 'register' is not one of: interrupt, poll, flag")) << bad.out;
}

TEST(FullSystem, HostWaitingOnAFaultingPacketGetsAnError) {
  const std::string dir = temp_dir("fullsystem_fault");
  const std::string file = write_file(dir + "/fault.par", R"(.PAR
.ADDRESS main
.THREADS 64
.CODE
main: set r1 = 4
      ld8 r2 = r1[0]  #
.DATA 0x0
      .i64 1, 2
)");
  const CliResult r = parsys("run " + file + " " + kDeviceDram + " --max-host-seconds 60");
  EXPECT_EQ(r.status, 1) << r.out;
  EXPECT_TRUE(contains(r.out, "master: packet 1")) << r.out;
  EXPECT_TRUE(contains(r.out, "misaligned")) << r.out;
  EXPECT_TRUE(contains(r.out, "fault.par:6")) << r.out;
}

TEST(FullSystem, MasterProgramNeedsTheFullSystem) {
  const CliResult r = parsys("run " + kRbGs + " -q");
  EXPECT_EQ(r.status, 2) << r.out;
  EXPECT_TRUE(contains(r.out, "is a .MASTER program: it runs on the master core of the full system")) << r.out;
  const CliResult u = parsys("run " + kRbGs + " -q " + kDeviceDram + " --host no-such-program");
  EXPECT_NE(u.status, 0);
  EXPECT_TRUE(contains(u.out, "unknown host program 'no-such-program' (known: rb-gauss-seidel, sva-copy, stream-filter)")) << u.out;
}

}  // namespace
