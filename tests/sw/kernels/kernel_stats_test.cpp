// The statistics code against the published numbers (docs/published-results.md §6.1): CoreStats fed with
// the published cycle counts and the §2 mixes reproduces the recomputed columns of §4 (four
// decimals) and, rounded half up to two decimals, the printed values of Tables 2-8 (except the
// printing quirks of §3).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core_stats.hpp"
#include "kernel_refs.hpp"

namespace par::kernels {
namespace {

// One row of the §4 table: T, rounds, cycles, cycles/round, constant, bound, class, IPC,
// IPC with CMP, FPU throughput, ALU %, L/S %.
struct RecomputedRow {
  const char* kernel;
  int t;
  std::int64_t rounds, cycles, per_round, constant, bound;
  char cls;
  double ipc, ipc_cmp, fpu, alu_pct, ls_pct;
};

const RecomputedRow kSection4[] = {
    {"dmmm", 1, 1280, 6406403, 5005, 3, 5005, 'F', 0.9998, 0.9998, 0.2000, 40.000, 39.980},
    {"dmmm", 2, 640, 3203204, 5005, 4, 5005, 'F', 1.9996, 1.9996, 0.4000, 80.000, 79.960},
    {"dmmm", 4, 320, 2562562, 8008, 2, 8008, 'U', 2.4995, 2.4995, 0.5000, 100.000, 99.950},
    {"dmmm", 8, 160, 2562562, 16016, 2, 16016, 'U', 2.4995, 2.4995, 0.5000, 100.000, 99.950},
    {"jim", 1, 640, 3279365, 5124, 5, 5124, 'F', 0.8749, 0.9998, 0.2500, 25.000, 37.490},
    {"jim", 2, 320, 1639686, 5124, 6, 5124, 'F', 1.7498, 1.9996, 0.5000, 50.000, 74.980},
    {"jim", 4, 160, 1229448, 7684, 8, 7684, 'U', 2.3337, 2.6668, 0.6668, 66.684, 99.999},
    {"jim", 8, 80, 1229448, 15368, 8, 15368, 'U', 2.3337, 2.6668, 0.6668, 66.684, 99.999},
    {"gs", 1, 1280, 28165, 22, 5, 22, 'F', 0.9998, 0.9998, 0.3636, 36.357, 27.268},
    {"gs", 2, 640, 14727, 23, 7, 22, 'D', 1.9121, 1.9121, 0.6953, 69.532, 52.149},
    {"gs", 4, 320, 10248, 32, 8, 32, 'U', 2.7479, 2.7479, 0.9992, 99.922, 74.941},
    {"gs", 8, 160, 10248, 64, 8, 64, 'U', 2.7479, 2.7479, 0.9992, 99.922, 74.941},
    {"rgb_yiq", 1, 1280, 34568, 27, 8, 23, 'D', 0.8517, 0.8517, 0.4814, 14.811, 22.217},
    {"rgb_yiq", 2, 640, 22407, 35, 7, 26, 'D', 1.3139, 1.3139, 0.7426, 22.850, 34.275},
    {"rgb_yiq", 4, 320, 16644, 52, 4, 52, 'U', 1.7688, 1.7688, 0.9998, 30.762, 46.143},
    {"rgb_yiq", 8, 160, 16644, 104, 4, 104, 'U', 1.7688, 1.7688, 0.9998, 30.762, 46.143},
    {"rgb_cmyk", 1, 1280, 21762, 17, 2, 17, 'F', 0.9999, 0.9999, 0.0000, 58.818, 41.173},
    {"rgb_cmyk", 2, 640, 14724, 23, 4, 20, 'D', 1.4779, 1.4779, 0.0000, 86.933, 60.853},
    {"rgb_cmyk", 4, 320, 14405, 45, 5, 40, 'D', 1.5106, 1.5106, 0.0000, 88.858, 62.201},
    {"rgb_cmyk", 8, 160, 14249, 89, 9, 80, 'D', 1.5271, 1.5271, 0.0000, 89.831, 62.882},
    {"hpf", 1, 1280, 39684, 31, 4, 31, 'F', 0.9999, 0.9999, 0.2903, 38.706, 32.255},
    {"hpf", 2, 640, 19845, 31, 5, 31, 'F', 1.9995, 1.9995, 0.5805, 77.400, 64.500},
    {"hpf", 4, 320, 15364, 48, 4, 48, 'U', 2.5827, 2.5827, 0.7498, 99.974, 83.312},
    {"hpf", 8, 160, 15364, 96, 4, 96, 'U', 2.5827, 2.5827, 0.7498, 99.974, 83.312},
    {"sva", 1, 1280, 8967, 7, 7, 7, 'F', 0.9992, 0.9992, 0.4282, 14.275, 42.824},
    {"sva", 2, 640, 5128, 8, 8, 7, 'D', 1.7473, 1.7473, 0.7488, 24.961, 74.883},
    {"sva", 4, 320, 3848, 12, 8, 12, 'U', 2.3285, 2.3285, 0.9979, 33.264, 99.792},
    {"sva", 8, 160, 3847, 24, 7, 24, 'U', 2.3291, 2.3291, 0.9982, 33.273, 99.818},
};

// JIM's compare-unit utilisation (§4, below the table), T = 1, 2, 4, 8.
const double kJimCmpPercent[] = {12.490, 24.980, 33.316, 33.316};

// CoreStats as a single-lane run of kernel `k` with T slots and C cycles would have them.
core::CoreStats published_stats(const KernelInfo& k, int t, std::int64_t cycles) {
  core::CoreStats s;
  s.lanes = 1;
  s.threads_per_lane = t;
  s.rob_size = 8;
  s.cycles = cycles;
  s.threads = k.threads;
  s.rounds = k.threads / t;
  const std::int64_t per_thread[isa::kBackendUnits] = {k.mix.alu, k.mix.fpu, k.mix.ls, k.mix.cmp};
  for (int u = 0; u < isa::kBackendUnits; ++u) {
    s.instructions[static_cast<std::size_t>(u)] = per_thread[u] * s.rounds;      // once per round
    s.thread_instructions[static_cast<std::size_t>(u)] = per_thread[u] * k.threads;
    s.qualified_thread_instructions[static_cast<std::size_t>(u)] = per_thread[u] * k.threads;
  }
  s.control[static_cast<int>(core::ControlKind::Loop)] = k.mix.ctl * s.rounds;
  s.fetched = k.mix.fetched() * s.rounds;
  return s;
}

int table_index(int t) {
  return static_cast<int>(std::find(kPublishedThreadsPerLane.begin(), kPublishedThreadsPerLane.end(), t) -
                          kPublishedThreadsPerLane.begin());
}

// Rounds half up to `digits` decimals (the convention of the 2011 tables).
double round_half_up(double v, int digits) {
  const double scale = std::pow(10.0, digits);
  return std::floor(v * scale + 0.5 + 1e-9) / scale;
}

// |v - table| within half a unit of the table's last digit.
::testing::AssertionResult matches_digits(double v, double table, int digits) {
  const double half = 0.5 * std::pow(10.0, -digits) + 1e-9;
  if (std::fabs(v - table) <= half) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << v << " does not round to " << table << " (" << digits << " decimals)";
}

TEST(PublishedStatistics, KernelTableAgreesWithSection4) {
  for (const RecomputedRow& r : kSection4) {
    const KernelInfo& k = kernel(r.kernel);
    const PublishedRow& pub = k.published[static_cast<std::size_t>(table_index(r.t))];
    SCOPED_TRACE(std::string(r.kernel) + " T=" + std::to_string(r.t));
    EXPECT_EQ(pub.threads_per_lane, r.t);
    EXPECT_EQ(pub.cycles, r.cycles);
    EXPECT_EQ(r.rounds, k.threads / r.t);
    EXPECT_EQ(r.cycles, r.rounds * r.per_round + r.constant);
    EXPECT_EQ(r.bound, std::max(k.mix.fetched(), r.t * k.mix.busiest()));
    // Row class: fetch-bound, FU-bound or dependency stalls.
    const char cls = r.per_round == r.bound ? (r.bound == k.mix.fetched() ? 'F' : 'U') : 'D';
    EXPECT_EQ(cls, r.cls);
  }
}

TEST(PublishedStatistics, CoreStatsReproducesRecomputedColumns) {
  int jim_rows = 0;
  for (const RecomputedRow& r : kSection4) {
    const KernelInfo& k = kernel(r.kernel);
    SCOPED_TRACE(std::string(r.kernel) + " T=" + std::to_string(r.t));
    const core::CoreStats s = published_stats(k, r.t, r.cycles);
    EXPECT_TRUE(matches_digits(s.ipc(), r.ipc, 4));
    EXPECT_TRUE(matches_digits(s.ipc_with_cmp(), r.ipc_cmp, 4));
    EXPECT_TRUE(matches_digits(s.fpu_throughput(), r.fpu, 4));
    EXPECT_TRUE(matches_digits(100 * s.utilization(isa::Unit::Alu), r.alu_pct, 3));
    EXPECT_TRUE(matches_digits(100 * s.utilization(isa::Unit::Ls), r.ls_pct, 3));
    // Every slot is stepped through the FU: utilisation = thread-instructions / C for full rounds.
    EXPECT_DOUBLE_EQ(s.utilization(isa::Unit::Fpu), s.fpu_throughput());
    if (k.name == "jim") {
      EXPECT_TRUE(matches_digits(100 * s.utilization(isa::Unit::Cmp), kJimCmpPercent[jim_rows++], 3));
    } else {
      EXPECT_EQ(s.utilization(isa::Unit::Cmp), 0.0);
      EXPECT_EQ(s.ipc(), s.ipc_with_cmp());
    }
  }
  EXPECT_EQ(jim_rows, 4);
}

TEST(PublishedStatistics, CoreStatsRoundsToThePrintedTables) {
  int quirks = 0;
  for (const KernelInfo& k : kernel_table()) {
    for (const PublishedRow& pub : k.published) {
      SCOPED_TRACE(std::string(k.title) + " T=" + std::to_string(pub.threads_per_lane));
      const core::CoreStats s = published_stats(k, pub.threads_per_lane, pub.cycles);
      const double ipc = round_half_up(s.ipc(), 2);
      if (k.name == "rgb_yiq" && pub.threads_per_lane == 2) {
        // Printing quirk: the thesis prints "1.3" although the definition gives 1.3139.
        EXPECT_DOUBLE_EQ(ipc, 1.31);
        EXPECT_DOUBLE_EQ(pub.ipc, 1.30);
        ++quirks;
      } else {
        EXPECT_DOUBLE_EQ(ipc, pub.ipc);
      }
      // RGB-CMYK prints its FPU throughput as "0.00%" and JIM its L/S utilisation of 99.999% as
      // "100%": both quirks are in the notation only, the rounded numbers agree.
      EXPECT_DOUBLE_EQ(round_half_up(s.fpu_throughput(), 2), pub.fpu_throughput);
      EXPECT_DOUBLE_EQ(round_half_up(100 * s.utilization(isa::Unit::Alu), 2), pub.alu_percent);
      EXPECT_DOUBLE_EQ(round_half_up(100 * s.utilization(isa::Unit::Ls), 2), pub.ls_percent);
      EXPECT_DOUBLE_EQ(round_half_up(100 * s.utilization(isa::Unit::Cmp), 2), pub.cmp_percent);
    }
  }
  EXPECT_EQ(quirks, 1);
}

// The statistics code must be able to tell the rows apart: one cycle more changes IPC, and the
// mixes are not interchangeable.
TEST(PublishedStatistics, MetricsFollowTheCycleCount) {
  const KernelInfo& k = kernel("sva");
  const core::CoreStats a = published_stats(k, 4, 3848);
  const core::CoreStats b = published_stats(k, 4, 3847);
  EXPECT_GT(b.ipc(), a.ipc());
  EXPECT_FALSE(matches_digits(published_stats(kernel("hpf"), 4, 3848).ipc(), 2.3285, 4));
}

}  // namespace
}  // namespace par::kernels
