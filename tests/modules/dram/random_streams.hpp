// Helpers of the tests that run the timing engine over random request streams: a generator that
// gives the same stream on every platform and standard library, and engine parameters from a preset.
#pragma once

#include <cstdint>

#include "dram_config.hpp"
#include "dram_timing.hpp"

namespace par::dram::testing {

// splitmix64
struct SplitMix {
  std::uint64_t state;
  std::uint64_t next() {
    std::uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  std::uint64_t below(std::uint64_t n) { return next() % n; }
};

inline EngineParams preset_engine(Preset preset, unsigned channels, unsigned ranks, Scheduler s, PagePolicy page) {
  DramConfig c;
  c.preset = preset;
  c.channels = channels;
  c.ranks = ranks;
  c.scheduler = s;
  c.page_policy = page;
  return engine_params(c.resolved());
}

}  // namespace par::dram::testing
