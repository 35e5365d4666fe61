// The timing-rule variants of the core README (core.output_buffer_release, rob_allocation,
// rob_release, commit_order, store_output_buffer, commit_per_fu, frontend_latency): they change
// timing only, the relaxing ones never make a kernel slower than the published rules, and where
// they matter they change cycles by the documented amount.
#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "core_test_support.hpp"

namespace par::core {
namespace {

using testing::kernel;
using testing::kKernels;

struct Variant {
  const char* name;
  std::function<void(CoreConfig&)> apply;
};

const std::vector<Variant>& relaxations() {
  static const std::vector<Variant> v = {
      {"output_buffer_release=complete", [](CoreConfig& c) { c.output_buffer_release = OutputBufferRelease::Complete; }},
      {"rob_allocation=issue", [](CoreConfig& c) { c.rob_allocation = RobAllocation::Issue; }},
      {"rob_release=complete", [](CoreConfig& c) { c.rob_release = RobRelease::Complete; }},
      {"commit_order=per_fu", [](CoreConfig& c) { c.commit_order = CommitOrder::PerFu; }},
      {"store_output_buffer=false", [](CoreConfig& c) { c.store_uses_output_buffer = false; }},
      {"commit_per_fu=2", [](CoreConfig& c) { c.commit_per_fu = 2; }},
  };
  return v;
}

ProgramRun run(const std::string& k, int T, const std::function<void(CoreConfig&)>& change = {}) {
  CoreConfig cfg = testing::config(1, T);
  if (change) change(cfg);
  ProgramRun r = run_file(kernel(k), cfg);
  EXPECT_TRUE(r.ok) << k << ": " << r.error;
  return r;
}

TEST(TimingVariants, RelaxationsChangeTimingOnlyAndNeverSlowAKernelDown) {
  for (const char* k : kKernels) {
    for (int T : {1, 2, 4, 8}) {
      const ProgramRun base = run(k, T);
      const isa::Program program = *isa::assemble_file(kernel(k)).program;
      const auto [lo, hi] = program.data_extent();
      const std::vector<std::uint64_t> base_mem = base.read(lo, (hi - lo) / 8);
      for (const Variant& v : relaxations()) {
        const ProgramRun r = run(k, T, v.apply);
        EXPECT_LE(r.stats.cycles, base.stats.cycles) << k << " T=" << T << " " << v.name;
        EXPECT_EQ(r.read(lo, (hi - lo) / 8), base_mem) << k << " T=" << T << " " << v.name;
        EXPECT_EQ(r.stats.thread_instructions, base.stats.thread_instructions) << k << " " << v.name;
      }
    }
  }
}

TEST(TimingVariants, StoresHoldingOutputBuffersCauseRgbCmykStalls) {
  // RGB-CMYK's four end-of-round stores wait for their data while holding an LS output buffer;
  // the next round's loads wait behind them (T + 1 cycles per round at T = 4). Freeing output
  // buffers at write-back, committing per FU, or giving stores no output buffer removes the
  // stall: 45 -> 43 cycles per round over 320 rounds.
  EXPECT_EQ(run("rgb_cmyk", 4).stats.cycles, 14404);
  for (const char* v : {"output_buffer_release=complete", "commit_order=per_fu", "store_output_buffer=false"}) {
    for (const Variant& var : relaxations()) {
      if (std::string(var.name) == v) {
        EXPECT_EQ(run("rgb_cmyk", 4, var.apply).stats.cycles, 13764) << v;
      }
    }
  }
}

TEST(TimingVariants, FrontendLatencyAddsACyclePerDependentRound) {
  // SVA at T = 2 is bound by its FPU chain: one more cycle between dispatch and issue costs one
  // cycle in each of its 640 rounds.
  const auto one = [](CoreConfig& c) { c.frontend_latency = 1; };
  EXPECT_EQ(run("sva", 2).stats.cycles, 5126);
  EXPECT_EQ(run("sva", 2, one).stats.cycles, 5126 + 640);
}

TEST(TimingVariants, QueueHeldUntilCommitAndStoresWaitingForDataAreSlower) {
  for (const char* k : kKernels) {
    const std::int64_t base = run(k, 2).stats.cycles;
    EXPECT_GE(run(k, 2, [](CoreConfig& c) { c.queue_release = QueueRelease::Commit; }).stats.cycles, base) << k;
    EXPECT_GE(run(k, 2, [](CoreConfig& c) { c.store_issue = StoreIssue::AllOperands; }).stats.cycles, base) << k;
  }
}

}  // namespace
}  // namespace par::core
