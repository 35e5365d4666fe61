// A loosely-timed test initiator for unit tests of one TLM target (the DRAM, HT link and L2
// suites): it runs a test body in one SC_THREAD and issues b_transport calls with a chosen
// annotated delay and without waiting in between, the way a load/store unit or a loosely-timed
// initiator keeps many accesses in flight; each call returns its completion at once.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace par::testing {

class LtInitiator : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<LtInitiator> out;
  std::function<void(LtInitiator&)> body;

  LtInitiator(sc_core::sc_module_name name, std::function<void(LtInitiator&)> b)
      : sc_module(name), out("out"), body(std::move(b)) {
    SC_HAS_PROCESS(LtInitiator);
    SC_THREAD(run);
  }

  bool finished = false;  // the body has returned

  struct Result {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_core::sc_time delay;  // annotated on return: completion - sc_time_stamp()
    bool dmi_allowed = true;
    sc_core::sc_time done;  // absolute completion time
    bool ok() const { return status == tlm::TLM_OK_RESPONSE; }
  };

  Result access(tlm::tlm_command cmd, std::uint64_t address, std::uint8_t* data, unsigned len,
                sc_core::sc_time delay = sc_core::SC_ZERO_TIME,
                const std::uint8_t* byte_enable = nullptr, unsigned byte_enable_len = 0) {
    tlm::tlm_generic_payload tx;
    tx.set_command(cmd);
    tx.set_address(address);
    tx.set_data_ptr(data);
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_byte_enable_ptr(const_cast<std::uint8_t*>(byte_enable));
    tx.set_byte_enable_length(byte_enable_len);
    tx.set_dmi_allowed(true);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    out->b_transport(tx, delay);
    return {tx.get_response_status(), delay, tx.is_dmi_allowed(), sc_core::sc_time_stamp() + delay};
  }
  // Accesses on the caller's buffer.
  Result read(std::uint64_t address, void* data, unsigned len, sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(tlm::TLM_READ_COMMAND, address, static_cast<std::uint8_t*>(data), len, delay);
  }
  Result write(std::uint64_t address, const void* data, unsigned len, sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(tlm::TLM_WRITE_COMMAND, address, static_cast<std::uint8_t*>(const_cast<void*>(data)), len, delay);
  }
  std::uint64_t read64(std::uint64_t address, sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    std::uint64_t v = 0;
    EXPECT_TRUE(read(address, &v, 8, delay).ok());
    return v;
  }
  Result write64(std::uint64_t address, std::uint64_t v, sc_core::sc_time delay = sc_core::SC_ZERO_TIME) {
    return write(address, &v, 8, delay);
  }
  // Waits until the absolute time `t` (no-op if past).
  void wait_until(sc_core::sc_time t) {
    if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
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
  void run() {
    body(*this);
    finished = true;
  }
};

}  // namespace par::testing
