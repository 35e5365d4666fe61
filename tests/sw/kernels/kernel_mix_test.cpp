// Per-thread instruction mix of the seven kernels, measured with the core's statistics, against the
// mixes of docs/published-results.md §2 (exact), and the packet headers against the kernel table.
#include <gtest/gtest.h>

#include "kernel_test_support.hpp"

namespace par::kernels {
namespace {

using testing::kernel_names;
using testing::kernel_program;
using testing::kernel_run;

constexpr int idx(isa::Unit u) { return static_cast<int>(u); }

std::int64_t control_total(const core::CoreStats& s) {
  std::int64_t n = 0;
  for (std::int64_t v : s.control) n += v;
  return n;
}

class KernelMixTest : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelMixTest, PacketHeaderMatchesTable) {
  const KernelInfo& k = kernel(GetParam());
  const isa::Program& p = kernel_program(k);
  EXPECT_EQ(p.kind, isa::ProgramKind::Packet);
  EXPECT_EQ(p.threads, k.threads);
  ASSERT_TRUE(p.code_labels.count(std::string(k.entry)));
  EXPECT_EQ(p.start, p.code_labels.at(std::string(k.entry)));
  EXPECT_TRUE(p.data_labels.count(std::string(k.output_label)));
  EXPECT_EQ(k.mix.fetched(), k.mix.alu + k.mix.fpu + k.mix.ls + k.mix.cmp + k.mix.ctl);
}

// Instructions per unit / threads equals the §2 mix exactly, at several shapes and in both modes.
TEST_P(KernelMixTest, PerThreadMixEqualsPublishedMix) {
  const KernelInfo& k = kernel(GetParam());
  struct Run {
    int lanes, tpl;
    core::RunMode mode;
  };
  for (const Run& r : {Run{1, 1, core::RunMode::Timing}, Run{1, 4, core::RunMode::Timing},
                       Run{2, 2, core::RunMode::Timing}, Run{1, 1, core::RunMode::Functional}}) {
    SCOPED_TRACE(std::to_string(r.lanes) + " lanes x " + std::to_string(r.tpl) +
                 (r.mode == core::RunMode::Timing ? " timing" : " functional"));
    const core::ProgramRun& run = kernel_run(k, r.lanes, r.tpl, r.mode);
    ASSERT_TRUE(run.ok) << run.error;
    const core::CoreStats& s = run.stats;
    const std::int64_t n = k.threads;
    ASSERT_EQ(s.threads, n);
    // All thread counts are multiples of L*T here, so every round is full.
    ASSERT_EQ(n % (r.lanes * r.tpl), 0);
    if (r.mode == core::RunMode::Timing) {
      EXPECT_EQ(s.rounds, n / (r.lanes * r.tpl));
    }

    EXPECT_EQ(s.thread_instructions[idx(isa::Unit::Alu)], k.mix.alu * n);
    EXPECT_EQ(s.thread_instructions[idx(isa::Unit::Fpu)], k.mix.fpu * n);
    EXPECT_EQ(s.thread_instructions[idx(isa::Unit::Ls)], k.mix.ls * n);
    EXPECT_EQ(s.thread_instructions[idx(isa::Unit::Cmp)], k.mix.cmp * n);
    if (r.mode == core::RunMode::Timing) {
      // Broadcast instructions are counted once per round: per-thread counts times the rounds.
      EXPECT_EQ(s.instructions[idx(isa::Unit::Alu)], k.mix.alu * s.rounds);
      EXPECT_EQ(s.instructions[idx(isa::Unit::Fpu)], k.mix.fpu * s.rounds);
      EXPECT_EQ(s.instructions[idx(isa::Unit::Ls)], k.mix.ls * s.rounds);
      EXPECT_EQ(s.instructions[idx(isa::Unit::Cmp)], k.mix.cmp * s.rounds);
      EXPECT_EQ(control_total(s), k.mix.ctl * s.rounds);
      EXPECT_EQ(s.control[static_cast<int>(core::ControlKind::Loop)], k.mix.ctl * s.rounds);
      EXPECT_EQ(s.fetched, k.mix.fetched() * s.rounds);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelMixTest, ::testing::ValuesIn(kernel_names()),
                         testing::kernel_param_name);

// JIM's compare really predicates: in the diagonal iteration the two FPU instructions and the
// load of c_j are disqualified, everywhere else only the load of c_j is.
TEST(KernelMix, JimPredicationSkipsTheDiagonal) {
  const KernelInfo& k = kernel("jim");
  const core::ProgramRun& run = kernel_run(k, 1, 4);
  ASSERT_TRUE(run.ok) << run.error;
  const std::int64_t n = k.threads;  // 640 unknowns, 640 iterations
  const auto& q = run.stats.qualified_thread_instructions;
  EXPECT_EQ(q[idx(isa::Unit::Fpu)], n * (2 * (n - 1) + 1));
  EXPECT_EQ(q[idx(isa::Unit::Ls)], n * (2 * n + 1 + 1));
  EXPECT_EQ(q[idx(isa::Unit::Alu)], n * (2 * n + 1));
  EXPECT_EQ(q[idx(isa::Unit::Cmp)], n * n);
}

}  // namespace
}  // namespace par::kernels
