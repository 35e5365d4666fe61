#include "core_config.hpp"

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

}  // namespace

std::vector<std::string> CoreConfig::validate() const {
  std::vector<std::string> e;
  require_range(e, "lanes", lanes, 1, 256);
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

}  // namespace par::core
