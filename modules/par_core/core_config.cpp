#include "core_config.hpp"

#include <sstream>

#include "par/isa/instruction.hpp"

namespace par::core {

namespace {

void require_range(std::vector<std::string>& errors, const char* name, std::int64_t value,
                   std::int64_t lo, std::int64_t hi) {
  if (value < lo || value > hi)
    errors.push_back(std::string("core.") + name + ": " + std::to_string(value) +
                     " is out of range " + std::to_string(lo) + ".." + std::to_string(hi));
}

void require_fixed(std::vector<std::string>& errors, const char* name, int value, int fixed) {
  if (value != fixed)
    errors.push_back(std::string("core.") + name + ": must be " + std::to_string(fixed) +
                     " (fixed by the instruction encoding), got " + std::to_string(value));
}

const char* const kFuNames[isa::kBackendUnits] = {"alu", "fpu", "ls", "cmp"};

// The comma-separated names of `list`, without blanks; empty names are skipped.
std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> names;
  std::string name;
  std::istringstream in(list);
  while (std::getline(in, name, ',')) {
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    if (!name.empty()) names.push_back(name);
  }
  return names;
}

}  // namespace

unsigned CoreConfig::fu_wait_mask() const {
  unsigned mask = 0;
  for (const std::string& name : split_list(context_fu_wait))
    for (int u = 0; u < isa::kBackendUnits; ++u)
      if (name == kFuNames[u]) mask |= 1u << u;
  return mask;
}

std::uint64_t CoreConfig::context_state_bytes() const {
  const auto S = static_cast<std::uint64_t>(slots());
  // Per slot: 32 registers and 8 predicates, the executor's scratch (four 8-byte and three
  // 1-byte arrays), the mask and the qualified mask, one mask per command-stack level.
  const std::uint64_t per_slot = 32 * 8 + 8 + 4 * 8 + 3 + 2 + static_cast<std::uint64_t>(control_stack_depth) + 1;
  // The timing scoreboard: per register and thread slot the cycle its value is available.
  const std::uint64_t scoreboard = static_cast<std::uint64_t>(threads_per_lane) * isa::kRegIdCount * 8;
  return S * per_slot + scoreboard + 4096;
}

std::vector<std::string> CoreConfig::validate() const {
  std::vector<std::string> e;
  require_range(e, "lanes", lanes, 1, 256);
  require_range(e, "stream.channels", stream.channels, 1, isa::kStreamChannels);
  require_range(e, "stream.srf_elements", stream.srf_elements, 1, std::int64_t{1} << 30);
  require_range(e, "stream.latency", stream.latency, 1, 1000);
  require_range(e, "threads_per_lane", threads_per_lane, 1, 64);
  require_range(e, "icache_size", icache_size, 1, std::int64_t{1} << 26);
  require_fixed(e, "gprs", gprs, 16);
  require_fixed(e, "predicates", predicates, 8);
  require_fixed(e, "inherited", inherited, 16);
  require_range(e, "rob_size", rob_size, 1, 4096);
  require_range(e, "queue_size", queue_size, 1, 4096);
  require_range(e, "fpu_latency", fpu_latency, 1, 1000);
  require_range(e, "alu_latency", alu_latency, 1, 1000);
  require_range(e, "cmp_latency", cmp_latency, 1, 1000);
  require_range(e, "dcache_latency", dcache_latency, 1, 1000);
  require_range(e, "output_buffers", output_buffers, 1, 4096);
  require_range(e, "input_buffers", input_buffers, 1, 4096);
  require_range(e, "commit_per_fu", commit_per_fu, 1, 4096);
  require_range(e, "fpu_div_latency", fpu_div_latency, 0, 1000);
  require_range(e, "frontend_latency", frontend_latency, 0, 1000);
  require_range(e, "xp_disqualified_penalty", xp_disqualified_penalty, 0, 1000);
  require_range(e, "control_stack_depth", control_stack_depth, 1, 1 << 20);
  require_range(e, "ls_max_outstanding", ls_max_outstanding, 1, 1 << 20);
  require_range(e, "contexts", contexts, 1, kMaxContexts);
  if (contexts >= 1 && lanes >= 1 && threads_per_lane >= 1 && control_stack_depth >= 1) {
    const std::uint64_t need = static_cast<std::uint64_t>(contexts) * context_state_bytes();
    if (need > kMaxContextStateBytes)
      e.push_back("core.contexts: " + std::to_string(contexts) + " contexts of " + std::to_string(slots()) +
                  " thread slots (L x T) with " + std::to_string(control_stack_depth) +
                  " command-stack levels need " + std::to_string((need + (1 << 20) - 1) >> 20) +
                  " MiB of context state, more than the " + std::to_string(kMaxContextStateBytes >> 20) +
                  " MiB a core may hold; use fewer contexts, lanes, threads per lane or stack levels");
  }
  for (const std::string& name : split_list(context_fu_wait)) {
    bool known = false;
    for (const char* fu : kFuNames) known = known || name == fu;
    if (!known)
      e.push_back("core.context_fu_wait: '" + name + "' is not a functional unit (alu, fpu, ls, cmp)");
  }
  if (max_cycles < 1) e.push_back("core.max_cycles: must be at least 1");
  if (line_bytes < 8 || line_bytes > 4096 || (line_bytes & (line_bytes - 1)) != 0)
    e.push_back("core.line_bytes: " + std::to_string(line_bytes) + " must be a power of two in 8..4096");
  if (local_mem_size == 0) e.push_back("core.local_mem_size: must be at least 1 byte");
  if (local_mem_size > (std::uint64_t{1} << 34))
    e.push_back("core.local_mem_size: at most 16 GiB of local memory can be modelled");
  if (local_mem_base + local_mem_size < local_mem_base)
    e.push_back("core.local_mem_base: window wraps around the 64-bit address space");
  return e;
}

const char* to_string(QueueRelease v) { return v == QueueRelease::Issue ? "issue" : "commit"; }
const char* to_string(StoreIssue v) {
  return v == StoreIssue::Address ? "address" : "all_operands";
}

const char* to_string(OutputBufferRelease v) {
  return v == OutputBufferRelease::Commit ? "commit" : "complete";
}
const char* to_string(RobAllocation v) { return v == RobAllocation::Dispatch ? "dispatch" : "issue"; }
const char* to_string(RobRelease v) { return v == RobRelease::Commit ? "commit" : "complete"; }
const char* to_string(ContextReady v) {
  switch (v) {
    case ContextReady::Dispatch: return "dispatch";
    case ContextReady::Operands: return "operands";
    case ContextReady::Complete: return "complete";
  }
  return "?";
}

}  // namespace par::core
