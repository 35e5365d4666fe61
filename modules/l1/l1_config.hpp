// Parameters of the optional private L1 data cache of each PAR core, their validation and their
// named options (`l1.<field>`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::l1 {

enum class WritePolicy {
  WriteBack,     // writes stay in the L1 (dirty bytes) until eviction or the end of the share
  WriteThrough,  // every write also goes to the next level; lines are never dirty
};

const char* to_string(WritePolicy p);

struct L1Config {
  // The largest L1 the model accepts: beyond it a first-level cache is not what is being
  // modelled (use the L2).
  static constexpr std::uint64_t kMaxBytes = std::uint64_t{1} << 20;

  bool enabled = false;                  // off: cores reach the interconnect directly
  std::uint64_t size_bytes = 16 * 1024;  // capacity of one core's L1
  unsigned ways = 4;                     // set associativity, LRU replacement
  unsigned line_bytes = 64;              // the unit of fills (and of writebacks)
  unsigned hit_latency = 4;              // cycles from the access to its data in the core (hit)
  unsigned miss_cycles = 2;              // cycles from a miss's start to its fill request leaving
  unsigned refill_cycles = 2;            // cycles from the fill's last beat to the data in the core
  unsigned mshrs = 8;                    // line fills in flight
  WritePolicy write_policy = WritePolicy::WriteBack;
  bool write_allocate = true;            // false: write misses go to the next level only
  bool write_validate = true;            // a write miss covering a whole line skips the fill

  // Derived (valid only when validate() is empty).
  std::uint64_t sets() const { return size_bytes / (std::uint64_t{ways} * line_bytes); }

  // Every violated constraint as "l1.<option>: <why>"; empty when valid (also when disabled:
  // the values are checked whether or not the cache is built).
  std::vector<std::string> validate() const;
};

// Returns `cfg` when valid; otherwise throws std::invalid_argument with every message.
const L1Config& checked(const L1Config& cfg);

// Registers every field as `l1.<name>`; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, L1Config& cfg);

}  // namespace par::l1
