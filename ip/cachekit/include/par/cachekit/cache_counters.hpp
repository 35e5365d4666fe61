// The counters every cache model of the project has (an L2 bank, a core's L1), registered in
// the cache's statistics group. Plain C++ (simkit).
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "par/simkit/stats.hpp"

namespace par::cachekit {

struct CacheCounters {
  // The names in the descriptions: `what` is the cache ("bank", "L1"), `next` the level below it
  // ("DRAM", "the next level"); `port` names the access-port counters (`<port>_conflicts`,
  // `<port>_conflict_cycles`).
  CacheCounters(simkit::StatGroup& group, const std::string& what, const std::string& next, const std::string& port);

  // The counters that a parent sums over its caches (name, unit; in registration order).
  struct Summed {
    std::string name;
    const char* unit;
  };
  static std::vector<Summed> summed(const std::string& port);

  // accesses = hits + misses + mshr_merges = reads + writes
  simkit::Counter& accesses;
  simkit::Counter& reads;
  simkit::Counter& writes;
  simkit::Counter& hits;
  simkit::Counter& misses;
  simkit::Counter& mshr_merges;
  simkit::Counter& fills;
  simkit::Counter& write_validates;
  simkit::Counter& write_arounds;
  simkit::Counter& writebacks;
  simkit::Counter& flush_writebacks;
  simkit::Counter& mshr_full_stalls;
  simkit::Counter& mshr_stall_cycles;
  simkit::Counter& port_conflicts;
  simkit::Counter& port_conflict_cycles;
  simkit::Counter& set_stalls;
  simkit::Counter& set_stall_cycles;
  simkit::Counter& errors;
  simkit::Distribution& latency;

  // The latency distribution's buckets (Buckets::log2): [0, 1), then [2^(k-1), 2^k) for
  // k = 1 .. kLatencyBuckets - 1.
  static constexpr std::size_t kLatencyBuckets = 14;
  // One access's latency in cycles into `latency`. Every access samples it and log2 bounds have
  // no grid (Distribution::locate would binary-search them): the bucket is read off the value's
  // binary exponent instead, exactly the one locate() gives.
  void sample_latency(double cycles) { latency.sample_at(cycles, latency_bucket(cycles)); }
  static std::size_t latency_bucket(double cycles) {
    constexpr double kTop = static_cast<double>(std::uint64_t{1} << (kLatencyBuckets - 1));
    if (cycles < 0) return simkit::Distribution::kUnderflow;
    if (!(cycles < kTop)) return simkit::Distribution::kOverflow;  // and NaN, as locate()
    if (cycles < 1) return 0;
    std::uint64_t bits = 0;
    std::memcpy(&bits, &cycles, sizeof bits);
    // A normal double in [2^e, 2^(e+1)) has the biased exponent e + 1023; its bucket is e + 1.
    return static_cast<std::size_t>((bits >> 52) & 0x7ff) - 1022;
  }
};

}  // namespace par::cachekit
