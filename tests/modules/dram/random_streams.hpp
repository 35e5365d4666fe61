// Helpers of the tests that run the timing engine over random request streams: a generator that
// gives the same stream on every platform and standard library, engine parameters from a preset,
// and the comparison of results.
#pragma once

#include <algorithm>
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

// A random request stream: arrivals up to `ahead` past a retire point that advances irregularly
// (sometimes in big steps, so that an engine forgets its history), few rows per bank (hits,
// conflicts and back-fills into old activations), a mix of reads and writes; its shape is drawn
// from the seed. Per request: advance(), and when it returns true retire every engine at now();
// then next().
class RandomStream {
 public:
  RandomStream(const EngineParams& p, std::uint64_t seed)
      : p_(p),
        seed_(seed),
        rnd_{seed},
        ahead_(static_cast<Tick>(50 + rnd_.below(3000))),
        rows_(1 + static_cast<unsigned>(rnd_.below(4))),
        writes_(static_cast<unsigned>(rnd_.below(60))),
        pace_(1 + static_cast<unsigned>(rnd_.below(40))) {}

  bool advance() {
    if (rnd_.below(8) != 0) return false;
    now_ += static_cast<Tick>(rnd_.below(static_cast<std::uint64_t>(p_.burst) * pace_));
    if (rnd_.below(50) == 0) now_ += p_.tREFI / 3;
    return true;
  }
  Tick now() const { return now_; }
  BurstRequest next() {
    BurstRequest r;
    r.channel = static_cast<unsigned>(rnd_.below(p_.channels));
    r.rank = static_cast<unsigned>(rnd_.below(p_.ranks));
    r.bank = static_cast<unsigned>(rnd_.below(std::min(p_.banks, 1u + static_cast<unsigned>(seed_ % p_.banks))));
    r.row = rnd_.below(rows_);
    r.op = rnd_.below(100) < writes_ ? Op::Write : Op::Read;
    r.arrival = now_ + static_cast<Tick>(rnd_.below(static_cast<std::uint64_t>(ahead_)));
    return r;
  }
  SplitMix& rnd() { return rnd_; }  // more draws from the same generator

 private:
  EngineParams p_;
  std::uint64_t seed_;
  SplitMix rnd_;
  Tick ahead_;
  unsigned rows_;
  unsigned writes_;
  unsigned pace_;
  Tick now_ = 0;
};

inline std::string show(const BurstRequest& r) {
  return "channel " + std::to_string(r.channel) + " rank " + std::to_string(r.rank) + " bank " +
         std::to_string(r.bank) + " row " + std::to_string(r.row) + (r.op == Op::Read ? " read" : " write") +
         " arrival " + std::to_string(r.arrival);
}

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
