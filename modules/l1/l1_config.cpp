#include "l1_config.hpp"

#include "par/cachekit/config_checks.hpp"
#include "par/simkit/options.hpp"

namespace par::l1 {

const char* to_string(WritePolicy p) { return p == WritePolicy::WriteBack ? "write_back" : "write_through"; }

namespace {

bool require_range(std::vector<std::string>& e, const char* name, std::uint64_t value, std::uint64_t lo,
                   std::uint64_t hi) {
  return cachekit::require_range(e, std::string("l1.") + name, value, lo, hi);
}

}  // namespace

std::vector<std::string> L1Config::validate() const {
  std::vector<std::string> e;
  const bool ways_ok = require_range(e, "ways", ways, 1, 64);
  bool line_ok = require_range(e, "line_bytes", line_bytes, 8, 4096);
  if (line_ok && (line_bytes & (line_bytes - 1)) != 0) {
    e.push_back("l1.line_bytes: " + std::to_string(line_bytes) + " is not a power of two");
    line_ok = false;
  }
  if (size_bytes > kMaxBytes) {
    e.push_back("l1.size_bytes: " + std::to_string(size_bytes) + " is larger than the largest L1 allowed (" +
                std::to_string(kMaxBytes) + " bytes; a larger cache belongs in the L2)");
  } else if (require_range(e, "size_bytes", size_bytes, 1, kMaxBytes) && ways_ok && line_ok) {
    const std::uint64_t set_bytes = std::uint64_t{ways} * line_bytes;
    if (size_bytes % set_bytes != 0)
      e.push_back("l1.size_bytes: " + std::to_string(size_bytes) + " is not a multiple of l1.ways * l1.line_bytes = " +
                  std::to_string(set_bytes) + " (the ways do not divide the lines into whole sets)");
  }
  require_range(e, "hit_latency", hit_latency, 1, 100000);
  require_range(e, "miss_cycles", miss_cycles, 0, 100000);
  require_range(e, "refill_cycles", refill_cycles, 0, 100000);
  require_range(e, "mshrs", mshrs, 1, 1024);
  return e;
}

const L1Config& checked(const L1Config& cfg) {
  cachekit::throw_if_invalid(cfg.validate(), "L1");
  return cfg;
}

void register_options(simkit::OptionRegistry& reg, L1Config& c) {
  reg.add("l1.enabled", c.enabled,
          "Give every PAR core a private L1 data cache between its memory port and the device interconnect.");
  reg.add("l1.size_bytes", c.size_bytes,
          "Capacity of each core's L1 in bytes (a multiple of l1.ways * l1.line_bytes, at most 1 MiB).")
      .range(1, std::uint64_t{1} << 40);
  reg.add("l1.ways", c.ways, "Associativity of the L1 (LRU replacement).").range(1, 64);
  reg.add("l1.line_bytes", c.line_bytes,
          "L1 line size in bytes (power of two, at least core.line_bytes): the unit of fills.")
      .range(8, 4096);
  reg.add("l1.hit_latency", c.hit_latency, "Cycles (core clock) from an access to its data in the core on a hit.")
      .range(1, 100000);
  reg.add("l1.miss_cycles", c.miss_cycles,
          "Cycles from the start of a miss to its line fill leaving the L1 (tag check, miss handling).")
      .range(0, 100000);
  reg.add("l1.refill_cycles", c.refill_cycles,
          "Cycles from a fill's completion to the data in the core (refill, forwarding).")
      .range(0, 100000);
  reg.add("l1.mshrs", c.mshrs,
          "Miss status holding registers: line fills in flight; misses to a line in flight merge, "
          "misses beyond this wait.")
      .range(1, 1024);
  reg.add_enum("l1.write_policy", c.write_policy,
               "write_back: writes stay in the L1 until eviction or the end of the core's share; "
               "write_through: every write also goes to the next level.",
               {{"write_back", WritePolicy::WriteBack}, {"write_through", WritePolicy::WriteThrough}});
  reg.add("l1.write_allocate", c.write_allocate,
          "Allocate a line on a write miss; off: write misses go to the next level only.");
  reg.add("l1.write_validate", c.write_validate,
          "A write miss that covers a whole line allocates it without a fill.");
}

}  // namespace par::l1
