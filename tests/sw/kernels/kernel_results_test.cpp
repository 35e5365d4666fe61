// Functional results of the seven reference kernels: the simulated memory equals the C++ reference
// in timing mode at several core shapes and in functional mode, nothing outside the output region
// changes, and timing-mode memory equals functional-mode memory byte for byte.
#include <gtest/gtest.h>

#include <cstring>
#include <ostream>

#include "kernel_test_support.hpp"

namespace par::kernels {
namespace {

using testing::kernel_names;
using testing::kernel_program;
using testing::kernel_run;
using testing::read_output_bits;
using testing::final_image;
using testing::initial_image;
using testing::same_elements;

struct Shape {
  const char* name;
  int lanes;
  int threads_per_lane;
  core::RunMode mode;
};

void PrintTo(const Shape& s, std::ostream* os) { *os << s.name; }

const Shape kShapes[] = {
    {"L1T1", 1, 1, core::RunMode::Timing},
    {"L1T4", 1, 4, core::RunMode::Timing},
    {"L2T2", 2, 2, core::RunMode::Timing},
    {"L4T8", 4, 8, core::RunMode::Timing},
    {"functional", 1, 1, core::RunMode::Functional},
};

// Bytes outside [out_lo, out_hi) that differ between the two images.
std::size_t changed_outside(const std::vector<std::uint8_t>& a, const std::vector<std::uint8_t>& b,
                            std::uint64_t lo, std::uint64_t out_lo, std::uint64_t out_hi) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const std::uint64_t addr = lo + i;
    if (addr >= out_lo && addr < out_hi) continue;
    if (a[i] != b[i]) ++n;
  }
  return n;
}

class KernelResults : public ::testing::TestWithParam<std::tuple<std::string, Shape>> {};

TEST_P(KernelResults, MemoryEqualsReference) {
  const KernelInfo& k = kernel(std::get<0>(GetParam()));
  const Shape& s = std::get<1>(GetParam());
  const isa::Program& p = kernel_program(k);
  ASSERT_FALSE(p.code.empty());
  const core::ProgramRun& run = kernel_run(k, s.lanes, s.threads_per_lane, s.mode);
  ASSERT_TRUE(run.ok) << run.error;
  EXPECT_EQ(run.stats.threads, k.threads);

  const std::vector<std::uint64_t> expected = reference_output_bits(k, p);
  EXPECT_TRUE(same_elements(read_output_bits(run, k, p), expected)) << k.name << " at " << s.name;

  // Nothing else in the data extent changes.
  const auto [lo, hi] = p.data_extent();
  const std::uint64_t out_lo = p.data_labels.at(std::string(k.output_label));
  const std::uint64_t out_hi = out_lo + k.output_bytes();
  EXPECT_EQ(changed_outside(initial_image(p, lo, hi), final_image(run, lo, hi), lo, out_lo, out_hi), 0u);
}

std::string shape_param_name(const ::testing::TestParamInfo<std::tuple<std::string, Shape>>& info) {
  return std::get<0>(info.param) + "_" + std::get<1>(info.param).name;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelResults,
                         ::testing::Combine(::testing::ValuesIn(kernel_names()), ::testing::ValuesIn(kShapes)),
                         shape_param_name);

class KernelModes : public ::testing::TestWithParam<std::string> {};

// Timing mode and functional mode leave the same bytes in the whole data extent, at every shape.
TEST_P(KernelModes, TimingMemoryEqualsFunctionalMemory) {
  const KernelInfo& k = kernel(GetParam());
  const isa::Program& p = kernel_program(k);
  const auto [lo, hi] = p.data_extent();
  const core::ProgramRun& functional = kernel_run(k, 1, 1, core::RunMode::Functional);
  ASSERT_TRUE(functional.ok) << functional.error;
  const std::vector<std::uint8_t> want = final_image(functional, lo, hi);
  for (const Shape& s : kShapes) {
    if (s.mode != core::RunMode::Timing) continue;
    const core::ProgramRun& timed = kernel_run(k, s.lanes, s.threads_per_lane, s.mode);
    ASSERT_TRUE(timed.ok) << timed.error;
    EXPECT_TRUE(final_image(timed, lo, hi) == want) << k.name << " at " << s.name;
    EXPECT_GT(timed.stats.cycles, 0);
  }
}

