// Miss status holding registers of one cache, as reservations: an entry is busy from the miss
// that allocates it until its line fill completes. Plain C++.
//
// Secondary misses do not need an entry: the line's tag is installed when the primary miss is
// handled (with the fill's completion time), so a later access to it finds it in flight and
// merges (TagArray). The file bounds how many fills a bank has in flight.
//
// Loosely-timed approximation: an entry counts as busy for any request earlier than its
// completion, even one that (arriving out of time order) is earlier than the allocating miss.
#pragma once

#include <cstdint>
#include <vector>

#include "par/cachekit/tick.hpp"

namespace par::cachekit {

class MshrFile {
 public:
  explicit MshrFile(unsigned entries);

  unsigned size() const { return static_cast<unsigned>(lines_.size()); }
  // The earliest time >= t at which an entry is free.
  ScTick free_at(ScTick t) const {
    const ScTick r = ready_of(order_[head_]);
    return r > t ? r : t;
  }
  // Allocates a free entry for `line` at time `t` until `ready`; requires free_at(t) == t. The
  // entry is the one free longest (the first of them in the file on a tie), so the choice does
  // not depend on how entries were reused before.
  void allocate(std::uint64_t line, ScTick t, ScTick ready);
  // Entries busy at time t.
  unsigned busy(ScTick t) const;
  // True when a fill of `line` is in flight at time t.
  bool in_flight(std::uint64_t line, ScTick t) const;

 private:
  // An entry's place in the order: (ready << 32) | index, so one comparison orders by completion
  // and, on a tie, by position in the file.
  __extension__ using Key = unsigned __int128;
  static Key key(ScTick ready, unsigned index) { return (static_cast<Key>(ready) << 32) | index; }
  static ScTick ready_of(Key k) { return static_cast<ScTick>(k >> 32); }
  static unsigned index_of(Key k) { return static_cast<unsigned>(k); }

  std::vector<std::uint64_t> lines_;  // the line of each entry's last fill
  // Every entry's key in ascending order, as a ring starting at head_: the first is the entry
  // free longest, so free_at() costs no search, and allocate() takes it and inserts the new key
  // from the end (a fill usually completes after most others in flight: a few steps).
  std::vector<Key> order_;
  std::size_t head_ = 0;
};

}  // namespace par::cachekit
