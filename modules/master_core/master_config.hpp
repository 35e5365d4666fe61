// Parameters of the master core (options `master.*`, README.md "Options"): the host CPU's clock
// and CPI, its control stack and run limit, and the host runtime's device map and wait method.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "runtime_config.hpp"

namespace par::simkit {
class OptionRegistry;
}

namespace par::master {

struct MasterConfig {
  double clock_mhz = 2000;          // host CPU clock (Opteron class)
  unsigned cpi = 1;                 // cycles per non-memory instruction (and per copy transaction issued)
  std::uint64_t scheduler_base = 0x0000001000000000ull;  // device address of the scheduler's registers
  std::uint64_t heap_base = 0;      // device memory the runtime's alloc() hands out
  std::uint64_t heap_bytes = 0;
  std::uint64_t copy_chunk_bytes = 64;  // bytes per transaction of a copy
  runtime::WaitMode wait = runtime::WaitMode::Register;
  double poll_ns = 100;             // poll / flag: time between two polls
  std::uint64_t flag_addr = 0;      // flag: the host-memory completion flag
  double wait_limit_ns = 1e10;      // a wait longer than this is an error (0 = none)
  int control_stack_depth = 64;     // command-stack entries of the .MASTER interpreter (docs/isa.md §7.2)
  std::int64_t max_instructions = 10'000'000'000;  // .MASTER run limit (docs/isa.md §9.2)

  // Every violated constraint as "master.<option>: <why>"; empty when valid.
  std::vector<std::string> validate() const;
  // The host runtime's part of the configuration.
  runtime::RuntimeConfig runtime() const;
};

// Returns `cfg` when valid; throws std::invalid_argument listing every message otherwise.
const MasterConfig& checked(const MasterConfig& cfg);

// Registers every field as `master.<name>`; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, MasterConfig& cfg);

}  // namespace par::master
