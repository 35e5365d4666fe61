// The PAR core's statistics group (docs/core-timing.md §8.2): counters named after the metrics of
// the 2011 simulator under the core's SystemC name, filled from CoreStats, with the derived metrics
// as formulas so that per-launch differences are computed correctly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core_stats.hpp"
#include "par/simkit/stats.hpp"
#include "prefetch/prefetch_statistics.hpp"

namespace par::core {

class CoreStatistics {
 public:
  // `name` is the core's hierarchical name (e.g. "core0"); lanes, T and the ROB size are needed
  // by the derived metrics. `contexts` > 0 adds the thread-context group (README "Thread
  // contexts"; for a core that selects among contexts, CoreConfig::selects_contexts()). `prefetch`
  // adds the packet prefetcher's group (prefetch/README.md).
  CoreStatistics(const std::string& name, int lanes, int threads_per_lane, int rob_size, int contexts = 0,
                 bool prefetch = false);
  simkit::StatGroup& group() { return group_; }
  // Sets every counter to `s` (accumulated over the packets run so far), whatever an earlier
  // update set: a core that got no threads shows zeros (and null ratios, over 0 cycles).
  void update(const CoreStats& s);

 private:
  void add_context_statistics(int contexts);

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
  // Thread contexts: [FU][cause] summed over contexts, and per context.
  struct PerContext {
    simkit::Counter *slots, *rounds;
    simkit::Counter* idle[isa::kBackendUnits][kIdleCauses];
  };
  simkit::Counter* context_idle_[isa::kBackendUnits][kIdleCauses] = {};
  std::vector<PerContext> per_context_;
  std::unique_ptr<PrefetchStatistics> prefetch_;
};

}  // namespace par::core
