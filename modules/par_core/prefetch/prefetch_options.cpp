#include "prefetch/prefetch_config.hpp"

#include "par/simkit/options.hpp"

namespace par::core {

void register_prefetch_options(simkit::OptionRegistry& reg, PrefetchConfig& c) {
  reg.add("core.prefetch.enabled", c.enabled,
          "Packet prefetcher: L2 prefetches for the packet's loads at an inherited base plus an affine function "
          "of i0, ahead of the rounds that use them (timing mode; needs platform.memory = l2_dram).");
  reg.add("core.prefetch.max_outstanding", c.max_outstanding, "Prefetch requests in flight per core.").range(1, 4096);
  reg.add("core.prefetch.early_ignore", c.early_ignore,
          "Rounds at the start of each packet that are never prefetched (the prefetcher gets ahead of the lanes).")
      .range(std::int64_t{0}, std::int64_t{1} << 40);
  reg.add("core.prefetch.byte_limit", c.byte_limit,
          "Runahead byte limit: no further round is decoded while the rounds decoded and not yet ended name this "
          "many bytes; 0 = unlimited.")
      .range(std::uint64_t{0}, std::uint64_t{1} << 40);
  reg.add("core.prefetch.queue_rounds", c.queue_rounds,
          "Byte-count queue: rounds decoded and not yet ended, the running ones included (the prefetch distance "
          "is this minus one round).")
      .range(1, 4096);
}

}  // namespace par::core
