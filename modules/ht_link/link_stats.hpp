// The HT link's statistics (README.md, "Counters"): one group per direction inside the module's
// StatGroup. Plain C++ (simkit).
#pragma once

#include "ht_time.hpp"
#include "par/simkit/stats.hpp"

namespace par::ht {

// Everything sent on one channel, and the transactions originated by the side that sends on it.
struct DirectionStats {
  DirectionStats(simkit::StatGroup& g, double core_clock_mhz);

  // Channel: requests of this side and responses to the other side's requests.
  simkit::Counter& packets;
  simkit::Counter& control_bytes;
  simkit::Counter& data_bytes;
  simkit::Real& busy_ns;
  simkit::Counter& queued_packets;
  simkit::Real& queue_ns;
  simkit::Real& time_ns;
  // Transactions originated by this direction's sending side.
  simkit::Counter& reads;
  simkit::Counter& posted_writes;
  simkit::Counter& nonposted_writes;
  simkit::Counter& interrupts;
  simkit::Counter& outstanding_stalls;
  simkit::Counter& wait_queue_stalls;
  simkit::Real& wait_ns;
  simkit::Counter& errors;
  simkit::Distribution& latency;
};

class LinkStats {
 public:
  LinkStats(simkit::StatGroup& group, double core_clock_mhz);

  DirectionStats& of(Direction d) { return d == Direction::HostToDevice ? h2d : d2h; }
  // Extends both directions' time_ns (the utilisation denominator) to `t` if it is later.
  void reach(Ps t);

  DirectionStats h2d;
  DirectionStats d2h;

 private:
  Ps latest_ = 0;
};

}  // namespace par::ht
