// Test doubles for the thread scheduler's SystemC tests: a fake PAR core that implements the
// core's register protocol (par/core/core_registers.hpp), records the descriptors it starts and
// takes a chosen time per share; helpers to stage a command. The recorder of the scheduler's
// completion interrupts is tests/support/interrupts.hpp.
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
#include <tlm_utils/simple_target_socket.h>

#include "support/interrupts.hpp"
#include "support/tlm_harness.hpp"
#include "par/core/core_registers.hpp"
#include "par/sched/scheduler_registers.hpp"
#include "par/sckit/interrupt.hpp"
#include "thread_scheduler.hpp"

namespace par::sched::testing {

// A PAR core's control interface without the core: a DOORBELL starts the staged descriptor, which
// ends duration(descriptor) later (failed when fails(descriptor)); its `irq` line falls at the
// start and rises at the end, as ParCore's does. A DOORBELL while busy is refused and counted.
class FakeCore : public sc_core::sc_module {
 public:
  struct Launch {
    core::PacketDescriptor desc;
    sc_core::sc_time begin, end;
  };

  tlm_utils::simple_target_socket<FakeCore> ctrl;
  sc_core::sc_out<bool> irq;
  // Default: ns_per_thread * threads.
  std::function<sc_core::sc_time(const core::PacketDescriptor&)> duration;
  std::function<bool(const core::PacketDescriptor&)> fails = [](const core::PacketDescriptor&) { return false; };

  FakeCore(sc_core::sc_module_name name, double ns_per_thread) : sc_module(name), ctrl("ctrl"), irq("irq") {
    duration = [ns_per_thread](const core::PacketDescriptor& d) {
      return sc_core::sc_time(ns_per_thread * static_cast<double>(d.threads), sc_core::SC_NS);
    };
    ctrl.register_b_transport(this, &FakeCore::b_transport);
    SC_HAS_PROCESS(FakeCore);
    SC_THREAD(run);
  }

  const std::vector<Launch>& launches() const { return launches_; }
  int refused_doorbells() const { return refused_; }

 private:
  void b_transport(tlm::tlm_generic_payload& tx, sc_core::sc_time& delay) {
    const std::uint64_t a = tx.get_address();
    const unsigned len = tx.get_data_length();
    tx.set_response_status(tlm::TLM_OK_RESPONSE);
    if (tx.is_write() && a + len <= core::kCoreDescriptorEnd) {
      std::memcpy(reinterpret_cast<unsigned char*>(&staged_) + a, tx.get_data_ptr(), len);
    } else if (tx.is_write() && a == core::kCoreRegDoorbell && len == 8) {
      if (busy_) {
        ++refused_;
        tx.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
        return;
      }
      busy_ = true;
      pending_ = staged_;
      start_.notify(delay);
    } else if (tx.is_read() && a == core::kCoreRegStatus && len == 8) {
      const std::uint64_t s = busy_ ? core::kCoreStatusBusy : failed_ ? core::kCoreStatusFailed : core::kCoreStatusIdle;
      std::memcpy(tx.get_data_ptr(), &s, 8);
    } else {
      tx.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    }
  }
  void run() {
    for (;;) {
      sc_core::wait(start_);
      irq.write(false);
      Launch l{pending_, sc_core::sc_time_stamp(), {}};
      sc_core::wait(duration(l.desc));
      l.end = sc_core::sc_time_stamp();
      failed_ = fails(l.desc);
      launches_.push_back(l);
      if (irq.read()) sc_core::wait(sc_core::SC_ZERO_TIME);
      busy_ = false;
      irq.write(true);
    }
  }

  core::PacketDescriptor staged_, pending_;
  sc_core::sc_event start_;
  bool busy_ = false, failed_ = false;
  int refused_ = 0;
  std::vector<Launch> launches_;
};

// Fake cores with their completion lines, bound to a scheduler in core order.
struct FakeCores {
  std::vector<std::unique_ptr<FakeCore>> cores;
  std::vector<std::unique_ptr<sc_core::sc_signal<bool>>> lines;

  FakeCore& add(ThreadScheduler& sched, double ns_per_thread) {
    const std::string i = std::to_string(cores.size());
    cores.push_back(std::make_unique<FakeCore>(("core" + i).c_str(), ns_per_thread));
    lines.push_back(std::make_unique<sc_core::sc_signal<bool>>(("core" + i + "_irq").c_str()));
    sched.cores.bind(cores.back()->ctrl);
    cores.back()->irq.bind(*lines.back());
    sched.core_irq.bind(*lines.back());
    return *cores.back();
  }
};

using par::testing::InterruptRecorder;

// The 256-byte staging block for one command (START, THREADS, FLAG_ADDR, TAG, CONTROL, I[1..15]).
inline std::vector<std::uint8_t> command_block(std::uint64_t start, std::int64_t threads, std::uint64_t flag_addr = 0,
                                               std::uint64_t tag = 0,
                                               const std::vector<std::uint64_t>& inherited = {},
                                               std::uint64_t control = kControlInterrupt) {
  std::uint64_t words[32] = {};
  words[kRegStart / 8] = start;
  words[kRegThreads / 8] = static_cast<std::uint64_t>(threads);
  words[kRegFlagAddr / 8] = flag_addr;
  words[kRegTag / 8] = tag;
  words[kRegControl / 8] = control;
  for (std::size_t k = 1; k < inherited.size() && k < 16; ++k) words[16 + k] = inherited[k];
  std::vector<std::uint8_t> bytes(sizeof words);
  std::memcpy(bytes.data(), words, sizeof words);
  return bytes;
}

// Stages a command (asking for the completion interrupt) with one burst and rings the doorbell
// (two accesses, each after the previous).
inline void submit(par::testing::TlmHarness& h, std::uint64_t start, std::int64_t threads, std::uint64_t flag_addr = 0,
                   std::uint64_t tag = 0, const std::vector<std::uint64_t>& inherited = {}) {
  h.then().write(kRegStart, command_block(start, threads, flag_addr, tag, inherited));
  h.then().write64(kRegDoorbell, 1);
}

inline sc_core::sc_time ns(double v) { return sc_core::sc_time(v, sc_core::SC_NS); }

}  // namespace par::sched::testing
