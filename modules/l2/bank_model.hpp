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
// Data is functional and in call order: the cache and the next level always hold the values of
// every access made so far, whatever their times.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "bank_stats.hpp"
#include "cache_core.hpp"
#include "l2_config.hpp"
#include "l2_geometry.hpp"
#include "mshr_file.hpp"
#include "tick.hpp"

namespace par::l2 {

// TLM-style byte enables of a request: byte i is enabled when ptr is null or
// ptr[(offset + i) % len] != 0 (the pattern repeats, as in TLM-2.0).
struct ByteEnables {
  const std::uint8_t* ptr = nullptr;
  unsigned len = 0;
  unsigned offset = 0;
  bool on(unsigned i) const { return ptr == nullptr || ptr[(offset + i) % len] != 0; }
  bool all(unsigned n) const;
};

// The level below a bank (the DRAM controller). Addresses are byte addresses.
class NextLevel {
 public:
  virtual ~NextLevel() = default;
  // Timed accesses starting at `start`; `done` is the completion time. False on an error.
  // `be` is null or holds one enable per byte.
  virtual bool read(std::uint64_t addr, std::uint8_t* data, unsigned len, Tick start,
                    Tick& done) = 0;
  virtual bool write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
                     Tick start, Tick& done) = 0;
  // Untimed debug accesses.
  virtual bool read_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len) = 0;
  virtual bool write_dbg(std::uint64_t addr, std::uint8_t* data, unsigned len,
                         const std::uint8_t* be) = 0;
};

// One access, within one line.
struct Request {
  bool write = false;
  std::uint64_t addr = 0;
  unsigned len = 0;
  std::uint8_t* data = nullptr;  // read: filled in; write: the bytes to write
  ByteEnables be;
  Tick at = 0;                   // arrival time at the bank
};

struct Outcome {
  bool ok = true;  // false: the next level answered with an error (the line was not allocated)
  Tick done = 0;   // completion time
};

// The request's byte enables as one byte per data byte (0 or 0xff), for the next level; empty
// when the request has none.
std::vector<std::uint8_t> piece_enables(const Request& r);

// Moves the request's bytes between its data and `p`, the cached line's bytes at the request's
// offset: a write into the line, a read out of it, honouring byte enables. Inline: once per access.
void apply_enabled(const Request& r, std::uint8_t* p);
inline void apply_request(const Request& r, std::uint8_t* p) {
  if (r.be.ptr != nullptr) return apply_enabled(r, p);
  std::uint8_t* dst = r.write ? p : r.data;
  const std::uint8_t* src = r.write ? r.data : p;
  switch (r.len) {  // the usual access and line sizes as constants: no library call
    case 8: std::memcpy(dst, src, 8); break;
    case 4: std::memcpy(dst, src, 4); break;
    case 16: std::memcpy(dst, src, 16); break;
    case 32: std::memcpy(dst, src, 32); break;
    case 64: std::memcpy(dst, src, 64); break;
    default: std::memcpy(dst, src, r.len); break;
  }
}

// The untimed access of the next level for a request that the cache does not hold (debug
// transport): disabled bytes of a read stay untouched in the request's data.
bool debug_below(NextLevel& next, const Request& r);

class BankModel {
 public:
  // `cfg` must be valid; `period` is the bank clock period in ticks; statistics are registered
  // in `group`.
  BankModel(const L2Config& cfg, Tick period, NextLevel& next, simkit::StatGroup& group);

  Outcome access(const Request& r);
  // Untimed access through the cache: a present line (dirty or not) is read or written in place
  // (a write marks it dirty); otherwise the next level is accessed. Nothing is allocated.
  bool debug(const Request& r);
  // Writes every dirty line back (each takes a port slot from `at`); lines stay valid and clean,
  // or are dropped when `invalidate`. Returns when the last writeback completes (`at` if none).
  Tick flush(Tick at, bool invalidate);
  // The same with untimed debug writes.
  void flush_dbg(bool invalidate);

  // Inspection (tests, traces).
  bool contains(std::uint64_t addr) const;
  bool is_dirty(std::uint64_t addr) const;
  const L2Geometry& geometry() const { return geo_; }
  const MshrFile& mshrs() const { return core_.mshrs; }
  Tick period() const { return core_.period; }
  BankStats& stats() { return stats_; }

 private:
  Outcome miss(const Request& r, std::uint64_t set, std::uint64_t line, Tick start);
  void apply(const Request& r, std::uint8_t* line_data) const {
    apply_request(r, line_data + geo_.offset_in_line(r.addr));
  }

  L2Config cfg_;
  L2Geometry geo_;
  Tick hit_;
  NextLevel& next_;
  BankStats stats_;
  CacheCore core_;
  TagArray& tags_;  // core_.tags
  std::vector<std::uint8_t> fill_buf_;
};

}  // namespace par::l2
