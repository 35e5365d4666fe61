// A few-lines harness for unit-testing one TLM-2.0 target module (VCML style):
//
//   TlmHarness h;                       // an initiator with a script of timed accesses
//   MyTarget dut("dut", cfg);
//   h.out.bind(dut.in);
//   h.at(10_ns).read(0x40, 8);          // script: issue a read at t = 10 ns
//   h.at(10_ns).write(0x80, {1,2,3});
//   h.run();                            // sc_start until the script is done
//   EXPECT_EQ(h.result(0).latency, sc_time(57, SC_NS));
//
// Each access is a blocking b_transport issued at its scripted time (or right after the previous
// one completes, with `then()`); the harness records the response status, the data and the latency
// (annotated delay plus any wait inside the target). Run the test body with run_isolated()
// (sc_isolation.hpp): SystemC elaborates once per process.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>

namespace par::testing {

struct TlmAccess {
  bool write = false;
  std::uint64_t address = 0;
  std::vector<std::uint8_t> data;   // write data, or read length in data.size()
  sc_core::sc_time at;              // issue time (absolute), or after the previous one
  bool after_previous = false;
  // Results.
  tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
  sc_core::sc_time issued, completed, latency;
  std::vector<std::uint8_t> read_data;
  std::uint64_t value() const {  // little-endian read data as a number
    std::uint64_t v = 0;
    std::memcpy(&v, read_data.data(), std::min<std::size_t>(8, read_data.size()));
    return v;
  }
};

class TlmHarness : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<TlmHarness> out;

  explicit TlmHarness(sc_core::sc_module_name name = "harness") : sc_module(name), out("out") {
    SC_HAS_PROCESS(TlmHarness);
    for (int i = 0; i < kThreads; ++i) sc_core::sc_spawn(sc_bind(&TlmHarness::worker, this, i));
  }

  // Scripting: at(t) sets the issue time of the next access; then() issues it when the previous
  // access of the script has completed. Accesses at the same time are issued concurrently (up to
  // kThreads in flight), so bank conflicts and queueing can be tested.
  TlmHarness& at(sc_core::sc_time t) {
    next_at_ = t;
    next_after_ = false;
    return *this;
  }
  TlmHarness& then() {
    next_after_ = true;
    return *this;
  }
  TlmHarness& read(std::uint64_t address, std::size_t length) {
    TlmAccess a;
    a.address = address;
    a.data.assign(length, 0);
    return add(a);
  }
  TlmHarness& write(std::uint64_t address, std::vector<std::uint8_t> data) {
    TlmAccess a;
    a.write = true;
    a.address = address;
    a.data = std::move(data);
    return add(a);
  }
  TlmHarness& write64(std::uint64_t address, std::uint64_t value) {
    std::vector<std::uint8_t> d(8);
    std::memcpy(d.data(), &value, 8);
    return write(address, d);
  }

  void run(sc_core::sc_time limit = sc_core::sc_time(1, sc_core::SC_SEC)) { sc_core::sc_start(limit); }
  const TlmAccess& result(std::size_t i) const { return script_.at(i); }
  std::size_t size() const { return script_.size(); }

 private:
  static constexpr int kThreads = 32;
  TlmHarness& add(TlmAccess a) {
    a.at = next_at_;
    a.after_previous = next_after_;
    script_.push_back(std::move(a));
    next_after_ = false;
    return *this;
  }
  void worker(int id) {
    // Worker `id` performs accesses id, id + kThreads, ... in script order.
    for (std::size_t i = static_cast<std::size_t>(id); i < script_.size(); i += kThreads) {
      TlmAccess& a = script_[i];
      if (a.after_previous && i > 0) {
        while (script_[i - 1].status == tlm::TLM_INCOMPLETE_RESPONSE) sc_core::wait(done_);
      } else if (a.at > sc_core::sc_time_stamp()) {
        sc_core::wait(a.at - sc_core::sc_time_stamp());
      }
      issue(a);
      done_.notify(sc_core::SC_ZERO_TIME);
    }
  }
  void issue(TlmAccess& a) {
    tlm::tlm_generic_payload tx;
    a.read_data = a.data;
    tx.set_command(a.write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    tx.set_address(a.address);
    tx.set_data_ptr(a.write ? a.data.data() : a.read_data.data());
    tx.set_data_length(static_cast<unsigned>(a.data.size()));
    tx.set_streaming_width(static_cast<unsigned>(a.data.size()));
    tx.set_byte_enable_ptr(nullptr);
    tx.set_dmi_allowed(false);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    a.issued = sc_core::sc_time_stamp();
    sc_core::sc_time delay = sc_core::SC_ZERO_TIME;
    out->b_transport(tx, delay);
    sc_core::wait(delay);  // honour the annotation: the access completes here
    a.completed = sc_core::sc_time_stamp();
    a.latency = a.completed - a.issued;
    a.status = tx.get_response_status();
  }

  std::vector<TlmAccess> script_;
  sc_core::sc_time next_at_ = sc_core::SC_ZERO_TIME;
  bool next_after_ = false;
  sc_core::sc_event done_;
};

}  // namespace par::testing
