// The PAR core's statistics group (docs/core-timing.md §8.2): counters named after the metrics of
// the 2011 simulator under the core's SystemC name, filled from CoreStats, with the derived metrics
// as formulas so that per-launch differences are computed correctly.
#pragma once

#include <string>

#include "core_stats.hpp"
#include "par/simkit/stats.hpp"

namespace par::core {

class CoreStatistics {
 public:
  // `name` is the core's hierarchical name (e.g. "core0"); lanes, T and the ROB size are needed
  // by the derived metrics.
  CoreStatistics(const std::string& name, int lanes, int threads_per_lane, int rob_size);
  simkit::StatGroup& group() { return group_; }
  // Sets the counters to `s` (accumulated over the packets run so far).
  void update(const CoreStats& s);

 private:
  simkit::StatGroup group_;
  simkit::Counter *cycles_, *rounds_, *threads_, *fetched_;
  simkit::Counter* instructions_[isa::kBackendUnits];
  simkit::Counter* thread_instructions_[isa::kBackendUnits];
  simkit::Counter* qualified_[isa::kBackendUnits];
  simkit::Counter* control_[kControlKinds];
  simkit::Counter* stalls_[kStallCauses];
  simkit::Counter *stall_total_, *rob_occupancy_, *rob_max_;
  simkit::Counter *global_accesses_, *global_transactions_, *global_bytes_, *global_latency_, *global_limit_stalls_;
  simkit::Real* host_seconds_;
};

}  // namespace par::core
