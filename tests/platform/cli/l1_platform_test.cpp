// The private L1 data caches on the platform, through the parsys command: every kernel leaves the
// same memory results with and without L1s (both write policies, with and without write-allocate,
// several cores, a small L1 that evicts), the full system's multi-launch red-black Gauss-Seidel
// converges to the reference with L1s in both data placements (so no core reads data another core
// or the host wrote in an earlier launch from a stale line), and bad L1 configurations are refused
// with one clear message and exit status 2.
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
using par::kernels::KernelInfo;

// Runs `k` with `args`; returns its output region's bytes and fills `stats`.
std::string run_kernel(const KernelInfo& k, const std::string& args, const std::string& dir, nlohmann::json& stats) {
  const par::isa::AssemblyResult a = par::isa::assemble_file(par::kernels::kernel_path(k));
  EXPECT_TRUE(a.ok()) << a.messages();
  const std::uint64_t out = par::kernels::ProgramData(*a.program).address(k.output_label);
  const CliResult r = parsys("run " + par::kernels::kernel_path(k) + " -q " + args + " --out " + dir +
                             " --dump-mem " + region(out, k.output_bytes()));
  EXPECT_EQ(r.status, 0) << r.out;
  if (r.status != 0) return "";
  stats = read_json(dir + "/stats.json");
  return read_file(dir + "/" + dump_file(out, k.output_bytes()));
}

double value(const nlohmann::json& stats, const char* group, const char* name) {
  return stats[group][name]["value"].get<double>();
}

class L1EveryKernel : public ::testing::TestWithParam<std::string> {};

TEST_P(L1EveryKernel, SameResultsWithAndWithoutL1s) {
  const KernelInfo& k = par::kernels::kernel(GetParam());
  const std::string dir = temp_dir("l1_" + GetParam());
  const std::string cores = " --platform.cores 3";
  nlohmann::json none, wb, wt;
  const std::string without = run_kernel(k, kGlobal + cores, dir + "/none", none);
  ASSERT_EQ(without.size(), k.output_bytes());
  EXPECT_EQ(none.find("l1"), none.end());
  // Write-back, write-allocate (the defaults).
  EXPECT_EQ(run_kernel(k, kGlobal + cores + " --l1.enabled", dir + "/wb", wb), without);
  EXPECT_GT(value(wb, "l1", "accesses"), 0);
  EXPECT_EQ(value(wb, "l1", "flushes"), value(wb, "scheduler", "shares"));
  // Write-through without write-allocate in a 512-byte L1 that evicts all the time.
  EXPECT_EQ(run_kernel(k, kGlobal + cores +
                              " --l1.enabled --l1.write_policy write_through --l1.write_allocate false"
                              " --l1.size_bytes 512 --l1.ways 2",
                       dir + "/wt", wt),
            without);
  EXPECT_EQ(value(wt, "l1", "writebacks") + value(wt, "l1", "flush_writebacks"), 0);
  EXPECT_EQ(value(wt, "l1", "write_throughs") + value(wt, "l1", "write_arounds"), value(wt, "l1", "writes"));
}

INSTANTIATE_TEST_SUITE_P(L1, L1EveryKernel, ::testing::ValuesIn(kernel_names()),
                         [](const ::testing::TestParamInfo<std::string>& p) { return p.param; });

// Red and black sweeps alternate: each launch reads what the previous launches' cores wrote. A
// write-back L1 that kept its lines across launches would read stale values and not converge to
// the reference grids; one that kept dirty bytes past a launch would leave them out of memory.
class L1RbGs : public ::testing::TestWithParam<std::string> {};

TEST_P(L1RbGs, ConvergesToTheReferenceWithL1sOnTwoCores) {
  const par::isa::AssemblyResult a = par::isa::assemble_file(kRbGs);
  ASSERT_TRUE(a.ok()) << a.messages();
  const par::fullsystem::RbGsParams p = par::fullsystem::rb_gs_params(*a.program);
  const par::fullsystem::RbGsResult ref = par::fullsystem::rb_gs_reference(*a.program);
  ASSERT_TRUE(ref.converged);
  const std::string dir = temp_dir("l1_rbgs_" + std::to_string(std::hash<std::string>{}(GetParam())));
  const CliResult r = parsys("run " + kRbGs + " -q " + GetParam() + " --platform.cores 2 --l1.enabled --out " + dir +
                             " --dump-mem " + region(p.red, p.array_bytes()) + " --dump-mem " +
                             region(p.black, p.array_bytes()));
  ASSERT_EQ(r.status, 0) << r.out;
  std::string red(ref.red.size() * 8, '\0'), black(ref.black.size() * 8, '\0');
  std::memcpy(red.data(), ref.red.data(), red.size());
  std::memcpy(black.data(), ref.black.data(), black.size());
  EXPECT_EQ(read_file(dir + "/" + dump_file(p.red, p.array_bytes())), red);
  EXPECT_EQ(read_file(dir + "/" + dump_file(p.black, p.array_bytes())), black);
  const nlohmann::json s = read_json(dir + "/stats.json");
  EXPECT_EQ(s["run"]["launches"]["value"], 2 * ref.sweeps);
  EXPECT_GT(value(s, "l1", "hits"), 0);
  EXPECT_GT(value(s, "l1", "flush_writebacks"), 0);
}

INSTANTIATE_TEST_SUITE_P(L1, L1RbGs,
                         ::testing::Values("--config " + config_file("device-dram.ini"),
                                           "--config " + config_file("xd1000.ini")),
                         [](const ::testing::TestParamInfo<std::string>& p) {
                           return std::string(contains(p.param, "xd1000.ini") ? "InHostMemory" : "InDeviceDram");
                         });

TEST(L1Errors, BadConfigurationsAreRefusedWithOneMessageEach) {
  const std::string gs = par::kernels::kernel_path(par::kernels::kernel("gs"));
  const auto refused = [&](const std::string& args, const std::string& message) {
    const CliResult r = parsys("run " + gs + " " + args);
    EXPECT_EQ(r.status, 2) << args << "\n" << r.out;
    EXPECT_TRUE(contains(r.out, message)) << args << "\n" << r.out;
  };
  refused(kGlobal + " --l1.enabled --l1.size_bytes 2097152",
          "l1.size_bytes: 2097152 is larger than the largest L1 allowed (1048576 bytes; a larger cache belongs in "
          "the L2)");
  refused(kGlobal + " --l1.enabled --l1.line_bytes 48", "l1.line_bytes: 48 is not a power of two");
  refused(kGlobal + " --l1.enabled --l1.line_bytes 32",
          "l1.line_bytes: 32 is smaller than the core's line (core.line_bytes = 64): one core transaction would "
          "span several L1 lines");
  refused(kGlobal + " --l1.enabled --l1.ways 3",
          "l1.size_bytes: 16384 is not a multiple of l1.ways * l1.line_bytes = 192 (the ways do not divide the "
          "lines into whole sets)");
  refused("--l1.enabled", "l1.enabled: the cores have no global memory to cache (platform.memory = local)");
  refused(kGlobal + " --l1.enabled --l1.line_bytes 4", "--l1.line_bytes: '4' is out of range [8, 4096]");
}

TEST(L1Report, TheReportHasAnL1Line) {
  const CliResult r = parsys("run " + kernel_file("sva.par") + " " + kGlobal + " --l1.enabled");
  ASSERT_EQ(r.status, 0) << r.out;
  EXPECT_TRUE(contains(r.out, "  l1 ")) << r.out;
  EXPECT_TRUE(contains(r.out, " MSHR merges, ")) << r.out;
}

}  // namespace
