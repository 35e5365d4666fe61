// Launching a packet on a ParCore through its register protocol (par/core/core_registers.hpp)
// from a TlmHarness: the descriptor block in one write, then DOORBELL; and a core to launch on.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "support/tlm_harness.hpp"
#include "core_test_support.hpp"
#include "memory.hpp"
#include "par/core/core_registers.hpp"
#include "par/isa/program.hpp"
#include "par_core.hpp"

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

// A ParCore "core0" of `cfg` at 1 GHz (quantum 1 us) running `source` in timing mode, its `mem`
// on a 4 KiB memory, its completion line on `line`. Tests bind their initiators to its sockets.
struct CoreBench {
  isa::Program program;
  CoreConfig cfg;
  std::unique_ptr<LoadedProgram> loaded;
  memory::Memory global{"global", memory::MemoryConfig{4096, 0, 0}};
  std::unique_ptr<ParCore> core;
  sc_core::sc_signal<bool> line{"line"};

  CoreBench(const char* source, const CoreConfig& c) : program(assemble_or_fail(source)), cfg(c) {
    std::string error;
    loaded = LoadedProgram::load(program, cfg, &error);
    EXPECT_NE(loaded, nullptr) << error;
    const sc_core::sc_time cycle(1, sc_core::SC_NS);
    core = std::make_unique<ParCore>("core0", cfg, *loaded, RunMode::Timing, /*functional_width=*/1, cycle, 1000 * cycle);
    core->mem.bind(global.in);
    core->irq.bind(line);
  }
};

}  // namespace par::core::testing
