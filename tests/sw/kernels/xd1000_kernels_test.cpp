// The XD1000 study's kernels (sw/kernels/xd1000): the simulated output equals the C++ reference bit
// for bit, on the plain core and on the XD1000-like core (batch contexts, 53-cycle FPU, an FPU
// instruction waiting for the batch's previous one), in functional mode too; nothing else in the
// data changes; the per-thread mix is the one the study's ALU:TEX ratios rest on.
#include <gtest/gtest.h>

#include <cstring>
#include <map>

#include "kernel_test_support.hpp"
#include "xd1000_refs.hpp"

namespace par::kernels {
namespace {

using testing::final_image;
using testing::initial_image;
using testing::same_elements;

const isa::Program& program_of(const Xd1000Kernel& k) {
  static std::map<std::string, isa::Program> cache;
  const std::string key(k.name);
  auto it = cache.find(key);
  if (it == cache.end()) {
    const isa::AssemblyResult r = isa::assemble_file(xd1000_kernel_path(k));
    EXPECT_TRUE(r.ok()) << xd1000_kernel_path(k) << ":\n" << r.messages();
    it = cache.emplace(key, r.ok() ? *r.program : isa::Program{}).first;
  }
  return it->second;
}

struct RunSetup {
  const char* name;
  int contexts;
  bool xd1000_rules;
  core::RunMode mode;
};

void PrintTo(const RunSetup& s, std::ostream* os) { *os << s.name; }

core::CoreConfig config_of(const RunSetup& s) {
  core::CoreConfig cfg;
  cfg.lanes = 1;
  cfg.threads_per_lane = 4;
  cfg.contexts = s.contexts;
  if (s.xd1000_rules) {  // docs/core-timing.md §11.7
    cfg.fpu_latency = 53;
    cfg.context_ready = core::ContextReady::Complete;
    cfg.context_fu_wait = "fpu";
    cfg.output_buffers = 16;
    cfg.rob_size = 256;
  }
  return cfg;
}

const RunSetup kSetups[] = {
    {"plain", 1, false, core::RunMode::Timing},
    {"xd1000_C1", 1, true, core::RunMode::Timing},
    {"xd1000_C8", 8, true, core::RunMode::Timing},
    {"functional", 1, false, core::RunMode::Functional},
};

class Xd1000Kernels : public ::testing::TestWithParam<std::tuple<std::string, RunSetup>> {};

TEST_P(Xd1000Kernels, OutputEqualsReferenceAndNothingElseChanges) {
  const Xd1000Kernel& k = xd1000_kernel(std::get<0>(GetParam()));
  const RunSetup& s = std::get<1>(GetParam());
  const isa::Program& p = program_of(k);
  ASSERT_FALSE(p.code.empty());
  core::RunOptions options;
  options.mode = s.mode;
  const core::ProgramRun run = core::run_program(p, config_of(s), options);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.threads, k.threads);

  const std::uint64_t out = p.data_labels.at(std::string(k.output_label));
  const std::vector<std::uint64_t> expected = xd1000_reference(k, p);
  ASSERT_EQ(expected.size(), k.output_words);
  EXPECT_TRUE(same_elements(run.read(out, k.output_words, 8), expected));

  const auto [lo, hi] = p.data_extent();
  const std::vector<std::uint8_t> before = initial_image(p, lo, hi), after = final_image(run, lo, hi);
  std::size_t changed_outside = 0, changed_inside = 0;
  for (std::uint64_t a = lo; a < hi; ++a) {
    const bool inside = a >= out && a < out + 8 * k.output_words;
    if (before[a - lo] != after[a - lo]) ++(inside ? changed_inside : changed_outside);
  }
  EXPECT_EQ(changed_outside, 0u);
  // The reference really changes the output (a kernel that wrote nothing could not pass): most
  // output words are non-zero (the region starts zeroed, except SGEMM's C, which changes).
  EXPECT_GT(changed_inside, 0u);
  std::size_t nonzero = 0;
  for (std::uint64_t w : expected) nonzero += w != 0;
  EXPECT_GT(nonzero, k.output_words / 2);
}

TEST_P(Xd1000Kernels, PerThreadMix) {
  const Xd1000Kernel& k = xd1000_kernel(std::get<0>(GetParam()));
  const RunSetup& s = std::get<1>(GetParam());
  core::RunOptions options;
  options.mode = s.mode;
  const core::ProgramRun run = core::run_program(program_of(k), config_of(s), options);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.thread_instructions[static_cast<int>(isa::Unit::Fpu)], k.fpu * k.threads);
  EXPECT_EQ(run.stats.thread_instructions[static_cast<int>(isa::Unit::Ls)], k.ls * k.threads);
}

INSTANTIATE_TEST_SUITE_P(Xd1000, Xd1000Kernels,
                         ::testing::Combine(::testing::Values("matmatmult", "sgemm", "photon"),
                                            ::testing::ValuesIn(kSetups)),
                         [](const auto& param_info) {
                           return std::get<0>(param_info.param) + "_" + std::get<1>(param_info.param).name;
                         });

// The mixes behind the published ALU:TEX ratios (docs/published-results.md §9.4).
TEST(Xd1000KernelTable, AluTexRatios) {
  EXPECT_DOUBLE_EQ(static_cast<double>(xd1000_kernel("matmatmult").fpu_per_iteration) /
                       static_cast<double>(xd1000_kernel("matmatmult").ls_per_iteration), 2.25);
  EXPECT_DOUBLE_EQ(static_cast<double>(xd1000_kernel("sgemm").fpu_per_iteration) /
                       static_cast<double>(xd1000_kernel("sgemm").ls_per_iteration), 2.5);
  EXPECT_DOUBLE_EQ(static_cast<double>(xd1000_kernel("photon").fpu_per_iteration) /
                       static_cast<double>(xd1000_kernel("photon").ls_per_iteration), 4.0);
  EXPECT_THROW(xd1000_kernel("nosuch"), std::out_of_range);
}

}  // namespace
}  // namespace par::kernels
