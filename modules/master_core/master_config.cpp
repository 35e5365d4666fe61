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
  for (const std::string& m : runtime().validate()) e.push_back(m);
  return e;
}

runtime::RuntimeConfig MasterConfig::runtime() const {
  runtime::RuntimeConfig r;
  r.scheduler_base = scheduler_base;
  r.heap_base = heap_base;
  r.heap_bytes = heap_bytes;
  r.copy_chunk_bytes = copy_chunk_bytes;
  r.issue_cycles = cpi;
  r.wait = wait;
  r.poll_ns = poll_ns;
  r.flag_addr = flag_addr;
  r.wait_limit_ns = wait_limit_ns;
  return r;
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
  reg.add("master.scheduler_base", c.scheduler_base, "Device address of the thread scheduler's register window.").hex();
  reg.add("master.heap_base", c.heap_base, "First byte of the device memory the host runtime's alloc() hands out.").hex();
  reg.add("master.heap_bytes", c.heap_bytes, "Bytes of device memory alloc() may hand out.").hex();
  reg.add("master.copy_chunk_bytes", c.copy_chunk_bytes,
          "Bytes per transaction of a host copy (a power of two; chunks are split at multiples of it).")
      .range(1, 1u << 20);
  reg.add_enum("master.wait", c.wait,
               "How wait()/sync learn that packets completed: a blocking read of the scheduler's WAIT register, "
               "polling COMPLETED every master.poll_ns, or polling the host-memory flag at master.flag_addr.",
               {{"register", runtime::WaitMode::Register}, {"poll", runtime::WaitMode::Poll},
                {"flag", runtime::WaitMode::Flag}});
  reg.add("master.poll_ns", c.poll_ns, "Time between two polls (master.wait = poll or flag).").range(1e-3, 1e12);
  reg.add("master.flag_addr", c.flag_addr,
          "Host-memory address of the completion flag the scheduler writes (master.wait = flag).").hex();
  reg.add("master.wait_limit_ns", c.wait_limit_ns,
          "A wait that polls longer than this is an error (0 = no limit; master.wait = poll or flag).")
      .range(0, 1e18);
  reg.add("master.control_stack_depth", c.control_stack_depth,
          "Command-stack entries of the .MASTER interpreter (docs/isa.md §7.2).").range(1, 1 << 20);
  reg.add("master.max_instructions", c.max_instructions,
          "Run limit of a .MASTER program in executed instructions (a probable endless loop beyond).")
      .min(1);
}

}  // namespace par::master
