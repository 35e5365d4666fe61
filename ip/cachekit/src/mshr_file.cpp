#include "par/cachekit/mshr_file.hpp"

#include <algorithm>
#include <cassert>

namespace par::cachekit {

MshrFile::MshrFile(unsigned entries) : entries_(entries), order_(entries) {
  // All free since time 0: in index order, a heap already.
  for (unsigned i = 0; i < entries; ++i) order_[i] = i;
}

void MshrFile::allocate(std::uint64_t line, ScTick t, ScTick ready) {
  const unsigned top = order_.front();
  Entry& e = entries_[top];
  assert(e.ready <= t && "MshrFile::allocate without a free entry");
  if (e.ready > t) return;
  e.line = line;
  e.ready = ready;
  // The top's key grew: sift it down.
  std::size_t i = 0;
  const std::size_t n = order_.size();
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && before(order_[c + 1], order_[c])) ++c;
    if (!before(order_[c], top)) break;
    order_[i] = order_[c];
    i = c;
  }
  order_[i] = top;
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
