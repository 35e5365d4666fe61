#include "par/cachekit/mshr_file.hpp"

#include <algorithm>
#include <cassert>

namespace par::cachekit {

ScTick MshrFile::free_at(ScTick t) const {
  ScTick earliest = entries_.front().ready;
  for (const Entry& e : entries_) {
    if (e.ready <= t) return t;
    earliest = std::min(earliest, e.ready);
  }
  return earliest;
}

void MshrFile::allocate(std::uint64_t line, ScTick t, ScTick ready) {
  // Reuse the entry that has been free longest, so the choice does not depend on vector order.
  Entry* best = nullptr;
  for (Entry& e : entries_) {
    if (e.ready <= t && (best == nullptr || e.ready < best->ready)) best = &e;
  }
  assert(best != nullptr && "MshrFile::allocate without a free entry");
  if (best == nullptr) return;
  best->line = line;
  best->ready = ready;
}

unsigned MshrFile::busy(ScTick t) const {
  return static_cast<unsigned>(
      std::count_if(entries_.begin(), entries_.end(), [t](const Entry& e) { return e.ready > t; }));
}

bool MshrFile::in_flight(std::uint64_t line, ScTick t) const {
  return std::any_of(entries_.begin(), entries_.end(),
                     [&](const Entry& e) { return e.line == line && e.ready > t; });
}

}  // namespace par::cachekit
