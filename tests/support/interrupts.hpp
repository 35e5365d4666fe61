// Test ends of a message-signalled interrupt (par/sckit/interrupt.hpp): a source that raises
// scripted interrupts, and a recorder of the ones that arrive.
//
//   InterruptSource src("src");   src.raise_at(sc_time(100, SC_NS), 0x5);   src.out.bind(dut.irq_in);
//   InterruptRecorder rec("rec"); dut.irq_out.bind(rec.in);   ... rec.received[i].data, rec.at(i)
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <vector>

#include <systemc>

#include "par/sckit/interrupt.hpp"

namespace par::testing {

class InterruptSource : public sc_core::sc_module {
 public:
  sckit::InterruptOut out;

  explicit InterruptSource(sc_core::sc_module_name name) : sc_module(name), out("out") {
    SC_HAS_PROCESS(InterruptSource);
    SC_THREAD(run);
  }
  // Raises an interrupt with `data` at `t` (script in time order).
  void raise_at(sc_core::sc_time t, std::uint32_t data) { script_.emplace_back(t, data); }

 private:
  void run() {
    for (const auto& [t, data] : script_) {
      if (t > sc_core::sc_time_stamp()) sc_core::wait(t - sc_core::sc_time_stamp());
      out->interrupt(data, sc_core::SC_ZERO_TIME);
    }
  }
  std::vector<std::pair<sc_core::sc_time, std::uint32_t>> script_;
};

class InterruptRecorder : public sc_core::sc_module {
 public:
  sckit::InterruptIn in;
  std::vector<sckit::Interrupt> received;

  explicit InterruptRecorder(sc_core::sc_module_name name) : sc_module(name), in("in") {
    SC_HAS_PROCESS(InterruptRecorder);
    SC_THREAD(run);
  }

  // The arrival of the k-th message (0-based); fails the test if there is none.
  sc_core::sc_time at(std::size_t k) const {
    EXPECT_LT(k, received.size()) << "interrupt " << k;
    return k < received.size() ? received[k].at : sc_core::SC_ZERO_TIME;
  }

 private:
  void run() {
    for (;;) received.push_back(in.wait());
  }
};

}  // namespace par::testing
