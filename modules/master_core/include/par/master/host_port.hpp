// What software running on the master core sees of the processor: timed transactions on its bus,
// its interrupt input and a local clock. MasterCore implements it over its TLM initiator socket and
// its `irq` input; the host runtime (sw/runtime) is written against it, and its unit tests
// implement it with a fake memory.
//
// Time model (loosely timed, quantum style): the host thread keeps a local time now() that may
// run ahead of the SystemC time. compute() only advances it; transact() issues one transaction
// at a chosen local time without moving now(), so the caller can have several transactions in
// flight (a copy); wait_until() and wait_interrupt() move now() forward and let the rest of the
// simulation catch up.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

#include "par/sckit/interrupt.hpp"

namespace par::master {

struct AccessResult {
  bool ok = true;
  std::string error;       // the target's response, e.g. "TLM_ADDRESS_ERROR_RESPONSE" ("" when ok)
  sc_core::sc_time done;   // when the data (or the write's acceptance) is back at the host
};

class HostPort {
 public:
  virtual ~HostPort() = default;

  // The host thread's local time (never behind the SystemC time).
  virtual sc_core::sc_time now() const = 0;
  // Period of the host CPU clock.
  virtual sc_core::sc_time clock_period() const = 0;
  // The CPU works for `cycles` clock cycles: now() advances, nothing is synchronised.
  virtual void compute(std::uint64_t cycles) = 0;
  // now() becomes max(now(), t) and the simulation is synchronised to it (other processes run).
  virtual void wait_until(const sc_core::sc_time& t) = 0;
  // One transaction of `length` bytes issued at local time `issue` (>= now()); `data` is read
  // (write) or filled (read) before the call returns. Does not move now().
  virtual AccessResult transact(bool write, std::uint64_t address, std::uint8_t* data, unsigned length,
                                const sc_core::sc_time& issue) = 0;
  // The CPU sleeps until an interrupt message has arrived (at or after now()) and returns the
  // oldest one; now() becomes max(now(), its arrival).
  virtual sckit::Interrupt wait_interrupt() = 0;
};

}  // namespace par::master
