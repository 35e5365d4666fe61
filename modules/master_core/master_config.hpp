// Parameters of the master core (options `master.*`, README.md "Options"): the host CPU's clock
// and CPI, its control stack and run limit. The options of the software it runs (the host
// runtime's `master.wait`, heap, ...) are registered by sw/runtime.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::master {

struct MasterConfig {
  double clock_mhz = 2000;          // host CPU clock (Opteron class)
  unsigned cpi = 1;                 // cycles per non-memory instruction (and per copy transaction issued)
  int control_stack_depth = 64;     // command-stack entries of the .MASTER interpreter (docs/isa.md §7.2)
  std::int64_t max_instructions = 10'000'000'000;  // .MASTER run limit (docs/isa.md §9.2)

  // Every violated constraint as "master.<option>: <why>"; empty when valid.
  std::vector<std::string> validate() const;
};

// Returns `cfg` when valid; throws std::invalid_argument listing every message otherwise.
const MasterConfig& checked(const MasterConfig& cfg);

// Registers every field as `master.<name>`; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, MasterConfig& cfg);

}  // namespace par::master
