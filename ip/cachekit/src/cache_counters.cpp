#include "par/cachekit/cache_counters.hpp"

namespace par::cachekit {

using simkit::Buckets;
using simkit::Format;
using simkit::StatView;

CacheCounters::CacheCounters(simkit::StatGroup& g, const std::string& what, const std::string& next,
                             const std::string& port)
    : accesses(g.counter("accesses", "accesses",
                         "Line accesses accepted by the " + what + " (hits + misses + mshr_merges)")),
      reads(g.counter("reads", "accesses", "Read accesses")),
      writes(g.counter("writes", "accesses", "Write accesses")),
      hits(g.counter("hits", "accesses", "Accesses that found their line present")),
      misses(g.counter("misses", "accesses", "Accesses that found no line (primary misses)")),
      mshr_merges(g.counter("mshr_merges", "accesses", "Accesses merged into a line fill already in flight")),
      fills(g.counter("fills", "lines", "Lines read from " + next + " (misses that took an MSHR)")),
      write_validates(
          g.counter("write_validates", "accesses", "Write misses covering a whole line, allocated without a fill")),
      write_arounds(g.counter("write_arounds", "accesses", "Write misses sent to " + next + " without allocation")),
      writebacks(g.counter("writebacks", "lines", "Dirty victims written back to " + next)),
      flush_writebacks(g.counter("flush_writebacks", "lines", "Dirty lines written back by flushes")),
      mshr_full_stalls(g.counter("mshr_full_stalls", "accesses", "Misses that waited because every MSHR was busy")),
      mshr_stall_cycles(g.counter("mshr_stall_cycles", "cycles", "Cycles misses waited for a free MSHR")),
      port_conflicts(g.counter(port + "_conflicts", "accesses",
                               "Accesses that waited for the " + what + "'s port (one access per cycle)")),
      port_conflict_cycles(
          g.counter(port + "_conflict_cycles", "cycles", "Cycles accesses waited for the " + what + "'s port")),
      set_stalls(g.counter("set_stalls", "accesses",
                           "Misses that waited because every way of the set had a fill in flight")),
      set_stall_cycles(g.counter("set_stall_cycles", "cycles", "Cycles misses waited for a way of their set")),
      errors(g.counter("errors", "accesses", "Accesses that got an error response from " + next)),
      latency(g.distribution("latency", "cycles", "Access latency from arrival at the " + what + " to completion",
                             Buckets::log2(14))) {
  g.formula("hit_rate", "ratio", "hits / accesses", [](const StatView& s) { return s["hits"] / s["accesses"]; },
            Format::percent(2));
  g.formula("miss_rate", "ratio", "misses / accesses",
            [](const StatView& s) { return s["misses"] / s["accesses"]; }, Format::percent(2));
}

std::vector<CacheCounters::Summed> CacheCounters::summed(const std::string& port) {
  return {{"accesses", "accesses"},
          {"reads", "accesses"},
          {"writes", "accesses"},
          {"hits", "accesses"},
          {"misses", "accesses"},
          {"mshr_merges", "accesses"},
          {"fills", "lines"},
          {"write_validates", "accesses"},
          {"write_arounds", "accesses"},
          {"writebacks", "lines"},
          {"flush_writebacks", "lines"},
          {"mshr_full_stalls", "accesses"},
          {"mshr_stall_cycles", "cycles"},
          {port + "_conflicts", "accesses"},
          {port + "_conflict_cycles", "cycles"},
          {"set_stalls", "accesses"},
          {"set_stall_cycles", "cycles"},
          {"errors", "accesses"}};
}

}  // namespace par::cachekit
