#include "par/cachekit/tag_array.hpp"

#include <algorithm>

namespace par::cachekit {

TagArray::TagArray(std::uint64_t sets, unsigned ways, unsigned line_bytes)
    : sets_(sets),
      ways_(ways),
      line_bytes_(line_bytes),
      packed_(ways <= 16),
      full_(ways >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << ways) - 1),
      order_(packed_ ? static_cast<std::size_t>(sets) : 0),
      valid_(static_cast<std::size_t>(sets), 0),
      ways_v_(static_cast<std::size_t>(sets * ways)),
      tags_(static_cast<std::size_t>(sets * ways), 0),
      data_(static_cast<std::size_t>(sets * ways * line_bytes), 0) {
  // Before any use, way k is the k-th least recent (any order would do: invalid ways go first).
  std::uint64_t initial = 0;
  for (unsigned k = 0; k < ways && packed_; ++k) initial |= std::uint64_t{k} << (4 * k);
  std::fill(order_.begin(), order_.end(), initial);
}

int TagArray::first_to_land(std::uint64_t set) const {
  const Way* w = &ways_v_[index(set, 0)];
  unsigned first = 0;
  for (unsigned i = 1; i < ways_; ++i)
    if (w[i].ready < w[first].ready) first = i;
  return static_cast<int>(first);
}

int TagArray::victim_by_stamps(std::uint64_t set, ScTick t) const {
  // One pass over the set's ways, keeping the candidates' keys in locals rather than re-reading
  // the ways they point to.
  const Way* w = &ways_v_[index(set, 0)];
  int lru = kNone;
  std::uint64_t lru_use = 0;
  int first_ready = kNone;
  ScTick first_ready_at = 0;
  for (unsigned i = 0; i < ways_; ++i) {
    const Way& x = w[i];
    if (!x.valid) return static_cast<int>(i);
    if (x.ready <= t) {
      if (lru == kNone || x.lru < lru_use) {
        lru = static_cast<int>(i);
        lru_use = x.lru;
      }
    } else if (first_ready == kNone || x.ready < first_ready_at) {
      first_ready = static_cast<int>(i);
      first_ready_at = x.ready;
    }
  }
  return lru != kNone ? lru : first_ready;
}

}  // namespace par::cachekit