// The reference really computes something: most output elements differ from their initial value,
// so a kernel that wrote nothing (or wrote the wrong region) could not pass MemoryEqualsReference.
TEST_P(KernelModes, ReferenceChangesTheOutput) {
  const KernelInfo& k = kernel(GetParam());
  const isa::Program& p = kernel_program(k);
  const std::vector<std::uint64_t> expected = reference_output_bits(k, p);
  const std::uint64_t out = p.data_labels.at(std::string(k.output_label));
  const int size = element_size(k.output_type);
  ProgramData d(p);
  std::size_t changed = 0;
  for (std::size_t i = 0; i < expected.size(); ++i) {
    if (d.read(out + i * static_cast<std::uint64_t>(size), size) != expected[i]) ++changed;
  }
  EXPECT_GE(changed, static_cast<std::size_t>(k.threads) / 2) << k.name;
}

INSTANTIATE_TEST_SUITE_P(AllKernels, KernelModes, ::testing::ValuesIn(kernel_names()),
                         testing::kernel_param_name);

// --- GS: the black phase and a full red-black sweep ----------------------------------------------

// The GS packet with the pointers of a black phase: own colour gs_b, other colour gs_r.
isa::Program gs_black_packet(const isa::Program& red) {
  isa::Program p = red;
  p.start = p.code_labels.at("gs_black");
  p.inherited[4] = p.data_labels.at("gs_b1");
  p.inherited[5] = p.data_labels.at("gs_r2");
  p.inherited[7] = p.data_labels.at("gs_r0");
  p.inherited[11] = p.data_labels.at("gs_r1");
  return p;
}

std::vector<std::uint64_t> f64_bits(const std::vector<double>& v) {
  std::vector<std::uint64_t> out(v.size());
  std::memcpy(out.data(), v.data(), v.size() * sizeof(double));
  return out;
}

TEST(GsPhases, BlackPhaseEqualsReference) {
  const isa::Program& red = kernel_program(kernel("gs"));
  const isa::Program black = gs_black_packet(red);
  const GsGrids want = gs_reference(red, GsPhase::Black);
  const std::size_t n = want.black.size();
  for (const Shape& s : kShapes) {
    const core::ProgramRun run = testing::run_uncached(black, s.lanes, s.threads_per_lane, s.mode);
    ASSERT_TRUE(run.ok) << run.error;
    EXPECT_TRUE(same_elements(testing::read_bits(run, red.data_labels.at("gs_b0"), n, 8), f64_bits(want.black)))
        << s.name;
    EXPECT_TRUE(same_elements(testing::read_bits(run, red.data_labels.at("gs_r0"), n, 8), f64_bits(want.red)))
        << s.name;
    if (s.mode == core::RunMode::Timing && s.lanes == 1 && s.threads_per_lane == 4) {
      EXPECT_EQ(run.stats.cycles, kernel_run(kernel("gs"), 1, 4).stats.cycles);  // same timing as red
    }
  }
}

TEST(GsPhases, RedThenBlackIsOneSorSweep) {
  const isa::Program& red = kernel_program(kernel("gs"));
  const core::ProgramRun first = testing::run_uncached(red, 1, 4, core::RunMode::Timing);
  ASSERT_TRUE(first.ok) << first.error;
  // The black packet starts from the memory the red packet left.
  isa::Program black = gs_black_packet(red);
  const auto [lo, hi] = red.data_extent();
  black.data.clear();
  black.data.push_back(isa::DataSection{lo, final_image(first, lo, hi)});
  const core::ProgramRun second = testing::run_uncached(black, 2, 4, core::RunMode::Timing);
  ASSERT_TRUE(second.ok) << second.error;

  const GsGrids want = gs_reference(red, GsPhase::RedBlack);
  const std::size_t n = want.red.size();
  EXPECT_TRUE(same_elements(testing::read_bits(second, red.data_labels.at("gs_r0"), n, 8), f64_bits(want.red)));
  EXPECT_TRUE(same_elements(testing::read_bits(second, red.data_labels.at("gs_b0"), n, 8), f64_bits(want.black)));
  // The sweep changed both colours (it is not two copies of the red phase).
  EXPECT_NE(f64_bits(want.black), f64_bits(gs_reference(red, GsPhase::Red).black));
}

}  // namespace
}  // namespace par::kernels
