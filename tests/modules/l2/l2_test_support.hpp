// Test rigs for the L2: a fan-in that lets every bank's `mem` reach one plain Memory (the DRAM
// stand-in), and a complete L2 + memory rig driven by the loosely-timed initiator of
// tests/support/lt_initiator.hpp (back-to-back b_transport calls with delay annotations, like a
// PAR core's load/store unit). Everything here must be built inside par::testing::run_isolated.
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

#include "support/lt_initiator.hpp"
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

using par::testing::LtInitiator;

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

// L2 (banks fanned into one Memory) driven by an LtInitiator body. Names get `tag` so several rigs can
// live in one elaboration.
struct Rig {
  memory::Memory mem;
  FanIn fan;
  L2 l2;
  LtInitiator lsu;

  Rig(const L2Config& cfg, const memory::MemoryConfig& m, std::function<void(LtInitiator&)> body,
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
