// Test rigs for the L2: a fan-in that lets every bank's `mem` reach one plain Memory (the DRAM
// stand-in), an initiator thread that behaves like a PAR core's load/store unit (back-to-back
// b_transport calls with delay annotations, no waiting in between), and a complete L2 + memory
// rig. Everything here must be built inside par::testing::run_isolated.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "l2.hpp"
#include "memory.hpp"

namespace par::l2::testing {

using sc_core::SC_NS;
using sc_core::sc_time;

inline sc_time ns(double v) { return sc_time(v, SC_NS); }

// Many initiators (the banks) to one target (the memory), no added time.
class FanIn : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<FanIn> in;
  tlm_utils::simple_initiator_socket<FanIn> out;

  explicit FanIn(sc_core::sc_module_name name) : sc_module(name), in("in"), out("out") {
    in.register_b_transport(this, &FanIn::b_transport);
    in.register_transport_dbg(this, &FanIn::transport_dbg);
  }

 private:
  void b_transport(int, tlm::tlm_generic_payload& tx, sc_time& delay) {
    out->b_transport(tx, delay);
  }
  unsigned int transport_dbg(int, tlm::tlm_generic_payload& tx) { return out->transport_dbg(tx); }
};

// One SC_THREAD that runs `body(*this)`: like a load/store unit it issues accesses back to back,
// each annotated with its issue time relative to now, and gets each completion time at once.
class Lsu : public sc_core::sc_module {
 public:
  tlm_utils::simple_initiator_socket<Lsu> out;

  Lsu(sc_core::sc_module_name name, std::function<void(Lsu&)> body)
      : sc_module(name), out("out"), body_(std::move(body)) {
    SC_HAS_PROCESS(Lsu);
    SC_THREAD(run);
  }

  struct Result {
    tlm::tlm_response_status status = tlm::TLM_INCOMPLETE_RESPONSE;
    sc_time done;  // absolute completion time
    bool ok() const { return status == tlm::TLM_OK_RESPONSE; }
  };

  // An access issued at now + `delay` (no wait): returns when it completes.
  Result access(bool write, std::uint64_t addr, void* data, unsigned len, sc_time delay,
                const std::uint8_t* be = nullptr, unsigned be_len = 0) {
    tlm::tlm_generic_payload tx;
    tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    tx.set_address(addr);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    tx.set_byte_enable_ptr(const_cast<std::uint8_t*>(be));
    tx.set_byte_enable_length(be_len);
    tx.set_dmi_allowed(false);
    tx.set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
    out->b_transport(tx, delay);
    return Result{tx.get_response_status(), sc_core::sc_time_stamp() + delay};
  }
  Result read(std::uint64_t addr, void* data, unsigned len, sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(false, addr, data, len, delay);
  }
  Result write(std::uint64_t addr, const void* data, unsigned len,
               sc_time delay = sc_core::SC_ZERO_TIME) {
    return access(true, addr, const_cast<void*>(data), len, delay);
  }
  std::uint64_t read64(std::uint64_t addr, sc_time delay = sc_core::SC_ZERO_TIME) {
    std::uint64_t v = 0;
    EXPECT_TRUE(read(addr, &v, 8, delay).ok());
    return v;
  }
  Result write64(std::uint64_t addr, std::uint64_t v, sc_time delay = sc_core::SC_ZERO_TIME) {
    return write(addr, &v, 8, delay);
  }
  // Waits until the absolute time `t` (no-op if past).
  void wait_until(sc_time t) {
    if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
  }
  unsigned dbg(bool write, std::uint64_t addr, void* data, unsigned len) {
    tlm::tlm_generic_payload tx;
    tx.set_command(write ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
    tx.set_address(addr);
    tx.set_data_ptr(static_cast<unsigned char*>(data));
    tx.set_data_length(len);
    tx.set_streaming_width(len);
    return out->transport_dbg(tx);
  }

  bool finished = false;

 private:
  void run() {
    body_(*this);
    finished = true;
  }
  std::function<void(Lsu&)> body_;
};

inline L2Config small_config() {
  L2Config c;  // defaults: 4 banks x 64 KiB, 8 ways, 64-B lines, 16 MSHRs, 10 cycles at 1 GHz
  return c;
}

inline memory::MemoryConfig dram(double latency_ns = 50, double bytes_per_ns = 0,
                                 std::uint64_t size = 1u << 20) {
  memory::MemoryConfig m;
  m.size = size;
  m.latency_ns = latency_ns;
  m.bytes_per_ns = bytes_per_ns;
  return m;
}

// L2 (banks fanned into one Memory) driven by an Lsu body. Names get `tag` so several rigs can
// live in one elaboration.
struct Rig {
  memory::Memory mem;
  FanIn fan;
  L2 l2;
  Lsu lsu;

  Rig(const L2Config& cfg, const memory::MemoryConfig& m, std::function<void(Lsu&)> body,
      const std::string& tag = "")
      : mem(("mem" + tag).c_str(), m),
        fan(("fan" + tag).c_str()),
        l2(("l2" + tag).c_str(), cfg),
        lsu(("lsu" + tag).c_str(), std::move(body)) {
    lsu.out.bind(l2.in);
    for (unsigned b = 0; b < l2.banks(); ++b) l2.bank(b).mem.bind(fan.in);
    fan.out.bind(mem.in);
  }

  // A counter of bank `b` ("hits", ...).
  std::uint64_t bank_stat(unsigned b, const char* name) {
    const auto* s = l2.bank(b).stats().find(name);
    EXPECT_NE(s, nullptr) << name;
    return s == nullptr ? 0 : static_cast<std::uint64_t>(s->number());
  }
  // A total over the banks from the L2's group ("hits", ..., "split_requests").
  double total(const char* name) {
    const auto* s = l2.stats().find(name);
    EXPECT_NE(s, nullptr) << name;
    return s == nullptr ? -1 : s->number();
  }
};

inline void run_all() { sc_core::sc_start(sc_time(1, sc_core::SC_SEC)); }

}  // namespace par::l2::testing
