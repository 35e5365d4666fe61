// The thread scheduler's counters (README.md, "Counters") in the module's statistics group.
#pragma once

#include <cstddef>
#include <vector>

#include "par/simkit/stats.hpp"

namespace par::sched {

struct CoreCounters {
  explicit CoreCounters(simkit::StatGroup& g);
  simkit::Real& busy_ns;     // time from a share's launch until the core returned it
  simkit::Counter& shares;
  simkit::Counter& threads;
};

class SchedulerStats {
 public:
  explicit SchedulerStats(simkit::StatGroup& group);

  // Adds the groups core0..core<n-1> and the imbalance formula; called once, when the number of
  // cores is known (end of elaboration).
  void add_cores(std::size_t n);
  CoreCounters& core(std::size_t i) { return cores_.at(i); }
  std::size_t cores() const { return cores_.size(); }

  simkit::Counter& commands;
  simkit::Counter& packets_completed;
  simkit::Counter& packets_failed;
  simkit::Counter& empty_packets;
  simkit::Counter& threads_launched;
  simkit::Counter& shares;
  simkit::Counter& doorbells_refused;
  simkit::Counter& flag_writes;
  simkit::Counter& flag_write_errors;
  simkit::Counter& interrupts;
  simkit::Real& packet_ns;  // sum over packets of started -> finished

 private:
  simkit::StatGroup& group_;
  std::vector<CoreCounters> cores_;
};

}  // namespace par::sched
