#include "master_config.hpp"

#include <stdexcept>

#include "par/simkit/options.hpp"

namespace par::master {

std::vector<std::string> MasterConfig::validate() const {
  std::vector<std::string> e;
  // A period of at least 1 ps (the default SystemC resolution).
  if (!(clock_mhz > 0 && clock_mhz <= 1e6)) e.push_back("master.clock_mhz: must be in (0, 1000000]");
  if (cpi < 1 || cpi > 1000000) e.push_back("master.cpi: " + std::to_string(cpi) + " is out of range 1..1000000");
  if (control_stack_depth < 1 || control_stack_depth > 1 << 20)
    e.push_back("master.control_stack_depth: " + std::to_string(control_stack_depth) + " is out of range 1..1048576");
  if (max_instructions < 1) e.push_back("master.max_instructions: must be at least 1");
  return e;
}

const MasterConfig& checked(const MasterConfig& cfg) {
  std::string all;
  for (const std::string& m : cfg.validate()) all += (all.empty() ? "" : "; ") + m;
  if (!all.empty()) throw std::invalid_argument("invalid master configuration: " + all);
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, MasterConfig& c) {
  reg.add("master.clock_mhz", c.clock_mhz, "Host CPU (master core) clock in MHz.").range(1e-3, 1e6);
  reg.add("master.cpi", c.cpi,
          "Host cycles per non-memory instruction of a .MASTER program, and between two transactions of a copy.")
      .range(1, 1000000);
  reg.add("master.control_stack_depth", c.control_stack_depth,
          "Command-stack entries of the .MASTER interpreter (docs/isa.md §7.2).").range(1, 1 << 20);
  reg.add("master.max_instructions", c.max_instructions,
          "Run limit of a .MASTER program in executed instructions (a probable endless loop beyond).")
      .min(1);
}

}  // namespace par::master
