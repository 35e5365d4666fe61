#include "prefetch/prefetch_statistics.hpp"

namespace par::core {

PrefetchStatistics::PrefetchStatistics(simkit::StatGroup& g)
    : loads_(g.counter("affine_loads", "loads", "Loads at an affine function of i0 found in the packets' code (summed over packets)")),
      rounds_(g.counter("rounds", "rounds", "Rounds whose lines were decoded")),
      issued_(g.counter("issued", "requests", "Prefetch requests sent to memory (one per line)")),
      bytes_(g.counter("bytes", "bytes", "Bytes the prefetch requests named")),
      unsent_(g.counter("unsent", "lines", "Decoded lines not sent: their round or the packet ended first")),
      errors_(g.counter("errors", "requests", "Prefetch requests answered with an error (ignored)")),
      stall_cycles_(g.counter("stall_cycles", "cycles", "Cycles requests waited for core.prefetch.max_outstanding")),
      latency_sum_(g.counter("latency_sum", "cycles", "Sum of request latencies (leaving the core to the answer)")) {
  g.formula("mean_latency", "cycles", "latency_sum / issued",
            [](const simkit::StatView& s) { return s["latency_sum"] / s["issued"]; }, simkit::Format::fixed(1));
}

void PrefetchStatistics::update(const PrefetchCounts& c) {
  loads_.set(static_cast<std::uint64_t>(c.loads));
  rounds_.set(static_cast<std::uint64_t>(c.rounds));
  issued_.set(static_cast<std::uint64_t>(c.issued));
  bytes_.set(static_cast<std::uint64_t>(c.bytes));
  unsent_.set(static_cast<std::uint64_t>(c.unsent));
  errors_.set(static_cast<std::uint64_t>(c.errors));
  stall_cycles_.set(static_cast<std::uint64_t>(c.stall_cycles));
  latency_sum_.set(static_cast<std::uint64_t>(c.latency_sum));
}

}  // namespace par::core
