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
    const ScTick r = ready_[win_[1]];
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
  std::vector<std::uint64_t> lines_;  // the line of each entry's last fill
  // ready_[i]: entry i is free from then on; one more, never free, pads the tournament below.
  std::vector<ScTick> ready_;
  // A tournament over the entries: leaves_ leaves from index leaves_ (entry i at leaves_ + i,
  // the padding after the last entry), each inner node k holding the winner of nodes 2k and
  // 2k + 1 (the earlier ready time, the left one on a tie: the first in the file). The root
  // (node 1) is the entry free longest, so free_at() costs no search, and allocate() replays
  // one path of log2(entries) matches.
  std::size_t leaves_;
  std::vector<std::uint32_t> win_;
};

}  // namespace par::cachekit
