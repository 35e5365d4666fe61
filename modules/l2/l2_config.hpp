// Parameters of the banked L2 cache (docs/link-and-memory.md §2.1) as one struct, its validation and
// its named options (`l2.<field>`).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace par::simkit {
class OptionRegistry;
}

namespace par::l2 {

struct L2Config {
  unsigned banks = 4;                      // B; each bank is its own SC_MODULE and TLM target
  std::uint64_t bank_bytes = 64 * 1024;    // capacity of one bank (256 KiB in total by default)
  unsigned ways = 8;                       // set associativity, LRU replacement
  unsigned line_bytes = 64;                // cache line (the unit of fills and writebacks)
  std::uint64_t interleave_bytes = 0;      // bytes mapped to one bank before the next; 0 = one line
  bool xor_hash = false;                   // XOR-fold upper chunk-number bits into the bank
  unsigned mshrs = 16;                     // outstanding line fills per bank
  unsigned hit_latency = 10;               // cycles from acceptance to the response of a hit
  double clock_mhz = 1000.0;               // bank clock: one new access per bank per cycle
  bool write_allocate = true;              // false: write misses go to DRAM without allocating
  bool write_validate = true;              // a write miss covering a whole line skips the fill
  // Not an option: the platform sets it when the cores send prefetch requests, so that the banks
  // report their prefetch counters (README "Prefetch requests"); without it the counters are kept
  // but not in the statistics tree, which stays that of an L2 without prefetching.
  bool prefetch_stats = false;

  // Derived values (valid only when validate() is empty).
  std::uint64_t interleave() const { return interleave_bytes == 0 ? line_bytes : interleave_bytes; }
  std::uint64_t sets() const { return bank_bytes / (std::uint64_t{ways} * line_bytes); }

  // Every violated constraint as "l2.<option>: <why>"; empty when the configuration is valid.
  std::vector<std::string> validate() const;
};

// Returns `cfg` when it is valid; otherwise throws std::invalid_argument with every message of
// validate() (modules call it before using a configuration).
const L2Config& checked(const L2Config& cfg);

// Registers every field as `l2.<name>` with a help line; the field's current value is the default.
void register_options(simkit::OptionRegistry& reg, L2Config& cfg);

}  // namespace par::l2
