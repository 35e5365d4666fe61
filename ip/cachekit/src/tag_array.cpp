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
  int lru = kNone;
  int first_ready = kNone;
  for (unsigned w = 0; w < ways_; ++w) {
    const int wi = static_cast<int>(w);
    const Way& x = at(set, wi);
    if (!x.valid) return wi;
    if (x.ready <= t) {
      if (lru == kNone || x.lru < at(set, lru).lru) lru = wi;
    } else if (first_ready == kNone || x.ready < at(set, first_ready).ready) {
      first_ready = wi;
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
