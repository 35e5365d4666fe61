// Helpers of the tests that run the timing engine over random request streams: a generator that
// gives the same stream on every platform and standard library, engine parameters from a preset,
// and the comparison of results.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>

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

// Every field of two results equal, and one result in words (for a test's failure message).
inline bool same(const BurstResult& a, const BurstResult& b) {
  return a.outcome == b.outcome && a.admitted == b.admitted && a.precharge == b.precharge &&
         a.activate == b.activate && a.column == b.column && a.data_start == b.data_start &&
         a.data_end == b.data_end && a.auto_precharge == b.auto_precharge;
}

inline std::string show(const BurstResult& b) {
  std::ostringstream s;
  s << to_string(b.outcome) << " admitted " << b.admitted << " pre " << b.precharge << " act " << b.activate
    << " col " << b.column << " data " << b.data_start << ".." << b.data_end << " auto-pre " << b.auto_precharge;
  return s.str();
}

}  // namespace par::dram::testing
