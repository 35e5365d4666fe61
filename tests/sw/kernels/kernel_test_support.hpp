// Helpers for the kernel tests: assemble a reference kernel once, run it (runs are cached per
// kernel, shape and mode, so the suites share them when they run in one process), read its output
// region and compare it with the C++ reference.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <map>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "kernel_refs.hpp"
#include "par/isa/assembler.hpp"
#include "program_runner.hpp"

namespace par::kernels::testing {

inline const isa::Program& kernel_program(const KernelInfo& k) {
  static std::map<std::string, isa::Program> cache;
  const std::string key(k.name);
  auto it = cache.find(key);
  if (it == cache.end()) {
    const isa::AssemblyResult r = isa::assemble_file(kernel_path(k));
    if (!r.ok()) {
      ADD_FAILURE() << kernel_path(k) << ":\n" << r.messages();
      it = cache.emplace(key, isa::Program{}).first;
    } else {
      it = cache.emplace(key, *r.program).first;
    }
  }
  return it->second;
}

inline core::CoreConfig shape(int lanes, int threads_per_lane) {
  core::CoreConfig cfg;  // all other options: the 2011 model (docs/published-results.md §1)
  cfg.lanes = lanes;
  cfg.threads_per_lane = threads_per_lane;
  return cfg;
}

inline core::ProgramRun run_uncached(const isa::Program& program, int lanes, int threads_per_lane,
                                     core::RunMode mode) {
  core::RunOptions options;
  options.mode = mode;
  core::ProgramRun run = core::run_program(program, shape(lanes, threads_per_lane), options);
  EXPECT_TRUE(run.ok) << run.error;
  return run;
}

// The run of kernel `k` on a core with `lanes` x `threads_per_lane` slots (cached).
inline const core::ProgramRun& kernel_run(const KernelInfo& k, int lanes, int threads_per_lane,
                                          core::RunMode mode = core::RunMode::Timing) {
  using Key = std::tuple<std::string, int, int, int>;
  static std::map<Key, core::ProgramRun> cache;
  const Key key{std::string(k.name), lanes, threads_per_lane, static_cast<int>(mode)};
  auto it = cache.find(key);
  if (it == cache.end()) {
    it = cache.emplace(key, run_uncached(kernel_program(k), lanes, threads_per_lane, mode)).first;
  }
  return it->second;
}

// `count` elements of `size` bytes at `address` of the final memory (zero-extended).
inline std::vector<std::uint64_t> read_bits(const core::ProgramRun& run, std::uint64_t address,
                                            std::size_t count, int size) {
  if (!run.ok || !run.memory) return {};
  return run.read(address, count, size);
}

// The data bytes [lo, hi) as loaded before the run (gaps between sections read as zero).
inline std::vector<std::uint8_t> initial_image(const isa::Program& p, std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint8_t> image(hi - lo, 0);
  for (const isa::DataSection& s : p.data) {
    if (!s.bytes.empty()) std::memcpy(&image[s.address - lo], s.bytes.data(), s.bytes.size());
  }
  return image;
}

// The bytes [lo, hi) of the final memory.
inline std::vector<std::uint8_t> final_image(const core::ProgramRun& run, std::uint64_t lo, std::uint64_t hi) {
  std::vector<std::uint8_t> image(hi - lo, 0);
  if (run.ok && run.memory) run.memory->read_block(lo, image.data(), image.size());
  return image;
}

inline std::vector<std::uint64_t> read_output_bits(const core::ProgramRun& run, const KernelInfo& k,
                                                   const isa::Program& program) {
  const auto it = program.data_labels.find(std::string(k.output_label));
  if (it == program.data_labels.end()) {
    ADD_FAILURE() << "no data label " << k.output_label;
    return {};
  }
  return read_bits(run, it->second, k.output_count, element_size(k.output_type));
}

// Equality of two element lists; on a difference names how many elements differ and the first few.
inline ::testing::AssertionResult same_elements(const std::vector<std::uint64_t>& actual,
                                                const std::vector<std::uint64_t>& expected) {
  if (actual.size() != expected.size()) {
    return ::testing::AssertionFailure() << "size " << actual.size() << ", expected " << expected.size();
  }
  std::size_t bad = 0;
  std::ostringstream first;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] == expected[i]) continue;
    if (bad < 5) first << "\n  [" << i << "] 0x" << std::hex << actual[i] << ", expected 0x" << expected[i] << std::dec;
    ++bad;
  }
  if (bad == 0) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << bad << " of " << actual.size() << " elements differ:" << first.str();
}

inline std::string kernel_param_name(const ::testing::TestParamInfo<std::string>& info) { return info.param; }

inline std::vector<std::string> kernel_names() {
  std::vector<std::string> names;
  for (const KernelInfo& k : kernel_table()) names.emplace_back(k.name);
  return names;
}

}  // namespace par::kernels::testing
