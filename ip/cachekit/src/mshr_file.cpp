#include "par/cachekit/mshr_file.hpp"

#include <algorithm>
#include <cassert>

namespace par::cachekit {

MshrFile::MshrFile(unsigned entries) : lines_(entries, 0), order_(entries) {
  // All free since time 0: in index order.
  for (unsigned i = 0; i < entries; ++i) order_[i] = key(0, i);
}

void MshrFile::allocate(std::uint64_t line, ScTick t, ScTick ready) {
  const Key first = order_[head_];
  assert(ready_of(first) <= t && "MshrFile::allocate without a free entry");
  if (ready_of(first) > t) return;
  const unsigned index = index_of(first);
  lines_[index] = line;
  const Key k = key(ready, index);
  // The first slot becomes the last place of the order; move the new key down to its place.
  const std::size_t n = order_.size();
  std::size_t hole = head_;
  head_ = head_ + 1 == n ? 0 : head_ + 1;
  while (hole != head_) {
    const std::size_t prev = hole == 0 ? n - 1 : hole - 1;
    if (!(k < order_[prev])) break;
    order_[hole] = order_[prev];
    hole = prev;
  }
  order_[hole] = k;
}

unsigned MshrFile::busy(ScTick t) const {
  return static_cast<unsigned>(std::count_if(order_.begin(), order_.end(), [t](Key k) { return ready_of(k) > t; }));
}

bool MshrFile::in_flight(std::uint64_t line, ScTick t) const {
  return std::any_of(order_.begin(), order_.end(),
                     [&](Key k) { return ready_of(k) > t && lines_[index_of(k)] == line; });
}

}  // namespace par::cachekit
