// One L2 bank as an SC_MODULE: a TLM-2.0 target for line accesses (`in`) and a TLM-2.0 initiator
// for line fills and writebacks (`mem`, bound to the DRAM controller). The behaviour lives in the
// plain BankModel; this class converts between TLM payloads/sc_time and the model.
//
// b_transport never waits: it returns the completion time as the annotated delay (contention is
// modelled by reservations, see bank_model.hpp). nb_transport_fw is accepted through the simple
// socket's conversion. DMI is not offered (every access must go through the tags).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "bank_model.hpp"
#include "par/cachekit/cache_tlm.hpp"
#include "par/sckit/prefetch_hint.hpp"
#include "l2_config.hpp"
#include "par/simkit/stats.hpp"
#include "par/trace/vcd_writer.hpp"

namespace par::l2 {

class L2Bank : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<L2Bank> in;
  tlm_utils::simple_initiator_socket<L2Bank> mem;

  // `cfg` must be valid (L2Config::validate()); throws std::invalid_argument otherwise.
  // Statistics: with `parent_stats` (the L2 wrapper's group) the bank's group is named after the
  // bank's basename and attached there, so its path is the bank's SystemC name ("l2.bank0");
  // without it the group is named after the full SystemC name.
  L2Bank(sc_core::sc_module_name name, const L2Config& cfg, unsigned index = 0,
         simkit::StatGroup* parent_stats = nullptr);

  unsigned index() const { return index_; }
  simkit::StatGroup& stats() { return stats_; }
  BankModel& model() { return *model_; }
  // VCD signal <bank name>.mshrs ("l2.bank0.mshrs", 8 bits): MSHRs in use. Null: none (the
  // default). Call before sc_start.
  void set_trace(trace::VcdWriter* vcd);

  // Writes every dirty line back to DRAM with debug transport (no simulated time): call it before
  // something reads DRAM directly. `invalidate` also drops every line (e.g. after DRAM was
  // written behind the cache's back).
  void flush(bool invalidate = false) { model_->flush_dbg(invalidate); }
  // Timed flush: writebacks start at `at` (absolute), one per cycle; returns when the last one
  // completes. Needs a running simulation (uses b_transport).
  sc_core::sc_time flush_timed(const sc_core::sc_time& at, bool invalidate = false);

  // What `in` does with a b_transport call. The L2 calls it directly for its built-in banks: a
  // socket's indirections cost more than the bank's own work on a line (inline for the same
  // reason).
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    if (sckit::is_prefetch(tx)) return serve_prefetch(tx, delay);
    // Normally one line (the L2 router splits); a directly bound initiator may send more, and
    // then every line takes its own port slot.
    serve_access(*model_, line_bytes_, next_, tx, delay);
  }

 private:
  void serve_prefetch(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);

  unsigned index_;
  unsigned line_bytes_;
  TlmNextLevel next_;  // DRAM, through `mem`
  simkit::StatGroup stats_;
  std::unique_ptr<BankModel> model_;
};

}  // namespace par::l2
