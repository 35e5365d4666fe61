// The counters of one L1 data cache: those of every cache model (cachekit::CacheCounters, with the port
// counters named port_conflicts, port_conflict_cycles) and the L1's own. Plain C++ (simkit).
#pragma once

#include <vector>

#include "par/cachekit/cache_counters.hpp"
#include "par/simkit/stats.hpp"

namespace par::l1 {

struct L1Stats : cachekit::CacheCounters {
  explicit L1Stats(simkit::StatGroup& group);

  // The counters that are summed over the cores' L1s (name, unit; in registration order).
  static std::vector<Summed> summed();

  simkit::Counter& write_throughs;
  simkit::Counter& evictions;
  simkit::Counter& flushes;
};

}  // namespace par::l1
