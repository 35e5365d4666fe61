// Launching a packet on a ParCore through its register protocol (par/core/core_registers.hpp)
// from a TlmHarness: the descriptor block in one write, then DOORBELL.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include <systemc>

#include "../support/tlm_harness.hpp"
#include "par/core/core_registers.hpp"
#include "par/isa/program.hpp"

namespace par::core::testing {

// The descriptor of a .PAR program's packet: all its threads from thread 0.
inline PacketDescriptor descriptor_of(const isa::Program& program) {
  PacketDescriptor d;
  d.start = program.start;
  d.threads = program.threads;
  for (std::size_t k = 1; k < 16 && k < program.inherited.size(); ++k) d.inherited[k] = program.inherited[k];
  return d;
}

inline std::vector<std::uint8_t> bytes_of(const PacketDescriptor& d) {
  std::vector<std::uint8_t> bytes(sizeof d);
  std::memcpy(bytes.data(), &d, sizeof d);
  return bytes;
}

// Script: the descriptor block written at `at`, DOORBELL right after it (two accesses).
inline void launch(par::testing::TlmHarness& h, sc_core::sc_time at, const PacketDescriptor& d) {
  h.at(at).write(kCoreRegStart, bytes_of(d));
  h.then().write64(kCoreRegDoorbell, 1);
}

}  // namespace par::core::testing
