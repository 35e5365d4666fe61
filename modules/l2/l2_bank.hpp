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
#include "l2_config.hpp"
#include "par/sckit/fast_time.hpp"
#include "par/simkit/stats.hpp"

namespace par::l2 {

class L2Bank : public sc_core::sc_module, private NextLevel {
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

  // Writes every dirty line back to DRAM with debug transport (no simulated time): call it before
  // something reads DRAM directly. `invalidate` also drops every line (e.g. after DRAM was
  // written behind the cache's back).
  void flush(bool invalidate = false) { model_->flush_dbg(invalidate); }
  // Timed flush: writebacks start at `at` (absolute), one per cycle; returns when the last one
  // completes. Needs a running simulation (uses b_transport).
  sc_core::sc_time flush_timed(const sc_core::sc_time& at, bool invalidate = false);

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& tx);

  // NextLevel, through `mem`.
  bool read(std::uint64_t addr, std::uint8_t* data, unsigned len, Tick start, Tick& done) override;
  bool write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
             Tick start, Tick& done) override;
  bool read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) override;
  bool write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len,
                 const std::uint8_t* be) override;
  bool timed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
             const std::uint8_t* be, Tick start, Tick& done);
  bool untimed(tlm::tlm_command cmd, std::uint64_t addr, std::uint8_t* data, unsigned len,
               const std::uint8_t* be);

  unsigned index_;
  tlm::tlm_response_status next_error_ = tlm::TLM_GENERIC_ERROR_RESPONSE;  // last DRAM error
  simkit::StatGroup stats_;
  std::unique_ptr<BankModel> model_;
};

// Calls fn(addr, offset, len) for each line-sized piece of [addr, addr + len).
template <class Fn>
void for_each_line_piece(std::uint64_t addr, unsigned len, unsigned line_bytes, Fn fn) {
  unsigned offset = 0;
  while (offset < len) {
    const std::uint64_t a = addr + offset;
    const unsigned room = line_bytes - static_cast<unsigned>(a & (line_bytes - 1));
    const unsigned n = std::min(room, len - offset);
    fn(a, offset, n);
    offset += n;
  }
}

using sckit::current_time;

// Time conversions between sc_time and the model's ticks (exact: both count resolution units).
inline Tick to_tick(const sc_core::sc_time& t) { return t.value(); }
inline sc_core::sc_time to_time(Tick t) { return sckit::time_from_value(t); }

}  // namespace par::l2
