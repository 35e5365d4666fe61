#include "par/cachekit/tag_array.hpp"

namespace par::cachekit {

TagArray::TagArray(std::uint64_t sets, unsigned ways, unsigned line_bytes)
    : sets_(sets),
      ways_(ways),
      line_bytes_(line_bytes),
      ways_v_(static_cast<std::size_t>(sets * ways)),
      tags_(static_cast<std::size_t>(sets * ways), 0),
      data_(static_cast<std::size_t>(sets * ways * line_bytes), 0) {}

int TagArray::victim(std::uint64_t set, ScTick t) const {
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

void TagArray::install(std::uint64_t set, int way, std::uint64_t line, ScTick ready, bool dirty) {
  Way& x = at(set, way);
  x.line = line;
  tags_[index(set, way)] = line + 1;
  x.ready = ready;
  x.valid = true;
  x.dirty = dirty;
  x.prefetched = false;
  touch(set, way);
}

}  // namespace par::cachekit
