// Tags, LRU state and line data of one set-associative cache. Plain C++.
//
// A way also records when its data is (or will be) present: `ready` is the completion time of the
// fill that brought the line in. A line whose fill completes after a request's time is in flight
// for that request: the request merges into the fill instead of hitting, and the way cannot be
// chosen as a victim (its MSHR still owns it).
#pragma once

#include <cstdint>
#include <vector>

#include "par/cachekit/tick.hpp"

namespace par::cachekit {

struct Way {
  std::uint64_t line = 0;  // full line number (address / line bytes): unambiguous tag
  std::uint64_t lru = 0;   // arrays of more than 16 ways: larger = used more recently (call order)
  ScTick ready = 0;          // the line's data is present from this time on
  bool valid = false;
  bool dirty = false;
  bool prefetched = false;  // brought in by a prefetch request and not used by an access since
};

class TagArray {
 public:
  static constexpr int kNone = -1;

  TagArray(std::uint64_t sets, unsigned ways, unsigned line_bytes);

  std::uint64_t sets() const { return sets_; }
  unsigned ways() const { return ways_; }

  // The way holding `line` in `set`, or kNone.
  int find(std::uint64_t set, std::uint64_t line) const {
    const std::uint64_t* t = &tags_[index(set, 0)];
    for (unsigned w = 0; w < ways_; ++w)
      if (t[w] == line + 1) return static_cast<int>(w);
    return kNone;
  }
  // The way to fill at time `t`: an invalid way if any (the first), else the least recently used
  // way whose line is not in flight at `t`; if every way is in flight, the one whose fill
  // completes first (the first of them on a tie; the caller waits for it). Inline: every miss
  // asks, and with the recency order kept per set the usual answer is its first way.
  int victim(std::uint64_t set, ScTick t) const {
    if (!packed_) return victim_by_stamps(set, t);
    const std::uint64_t valid = valid_[set];
    if (valid != full_) return __builtin_ctzll(~valid);
    const Way* w = &ways_v_[index(set, 0)];
    std::uint64_t order = order_[set];
    for (unsigned k = 0; k < ways_; ++k, order >>= 4) {
      const unsigned i = static_cast<unsigned>(order & 15);
      if (w[i].ready <= t) return static_cast<int>(i);
    }
    return first_to_land(set);
  }
  // Marks the way most recently used.
  void touch(std::uint64_t set, int way) {
    if (!packed_) {
      at(set, way).lru = ++use_clock_;
      return;
    }
    // Find the way's nibble (the lowest zero nibble of order ^ way, exact: no borrow reaches it),
    // take it out and put it last.
    constexpr std::uint64_t kOnes = 0x1111111111111111ull;
    std::uint64_t& order = order_[set];
    const auto w = static_cast<std::uint64_t>(way);
    const std::uint64_t x = order ^ (w * kOnes);
    const unsigned pos = static_cast<unsigned>(__builtin_ctzll((x - kOnes) & ~x & (kOnes << 3))) & ~3u;
    const unsigned last = 4 * (ways_ - 1);
    if (pos == last) return;
    order = (order & ((std::uint64_t{1} << pos) - 1)) | ((order >> (pos + 4)) << pos) | (w << last);
  }
  // Puts `line` into the way (valid, most recently used); the data is left to the caller.
  void install(std::uint64_t set, int way, std::uint64_t line, ScTick ready, bool dirty) {
    Way& x = at(set, way);
    x.line = line;
    tags_[index(set, way)] = line + 1;
    x.ready = ready;
    x.valid = true;
    x.dirty = dirty;
    x.prefetched = false;
    valid_[set] |= std::uint64_t{1} << way;
    touch(set, way);
  }

  Way& at(std::uint64_t set, int way) { return ways_v_[index(set, way)]; }
  const Way& at(std::uint64_t set, int way) const { return ways_v_[index(set, way)]; }
  std::uint8_t* data(std::uint64_t set, int way) {
    return data_.data() + index(set, way) * line_bytes_;
  }

  // Drops the line of way `i` (index as way_at).
  void invalidate(std::size_t i) {
    ways_v_[i].valid = false;
    tags_[i] = 0;
    valid_[i / ways_] &= ~(std::uint64_t{1} << (i % ways_));
  }

  // Every way, for flushes and inspection (index = set * ways + way).
  std::size_t size() const { return ways_v_.size(); }
  Way& way_at(std::size_t i) { return ways_v_[i]; }
  std::uint8_t* data_at(std::size_t i) { return data_.data() + i * line_bytes_; }

 private:
  std::size_t index(std::uint64_t set, int way) const {
    return static_cast<std::size_t>(set * ways_ + static_cast<unsigned>(way));
  }

  int victim_by_stamps(std::uint64_t set, ScTick t) const;
  int first_to_land(std::uint64_t set) const;  // every way valid and in flight

  std::uint64_t sets_;
  unsigned ways_;
  unsigned line_bytes_;
  // Recency: up to 16 ways, per set the ways from least to most recently used as 4-bit fields
  // (`order_`, field k = the k-th least recent), so a victim is usually the first field and a
  // use moves one field; wider sets stamp each use in Way::lru and search.
  bool packed_;
  std::uint64_t full_;  // valid_ of a set whose ways are all valid
  std::uint64_t use_clock_ = 0;
  std::vector<std::uint64_t> order_;
  std::vector<std::uint64_t> valid_;  // per set: bit w = way w valid
  std::vector<Way> ways_v_;
  // line + 1 of each valid way, 0 for an invalid one: a compact copy for the lookup (one set's
  // tags share a cache line).
  std::vector<std::uint64_t> tags_;
  std::vector<std::uint8_t> data_;
};

}  // namespace par::cachekit
