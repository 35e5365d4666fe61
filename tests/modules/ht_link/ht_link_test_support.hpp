// Test initiators for the HT link module.
//
// LtInitiator runs a test body in one SC_THREAD and issues b_transport calls with a chosen
// annotated delay and without waiting in between, the way a loosely-timed initiator keeps many
// accesses in flight; each call returns its completion delay at once.
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

namespace par::ht::testing {

class LtInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LtInitiator> out;
  std::function<void(LtInitiator&)> body;

  LtInitiator(sc_core::sc_module_name name, std::function<void(LtInitiator&)> b)
      : sc_module(name), out("out"), body(std::move(b)) {
    SC_HAS_PROCESS(LtInitiator);
    SC_THREAD(run);
  }

  struct Result {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_core::sc_time delay;  // annotated on return: completion - sc_time_stamp()
    bool dmi_allowed = true;
  };

  Result access(tlm::tlm_command cmd, std::uint64_t address, std::uint8_t* data, unsigned len,
                sc_core::sc_time delay = sc_core::SC_ZERO_TIME,
                std::uint8_t* byte_enable = nullptr, unsigned byte_enable_len = 0) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_byte_enable_ptr(byte_enable);
    tx.set_byte_enable_length(byte_enable_len);
    tx.set_dmi_allowed(true);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    out->b_transport(tx, delay);
    return {tx.get_response_status(), delay, tx.is_dmi_allowed()};
  }
  sc_core::sc_time read(std::uint64_t address, unsigned len,
                        sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    std::vector<std::uint8_t> buf(len);
    return access(tlm::TLM_READ_COMMAND, address, buf.data(), len, delay).delay;
  }
  sc_core::sc_time write(std::uint64_t address, std::vector<std::uint8_t> data,
                         sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(tlm::TLM_WRITE_COMMAND, address, data.data(), static_cast<unsigned>(data.size()),
                  delay)
        .delay;
  }
  unsigned debug(tlm::tlm_command cmd, std::uint64_t address, std::uint8_t* data, unsigned len) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    return out->transport_dbg(tx);
  }

 private:
  void run() { body(*this); }
};

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
