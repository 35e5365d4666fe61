// The packet prefetcher's statistics group (`<core>.prefetch`, README.md "Statistics"), filled
// from the accumulated PrefetchCounts. Only cores with the prefetcher enabled have it.
#pragma once

#include "par/simkit/stats.hpp"
#include "prefetch/prefetch_counts.hpp"

namespace par::core {

class PrefetchStatistics {
 public:
  explicit PrefetchStatistics(simkit::StatGroup& group);
  void update(const PrefetchCounts& c);

 private:
  simkit::Counter &loads_, &rounds_, &issued_, &bytes_, &unsent_, &errors_, &stall_cycles_, &latency_sum_;
};

}  // namespace par::core
