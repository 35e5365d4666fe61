// Test doubles for the thread scheduler's SystemC tests: a fake PAR core that records the
// descriptors it receives and takes a chosen time per share, and helpers to stage a command.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

#include "../../support/tlm_harness.hpp"
#include "packet_descriptor.hpp"
#include "thread_scheduler_regs.hpp"

namespace par::sched::testing {

// A PAR core's control interface without the core: a launch (a write of a PacketDescriptor to
// kCtrlLaunch) is recorded and returns after duration(descriptor), with an error response when
// fails(descriptor). Launches overlapping on one core are counted (the scheduler must not do it).
class FakeCore : public sc_core::sc_module {
 public:
  struct Launch {
    core::PacketDescriptor desc;
    sc_core::sc_time begin, end;
  };

  tlm_utils::simple_target_socket<FakeCore> ctrl;
  // Default: ns_per_thread * threads.
  std::function<sc_core::sc_time(const core::PacketDescriptor&)> duration;
  std::function<bool(const core::PacketDescriptor&)> fails = [](const core::PacketDescriptor&) { return false; };
  // Return the execution time as a delay annotation instead of waiting inside (both are legal).
  bool annotate = false;

  FakeCore(sc_core::sc_module_name name, double ns_per_thread) : sc_module(name), ctrl("ctrl") {
    duration = [ns_per_thread](const core::PacketDescriptor& d) {
      return sc_core::sc_time(ns_per_thread * static_cast<double>(d.threads), sc_core::SC_NS);
    };
    ctrl.register_b_transport(this, &FakeCore::b_transport);
  }

  const std::vector<Launch>& launches() const { return launches_; }
  int overlapping_launches() const { return overlapping_; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    if (!tx.is_write() || tx.get_address() != core::kCtrlLaunch ||
        tx.get_data_length() != sizeof(core::PacketDescriptor)) {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
      return;
    }
    Launch l;
    std::memcpy(&l.desc, tx.get_data_ptr(), sizeof l.desc);
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
    if (busy_) ++overlapping_;
    busy_ = true;
    l.begin = sc_core::sc_time_stamp();
    const sc_core::sc_time d = duration(l.desc);
    if (annotate) delay = d;
    else sc_core::wait(d);
    l.end = l.begin + d;
    busy_ = false;
    launches_.push_back(l);
    tx.set_response_status(fails(l.desc) ? tlm::TLM_GENERIC_ERROR_RESPONSE : tlm::TLM_OK_RESPONSE);
  }

  bool busy_ = false;
  int overlapping_ = 0;
  std::vector<Launch> launches_;
};

// The 256-byte staging block for one command (START, THREADS, FLAG_ADDR, TAG, I[1..15]).
inline std::vector<std::uint8_t> command_block(std::uint64_t start, std::int64_t threads, std::uint64_t flag_addr = 0,
                                               std::uint64_t tag = 0,
                                               const std::vector<std::uint64_t>& inherited = {}) {
  std::uint64_t words[32] = {};
  words[0] = start;
  words[1] = static_cast<std::uint64_t>(threads);
  words[2] = flag_addr;
  words[3] = tag;
  for (std::size_t k = 1; k < inherited.size() && k < 16; ++k) words[16 + k] = inherited[k];
  std::vector<std::uint8_t> bytes(sizeof words);
  std::memcpy(bytes.data(), words, sizeof words);
  return bytes;
}

// Stages a command with one burst and rings the doorbell (two accesses, each after the previous).
inline void submit(par::testing::TlmHarness& h, std::uint64_t start, std::int64_t threads, std::uint64_t flag_addr = 0,
                   std::uint64_t tag = 0, const std::vector<std::uint64_t>& inherited = {}) {
  h.then().write(kRegStart, command_block(start, threads, flag_addr, tag, inherited));
  h.then().write64(kRegDoorbell, 1);
}

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

}  // namespace par::sched::testing
