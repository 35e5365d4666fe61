// Options of the packet prefetcher (README.md): the runahead parameters of the reference design
// (docs/link-and-memory.md §2.4). Off by default; the core is then exactly the core without it.
#pragma once

#include <cstdint>

namespace par::simkit {
class OptionRegistry;
}

namespace par::core {

struct PrefetchConfig {
  bool enabled = false;
  int max_outstanding = 20;      // prefetch requests in flight per core
  std::int64_t early_ignore = 1; // rounds at the start of a packet that are never prefetched
  std::uint64_t byte_limit = 0;  // bytes decoded for rounds not yet ended; 0 = unlimited
  int queue_rounds = 10;         // byte-count queue: rounds decoded and not yet ended
};

// Registers `core.prefetch.<field>` with ranges (out-of-range values are refused by the registry
// with the option's name and range).
void register_prefetch_options(simkit::OptionRegistry& reg, PrefetchConfig& cfg);

}  // namespace par::core
