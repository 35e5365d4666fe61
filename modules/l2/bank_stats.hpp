// The counters of one L2 bank, registered in the bank's statistics group. Plain C++ (simkit).
#pragma once

#include <vector>

#include "par/simkit/stats.hpp"

namespace par::l2 {

struct BankStats {
  explicit BankStats(simkit::StatGroup& group);

  // The counters that the L2 wrapper sums over its banks (name, unit; in this order).
  struct Summed {
    const char* name;
    const char* unit;
  };
  static const std::vector<Summed>& summed();

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
  simkit::Counter& bank_conflicts;
  simkit::Counter& bank_conflict_cycles;
  simkit::Counter& set_stalls;
  simkit::Counter& set_stall_cycles;
  simkit::Counter& errors;
  simkit::Distribution& latency;
};

}  // namespace par::l2
