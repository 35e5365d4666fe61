#include "l1_stats.hpp"

namespace par::l1 {

L1Stats::L1Stats(simkit::StatGroup& g)
    : cachekit::CacheCounters(g, "L1", "the next level", "port"),
      write_throughs(g.counter("write_throughs", "accesses",
                               "Writes that hit or allocated and also went to the next level (write_through)")),
      evictions(g.counter("evictions", "lines", "Valid lines replaced by a miss")),
      flushes(g.counter("flushes", "flushes", "Write-back-and-drop of the whole L1 (end of each share)")) {}

std::vector<L1Stats::Summed> L1Stats::summed() {
  std::vector<Summed> list = CacheCounters::summed("port");
  list.push_back({"write_throughs", "accesses"});
  list.push_back({"evictions", "lines"});
  list.push_back({"flushes", "flushes"});
  return list;
}

}  // namespace par::l1
