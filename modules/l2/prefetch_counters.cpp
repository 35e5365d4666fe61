#include "prefetch_counters.hpp"

namespace par::l2 {

PrefetchCounters::PrefetchCounters(simkit::StatGroup& g)
    : requests(g.counter("requests", "requests", "Prefetch requests received (one per line)")),
      fills(g.counter("fills", "lines", "Lines read from DRAM for a prefetch request")),
      redundant(g.counter("redundant", "requests", "Prefetch requests whose line was present or already in flight")),
      dropped(g.counter("dropped", "requests",
                        "Prefetch requests dropped: no free MSHR or way at their start, or a DRAM error")),
      useful(g.counter("useful", "lines", "Prefetched lines that a later access used (counted at the first use)")),
      late(g.counter("late", "lines", "Useful prefetched lines whose first access arrived before the fill completed")),
      evicted_unused(g.counter("evicted_unused", "lines", "Prefetched lines evicted before any access used them")) {
  g.formula("accuracy", "ratio", "useful / fills: the share of prefetched lines that were used",
            [](const simkit::StatView& s) { return s["useful"] / s["fills"]; }, simkit::Format::percent(2));
}

const std::vector<PrefetchCounters::Summed>& PrefetchCounters::summed() {
  static const std::vector<Summed> names{{"requests", "requests"}, {"fills", "lines"},
                                         {"redundant", "requests"}, {"dropped", "requests"},
                                         {"useful", "lines"},     {"late", "lines"},
                                         {"evicted_unused", "lines"}};
  return names;
}

}  // namespace par::l2
