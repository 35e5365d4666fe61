// The adapter's counters (README.md).
#pragma once

#include "par/simkit/stats.hpp"
#include "par/simkit/transfer_counters.hpp"

namespace par::plugin {

struct TargetStats {
  explicit TargetStats(simkit::StatGroup& g);

  simkit::Counter& transactions;
  simkit::TransferCounters transfers;  // reads, writes, read_bytes, write_bytes
  simkit::Counter& errors;
  simkit::Counter& debug_accesses;
  simkit::Real& request_wait_ns;
  simkit::Real& time_ns;
  simkit::Distribution& latency;
  simkit::LatestCompletion latest{time_ns};
};

}  // namespace par::plugin
