// The counters every cache model of the project has (an L2 bank, a core's L1), registered in
// the cache's statistics group. Plain C++ (simkit).
#pragma once

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
};

}  // namespace par::cachekit
