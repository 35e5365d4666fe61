// Test initiators for the HT link module.
//
// LtInitiator: tests/support/lt_initiator.hpp.
//
// AtInitiator sends one BEGIN_REQ (approximately-timed base protocol) and records when
// BEGIN_RESP arrives.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "support/lt_initiator.hpp"

namespace par::ht::testing {

using LtInitiator = par::testing::LtInitiator;

class AtInitiator : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  tlm_utils::simple_initiator_socket<AtInitiator> out;
  std::vector<std::uint8_t> data;
  sc_core::sc_time response_at;
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;

  AtInitiator(sc_core::sc_module_name name, std::uint64_t address, unsigned len)
      : sc_module(name), out("out"), data(len), address_(address) {
    SC_HAS_PROCESS(AtInitiator);
    out.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
    SC_THREAD(run);
  }
  void free(tlm::tlm_generic_payload*) override {}

 private:
  void run() {
    tx_.set_mm(this);
    tx_.acquire();
    tx_.set_command(tlm::TLM_READ_COMMAND);
    tx_.set_address(address_);
    tx_.set_data_ptr(data.data());
    tx_.set_data_length(static_cast<unsigned>(data.size()));
    tx_.set_streaming_width(static_cast<unsigned>(data.size()));
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(tx_, phase, delay);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) {
    if (phase == tlm::BEGIN_RESP) {
      response_at = sc_core::sc_time_stamp();
      status = tx.get_response_status();
      phase = tlm::END_RESP;
      return tlm::TLM_COMPLETED;
    }
    return tlm::TLM_ACCEPTED;
  }

  std::uint64_t address_;
  tlm::tlm_generic_payload tx_;
};

}  // namespace par::ht::testing
