// The packet prefetcher's counters (README.md "Statistics"): plain numbers, kept per packet in
// CoreStats and summed like its other counters.
#pragma once

#include <cstdint>

namespace par::core {

struct PrefetchCounts {
  std::int64_t loads = 0;           // affine loads found, summed over packets
  std::int64_t rounds = 0;          // rounds decoded
  std::int64_t issued = 0;          // prefetch requests sent (one per line)
  std::int64_t bytes = 0;           // bytes those requests named
  std::int64_t unsent = 0;          // decoded lines dropped because their round ended first (or the packet)
  std::int64_t errors = 0;          // requests answered with an error
  std::int64_t stall_cycles = 0;    // cycles requests waited for core.prefetch.max_outstanding
  std::int64_t latency_sum = 0;     // cycles from sending to the response, summed over requests

  void accumulate(const PrefetchCounts& o) {
    loads += o.loads;
    rounds += o.rounds;
    issued += o.issued;
    bytes += o.bytes;
    unsent += o.unsent;
    errors += o.errors;
    stall_cycles += o.stall_cycles;
    latency_sum += o.latency_sum;
  }
};

}  // namespace par::core
