// A cache model's view of one access within one line (Request, its byte enables, its Outcome) and
// of the level below it (NextLevel), with the helpers that move an access's bytes. Plain C++.
#pragma once

#include <cstdint>
#include <cstring>
#include <vector>

#include "par/cachekit/tick.hpp"

namespace par::cachekit {

// TLM-style byte enables of a request: byte i is enabled when ptr is null or
// ptr[(offset + i) % len] != 0 (the pattern repeats, as in TLM-2.0).
struct ByteEnables {
  const std::uint8_t* ptr = nullptr;
  unsigned len = 0;
  unsigned offset = 0;
  bool on(unsigned i) const { return ptr == nullptr || ptr[(offset + i) % len] != 0; }
  bool all(unsigned n) const;
};

// The level below a cache (the DRAM controller below an L2 bank,
// the interconnect below an L1). Addresses are byte addresses.
class NextLevel {
 public:
  virtual ~NextLevel() = default;
  // Timed accesses starting at `start`; `done` is the completion time. False on an error.
  // `be` is null or holds one enable per byte.
  virtual bool read(std::uint64_t addr, std::uint8_t* data, unsigned len, ScTick start,
                    ScTick& done) = 0;
  virtual bool write(std::uint64_t addr, std::uint8_t* data, unsigned len, const std::uint8_t* be,
                     ScTick start, ScTick& done) = 0;
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
  ScTick at = 0;                   // arrival time at the cache
};

struct Outcome {
  bool ok = true;  // false: the next level answered with an error (the line was not allocated)
  ScTick done = 0;   // completion time
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

}  // namespace par::cachekit
