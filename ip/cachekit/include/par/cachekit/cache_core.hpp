// What the project's cache models share (an L2 bank, a core's L1): tags and
// line data, MSHRs, the access port, and the first timing steps of an access and of a miss.
// Plain C++; inline, as every access goes through it.
#pragma once

#include <cstdint>

#include "par/cachekit/cache_counters.hpp"
#include "par/cachekit/mshr_file.hpp"
#include "par/cachekit/port_calendar.hpp"
#include "par/cachekit/tag_array.hpp"
#include "par/cachekit/tick.hpp"

namespace par::cachekit {

class CacheCore {
 public:
  // `period` is the clock period in ticks (at least 1).
  CacheCore(std::uint64_t sets, unsigned ways, unsigned line_bytes, unsigned mshr_count, ScTick clock_period,
            CacheCounters& stats)
      : period(clock_period),
        cycle(clock_period),
        tags(sets, ways, line_bytes),
        mshrs(mshr_count),
        port(clock_period),
        counters(stats) {}

  // Counts an access arriving at `at` and takes the first free port cycle at or after it;
  // returns the access's start.
  ScTick start(bool write, ScTick at) {
    const ScTick s = port.reserve(at);
    ++counters.accesses;
    ++(write ? counters.writes : counters.reads);
    if (s > at) {
      ++counters.port_conflicts;
      counters.port_conflict_cycles += cycles_ceil(s - at, cycle);
    }
    return s;
  }

  // The way a miss of `set` starting at `start` fills. A miss that needs a fill first waits for a
  // free MSHR; then, if every way of the set is waiting for a fill, for the first of them. Moves
  // `start` past the waits (counted) and returns the way.
  int place_miss(std::uint64_t set, ScTick& start, bool needs_fill) {
    if (needs_fill) {
      const ScTick free = mshrs.free_at(start);
      if (free > start) {
        ++counters.mshr_full_stalls;
        counters.mshr_stall_cycles += cycles_ceil(free - start, cycle);
        start = free;
      }
    }
    const int v = tags.victim(set, start);
    const Way& victim = tags.at(set, v);
    if (victim.valid && victim.ready > start) {
      // MSHRs only free up as time passes, so the entry found above is still free.
      ++counters.set_stalls;
      counters.set_stall_cycles += cycles_ceil(victim.ready - start, cycle);
      start = victim.ready;
    }
    return v;
  }

  // Counts the access's end: an error, and its latency from arrival in cycles.
  void finish(ScTick at, bool ok, ScTick done) {
    if (!ok) ++counters.errors;
    counters.latency.sample(static_cast<double>(done - at) / static_cast<double>(period));
  }

  const ScTick period;
  const TickDivider cycle;  // divides by period
  TagArray tags;
  MshrFile mshrs;
  PortCalendar port;
  CacheCounters& counters;
};

}  // namespace par::cachekit
