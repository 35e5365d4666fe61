// Test initiators for the DRAM module.
//
// LsuInitiator: the loosely-timed initiator of tests/support/lt_initiator.hpp.
//
// AtInitiator drives the approximately-timed base protocol (BEGIN_REQ / END_REQ / BEGIN_RESP /
// END_RESP) with a memory manager, and records when each response arrived.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

#include "support/lt_initiator.hpp"

namespace par::dram::testing {

// Issues line requests back to back like a PAR core's load/store unit.
using LsuInitiator = par::testing::LtInitiator;

class AtInitiator : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  tlm_utils::simple_initiator_socket<AtInitiator> out;

  struct Request {
    bool write = false;
    std::uint64_t address = 0;
    unsigned len = 0;
    sc_core::sc_time at;  // BEGIN_REQ time
    // Results.
    std::vector<std::uint8_t> data;
    sc_core::sc_time response;  // BEGIN_RESP time
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    bool end_req = false;
  };
  std::vector<Request> requests;
  bool accept_later = false;  // answer BEGIN_RESP with TLM_ACCEPTED, END_RESP 10 ns later
  int freed = 0;              // payloads returned to the memory manager

  explicit AtInitiator(sc_core::sc_module_name name) : sc_module(name), out("out") {
    SC_HAS_PROCESS(AtInitiator);
    out.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
    SC_THREAD(run);
  }

  void free(tlm::tlm_generic_payload* tx) override {
    ++freed;
    tx->reset();
  }

 private:
  void run() {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      Request& r = requests[i];
      if (r.at > sc_core::sc_time_stamp()) sc_core::wait(r.at - sc_core::sc_time_stamp());
      auto tx = std::make_unique<tlm::tlm_generic_payload>();
      tx->set_mm(this);
      tx->acquire();
      if (r.data.size() < r.len) r.data.resize(r.len);
      tx->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      tx->set_address(r.address);
      tx->set_data_ptr(r.data.data());
      tx->set_data_length(r.len);
      tx->set_streaming_width(r.len);
      index_[tx.get()] = i;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      const tlm::tlm_sync_enum s = out->nb_transport_fw(*tx, phase, delay);
      r.end_req = (s == tlm::TLM_UPDATED && phase == tlm::END_REQ);
      payloads_.push_back(std::move(tx));
    }
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase,
                                     sc_core::sc_time&) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    Request& r = requests[index_.at(&tx)];
    r.response = sc_core::sc_time_stamp();
    r.status = tx.get_response_status();
    if (accept_later) {
      sc_core::sc_spawn([this, &tx] {
        sc_core::wait(10, sc_core::SC_NS);
        tlm::tlm_phase end = tlm::END_RESP;
        sc_core::sc_time d = sc_core::SC_ZERO_TIME;
        out->nb_transport_fw(tx, end, d);
        tx.release();
      });
      return tlm::TLM_ACCEPTED;
    }
    tx.release();
    return tlm::TLM_COMPLETED;
  }

  std::map<tlm::tlm_generic_payload*, std::size_t> index_;
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads_;
};

}  // namespace par::dram::testing
