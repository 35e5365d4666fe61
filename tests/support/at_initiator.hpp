// An approximately-timed initiator for unit tests of one TLM target (the AT counterpart of
// tlm_harness.hpp and lt_initiator.hpp): a script of requests, each sending BEGIN_REQ at its
// time, or once the previous request's BEGIN_RESP has arrived (`after_previous`), on a payload
// that has this module as memory manager. It records the answer to each BEGIN_REQ and when
// BEGIN_RESP arrived (time of the call plus its annotated delay), and ends each response at once
// (TLM_COMPLETED) or, with `end_resp_after` > 0, answers TLM_ACCEPTED and sends END_RESP that
// much later.
//
//   AtInitiator at("at");
//   at.read(0x40, 64);                          // BEGIN_REQ at t = 0
//   at.read(0x80, 64, sc_time(10, SC_NS));       // at t = 10 ns
//   at.out.bind(dut.in);
//   sc_core::sc_start();
//   EXPECT_EQ(at.requests[0].response, sc_time(57, SC_NS));
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/peq_with_cb_and_phase.h>
#include <tlm_utils/simple_initiator_socket.h>

namespace par::testing {

class AtInitiator : public sc_core::sc_module, public tlm::tlm_mm_interface {
 public:
  tlm_utils::simple_initiator_socket<AtInitiator> out;

  struct Request {
    bool write = false;
    std::uint64_t address = 0;
    unsigned len = 0;
    sc_core::sc_time at;          // BEGIN_REQ time (absolute)
    bool after_previous = false;  // instead: once the previous request's BEGIN_RESP arrived
    std::vector<std::uint8_t> data;  // write data; read data after the response
    // Results.
    tlm::tlm_sync_enum begin_req_status = tlm::TLM_ACCEPTED;  // the answer to BEGIN_REQ
    tlm::tlm_phase begin_req_phase = tlm::BEGIN_REQ;          // the phase it came back with
    bool end_req = false;  // END_REQ in that answer (TLM_UPDATED)
    bool responded = false;
    sc_core::sc_time response;  // BEGIN_RESP time
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  };
  std::vector<Request> requests;
  sc_core::sc_time end_resp_after = sc_core::SC_ZERO_TIME;
  int freed = 0;  // payloads returned to the memory manager

  explicit AtInitiator(sc_core::sc_module_name name)
      : sc_module(name), out("out"), peq_(this, &AtInitiator::end_response) {
    SC_HAS_PROCESS(AtInitiator);
    out.register_nb_transport_bw(this, &AtInitiator::nb_transport_bw);
    SC_THREAD(run);
  }

  Request& read(std::uint64_t address, unsigned len, sc_core::sc_time at = sc_core::SC_ZERO_TIME) {
    Request r;
    r.address = address;
    r.len = len;
    r.at = at;
    requests.push_back(r);
    return requests.back();
  }

  void free(tlm::tlm_generic_payload*) override { ++freed; }

 private:
  void run() {
    for (std::size_t i = 0; i < requests.size(); ++i) {
      Request& r = requests[i];
      if (r.after_previous && i > 0) {
        while (!requests[i - 1].responded) sc_core::wait(responded_);
      } else if (r.at > sc_core::sc_time_stamp()) {
        sc_core::wait(r.at - sc_core::sc_time_stamp());
      }
      auto tx = std::make_unique<tlm::tlm_generic_payload>(this);
      tx->acquire();
      if (r.data.size() < r.len) r.data.resize(r.len);
      tx->set_command(r.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
      tx->set_address(r.address);
      tx->set_data_ptr(r.data.data());
      tx->set_data_length(r.len);
      tx->set_streaming_width(r.len);
      tx->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
      index_[tx.get()] = i;
      tlm::tlm_phase phase = tlm::BEGIN_REQ;
      sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
      r.begin_req_status = out->nb_transport_fw(*tx, phase, delay);
      r.begin_req_phase = phase;
      r.end_req = r.begin_req_status == tlm::TLM_UPDATED && phase == tlm::END_REQ;
      payloads_.push_back(std::move(tx));
    }
  }

  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload& tx, tlm::tlm_phase& phase, sc_core::sc_time& delay) {
    if (phase != tlm::BEGIN_RESP) return tlm::TLM_ACCEPTED;
    Request& r = requests[index_.at(&tx)];
    r.responded = true;
    r.response = sc_core::sc_time_stamp() + delay;
    r.status = tx.get_response_status();
    responded_.notify(delay);
    if (end_resp_after > sc_core::SC_ZERO_TIME) {
      peq_.notify(tx, tlm::END_RESP, end_resp_after);
      return tlm::TLM_ACCEPTED;
    }
    tx.release();
    return tlm::TLM_COMPLETED;
  }
  void end_response(tlm::tlm_generic_payload& tx, const tlm::tlm_phase&) {
    tlm::tlm_phase phase = tlm::END_RESP;
    sc_core::sc_time d = sc_core::SC_ZERO_TIME;
    out->nb_transport_fw(tx, phase, d);
    tx.release();
  }

  std::map<tlm::tlm_generic_payload*, std::size_t> index_;
  std::vector<std::unique_ptr<tlm::tlm_generic_payload>> payloads_;
  tlm_utils::peq_with_cb_and_phase<AtInitiator> peq_;
  sc_core::sc_event responded_;
};

}  // namespace par::testing
