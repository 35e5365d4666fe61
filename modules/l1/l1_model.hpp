// The behaviour of one private L1 data cache without SystemC: tags, LRU, line data, per-byte dirty
// masks, MSHRs, the access port and the timing rules, talking to the next level (the device
// interconnect) through cachekit::NextLevel. L1Cache wraps it in an SC_MODULE; unit tests drive it
// directly with a fake next level. Tags, MSHRs, the port and the first steps of an access and of a
// miss are the L2's (cachekit::CacheCore, ip/cachekit).
//
// Timing is loosely timed by reservation, as in the L2 (every call returns its completion time):
//   - port: the access starts at the first free cycle slot at or after its arrival;
//   - hit: done = start + hit latency;
//   - access to a line whose fill is in flight: merges, done = max(fill + refill, start + hit);
//   - miss: waits for a free MSHR (and, rarely, for a way of its set), its fill leaves at
//     start + miss cycles; done = fill completion + refill cycles. A victim with dirty bytes is
//     written back when the fill leaves (posted: it delays only later traffic);
//   - write miss covering a whole line (write_validate): allocated without a fill,
//     done = start + hit latency;
//   - write_through: a write that hits or allocates also goes to the next level when it starts
//     and completes when both the L1 and the next level are done (no write buffer);
//   - write_allocate off: a write miss goes to the next level after the miss cycles and
//     completes when the next level does.
// Dirty state is kept per byte, and writebacks send only the dirty bytes (one write per
// contiguous run), so two cores that write different bytes of one line never overwrite each
// other's data. Data is functional and in call order, as in the L2.
#pragma once

#include <cstdint>
#include <vector>

#include "par/cachekit/request.hpp"
#include "par/cachekit/cache_core.hpp"
#include "l1_config.hpp"
#include "l1_stats.hpp"
#include "par/cachekit/tick.hpp"

namespace par::l1 {

using cachekit::Outcome;
using cachekit::Request;
using cachekit::ScTick;

class L1Model {
 public:
  // `cfg` must be valid; `period` is the clock period (the core's) in ticks.
  L1Model(const L1Config& cfg, ScTick period, cachekit::NextLevel& next, L1Stats& stats);

  // One access within one line.
  Outcome access(const Request& r);
  // Untimed access through the cache: a present line is read or written in place (a write marks
  // its bytes dirty, or also goes to the next level with write_through); otherwise the next
  // level is accessed. Nothing is allocated.
  bool debug(const Request& r);
  // Writes every dirty byte back (each line with dirty bytes takes a port slot from `at`) and,
  // with `invalidate`, drops every line. Returns when the last writeback completes (`at` if none).
  ScTick flush(ScTick at, bool invalidate);
  // The same with untimed debug writes.
  void flush_dbg(bool invalidate);

  unsigned line_bytes() const { return cfg_.line_bytes; }
  ScTick period() const { return core_.period; }
  // Inspection (tests).
  bool contains(std::uint64_t addr) const;
  bool is_dirty(std::uint64_t addr) const;  // the line has dirty bytes
  const cachekit::MshrFile& mshrs() const { return core_.mshrs; }

 private:
  std::uint64_t line_of(std::uint64_t addr) const { return addr >> line_shift_; }
  std::uint64_t set_of(std::uint64_t line) const { return sets_pow2_ ? line & (sets_ - 1) : line % sets_; }
  unsigned offset_of(std::uint64_t addr) const { return static_cast<unsigned>(addr & (cfg_.line_bytes - 1)); }
  std::size_t way_index(std::uint64_t set, int way) const {
    return static_cast<std::size_t>(set * cfg_.ways + static_cast<unsigned>(way));
  }
  std::uint8_t* dirty_of(std::size_t way) { return dirty_.data() + way * cfg_.line_bytes; }

  Outcome miss(const Request& r, std::uint64_t set, std::uint64_t line, ScTick start);
  // The write part of an access to way `w` that holds its line: dirty bytes (write_back) or a
  // write to the next level (write_through), which may move `out.done` later.
  void write_into(const Request& r, std::uint64_t set, int w, ScTick start, Outcome& out);
  // Forwards `r` to the next level starting at `at`; its byte enables, if any, go along.
  bool forward_write(const Request& r, ScTick at, ScTick& done);
  // Writes way `i`'s dirty bytes to the next level (timed from `at` or untimed), one write per
  // contiguous run, and cleans the way. Returns the last write's completion.
  ScTick write_back(std::size_t i, ScTick at, bool timed);
  void apply(const Request& r, std::uint8_t* line_data) const {
    cachekit::apply_request(r, line_data + offset_of(r.addr));
  }

  L1Config cfg_;
  ScTick hit_, miss_, refill_;
  unsigned line_shift_;
  std::uint64_t sets_;
  bool sets_pow2_;
  cachekit::NextLevel& next_;
  L1Stats& stats_;
  cachekit::CacheCore core_;
  cachekit::TagArray& tags_;               // core_.tags
  std::vector<std::uint8_t> dirty_;  // per way and byte: 0xff = written since the line came in
  std::vector<std::uint8_t> fill_buf_;
};

}  // namespace par::l1
