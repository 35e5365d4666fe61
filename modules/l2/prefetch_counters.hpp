// What an L2 bank counts about prefetch requests (README "Prefetch requests"): what became of
// each request and of each line it brought in. Registered in a group of their own ("prefetch"),
// which the bank attaches to its statistics only when L2Config::prefetch_stats is set.
#pragma once

#include <string>
#include <vector>

#include "par/simkit/stats.hpp"

namespace par::l2 {

struct PrefetchCounters {
  explicit PrefetchCounters(simkit::StatGroup& group);

  // Name and unit of every counter, in registration order (the L2 sums them over its banks).
  struct Summed {
    const char* name;
    const char* unit;
  };
  static const std::vector<Summed>& summed();

  simkit::Counter& requests;        // prefetch requests received (one per line)
  simkit::Counter& fills;           // lines read from DRAM for a prefetch
  simkit::Counter& redundant;       // the line was present or its fill in flight: nothing to do
  simkit::Counter& dropped;         // no MSHR or no way free at the request's start, or a DRAM error
  simkit::Counter& useful;          // prefetched lines a later access used (the first use counts)
  simkit::Counter& late;            // ... of which the access arrived before the fill completed
  simkit::Counter& evicted_unused;  // prefetched lines evicted before any access used them
};

}  // namespace par::l2
