// One core's private L1 data cache as an SC_MODULE, and the set of them (one per core) with their
// totals. The behaviour lives in the plain L1Model; this class converts between TLM payloads and
// the model.
//
//   core.mem --> in   [L1Model]   out --> device interconnect
//   core.irq --> core_done   ==(after the flush)==>   done --> scheduler.core_irq[i]
//
// `in` never waits (loosely timed by reservation, like the L2). The core's completion line passes
// through the L1: when it rises (the core's share of a packet is done), the L1 writes back its
// dirty bytes and drops every line, and raises `done` when the last writeback completes; a fall
// passes at once. So between shares the L1 is empty, memory holds every result before the
// scheduler sees the share end, and a core never keeps a stale copy of data that the host or
// another core wrote in the meantime.
#pragma once

#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "par/cachekit/cache_tlm.hpp"
#include "l1_config.hpp"
#include "l1_model.hpp"
#include "l1_stats.hpp"
#include "par/simkit/stats.hpp"

namespace par::l1 {

class L1Cache : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L1Cache> in;           // the core's `mem`
  tlm_utils::simple_initiator_socket<L1Cache> out;       // fills, writebacks, write-throughs
  sc_core::sc_in<bool> core_done;                       // the core's completion line (ParCore::irq)
  sc_core::sc_out<bool> done;                           // to the scheduler: core_done, after the flush

  // `cfg` must be valid (throws std::invalid_argument otherwise); `clock_period` is the core's.
  // With `parent_stats` the group is named after the basename and attached there.
  L1Cache(sc_core::sc_module_name name, const L1Config& cfg, sc_core::sc_time clock_period,
          simkit::StatGroup* parent_stats = nullptr);

  L1Model& model() { return *model_; }
  simkit::StatGroup& stats() { return stats_group_; }
  // Untimed write-back (and drop) of every line, e.g. before reading memory behind the cache.
  void flush(bool invalidate) { model_->flush_dbg(invalidate); }
  // Timed: write-backs from `at` (absolute); returns when the last one completes.
  sc_core::sc_time flush_timed(const sc_core::sc_time& at, bool invalidate);

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);
  void completion_thread();

  cachekit::TlmNextLevel next_;
  simkit::StatGroup stats_group_;
  L1Stats stats_;
  std::unique_ptr<L1Model> model_;
};

// The L1s of every core: children named "core<i>", a statistics group (the module's name, e.g.
// "l1") with the totals over the cores and each cache's group as a child ("l1.core0").
class L1Caches : public sc_core::sc_module {
 public:
  L1Caches(sc_core::sc_module_name name, const L1Config& cfg, unsigned cores, sc_core::sc_time clock_period);

  unsigned size() const { return static_cast<unsigned>(caches_.size()); }
  L1Cache& cache(unsigned i) { return *caches_.at(i); }
  simkit::StatGroup& stats() { return stats_; }
  // Untimed write-back (and drop) of every cache's lines.
  void flush(bool invalidate);

 private:
  simkit::StatGroup stats_;
  std::vector<std::unique_ptr<L1Cache>> caches_;
};

}  // namespace par::l1
