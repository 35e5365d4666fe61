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

  unsigned size() const { return static_cast<unsigned>(entries_.size()); }
  // The earliest time >= t at which an entry is free.
  ScTick free_at(ScTick t) const {
    const ScTick r = entries_[order_.front()].ready;
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
  struct Entry {
    std::uint64_t line = 0;
    ScTick ready = 0;  // free from this time on
  };
  // Entry a before entry b: free earlier, or at the same time and first in the file.
  bool before(unsigned a, unsigned b) const {
    return entries_[a].ready < entries_[b].ready || (entries_[a].ready == entries_[b].ready && a < b);
  }

  std::vector<Entry> entries_;
  // The entries' indices as a binary min-heap by before(): the top is the entry free longest, so
  // free_at() costs no search and allocate() one sift-down.
  std::vector<unsigned> order_;
};

}  // namespace par::cachekit
