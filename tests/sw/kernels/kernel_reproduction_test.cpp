// Reproduction of the published single-lane tables (docs/published-results.md §3, §6.3): every kernel at
// L = 1, T = 1, 2, 4, 8 with the 2011 configuration (all CoreConfig defaults) lands within the
// tolerance of the published cycle count, and its IPC, FPU throughput and utilisations follow
// within the same tolerance. The analytical lower bounds of §5 hold for every row.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <ostream>

#include "kernel_test_support.hpp"

namespace par::kernels {
namespace {

using testing::kernel_run;

double rel_error(double value, double reference) { return (value - reference) / reference; }

struct Row {
  std::string kernel;
  int index;  // into kPublishedThreadsPerLane
};

std::vector<Row> all_rows() {
  std::vector<Row> rows;
  for (const KernelInfo& k : kernel_table()) {
    for (int i = 0; i < 4; ++i) rows.push_back({std::string(k.name), i});
  }
  return rows;
}

void PrintTo(const Row& r, std::ostream* os) {
  *os << r.kernel << " T=" << kPublishedThreadsPerLane[static_cast<std::size_t>(r.index)];
}

class Reproduction : public ::testing::TestWithParam<Row> {};

TEST_P(Reproduction, CyclesAndMetricsWithinTolerance) {
  const KernelInfo& k = kernel(GetParam().kernel);
  const PublishedRow& pub = k.published[static_cast<std::size_t>(GetParam().index)];
  const int t = pub.threads_per_lane;
  const double tol = par::kernels::reproduction_tolerance(k, t);
  const core::ProgramRun& run = kernel_run(k, 1, t);
  ASSERT_TRUE(run.ok) << run.error;
  const core::CoreStats& s = run.stats;

  // Cycles.
  const double c = static_cast<double>(s.cycles);
  const double c_pub = static_cast<double>(pub.cycles);
  EXPECT_LE(std::fabs(rel_error(c, c_pub)), tol) << k.title << " T=" << t << ": " << s.cycles
                                                  << " cycles, published " << pub.cycles;

  // Metrics: against the values the published cycles give (§4), with the same tolerance ...
  const double n = static_cast<double>(k.threads);
  const double ipc_pub = static_cast<double>(k.mix.alu + k.mix.fpu + k.mix.ls) * n / c_pub;
  const double ipc_cmp_pub = static_cast<double>(k.mix.backend()) * n / c_pub;
  const double fpu_pub = static_cast<double>(k.mix.fpu) * n / c_pub;
  const double alu_pub = static_cast<double>(k.mix.alu) * n / c_pub;
  const double ls_pub = static_cast<double>(k.mix.ls) * n / c_pub;
  const double cmp_pub = static_cast<double>(k.mix.cmp) * n / c_pub;
  const auto near = [tol](double v, double ref) { return std::fabs(v - ref) <= tol * std::fabs(ref) + 1e-12; };
  EXPECT_PRED2(near, s.ipc(), ipc_pub);
  EXPECT_PRED2(near, s.ipc_with_cmp(), ipc_cmp_pub);
  EXPECT_PRED2(near, s.fpu_throughput(), fpu_pub);
  EXPECT_PRED2(near, s.utilization(isa::Unit::Alu), alu_pub);
  EXPECT_PRED2(near, s.utilization(isa::Unit::Ls), ls_pub);
  EXPECT_PRED2(near, s.utilization(isa::Unit::Cmp), cmp_pub);

  // ... and against the printed table (two decimals: add half a unit of the last printed digit).
  const auto printed = [tol](double v, double shown) { return std::fabs(v - shown) <= tol * std::fabs(shown) + 0.005 + 1e-9; };
  // RGB-YIQ T = 2: the thesis prints "1.3" for an IPC of 1.3139 (printing quirk, §3); use 1.31.
  const double shown_ipc = (k.name == "rgb_yiq" && t == 2) ? 1.31 : pub.ipc;
  EXPECT_PRED2(printed, s.ipc(), shown_ipc);
  EXPECT_PRED2(printed, s.fpu_throughput(), pub.fpu_throughput);
  EXPECT_PRED2(printed, 100 * s.utilization(isa::Unit::Alu), pub.alu_percent);
  EXPECT_PRED2(printed, 100 * s.utilization(isa::Unit::Ls), pub.ls_percent);
  EXPECT_PRED2(printed, 100 * s.utilization(isa::Unit::Cmp), pub.cmp_percent);

  // Analytical lower bounds (§5): cycles per round >= max(F, T max n_u, n_FPU (T + 3) / 2).
  const double rounds = static_cast<double>(s.rounds);
  const double bound = std::max({static_cast<double>(k.mix.fetched()), static_cast<double>(t * k.mix.busiest()),
                                 static_cast<double>(k.mix.fpu) * (t + 3) / 2.0});
  EXPECT_GE(c, rounds * bound) << k.title << " T=" << t;
}

std::string row_name(const ::testing::TestParamInfo<Row>& info) {
  return info.param.kernel + "_T" + std::to_string(kPublishedThreadsPerLane[static_cast<std::size_t>(info.param.index)]);
}

INSTANTIATE_TEST_SUITE_P(Tables2to8, Reproduction, ::testing::ValuesIn(all_rows()), row_name);

// Prints the measured table next to the published one (the runs are shared with the test above).
TEST(ReproductionSummary, PrintsMeasuredAgainstPublished) {
  std::printf("%-9s %2s %9s %9s %8s %6s %6s %7s %7s\n", "kernel", "T", "cycles", "published", "error%", "IPC",
              "FPU", "ALU%", "L/S%");
  for (const KernelInfo& k : kernel_table()) {
    for (const PublishedRow& pub : k.published) {
      const core::ProgramRun& run = kernel_run(k, 1, pub.threads_per_lane);
      ASSERT_TRUE(run.ok) << run.error;
      const core::CoreStats& s = run.stats;
      std::printf("%-9s %2d %9lld %9lld %+8.3f %6.2f %6.2f %7.2f %7.2f\n", std::string(k.title).c_str(),
                  pub.threads_per_lane, static_cast<long long>(s.cycles), static_cast<long long>(pub.cycles),
                  100 * rel_error(static_cast<double>(s.cycles), static_cast<double>(pub.cycles)), s.ipc(),
                  s.fpu_throughput(), 100 * s.utilization(isa::Unit::Alu), 100 * s.utilization(isa::Unit::Ls));
    }
  }
}

}  // namespace
}  // namespace par::kernels
