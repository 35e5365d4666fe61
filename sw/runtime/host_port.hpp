// What the host runtime needs from the processor it runs on: timed transactions on the master's
// bus and a local clock. MasterCore (modules/master_core) implements it over its TLM initiator
// socket; the runtime's unit tests implement it with a fake memory.
//
// Time model (loosely timed, quantum style): the host thread keeps a local time now() that may
// run ahead of the SystemC time. compute() only advances it; transact() issues one transaction
// at a chosen local time without moving now(), so the caller can have several transactions in
// flight (a copy); wait_until() moves now() forward and lets the rest of the simulation catch up.
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

namespace par::runtime {

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
};

}  // namespace par::runtime
