// The counters of one protocol checker, registered in the checker's statistics group.
#pragma once

#include "par/simkit/stats.hpp"

namespace par::tlmcheck {

struct CheckerStats {
  explicit CheckerStats(simkit::StatGroup& group);

  simkit::Counter& b_transport;
  simkit::Counter& nb_transport_fw;
  simkit::Counter& nb_transport_bw;
  simkit::Counter& nb_transactions;
  simkit::Counter& get_direct_mem_ptr;
  simkit::Counter& invalidate_direct_mem_ptr;
  simkit::Counter& transport_dbg;
  simkit::Counter& violations;
};

}  // namespace par::tlmcheck
