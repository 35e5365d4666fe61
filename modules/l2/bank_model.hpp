// The behaviour of one L2 bank without SystemC: tags, LRU, line data, MSHRs, the access port and
// the timing rules, talking to the next level (DRAM) through NextLevel. L2Bank wraps it in an
// SC_MODULE; unit tests drive it directly with a fake next level.
//
// Timing is loosely timed by reservation (docs/architecture.md): every call returns the access's
// completion time at once, so one initiator can have many accesses in flight.
//   - port: the access starts at the first free cycle slot at or after its arrival (PortCalendar);
//   - hit: done = start + hit latency;
//   - access to a line whose fill is in flight: merges, done = fill completion + hit latency;
//   - miss: waits for a free MSHR (and, rarely, for a way of its set whose fill is in flight),
//     reads the line from the next level starting then; done = fill completion + hit latency;
//     a dirty victim is written back at the same time, after the fill request (posted: it only
//     delays later traffic through the next level's own reservations);
//   - a write miss covering a whole line (write-validate) allocates without a fill: done = start
//     + hit latency; with write_allocate off a write miss goes to the next level and completes
//     when it does.
//   - a prefetch request (prefetch()) fills a line that is neither present nor in flight, if an
//     MSHR and a way are free at its start (otherwise it is dropped: prefetches never wait and
//     never delay a demand miss); done = fill completion. The line is marked prefetched until
//     an access uses it (useful; late if the fill was still in flight) or it is evicted unused.
// Data is functional and in call order: the cache and the next level always hold the values of
// every access made so far, whatever their times.
#pragma once

#include <cstdint>
#include <vector>

#include "bank_stats.hpp"
#include "l2_config.hpp"
#include "l2_geometry.hpp"
#include "par/cachekit/cache_core.hpp"
#include "par/cachekit/mshr_file.hpp"
#include "par/cachekit/request.hpp"
#include "par/cachekit/tick.hpp"
#include "par/simkit/line_bytes.hpp"
#include "par/trace/vcd_writer.hpp"
#include "prefetch_counters.hpp"

namespace par::l2 {

// The cache building blocks (ip/cachekit) are the L2's own vocabulary.
using namespace cachekit;  // NOLINT(google-build-using-namespace)

class BankModel {
 public:
  // `cfg` must be valid; `period` is the bank clock period in ticks; statistics are registered
  // in `group`.
  BankModel(const L2Config& cfg, ScTick period, NextLevel& next, simkit::StatGroup& group);

  Outcome access(const Request& r);
  // A prefetch request for the line holding `addr`, arriving at `at` (README "Prefetch
  // requests"). Takes a port slot; not an access (the access counters do not see it).
  Outcome prefetch(std::uint64_t addr, ScTick at);
  // Untimed access through the cache: a present line (dirty or not) is read or written in place
  // (a write marks it dirty); otherwise the next level is accessed. Nothing is allocated.
  bool debug(const Request& r);
  // Writes every dirty line back (each takes a port slot from `at`); lines stay valid and clean,
  // or are dropped when `invalidate`. Returns when the last writeback completes (`at` if none).
  ScTick flush(ScTick at, bool invalidate);
  // The same with untimed debug writes.
  void flush_dbg(bool invalidate);

  // Inspection (tests, traces).
  bool contains(std::uint64_t addr) const;
  bool is_dirty(std::uint64_t addr) const;
  const L2Geometry& geometry() const { return geo_; }
  const MshrFile& mshrs() const { return core_.mshrs; }
  ScTick period() const { return core_.period; }
  BankStats& stats() { return stats_; }
  // VCD: the MSHRs in use over time (a counting signal; each fill holds one from its miss until
  // the line is back). `ps_per_tick` converts the model's ticks.
  void set_mshr_signal(trace::SignalRef signal, double ps_per_tick) {
    mshr_signal_ = signal;
    ps_per_tick_ = ps_per_tick;
  }
  PrefetchCounters& prefetch_counters() { return prefetch_; }

 private:
  Outcome miss(const Request& r, std::uint64_t set, std::uint64_t line, ScTick start);
  // Makes way v of `set` ready for a new line at `start`: counts a prefetched line evicted unused,
  // writes a dirty one back. Returns the way's data.
  std::uint8_t* evict(std::uint64_t set, int v, ScTick start);
  // Counts what becomes of a prefetched line that an access finds (first use) or evicts.
  void count_use(Way& x, ScTick start) {
    if (!x.prefetched) return;
    x.prefetched = false;
    ++prefetch_.useful;
    if (x.ready > start) ++prefetch_.late;
  }
  // A fill into its way (every miss makes one).
  void copy_line(std::uint8_t* dst, const std::uint8_t* src) const {
    simkit::copy_line_bytes(dst, src, geo_.line_bytes());
  }
  void apply(const Request& r, std::uint8_t* line_data) const {
    apply_request(r, line_data + geo_.offset_in_line(r.addr));
  }

  L2Config cfg_;
  L2Geometry geo_;
  ScTick hit_;
  NextLevel& next_;
  BankStats stats_;
  simkit::StatGroup prefetch_group_{"prefetch"};  // attached to the bank's group with prefetch_stats
  PrefetchCounters prefetch_{prefetch_group_};
  CacheCore core_;
  TagArray& tags_;  // core_.tags
  std::vector<std::uint8_t> fill_buf_;
  trace::SignalRef mshr_signal_;
  double ps_per_tick_ = 1;
  trace::Ps to_ps(ScTick t) const { return static_cast<trace::Ps>(static_cast<double>(t) * ps_per_tick_ + 0.5); }
};

}  // namespace par::l2
