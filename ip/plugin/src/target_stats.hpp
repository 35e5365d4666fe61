// The adapter's counters (README.md).
#pragma once

#include "par/simkit/stats.hpp"

namespace par::plugin {

struct TargetStats {
  explicit TargetStats(simkit::StatGroup& g);

  simkit::Counter& transactions;
  simkit::Counter& reads;
  simkit::Counter& writes;
  simkit::Counter& read_bytes;
  simkit::Counter& write_bytes;
  simkit::Counter& errors;
  simkit::Counter& debug_accesses;
  simkit::Real& request_wait_ns;
  simkit::Real& time_ns;
  simkit::Distribution& latency;
  double latest_ns = 0;  // latest completion seen (time_ns advances by increments of it)
};

}  // namespace par::plugin
